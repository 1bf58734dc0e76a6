"""High-poly convex shapes, their identical and near-identical copies, and an exact oracle for the pair's depth.

Shared by tests/core/test_duplicates.py, the Ico Sphere regression in test_regressions.py and bench/duplicates.py
(issue 7: a shape duplicated in place, Shift+D in Blender, made EPA stop at its cap).

Shapes (vertex arrays, size ~2, centred near the origin; built here in numpy, no Blender):
- `icosphere(subdivisions)`: an icosahedron split 4-to-1 per subdivision, every vertex pushed to the unit sphere
  (10 x 4^s + 2 vertices: 642, 2,562, 10,242, 40,962 for s = 3..6); centrally symmetric, bit for bit;
- `uv_sphere(segments, rings)`: Blender's UV sphere layout (poles + rings x segments);
- `blender_uv_sphere(segments, rings)`: the same made as Blender's operator makes it, float32 and not exactly
  convex, with its triangles (a duplicate in Hull mode: tests/core/test_polytope_depth.py);
- `cylinder(sides)`, `cone(sides)`: regular polygons at z = -1 and z = +1 (cone: one apex at z = +1);
- `fan_caps(sides)`, `halving_caps(sides)`: outward triangles of `cylinder(sides)`, each cap fanned from its first
  rim vertex (degree sides - 1, as qhull and some exporters cut a flat n-gon) or cut as Blender cuts an n-gon
  (ears clipped in rounds, every other rim vertex per round: degree ~2 log2(sides)), each side quad split along a
  diagonal;
- `rounded_box(grid, bevel)`: a subdivided cube (grid x grid per face) with its edges and corners bevelled
  (every point is pulled to the surface of a box of half extents 1 - bevel swept by a ball of radius bevel);
- `uv_sphere_triangles(segments, rings)`: Blender's triangles for that layout (pole fans, every quad split along
  its first corner's diagonal), outward (`blender_uv_sphere`'s triangles);
- `subdivided_cube(grid)`: (vertices, triangles) of a cube of half size 1 with each face a grid x grid lattice of
  quads split along one diagonal (Blender's Subdivide on the default cube), outward;
- `hull_triangles(points)`: scipy's hull triangles of a point set, oriented outward; `float32(points)`: rounded as
  Blender stores them;
- `blob(subdivisions, seed)`: stands in for "Suzanne subdivided twice": an Ico Sphere's vertices moved
  radially by a seeded smooth random field (a few low-order harmonics), scaled non-uniformly and sheared, so the
  hull has no symmetry at all and every vertex sits on or near it.

Oracle (`exact_depth`): for two convex polytopes A and B whose Minkowski difference M = A - B holds the origin,
the penetration depth is min over unit u of h_M(u) = h_A(u) + h_B(-u), and that minimum is attained at a facet
normal of M.  Every facet of M is a facet of A plus a vertex of B, a vertex of A plus a facet of -B, or an edge of
A plus an edge of -B whose Gauss-map arcs cross (Minkowski sum of polytopes); its normal is then a facet normal
of A, minus a facet normal of B, or +-(e_a x e_b).  So:
- candidates = facet normals of hull(A) (scipy's qhull, normals recomputed from the vertices by the corpus
  oracle's `_facet_offsets`), minus those of hull(B), and +-(e_a x e_b) for every pair of hull edges whose
  Gauss arcs cross (pairs found with a k-d tree, crossing tested with a slack that keeps near misses);
- h_M over every candidate is one chunked matrix product over the hull vertices, and each value is an upper
  bound of the depth (for any unit u), so the minimum over a superset of M's facet normals *is* the depth.
Nothing here calls the engine.  The cost is O(candidates x hull vertices): a second for 2,562-vertex hulls.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.spatial import ConvexHull, cKDTree

from tests.core.oracle import ShapeSpec, _facet_offsets, distance_to_shape

__all__ = ["icosphere", "uv_sphere", "uv_sphere_triangles", "blender_uv_sphere", "subdivided_cube",
           "hull_triangles", "float32", "cylinder", "cone", "fan_caps",
           "halving_caps", "rounded_box", "blob", "rotation", "COPIES", "near_copy",
           "placement", "exact_depth", "symmetric_width", "point_offset", "HullInfo"]


# ----------------------------------------------------------------------------------------------- shapes

_T = (1.0 + 5.0 ** 0.5) / 2.0
_ICO_VERTS = [(-1, _T, 0), (1, _T, 0), (-1, -_T, 0), (1, -_T, 0), (0, -1, _T), (0, 1, _T), (0, -1, -_T),
              (0, 1, -_T), (_T, 0, -1), (_T, 0, 1), (-_T, 0, -1), (-_T, 0, 1)]
_ICO_FACES = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
              (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
              (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def icosphere(subdivisions: int) -> np.ndarray:
    """Vertices of an Ico Sphere of radius 1: the icosahedron split `subdivisions` times.

    10 x 4^s + 2 vertices: s = 3 -> 642, 4 -> 2,562, 5 -> 10,242, 6 -> 40,962.  The issue's "Ico Sphere with 4
    subdivisions (2,562 vertices)" is s = 4 here (Blender counts the bare icosahedron as subdivision 1, so its
    menu calls the 2,562-vertex one 5; the vertex count is what matters)."""
    verts = [np.array(p, dtype=np.float64) for p in _ICO_VERTS]
    verts = [p / np.linalg.norm(p) for p in verts]
    faces = list(_ICO_FACES)
    for _ in range(subdivisions):
        cache: dict = {}

        def mid(i, j):
            key = (min(i, j), max(i, j))
            if key not in cache:
                m = verts[i] + verts[j]
                verts.append(m / np.linalg.norm(m))
                cache[key] = len(verts) - 1
            return cache[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new
    return np.array(verts)


def uv_sphere(segments: int, rings: int) -> np.ndarray:
    """Blender's UV sphere layout: two poles and (rings - 1) latitude rings of `segments` vertices, radius 1."""
    theta = np.arange(1, rings) * math.pi / rings
    phi = np.arange(segments) * 2.0 * math.pi / segments
    st, ct = np.sin(theta)[:, None], np.cos(theta)[:, None]
    ring = np.stack([st * np.cos(phi)[None, :], st * np.sin(phi)[None, :], np.broadcast_to(ct, (rings - 1, segments))],
                    axis=-1).reshape(-1, 3)
    return np.vstack([[0.0, 0.0, 1.0], ring, [0.0, 0.0, -1.0]])


