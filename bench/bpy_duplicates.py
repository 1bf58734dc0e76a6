#!/usr/bin/env python3
"""Issue 7 as a user meets it: a high-poly primitive, Shift+D (move cancelled), select both, Check.

    .venv/bin/python bench/bpy_duplicates.py [--modes EXACT HULL LOOSE_PARTS] [--only uv cylinder] [--repeat 3]

Runs in the project venv (bpy 5.0.1) with the built extension installed in a throw-away profile
(scripts/blender_env.py). For each primitive (made by Blender's own operators: Ico Spheres of 2,562 and 10,242
vertices, a 128 x 64 UV Sphere, a 1,024-sided cylinder, Suzanne with a Subdivision Surface modifier at level 2:
non-convex, so Exact mode runs the mesh pipeline and the hull modes check her hull) and each relation of the copy (identical: the plain
duplicate; turned by 1e-4 rad; scaled by 1.001, which puts the original inside it), times `bpy.ops.collision.check()`
in Exact, Hull and Loose Parts modes: the first check after the duplicate (reading both evaluated meshes, building
the shapes, in Hull and Loose Parts modes Blender's Convex Hull when the query asks for it, the query, storing the
result; wall and process time, the latter less sensitive to the other jobs on a shared machine) and a second
check of the unchanged pair (the reading cache keeps the shapes). Each row also gives the
answer's status, depth, EPA iterations and outcome. Target (issue 7): <= 0.5 s per pair up to 20,000 hull vertices.
Prints a markdown table; exit 1 on error.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)

PRIMITIVES = [
    ("ico sphere 2,562 v", "primitive_ico_sphere_add", {"subdivisions": 5}),
    ("ico sphere 10,242 v", "primitive_ico_sphere_add", {"subdivisions": 6}),
    ("uv sphere 128 x 64", "primitive_uv_sphere_add", {"segments": 128, "ring_count": 64}),
    ("cylinder 1,024 sides", "primitive_cylinder_add", {"vertices": 1024}),
    ("Suzanne subdivided twice", "primitive_monkey_add", {}),
]
SUBDIVIDED = {"Suzanne subdivided twice": 2}
"""Primitives that get a Subdivision Surface modifier (levels): the check reads the evaluated mesh."""
RELATIONS = [("identical", None), ("turned 1e-4", ("rotation_euler", (1e-4, 0.0, 0.0))),
             ("scaled 1.001", ("scale", (1.001, 1.001, 1.001)))]
MODES = ["EXACT", "HULL", "LOOSE_PARTS"]


def main() -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", nargs="+", default=MODES, choices=MODES)
    parser.add_argument("--only", nargs="+", metavar="WORD",
                        help="only the primitives whose label contains one of these words (e.g. uv cylinder)")
    parser.add_argument("--repeat", type=int, default=1, help="run every row this many times (first checks vary)")
    args = parser.parse_args()
    modes = args.modes
    primitives = [p for p in PRIMITIVES if not args.only or any(w.lower() in p[0].lower() for w in args.only)]
    blender_env.isolate("ci-bench-duplicates-")  # before bpy is imported: removed when the process ends
    bpy, base = blender_env.bpy_for_bench()
    store = sys.modules[f"{base}.operators.store"]
    checking = sys.modules[f"{base}.operators.checking"]
    print("| primitive | vertices | copy | mode | first check ms | first check cpu ms | again ms | status | depth | "
          "EPA it | outcome |", flush=True)
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, op, kwargs in primitives:
        for relation, change in RELATIONS:
            for mode in [m for m in modes for _ in range(args.repeat)]:
                bpy.ops.wm.read_homefile(use_empty=True)
                checking._KEPT.clear()  # a first check is a first check: no hull kept from the previous row
                getattr(bpy.ops.mesh, op)(**kwargs)
                original = bpy.context.active_object
                if label in SUBDIVIDED:
                    modifier = original.modifiers.new("Subdivision", "SUBSURF")
                    modifier.levels = SUBDIVIDED[label]
                bpy.ops.object.duplicate()
                copy = bpy.context.active_object
                if change is not None:
                    setattr(copy, change[0], change[1])
                original.select_set(True)
                bpy.context.view_layer.objects.active = original
                bpy.context.scene.collision_inspector.mode = mode
                bpy.context.view_layer.update()
                bpy.context.evaluated_depsgraph_get()
                times, cpu = [], []
                for _ in range(2):
                    t0, c0 = time.perf_counter(), time.process_time()
                    done = bpy.ops.collision.check()
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                    if done != {"FINISHED"}:
                        print(f"RESULT error: check returned {done} ({label}, {relation}, {mode})")
                        return 1
                c = store.active_contact()
                outcome = c.epa_outcome.name if c.epa_outcome is not None else "-"
                evaluated = original.evaluated_get(bpy.context.evaluated_depsgraph_get())
                print(f"| {label} | {len(evaluated.data.vertices)} | {relation} | {mode} | {1e3 * times[0]:.0f} | "
                      f"{1e3 * cpu[0]:.0f} | {1e3 * times[1]:.0f} | {c.status.name} | {-c.distance:.9f} | {c.epa_iterations} | "
                      f"{outcome} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
