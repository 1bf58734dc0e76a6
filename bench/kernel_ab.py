#!/usr/bin/env python3
"""The exact triangle kernels of two checkouts: bit for bit the same answers, and their CPU time per call.

    .venv/bin/python bench/kernel_ab.py BEFORE [AFTER] [--sizes 1,4,16,64,1024] [--seeds 3]

`tritri.triangle_triangle` (distance and closest points of k triangle pairs), `tritri.point_triangle` (closest
point of k triangles to k points) and `tritri.separation_bound` are called on the same inputs by both checkouts'
engines (each loaded as its own package, bench/ab.py's `load_engine`) and their outputs compared as bits (signed
zeros and the sign of a NaN included), on seeded inputs with the awkward cases mixed in: shared corners and edges,
coplanar and parallel pairs, zero-area and point triangles, small integer grids with -0.0, scales from 1e-300 to
1e305, far from the origin, slivers, nearly parallel edges, nearly coplanar pairs, copies, infinities and NaNs of
either sign; each set whole and in its first 1, 2, 3, 5, 16 and 64 rows.  Then the CPU time per call
(`time.process_time`, the two sides interleaved, the order swapped every round, medians) at each of `--sizes`.
The kernels' cost on small blocks is their count of numpy calls, so the small sizes are the ones the descent
(core/mesh/descent.py: 9-12 calls of 1-60 pairs a separated mid-size query) pays.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from ab import load_engine  # noqa: E402

SPECIALS = [np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 5e-324, 1.7e308]


def awkward(rng, k):
    """(A, B) (k, 3, 3): triangles near each other with a share of every awkward case."""
    A = rng.normal(size=(k, 3, 3))
    B = A.mean(axis=1, keepdims=True) + rng.normal(size=(k, 3, 3)) * rng.uniform(0.05, 2.0, (k, 1, 1))
    kind = rng.integers(0, 8, k)
    for i in range(k):
        if kind[i] == 1:
            B[i, rng.integers(3)] = A[i, rng.integers(3)]  # a shared corner
        elif kind[i] == 2:
            A[i, :, 2] = B[i, :, 2] = 0.0  # coplanar
        elif kind[i] == 3:
            A[i, :, 2], B[i, :, 2] = 0.0, 0.25  # parallel planes
        elif kind[i] == 4:
            A[i, 2] = 0.5 * (A[i, 0] + A[i, 1])  # zero area
        elif kind[i] == 5:
            B[i] = B[i, 0]  # a point
        elif kind[i] == 6:
            A[i], B[i] = np.round(A[i] * 4.0) + 1e6, np.round(B[i] * 4.0) + 1e6  # far, integer-ish
        elif kind[i] == 7:
            B[i, 0], B[i, 1] = A[i, 1], A[i, 0]  # a shared edge, run the other way
    return A, B


def input_sets(seed, k=600):
    rng = np.random.default_rng([77, seed])
    yield "awkward", awkward(rng, k)
    for span, share in ((2, 0.25), (1, 0.4)):  # small integer grids with -0.0: equal coordinates, zero edges
        A = rng.integers(-span, span + 1, size=(k, 3, 3)).astype(float)
        B = rng.integers(-span, span + 1, size=(k, 3, 3)).astype(float)
        A[rng.random(A.shape) < share] = -0.0
        B[rng.random(B.shape) < share] = -0.0
        yield f"grid {span}", (A, B)
    for scale in (1e-300, 1e-160, 1e-8, 1.0, 1e8, 1e150, 1e200, 1e305):
        yield f"scale {scale:g}", (rng.normal(size=(k, 3, 3)) * scale, rng.normal(size=(k, 3, 3)) * scale)
    for offset in (1e3, 1e6, 1e12, 1e16):
        A = rng.normal(size=(k, 3, 3)) + offset
        yield f"far {offset:g}", (A, A.mean(axis=1, keepdims=True) + rng.normal(size=(k, 3, 3)) * 1e-3)
    A, B = rng.normal(size=(k, 3, 3)), rng.normal(size=(k, 3, 3))
    A[:, 2] = (A[:, 0] + (A[:, 1] - A[:, 0]) * rng.random((k, 1))
               + rng.normal(size=(k, 3)) * 10.0 ** rng.integers(-17, -5, (k, 1)))  # slivers
    B[:, 1] = B[:, 0] + (A[:, 1] - A[:, 0]) * (1 + 1e-12 * rng.normal(size=(k, 1)))  # nearly parallel edges
    yield "slivers, parallel", (A, B)
    A, B = rng.normal(size=(k, 3, 3)), rng.normal(size=(k, 3, 3))
    A[:, :, 2], B[:, :, 2] = rng.normal(size=(k, 3)) * 1e-15, rng.normal(size=(k, 3)) * 1e-15
    yield "nearly coplanar", (A, B)
    A = rng.normal(size=(k, 3, 3))
    B = A.copy()
    B[rng.random(k) < 0.5] += rng.normal(size=(1, 3)) * 1e-9
    yield "copies", (A, B)
    A, B = rng.normal(size=(k, 3, 3)), rng.normal(size=(k, 3, 3))
    special = rng.random(A.shape) < 0.02
    A[special] = rng.choice(SPECIALS, int(special.sum()))
    yield "non-finite", (A, B)
    A, B = A.copy(), B.copy()
    A[rng.random(A.shape) < 0.01] = -np.nan
    B[rng.random(B.shape) < 0.01] = np.nan
    yield "NaN of both signs", (A, B)


def bits(x):
    return np.ascontiguousarray(x, np.float64).view(np.uint64)


def calls(tritri, A, B):
    """The kernels' outputs on one input set: each a tuple of arrays."""
    return {"triangle_triangle": tritri.triangle_triangle(A, B),
            "point_triangle": (tritri.point_triangle(B[:, 0], A[:, 0], A[:, 1], A[:, 2]),
                               tritri.point_triangle(B.mean(axis=1), A[:, 0], A[:, 1], A[:, 2])),
            "separation_bound": (tritri.separation_bound(A, B),)}


