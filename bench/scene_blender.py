#!/usr/bin/env python3
"""End-to-end time of the real `bpy.ops.collision.check_all(scope='VISIBLE')` on scenes of many objects.

    .venv/bin/python bench/scene_blender.py [--objects 1000 10000] [--exact-only | --no-exact]

Runs in the project venv (bpy 5.0.1). scripts/blender_env.py gives Blender a throw-away profile, rebuilds the
extension zip if it is out of date and installs it. Hull rows: a scene of N objects of mixed primitives (UV spheres, cylinders, ico
spheres, subdivided cubes; about 200 vertices per object on average, every object its own mesh), scattered in a
box sized so that each object meets about one or two others, lets the depsgraph evaluate once (Blender's cost, not
the check's), then times the operator call in Hull mode: reading every evaluated object, the broad phase, the
narrow phase, storing the list. Targets: 1,000 objects <= 2 s, 10,000 objects <= 20 s.
Exact row (issue 10): 100 non-convex closed meshes of about 5,000 triangles each (bumpy tori, bent tubes, noisy
spheres; bench/tri_meshes.py), scattered at the layout spacing so that some pairs clash, timed in Exact mode
(`core.TriangleMesh` per object); target <= 5 s.
Prints a markdown table (with the stages measured separately through operators.scene_check); exit 1 on error.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)

TARGETS_S = {("HULL", 1000): 2.0, ("HULL", 10000): 20.0, ("EXACT", 100): 5.0}
LAYOUT, CROWDED = 4.0, 2.6
"""Side of the scatter box / count^(1/3): 4.0 gives a layout where about a quarter of the objects clash with
something, 2.6 a crowded pile where most do (every clash costs an EPA run, the dearest step)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, nargs="+", default=None,
                        help="object counts (default: 1,000 and 10,000 in a layout, 1,000 crowded)")
    parser.add_argument("--spacing", type=float, default=LAYOUT, help="scatter box side / count^(1/3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact-only", action="store_true", help="only the Exact-mode row")
    parser.add_argument("--no-exact", action="store_true", help="no Exact-mode row")
    args = parser.parse_args()
    blender_env.isolate("ci-bench-scene-")  # removed when the process ends
    rows = [] if args.exact_only else (
        [("HULL", n, args.spacing) for n in args.objects] if args.objects else
        [("HULL", 1000, LAYOUT), ("HULL", 1000, CROWDED), ("HULL", 10000, LAYOUT)])
    if not args.no_exact:
        rows.append(("EXACT", 100, LAYOUT))
    return run(rows, args.seed)


def _mesh(bpy, np, name, co, faces):
    """A mesh from (n, 3) coordinates and a list of equal-length faces, with foreach_set."""
    faces = np.asarray(faces, dtype=np.int32)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(co))
    mesh.vertices.foreach_set("co", np.asarray(co, dtype=np.float32).ravel())
    mesh.loops.add(faces.size)
    mesh.loops.foreach_set("vertex_index", faces.ravel())
    mesh.polygons.add(len(faces))
    mesh.polygons.foreach_set("loop_start", np.arange(0, faces.size, faces.shape[1], dtype=np.int32))
    mesh.update()
    return mesh


