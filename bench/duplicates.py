"""Issue 7 benchmark: high-poly convex shapes against identical and near-identical copies (one-shot).

    .venv/bin/python bench/duplicates.py            # re-executes itself in bench/.venv (numpy 2, fcl, coal)
    .venv/bin/python bench/duplicates.py --quick    # the rows up to ~2,600 vertices only

One row per shape x relation (the cylinders also against their copies with the vertex rows shuffled): our one-shot
`core.collide` on the raw vertex arrays (median of 3 runs below 3,000 vertices, else one run), EPA iterations and
outcome, our |distance error| / scale against an exact oracle; then the same pair as the add-on gives it
(`core.ConvexPolytope`: the vertices with their hull triangulation, which Blender's Convex Hull gives in Hull mode
and a convex mesh's own faces in Exact mode; here scipy's qhull stands in for it, "hull ms"), "ours+hull ms" =
building both polytopes (their checks included) + `core.collide`, with its EPA iterations (~256 + the witness search
when the facet-normal depth answers) and error; and the peers on the same pair (one-shot, hull preparation included
as in bench/convex.py: scipy hull + fcl.Convex, coal's own convexHull), with their error and the ratio (hull ms +
ours+hull ms) / peer.

Oracle (independent of every engine): `tests/core/duplicates.py:exact_depth`, the minimum of h_A(u) + h_B(-u) over
all facet normals of A - B enumerated from the two qhull hulls (facets of A, of -B, crossing edge pairs).  For the
40,962-vertex Ico Sphere it is too slow; that row is the identical pair only, where the shape is centrally
symmetric bit for bit and the depth is its minimum width over its facet normals (also exact).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent)]

import convex  # noqa: E402  (bench/convex.py: the bench venv, machine info, the peers' hull helper)


def shapes(quick: bool):
    from tests.core.duplicates import blob, cone, cylinder, icosphere, rounded_box, uv_sphere
    rows = [("ico sphere s3", lambda: icosphere(3)), ("ico sphere s4", lambda: icosphere(4)),
            ("uv sphere 64x32", lambda: uv_sphere(64, 32)), ("cylinder 256", lambda: cylinder(256)),
            ("cylinder 1024", lambda: cylinder(1024)), ("cone 1024", lambda: cone(1024)),
            ("rounded box 32", lambda: rounded_box(32)), ("blob (ico s4)", lambda: blob(4))]
    if not quick:
        rows += [("ico sphere s5", lambda: icosphere(5)), ("uv sphere 128x64", lambda: uv_sphere(128, 64)),
                 ("ico sphere s6", lambda: icosphere(6))]
    return rows


RELATIONS = [("identical", {}), ("rotated 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
             ("inside 1.001", {"scale": 1.001})]
# The cylinders also meet copies that list their vertices in another order (exported and imported again): the
# same copy, its rows shuffled (seeded); the add-on's pair ("ours+hull") then has the copy's own hull triangles.
SHUFFLED = [("identical, shuffled", {"shuffle": True}), ("inside 1.001, shuffled", {"scale": 1.001, "shuffle": True})]


def relations(shape_name: str):
    return RELATIONS + (SHUFFLED if shape_name.startswith("cylinder") else [])


def copy_of(a, rng, kwargs):
    """The relation's copy of `a` (`near_copy`), its rows shuffled when asked."""
    from tests.core.duplicates import near_copy
    kwargs = dict(kwargs)
    shuffle = kwargs.pop("shuffle", False)
    b = near_copy(a, rng, **kwargs) if kwargs else a.copy()
    return b[rng.permutation(len(b))] if shuffle else b


def fcl_depth(fcl, a, b):
    import numpy as np
    objs = []
    for points in (a, b):
        verts, tris = convex._hull(points)
        faces = np.hstack([np.full((tris.shape[0], 1), 3), tris]).ravel()
        objs.append(fcl.CollisionObject(fcl.Convex(verts, tris.shape[0], faces), fcl.Transform()))
    req = fcl.CollisionRequest(num_max_contacts=1, enable_contact=True)
    res = fcl.CollisionResult()
    if fcl.collide(objs[0], objs[1], req, res) and res.contacts:
        return float(res.contacts[0].penetration_depth)
    return None


