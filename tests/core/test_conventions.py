"""Pins each `Contact` field's frame and sign on tiny hand-made cases (contact.py's docstrings are the contract).

Two axis-aligned unit cubes; A = [0, 1]^3, B = A moved along +x (or -x).  Every expected number is by hand.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import core
from tests.core.support import CUBE

SCALE = math.sqrt(3.0)  # a unit cube's AABB diagonal


def _pair(dx, dy=0.25, dz=0.125):
    return CUBE, CUBE + [dx, dy, dz]


def test_distance_is_positive_when_separated_and_normal_points_from_a_to_b():
    """`distance` > 0 is the gap; `normal` is the unit vector A -> B; status SEPARATED."""
    c = core.collide(*_pair(1.5))
    assert c.status is core.Status.SEPARATED
    assert c.distance == pytest.approx(0.5, abs=1e-12)
    np.testing.assert_allclose(c.normal, [1, 0, 0], atol=1e-12)
    c = core.collide(*_pair(-1.5))
    np.testing.assert_allclose(c.normal, [-1, 0, 0], atol=1e-12)


def test_separated_points_are_closest_points_and_b_minus_a_is_distance_times_normal():
    """`point_a` on A's face x = 1, `point_b` on B's face x = 1.5; point_b - point_a == distance * normal."""
    c = core.collide(*_pair(1.5))
    assert c.point_a[0] == pytest.approx(1.0, abs=1e-12)
    assert c.point_b[0] == pytest.approx(1.5, abs=1e-12)
    # the faces overlap on y in [0.25, 1], z in [0.125, 1]: the points lie over that patch
    assert 0.25 - 1e-12 <= c.point_a[1] <= 1 + 1e-12 and 0.125 - 1e-12 <= c.point_a[2] <= 1 + 1e-12
    np.testing.assert_allclose(c.point_b - c.point_a, c.distance * c.normal, atol=1e-12)


def test_distance_is_minus_depth_when_intersecting():
    """Overlap 0.25 along x: distance -0.25, depth 0.25, status INTERSECTING, normal A -> B (+x)."""
    c = core.collide(*_pair(0.75, dy=0.0, dz=0.0))
    assert c.status is core.Status.INTERSECTING
    assert c.distance == pytest.approx(-0.25, abs=1e-12)
    assert c.depth == pytest.approx(0.25, abs=1e-12)
    assert c.intersecting
    np.testing.assert_allclose(c.normal, [1, 0, 0], atol=1e-12)


def test_intersecting_points_are_witnesses_and_a_minus_b_is_depth_times_normal():
    """`point_a` is A's point deepest inside B (on A's face x = 1), `point_b` B's deepest inside A (x = 0.75);
    point_a - point_b == depth * normal; moving B by depth * normal makes the shapes touch."""
    a, b = _pair(0.75, dy=0.0, dz=0.0)
    c = core.collide(a, b)
    assert c.point_a[0] == pytest.approx(1.0, abs=1e-12)
    assert c.point_b[0] == pytest.approx(0.75, abs=1e-12)
    np.testing.assert_allclose(c.point_a - c.point_b, c.depth * c.normal, atol=1e-12)
    moved = core.collide(a, b + c.depth * c.normal)
    assert moved.status is core.Status.TOUCHING
    assert abs(moved.distance) <= moved.touching_tolerance


def test_touching_band_and_shared_point():
    """|distance| <= touching_tolerance = 1e-9 x scale -> TOUCHING; the two points coincide."""
    c = core.collide(*_pair(1.0))
    assert c.status is core.Status.TOUCHING
    assert abs(c.distance) <= c.touching_tolerance
    np.testing.assert_allclose(c.point_a, c.point_b, atol=2 * c.touching_tolerance)
    assert c.depth == 0.0
    for gap, status in ((0.5e-9, "TOUCHING"), (-0.5e-9, "TOUCHING"), (3e-9, "SEPARATED"), (-3e-9, "INTERSECTING")):
        assert core.collide(*_pair(1.0 + gap * SCALE)).status.name == status, gap


def test_scale_is_the_larger_aabb_diagonal_with_margins_and_sets_the_band():
    """`scale` = max of the two world AABB diagonals, margins included; touching_tolerance = 1e-9 x scale."""
    c = core.collide(CUBE, CUBE * 2.0 + [5.0, 0, 0])
    assert c.scale == pytest.approx(2 * SCALE, rel=1e-15)
    assert c.touching_tolerance == pytest.approx(1e-9 * c.scale, rel=1e-15)
    c = core.collide(core.PointCloud(CUBE, margin=0.5), core.Sphere(0.1, transform=np.diag([1, 1, 1, 1.0])))
    assert c.scale == pytest.approx(2 * SCALE, rel=1e-15)  # the cube grows by the margin on every side


def test_margin_is_a_world_space_sweep():
    """A margin rounds the shape by that radius: the gap shrinks by it, the point moves out by it."""
    c = core.collide(core.PointCloud(CUBE, margin=0.125), CUBE + [2.0, 0, 0])
    assert c.distance == pytest.approx(0.875, abs=1e-12)
    assert c.point_a[0] == pytest.approx(1.125, abs=1e-12)


def test_every_vector_is_in_the_world_frame():
    """Shapes given far away and under transforms answer in world coordinates, not a local frame."""
    m = np.eye(4)
    m[:3, 3] = [1000.0, -2000.0, 500.0]
    m_b = m.copy()
    m_b[:3, 3] += [2.0, 0.0, 0.0]
    c = core.collide(core.Box([0.5] * 3, transform=m), core.Sphere(0.5, transform=m_b))
    assert c.distance == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(c.point_a, [1000.5, -2000.0, 500.0], atol=1e-9)
    np.testing.assert_allclose(c.point_b, [1001.5, -2000.0, 500.0], atol=1e-9)
    np.testing.assert_allclose(c.normal, [1, 0, 0], atol=1e-12)


def test_normal_is_unit_and_fields_are_float64_and_read_only():
    c = core.collide(*_pair(1.5))
    for v in (c.normal, c.point_a, c.point_b):
        assert v.shape == (3,) and v.dtype == np.float64
        with pytest.raises(ValueError):
            v[0] = 1.0
    assert np.linalg.norm(c.normal) == pytest.approx(1.0, abs=1e-15)
    assert isinstance(c.distance, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.distance = 0.0


def test_diagnostics_fields():
    """Iteration counts are non-negative ints; `gap` certifies the distance; a clean polytope case converges
    without fallback or cap."""
    c = core.collide(*_pair(1.5))
    assert isinstance(c.gjk_iterations, int) and c.gjk_iterations >= 1
    assert isinstance(c.epa_iterations, int) and c.epa_iterations >= 0
    assert c.converged and not c.iteration_cap_hit
    assert 0.0 <= c.gap <= 1e-12 * c.scale
    assert abs(c.distance - 0.5) <= c.gap + 1e-15
    c = core.collide(*_pair(0.75, dy=0.0, dz=0.0))
    assert c.epa_iterations >= 1  # the depth comes from EPA
    assert abs(c.distance + 0.25) <= c.gap + 1e-15


def test_epa_outcome_says_why_epa_stopped():
    """`epa_outcome` is None when EPA did not run (separated cubes), CONVERGED for a certified depth (cubes
    overlapping by 0.25), FLAT for coplanar unit squares overlapping (M is flat: depth 0, TOUCHING), and
    CAP_HIT when the cap stops it (two overlapping cylinders need more than 2 expansions)."""
    assert core.collide(*_pair(1.5)).epa_outcome is None
    c = core.collide(*_pair(0.75, dy=0.0, dz=0.0))
    assert c.epa_outcome is core.EPAOutcome.CONVERGED and c.converged
    square = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    c = core.collide(square, square + [0.5, 0.25, 0.0])
    assert c.status is core.Status.TOUCHING and c.epa_outcome is core.EPAOutcome.FLAT and c.fallback_used
    # curved cores have no vertex count: the cap is epa_max_iterations itself
    tight = core.Tolerances(epa_max_iterations=2)
    c = core.collide(core.Cylinder(1.0, 1.0), core.Cylinder(1.0, 1.0, transform=np.diag([1.0, 1.0, 1.0, 1.0])
                                                            + np.array([[0, 0, 0, 0.3], [0, 0, 0, 0.1],
                                                                        [0, 0, 0, 0.2], [0, 0, 0, 0]])), tight)
    assert c.epa_outcome is core.EPAOutcome.CAP_HIT and c.iteration_cap_hit and not c.converged
    assert c.epa_iterations >= 2


def test_epa_cap_grows_with_the_vertex_count():
    t = core.Tolerances()
    assert t.epa_cap(0) == t.epa_max_iterations == 1024
    assert t.epa_cap(2 * 2562) == t.epa_iterations_per_vertex * 2 * 2562 > 1024


def test_swapped_flips_the_normal_and_exchanges_the_points():
    c = core.collide(*_pair(1.5))
    s = c.swapped()
    np.testing.assert_array_equal(s.normal, -c.normal)
    np.testing.assert_array_equal(s.point_a, c.point_b)
    np.testing.assert_array_equal(s.point_b, c.point_a)
    assert (s.status, s.distance, s.scale, s.touching_tolerance) == (c.status, c.distance, c.scale, c.touching_tolerance)


def test_depth_is_zero_unless_intersecting():
    assert core.collide(*_pair(1.5)).depth == 0.0
    assert core.collide(*_pair(1.0)).depth == 0.0


def test_intersects_and_distance_shortcuts():
    assert core.intersects(*_pair(1.0)) is True   # touching counts as contact
    assert core.intersects(*_pair(1.5)) is False
    assert core.intersects(*_pair(0.75)) is True
    assert core.distance(*_pair(1.5)) == pytest.approx(0.5, abs=1e-12)
    assert core.distance(*_pair(0.75, dy=0.0, dz=0.0)) == pytest.approx(-0.25, abs=1e-12)
