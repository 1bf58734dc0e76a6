"""Scaling a pair (tiny, huge) and moving it far from the origin changes no verdict, no containment, and scales
the distance exactly as it should (within 1e-9 of the pair's scale); a depth interval that is not exact scales
into one that overlaps it (both are certified, the search behind them is not bit-reproducible)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.meshes import ball, box, crate, cup, l_shape, mesh, square, translate

CASES = {
    "ball free in cup": (ball(), translate(cup(), [0, 0, -0.9])),
    "ball on cup floor": (ball(), translate(cup(), [0, 0, -0.7])),
    "ball in cup wall": (translate(ball(), [0.75, 0, 0.9]), cup()),
    "ball in cup floor": (translate(ball(0.05, 12, 6), [0, 0, 0.1]), cup()),
    "box in crate wall": (box(), crate()),
    "box in crate cavity": (box([1.25] * 3, [1.75] * 3), crate()),
    "crossing L shapes": (l_shape(), translate(l_shape(), [0.5, 0.5, 0])),
    "square through box": (square(0.5), box()),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("factor, offset", [(1e-6, 0.0), (1e6, 0.0), (1.0, 1e6), (1e-3, 1e3)])
def test_scaled_and_moved_pairs_answer_alike(name, factor, offset):
    a, b = CASES[name]
    pose = np.diag([factor, factor, factor, 1.0])
    pose[:3, 3] = offset
    reference = core.collide(mesh(a), mesh(b))
    placed = core.collide(mesh(a, pose), mesh(b, pose))
    assert placed.status is reference.status
    assert placed.containment is reference.containment
    tolerance = 1e-9 * reference.scale
    if reference.status is core.Status.INTERSECTING and (reference.gap > 0.0 or placed.gap > 0.0):
        # a certified interval found by a search (core/mesh/depth_interval.py): both hold the same depth, so
        # each one's lower end stays below the other's upper end
        low, high = reference.depth, reference.depth + reference.gap
        placed_low, placed_high = placed.depth / factor, (placed.depth + placed.gap) / factor
        assert placed_low <= high + tolerance and low <= placed_high + tolerance
    else:
        assert abs(placed.distance / factor - reference.distance) <= tolerance
