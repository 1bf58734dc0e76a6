#!/usr/bin/env python3
"""Live mode's re-check per update, in the bpy module: what one tick of the live timer costs while B is dragged.

    .venv/bin/python bench/live.py [--updates 60] [--rows hull,exact]

Runs in the project venv (bpy 5.0.1).  scripts/blender_env.py gives Blender a throw-away profile, rebuilds the
extension zip if it is out of date and installs it.  Each row builds a pair, checks it once, turns Live on, then
simulates a drag: each update moves B a step along a path; the depsgraph is evaluated (`view_layer.update()`,
Blender's own cost, timed apart: that is when the handler marks B), then the live timer's work is timed:
`live.recheck()` = the one pipeline with the geometry cache (matrix_world read, the prepared shape moved, the core
query) + the one writer (the record, the WindowManager mirror, the overlay's draw data).  For comparison the same
updates are timed without the cache (every update reads the evaluated mesh again and builds its shape again).

Rows:
- Hull mode, a convex pair of 10k-vertex meshes (UV spheres, every vertex on the hull), dragged around A at a
  small gap (never touching: the usual layout drag) and through A's centre (deep overlaps: EPA's worst case);
  target <= 16 ms (60 Hz);
- Exact mode (`core.TriangleMesh`), pairs of about 10k triangles each: two noisy spheres (every vertex pushed in or
  out by up to 2 %) dragged around and through, and a rod (radius 0.2) swept sideways through a bumpy torus (1 /
  0.3): in the hole (separated), through the tube (crossing) and out; target <= 50 ms (issue 11).
  The preview rule (operators/live.py: an Exact pair whose last exact check took longer than `live.BUDGET_MS`, or
  of `live.PREVIEW_TRIANGLES` triangles or more, is re-checked as hulls while changes keep coming) is reported per
  row; `live.SETTLE` is set to 0 here, so every update gets its exact answer anyway (the worst case measured).
Prints a markdown table; exit 1 on error.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=60)
    parser.add_argument("--rows", default="hull,exact", help="which rows: hull, exact or both (comma-separated)")
    args = parser.parse_args()
    blender_env.isolate("ci-bench-live-")  # removed when the process ends
    return run(args.updates, set(args.rows.split(",")))


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def place(b, path: str, i: int, updates: int):
    """B's location at update i: 'through' A (apart, through the centre, apart again), 'around' it (a circle at
    a gap of 0.05 to 0.15: a layout drag that never touches), or 'sweep' (the rod across the torus: outside, through
    the tube, in the hole, through the tube again, outside)."""
    import math

    s = i / max(1, updates - 1)
    if path == "through":
        b.location = (3.0 - 6.0 * s, 0.1 * (i % 3), 0.0)
    elif path == "sweep":
        b.location = (-1.8 + 3.6 * s, 0.05 * (i % 3), 0.0)
    else:
        radius = 2.1 + 0.05 * (i % 3)
        b.location = (radius * math.cos(2 * math.pi * s), radius * math.sin(2 * math.pi * s), 0.0)


def drag(bpy, live, store, b, updates: int, use_cache: bool, reading, path: str):
    """Per update along the path: (depsgraph ms, re-check ms, reading ms, core ms) and the statuses / modes of
    the answers."""
    depsgraph_ms, recheck_ms, read_ms, core_ms, states, modes = [], [], [], [], {}, set()
    for i in range(updates):
        place(b, path, i, updates)
        t0 = time.perf_counter()
        bpy.context.view_layer.update()
        t1 = time.perf_counter()
        if not use_cache:
            reading.GEOMETRY_CACHE.clear()
        count = live.recheck()
        t2 = time.perf_counter()
        if count != 1:
            raise RuntimeError(f"update {i}: {count} records re-checked, expected 1")
        depsgraph_ms.append((t1 - t0) * 1e3)
        recheck_ms.append((t2 - t1) * 1e3)
        shown = store.active_record()
        read_ms.append(shown.read_ms)
        core_ms.append(shown.time_ms)
        status = shown.contact.status.name
        states[status] = states.get(status, 0) + 1
        modes.add(shown.mode.name)
    return depsgraph_ms, recheck_ms, read_ms, core_ms, states, modes


def build_pair(bpy, np, kind: str):
    """Objects A and B of one row; B starts apart (its path moves it)."""
    import tri_meshes
    from bpy_check import uv_sphere_mesh

    rng = np.random.default_rng(11)
    if kind == "convex":
        return uv_sphere_mesh(bpy, np, "A", 10_000, 1.0), uv_sphere_mesh(bpy, np, "B", 10_000, 1.0)
    if kind == "spheres":  # 70 rings x 71 around: 9,940 triangles each
        a = tri_meshes.mesh_object(bpy, "A", *tri_meshes.noisy_sphere(70, 71, 0.02, rng))
        b = tri_meshes.mesh_object(bpy, "B", *tri_meshes.noisy_sphere(70, 71, 0.02, rng))
        return a, b
    # torus 100 x 50 (10,000 triangles), tube radius 0.3 +- 5 %; rod 100 around x 50 rings (10,000 triangles)
    a = tri_meshes.mesh_object(bpy, "A", *tri_meshes.torus(1.0, 0.3, 100, 50, 0.05, rng))
    b = tri_meshes.mesh_object(bpy, "B", *tri_meshes.rod(0.2, 3.0, 100, 50))
    return a, b


def run(updates: int, which: set) -> int:
    import numpy as np

    bpy, base = blender_env.bpy_for_bench()
    live = importlib.import_module(f"{base}.operators.live")
    store = importlib.import_module(f"{base}.operators.store")
    checking = importlib.import_module(f"{base}.operators.checking")
    reading = importlib.import_module(f"{base}.operators.reading")
    Mode = importlib.import_module(f"{base}.results.record").Mode

    rows = [
        ("hull", "convex pair, 10k vertices each, dragged around A", "convex", Mode.HULL, 16.0, "around"),
        ("hull", "convex pair, 10k vertices each, dragged through A", "convex", Mode.HULL, 16.0, "through"),
        ("exact", "noisy spheres, 10k triangles each, dragged around A", "spheres", Mode.EXACT, 50.0, "around"),
        ("exact", "noisy spheres, 10k triangles each, dragged through A", "spheres", Mode.EXACT, 50.0, "through"),
        ("exact", "rod (10k triangles) swept through a torus (10k)", "torus", Mode.EXACT, 50.0, "sweep"),
    ]
    print(f"| pair | vertices A+B | triangles A+B | mode | states seen | re-check per update: median (p95, max) "
          f"| of which reading | of which core query | re-check without the cache (reading) | depsgraph update "
          f"(Blender) | preview rule (> {live.BUDGET_MS:.0f} ms or >= {live.PREVIEW_TRIANGLES:,} triangles) | target | "
          f"verdict |", flush=True)
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for group, label, kind, mode, target, path in rows:
        if group not in which:
            continue
        bpy.ops.wm.read_homefile(use_empty=True)
        a, b = build_pair(bpy, np, kind)
        b.location = (3.0, 0.0, 0.0)
        bpy.context.view_layer.update()
        record = checking.check_pair(a, b, bpy.context.evaluated_depsgraph_get(), checking.CheckSettings(mode=mode))
        store.store(bpy.context.window_manager, record)
        live.enable()
        if bpy.app.timers.is_registered(live.tick):
            bpy.app.timers.unregister(live.tick)  # ticks are called by hand here
        live.SETTLE = 0.0  # the answer in the record's own mode every update (no preview): the worst case
        depsgraph, cached, read_cached, core, states, modes = drag(bpy, live, store, b, updates, True, reading, path)
        _, fresh, read_fresh, _, _, _ = drag(bpy, live, store, b, updates, False, reading, path)
        live.disable()
        shown = store.active_record()
        if modes != {mode.name}:
            raise RuntimeError(f"{label}: re-checked in {modes}, expected {mode.name} only")
        triangles = shown.triangle_count_a + shown.triangle_count_b
        if mode is Mode.HULL:
            rule = "n/a (Hull)"
        elif live._is_large(record):
            rule = "applies: hulls while dragging"
        else:
            rule = "does not apply"
        seen = ", ".join(f"{name.lower()} {count}" for name, count in sorted(states.items()))
        median = statistics.median(cached)
        print(f"| {label} | {shown.vertex_count_a + shown.vertex_count_b:,} | {triangles:,} | "
              f"{mode.name.title()} | {seen} | "
              f"{median:.1f} ms ({percentile(cached, 0.95):.0f}, {max(cached):.0f}) | "
              f"{statistics.median(read_cached):.2f} ms | {statistics.median(core):.1f} ms | "
              f"{statistics.median(fresh):.1f} ms ({statistics.median(read_fresh):.1f} ms) | "
              f"{statistics.median(depsgraph):.2f} ms | {rule} | <= {target:g} ms | "
              f"{'met' if median <= target else 'MISSED'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
