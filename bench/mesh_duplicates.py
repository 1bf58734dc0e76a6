"""Issue 7, Exact mode: a triangle mesh against a copy of itself in place (one-shot `core.collide` on two
TriangleMeshes, as the add-on's Exact check calls it).

    .venv/bin/python bench/mesh_duplicates.py            # every row
    .venv/bin/python bench/mesh_duplicates.py --quick    # the rows up to ~2,600 vertices only

Rows: closed convex meshes (triangles from scipy's hull, oriented outward: Ico Spheres of 2,562 and 10,242
vertices, a UV sphere of 128 x 64 segments, a 1,024-sided cylinder), Blender's UV Spheres as Blender stores them
(float32, quads split along one diagonal: nearly convex, core/mesh/inner.py) and one non-convex mesh (a torus of 10,240
triangles, tests/core/mesh_corpus.py), each against a copy that is identical, rotated by 1e-4 rad, shifted by
1e-6 x size, or scaled by 1.001 about its centre (the original then lies inside it).  A fresh TriangleMesh pair
per run (nothing cached), median of 3 runs (1 run for the non-convex rows above 5,000 triangles).

Columns: total time; the time spent in the convex engine (`core.convex.collide_convex` on PointClouds: for convex meshes
the GJK/EPA answer, for the others the hulls' EPA behind `gap`); the mesh-side part (the rest: validation,
convexity test, hierarchies, descent, crossing test, containment, and for non-convex meshes distance and depth);
the answer (status, containment, number of crossing segments).  No peers: the question (crossing curve and
containment of two meshes) is one no peer answers; bench/duplicates.py has the convex engine against fcl and coal.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent)]

import numpy as np  # noqa: E402


def meshes(quick: bool):
    from tests.core.duplicates import cylinder, float32, hull_triangles, icosphere, uv_sphere, uv_sphere_triangles
    from tests.core.mesh_corpus import torus
    rows = [("ico sphere 2,562", lambda: icosphere(4), True), ("cylinder 1024", lambda: cylinder(1024), True),
            ("torus 64x20 (non-convex)", lambda: torus(1.0, 0.25, 64, 20), False)]
    # Blender's UV Sphere as Blender stores it: float32 positions, quads split along one diagonal (nearly convex)
    blender_uv = [("uv sphere 32x16, float32 (nearly convex)",
                   lambda: (float32(uv_sphere(32, 16)), uv_sphere_triangles(32, 16)), False)]
    if not quick:
        rows += [("ico sphere 10,242", lambda: icosphere(5), True),
                 ("uv sphere 128x64", lambda: uv_sphere(128, 64), True),
                 ("torus 128x40 (non-convex)", lambda: torus(1.0, 0.25, 128, 40), False)]
        blender_uv += [("uv sphere 128x64, float32 (nearly convex)",
                        lambda: (float32(uv_sphere(128, 64)), uv_sphere_triangles(128, 64)), False)]
    out = []
    for name, build, convex in rows + blender_uv:
        if convex:
            points = build()
            out.append((name, points, hull_triangles(points)))
        else:
            out.append((name, *build()))
    return out


RELATIONS = [("identical", {}), ("rotated 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
             ("inside 1.001", {"scale": 1.001})]


class ConvexClock:
    """Time spent in the convex engine (`collide_convex` called by the mesh query on PointClouds) in one query."""

    def __init__(self):
        import core.mesh.query as cq
        from core.shapes import PointCloud
        self.seconds = 0.0
        self._cq, self._inner, self._cloud = cq, cq.collide_convex, PointCloud

    def __enter__(self):
        inner, cloud = self._inner, self._cloud

        def timed(a, b, *args, **kwargs):
            if not isinstance(a, cloud):
                return inner(a, b, *args, **kwargs)
            t0 = time.perf_counter()
            try:
                return inner(a, b, *args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t0
        self._cq.collide_convex = timed
        return self

    def __exit__(self, *exc):
        self._cq.collide_convex = self._inner


def one(points, tris, copy):
    import core
    with ConvexClock() as clock:
        t0 = time.perf_counter()
        contact = core.collide(core.TriangleMesh(points, tris), core.TriangleMesh(copy, tris))
        total = time.perf_counter() - t0
    return total, total - clock.seconds, contact


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    from tests.core.duplicates import near_copy
    print("| mesh | triangles | copy | total (s) | convex engine (s) | mesh side (s) | status | containment "
          "| crossing segments | depth | gap |")
    print("|---|---:|---|---:|---:|---:|---|---|---:|---:|---:|")
    for name, points, tris in meshes(args.quick):
        for relation, kw in RELATIONS:
            copy = near_copy(points, np.random.default_rng(7), **kw) if kw else points.copy()
            runs = 1 if "non-convex" in name and tris.shape[0] > 5000 else 3
            results = [one(points, tris, copy) for _ in range(runs)]
            total = statistics.median(r[0] for r in results)
            mesh_side = statistics.median(r[1] for r in results)
            c = results[-1][2]
            containment = "-" if c.containment is None else c.containment.name
            engine = statistics.median(r[0] - r[1] for r in results)
            print(f"| {name} | {tris.shape[0]:,} | {relation} | {total:.3f} | {engine:.3f} | {mesh_side:.3f} | "
                  f"{c.status.name} | {containment} | {c.intersection.shape[0]:,} | {c.depth:.9f} | {c.gap:.1e} |",
                  flush=True)


if __name__ == "__main__":
    main()
