#!/usr/bin/env python3
"""A/B: two checkouts' engines on the same cases, interleaved in one process.

    .venv/bin/python bench/ab.py BEFORE AFTER                            # every default case, 5 rounds
    .venv/bin/python bench/ab.py BEFORE . --only "ico sphere s4" --repeat 9
    .venv/bin/python bench/ab.py BEFORE . --quick                        # the cases up to ~2,600 vertices
    .venv/bin/python bench/ab.py BEFORE . --cases my_cases.py            # cases of your own

BEFORE and AFTER are checkouts (make one of an older commit with `git worktree add ../before COMMIT`).  On a
machine shared with other jobs two separate runs of the same code can differ by 2x, more than most changes one
wants to measure.  So both engines are loaded into this one process, each checkout's core/ as its own package
(`core_a`, `core_b`: the engine imports itself only relatively), and each case calls them alternately, the order
swapped every round, so both see the same load.  CPU time (`time.process_time`) per call, garbage collected
before each, BLAS on one thread.  Per case: the minimum and median of each side, after/before of the minima
(below 1: AFTER is faster), and whether both gave the same answer bits.

The inputs come from this checkout (tests/core/duplicates.py's shapes, made before any timing); the engines from
BEFORE and AFTER.  Each call builds its shapes from arrays, as a first check does.  Default cases: one-shot
`collide` of a high-poly convex shape and its copy in place (identical, turned 1e-4 rad, shifted 1e-6 x size,
inside its 1.001 copy), as raw vertex arrays and as `ConvexPolytope`s with qhull's triangles; `collide` of two
`TriangleMesh`es (a mesh and its turned copy: the crossing curve); and `hull.convex_hull` on round clouds.  A case
that a checkout cannot run (a name it does not have) shows its error instead of a time.

A cases file defines `CASES`, a list of (name, function); the function takes an engine package (`core_a` or
`core_b`) and returns something comparable with ==.  Runs in the project venv (numpy, scipy); no peers.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent


def load_engine(checkout: Path, alias: str):
    """`checkout`/core as the package `alias`, with its submodules importable as alias.<name>."""
    package = checkout / "core"
    if not (package / "__init__.py").is_file():
        raise SystemExit(f"[ab] {checkout} has no core/__init__.py")
    spec = importlib.util.spec_from_file_location(alias, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def _answer(contact):
    """The bits that must not change: status, signed distance, normal."""
    return contact.status.name, float(contact.distance).hex(), tuple(float(x).hex() for x in contact.normal)


def default_cases(quick: bool):
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from tests.core import duplicates as d

    shapes = [("ico sphere s4", d.icosphere(4)), ("uv sphere 64x32", d.uv_sphere(64, 32)),
              ("cylinder 256", d.cylinder(256))]
    if not quick:
        shapes += [("ico sphere s5", d.icosphere(5)), ("uv sphere 128x64", d.uv_sphere(128, 64))]
    relations = [("identical", {}), ("turned 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
                 ("inside 1.001", {"scale": 1.001})]
    cases = []
    for shape, a in shapes:
        triangles = d.hull_triangles(a)
        for k, (relation, how) in enumerate(relations):
            b = d.near_copy(a, np.random.default_rng([7, k]), **how)
            cases.append((f"raw {shape} {relation}", lambda core, a=a, b=b: _answer(core.collide(a, b))))
            cases.append((f"polytope {shape} {relation}",
                          lambda core, a=a, b=b, t=triangles: _answer(
                              core.collide(core.ConvexPolytope(a, t), core.ConvexPolytope(b, t)))))
    mesh = d.icosphere(3 if quick else 4)
    mesh_triangles = d.hull_triangles(mesh)
    turned = d.near_copy(mesh, np.random.default_rng([7, 1]), angle=1e-4)
    cases.append((f"mesh ico sphere ({len(mesh_triangles)} triangles) turned 1e-4",
                  lambda core: _answer(core.collide(core.TriangleMesh(mesh, mesh_triangles),
                                                    core.TriangleMesh(turned, mesh_triangles)))))
    rng = np.random.default_rng(11)
    sphere = rng.normal(size=(10_000 if quick else 20_000, 3))
    sphere /= np.linalg.norm(sphere, axis=1)[:, None]
    for cloud, points in [("hull ico sphere s5", d.icosphere(5)), (f"hull random on sphere {len(sphere)}", sphere)]:
        def hull(core, points=points):
            importlib.import_module(core.__name__ + ".hull")
            found = core.hull.convex_hull(points)
            return None if found is None else (found[0].tobytes(), len(found[1]))
        cases.append((cloud, hull))
    return cases


def cases_from(path: Path):
    spec = importlib.util.spec_from_file_location("ab_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.CASES)


def _call(function, engine):
    gc.collect()
    start = time.process_time()
    try:
        answer = function(engine)
    except Exception as exc:  # noqa: BLE001 - a checkout without this name or path is reported, not fatal
        return None, f"{type(exc).__name__}: {exc}"
    return time.process_time() - start, answer


def _ms(times):
    return ("-", "-") if not times else (f"{1e3 * min(times):.1f}", f"{1e3 * statistics.median(times):.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--repeat", type=int, default=5, help="rounds: calls per case and side (default 5)")
    parser.add_argument("--only", nargs="+", metavar="WORDS", help="cases whose name contains one of these")
    parser.add_argument("--quick", action="store_true", help="the default cases up to ~2,600 vertices")
    parser.add_argument("--cases", type=Path, help="a file defining CASES = [(name, function(core)), ...]")
    args = parser.parse_args()
    engines = {"a": load_engine(args.before.resolve(), "core_a"), "b": load_engine(args.after.resolve(), "core_b")}
    cases = cases_from(args.cases) if args.cases else default_cases(args.quick)
    if args.only:
        cases = [c for c in cases if any(word in c[0] for word in args.only)]
    print(f"before (a) = {args.before}, after (b) = {args.after}; {args.repeat} rounds, CPU ms, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| case | before min | before median | after min | after median | after/before | same answer |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, function in cases:
        times = {"a": [], "b": []}
        answers = {}
        for round_ in range(args.repeat):
            for side in ("a", "b") if round_ % 2 == 0 else ("b", "a"):
                spent, answer = _call(function, engines[side])
                if spent is None:
                    answers.setdefault(side, answer)
                    continue
                times[side].append(spent)
                answers.setdefault(side, answer)
        failed = [answers[s] for s in "ab" if not times[s]]
        ratio = f"{min(times['b']) / min(times['a']):.2f}" if times["a"] and times["b"] else "-"
        same = ("yes" if answers["a"] == answers["b"] else "NO") if not failed else "error: " + "; ".join(failed)
        print(f"| {name} | {' | '.join(_ms(times['a']))} | {' | '.join(_ms(times['b']))} | {ratio} | {same} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
