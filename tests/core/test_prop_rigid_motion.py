"""Property: moving both shapes by one rigid motion (rotation + translation, up to 1e3 away) changes nothing but
the frame: same status and distance; the normal rotates; the points move with the shapes."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.strategies import generic_pairs, ids, moved, rigid_motion


@pytest.mark.parametrize("reach", [1.0, 1e3])
@pytest.mark.parametrize("pair", generic_pairs(), ids=ids(generic_pairs()))
def test_rigid_motion_changes_only_the_frame(pair, reach):
    m = rigid_motion(pair.index, reach)
    rot, t = m[:3, :3], m[:3, 3]
    before = core.collide(pair.a.build(), pair.b.build())
    after = core.collide(moved(pair.a, m).build(), moved(pair.b, m).build())
    # world coordinates ~reach only hold ~1e-16 x reach: that is the floor of every comparison
    tol = 1e-9 * before.scale + 64 * np.finfo(float).eps * (reach + before.scale)
    assert after.status is before.status
    np.testing.assert_allclose(after.distance, before.distance, atol=tol)
    np.testing.assert_allclose(after.normal, rot @ before.normal, atol=1e-6)
    np.testing.assert_allclose(after.point_a, rot @ before.point_a + t, atol=1e-6 * before.scale + tol)
    np.testing.assert_allclose(after.point_b, rot @ before.point_b + t, atol=1e-6 * before.scale + tol)


@pytest.mark.parametrize("pair", generic_pairs()[:40], ids=ids(generic_pairs()[:40]))
def test_pure_translation_keeps_every_bit_of_the_distance_within_rounding(pair):
    """A translation by a power of two (exact in float64 for these magnitudes) keeps the geometry exactly."""
    m = np.eye(4)
    m[:3, 3] = [64.0, -32.0, 128.0]
    before = core.collide(pair.a.build(), pair.b.build())
    after = core.collide(moved(pair.a, m).build(), moved(pair.b, m).build())
    np.testing.assert_allclose(after.distance, before.distance, atol=1e-9 * before.scale)
    np.testing.assert_allclose(after.normal, before.normal, atol=1e-6)