def uv_sphere_triangles(segments: int, rings: int) -> np.ndarray:
    """Triangles of `uv_sphere(segments, rings)` as Blender makes them: a fan at each pole, and each quad between
    two rings split into (a, b, c), (a, c, d) along the diagonal from its first corner; outward."""
    def at(ring, k):
        return 1 + ring * segments + k % segments
    bottom = 1 + (rings - 1) * segments
    tris = [(0, at(0, k), at(0, k + 1)) for k in range(segments)]
    for ring in range(rings - 2):
        for k in range(segments):
            a, b, c, d = at(ring, k), at(ring + 1, k), at(ring + 1, k + 1), at(ring, k + 1)
            tris += [(a, b, c), (a, c, d)]
    tris += [(bottom, at(rings - 2, k + 1), at(rings - 2, k)) for k in range(segments)]
    return np.array(tris, dtype=np.int64)


def subdivided_cube(grid: int) -> tuple[np.ndarray, np.ndarray]:
    """A cube of half size 1, each face a `grid` x `grid` lattice of quads split along one diagonal, outward."""
    g = np.linspace(-1.0, 1.0, grid + 1)
    points, tris = [], []
    for axis in range(3):
        for side in (-1.0, 1.0):
            u, v = np.meshgrid(g, g, indexing="ij")
            face = np.zeros((grid + 1, grid + 1, 3))
            face[..., axis] = side
            face[..., (axis + 1) % 3], face[..., (axis + 2) % 3] = u, v
            base = sum(len(p) for p in points)
            points.append(face.reshape(-1, 3))
            at = lambda i, j: base + i * (grid + 1) + j
            for i in range(grid):
                for j in range(grid):
                    a, b, c, d = at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)
                    tris += [(a, b, c), (a, c, d)] if side > 0 else [(a, c, b), (a, d, c)]
    points = np.vstack(points)
    unique, index = np.unique(points, axis=0, return_inverse=True)  # weld the shared edges
    return unique, index.reshape(-1)[np.array(tris)]


