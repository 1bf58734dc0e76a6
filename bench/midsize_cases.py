"""Mid-size mesh pairs (200 to 20,000 triangles) for bench/midsize.py: meshes nobody on the team made, and two
generated 20k-triangle meshes.

Sources:
- pybullet's `pybullet_data` (a test/bench-only package, see requirements.txt): bunny, torus, teddy (its 15 convex
  pieces as one mesh), duck, soccer ball (quads split in two).  Missing package: those rows are skipped.
- FCL's own benchmark pair `env.obj` / `rob.obj`, read from bench/data/fcl/ when that folder has them.
- generated (bench/mesh.py's geometry at about 20,000 triangles): a noisy UV sphere and a torus.

Each mesh is paired with a rotated copy of itself (or the other generated mesh) placed three ways, seeded:
separated (the projections on a random direction 5 % of the diagonal apart, so the pair is apart), crossing (the
projections overlapping by 30 % of A's extent) and inside (B shrunk into a ball of clearance found inside A by the
engine's own winding numbers and closest points: B lies wholly inside A).  Everything is baked into world arrays, as
a user's arrays come in.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
FCL_DATA = BENCH / "data" / "fcl"

PYBULLET = (("bunny", "bunny.obj"), ("torus", "torus/torus_textured.obj"), ("teddy", "teddy2_VHACD_CHs.obj"),
            ("duck", "duck.obj"), ("soccer ball", "soccerball.obj"))
RELATIONS = ("separated", "crossing", "inside")


def load_obj(path) -> tuple[np.ndarray, np.ndarray]:
    """Vertices and triangles of a Wavefront .obj (every object in one mesh; polygons fanned from their first
    corner; texture and normal indices ignored; negative indices count from the end)."""
    vertices, faces = [], []
    for line in Path(path).read_text(errors="replace").splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            vertices.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            idx = []
            for item in parts[1:]:
                k = int(item.split("/")[0])
                idx.append(k - 1 if k > 0 else len(vertices) + k)
            faces.extend([idx[0], idx[i], idx[i + 1]] for i in range(1, len(idx) - 1))
    return np.array(vertices, float), np.array(faces, np.int64)


def pybullet_meshes() -> dict:
    """name -> (vertices, triangles) of the pybullet_data meshes, {} when the package is not installed (the
    folder may also be given as MIDSIZE_PYBULLET_DATA)."""
    given = os.environ.get("MIDSIZE_PYBULLET_DATA")  # bench/midsize.py's parent found it in the project venv
    if given:
        root = Path(given)
    else:
        try:
            import pybullet_data
        except ImportError:
            return {}
        root = Path(pybullet_data.getDataPath())
    return {name: load_obj(root / rel) for name, rel in PYBULLET if (root / rel).exists()}


def fcl_meshes() -> dict:
    """env and rob of FCL's benchmark, when bench/data/fcl/ holds them."""
    return {name: load_obj(FCL_DATA / f"{name}.obj") for name in ("env", "rob") if (FCL_DATA / f"{name}.obj").exists()}


def generated_meshes() -> dict:
    import mesh as mesh_bench  # bench/mesh.py's geometry
    rng = np.random.default_rng(20261127)
    return {"noisy sphere 20k": mesh_bench.noisy_sphere(rng, 1.0, 100, 101, 0.01),
            "torus 20k": mesh_bench.torus(1.0, 0.3, 200, 50)}


def _rotation(rng) -> np.ndarray:
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _clear_point(v, t):
    """(point, clearance): a point inside the closed mesh (v, t) far from its surface, by the engine's winding
    numbers and closest points over a 10^3 grid of its box (None when no grid point is inside)."""
    import core
    from core.mesh.bvh import WorldBVH
    from core.mesh.points import closest_points, winding_numbers
    m = core.TriangleMesh(v, t)
    world = WorldBVH(m._local.bvh, m.vertices, None, np.zeros(3))
    lo, hi = v.min(axis=0), v.max(axis=0)
    s = (np.arange(10) + 0.5) / 10
    grid = lo + (hi - lo) * np.stack(np.meshgrid(s, s, s, indexing="ij"), -1).reshape(-1, 3)
    scale = float(np.linalg.norm(hi - lo))
    inside = grid[winding_numbers(grid, world, scale) != 0]
    if inside.shape[0] == 0:
        return None
    dist = closest_points(inside, world)[0]
    k = int(np.argmax(dist))
    return inside[k], float(dist[k])