def coal_depth(coal, a, b):
    geoms = []
    for points in (a, b):
        vec = coal.StdVec_Vec3s()
        vec.extend(list(points))
        geoms.append(coal.ConvexBase.convexHull(vec, False, None))
    req = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
    res = coal.CollisionResult()
    if coal.collide(geoms[0], coal.Transform3s(), geoms[1], coal.Transform3s(), req, res) and res.numContacts():
        return -float(res.getContact(0).penetration_depth)
    return None


def timed(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def hull_of(points):
    """(hull points, triangles) by scipy's qhull: what the add-on gets from Blender's Convex Hull (Hull mode) or
    from a convex mesh's own faces (Exact mode)."""
    from scipy.spatial import ConvexHull
    import numpy as np
    hull = ConvexHull(points)
    return points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices)


def measure(quick: bool, only: list | None = None) -> None:
    import numpy as np

    import core
    from tests.core.duplicates import exact_depth, symmetric_width

    peers = {}
    for name, fn in (("fcl", fcl_depth), ("coal", coal_depth)):
        try:
            peers[name] = (__import__(name), fn)
        except ImportError as exc:
            print(f"[duplicates] peer {name} missing: {exc}", flush=True)
    head = ("| shape | hull v | relation | ours ms | EPA it | outcome | ours err | hull ms | ours+hull ms | it | err | "
            + " | ".join(f"{p} ms | {p} err | ours+hull/{p}" for p in peers) + " |")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, load {os.getloadavg()}", flush=True)
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for shape_name, make in shapes(quick):
        if only and shape_name not in only:
            continue
        a = make()
        for relation, kwargs in relations(shape_name):
            if shape_name == "ico sphere s6" and kwargs:
                continue
            rng = np.random.default_rng([709, len(a), len(relation)])
            b = copy_of(a, rng, kwargs)
            repeats = 3 if len(a) < 3000 else 1
            seconds, c = timed(lambda: core.collide(a, b), repeats)
            if shape_name == "ico sphere s6":
                depth = symmetric_width(a)
            else:
                depth = exact_depth(a, b)[0]
            size = c.scale
            hull_s, hulls = timed(lambda: (hull_of(a), hull_of(b)), repeats)
            given_s, g = timed(lambda: core.collide(core.ConvexPolytope(*hulls[0]), core.ConvexPolytope(*hulls[1])),
                               repeats)
            both = hull_s + given_s
            cells = [shape_name, f"{len(a)}", relation, f"{1e3 * seconds:.0f}", f"{c.epa_iterations}",
                     c.epa_outcome.name if c.epa_outcome else "-", f"{abs(c.depth - depth) / size:.1e}",
                     f"{1e3 * hull_s:.0f}", f"{1e3 * given_s:.0f}", f"{g.epa_iterations}",
                     f"{abs(g.depth - depth) / size:.1e}"]
            for name, (module, fn) in peers.items():
                try:
                    peer_s, peer_depth = timed(lambda: fn(module, a, b), 1)
                except Exception as exc:  # noqa: BLE001 - a peer's refusal is a result of the row
                    cells += ["-", f"failed: {str(exc).strip().splitlines()[-1][:40]}", "-"]
                    continue
                err = "no contact" if peer_depth is None else f"{abs(peer_depth - depth) / size:.1e}"
                cells += [f"{1e3 * peer_s:.0f}", err, f"{both / peer_s:.2f}"]
            print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the shapes up to ~2,600 vertices")
    parser.add_argument("--only", action="append",
                        help="one shape row group by name, e.g. 'ico sphere s6' (repeat for several)")
    parser.add_argument("--here", action="store_true", help="run in this interpreter (no peers unless installed)")
    args = parser.parse_args()
    if not args.here and not convex.in_bench_venv():
        convex.ensure_venv()
        os.execv(str(convex.VENV_PY), [str(convex.VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    measure(args.quick, args.only)


if __name__ == "__main__":
    main()
