#!/usr/bin/env python3
"""Where our core spends its time: cProfile over benchmark rows, folded into phases.

    bench/.venv/bin/python bench/profile_core.py                 # the default set of rows
    bench/.venv/bin/python bench/profile_core.py box - intersecting sphere 10000 intersecting

Rows are (family, n or -, relation) triples with the families of bench/convex.py (ball, sphere, box, sphere-prim,
capsule). Each row runs the one-shot query (raw world arrays for clouds) over its seeded poses, first untimed
for the wall-clock median, then instrumented by phase, then under cProfile (top self times). Phases (exclusive times per query, from timers wrapped around the engine's stage functions):
  setup       query._Pair.__init__: validation of the input (as_shape / as_vertices), bounds() for the scale,
              the pair-local shift
  gjk         gjk.gjk, of which support calls (minkowski_support) and the simplex solver (closest_on_simplex)
  epa         epa.epa, of which support calls, the simplex solver, and the rest (polytope bookkeeping)
  result      the Contact construction; "collide other" is the rest of collide (normal, witness points)
  shape construction  Shape.__init__ (transform checks), in the caller (primitives, B with a new pose) or in
              collide (raw arrays -> PointCloud)
cProfile adds a per-call overhead that inflates many small calls, so the shares matter more than the absolute
profiled times; the wall-clock median (no profiler) is printed next to them.
"""
from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent)]

import core  # noqa: E402
import convex  # noqa: E402  (bench/convex.py: the bench venv, machine info, the peers' hull helper)

DEFAULT_ROWS = [("sphere-prim", None, "separated"), ("ball", 8, "separated"), ("box", None, "intersecting"),
                ("ball", 64, "intersecting"), ("sphere", 256, "intersecting"), ("ball", 1024, "intersecting"),
                ("sphere", 10000, "separated"), ("sphere", 10000, "intersecting"),
                ("ball", 1_000_000, "intersecting")]


# Phase instrumentation: wrap the engine's stage functions (wherever a core module holds a reference to them) with
# timers that keep a stack, so each phase gets its *exclusive* time (nested phases subtracted).
PHASES = [("convex", "Pair.__init__", "setup"), ("shapes", "as_shape", "validation"),
          ("shapes", "Shape.bounds", "bounds"), ("gjk", "gjk", "gjk"), ("epa", "epa", "epa"),
          ("gjk", "minkowski_support", "support"), ("simplex", "closest_on_simplex", "simplex"),
          ("gjk", "supporting_direction", "normal fallback"), ("contact", "Contact.__init__", "result"),
          ("shapes", "Shape.__init__", "construct")]


class PhaseTimer:
    def __init__(self):
        self.exclusive = {}
        self.calls = {}
        self.stack = []  # [phase, start, child time]
        self._patched = []

    def wrap(self, phase: str, func):
        timer = self

        def wrapper(*args, **kwargs):
            frame = [phase, time.perf_counter_ns(), 0]
            timer.stack.append(frame)
            try:
                return func(*args, **kwargs)
            finally:
                elapsed = time.perf_counter_ns() - frame[1]
                timer.stack.pop()
                path = ">".join(f[0] for f in timer.stack[1:] + [frame]) if timer.stack else phase
                timer.exclusive[path] = timer.exclusive.get(path, 0) + elapsed - frame[2]
                timer.calls[path] = timer.calls.get(path, 0) + 1
                if timer.stack:
                    timer.stack[-1][2] += elapsed
        wrapper.__wrapped__ = func
        return wrapper

    def install(self):
        import importlib
        modules = [importlib.import_module(f"core.{m}") for m in
                   ("query", "convex", "shapes", "gjk", "epa", "simplex", "contact")]
        self.install_one("collide", importlib.import_module("core.query").collide, modules, top=True)
        for module_name, qualname, phase in PHASES:
            module = importlib.import_module(f"core.{module_name}")
            owner, _, attr = qualname.rpartition(".")
            holder = getattr(module, owner) if owner else module
            func = getattr(holder, attr, None)
            if func is None:
                continue
            if owner:  # a method: patch the class attribute
                self._patched.append((holder, attr, func))
                setattr(holder, attr, self.wrap(phase, func))
            else:
                self.install_one(phase, func, modules)

    def install_one(self, phase, func, modules, top=False):
        wrapped = self.wrap(phase if not top else "total", func)
        for module in modules + [sys.modules["core"], convex]:
            for name, value in list(vars(module).items()):
                if value is func:
                    self._patched.append((module, name, func))
                    setattr(module, name, wrapped)

    def uninstall(self):
        for holder, attr, func in reversed(self._patched):
            setattr(holder, attr, func)
        self._patched.clear()


