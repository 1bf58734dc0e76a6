#!/usr/bin/env python3
"""Depth interval benchmark (issue 19): the intersecting mesh query one-shot, with the narrowed interval (the
default) and with the loose one (`collide_meshes(..., depth_interval=False)`: the deepest sample and the hulls'
move), in one run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/depth.py [--quick] [--runs N]

Rows (seeded; the arrays are built before any clock starts):
  spheres intersecting  bench/mesh.py's row: two noisy UV spheres 0.6 deep, about 2 x 20k and 2 x 100k triangles
  chain links           two interlocked tori (major 1, minor 0.2) whose tubes cross by 0.1, about 2 x 20k and
                        2 x 100k triangles

One-shot = world arrays in, full answer out: core.TriangleMesh for both + the query, every preparation included.
Times are medians of --runs runs (default 3; 1 when a run takes over 5 s).  `interval` is [depth, depth + gap]
of the narrowed answer, `gap` its width as a fraction of the upper end, `moved` the status of the re-check after
moving B by `separation` (not timed).  Runs in the project venv (no peer has a certified depth interval).
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import core  # noqa: E402
import mesh as mesh_bench  # noqa: E402  (bench/mesh.py: its rows and surfaces of revolution)


def _links(triangles: int):
    """Two tori of about `triangles` triangles each, B's ring through A's hole, the tubes crossing by 0.1."""
    m = max(8, int(round(math.sqrt(triangles / 8.0))))
    n = 4 * m  # 2 n m triangles
    phi = 2 * np.pi * np.arange(m) / m
    va, ta = mesh_bench.revolve(1.0 + 0.2 * np.cos(phi), 0.2 * np.sin(phi), n)
    turn = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # a quarter turn about x
    return (va, ta), (va @ turn.T + [1.7, 0.0, 0.0], ta)


def make_row(name: str, size: str):
    if name == "spheres intersecting":
        return mesh_bench.make_row(name, size == "20k")
    if name == "chain links":
        return _links(20_000 if size == "20k" else 100_000)
    raise ValueError(name)


def _median(fn, runs):
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > 5.0:
            break
    return statistics.median(times), out


def measure(name, size, runs):
    (va, ta), (vb, tb) = make_row(name, size)

    def narrow():
        return core.collide(core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb))

    def loose():
        return core.mesh.collide_meshes(core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb), depth_interval=False)

    t_loose, c_loose = _median(loose, runs)
    t_narrow, c = _median(narrow, runs)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    transform = np.eye(4)
    transform[:3, 3] = c.separation
    moved = core.collide(a, b.moved(transform)).status.name
    upper = c.depth + c.gap
    return {"row": name, "size": size, "tris": f"{len(ta):,} + {len(tb):,}", "narrow_s": t_narrow,
            "loose_s": t_loose, "interval": (c.depth, upper), "gap": c.gap / upper if upper > 0 else 0.0,
            "loose_interval": (c_loose.depth, c_loose.depth + c_loose.gap), "moved": moved, "status": c.status.name}


def _fmt(seconds):
    return f"{seconds * 1e3:.0f} ms" if seconds < 1.0 else f"{seconds:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the 20k rows only")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = ("20k",) if args.quick else ("20k", "100k")
    print("| case | triangles A + B | narrowed one-shot | loose one-shot | narrowed / loose | interval "
          "[depth, depth + gap] | gap / upper | loose interval | B moved by separation |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        for name in ("spheres intersecting", "chain links"):
            r = measure(name, size, args.runs)
            lo, hi = r["interval"]
            llo, lhi = r["loose_interval"]
            print(f"| {r['row']} | {r['tris']} | {_fmt(r['narrow_s'])} | {_fmt(r['loose_s'])} | "
                  f"{r['narrow_s'] / r['loose_s']:.2f} | [{lo:.6g}, {hi:.6g}] | {100 * r['gap']:.2f} % | "
                  f"[{llo:.4g}, {lhi:.4g}] | {r['moved']} |", flush=True)


if __name__ == "__main__":
    main()