def hull_triangles(points: np.ndarray) -> np.ndarray:
    """The convex hull's triangles of a point set, oriented outward (scipy)."""
    tris = ConvexHull(points).simplices.copy()
    n = np.cross(points[tris[:, 1]] - points[tris[:, 0]], points[tris[:, 2]] - points[tris[:, 0]])
    flip = np.einsum("ij,ij->i", n, points[tris[:, 0]] - points.mean(axis=0)) < 0.0
    tris[flip] = tris[flip][:, [0, 2, 1]]
    return tris


def float32(points: np.ndarray) -> np.ndarray:
    """Points rounded to float32 as Blender stores them (returned as float64)."""
    return np.asarray(points, dtype=np.float32).astype(np.float64)


def _polygon(sides: int) -> np.ndarray:
    phi = np.arange(sides) * 2.0 * math.pi / sides
    return np.column_stack([np.cos(phi), np.sin(phi)])


def cylinder(sides: int) -> np.ndarray:
    p = _polygon(sides)
    return np.vstack([np.column_stack([p, -np.ones(sides)]), np.column_stack([p, np.ones(sides)])])


def fan_caps(sides: int) -> np.ndarray:
    """Triangles of `cylinder(sides)` (rim k at z = -1 is vertex k, at z = +1 vertex sides + k), each cap fanned
    from its first rim vertex, outward."""
    k = np.arange(1, sides - 1)
    bottom = np.column_stack([np.zeros_like(k), k + 1, k])
    top = np.column_stack([np.full_like(k, sides), sides + k, sides + k + 1])
    return np.vstack([bottom, top, _cylinder_side(sides)])


def halving_caps(sides: int) -> np.ndarray:
    """Triangles of `cylinder(sides)`, each cap cut in rounds: (r0, r1, r2), (r2, r3, r4), ... of the ring left,
    the middle corners dropped; outward."""
    def cap(ring):
        tris = []
        while len(ring) > 3:
            tris += [(ring[i], ring[i + 1], ring[(i + 2) % len(ring)]) for i in range(0, len(ring) - 1, 2)]
            ring = ring[0::2]
        return tris + ([tuple(ring)] if len(ring) == 3 else [])
    bottom = np.array(cap(list(range(sides))))[:, ::-1]  # facing -z
    top = np.array(cap(list(range(sides, 2 * sides))))
    return np.vstack([bottom, top, _cylinder_side(sides)])


def _cylinder_side(sides: int) -> np.ndarray:
    i = np.arange(sides)
    j = (i + 1) % sides
    return np.vstack([np.column_stack([i, j, sides + j]), np.column_stack([i, sides + j, sides + i])])


def cone(sides: int) -> np.ndarray:
    p = _polygon(sides)
    return np.vstack([np.column_stack([p, -np.ones(sides)]), [[0.0, 0.0, 1.0]]])


def rounded_box(grid: int, bevel: float = 0.5) -> np.ndarray:
    """A cube subdivided `grid` x `grid` per face with bevelled edges and corners (a rounded box point set)."""
    g = np.linspace(-1.0, 1.0, grid + 1)
    u, v = np.meshgrid(g, g)
    u, v = u.ravel(), v.ravel()
    one = np.ones_like(u)
    faces = [np.column_stack(c) for c in ((one, u, v), (-one, u, v), (u, one, v), (u, -one, v), (u, v, one),
                                          (u, v, -one))]
    p = np.unique(np.vstack(faces), axis=0)
    inner = 1.0 - bevel
    core = np.clip(p, -inner, inner)
    out = p - core
    length = np.linalg.norm(out, axis=1)
    return core + bevel * out / length[:, None]


