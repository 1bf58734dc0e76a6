#!/usr/bin/env python3
"""Overlap volume benchmark: core.overlap against manifold3d's boolean intersection, one-shot, in one run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/overlap.py [--quick] [--runs N]

Rows (seeded; the arrays are built before any clock starts), each about 2 x 20k and 2 x 100k triangles:
  spheres crossing     two UV spheres (radius 1, every vertex's radius x 1 +- 1 %), centres 0.7 apart, B turned
  rod through a torus  a closed rod through a torus's tube, the rod about as finely cut as the torus

One-shot = world arrays in, volume out, every preparation included:
  ours      core.TriangleMesh for both + core.overlap (volume and region);
  manifold  manifold3d.Mesh64 + Manifold for both (its validation and build) + intersection + volume().
Times are medians of --runs runs (default 3).  `agree` is |ours - manifold| / manifold.
Runs in the project venv (.venv: manifold3d is a test and bench requirement, never a runtime one).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402
from tests.core import overlap_corpus as oc  # noqa: E402


def _noisy_sphere(seed, segments, rings):
    v, t = oc.ball(1.0, segments, rings)
    rng = np.random.default_rng(seed)
    return v * rng.uniform(0.99, 1.01, size=(v.shape[0], 1)), t


def _world(mesh, transform):
    v, t = mesh
    return v @ transform[:3, :3].T + transform[:3, 3], t


def spheres(triangles):
    segments = int(round(np.sqrt(triangles)))
    a = _noisy_sphere(1, segments, segments // 2 + 1)
    b = _noisy_sphere(2, segments, segments // 2 + 1)
    turn = oc.pose(oc.rotation(np.random.default_rng(3)), (0.7, 0.1, -0.05))
    return a, _world(b, turn)


def rod_torus(triangles):
    n = int(round(np.sqrt(triangles / 2 / 2)))
    a = oc.torus(1.0, 0.3, n=2 * n, m=n)
    segments = int(round(np.sqrt(triangles / 2 * 3)))
    h = 2.0
    profile = [[0, -h]] + [[0.2, z] for z in np.linspace(-h, h, max(2, triangles // (2 * segments)))] + [[0, h]]
    b = oc.revolve(profile, segments)
    turn = oc.pose(np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.0]]), (1.0, 0.05, 0.02))
    return a, _world(b, turn)


ROWS = [("spheres crossing", spheres), ("rod through a torus", rod_torus)]


def ours(a, b):
    result = core.overlap(core.TriangleMesh(*a), core.TriangleMesh(*b))
    return result.volume


def manifold(a, b):
    import manifold3d

    def solid(mesh):
        v, t = mesh
        return manifold3d.Manifold(manifold3d.Mesh64(vert_properties=np.ascontiguousarray(v, np.float64),
                                                     tri_verts=np.ascontiguousarray(t, np.uint64)))

    return float((solid(a) ^ solid(b)).volume())


def _timed(fn, a, b, runs):
    times, value = [], None
    for _ in range(runs):
        start = time.perf_counter()
        value = fn(a, b)
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the 20k rows only, one run each")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [20_000] if args.quick else [20_000, 100_000]
    runs = 1 if args.quick else args.runs
    print(f"{'row':24s} {'triangles':>17s} {'ours s':>8s} {'manifold s':>10s} {'ratio':>6s} {'volume':>12s} "
          f"{'agree':>8s}")
    for name, make in ROWS:
        for size in sizes:
            a, b = make(size)
            t_ours, v_ours = _timed(ours, a, b, runs)
            t_man, v_man = _timed(manifold, a, b, runs)
            agree = abs(v_ours - v_man) / v_man if v_man else abs(v_ours)
            tris = f"{a[1].shape[0]} + {b[1].shape[0]}"
            print(f"{name:24s} {tris:>17s} {t_ours:8.3f} {t_man:10.3f} {t_ours / t_man:6.2f} {v_ours:12.6g} "
                  f"{agree:8.1e}", flush=True)


if __name__ == "__main__":
    main()
