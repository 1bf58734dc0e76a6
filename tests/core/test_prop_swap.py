"""Property: swapping A and B gives the same answer seen from the other side (coal's symmetric checks, Jolt's
`Reversed()`): same status and distance, the normal negated, the points exchanged; `Contact.swapped()` says so."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.strategies import any_pairs, generic_pairs, ids


@pytest.mark.parametrize("pair", generic_pairs(), ids=ids(generic_pairs()))
def test_swap_negates_normal_and_swaps_points(pair):
    a, b = pair.a.build(), pair.b.build()
    ab, ba = core.collide(a, b), core.collide(b, a)
    tol = 1e-9 * ab.scale
    assert ab.status is ba.status
    np.testing.assert_allclose(ba.distance, ab.distance, atol=tol)
    np.testing.assert_allclose(ba.normal, -ab.normal, atol=1e-6)
    np.testing.assert_allclose(ba.point_a, ab.point_b, atol=1e-6 * ab.scale)
    np.testing.assert_allclose(ba.point_b, ab.point_a, atol=1e-6 * ab.scale)
    sw = ab.swapped()
    np.testing.assert_allclose(sw.normal, ba.normal, atol=1e-6)


@pytest.mark.parametrize("pair", any_pairs(), ids=ids(any_pairs()))
def test_swap_keeps_status_and_distance_in_any_configuration(pair):
    a, b = pair.a.build(), pair.b.build()
    ab, ba = core.collide(a, b), core.collide(b, a)
    assert ab.scale == ba.scale
    np.testing.assert_allclose(ba.distance, ab.distance, atol=2e-9 * ab.scale + 1e-15)
    if abs(ab.distance) > 3e-9 * ab.scale:  # away from the band edges both sides must agree
        assert ab.status is ba.status