def blob(subdivisions: int = 4, seed: int = 2) -> np.ndarray:
    """A smooth, lumpy, asymmetric convex-ish cloud ("Suzanne subdivided twice" stand-in), seeded."""
    rng = np.random.default_rng([7, seed])
    d = icosphere(subdivisions)
    r = np.ones(len(d))
    for k in range(1, 5):
        axis = _unit(rng.normal(size=3))
        r += 0.06 / k * np.sin(k * 2.0 * (d @ axis) + rng.uniform(0, 2 * math.pi))
    linear = np.array([[1.0, 0.25, 0.0], [0.0, 0.8, 0.15], [0.1, 0.0, 0.6]])
    return (d * r[:, None]) @ linear.T + np.array([0.1, -0.05, 0.02])


def rotation(angle: float, axis) -> np.ndarray:
    """Rotation matrix by `angle` about the unit `axis` (Rodrigues)."""
    k = _unit(np.asarray(axis, dtype=np.float64))
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * kx + (1.0 - math.cos(angle)) * (kx @ kx)


COPIES = {
    "identical": {},
    "inside a 1.001 copy": {"scale": 1.001},
    "rotated 1e-6": {"angle": 1e-6},
    "rotated 1e-2": {"angle": 1e-2},
    "shifted 1e-9": {"shift": 1e-9},
    "shifted 1e-3": {"shift": 1e-3},
    "scaled 1-1e-6": {"scale": 1.0 - 1e-6},
}
"""The issue's copies of a shape, at the ends of its ranges: `near_copy` / `placement` keyword arguments by name."""


def near_copy(vertices: np.ndarray, rng, *, angle: float = 0.0, shift: float = 0.0, scale: float = 1.0):
    """A copy of `vertices` rotated by `angle` about a random axis through their centroid, scaled by `scale`
    about it and moved by `shift` x size along a random direction (size = the cloud's bounding-box diagonal)."""
    centre = vertices.mean(axis=0)
    size = float(np.linalg.norm(vertices.max(axis=0) - vertices.min(axis=0)))
    out = vertices - centre
    if angle:
        out = out @ rotation(angle, rng.normal(size=3)).T
    if scale != 1.0:
        out = out * scale
    out = out + centre
    if shift:
        out = out + shift * size * _unit(rng.normal(size=3))
    return out


def blender_uv_sphere(segments: int, rings: int):
    """(float32 vertices, triangles) of a UV Sphere of radius 1 made the way Blender's operator makes it: one
    meridian in float32, spun about z step after step by a float32 rotation (the rounding accumulates round the
    rings, so the quads are not planar: 3,631 folded quads up to 1.2e-6 for 128 x 64, where Blender 5.0's own mesh
    has 3,669 up to 2e-6), pole fans, and each quad split along its 0-2 diagonal as Blender's loop triangles are.
    Vertex and triangle order differ from Blender's (they do not matter here)."""
    theta = np.arange(1, rings) * (np.pi / rings)
    meridian = np.stack([np.sin(theta), np.zeros_like(theta), np.cos(theta)], axis=1).astype(np.float32)
    step = np.float32(2.0 * np.pi / segments)
    c, s = np.cos(step, dtype=np.float32), np.sin(step, dtype=np.float32)
    turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    columns = [meridian]
    for _ in range(segments - 1):
        columns.append(columns[-1] @ turn.T)
    ring = np.stack(columns, axis=1).reshape(-1, 3)
    vertices = np.vstack([[[0.0, 0.0, 1.0]], ring, [[0.0, 0.0, -1.0]]]).astype(np.float32)
    return vertices, uv_sphere_triangles(segments, rings)


