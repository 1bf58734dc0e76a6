#!/usr/bin/env python3
"""Depth interval per pair (issue 19): L, U, gap / U and CPU time of one `core.collide` on named pairs of
tests/core/depth_corpus.py, and with `--bracket` where the true depth lies: which end of the interval is loose.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/depth_pairs.py chain/23 lshape/14 [--bracket]

Names are family/index as `make_case` takes them (the index of `cases(fraction)` within its family).  CPU time
is `time.process_time` around the call (the corpus is built before).  `--bracket`: the exact directional depths
of every triangle pair within U (core/mesh/depth_sweep.py's `Sweep`, held when nothing crosses as placed) along
4,000 spread directions and a pattern search from the best six, down to 1e-4 rad; the shortest candidates are
confirmed by the corpus's judges (manifold3d's volume of the moved overlap and the full query), and the shortest
confirmed move, `best`, is printed over U: best / U below 1 says U is loose by that much, L / best below 1 says L
is (best is a separating move, so PD <= best; the search does not prove it shortest).  Slow (seconds to a minute
a pair: the sweep of every pair within U)."""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import core  # noqa: E402
from core.mesh import depth_sweep  # noqa: E402
from core.mesh.pair_frame import Frame  # noqa: E402
from core.tolerances import DEFAULT_TOLERANCES  # noqa: E402
from tests.core.depth_corpus import make_case  # noqa: E402
from tests.core.depth_oracle import Judge, moved  # noqa: E402


def bracket(case, a, b, contact):
    """The shortest separating move the sweep's dense search finds and both judges confirm (None if none)."""
    upper = contact.depth + contact.gap
    frame = Frame(a, b, DEFAULT_TOLERANCES)
    held = contact.intersection.shape[0] == 0
    ca, cb = depth_sweep.pairs_within(frame, 0.0, upper * 1.001)
    sweep = depth_sweep.Sweep(ca, cb, frame.scale, held)
    start = np.asarray(contact.separation, float)
    found = depth_sweep.shortest(sweep, [start], 0.0, upper * 1.001, spread=4000, keep=6, finest=1e-4,
                                 work=400_000_000)
    judge = Judge(case)
    allowance = judge.allowance(contact)
    for t, d in found[:10]:
        for bump in (1.0, 1.0 + 1e-7, 1.0 + 1e-5, 1.0 + 1e-3):
            move = t * bump * d
            if (core.collide(a, moved(b, move)).status is not core.Status.INTERSECTING
                    and judge.overlap(move) <= allowance):
                return t * bump
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="+", help="family/index")
    parser.add_argument("--bracket", action="store_true", help="also the brute-force shortest move")
    args = parser.parse_args()
    print(f"{'pair':16} {'variant':7} {'L':>12} {'U':>12} {'gap/U':>7} {'CPU s':>6}"
          + (f" {'best/U':>8} {'L/best':>8}" if args.bracket else ""))
    for name in args.pairs:
        family, index = name.split("/")
        case = make_case(family, int(index))
        a, b = case.a.build(), case.b.build()
        start = time.process_time()
        contact = core.collide(a, b)
        cpu = time.process_time() - start
        upper = contact.depth + contact.gap
        line = f"{name:16} {case.variant:7} {contact.depth:12.6g} {upper:12.6g} {contact.gap / upper:7.4f} {cpu:6.2f}"
        if args.bracket:
            best = bracket(case, a, b, contact)
            line += " " + ("       -        -" if best is None else f"{best / upper:8.5f} {contact.depth / best:8.5f}")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
