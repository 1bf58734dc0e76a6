"""core.copies.paired_order: which vertex of a copy is which vertex of the original, whatever order the copy
lists them in.  Checked against the permutation the test made itself (the copy is built by shuffling), and
refused (None) on what is not a copy within the tolerance."""
from __future__ import annotations

import numpy as np
import pytest

from core.copies import paired_order
from tests.core.duplicates import cylinder, icosphere, near_copy

TOL = 1e-2 * 2.0 * np.sqrt(2.0)  # 1e-2 x the cylinder's bounding-box diagonal

COPIES = {"identical": {}, "scaled 1.001": {"scale": 1.001}, "turned 1e-4": {"angle": 1e-4},
          "shifted 1e-6": {"shift": 1e-6}}


@pytest.mark.parametrize("relation", COPIES)
@pytest.mark.parametrize("sides", [256, 1024])
def test_a_shuffled_copy_is_paired_as_shuffled(sides, relation):
    a = cylinder(sides)
    rng = np.random.default_rng([11, sides, len(relation)])
    copy = near_copy(a, rng, **COPIES[relation]) if COPIES[relation] else a.copy()
    shuffle = rng.permutation(len(a))
    b = copy[shuffle]  # b[k] is copy[shuffle[k]]: the copy of a[i] is b[inverse[i]]
    inverse = np.argsort(shuffle)
    order = paired_order(a, b, TOL)
    assert order is not None
    np.testing.assert_array_equal(order, inverse)
    assert np.abs(b[order] - a).max() <= np.abs(copy - a).max()


def test_the_same_order_is_the_identity():
    a = icosphere(3)
    np.testing.assert_array_equal(paired_order(a, near_copy(a, np.random.default_rng(3), scale=1.001), 1e-2),
                                  np.arange(len(a)))


def test_repeated_points_pair_one_to_one():
    a = np.repeat(cylinder(64), 3, axis=0)  # every point three times (an unwelded mesh)
    shuffle = np.random.default_rng(5).permutation(len(a))
    order = paired_order(a, a[shuffle], 1e-12)
    assert order is not None
    assert np.unique(order).size == len(a)
    np.testing.assert_array_equal(a[shuffle][order], a)


def test_what_is_not_a_copy_is_refused():
    a = cylinder(256)
    turned_half_a_side = cylinder(256) @ np.array([[np.cos(np.pi / 256), -np.sin(np.pi / 256), 0.0],
                                                   [np.sin(np.pi / 256), np.cos(np.pi / 256), 0.0], [0, 0, 1.0]]).T
    assert paired_order(a, turned_half_a_side, 1e-3) is None  # every vertex 1.2e-2 from the nearest
    assert paired_order(a, a + np.array([0.1, 0.0, 0.0]), TOL) is None  # moved beyond the tolerance
    assert paired_order(a, a[:-1], TOL) is None  # not the same count
    assert paired_order(a, np.random.default_rng(1).normal(size=a.shape), TOL) is None
    assert paired_order(a, a, float("nan")) is None
