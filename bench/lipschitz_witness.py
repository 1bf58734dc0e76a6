#!/usr/bin/env python3
"""The Lipschitz covering (core/mesh/depth_lipschitz.py) re-run on its own inputs under other settings (issue 19).

    OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/lipschitz_witness.py 3,8,9 \
        "{'WITNESS_VERTICES': 12, 'WITNESS_TRY': 4, 'WITNESS_BELOW': 0.0}" ...
    ... bench/lipschitz_witness.py 3,9 --probe

For each blobs case of tests/core/depth_corpus.py named (its index), one `core.collide` captures the stage's
inputs (the interval [L, U] it starts from and the prepared sides); the stage is then run again on them once per
settings variant (a dict of the module's names), which prints the gap / U it leaves and its process CPU (the
stage alone).  Variants run one after another in one process, so compare them by CPU within a run.

`--probe`: instead, at the middle and the last batch of the stage as it stands, three failing cells whose best g
is finite are examined: 20,000 points sampled in the box A's box and the moved B's box share, how many lie inside
both solids, the best g among them over the cell's radius h and after eight `_climb` steps from the best three
(is a good witness there at all, and would it certify the cell).
"""
from __future__ import annotations

import argparse
import ast
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import core  # noqa: E402
import core.mesh.depth_interval as di  # noqa: E402
import core.mesh.depth_lipschitz as dl  # noqa: E402
from core.mesh.points import closest_points, winding_numbers  # noqa: E402
from tests.core.depth_corpus import make_case  # noqa: E402


def _capture(index):
    """The stage's inputs (sa, sb, seeds, scale, L, U) on blobs/index, or None when the stage does not run."""
    seen = {}
    original = dl.lipschitz_bound

    def keep(*args, **kwargs):
        seen["args"] = args
        return original(*args, **kwargs)

    di.lipschitz_bound = keep
    try:
        case = make_case("blobs", index)
        contact = core.collide(case.a.build(), case.b.build())
    finally:
        di.lipschitz_bound = original
    return contact, seen.get("args")


def _variants(text):
    names = {}
    for v in text:
        names.update(ast.literal_eval(v))
    defaults = {k: getattr(dl, k) for k in names}
    for v in text:
        yield v, {**defaults, **ast.literal_eval(v)}
    for k, x in defaults.items():
        setattr(dl, k, x)


def _probe(args, rng):
    sa, sb, seeds, scale, lower, upper = args
    trace = []
    dl.lipschitz_bound(sa, sb, seeds, scale, lower, upper, trace=trace)
    for k in sorted({len(trace) // 2, len(trace) - 1}):
        centres, h, best = trace[k]
        fail = np.flatnonzero((best <= h) & np.isfinite(best))
        print(f"  batch {k}: cells {h.size}, failed {np.count_nonzero(best <= h)}, h / U median "
              f"{np.median(h[best <= h]) / upper:.4f}")
        for j in fail[:3]:
            c = centres[j]
            lo = np.maximum(sa.world.lo[-1].reshape(3), sb.world.lo[-1].reshape(3) + c)
            hi = np.minimum(sa.world.hi[-1].reshape(3), sb.world.hi[-1].reshape(3) + c)
            p = lo + rng.random((20_000, 3)) * np.maximum(hi - lo, 0.0)
            p = p[winding_numbers(p, sa.world, scale) != 0]
            p = p[winding_numbers(p - c, sb.world, scale) != 0]
            if p.shape[0] == 0:
                print(f"    h / U {h[j] / upper:.4f}: no point inside both")
                continue
            da, qa = closest_points(p, sa.world)
            db, qb = closest_points(p - c, sb.world)
            top = np.argsort(-(da + db), kind="stable")[:3]
            shift = np.repeat(c[None, :], top.size, axis=0)
            _, da2, db2, _ = dl._climb(sa, sb, p[top].copy(), shift, da[top].copy(), qa[top].copy(),
                                       db[top].copy(), qb[top].copy(), 8, 1e-9 * (scale + upper), scale)
            print(f"    h / U {h[j] / upper:.4f}, best g / h so far {best[j] / h[j]:.2f}: {p.shape[0]} of 20000 "
                  f"inside both, best g / h {(da + db).max() / h[j]:.2f}, after 8 climbs {(da2 + db2).max() / h[j]:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("indices", help="blobs cases, comma separated")
    parser.add_argument("variants", nargs="*", help="settings variants (Python dicts of depth_lipschitz names)")
    parser.add_argument("--probe", action="store_true", help="examine failing cells instead")
    args = parser.parse_args()
    for index in (int(x) for x in args.indices.split(",")):
        start = time.process_time()
        contact, captured = _capture(index)
        cpu = time.process_time() - start
        upper = contact.depth + contact.gap
        line = f"blobs/{index}: gap / U {contact.gap / upper:.4f}, collide CPU {cpu:.2f} s"
        if captured is None:
            print(line + " (no covering)", flush=True)
            continue
        sa, sb, seeds, scale, lower, stage_upper = captured
        line += f"; before the stage {(stage_upper - lower) / stage_upper:.4f}"
        if args.probe:
            print(line, flush=True)
            _probe(captured, np.random.default_rng(5))
            continue
        for text, settings in _variants(args.variants or ["{}"]):
            for k, x in settings.items():
                setattr(dl, k, x)
            start = time.process_time()
            found = dl.lipschitz_bound(sa, sb, seeds, scale, lower, stage_upper)
            stage = time.process_time() - start
            reached = lower if found is None else max(lower, found[0])
            line += f" | {text}: {(stage_upper - reached) / stage_upper:.4f}, {stage:.2f} s"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
