"""`inside.in_leaf_order` sorts pair indices by (X's leaf, Y's leaf), ties in their given order: the same order as
numpy's lexsort on the two leaf columns (its reference here), whichever mesh is X, with repeated leaves, and with
leaf numbers too large for its one-key sort (then it falls back to lexsort).  The probes sampled from that order
must not depend on the argument order (collide(b, a) is collide(a, b).swapped()).

Issue 7: the one-key sort replaced lexsort for speed.
"""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh.inside import in_leaf_order


class _Found:
    pass


@pytest.mark.parametrize("high", [5, 40_000, 2 ** 40])
@pytest.mark.parametrize("swap", [False, True])
def test_same_order_as_lexsort(high, swap):
    rng = np.random.default_rng(high % 97)
    found = _Found()
    found.ia = rng.integers(0, high, size=5000)
    found.ib = rng.integers(0, high, size=5000)
    pairs = rng.permutation(5000)[:3000]
    x, y = (found.ib, found.ia) if swap else (found.ia, found.ib)
    expected = pairs[np.lexsort((y[pairs], x[pairs]))]
    assert np.array_equal(in_leaf_order(found, pairs, swap), expected)


def test_no_pairs():
    found = _Found()
    found.ia = found.ib = np.zeros(3, np.int64)
    assert in_leaf_order(found, np.zeros(0, np.int64), False).size == 0
