"""Depth is a lower bound of the separating translation (never above the convex hulls' depth); a spent budget
gives a certified interval; max_distance stops early with a lower bound."""
from __future__ import annotations

import numpy as np
import pytest

import core
import core.mesh.descent as descent
from core import Status
from tests.core.meshes import box, join, l_shape, mesh, torus, translate


def rotation(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


@pytest.mark.parametrize("seed", range(10))
def test_depth_never_exceeds_the_hull_depth(seed):
    rng = np.random.default_rng(seed)
    a = torus(1.0, 0.3, 24, 12) if seed % 2 else l_shape()
    b = l_shape() if seed % 3 else join(box(), translate(box(), [1.5, 0, 0]))
    pose = np.eye(4)
    pose[:3, :3] = rotation(rng)
    pose[:3, 3] = rng.uniform(-0.6, 0.6, size=3)
    c = core.collide(mesh(a), mesh(b, pose))
    hull = core.collide(core.PointCloud(a[0]), core.PointCloud(b[0], pose))
    if c.status is Status.INTERSECTING:
        assert hull.status is Status.INTERSECTING
        assert c.depth <= hull.depth + 1e-9 * c.scale
    else:
        assert c.distance >= hull.distance - 1e-9 * c.scale


def test_a_spent_budget_gives_a_certified_interval(monkeypatch):
    rod = torus(1.0, 0.25, 48, 24)
    a, b = mesh(rod), mesh(translate(box([-0.3] * 3, [0.3] * 3), [0.0, 0.0, 0.0]))
    exact = core.collide(a, b)
    assert exact.status is Status.SEPARATED and exact.gap <= 1e-12 * exact.scale and exact.converged
    monkeypatch.setattr(descent, "MAX_EXACT", 1)
    monkeypatch.setattr(descent, "MAX_PAIRS", 8)
    cut = core.collide(a, b)
    assert cut.status is Status.SEPARATED
    assert not cut.converged and cut.iteration_cap_hit and cut.gap > 0.0
    # the interval [distance - gap, distance] holds the exact distance, and the points are real closest points
    assert cut.distance - cut.gap <= exact.distance + 1e-15 <= cut.distance + 2e-15
    assert abs(np.linalg.norm(cut.point_b - cut.point_a) - cut.distance) <= 1e-12


def test_max_distance_beyond():
    far = translate(l_shape(), [40.0, 0.0, 0.0])
    exact = core.collide(mesh(l_shape()), mesh(far))
    early = core.collide(mesh(l_shape()), mesh(far), max_distance=5.0)
    assert early.status is Status.SEPARATED and early.beyond_max_distance
    assert 5.0 < early.distance <= exact.distance
    near = core.collide(mesh(l_shape()), mesh(far), max_distance=100.0)
    assert not near.beyond_max_distance and near.distance == exact.distance


def test_intersecting_gap_brackets_the_depth_with_the_hulls_depth():
    """The interval's upper end is a verified move no longer than the hulls' depth (which always separates)."""
    a, b = l_shape(), translate(l_shape(), [0.5, 0.5, 0.0])
    c = core.collide(mesh(a), mesh(b))
    hull = core.collide(a[0], b[0])
    assert c.status is Status.INTERSECTING
    assert c.depth + c.gap <= hull.depth + 1e-12 * c.scale
    moved = np.eye(4)
    moved[:3, 3] = c.separation
    assert core.collide(mesh(a), mesh(b, moved)).status is not Status.INTERSECTING