def place(a, b, relation: str, seed: int):
    """World arrays (va, ta), (vb, tb) of b placed against a in `relation`, or None (no room inside a)."""
    rng = np.random.default_rng(seed)
    va, ta = a
    vb, tb = b
    rot = _rotation(rng)
    vb = (vb - 0.5 * (vb.min(axis=0) + vb.max(axis=0))) @ rot.T
    diag = float(np.linalg.norm(va.max(axis=0) - va.min(axis=0)))
    if relation == "inside":
        found = _clear_point(va, ta)
        if found is None:
            return None
        point, clearance = found
        radius = float(np.sqrt((vb * vb).sum(axis=1).max()))
        return (va, ta), (vb * (0.5 * clearance / radius) + point, tb)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    pa, pb = va @ u, vb @ u
    if relation == "separated":
        shift = pa.max() - pb.min() + 0.05 * diag
    else:
        shift = pa.max() - pb.min() - 0.3 * (pa.max() - pa.min())
    return (va, ta), (vb + shift * u, tb)


def cases(sources=("pybullet", "fcl", "generated")):
    """[(name, triangles of A + B, (va, ta), (vb, tb))], seeded."""
    meshes = {}
    if "pybullet" in sources:
        meshes.update(pybullet_meshes())
    out = []
    for i, (name, m) in enumerate(meshes.items()):
        for j, relation in enumerate(RELATIONS):
            placed = place(m, m, relation, 1000 * i + j)
            if placed is not None:
                out.append((f"{name}, {relation}", *placed))
    if "fcl" in sources:
        fm = fcl_meshes()
        if len(fm) == 2:
            for j, relation in enumerate(("separated", "crossing")):
                out.append((f"FCL env / rob, {relation}", *place(fm["env"], fm["rob"], relation, 5000 + j)))
    if "generated" in sources:
        g = generated_meshes()
        sphere, tor = g["noisy sphere 20k"], g["torus 20k"]
        for j, relation in enumerate(RELATIONS):
            placed = place(sphere, sphere, relation, 7000 + j)
            if placed is not None:
                out.append((f"noisy sphere 20k, {relation}", *placed))
        for j, relation in enumerate(("separated", "crossing")):
            out.append((f"sphere 20k / torus 20k, {relation}", *place(sphere, tor, relation, 8000 + j)))
    return out


def one_shot(core, va, ta, vb, tb):
    """Arrays in, answer out, nothing kept from an earlier call (the topology cache emptied first).  The loose depth
    interval (`depth_interval=False`): the verdict, distance, crossing curve and containment, the work fcl's
    collide + distance does; the narrowed interval's own cost is bench/depth.py's."""
    from core.mesh import trimesh
    trimesh._TOPOLOGIES.clear()
    return core.collide(core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb), depth_interval=False)


def dump(contact) -> bytes:
    """Every field of an answer as bytes (for bit-for-bit comparisons)."""
    parts = []
    for key in ("status", "containment"):
        parts.append(repr(getattr(contact, key)).encode())
    for key in ("distance", "normal", "point_a", "point_b", "gap", "intersection", "scale", "touching_tolerance"):
        parts.append(np.ascontiguousarray(np.asarray(getattr(contact, key), float)).tobytes())
    for key in ("converged", "iteration_cap_hit", "fallback_used", "open_a", "open_b", "gjk_iterations",
                "epa_iterations", "beyond_max_distance"):
        parts.append(repr(getattr(contact, key, None)).encode())
    return b"|".join(parts)