def placement(points: np.ndarray, rng, *, angle: float = 0.0, shift: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """The 4x4 of `tests.core.duplicates.near_copy` (turn about a random axis through the centroid, scale about
    it, shift by `shift` x size along a random direction): the copy as an object transform, as in Blender."""
    centre = points.mean(axis=0)
    size = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))
    linear = scale * (rotation(angle, rng.normal(size=3)) if angle else np.eye(3))
    pose = np.eye(4)
    pose[:3, :3] = linear
    pose[:3, 3] = centre - linear @ centre
    if shift:
        direction = rng.normal(size=3)
        pose[:3, 3] += shift * size * direction / np.linalg.norm(direction)
    return pose


# ----------------------------------------------------------------------------------------------- oracle

class HullInfo:
    """hull(points): its vertices, outward unit facet normals and, per edge, the two facet normals (Gauss arc)
    and the edge vector."""

    def __init__(self, points: np.ndarray):
        points = np.asarray(points, dtype=np.float64)
        hull = ConvexHull(points)
        self.vertices = points[hull.vertices]
        normals, _ = _facet_offsets(points, hull)
        self.normals = normals
        simplices, neighbours = hull.simplices, hull.neighbors
        rows = []
        for k in range(3):  # the edge opposite vertex k of facet i is shared with facet neighbours[i, k]
            i = np.arange(len(simplices))
            j = neighbours[:, k]
            keep = i < j
            e0 = simplices[keep, (k + 1) % 3]
            e1 = simplices[keep, (k + 2) % 3]
            rows.append(np.column_stack([i[keep], j[keep], e0, e1]))
        edges = np.vstack(rows)
        self.arc_from = normals[edges[:, 0]]
        self.arc_to = normals[edges[:, 1]]
        self.edge = points[edges[:, 3]] - points[edges[:, 2]]


def _arc_caps(start: np.ndarray, end: np.ndarray):
    """Centre and angular radius of the smallest cap around each great arc start -> end (the arc's midpoint)."""
    mid = start + end
    norm = np.linalg.norm(mid, axis=1)
    centre = np.where(norm[:, None] > 0, mid / np.maximum(norm, 1e-300)[:, None], start)
    half = 0.5 * np.arccos(np.clip(np.einsum("ij,ij->i", start, end), -1.0, 1.0))
    return centre, half


def _arcs_cross(p1, p2, q1, q2, slack: float = 1e-9) -> np.ndarray:
    """For rows of unit vectors: whether great arc p1 -> p2 and great arc q1 -> q2 (each shorter than a half
    circle) may share a point.  `slack` keeps near-touching pairs (a superset of the crossing pairs is harmless:
    every candidate is an upper bound of the depth)."""
    n_p = np.cross(p1, p2)
    n_q = np.cross(q1, q2)
    sq1, sq2 = np.einsum("ij,ij->i", n_p, q1), np.einsum("ij,ij->i", n_p, q2)
    sp1, sp2 = np.einsum("ij,ij->i", n_q, p1), np.einsum("ij,ij->i", n_q, p2)
    straddle = (np.minimum(sq1, sq2) <= slack) & (np.maximum(sq1, sq2) >= -slack) \
        & (np.minimum(sp1, sp2) <= slack) & (np.maximum(sp1, sp2) >= -slack)
    x = np.cross(n_p, n_q)  # the two great circles meet at +-x: both arcs must be on the same side
    same_side = np.einsum("ij,ij->i", x, p1 + p2) * np.einsum("ij,ij->i", x, q1 + q2) >= -slack
    return straddle & same_side