def profile_row(family: str, n, relation: str, poses: int | None = None) -> dict:
    poses = poses or (2 if (n or 0) >= 100_000 else 10)
    case = convex.Case(family, n, relation, seed=5, n_poses=poses)
    case.warm(poses)
    ours = convex.Ours(core)
    ours.oneshot(case, 0)
    reps = max(poses, min(300, int(0.5 / max(1e-6, _one(ours, case)))))
    wall = []
    for k in range(reps):
        t0 = time.perf_counter()
        contact = ours.oneshot(case, k % poses)
        wall.append(time.perf_counter() - t0)
    timer = PhaseTimer()
    timer.install()
    try:
        for k in range(reps):
            ours.oneshot(case, k % poses)
    finally:
        timer.uninstall()
    profiler = cProfile.Profile()
    profiler.enable()
    for k in range(reps):
        ours.oneshot(case, k % poses)
    profiler.disable()
    per = 1e-3 / reps  # ns -> µs per query
    phases = {path: t * per for path, t in timer.exclusive.items()}
    return {"row": f"{family} n={n or '-'} {relation}", "status": contact.status.name.lower(),
            "gjk_it": contact.gjk_iterations, "epa_it": contact.epa_iterations,
            "wall_us": statistics.median(wall) * 1e6, "phases": phases,
            "calls": {path: c / reps for path, c in timer.calls.items()},
            "top": _top(pstats.Stats(profiler), reps)}


def _one(ours, case) -> float:
    t0 = time.perf_counter()
    ours.oneshot(case, 0)
    return time.perf_counter() - t0


def _top(stats, reps: int, k: int = 8) -> list[str]:
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:k]
    out = []
    for (file, line, name), (_cc, nc, tt, _ct, _cl) in rows:
        where = f"{os.path.basename(file)}:{line}" if file != "~" else "builtin"
        out.append(f"{tt * 1e6 / reps:9.1f} µs self  {nc / reps:8.1f} calls  {where} {name}")
    return out


def group(phases: dict) -> dict:
    """Fold exclusive times by stack path into the headline phases."""
    out = {}
    for path, t in phases.items():
        parts = path.split(">")
        leaf = parts[-1]
        in_epa = "epa" in parts[:-1] or leaf == "epa"
        if leaf in ("support", "simplex"):
            key = f"{leaf} ({'EPA' if in_epa else 'GJK' if 'gjk' in parts else parts[-2] if len(parts) > 1 else '?'})"
        elif leaf == "gjk":
            key = "GJK bookkeeping" + (" (inside EPA)" if in_epa else "")
        elif leaf == "epa":
            key = "EPA bookkeeping"
        elif leaf in ("setup", "validation", "bounds"):
            key = {"setup": "setup other", "validation": "validation", "bounds": "bounds (scale)"}[leaf]
        elif leaf == "construct":
            key = "shape construction" + (" (inside collide)" if "total" in parts[:-1] else " (caller)")
        elif leaf == "total":
            key = "collide other"
        else:
            key = leaf
        out[key] = out.get(key, 0.0) + t
    return out


def main(argv: list[str]) -> None:
    rows = DEFAULT_ROWS
    if argv:
        rows = [(argv[i], None if argv[i + 1] == "-" else int(argv[i + 1]), argv[i + 2])
                for i in range(0, len(argv), 3)]
    results = []
    for family, n, relation in rows:
        r = profile_row(family, n, relation)
        r["groups"] = group(r["phases"])
        results.append(r)
        print(f"[profile] {r['row']}: {r['wall_us']:,.0f} µs wall, "
              + ", ".join(f"{k} {v:,.0f}" for k, v in sorted(r["groups"].items(), key=lambda kv: -kv[1])),
              flush=True)
    keys = sorted({k for r in results for k in r["groups"]}, key=lambda k: -max(r["groups"].get(k, 0) for r in results))
    print("\nExclusive µs per query by phase (instrumented run; wall = median without instrumentation):\n")
    print("| row | verdict | GJK/EPA it. | wall µs | instrumented µs | " + " | ".join(keys) + " |")
    print("|---|---|---|---|---|" + "---|" * len(keys))
    for r in results:
        total = sum(r["groups"].values())
        print(f"| {r['row']} | {r['status']} | {r['gjk_it']}/{r['epa_it']} | {r['wall_us']:,.0f} | {total:,.0f} | "
              + " | ".join(f"{r['groups'].get(k, 0):,.0f}" for k in keys) + " |")
    print("\nCalls per query by phase path:")
    for r in results:
        print(f"  {r['row']}: " + ", ".join(f"{p} {c:.1f}" for p, c in sorted(r["calls"].items())))
    print("\nTop self times per query (cProfile, inflated by its per-call overhead):")
    for r in results:
        print(f"\n{r['row']}:")
        for line in r["top"]:
            print("  " + line)


if __name__ == "__main__":
    main(sys.argv[1:])
