#!/usr/bin/env python3
"""End-to-end time of the real `bpy.ops.collision.check()` on two 1,000,000-vertex evaluated meshes.

    .venv/bin/python bench/bpy_check.py [--vertices 1000000]

Runs in the project venv (bpy 5.0.1). scripts/blender_env.py moves Blender's user folders to a throw-away
directory, rebuilds the extension zip if it is out of date and installs and enables it (as the headless tests and
`make demo` do). Then it builds two meshes in the scene, lets the depsgraph evaluate them once (that cost belongs
to Blender, not to the check), and times the operator call itself: reading the evaluated vertices, the core query,
storing the result. Target: < 2 s per check. Prints a markdown table; exit 1 on error.

Meshes: a UV sphere of about 1000 x 1000 (1,000,001 vertices, every one on the convex hull: the worst case for a
hull) and a vertex-only mesh of 1,000,000 points uniform in a ball (most vertices inside the hull).
Each pair is timed separated and intersecting, median of 3 calls.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)

TARGET_S = 2.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    blender_env.isolate("ci-bench-bpy-")  # removed when the process ends
    return run(args.vertices, args.repeats)


def uv_sphere_mesh(bpy, np, name: str, vertices: int, radius: float):
    """UV sphere mesh (quads between rings, triangle fans at the poles) with about `vertices` vertices, every vertex
    on the hull, built with foreach_set (bpy.ops.mesh.primitive_uv_sphere_add is superlinear: ~27 s for 160k)."""
    rings = max(3, int(round((vertices - 2) ** 0.5)))  # latitude bands
    segments = max(3, int(round((vertices - 2) / (rings - 1))))
    theta = np.linspace(0.0, np.pi, rings + 1)[1:-1]
    phi = np.arange(segments) * (2.0 * np.pi / segments)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    body = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], axis=-1).reshape(-1, 3)
    co = np.vstack([body, [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]]) * radius
    top, bottom = len(co) - 2, len(co) - 1
    idx = np.arange(len(body)).reshape(rings - 1, segments)
    nxt = np.roll(idx, -1, axis=1)
    quads = np.stack([idx[:-1], nxt[:-1], nxt[1:], idx[1:]], axis=-1).reshape(-1, 4)
    cap_top = np.stack([np.full(segments, top), nxt[0], idx[0]], axis=-1)
    cap_bottom = np.stack([np.full(segments, bottom), idx[-1], nxt[-1]], axis=-1)
    loops = np.concatenate([quads.ravel(), cap_top.ravel(), cap_bottom.ravel()]).astype(np.int32)
    sizes = np.concatenate([np.full(len(quads), 4), np.full(2 * segments, 3)])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int32)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(co))
    mesh.vertices.foreach_set("co", co.astype(np.float32).ravel())
    mesh.loops.add(len(loops))
    mesh.loops.foreach_set("vertex_index", loops)
    mesh.polygons.add(len(sizes))
    mesh.polygons.foreach_set("loop_start", starts)
    mesh.update()
    mesh.validate()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def ball_cloud_mesh(bpy, np, name: str, vertices: int, radius: float, seed: int):
    """Vertex-only mesh of `vertices` points uniform in a ball."""
    rng = np.random.default_rng(seed)
    d = rng.normal(size=(vertices, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    d *= radius * rng.random(vertices)[:, None] ** (1.0 / 3.0)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(vertices)
    mesh.vertices.foreach_set("co", d.astype(np.float32).ravel())
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def run(vertices: int, repeats: int) -> int:
    import numpy as np
    t0 = time.perf_counter()
    try:
        import bpy
    except ImportError as exc:
        print(f"RESULT skipped: bpy is not importable ({exc}); run `make venv`")
        return 0
    import_s = time.perf_counter() - t0

    module = blender_env.install_for_bench()
    if module is None:
        return 1
    store = sys.modules[f"{module}.operators.store"]

    print(f"| mesh pair | vertices | relation | check (median of {repeats}) | reading | core | verdict |", flush=True)
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for family in ("uv sphere", "points in ball"):
        bpy.ops.wm.read_homefile(use_empty=True)
        bpy.context.scene.collision_inspector.mode = "HULL"  # vertex clouds (no faces): their convex hulls
        if family == "uv sphere":
            a = uv_sphere_mesh(bpy, np, "A", vertices, 1.0)
            b = uv_sphere_mesh(bpy, np, "B", vertices, 0.8)
        else:
            a = ball_cloud_mesh(bpy, np, "A", vertices, 1.0, seed=1)
            b = ball_cloud_mesh(bpy, np, "B", vertices, 0.8, seed=2)
        b.rotation_euler = (0.3, 0.7, 1.1)
        count_a, count_b = len(a.data.vertices), len(b.data.vertices)
        for relation, offset in (("separated", (1.7, 1.0, 0.5)), ("intersecting", (0.5, 0.3, 0.2))):
            b.location = offset
            bpy.ops.object.select_all(action="DESELECT")
            a.select_set(True)
            b.select_set(True)
            bpy.context.view_layer.objects.active = a
            bpy.context.view_layer.update()  # evaluate the depsgraph now, outside the timed call
            times, reads, cores = [], [], []
            for _ in range(repeats):
                t0 = time.perf_counter()
                done = bpy.ops.collision.check()
                times.append(time.perf_counter() - t0)
                if done != {"FINISHED"}:
                    print(f"RESULT error: bpy.ops.collision.check() returned {done} on {family} {relation}")
                    return 1
                record = store.active_record()
                reads.append(record.read_ms / 1e3)
                cores.append(record.time_ms / 1e3)
            contact = record.contact
            median = statistics.median(times)
            worst = max(worst, median)
            print(f"| {family} | {count_a:,} + {count_b:,} | {relation} | {median:.3f} s | "
                  f"{statistics.median(reads):.3f} s | {statistics.median(cores):.3f} s | "
                  f"{contact.status.name.lower()} d={contact.distance:.6g} |", flush=True)
    verdict = "met" if worst < TARGET_S else "MISSED"
    print(f"RESULT slowest check {worst:.3f} s (target < {TARGET_S:.0f} s: {verdict}); import bpy {import_s:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
