"""Exact mode's float32 UV Spheres (nearly convex) against a copy of themselves, core only.

    .venv/bin/python bench/exact_uv.py .                 # this checkout
    .venv/bin/python bench/exact_uv.py /path/to/other    # another checkout (its core), the same shapes
    .venv/bin/python bench/exact_uv.py . 32x16 64x32     # some sizes only
    .venv/bin/python bench/exact_uv.py . 128x64 ico5     # ico5: the Ico Sphere of 10,242 vertices

`core.collide(TriangleMesh, TriangleMesh)` as the add-on's Exact check calls it, on Blender's UV Sphere as
tests/core/duplicates.py `blender_uv_sphere` makes it (float32, quads folded by a hair) and a copy placed by
`placement` (identical, turned 1e-4 rad, shifted 1e-6 x size, scaled 1.001 about its centre).  Columns: process
time (median of 3 runs) for two fresh TriangleMeshes and for the add-on's way (operators/checking.py keeps one
TriangleMesh per mesh content and places it with `moved`: the duplicate shares its original's hierarchy, inner
body and hull), the reported depth and gap, the number of crossing segments, and the hulls' exact depth
(`exact_depth`, too slow for 128 x 64: nan).  Row `ico5` (only when asked for, or with no sizes given): the Ico
Sphere of 5 subdivisions (10,242 vertices, an exactly convex mesh, triangles from scipy's hull) and its copy
placed the same way (the same mesh data under an object transform, as Blender's Shift+D makes it).  The shapes
always come from this checkout's tests, the engine from the checkout given."""
import importlib.util
import pathlib
import statistics
import sys
import time

import numpy as np

RELATIONS = [("identical", {}), ("rotated 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
             ("inside 1.001", {"scale": 1.001})]


def _shapes_here():
    """tests/core/duplicates.py of this checkout, whatever checkout's `tests` package is on the path."""
    path = pathlib.Path(__file__).resolve().parents[1] / "tests" / "core" / "duplicates.py"
    spec = importlib.util.spec_from_file_location("duplicates_here", str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    sys.path.insert(0, str(pathlib.Path(argv[0]).resolve()))  # the engine measured
    import core
    shapes = _shapes_here()
    args = argv[1:] or ["32x16", "64x32", "128x64", "ico5"]
    meshes = []
    for arg in args:
        if arg == "ico5":
            points = shapes.icosphere(5)
            meshes.append(("ico sphere s5", points, shapes.hull_triangles(points), False))
        else:
            segments, rings = map(int, arg.split("x"))
            vertices, triangles = shapes.blender_uv_sphere(segments, rings)
            meshes.append((f"uv sphere {segments}x{rings}", vertices.astype(np.float64), triangles, segments <= 64))
    print("| mesh | triangles | copy | total (s) | as the add-on (s) | depth | gap | crossing segments "
          "| hulls' depth |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for label, vertices, triangles, exact in meshes:
        for name, kw in RELATIONS:
            pose = shapes.placement(vertices, np.random.default_rng(7), **kw)
            moved = vertices @ pose[:3, :3].T + pose[:3, 3]
            centre = vertices.mean(axis=0)
            hulls = shapes.exact_depth(vertices - centre, moved - centre)[0] if exact else float("nan")
            times = []
            for _ in range(3):
                start = time.process_time()
                contact = core.collide(core.TriangleMesh(vertices, triangles),
                                       core.TriangleMesh(vertices, triangles, pose))
                times.append(time.process_time() - start)
            shared = []
            for _ in range(3):
                start = time.process_time()
                mesh = core.TriangleMesh(vertices, triangles)
                core.collide(mesh.moved(np.eye(4)), mesh.moved(pose))
                shared.append(time.process_time() - start)
            print(f"| {label} | {len(triangles):,} | {name} | {statistics.median(times):.3f} | "
                  f"{statistics.median(shared):.3f} | "
                  f"{contact.depth:.9f} | {contact.gap:.1e} | {contact.intersection.shape[0]:,} | {hulls:.9f} |",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
