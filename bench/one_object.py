"""One object on its own (3D printing): the clearance between the loose parts of one mesh and its
self-intersections, timed on our core alone (no peer offers either check).

    .venv/bin/python bench/one_object.py

Rows (wall and CPU seconds, median of 3 runs each, after one warm-up that also builds the hierarchy once, as a second check of the
same object would find it):
- "200k triangles in 50 parts": a print-in-place chain of 50 linked tori (4,000 triangles each), clearance 0.3
  (every neighbour pair 0.248 apart is listed: 49 pairs); the issue's target is 2 s;
- the same chain, first check on a freshly built mesh (the hierarchy and loose parts built in the timing);
- "self-intersections, 200k triangles": the same 50 links with tubes 0.35 thick, so that every link crosses its
  neighbours (49 crossing pairs of links), and a clean 200k-triangle torus.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import core  # noqa: E402
from tests.core.meshes import torus  # noqa: E402


def chain(links=50, pitch=1.45, minor=0.15, n=100, m=20):
    """`links` linked tori (major radius 1), centres `pitch` apart along x, alternately in the xy and xz planes."""
    turn = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float)
    verts, tris, offset = [], [], 0
    for k in range(links):
        v, t = torus(1.0, minor, n, m)
        if k % 2:
            v = v @ turn.T
        verts.append(v + [k * pitch, 0.0, 0.0])
        tris.append(t + offset)
        offset += len(v)
    return np.concatenate(verts), np.concatenate(tris)


def timed(make, run, repeats=3):
    """Median wall and CPU seconds of `run(make())` (the CPU time of this process: on a shared machine it
    moves less with the load than the wall time)."""
    wall, cpu = [], []
    for _ in range(repeats):
        arg = make()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run(arg)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return (statistics.median(wall), statistics.median(cpu)), result


def main():
    v, t = chain()
    mesh = core.TriangleMesh(v, t)
    core.mesh.part_clearance(mesh, 0.3)  # warm-up: hierarchy and parts built once
    rows = []
    sec, gaps = timed(lambda: mesh, lambda m: core.mesh.part_clearance(m, 0.3))
    rows.append(("200k triangles in 50 parts", len(t), sec, f"{len(gaps)} pairs listed, "
                 f"closest {gaps[0].distance:.6f}" if gaps else "none listed"))
    sec, gaps = timed(lambda: core.TriangleMesh(v, t), lambda m: core.mesh.part_clearance(m, 0.3))
    rows.append(("  the same, first check (hierarchy built)", len(t), sec, f"{len(gaps)} pairs listed"))
    vc, tc = chain(minor=0.35)  # tubes 0.35 thick: each link crosses its neighbours
    crossing = core.TriangleMesh(vc, tc)
    core.mesh.self_intersections(crossing)
    sec, seg = timed(lambda: crossing, core.mesh.self_intersections)
    length = float(np.linalg.norm(seg[:, 1] - seg[:, 0], axis=1).sum()) if len(seg) else 0.0
    rows.append(("self-intersections, 200k triangles, 49 crossings", len(tc), sec,
                 f"{len(seg)} segments, curve length {length:.4f}"))
    vt, tt = torus(1.0, 0.3, 500, 200)
    clean = core.TriangleMesh(vt, tt)
    core.mesh.self_intersections(clean)
    sec, seg = timed(lambda: clean, core.mesh.self_intersections)
    rows.append(("self-intersections, 200k-triangle torus (clean)", len(tt), sec, f"{len(seg)} segments"))
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'triangles':>9}  {'seconds':>8}  {'cpu s':>6}  answer")
    for name, count, (sec, cpu), answer in rows:
        print(f"{name:<{width}}  {count:>9,}  {sec:>8.3f}  {cpu:>6.3f}  {answer}")


if __name__ == "__main__":
    main()
