"""Closed-form cases (Jolt EPATests style): each pair just missing, just touching and penetrating on a face, an
edge and a vertex, with the analytic distance, normal and points; then all of it again under seeded random
rigid motions of the whole scene (the expected answer moves with it).

Expected values come from geometry, never from the engine:
- sphere-sphere: d = |c2 - c1| - r1 - r2, n = (c2 - c1)/|c2 - c1|, points c1 + r1 n and c2 - r2 n;
- box-box: face (B resting on A's top face: the points are not unique, only their heights and the overlap
  rectangle are), crossing edges (A turned 45 deg about x, B about y: unique points on the two edges), vertex
  (B's corner down onto A's face: unique points);
- box-sphere over a face, an edge and a vertex: d = distance(centre, box) - r;
- capsule-capsule, parallel and crossing.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.corpus import random_rotation

ATOL = 1e-12  # x scale, for distances: the engine certifies 1e-12 x scale gaps
PTOL = 1e-9   # x scale, for points and normals
MISS, TOUCH = 1e-6, 0.0

ROT45X = np.array([[1, 0, 0], [0, math.cos(math.pi / 4), -math.sin(math.pi / 4)],
                   [0, math.sin(math.pi / 4), math.cos(math.pi / 4)]])
ROT45Y = np.array([[math.cos(math.pi / 4), 0, math.sin(math.pi / 4)], [0, 1, 0],
                   [-math.sin(math.pi / 4), 0, math.cos(math.pi / 4)]])


def _corner_down() -> np.ndarray:
    """A rotation taking the box diagonal (1, 1, 1)/sqrt(3) to -z (so a corner points straight down)."""
    u = np.array([1.0, 1.0, 1.0]) / math.sqrt(3.0)
    v = np.array([0.0, 0.0, -1.0])
    axis = np.cross(u, v)
    s, c = np.linalg.norm(axis), float(u @ v)
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


CORNER_DOWN = _corner_down()


def _m(rot=np.eye(3), t=(0, 0, 0)) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = rot
    m[:3, 3] = t
    return m


class Case:
    """A scene in its own frame and its closed-form answer; `moved(motion)` applies a rigid motion to all."""

    def __init__(self, make, d, normal, pa=None, pb=None, check_points=None):
        self.make, self.d, self.normal = make, d, np.asarray(normal, float)
        self.pa, self.pb, self.check_points = pa, pb, check_points

    def run(self, motion=np.eye(4)):
        a, b = self.make(motion)
        c = core.collide(a, b)
        rot, t = motion[:3, :3], motion[:3, 3]
        scale = c.scale
        expected_status = ("SEPARATED" if self.d > 1e-9 * scale else
                           "INTERSECTING" if self.d < -1e-9 * scale else "TOUCHING")
        assert c.status.name == expected_status, (c, self.d)
        np.testing.assert_allclose(c.distance, self.d, atol=ATOL * scale)
        np.testing.assert_allclose(c.normal, rot @ self.normal, atol=PTOL)
        if self.pa is not None:
            np.testing.assert_allclose(c.point_a, rot @ self.pa + t, atol=PTOL * scale)
            np.testing.assert_allclose(c.point_b, rot @ self.pb + t, atol=PTOL * scale)
        if self.check_points is not None:  # in the scene's own frame
            self.check_points(rot.T @ (c.point_a - t), rot.T @ (c.point_b - t), scale)
        return c


def _spheres(gap, r1=1.0, r2=0.5, direction=(1.0, 2.0, -2.0)):
    n = np.asarray(direction, float) / np.linalg.norm(direction)
    c1 = np.array([0.3, -0.2, 0.1])
    c2 = c1 + (r1 + r2 + gap) * n

    def make(motion):
        return (core.Sphere(r1, transform=motion @ _m(t=c1)), core.Sphere(r2, transform=motion @ _m(t=c2)))

    return Case(make, gap, n, c1 + r1 * n, c2 - r2 * n)


def _box_face(gap, lateral=(0.2, 0.1)):
    ha, hb = np.array([1.0, 1.0, 1.0]), np.array([0.5, 0.4, 0.5])
    cb = np.array([lateral[0], lateral[1], ha[2] + hb[2] + gap])

    def make(motion):
        return core.Box(ha, transform=motion), core.Box(hb, transform=motion @ _m(t=cb))

    lo = np.maximum(-ha[:2], cb[:2] - hb[:2])
    hi = np.minimum(ha[:2], cb[:2] + hb[:2])

    def check(pa, pb, scale):
        tol = PTOL * scale
        np.testing.assert_allclose([pa[2], pb[2]], [ha[2], ha[2] + gap], atol=tol)
        for p in (pa, pb):
            assert np.all(p[:2] >= lo - tol) and np.all(p[:2] <= hi + tol), (p, lo, hi)
        np.testing.assert_allclose(pa[:2], pb[:2], atol=tol)

    return Case(make, gap, [0, 0, 1], check_points=check)


def _box_edges(gap):
    """A turned 45 deg about x (top edge along x at z = sqrt(2) ha), B about y (bottom edge along y)."""
    ha, hb = 1.0, 0.5
    top_a = math.sqrt(2.0) * ha
    cb = np.array([0.0, 0.0, top_a + math.sqrt(2.0) * hb + gap])

    def make(motion):
        return (core.Box([ha] * 3, transform=motion @ _m(ROT45X)),
                core.Box([hb] * 3, transform=motion @ _m(ROT45Y, cb)))

    return Case(make, gap, [0, 0, 1], np.array([0, 0, top_a]), np.array([0, 0, top_a + gap]))


def _box_vertex(gap):
    ha, hb = 1.0, 0.5
    cb = np.array([0.1, -0.2, ha + math.sqrt(3.0) * hb + gap])

    def make(motion):
        return core.Box([ha] * 3, transform=motion), core.Box([hb] * 3, transform=motion @ _m(CORNER_DOWN, cb))

    return Case(make, gap, [0, 0, 1], np.array([0.1, -0.2, ha]), np.array([0.1, -0.2, ha + gap]))


def _box_sphere(feature, gap):
    h = np.array([1.0, 0.75, 0.5])
    r = 0.4
    direction = {"face": np.array([0.0, 0.0, 1.0]), "edge": np.array([1.0, 0.0, 1.0]) / math.sqrt(2.0),
                 "vertex": np.array([1.0, 1.0, 1.0]) / math.sqrt(3.0)}[feature]
    anchor = {"face": np.array([0.3, -0.2, h[2]]), "edge": np.array([h[0], 0.1, h[2]]),
              "vertex": h.copy()}[feature]
    centre = anchor + (r + gap) * direction

    def make(motion):
        return core.Box(h, transform=motion), core.Sphere(r, transform=motion @ _m(t=centre))

    return Case(make, gap, direction, anchor, centre - r * direction)


def _capsules(kind, gap):
    r1, r2 = 0.3, 0.2
    if kind == "parallel":
        cb = np.array([r1 + r2 + gap, 0.0, 0.25])
        rb = np.eye(3)
        pa, pb = None, None
    else:  # crossing: B's axis along x, passing over A's axis (along z)
        cb = np.array([0.0, r1 + r2 + gap, 0.1])
        rb = ROT45Y @ ROT45Y  # z -> x
        pa, pb = np.array([0.0, r1, 0.1]), np.array([0.0, r1 + gap, 0.1])
    n = cb * [1, 1, 0] / np.linalg.norm(cb[:2])

    def make(motion):
        return core.Capsule(r1, 1.0, transform=motion), core.Capsule(r2, 0.8, transform=motion @ _m(rb, cb))

    def check(qa, qb, scale):
        tol = PTOL * scale
        np.testing.assert_allclose(np.hypot(qa[0], qa[1]), r1, atol=tol)
        np.testing.assert_allclose(qb - qa, gap * n, atol=tol)

    return Case(make, gap, n, pa, pb, check_points=check if kind == "parallel" else None)


CASES = {}
for gap, label in ((MISS, "missing"), (TOUCH, "touching"), (-0.05, "penetrating")):
    CASES[f"sphere-sphere {label}"] = _spheres(gap)
    CASES[f"box-box face {label}"] = _box_face(gap)
    CASES[f"box-box edge {label}"] = _box_edges(gap)
    CASES[f"box-box vertex {label}"] = _box_vertex(gap)
    for feature in ("face", "edge", "vertex"):
        CASES[f"box-sphere {feature} {label}"] = _box_sphere(feature, gap)
    CASES[f"capsule-capsule parallel {label}"] = _capsules("parallel", gap)
    CASES[f"capsule-capsule crossing {label}"] = _capsules("crossing", gap)
CASES["sphere-sphere deep"] = _spheres(-1.2)
CASES["box-box face deep"] = _box_face(-0.6, lateral=(0.1, 0.05))
CASES["box-sphere face deep"] = _box_sphere("face", -0.7)


def _motions(n=10, seed=12345):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        out.append(_m(random_rotation(rng), rng.normal(size=3) * rng.choice([1.0, 10.0, 100.0])))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_closed_form(name):
    CASES[name].run()


@pytest.mark.parametrize("k", range(10))
@pytest.mark.parametrize("name", list(CASES))
def test_closed_form_under_random_rigid_motion(name, k):
    CASES[name].run(_motions()[k])


def test_coincident_spheres():
    """The worst case for the normal (Jolt GJKTests): depth r1 + r2, any unit normal, points r1 and r2 apart."""
    c = core.collide(core.Sphere(1.0), core.Sphere(0.5))
    assert c.status is core.Status.INTERSECTING
    np.testing.assert_allclose(c.distance, -1.5, atol=1e-12 * c.scale)
    np.testing.assert_allclose(np.linalg.norm(c.normal), 1.0, atol=1e-12)
    np.testing.assert_allclose(c.point_a, 1.0 * c.normal, atol=1e-9)
    np.testing.assert_allclose(c.point_b, -0.5 * c.normal, atol=1e-9)


def test_sliding_box_verdicts_like_libccd_boxbox():
    """libccd boxbox.c: slide a unit box through another in 100 steps of 0.1 from x = -5; the verdict is false
    before the boxes meet and true while they overlap, flipping exactly where the closed form says."""
    for step in range(100):
        x = -5.0 + 0.1 * step
        c = core.collide(core.Box([0.5] * 3), core.Box([0.5] * 3, transform=_m(t=(x, 0.2, -0.1))))
        centre = np.array([abs(x), 0.2, 0.1])
        gaps = centre - 1.0  # per-axis gap of two unit boxes
        gap = float(np.linalg.norm(np.maximum(gaps, 0.0))) if np.any(gaps > 0) else float(np.max(gaps))
        np.testing.assert_allclose(c.distance, gap, atol=1e-12 * c.scale)
        if gap > 1e-9 * c.scale:
            assert c.status is core.Status.SEPARATED, x
        elif gap < -1e-9 * c.scale:
            assert c.status is core.Status.INTERSECTING, x
        else:
            assert c.status is core.Status.TOUCHING, x
