"""`bvh.pair_lower_bound` (stacked arrays up to `STACKED_PAIRS` pairs, columns above) gives bit for bit the numbers
of its row form (tests/core/bound_rows.py, from core/mesh/bvh.py's docstring: the box distance, then the gaps along
the line between the centres and along each box's normal, each a dot product summed x, y, z with the same operands
in the same order) on awkward node data: inf and NaN of either sign, signed zeros, coincident centres (no line
between them), huge and subnormal numbers, and normals that are not ones (`normal_ok` False). On such numbers a
swapped operand or a changed order of sums shows (which NaN a product keeps, -0 against +0), so the descent keeps
the same pairs whatever the numbers."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import bvh
from tests.core.bound_rows import rows_pair


_ODD = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-310, -1e-310, 1e300, -1e300, 1.0, -1.0, 3.0])


def _world(rng, n, all_normals):
    """A WorldBVH of n nodes with oriented boxes drawn from small integers and the odd numbers above."""
    def rows():
        x = rng.integers(-2, 3, size=(n, 3)).astype(float)
        odd = rng.random((n, 3)) < 0.25
        x[odd] = rng.choice(_ODD, size=int(odd.sum()))
        return x
    world = object.__new__(bvh.WorldBVH)
    world.centre, world.half, world.normal = rows(), [rows(), rows(), rows()], rows()
    world.normal_ok = np.ones(n, bool) if all_normals else rng.random(n) < 0.7
    world._columns = None
    return world


@pytest.mark.parametrize("all_normals", [True, False])
@pytest.mark.parametrize("pairs", [1, 3, 64, bvh.STACKED_PAIRS, bvh.STACKED_PAIRS + 7])
def test_pair_bound_equals_rows_on_odd_numbers(all_normals, pairs):
    rng = np.random.default_rng(pairs * 2 + all_normals)
    wa, wb = _world(rng, 40, all_normals), _world(rng, 30, all_normals)
    na, nb = rng.integers(0, 40, size=pairs), rng.integers(0, 30, size=pairs)
    na[: pairs // 4] = nb[: pairs // 4]  # the same node data on both sides (no line between the centres)
    wb.centre[nb[: pairs // 4]] = wa.centre[na[: pairs // 4]]
    wb._columns = None
    bound = rng.choice(np.array([0.0, -0.0, 0.5, np.nan, np.inf]), size=pairs)
    got = bvh.pair_lower_bound(wa, na, wb, nb, bound)
    want = rows_pair(wa, na, wb, nb, bound)
    assert got.tobytes() == want.tobytes()
    if pairs >= 64:  # the data reach every branch: NaN bounds, and gaps that decide
        assert np.isnan(got).any() and (got > 0.0).any()
