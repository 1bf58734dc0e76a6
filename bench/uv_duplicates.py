#!/usr/bin/env python3
"""Issue 7, Hull mode: a Blender UV Sphere and its duplicate in place, first check, core only (before/after).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/uv_duplicates.py                      # this checkout, ~2 minutes
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/uv_duplicates.py --roots OLD .        # OLD's core against this one's
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/uv_duplicates.py --quick              # without the 128 x 64 rows

What Hull mode hands the core for a UV Sphere and its Shift+D copy (operators/checking.py `_offered_hull`): one
`ConvexPolytope` of the float32 local vertices that offers the mesh's own triangles (made on first need, folds
flipped, checked), placed twice, the copy by its object transform.  The sphere is made as Blender's operator makes
it (`tests/core/duplicates.py:blender_uv_sphere`: a float32 meridian spun step by step, quads split along their
0-2 diagonal); the copy is identical, turned, shifted or scaled about the centroid (`placement`).  Controls: an
Ico Sphere and cylinders with scipy's triangulation (exactly convex), identical and turned 1e-4.

Each row: `core.collide` on a fresh shape (so the triangulation is built and checked inside the time, as in a
first check), process time, median of `--repeat` runs (default 3); EPA iterations and outcome; the error
|depth - exact| / scale against `tests/core/duplicates.py:exact_depth` (every facet normal of A - B from qhull,
independent of the engine).  With `--roots`, each checkout's core runs in its own process on the same arrays
(saved once by this script), so the columns are one run on one machine state: the ratio is after / before.
Runs in the project venv (numpy, scipy); no peers.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RELATIONS = [("identical", {}), ("turned 1e-6", {"angle": 1e-6}), ("turned 1e-4", {"angle": 1e-4}),
             ("turned 1e-2", {"angle": 1e-2}), ("shifted 1e-9", {"shift": 1e-9}), ("shifted 1e-3", {"shift": 1e-3}),
             ("scaled 1+1e-6", {"scale": 1.0 + 1e-6}), ("scaled 1-1e-6", {"scale": 1.0 - 1e-6}),
             ("inside 1.001", {"scale": 1.001})]
CONTROL_RELATIONS = RELATIONS[:1] + RELATIONS[2:3]


def cases(quick: bool):
    """(label, float32-or-float64 local vertices, triangles, [(relation, 4x4)]) for every row."""
    import numpy as np
    from scipy.spatial import ConvexHull

    from tests.core.duplicates import blender_uv_sphere, cylinder, icosphere, placement

    def qhull(points):
        hull = ConvexHull(points)
        return points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices)

    shapes = [("uv sphere 64x32 (float32, own faces)", *blender_uv_sphere(64, 32), RELATIONS)]
    if not quick:
        shapes.append(("uv sphere 128x64 (float32, own faces)", *blender_uv_sphere(128, 64), RELATIONS))
    shapes += [("ico sphere s4 (qhull)", *qhull(icosphere(4)), CONTROL_RELATIONS),
               ("cylinder 256 (qhull)", *qhull(cylinder(256)), CONTROL_RELATIONS),
               ("cylinder 1024 (qhull)", *qhull(cylinder(1024)), CONTROL_RELATIONS)]
    out = []
    for label, vertices, triangles, relations in shapes:
        local = vertices.astype(np.float64)
        poses = []
        for relation, kwargs in relations:
            rng = np.random.default_rng([722, len(vertices), len(relation)])
            poses.append((relation, placement(local, rng, **kwargs)))
        out.append((label, vertices, triangles, poses))
    return out


def child(root: str, data: str, repeat: int) -> None:
    """Time `core.collide` with `root`'s core on the saved arrays; one JSON line per row on stdout."""
    sys.path.insert(0, root)
    import numpy as np

    import core
    from core.polytope import ConvexPolytope

    import checkouts

    saved = np.load(data)

    def timed(k, j):  # a fresh shape (a first check), built outside the time; its triangulation made on need
        vertices, triangles = saved[f"v{k}"], saved[f"t{k}"]
        shape = ConvexPolytope(vertices, lambda v=vertices, t=triangles: (v, t))
        t0 = time.process_time()
        contact = core.collide(shape.moved(None), shape.moved(saved[f"p{k}"][j]))
        return time.process_time() - t0, contact

    checkouts.child_rows([(k, j) for k in range(int(saved["count"])) for j in range(saved[f"p{k}"].shape[0])],
                         repeat, timed)


def main() -> int:
    import checkouts

    args = checkouts.arguments(__doc__, ROOT, [("--quick", dict(action="store_true",
                                                                 help="without the 128 x 64 UV Sphere"))])
    if args.child:
        child(args.child[0], args.child[1], args.repeat)
        return 0
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from tests.core.duplicates import exact_depth

    rows = cases(args.quick)
    arrays = {"count": np.array(len(rows))}
    for k, (_, vertices, triangles, poses) in enumerate(rows):
        arrays.update({f"v{k}": vertices, f"t{k}": triangles, f"p{k}": np.stack([p for _, p in poses])})
    results = checkouts.run(__file__, args.roots, arrays, args.repeat)
    if results is None:
        return 1
    checkouts.head(args.roots, ["{} ms", "{} EPA it", "{} outcome", "{} err"], np.__version__)
    for k, (label, vertices, _, poses) in enumerate(rows):
        local = vertices.astype(np.float64)
        for j, (relation, pose) in enumerate(poses):
            exact, _, _ = exact_depth(local, local @ pose[:3, :3].T + pose[:3, 3])
            cells = [label, str(len(vertices)), relation]
            for result in results:
                r = result[(k, j)]
                cells += [f"{r['ms']:.0f}", str(r["it"]), r["outcome"], f"{abs(r['depth'] - exact) / r['scale']:.1e}"]
            cells += checkouts.ratio(results, (k, j))
            print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
