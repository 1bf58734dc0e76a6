#!/usr/bin/env python3
"""The sweep over two deforming meshes, core level (no Blender): 250 frames of two 20,000-triangle meshes.

    .venv/bin/python bench/deform.py [--frames 250] [--resolution 100]

A is a sphere of radius 1 whose surface breathes (radius 1 + 0.05 sin(frame / 9)) and carries a bump (0.15 high)
that circles it in the xz plane, over the top every 40 pi frames; B, the same sphere mesh breathing out of phase,
flies over A along x, 2.16 above A's centre: they come within a few hundredths of each other around frame 125,
when the bump passes over the top and meets B.  Each frame is a keyed shape (the evaluated vertices of a shape-key or cache frame), and vertices
move in straight lines between frames (what core/deform.py follows).  The search is `core.motion.MotionSearch`
with `core.deform.DeformingSplit`, evaluating the pair check at every frame and where the rule asks: the sweep's
`core.deform.SampleChecker` (status and signed distance of `core.collide`, refitted hierarchies), or with
`--fresh` `core.collide` on two fresh `TriangleMesh`es.  Target (issue 22): the whole sweep within 60 s on the
2-core machine.  Prints what it did and the time spent in the pair checks and in the continuous tests.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import TriangleMesh, collide  # noqa: E402
from core.deform import DeformingSplit, MeshPose, SampleChecker  # noqa: E402
from core.motion import MotionSearch, Sample, place  # noqa: E402


def uv_sphere(resolution: int):
    """(unit directions, triangles) of a UV sphere with `resolution` segments and rings: about 2 x res^2
    triangles."""
    rings, segments = resolution, resolution
    theta = np.linspace(0.0, math.pi, rings + 1)[1:-1]
    phi = np.linspace(0.0, 2.0 * math.pi, segments, endpoint=False)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    body = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], axis=-1).reshape(-1, 3)
    directions = np.vstack([[0.0, 0.0, 1.0], body, [0.0, 0.0, -1.0]])
    triangles = []
    ring = lambda r, s: 1 + r * segments + (s % segments)  # noqa: E731
    for s in range(segments):
        triangles.append((0, ring(0, s), ring(0, s + 1)))
        triangles.append((len(directions) - 1, ring(rings - 2, s + 1), ring(rings - 2, s)))
    for r in range(rings - 2):
        for s in range(segments):
            a, b, c, d = ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r + 1, s)
            triangles += [(a, d, c), (a, c, b)]
    return directions, np.array(triangles, dtype=np.int64)


class Scene:
    def __init__(self, resolution: int, frames: int):
        self.directions, self.triangles = uv_sphere(resolution)
        self.frames = frames
        self._cache = {}

    def key_a(self, frame: int) -> np.ndarray:
        d = self.directions
        bump_axis = np.array([math.sin(frame / 20.0), 0.0, math.cos(frame / 20.0)])
        bump = 0.15 * np.exp(-(1.0 - d @ bump_axis) * 20.0)
        return d * (1.0 + 0.05 * math.sin(frame / 9.0) + bump)[:, None]

    def key_b(self, frame: int) -> np.ndarray:
        return self.directions * (1.0 + 0.05 * math.cos(frame / 7.0))

    def matrix_b(self, frame: float) -> np.ndarray:
        m = np.eye(4)
        s = frame / self.frames
        m[:3, 3] = (-6.0 + 12.0 * s, 0.0, 2.16)
        return m

    def shapes(self, time_: float):
        lo = math.floor(time_)
        s = time_ - lo
        a0, a1 = self._key("a", lo), self._key("a", lo + 1)
        b0, b1 = self._key("b", lo), self._key("b", lo + 1)
        return a0 + s * (a1 - a0), b0 + s * (b1 - b0)

    def _key(self, which: str, frame: int) -> np.ndarray:
        key = (which, frame)
        if key not in self._cache:
            self._cache[key] = self.key_a(frame) if which == "a" else self.key_b(frame)
        return self._cache[key]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=250)
    parser.add_argument("--resolution", type=int, default=100, help="segments and rings of each UV sphere")
    parser.add_argument("--fresh", action="store_true", help="check each sample with core.collide on fresh meshes")
    args = parser.parse_args()
    scene = Scene(args.resolution, args.frames)
    check_seconds = [0.0]
    checker = SampleChecker()
    check = collide if args.fresh else checker.check

    def evaluate(t: float) -> Sample:
        local_a, local_b = scene.shapes(t)
        matrix_b = scene.matrix_b(t)
        started = time.perf_counter()
        contact = check(TriangleMesh(local_a, scene.triangles), TriangleMesh(local_b, scene.triangles,
                                                                            transform=matrix_b))
        check_seconds[0] += time.perf_counter() - started
        pose_a = MeshPose(local_a, np.eye(4), local=local_a, triangles=scene.triangles)
        pose_b = MeshPose(place(local_b, matrix_b), matrix_b, local=local_b, triangles=scene.triangles)
        return Sample(t, contact.status, contact.distance, pose_a, pose_b)

    rule = DeformingSplit()
    search = MotionSearch(evaluate, range(0, args.frames + 1), split=rule)
    started, cpu_started = time.perf_counter(), time.process_time()
    summary = search.run()
    total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    report = rule.report
    print(f"two deforming meshes of {len(scene.triangles)} triangles each, frames 0..{args.frames}, checked with "
          f"{'core.collide' if args.fresh else 'SampleChecker'}")
    print(f"  total {total:.1f} s: pair checks {check_seconds[0]:.1f} s ({len(search.evaluated)} evaluations), "
          f"continuous tests {report.ccd_seconds:.1f} s ({report.ccd_calls} calls), "
          f"the rest {total - check_seconds[0] - report.ccd_seconds:.1f} s; processor time {cpu:.1f} s, "
          f"{len(search.evaluated) / max(cpu, 1e-9):.2f} evaluations per processor second")
    print(f"  deforming intervals examined {report.deforming_intervals}, largest chord error "
          f"{report.largest_chord_error:.3g}, capped {search.capped}")
    if not args.fresh:
        print(f"  hierarchies refitted {checker.refits}, built {checker.builds}; not convex by a kept witness "
              f"{checker.witnessed} times")
    print(f"  first contact {summary.first_contact}, closest {summary.closest_distance:.6g} at "
          f"{summary.closest_time}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
