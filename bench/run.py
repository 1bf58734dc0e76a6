#!/usr/bin/env python3
"""`make bench`: every benchmark suite, one after the other, each timing ours beside its peers in the same run.

    .venv/bin/python bench/run.py                        # every suite (about 30 minutes on 2 cores)
    .venv/bin/python bench/run.py --list                 # the suites and what each measures
    .venv/bin/python bench/run.py --only mesh scene      # some suites
    .venv/bin/python bench/run.py --quick                # each suite's short form (smaller sizes, nothing written)

Each suite is a script of this folder, run in its own process by the project venv's Python.  The suites with
peers (python-fcl, coal) re-execute themselves in bench/.venv, which bench/convex.py makes on first use; the
Blender suites need the project venv's bpy and the extension zip (scripts/blender_env.py rebuilds a stale one).
numpy's BLAS runs on one thread, as both peers do: on a busy 2-core machine its threads made the many thin products
of the core several times slower and the timings noisy.  A failing suite does not stop the others; the exit code
is 1 when any failed.  The tables, and which result files a suite writes, are in bench/README.md.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# (name, script, arguments of its short form, what it measures)
SUITES = [
    ("convex", "convex.py", ["--quick"],
     "convex pairs one-shot and repeated, 8 to 10,000 vertices and primitives, vs python-fcl and coal; a "
     "1,000,000-vertex pair; bpy_check.py (the Check operator on two 1M-vertex meshes). Writes results.md, "
     "results.json"),
    ("duplicates", "duplicates.py", ["--quick"],
     "high-poly convex shapes against their copies in place (identical, turned, shifted, scaled), vs fcl and coal"),
    ("bpy-duplicates", "bpy_duplicates.py", ["--only", "cylinder", "--modes", "HULL"],
     "the same as a Blender user meets it: Shift+D, Check, in each mode"),
    ("mesh", "mesh.py", ["--quick"],
     "non-convex triangle meshes of 100,000 triangles, one-shot, vs python-fcl's BVH. Writes mesh_results.md"),
    ("midsize", "midsize.py", ["--quick"],
     "mid-size meshes (200 to 20,000 triangles: pybullet's duck, bunny, torus, soccer ball, teddy; generated 20k) "
     "one-shot, separated, crossing and inside, vs python-fcl's build + collide + distance. Writes midsize_results.md"),
    ("moved", "moved.py", ["--quick"],
     "meshes built once and moved pose by pose (FCL's env/rob under FCL's poses, a small drag, two 20k-triangle "
     "meshes crossing and apart): ours with a PairHistory, ours fresh, python-fcl"),
    ("mesh-duplicates", "mesh_duplicates.py", ["--quick"],
     "Exact mode on a mesh and its copy in place (crossing curve, containment); no peer answers this"),
    ("scene", "scene.py", ["--quick"],
     "many objects: narrow phase on 10,000 pairs, whole scene, broad phase, vs fcl and coal managers. "
     "Writes scene_results.md"),
    ("scene-blender", "scene_blender.py", ["--objects", "1000", "--no-exact"],
     "the Scene Check operator on 1,000 and 10,000 objects (Hull) and 100 meshes (Exact)"),
    ("live", "live.py", ["--updates", "10"],
     "live mode: the re-check per update while an object is dragged, Hull and Exact"),
    ("overlap", "overlap.py", ["--quick"],
     "core.overlap: the volume of A and B's intersection, 2 x 20k and 2 x 100k triangles, vs manifold3d"),
    ("depth", "depth.py", ["--quick", "--runs", "1"],
     "the depth interval of intersecting meshes (issue 19), narrowed and loose, 2 x 20k and 2 x 100k triangles"),
    ("one-object", "one_object.py", [],
     "Check Object's core: clearance between 50 loose parts (200,000 triangles), self-intersections"),
    ("deform", "deform.py", ["--frames", "25"],
     "the sweep over two deforming 20,000-triangle meshes, 250 frames, core level (issue 22: within 60 s)"),
    ("depth-tightness", "depth_tightness.py", ["--quick"],
     "the mesh depth interval's width (gap / upper end) and time per family on 560 certainly overlapping pairs "
     "(issue 19: within 1 % on 90 %, 5 % on 98 %)"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="SUITE", choices=[s[0] for s in SUITES])
    parser.add_argument("--quick", action="store_true", help="each suite's short form")
    parser.add_argument("--list", action="store_true", help="list the suites and stop")
    args = parser.parse_args()
    if args.list:
        for name, script, _, what in SUITES:
            print(f"{name:16} bench/{script:20} {what}")
        return 0
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    failed = []
    for name, script, quick, _ in SUITES:
        if args.only and name not in args.only:
            continue
        command = [sys.executable, str(BENCH / script), *(quick if args.quick else [])]
        print(f"== {name}: bench/{script} {' '.join(quick) if args.quick else ''}".rstrip(), flush=True)
        start = time.monotonic()
        code = subprocess.call(command, env=env, cwd=BENCH.parent)
        print(f"== {name}: {'done' if code == 0 else f'FAILED (exit {code})'} in {time.monotonic() - start:.0f} s",
              flush=True)
        if code:
            failed.append(name)
    if failed:
        print("failed suites: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