def check(before, after, seeds):
    differ, rows = {}, 0
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for seed in range(seeds):
            for label, (A, B) in input_sets(seed):
                for X, Y in ((A, B), (B, A)):
                    for k in (1, 2, 3, 5, 16, 64, X.shape[0]):
                        got, want = calls(after, X[:k], Y[:k]), calls(before, X[:k], Y[:k])
                        rows += k
                        for name in got:
                            same = all(g.shape == w.shape and np.array_equal(bits(g), bits(w))
                                       for g, w in zip(got[name], want[name]))
                            if not same:
                                differ.setdefault(name, []).append(f"{label} (seed {seed}, {k} rows)")
    return rows, differ


def timing(before, after, sizes, rounds=7):
    rng = np.random.default_rng(1)
    print("| kernel | rows | before us | after us | after / before |")
    print("|---|---:|---:|---:|---:|")
    for name in ("triangle_triangle", "point_triangle", "separation_bound"):
        for k in sizes:
            A, B = rng.normal(size=(k, 3, 3)), rng.normal(size=(k, 3, 3)) + 0.5
            if name == "triangle_triangle":
                args = (A, B)
            elif name == "point_triangle":
                args = (B[:, 0], A[:, 0], A[:, 1], A[:, 2])
            else:
                args = (A, B)
            repeat = max(10, 4000 // k)
            times = {"before": [], "after": []}
            for r in range(rounds):
                for side in (("before", "after") if r % 2 == 0 else ("after", "before")):
                    f = getattr(before if side == "before" else after, name)
                    gc.collect()
                    start = time.process_time()
                    for _ in range(repeat):
                        f(*args)
                    times[side].append((time.process_time() - start) / repeat * 1e6)
            b, a = statistics.median(times["before"]), statistics.median(times["after"])
            print(f"| {name} | {k} | {b:.1f} | {a:.1f} | {a / b:.2f} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    parser.add_argument("--sizes", default="1,4,16,64,1024")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    load_engine(args.before.resolve(), "core_a")
    load_engine(args.after.resolve(), "core_b")
    before = importlib.import_module("core_a.mesh.tritri")
    after = importlib.import_module("core_b.mesh.tritri")
    print(f"before = {args.before}, after = {args.after}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    rows, differ = check(before, after, args.seeds)
    print(f"bit identity: {rows} rows per kernel, "
          + ("every output the same bits" if not differ else f"DIFFERENCES in {sorted(differ)}"))
    for name, where in differ.items():
        print(f"  {name}: {len(where)} sets differ, e.g. {', '.join(where[:4])}")
    print()
    timing(before, after, [int(x) for x in args.sizes.split(",") if x.strip()])
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
