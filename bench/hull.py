"""Issue 7, raw vertex arrays: the numpy hull (core/hull.py) and what it does for copies of high-poly shapes.

    .venv/bin/python bench/hull.py            # both tables
    .venv/bin/python bench/hull.py --quick    # shapes up to ~2,600 vertices only

Runs in the main venv (numpy 1.26 + scipy; no peers needed), BLAS on one thread like `make bench`.

Table 1, the hull alone: `core.hull.convex_hull` against scipy's qhull (`scipy.spatial.ConvexHull`, C) on the
same cloud in the same run, CPU time (min of 3): ours, qhull's, and the ratio; with our vertex count against
qhull's and |our volume / qhull's - 1|.

Table 2, one-shot `core.collide(a, b)` on two raw (n, 3) arrays, a high-poly shape against its copy (identical,
turned 1e-4 rad, shifted 1e-6 x size, inside a copy scaled by 1.001), CPU time (one run each, same run):
- "EPA only": the hull path switched off (core.hull.convex_hull made to decline), i.e. what the core did before
  (EPA expands to the end: about one expansion per hull vertex on spheres, up to 4.4 on cones);
- "default": the hulls are built once EPA has spent 1.5 expansions per vertex of the larger cloud
  (`LARGE_PAIRS.raw_hull_per_vertex`, core/large_pairs.py);
- "hull at 256": the switch after 256 expansions, as for given triangulations (`_RAW_HULL_PER_VERTEX` = 0): the
  hulls are built (B first tries A's triangulation on its own vertices), checked, and the depth comes from the
  facet normals of A - B (core/facet_depth.py).
Both with EPA iterations, converged, and |depth error| / scale against an exact oracle independent of the
engine: tests/core/duplicates.py `exact_depth` (every facet normal of A - B from two qhull hulls) up to 10,242
vertices; above (20,000 points on a sphere and their negatives), the identical pair only, where the shape is
centrally symmetric and the depth is its minimum width over its qhull facet normals (bench/duplicates.py
`symmetric_width`).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent)]


def cpu(fn, repeats: int = 1):
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def clouds(quick: bool):
    import numpy as np
    from tests.core.duplicates import blob, cone, cylinder, icosphere, rounded_box, uv_sphere

    def sphere(n):
        v = np.random.default_rng([931, n]).normal(size=(n, 3))
        return v / np.linalg.norm(v, axis=1)[:, None]

    rows = [("ico sphere s4", lambda: icosphere(4)), ("uv sphere 64x32", lambda: uv_sphere(64, 32)),
            ("cylinder 1024", lambda: cylinder(1024)), ("cone 1024", lambda: cone(1024)),
            ("rounded box 32", lambda: rounded_box(32)), ("blob (ico s4)", lambda: blob(4))]
    if not quick:
        rows += [("ico sphere s5", lambda: icosphere(5)),
                 ("uv sphere 128x64 f32", lambda: uv_sphere(128, 64).astype(np.float32).astype(np.float64)),
                 ("random on sphere 10k", lambda: sphere(10_000)), ("random in ball 20k",
                                                                   lambda: np.random.default_rng(932).normal(size=(20_000, 3))),
                 ("random on sphere 20k", lambda: sphere(20_000)),
                 ("symmetric sphere 20k", lambda: np.vstack([sphere(10_000), -sphere(10_000)]))]
    return rows


def hull_table(quick: bool) -> None:
    import numpy as np
    from scipy.spatial import ConvexHull

    from core.hull import convex_hull

    print("| cloud | points | ours ms | qhull ms | ours/qhull | hull v (ours / qhull) | volume rel. diff |")
    print("|---|---|---|---|---|---|---|")
    for name, make in clouds(quick):
        points = make()
        ours_s, found = cpu(lambda: convex_hull(points), 3)
        qhull_s, q = cpu(lambda: ConvexHull(points), 3)
        if found is None:
            cells = ["declined", "-"]
        else:
            vertices, tris = found
            c = points[vertices].mean(axis=0)
            a, b, d = (points[tris[:, k]] - c for k in range(3))
            volume = float(np.einsum("ij,ij->i", a, np.cross(b, d)).sum() / 6.0)
            cells = [f"{vertices.size} / {q.vertices.size}", f"{abs(volume / q.volume - 1.0):.1e}"]
        print(f"| {name} | {len(points)} | {1e3 * ours_s:.0f} | {1e3 * qhull_s:.0f} | {ours_s / qhull_s:.1f} | "
              + " | ".join(cells) + " |", flush=True)


RELATIONS = [("identical", {}), ("rotated 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
             ("inside 1.001", {"scale": 1.001})]


def collide_table(quick: bool) -> None:
    import dataclasses

    import numpy as np

    import core
    import core.large_pairs
    import core.hull
    from tests.core.duplicates import exact_depth, near_copy, symmetric_width

    rows = [r for r in clouds(quick) if not r[0].startswith("random")]  # the 20k row is A = -A (width oracle)
    print("| shape | v | relation | EPA only ms | it | err | default ms | it | err | hull at 256 ms | it | err |"
          " all converged |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    real, policy = core.hull.convex_hull, core.large_pairs.LARGE_PAIRS
    for name, make in rows:
        a = make()
        for relation, kwargs in RELATIONS:
            if len(a) > 11_000 and kwargs:
                continue  # no oracle fast enough: the identical pair only
            b = near_copy(a, np.random.default_rng([933, len(a), len(relation)]), **kwargs) if kwargs else a.copy()
            runs = []
            per_vertex = policy.raw_hull_per_vertex
            for hull, switch in ((lambda points: None, per_vertex), (real, per_vertex), (real, 0.0)):
                core.hull.convex_hull = hull
                core.large_pairs.LARGE_PAIRS = dataclasses.replace(policy, raw_hull_per_vertex=switch)
                try:
                    runs.append(cpu(lambda: core.collide(a, b)))
                finally:
                    core.hull.convex_hull, core.large_pairs.LARGE_PAIRS = real, policy
            depth = exact_depth(a, b)[0] if len(a) <= 11_000 else symmetric_width(a)
            cells = [name, str(len(a)), relation]
            for s, c in runs:
                cells += [f"{1e3 * s:.0f}", str(c.epa_iterations), f"{abs(c.depth - depth) / c.scale:.1e}"]
            cells.append("yes" if all(c.converged for _, c in runs) else "NO")
            print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the shapes up to ~2,600 vertices")
    parser.add_argument("--only", choices=["hull", "collide"], help="one of the two tables")
    args = parser.parse_args()
    import numpy as np
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, load {os.getloadavg()}, CPU times", flush=True)
    if args.only != "collide":
        hull_table(args.quick)
        print()
    if args.only != "hull":
        collide_table(args.quick)


if __name__ == "__main__":
    main()
