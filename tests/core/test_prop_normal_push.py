"""Property (coal test/normal_and_nearest_points.cpp): the normal and the distance are an exact recipe.

Translating B by -(d + eps) * normal (d the signed distance, eps = 1e-6 x scale) must leave the shapes
intersecting, and by -(d - eps) * normal separated by exactly eps, whether they started apart or overlapping;
by -d * normal, touching.  The oracle judges the moved pairs (its verdict must agree with the engine's)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import truth
from tests.core.strategies import generic_pairs, ids


@pytest.mark.parametrize("pair", generic_pairs(), ids=ids(generic_pairs()))
def test_pushing_b_along_the_normal_flips_the_verdict(pair):
    c = core.collide(pair.a.build(), pair.b.build())
    n, d, scale = c.normal, c.distance, c.scale
    eps = 1e-6 * scale

    apart = pair.b.translated(-(d - eps) * n)
    c_apart = core.collide(pair.a.build(), apart.build())
    assert c_apart.status is core.Status.SEPARATED, c_apart
    np.testing.assert_allclose(c_apart.distance, eps, atol=1e-9 * scale)
    np.testing.assert_allclose(truth(pair.a, apart).d, eps, atol=1e-9 * scale)

    into = pair.b.translated(-(d + eps) * n)
    c_into = core.collide(pair.a.build(), into.build())
    t_into = truth(pair.a, into)
    assert t_into.d < -1e-9 * scale  # the oracle agrees the push went in
    assert c_into.status is core.Status.INTERSECTING, c_into
    np.testing.assert_allclose(c_into.distance, t_into.d, atol=1e-9 * scale)

    touch = pair.b.translated(-d * n)
    c_touch = core.collide(pair.a.build(), touch.build())
    assert c_touch.status is core.Status.TOUCHING, c_touch