def _edge_pair_normals(ha: HullInfo, hb: HullInfo) -> np.ndarray:
    """+-(e_a x e_b) for every edge of A and edge of -B whose Gauss-map arcs cross (the edge-edge facets of
    A - B), found among the pairs whose arcs' enclosing caps overlap (k-d tree on the arcs' midpoints).

    Edges between two coplanar triangles of qhull's triangulation are not edges of the polytope (their arc is a
    point, half-angle below 1e-12 rad) and are skipped: the facet normal is a candidate already."""
    ca, ra = _arc_caps(ha.arc_from, ha.arc_to)
    cb, rb = _arc_caps(-hb.arc_from, -hb.arc_to)  # the arcs of -B
    real_a, real_b = np.nonzero(ra > 1e-12)[0], np.nonzero(rb > 1e-12)[0]
    out = []
    # Query in bins of B's arc radius, so a few long arcs (a cylinder's rim) do not widen every query.
    edges = [0.0, 1e-3, 1e-2, 0.05, 0.2, 0.5, 1.0, 4.0]
    for lo, hi in zip(edges[:-1], edges[1:]):
        in_bin = real_b[(rb[real_b] >= lo) & (rb[real_b] < hi)]
        if len(in_bin) == 0:
            continue
        sub = cKDTree(cb[in_bin])
        reach = np.minimum(ra[real_a] + hi + 1e-9, math.pi)
        chord = 2.0 * np.sin(0.5 * reach) + 1e-12
        for block in np.array_split(np.arange(len(real_a)), max(1, len(real_a) // 2048)):
            lists = sub.query_ball_point(ca[real_a[block]], chord[block])
            ia = real_a[np.repeat(block, [len(x) for x in lists])]
            if len(ia) == 0:
                continue
            ib = in_bin[np.concatenate([np.asarray(x, dtype=np.int64) for x in lists])]
            ok = _arcs_cross(ha.arc_from[ia], ha.arc_to[ia], -hb.arc_from[ib], -hb.arc_to[ib])
            n = np.cross(ha.edge[ia[ok]], hb.edge[ib[ok]])
            length = np.linalg.norm(n, axis=1)
            good = length > 0.0
            out.append(n[good] / length[good, None])
    if not out:
        return np.zeros((0, 3))
    n = np.vstack(out)
    # Many pairs give the same direction (arcs meeting at a common facet normal, e.g. a cylinder's rim arcs at
    # its cap): keep one unrounded representative per direction rounded to 1e-12.
    _, first = np.unique(np.round(n, 12), axis=0, return_index=True)
    n = n[np.sort(first)]
    return np.vstack([n, -n])


def exact_depth(a: np.ndarray, b: np.ndarray, chunk: int = 2048) -> tuple[float, np.ndarray, int]:
    """(depth, unit normal A -> B, number of candidate directions) for two vertex clouds whose hulls overlap
    with the origin of M = A - B inside (asserted: the minimum of h_M must be > 0)."""
    ha, hb = HullInfo(a), HullInfo(b)
    cands = np.vstack([ha.normals, -hb.normals, _edge_pair_normals(ha, hb)])
    va, vb = ha.vertices, hb.vertices
    best, best_u = math.inf, None
    for start in range(0, len(cands), chunk):
        u = cands[start:start + chunk]
        h = (u @ va.T).max(axis=1) + (-u @ vb.T).max(axis=1)
        k = int(np.argmin(h))
        if h[k] < best:
            best, best_u = float(h[k]), u[k].copy()
    assert best > 0.0, "exact_depth needs overlapping shapes (the origin inside A - B)"
    return best, best_u, len(cands)


def symmetric_width(a: np.ndarray, chunk: int = 1024) -> float:
    """The depth of a centrally symmetric cloud (A = -A, asserted) against itself in place: its smallest width
    h(u) + h(-u) over its facet normals (A - A = 2A, whose facet normals are A's).  Much cheaper than
    `exact_depth` when A has many edges."""
    assert {tuple(p) for p in a} == {tuple(-p) for p in a}, "the width oracle needs A = -A"
    normals = HullInfo(a).normals
    best = math.inf
    for start in range(0, len(normals), chunk):  # chunked: 40,962 x 81,920 at once would be 25 GB
        h = normals[start:start + chunk] @ a.T
        best = min(best, float((h.max(axis=1) - h.min(axis=1)).min()))
    return best


def point_offset(point, vertices) -> float:
    """Exact |signed distance| of a point to hull(vertices) (the corpus oracle's point-to-polytope distance)."""
    return abs(distance_to_shape(np.asarray(point, dtype=np.float64), ShapeSpec("cloud", vertices=vertices)))
