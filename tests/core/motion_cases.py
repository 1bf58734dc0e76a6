"""Analytic motions for the tests of core/motion.py: rigid objects moved by a linear translation and a uniform
rotation about one fixed axis (what core/motion.py's bounds assume), and two spheres whose distance is known in
closed form at every time."""
from __future__ import annotations

import math

import numpy as np

from core import Status
from core.motion import Pose, Sample, box_corners, place


def rotation(axis, angle: float) -> np.ndarray:
    """(3, 3) rotation by `angle` radians about `axis` (Rodrigues)."""
    k = np.asarray(axis, dtype=np.float64)
    k = k / np.linalg.norm(k)
    cross = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * cross + (1.0 - math.cos(angle)) * cross @ cross


def matrix(rotation_3x3=None, translation=(0.0, 0.0, 0.0), scale=(1.0, 1.0, 1.0)) -> np.ndarray:
    """(4, 4) object-to-world matrix: scale, then rotate, then translate."""
    m = np.eye(4)
    r = np.eye(3) if rotation_3x3 is None else rotation_3x3
    m[:3, :3] = r @ np.diag(scale)
    m[:3, 3] = translation
    return m


class RigidMotion:
    """An object (its local points) moving from time 0 to 1: origin t0 -> t1 linearly, rotation by `angle` about
    `axis` at a constant rate, a constant scale."""

    def __init__(self, local_points, start=(0, 0, 0), end=(0, 0, 0), axis=(0, 0, 1), angle=0.0, scale=(1, 1, 1),
                 turned=None):
        self.local = np.asarray(local_points, dtype=np.float64)
        self.start, self.end = np.asarray(start, float), np.asarray(end, float)
        self.axis, self.angle, self.scale = axis, angle, scale
        self.turned = np.eye(3) if turned is None else turned  # the rotation at time 0

    def matrix(self, s: float) -> np.ndarray:
        return matrix(rotation(self.axis, s * self.angle) @ self.turned, self.start + s * (self.end - self.start),
                      self.scale)

    def points(self, s: float) -> np.ndarray:
        return place(self.local, self.matrix(s))

    def pose(self, s: float) -> Pose:
        return Pose(place(box_corners(self.local), self.matrix(s)), self.matrix(s))


def sphere_pose(centre, radius: float, turn=None) -> Pose:
    """A sphere's pose: the corners of its local box (side 2r) placed at `centre`, turned by `turn`."""
    local = box_corners(np.array([[-radius] * 3, [radius] * 3]))
    m = matrix(turn, centre)
    return Pose(place(local, m), m)


class TwoSpheres:
    """Sphere A (radius ra) and sphere B (radius rb), centres moving linearly: c(t) = c0 + t * v.  Their signed
    distance |cb - ca| - ra - rb is exact for spheres (a negative one is the penetration depth)."""

    def __init__(self, ca0, va, ra, cb0, vb, rb, spin=0.0):
        self.ca0, self.va = np.asarray(ca0, float), np.asarray(va, float)
        self.cb0, self.vb = np.asarray(cb0, float), np.asarray(vb, float)
        self.ra, self.rb = ra, rb
        self.spin = spin  # radians per unit time about z: the distance does not change, the boxes turn
        self.calls = 0

    def distance(self, t: float) -> float:
        return float(np.linalg.norm(self.cb0 + t * self.vb - self.ca0 - t * self.va)) - self.ra - self.rb

    def sample(self, t: float) -> Sample:
        self.calls += 1
        d = self.distance(t)
        turn = rotation((0, 0, 1), self.spin * t)
        return Sample(t, Status.SEPARATED if d > 0.0 else Status.INTERSECTING, d,
                      sphere_pose(self.ca0 + t * self.va, self.ra, turn),
                      sphere_pose(self.cb0 + t * self.vb, self.rb, turn))

    def closest_approach(self, t0: float, t1: float) -> tuple[float, float]:
        """(time, distance) of the smallest distance on [t0, t1] (closed form: a line against a point)."""
        p = self.cb0 - self.ca0
        v = self.vb - self.va
        vv = float(v @ v)
        t = t0 if vv == 0.0 else min(max(-float(p @ v) / vv, t0), t1)
        return t, self.distance(t)

    def first_contact(self, t0: float, t1: float) -> float | None:
        """The first time in [t0, t1] at which the distance is <= 0 (closed form), or None."""
        if self.distance(t0) <= 0.0:
            return t0
        p = self.cb0 - self.ca0
        v = self.vb - self.va
        r = self.ra + self.rb
        a, b, c = float(v @ v), 2.0 * float(p @ v), float(p @ p) - r * r
        disc = b * b - 4.0 * a * c
        if a == 0.0 or disc < 0.0:
            return None
        t = (-b - math.sqrt(disc)) / (2.0 * a)
        return t if t0 <= t <= t1 else None
