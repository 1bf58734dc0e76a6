"""Property (coal test/normal_and_nearest_points.cpp): the normal and the distance are an exact recipe.

With d the signed distance and eps = 1e-6 x scale, translating B by
- -(d - eps) * normal leaves the shapes separated by exactly eps, whether they started apart or overlapping
  (the nearest point of the Minkowski difference stays the nearest point: a theorem, so no oracle needed);
- -d * normal makes them touch;
- -(d + eps) * normal pushes eps past the contact: on a face contact that is an overlap of eps, but at a vertex
  of the Minkowski difference whose normal cone is wider than 90 degrees the shapes can slip past each other
  (found on affine/17: the push leaves a 1.9e-6 gap, engine and oracle agree).  So the engine must agree with
  the oracle there, and most of the sample must flip (checked over the whole sample)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import truth
from tests.core.strategies import generic_pairs, ids


FLIPPED: list[bool] = []


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
    np.testing.assert_allclose(c_into.distance, t_into.d, atol=1e-9 * scale)
    if abs(t_into.d) > 2e-9 * scale:
        assert (c_into.status is core.Status.INTERSECTING) == (t_into.d < 0), c_into
    FLIPPED.append(t_into.d < -1e-9 * scale)

    touch = pair.b.translated(-d * n)
    c_touch = core.collide(pair.a.build(), touch.build())
    assert c_touch.status is core.Status.TOUCHING, c_touch


def test_most_pushes_past_contact_overlap():
    """Over the sample (the test above ran first, same module), at least 80 % of the pushes by eps past the
    contact end intersecting: slipping past is the vertex exception, not the rule."""
    if len(FLIPPED) < 50:
        pytest.skip("run with the whole module")
    assert sum(FLIPPED) >= 0.8 * len(FLIPPED), f"{sum(FLIPPED)} of {len(FLIPPED)} flipped"
