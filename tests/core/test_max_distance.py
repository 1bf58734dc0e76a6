"""collide(..., max_distance=d): the early-out answer is a certified lower bound, and nothing else changes.

Against the exact oracle (tests/core/oracle.py, scipy hull of the Minkowski difference) on seeded clouds and round
shapes (sphere-swept cores), near and far from the origin:
- beyond_max_distance=True only when the true distance exceeds both d and the touching band; then status is
  SEPARATED, d < distance <= true distance, and |point_b - point_a| = distance + gap (an upper bound);
- otherwise the answer is the full answer of collide() without max_distance, field for field;
- a pair exactly at d (dyadic cubes: exact arithmetic) gets the full answer; None and inf mean no limit.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.oracle import ShapeSpec, signed_distance
from tests.core.support import CUBE


def cloud(rng, n, centre, size=1.0):
    return rng.normal(size=(n, 3)) * size + centre


def same(c1, c2):
    assert c1.status is c2.status
    assert c1.distance == c2.distance and c1.gap == c2.gap
    assert np.array_equal(c1.normal, c2.normal)
    assert np.array_equal(c1.point_a, c2.point_a) and np.array_equal(c1.point_b, c2.point_b)
    assert c1.gjk_iterations == c2.gjk_iterations and c1.epa_iterations == c2.epa_iterations
    assert not c1.beyond_max_distance and not c2.beyond_max_distance


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_lower_bound_is_certified_and_the_rest_unchanged(offset):
    rng = np.random.default_rng(3)
    beyond = full = 0
    for trial in range(60):
        n_a, n_b = rng.integers(1, 40, 2)
        a = cloud(rng, n_a, offset)
        b = cloud(rng, n_b, offset + rng.uniform(-1.0, 1.0, 3) * rng.choice([1.0, 3.0, 8.0]))
        truth, _ = signed_distance(a, b)
        exact = core.collide(a, b)
        for limit in (0.0, 0.05, 0.5, 2.0, 10.0):
            c = core.collide(a, b, max_distance=limit)
            tol = 1e-9 * c.scale + 1e-15 * offset
            if c.beyond_max_distance:
                beyond += 1
                assert c.status is core.Status.SEPARATED
                assert c.distance > limit and c.distance > c.touching_tolerance
                assert c.distance <= truth + tol, (trial, limit, c.distance, truth)
                assert truth > limit - tol
                assert c.gap >= 0.0 and not c.converged
                span = float(np.linalg.norm(c.point_b - c.point_a))
                assert span == pytest.approx(c.distance + c.gap, rel=1e-9, abs=tol)
                assert span >= truth - tol
                assert np.linalg.norm(c.normal) == pytest.approx(1.0)
            else:
                full += 1
                same(c, exact)
                if truth > limit + tol and exact.status is core.Status.SEPARATED:
                    pass  # not proven farther within GJK's steps: the full answer is allowed
    assert beyond > 20 and full > 20  # both branches ran


def test_round_shapes_subtract_their_radii():
    rng = np.random.default_rng(8)
    for trial in range(30):
        ra, rb = rng.uniform(0.1, 1.0, 2)
        m = np.eye(4)
        m[:3, 3] = rng.uniform(-1, 1, 3) * 6.0
        a = ShapeSpec("capsule", radius=ra, half_height=0.7)
        b = ShapeSpec("sphere", radius=rb, transform=m, margin=0.05)
        truth, _ = signed_distance(a, b)
        c = core.collide(a.build(), b.build(), max_distance=0.5)
        if c.beyond_max_distance:
            assert 0.5 < c.distance <= truth + 1e-9 * c.scale
        else:
            same(c, core.collide(a.build(), b.build()))


def test_pair_exactly_at_max_distance_gets_the_full_answer():
    for gap in (0.5, 0.25, 2.0):
        c = core.collide(CUBE, CUBE + [1.0 + gap, 0.0, 0.0], max_distance=gap)
        assert not c.beyond_max_distance
        assert c.status is core.Status.SEPARATED and c.distance == gap
        c = core.collide(CUBE, CUBE + [1.0 + gap, 0.0, 0.0], max_distance=np.nextafter(gap, 0.0))
        assert c.distance >= np.nextafter(gap, 0.0)  # either the full answer or a bound above the limit


def test_touching_and_intersecting_pairs_never_stop_early():
    c = core.collide(CUBE, CUBE + [1.0, 0.2, 0.1], max_distance=0.0)
    assert c.status is core.Status.TOUCHING and not c.beyond_max_distance
    c = core.collide(CUBE, CUBE + [0.5, 0.2, 0.1], max_distance=0.0)
    assert c.status is core.Status.INTERSECTING and not c.beyond_max_distance
    # Closer than the touching band but positive: never reported beyond (the band is a floor on the limit).
    c = core.collide(CUBE, CUBE + [1.0 + 1e-12, 0.0, 0.0], max_distance=0.0)
    assert c.status is core.Status.TOUCHING and not c.beyond_max_distance


def test_none_and_infinity_mean_no_limit():
    rng = np.random.default_rng(1)
    a, b = cloud(rng, 12, 0.0), cloud(rng, 9, 20.0)
    exact = core.collide(a, b)
    same(core.collide(a, b, max_distance=None), exact)
    same(core.collide(a, b, max_distance=math.inf), exact)
    assert core.collide(a, b, max_distance=1.0).beyond_max_distance


@pytest.mark.parametrize("value, words", [(-1.0, ">= 0"), (math.nan, ">= 0"), ("far", "number"), ([1.0], "number")])
def test_bad_max_distance(value, words):
    cube = np.eye(3)
    with pytest.raises(ValueError) as info:
        core.collide(cube, cube + 5.0, max_distance=value)
    assert words in str(info.value), str(info.value)
