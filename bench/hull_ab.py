"""Issue 7, track "hull3": core/hull.py of another checkout (before) against this one's (after), interleaved.

    .venv/bin/python bench/hull_ab.py /work/wt/base6              # every cloud of bench/hull.py's table 1
    .venv/bin/python bench/hull_ab.py /work/wt/base6 --repeat 11 --only "symmetric sphere 20k"
    .venv/bin/python bench/hull_ab.py /work/wt/base6 --collide --repeat 3   # one-shot core.collide instead

On a machine shared with other jobs a before/after pair of separate runs can differ by 2x on the same code.  Here
both versions of `convex_hull` are loaded into one process (each checkout's core/hull.py as its own module) and
called alternately on the same cloud, `--repeat` times each (and scipy's qhull once per pair, as the yardstick),
so that both see the same load.  CPU time (`time.process_time`), BLAS on one thread.  Per cloud: the minimum
and the median of each, the ratio of the minima, and whether both give the same vertices (and, where not, the
volumes against qhull's).  The clouds are bench/hull.py's (`clouds`).

With `--collide`: one-shot `core.collide(a, b)` on the raw 20,000-point clouds of /work/team/s6_raw20k.py (the
symmetric sphere of bench/raw_copies.py against its copies, and the random 20,000-point sphere against itself),
this checkout's core with `core.hull.convex_hull` set to either version in turn; the time spent in the hull
is measured too (min over the runs).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent)]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cpu(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def _volume(points, tris):
    import numpy as np
    c = points[np.unique(tris)].mean(axis=0)
    a, b, d = (points[tris[:, k]] - c for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, d)).sum() / 6.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="a checkout whose core/hull.py is the 'before'")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", help="one cloud of bench/hull.py's table (its name)")
    parser.add_argument("--collide", action="store_true", help="one-shot core.collide on 20,000-point copies")
    args = parser.parse_args()
    import numpy as np
    from scipy.spatial import ConvexHull

    from hull import clouds

    before = _load("hull_before", Path(args.before).resolve() / "core" / "hull.py")
    after = _load("hull_after", BENCH.parent / "core" / "hull.py")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}, load {os.getloadavg()}, CPU times, "
          f"{args.repeat} alternating runs each", flush=True)
    if args.collide:
        _collide_rows(before.convex_hull, args.repeat)
        return
    print("| cloud | points | before min ms | after min ms | before/after | before median | after median | "
          "qhull min ms | after/qhull | same vertices |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, make in clouds(False):
        if args.only and name != args.only:
            continue
        points = make()
        tb, ta, tq = [], [], []
        for _ in range(args.repeat):
            t, rb = _cpu(lambda: before.convex_hull(points))
            tb.append(t)
            t, ra = _cpu(lambda: after.convex_hull(points))
            ta.append(t)
            t, q = _cpu(lambda: ConvexHull(points))
            tq.append(t)
        if rb is None or ra is None:
            same = f"declined: before {rb is None}, after {ra is None}"
        elif np.array_equal(rb[0], ra[0]):
            same = "yes"
        else:
            same = (f"no: {rb[0].size} / {ra[0].size} (volume / qhull's - 1: {_volume(points, rb[1]) / q.volume - 1:.1e}"
                    f" / {_volume(points, ra[1]) / q.volume - 1:.1e})")
        print(f"| {name} | {len(points)} | {1e3 * min(tb):.0f} | {1e3 * min(ta):.0f} | {min(tb) / min(ta):.2f} | "
              f"{1e3 * np.median(tb):.0f} | {1e3 * np.median(ta):.0f} | {1e3 * min(tq):.0f} | "
              f"{min(ta) / min(tq):.1f} | {same} |", flush=True)


def _collide_rows(before_hull, repeat: int) -> None:
    import numpy as np

    import core
    import core.hull
    from raw_copies import _sphere
    from tests.core.duplicates import near_copy

    after_hull = core.hull.convex_hull
    sym = np.vstack([_sphere(10_000), -_sphere(10_000)])
    rnd = _sphere(20_000)
    rows = [("identical", sym, sym.copy()),
            ("turned 1e-4", sym, near_copy(sym, np.random.default_rng([4401, 11]), angle=1e-4)),
            ("shifted 1e-6", sym, near_copy(sym, np.random.default_rng([4401, 12]), shift=1e-6)),
            ("inside 1.001", sym, near_copy(sym, np.random.default_rng([4401, 12]), scale=1.001)),
            ("random 20k identical", rnd, rnd.copy())]
    print("| pair | before min s | after min s | before/after | hull before s | hull after s | same depth |")
    print("|---|---|---|---|---|---|---|")
    for name, a, b in rows:
        runs = {"before": ([], [], []), "after": ([], [], [])}
        for _ in range(repeat):
            for side, hull in (("before", before_hull), ("after", after_hull)):
                spent = [0.0]

                def timed(points, hull=hull, spent=spent):
                    t0 = time.process_time()
                    out = hull(points)
                    spent[0] += time.process_time() - t0
                    return out

                core.hull.convex_hull = timed
                try:
                    t, c = _cpu(lambda: core.collide(a.copy(), b.copy()))
                finally:
                    core.hull.convex_hull = after_hull
                runs[side][0].append(t)
                runs[side][1].append(spent[0])
                runs[side][2].append(c.depth)
        tb, ta = min(runs["before"][0]), min(runs["after"][0])
        same = "yes" if set(runs["before"][2]) == set(runs["after"][2]) else "no"
        print(f"| {name} | {tb:.3f} | {ta:.3f} | {tb / ta:.2f} | {min(runs['before'][1]):.3f} | "
              f"{min(runs['after'][1]):.3f} | {same} |", flush=True)


if __name__ == "__main__":
    main()
