#!/usr/bin/env python3
"""Issue 7, track "climb": the facet path alone (`_Supports` + `_facet_depth` of core/polytope.py), an older
checkout's core/polytope.py against this one's, both in ONE process, calls interleaved.

    .venv/bin/python bench/facet_climbs.py --base OLD_CHECKOUT            # ~1 minute
    .venv/bin/python bench/facet_climbs.py --base OLD_CHECKOUT --quick    # the 20,000-point pairs only

Why one process: on a shared 2-core machine a one-shot `core.collide` at 20,000 points (0.4-0.8 s, of which the
facet path is ~0.1 s) swings by +-30 % from run to run, more than the change measured here.  The old file is
loaded as a second module of this checkout's `core` package (`core.polytope_base`, next to the same shapes,
hulls and EPA), and both modules run on the same `ConvexPolytope`s, old and new alternating in each of
`--repeat` rounds; each cell is the smallest CPU time (`time.process_time`, BLAS on one thread).

Rows: the 20,000-point clouds of bench/raw_copies.py (a sphere cloud symmetric bit for bit, and its turned,
shifted and 1.001-scaled copies), captured where `core.collide` hands them to `facet_depth` (their hulls built by
core/hull.py); "one-shot" is `_Supports` for both shapes with the start tables rebuilt (as a first check does) plus
`_facet_depth`, "_facet_depth" that call alone.  Then qhull hulls of tests/core/duplicates.py's shapes at 1,000 to
10,000 vertices through `facet_depth` (the control: small shapes must not be slower).  "same": the depth bits
equal (and the normal, "normal differs" when only it does: ties between equally deep facet normals).
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

ROOT = Path(__file__).resolve().parent.parent


def _load_base(base: Path):
    """The base checkout's core/polytope.py as `core.polytope_base` (its relative imports: this `core`)."""
    spec = importlib.util.spec_from_file_location("core.polytope_base", base / "core" / "polytope.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _same(x, y) -> str:
    if x is None or y is None:
        return "yes" if x is None and y is None else "NO (one gave up)"
    if x[0] != y[0]:
        return "NO"
    return "yes" if x[1] == y[1] else "yes (normal differs)"


def big_rows(modules, repeat: int):
    import numpy as np
    import core
    import core.epa as epa
    sys.path.insert(0, str(ROOT / "bench"))
    from raw_copies import _sphere
    from tests.core.duplicates import near_copy

    sym = np.vstack([_sphere(10_000), -_sphere(10_000)])
    pairs = [("identical", sym.copy()),
             ("turned 1e-4", near_copy(sym, np.random.default_rng([4401, 11]), angle=1e-4)),
             ("shifted 1e-6", near_copy(sym, np.random.default_rng([4401, 12]), shift=1e-6)),
             ("inside 1.001", near_copy(sym, np.random.default_rng([4401, 12]), scale=1.001))]
    real = epa.facet_depth
    for relation, b in pairs:
        got = []
        epa.facet_depth = lambda x, y: (got.append((x, y)), real(x, y))[1]
        try:
            core.collide(sym.copy(), b.copy())
        finally:
            epa.facet_depth = real
        a_poly, b_poly = got[0]
        ha, hb = a_poly._triangulation(), b_poly._triangulation()
        times = {tag: ([], []) for tag in modules}
        answers = {}
        for _ in range(repeat):
            for tag, m in modules.items():
                ha.graph.cube = hb.graph.cube = None  # the start tables, as a first check builds them
                t0 = time.process_time()
                supports = m.Supports if hasattr(m, "Supports") else m._Supports  # core/supports.py's, or a base's
                sa, sb = supports(a_poly, ha), supports(b_poly, hb)
                t1 = time.process_time()
                answers[tag] = m._facet_depth(a_poly, b_poly, ha, hb, sa, sb)
                t2 = time.process_time()
                times[tag][0].append(t2 - t0)
                times[tag][1].append(t2 - t1)
        yield relation, times, _same(*answers.values())


def small_rows(modules, repeat: int):
    import numpy as np
    from scipy.spatial import ConvexHull
    from tests.core.duplicates import cone, cylinder, icosphere, near_copy, uv_sphere

    shapes = {"ico sphere s4": icosphere(4), "ico sphere s5": icosphere(5), "uv sphere 64x32": uv_sphere(64, 32),
              "cylinder 1024": cylinder(1024), "cone 1024": cone(1024)}
    for name, a in shapes.items():
        for relation, kw in [("identical", {}), ("turned 1e-4", {"angle": 1e-4}), ("inside 1.001", {"scale": 1.001})]:
            b = near_copy(a, np.random.default_rng(5), **kw) if kw else a.copy()
            polys = {}
            for tag, m in modules.items():
                made = []
                for p in (a, b):
                    h = ConvexHull(p)
                    made.append(m.ConvexPolytope(p[h.vertices], np.searchsorted(h.vertices, h.simplices)))
                polys[tag] = made
            times, answers = {tag: [] for tag in modules}, {}
            for _ in range(repeat):
                for tag, m in modules.items():
                    pa, pb = polys[tag]
                    pa._triangulation().graph.cube = pb._triangulation().graph.cube = None
                    t0 = time.process_time()
                    answers[tag] = m.facet_depth(pa, pb)
                    times[tag].append(time.process_time() - t0)
            yield f"{name} ({ConvexHull(a).vertices.size} v)", relation, times, _same(*answers.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the older checkout whose core/polytope.py is compared")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import numpy as np
    import core.facet_depth as here
    base = _load_base(Path(args.base).resolve())
    modules = {"base": base, "here": here}
    load = os.getloadavg()
    print(f"numpy {np.__version__}, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, CPU ms, min of {args.repeat} "
          f"interleaved calls")
    print("| 20,000-point sphere | base one-shot | here one-shot | here/base | base _facet_depth | here _facet_depth "
          "| here/base | same |")
    print("|---|---|---|---|---|---|---|---|")
    for relation, times, same in big_rows(modules, args.repeat):
        (bo, bf), (ho, hf) = ([1e3 * min(t) for t in times[tag]] for tag in ("base", "here"))
        print(f"| {relation} | {bo:.1f} | {ho:.1f} | {ho / bo:.2f} | {bf:.1f} | {hf:.1f} | {hf / bf:.2f} | {same} |",
              flush=True)
    if args.quick:
        return
    print()
    print("| qhull hulls, `facet_depth` | copy | base ms | here ms | here/base | same |")
    print("|---|---|---|---|---|---|")
    for name, relation, times, same in small_rows(modules, args.repeat):
        b, h = (1e3 * min(times[tag]) for tag in ("base", "here"))
        print(f"| {name} | {relation} | {b:.1f} | {h:.1f} | {h / b:.2f} | {same} |", flush=True)
    load = os.getloadavg()
    print(f"load at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
