#!/usr/bin/env python3
"""Per pose A/B of bench/moved.py's rows: two checkouts' engines, each with its own `PairHistory`, given the same
pose one after the other (the order swapped every pose), CPU time per query; medians and means per row.

    .venv/bin/python bench/moved_ab.py BEFORE [AFTER] [--poses 60] [--rows crossing,apart]

bench/ab.py with bench/moved_ab_cases.py times whole rows; this gives the time per pose that bench/moved.py's
median reports, on a loaded machine (both engines see the same load, pose by pose).  AFTER defaults to this
checkout.  Each engine is loaded as its own package (bench/ab.py's `load_engine`), the meshes built and their
local structures made before any clock; `depth_interval=False` as in bench/moved.py.  Also counts the poses whose
answers (status, distance, normal, points, crossing curve) differ between the two.  `--fcl` (in bench/.venv, which
has python-fcl) adds fcl's CPU time on the same poses, as bench/moved.py queries it (the transform set, `collide`
listing every crossing pair, `distance` with the nearest points), the mean of ten repeats a pose, and the ratios.
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ab  # noqa: E402  (bench/ab.py: one engine per checkout)
import moved  # noqa: E402  (bench/moved.py: the rows and their poses)


def _bits(contact):
    import numpy as np
    return (contact.status.name, float(contact.distance).hex(),
            *(np.ascontiguousarray(np.asarray(getattr(contact, f), np.float64)).tobytes()
              for f in ("normal", "point_a", "point_b", "intersection")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    parser.add_argument("--poses", type=int, default=60)
    parser.add_argument("--rows", default="crossing", help="comma-separated parts of row names")
    parser.add_argument("--fcl", action="store_true", help="also fcl's CPU time per pose (needs python-fcl)")
    args = parser.parse_args()
    engines = (ab.load_engine(args.before.resolve(), "core_a"), ab.load_engine(args.after.resolve(), "core_b"))
    print(f"before = {args.before}, after = {args.after}; CPU ms per pose; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| row | poses | before median | after median | after/before | before mean | after mean | "
          "after max | answers differ |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in moved.ROWS:
        if not any(w.strip() in name for w in args.rows.split(",")):
            continue
        (va, ta), (vb, tb), placements, moving = moved.make_row(name, False, args.poses)
        state = []
        for core in engines:
            a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
            core.collide(a, b)
            state.append((core, a, b, core.PairHistory(), []))
        differ, t_fcl = 0, []
        if args.fcl:
            import fcl
            objs = moved.convex.fcl_mesh_objects(fcl, (va, ta), (vb, tb))
            request = fcl.CollisionRequest(num_max_contacts=1_000_000, enable_contact=True)
            distance_request = fcl.DistanceRequest(enable_nearest_points=True)
        for i, pose in enumerate(placements):
            if args.fcl:
                start = time.process_time()
                for _ in range(10):
                    objs[0 if moving == "a" else 1].setTransform(fcl.Transform(pose[:3, :3], pose[:3, 3]))
                    fcl.collide(objs[0], objs[1], request, fcl.CollisionResult())
                    fcl.distance(objs[0], objs[1], distance_request, fcl.DistanceResult())
                t_fcl.append((time.process_time() - start) / 10)
            answers = {}
            for k in ((0, 1) if i % 2 else (1, 0)):
                core, a, b, history, times = state[k]
                pa, pb = (a.moved(pose), b) if moving == "a" else (a, b.moved(pose))
                gc.collect()
                start = time.process_time()
                contact = core.collide(pa, pb, history=history, depth_interval=False)
                times.append(time.process_time() - start)
                answers[k] = _bits(contact)
            differ += answers[0] != answers[1]
        t0, t1 = state[0][4], state[1][4]
        m0, m1 = statistics.median(t0), statistics.median(t1)
        print(f"| {name} | {len(placements)} | {1e3 * m0:.2f} | {1e3 * m1:.2f} | {m1 / m0:.2f} | "
              f"{1e3 * statistics.mean(t0):.2f} | {1e3 * statistics.mean(t1):.2f} | {1e3 * max(t1):.2f} | {differ} |",
              flush=True)
        if t_fcl:
            f, g = statistics.median(t_fcl), statistics.mean(t_fcl)
            print(f"|   fcl: median {1e3 * f:.3f} ms, mean {1e3 * g:.3f} ms | | before / fcl {m0 / f:.1f}x | "
                  f"after / fcl {m1 / f:.1f}x | by means {statistics.mean(t0) / g:.1f}x -> "
                  f"{statistics.mean(t1) / g:.1f}x | | | | |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