def _templates(bpy, np):
    """Four primitive meshes (vertex counts 114 to 386; mean about 200)."""
    out = []
    # UV sphere 16 x 8 bands (quads only: the poles are small rings), 16 * 7 + 2 rings... as a quad grid.
    rings, segs = 9, 16
    t = np.linspace(0.15, np.pi - 0.15, rings)
    p = np.arange(segs) * 2 * np.pi / segs
    tt, pp = np.meshgrid(t, p, indexing="ij")
    co = np.stack([np.sin(tt) * np.cos(pp), np.sin(tt) * np.sin(pp), np.cos(tt)], -1).reshape(-1, 3)
    idx = np.arange(rings * segs).reshape(rings, segs)
    nxt = np.roll(idx, -1, axis=1)
    quads = np.stack([idx[:-1], nxt[:-1], nxt[1:], idx[1:]], -1).reshape(-1, 4)
    out.append((co, quads))
    # Cylinder, 64 sides (128 vertices), side quads only.
    a = np.arange(64) * 2 * np.pi / 64
    ring = np.stack([np.cos(a), np.sin(a)], -1)
    co = np.vstack([np.c_[ring, -np.ones(64)], np.c_[ring, np.ones(64)]])
    i = np.arange(64)
    out.append((co, np.stack([i, (i + 1) % 64, (i + 1) % 64 + 64, i + 64], -1)))
    # Subdivided cube surface: a 9 x 9 grid per face (386 distinct vertices, duplicates merged by position).
    g = np.linspace(-1, 1, 9)
    u, v = np.meshgrid(g, g, indexing="ij")
    pts = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            face = np.zeros((81, 3))
            face[:, axis] = sign
            others = [k for k in range(3) if k != axis]
            face[:, others[0]] = u.ravel()
            face[:, others[1]] = v.ravel()
            pts.append(face)
    co = np.unique(np.round(np.vstack(pts), 9), axis=0)
    out.append((co, np.zeros((0, 4), dtype=np.int32)))
    # Random points on an ellipsoid (114 vertices, no faces): a scanned part.
    rng = np.random.default_rng(7)
    d = rng.normal(size=(114, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    out.append((d * [1.0, 0.7, 0.5], np.zeros((0, 4), dtype=np.int32)))
    return out


def build_scene(bpy, np, count: int, seed: int, spacing: float = LAYOUT):
    rng = np.random.default_rng(seed)
    templates = _templates(bpy, np)
    # Objects about 2 units across (scale 0.5..1.1), scattered in a box of side spacing * count^(1/3).
    side = spacing * count ** (1.0 / 3.0)
    vertices = 0
    collection = bpy.context.scene.collection
    for k in range(count):
        co, faces = templates[k % len(templates)]
        mesh = _mesh(bpy, np, f"M{k}", co, faces)
        obj = bpy.data.objects.new(f"O{k}", mesh)
        obj.location = tuple(rng.uniform(0, side, 3))
        obj.rotation_euler = tuple(rng.uniform(0, np.pi, 3))
        obj.scale = tuple(rng.uniform(0.5, 1.1, 3))
        collection.objects.link(obj)
        vertices += len(co)
    return vertices


def build_exact_scene(bpy, np, count: int, seed: int, spacing: float = LAYOUT):
    """`count` closed non-convex meshes of about 5,000 triangles (bumpy tori 100 x 25, bent tubes 50 x 50, noisy
    spheres 48 rings x 51), each its own mesh, about 2-3 units across, scattered like `build_scene`'s objects with
    a random rotation and scale 0.7..1.1; returns (vertices, triangles)."""
    import tri_meshes

    rng = np.random.default_rng(seed)
    side = spacing * count ** (1.0 / 3.0)
    vertices = triangles = 0
    for k in range(count):
        kind = k % 3
        if kind == 0:
            co, tris = tri_meshes.torus(1.0, 0.3, 100, 25, 0.05, rng)
        elif kind == 1:
            co, tris = tri_meshes.bent_tube(0.3, 2.0, 3.0, 50, 50)
        else:
            co, tris = tri_meshes.noisy_sphere(48, 51, 0.05, rng)
        obj = tri_meshes.mesh_object(bpy, f"O{k}", co, tris)
        obj.location = tuple(rng.uniform(0, side, 3))
        obj.rotation_euler = tuple(rng.uniform(0, np.pi, 3))
        obj.scale = tuple(rng.uniform(0.7, 1.1, 3))
        vertices += len(co)
        triangles += len(tris)
    return vertices, triangles


def run(rows, seed: int) -> int:
    import numpy as np

    bpy, base = blender_env.bpy_for_bench()
    store = sys.modules[f"{base}.operators.store"]
    import importlib

    scene_check = importlib.import_module(f"{base}.operators.scene_check")
    checking = importlib.import_module(f"{base}.operators.checking")
    Mode = importlib.import_module(f"{base}.results.record").Mode

    print("| objects | scene | mode | vertices (triangles) | box pairs | exact checks | listed (intersecting) | objects in a clash "
          "| check_all end to end | read + shapes | broad phase | SAT prefilter | exact checks | rest (store, "
          "overlay) | target | verdict |", flush=True)
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    status = 0
    for mode, count, spacing in rows:
        bpy.ops.wm.read_homefile(use_empty=True)
        if mode == "EXACT":
            vertices, triangles = build_exact_scene(bpy, np, count, seed, spacing)
        else:
            vertices, triangles = build_scene(bpy, np, count, seed, spacing), None
        bpy.context.scene.collision_inspector.mode = mode
        bpy.context.view_layer.update()
        bpy.context.evaluated_depsgraph_get()
        t0 = time.perf_counter()
        done = bpy.ops.collision.check_all(scope="VISIBLE")
        total = time.perf_counter() - t0
        if done != {"FINISHED"}:
            print(f"RESULT error: check_all returned {done}")
            return 1
        records = store.records()
        listed = len(records)
        intersecting = sum(r.status.name == "INTERSECTING" for r in records)
        clashing = len({r.identity_a for r in records} | {r.identity_b for r in records})
        # The stages, measured again one by one.
        t0 = time.perf_counter()
        gathered = scene_check.gather(bpy.context, "VISIBLE", bpy.context.scene.collision_inspector,
                                      mode=Mode[mode])
        t1 = time.perf_counter()
        lo, hi = scene_check.world_boxes(gathered.entries)
        pairs = scene_check.candidate_pairs(lo, hi, 0.0, [True] * len(lo))
        t2 = time.perf_counter()
        kept = scene_check.prefilter(gathered.entries, pairs, 0.0)
        t3 = time.perf_counter()
        settings = checking.CheckSettings(mode=Mode[mode], stop_beyond_clearance=True)
        exact = [checking.check_geometry(gathered.entries[i].geometry, gathered.entries[j].geometry,
                                         settings, shape_a=gathered.entries[i].shape,
                                         shape_b=gathered.entries[j].shape) for i, j in kept.tolist()]
        t4 = time.perf_counter()
        assert len(exact) == len(kept)
        target = TARGETS_S.get((mode, count))
        verdict = "" if target is None else ("met" if total <= target else "MISSED")
        if verdict == "MISSED":
            status = 0  # a missed target is a result, not an error
        kind = {LAYOUT: "layout", CROWDED: "crowded"}.get(spacing, f"spacing {spacing}")
        rest = max(0.0, total - (t4 - t0))
        size = f"{vertices:,}" + ("" if triangles is None else f" ({triangles:,})")
        print(f"| {count:,} | {kind} | {mode.title()} | {size} | {len(pairs):,} | {len(kept):,} | {listed:,} ({intersecting:,}) "
              f"| {100.0 * clashing / count:.0f} % | {total:.2f} s | {t1 - t0:.2f} s | {t2 - t1:.3f} s | "
              f"{t3 - t2:.3f} s | {t4 - t3:.2f} s | {rest:.2f} s | "
              f"{'' if target is None else f'<= {target:.0f} s'} | {verdict} |", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
