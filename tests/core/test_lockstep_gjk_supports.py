"""The lock-step GJK's support vertices (core/lockstep.py `_both`) are those of the stacked matrix product.

`_both` takes each row's products with `column_products` (its own summation order) and hands only the rows whose
winner leads by less than `TIE`'s bound to `np.matmul` over the row's (width, 3) vertex block, the product the
lock-step GJK took for every row before (so its steps, hence the tetrahedra EPA starts from, keep their bits).
Checked against that matrix product row by row (first index of the largest value, of the smallest for B), on
tie-rich clouds (rotated cubes, planks with points on their faces, repeated vertices) along their face normals,
edge and corner directions and random ones.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.lockstep import Gathered, _both
from tests.core.test_lockstep_supports import _clouds, _directions


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lockstep_gjk_supports_are_the_matrix_products(seed):
    rng = np.random.default_rng(seed)
    shapes = _clouds(rng)
    batch = core.ShapeBatch(shapes)
    bucket, local, blocks, _, _ = batch._lockstep_data()
    first, second, along = [], [], []
    for k, shape in enumerate(shapes):
        d = _directions(rng, shape)
        first += [k] * len(d)
        second += rng.integers(0, len(shapes), len(d)).tolist()
        along.append(d)
    first, second, along = np.array(first), np.array(second), np.concatenate(along)
    gathered = Gathered(blocks, np.concatenate([bucket[first], bucket[second]]),
                        np.concatenate([local[first], local[second]]))
    rows = np.arange(len(first))
    a, b = _both(gathered, rows, along)
    ties = 0
    for k in rows.tolist():
        for shape, got, sign in ((first[k], a[k], 1.0), (second[k], b[k], -1.0)):
            block = blocks[bucket[shape]][local[shape]]
            values = np.matmul(block[None], (sign * along[k])[None, :, None])[0, :, 0]
            assert tuple(got.tolist()) == tuple(block[values.argmax()].tolist()), (seed, k, shape)
            ties += np.count_nonzero(values == values.max()) > 1
    assert ties > 0  # the directions do meet ties
