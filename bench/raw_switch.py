#!/usr/bin/env python3
"""Issue 7, raw arrays: where EPA should hand a raw cloud's pair to the core's hulls (core/large_pairs.py
`raw_hull_early`).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/raw_switch.py        # ~1 minute

`core.collide(a, b)` on raw (n, 3) arrays, a shape against its copy (identical, turned 1e-4 rad, shifted 1e-6 x
size, inside its 1.001 copy), with the switch after 256 expansions from `--early` vertices on, against 4,096
(the value before session 5), both in one process, alternated twice, CPU time, the smaller of the two kept.
"same" says whether both answered the same depth bits (both are exact: bench/duplicates.py judges the depths).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--early", type=int, default=1024)
    args = parser.parse_args()
    import dataclasses

    import numpy as np

    import core
    import core.large_pairs as large_pairs
    from tests.core.duplicates import blob, cone, cylinder, icosphere, near_copy, rounded_box, uv_sphere

    shapes = {"cylinder 1024": cylinder(1024), "cone 1024": cone(1024), "ico sphere s4": icosphere(4),
              "uv sphere 64x32": uv_sphere(64, 32), "rounded box 32": rounded_box(32), "blob (ico s4)": blob(4),
              "cylinder 256": cylinder(256), "ico sphere s3": icosphere(3)}
    relations = {"identical": {}, "turned 1e-4": {"angle": 1e-4}, "shifted 1e-6": {"shift": 1e-6},
                 "inside 1.001": {"scale": 1.001}}
    print(f"| shape | vertices | copy | switch at 4,096: ms | EPA it | switch at {args.early:,}: ms | EPA it | "
          "same depth bits |")
    print("|---|---:|---|---:|---:|---:|---:|---|")
    for name, a in shapes.items():
        for relation, kwargs in relations.items():
            b = near_copy(a, np.random.default_rng(3), **kwargs) if kwargs else a.copy()
            runs = {}
            for early in (4096, args.early, 4096, args.early):
                large_pairs.LARGE_PAIRS = dataclasses.replace(large_pairs.LARGE_PAIRS, raw_hull_early=early)
                t0 = time.process_time()
                contact = core.collide(a, b)
                elapsed = time.process_time() - t0
                best = runs.get(early)
                runs[early] = (min(elapsed, best[0]) if best else elapsed, contact.epa_iterations, contact.distance)
            old, new = runs[4096], runs[args.early]
            print(f"| {name} | {len(a)} | {relation} | {1e3 * old[0]:.0f} | {old[1]} | {1e3 * new[0]:.0f} | {new[1]} | "
                  f"{'yes' if old[2] == new[2] else 'no'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
