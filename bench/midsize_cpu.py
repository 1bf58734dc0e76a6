#!/usr/bin/env python3
"""bench/midsize.py's rows by CPU time: two checkouts' engines and python-fcl in one process, interleaved.

    bench/.venv/bin/python bench/midsize_cpu.py BEFORE AFTER [--rows bunny,duck] [--repeat 5]

bench/midsize.py times wall clock, which on a machine shared with other jobs moves with the load; here each call's
CPU time (`time.process_time`, garbage collected before each, BLAS on one thread) is taken, the three sides called
in turn (the order reversed every round), and the medians compared: each engine's ratio to fcl in the same run,
and AFTER / BEFORE.  BEFORE and AFTER are checkouts (each one's core/ loaded as its own package, as bench/ab.py
does); the pairs and what each side does are bench/midsize_cases.py's and bench/midsize.py's (ours: both meshes
built from the arrays with the shared-topology cache emptied, `collide(..., depth_interval=False)`; fcl: two
`BVHModel`s, `collide` listing every contact, `distance` with nearest points).  Runs in bench/.venv (python-fcl),
made by bench/convex.py's bootstrap.  --rows: words of the row names (comma-separated; a row is taken when its
name contains one).
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import statistics
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(1, str(BENCH.parent))

from ab import load_engine  # noqa: E402  (bench/ab.py: a checkout's core/ as a package of its own)


def _ours(core, va, ta, vb, tb):
    importlib.import_module(core.__name__ + ".mesh.trimesh")._TOPOLOGIES.clear()
    return core.collide(core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb), depth_interval=False)


def _fcl(fcl, convex, va, ta, vb, tb):
    objs = convex.fcl_mesh_objects(fcl, (va, ta), (vb, tb))
    res = fcl.CollisionResult()
    fcl.collide(objs[0], objs[1], fcl.CollisionRequest(num_max_contacts=1_000_000, enable_contact=True), res)
    dres = fcl.DistanceResult()
    fcl.distance(objs[0], objs[1], fcl.DistanceRequest(enable_nearest_points=True), dres)
    return res.is_collision


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rows", default="", help="comma-separated words of row names (default: every row)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args()
    import fcl

    import convex
    import midsize_cases
    engines = {"before": load_engine(args.before.resolve(), "core_a"),
               "after": load_engine(args.after.resolve(), "core_b")}
    words = [w.strip() for w in args.rows.split(",") if w.strip()]
    print(f"before = {args.before}, after = {args.after}; CPU ms, median of {args.repeat}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| pair | fcl | before | after | before / fcl | after / fcl | after / before |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (va, ta), (vb, tb) in midsize_cases.cases():
        if words and not any(w in name for w in words):
            continue
        calls = {"fcl": lambda: _fcl(fcl, convex, va, ta, vb, tb),
                 "before": lambda: _ours(engines["before"], va, ta, vb, tb),
                 "after": lambda: _ours(engines["after"], va, ta, vb, tb)}
        for call in calls.values():
            call()  # the first call of each side builds its caches of tables (Hilbert keys)
        times = {side: [] for side in calls}
        order = list(calls)
        for round_ in range(args.repeat):
            for side in order if round_ % 2 == 0 else order[::-1]:
                gc.collect()
                start = time.process_time()
                calls[side]()
                times[side].append(time.process_time() - start)
        ms = {side: 1e3 * statistics.median(t) for side, t in times.items()}
        print(f"| {name} | {ms['fcl']:.1f} | {ms['before']:.1f} | {ms['after']:.1f} | "
              f"{ms['before'] / ms['fcl']:.2f} | {ms['after'] / ms['fcl']:.2f} | {ms['after'] / ms['before']:.2f} |",
              flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
