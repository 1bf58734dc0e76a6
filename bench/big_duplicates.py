#!/usr/bin/env python3
"""Issue 7, the large end: 4,000-18,000-vertex convex shapes against their copies, one-shot, core only.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/big_duplicates.py                  # this checkout, ~1 minute
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/big_duplicates.py --roots OLD .    # OLD's core against this one's

Each row is `core.collide(ConvexPolytope(a, triangles), ConvexPolytope(b, triangles))` on fresh shapes (the
triangulations are welded, oriented and checked inside the time, as in a first check), process time, median of
`--repeat` runs (default 3).  Shapes (all centrally symmetric bit for bit, so the oracle is cheap):
- UV Sphere 192 x 96 (18,242 vertices) with tests/core/duplicates.py's grid triangles;
- an 8,192-sided cylinder (16,384 vertices) with its own faces: side quads split, caps zig-zag strips (max
  degree 6; Blender's own caps reach ~27: no fan);
- a 2,048-sided cylinder with scipy's qhull triangles (each cap a fan from one corner, a hub of ~2,050
  neighbours), and the same pair as PointClouds (no triangulation given: since `LARGE_PAIRS.raw_hull_early`, clouds
  of that many vertices and more, 1,024 now, get theirs from core/hull.py after 256 expansions).
Copies: identical, turned by 1e-4 rad about the centroid, and scaled by 1.001 (A inside B).  err = |depth -
exact| / scale, exact = the minimum over qhull's facet normals u of A of h_A(u) + h_B(-u) over every vertex
(M's facet normals are A's when B = s A and A = -A; tests/core/test_polytope_large.py); no cheap oracle for a
turned copy of this size ("-": tests/core/test_polytope_depth.py judges turned copies up to 2,562 vertices).
With `--roots`, each checkout's core runs in its own process on the same arrays, one after the other.
Runs in the project venv (numpy, scipy); no peers.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RELATIONS = [("identical", {}), ("turned 1e-4", {"angle": 1e-4}), ("inside 1.001", {"scale": 1.001})]


def cases():
    """(label, vertices, triangles or None for PointClouds, [(relation, copy's vertices, homothetic?)])."""
    import numpy as np

    from tests.core.duplicates import cylinder, hull_triangles, near_copy, uv_sphere_triangles
    from tests.core.test_polytope_large import symmetric_cylinder, symmetric_uv_sphere

    half = cylinder(2048)[:1024, :2]
    ring = np.vstack([half, -half])
    fan = np.vstack([np.column_stack([ring, -np.ones(2048)]), np.column_stack([ring, np.ones(2048)])])
    shapes = [("uv sphere 192x96 (grid)", symmetric_uv_sphere(192, 96), uv_sphere_triangles(192, 96)),
              ("cylinder 8192 (own faces)", *symmetric_cylinder(8192)),
              ("cylinder 2048 (qhull fans)", fan, hull_triangles(fan)),
              ("cylinder 2048 (PointClouds)", fan, None)]
    out = []
    for label, vertices, triangles in shapes:
        copies = []
        for relation, kwargs in RELATIONS:
            rng = np.random.default_rng([723, len(vertices), len(relation)])
            copy = vertices * kwargs["scale"] if "scale" in kwargs else near_copy(vertices, rng, **kwargs)
            copies.append((relation, copy, "angle" not in kwargs))
        out.append((label, vertices, triangles, copies))
    return out


def child(root: str, data: str, repeat: int) -> None:
    """Time `core.collide` with `root`'s core on the saved arrays; one JSON line per row on stdout."""
    sys.path.insert(0, root)
    import numpy as np

    import core
    from core.polytope import ConvexPolytope

    import checkouts

    saved = np.load(data)

    def timed(k, j):  # the shapes are built inside the time (welding, orientation, checks: a first check)
        vertices, triangles, copy = saved[f"v{k}"], saved[f"t{k}"], saved[f"c{k}"][j]
        t0 = time.process_time()
        if triangles.size:
            a, b = ConvexPolytope(vertices, triangles), ConvexPolytope(copy, triangles)
        else:
            a, b = core.PointCloud(vertices), core.PointCloud(copy)
        contact = core.collide(a, b)
        return time.process_time() - t0, contact

    checkouts.child_rows([(k, j) for k in range(int(saved["count"])) for j in range(saved[f"c{k}"].shape[0])],
                         repeat, timed)


def main() -> int:
    import checkouts

    args = checkouts.arguments(__doc__, ROOT)
    if args.child:
        child(args.child[0], args.child[1], args.repeat)
        return 0
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from tests.core.test_polytope_large import homothetic_depth

    rows = cases()
    arrays = {"count": np.array(len(rows))}
    for k, (_, vertices, triangles, copies) in enumerate(rows):
        arrays.update({f"v{k}": vertices, f"t{k}": np.zeros((0, 3), np.int64) if triangles is None else triangles,
                       f"c{k}": np.stack([c for _, c, _ in copies])})
    results = checkouts.run(__file__, args.roots, arrays, args.repeat)
    if results is None:
        return 1
    checkouts.head(args.roots, ["{} ms", "{} EPA it", "{} converged", "{} err"], np.__version__)
    for k, (label, vertices, _, copies) in enumerate(rows):
        for j, (relation, copy, homothetic) in enumerate(copies):
            exact = homothetic_depth(vertices, copy) if homothetic else None
            cells = [label, str(len(vertices)), relation]
            for result in results:
                r = result[(k, j)]
                err = "-" if exact is None else f"{abs(r['depth'] - exact) / r['scale']:.1e}"
                cells += [f"{r['ms']:.0f}", str(r["it"]), str(r["converged"]), err]
            cells += checkouts.ratio(results, (k, j))
            print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
