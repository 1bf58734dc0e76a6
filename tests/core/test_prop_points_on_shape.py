"""Property: every returned point lies on the boundary of its own shape, within the touching band (1e-9 x scale),
in every family (curved shapes: the oracle's certified point bracket)."""
from __future__ import annotations

import pytest

import core
from tests.core.oracle import geometry, point_shape_bracket
from tests.core.strategies import any_pairs, ids


def _off(bracket):
    lo, hi = bracket
    return 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))


@pytest.mark.parametrize("pair", any_pairs(), ids=ids(any_pairs()))
def test_points_lie_on_their_own_shapes(pair):
    c = core.collide(pair.a.build(), pair.b.build())
    ga, gb = geometry(pair.a, pair.ref), geometry(pair.b, pair.ref)
    limit = 1e-9 * c.scale + 64 * 2.2e-16 * (c.scale + float(abs(pair.ref).max()) + 1.0)
    assert _off(point_shape_bracket(c.point_a, ga)) <= limit, c
    assert _off(point_shape_bracket(c.point_b, gb)) <= limit, c
