"""The history's descent-order keys (core/mesh/coherence.py `_order_keys`: one table per side, KA[ia] | KB[ib])
are `descent.descent_order`'s key of every leaf pair, bit for bit, for hierarchies of any depth on either side
(the crossing route sorts its leaf pairs by them into the fresh descent's order)."""
import numpy as np
import pytest

from core.mesh import coherence
from core.mesh.descent import descent_order
from core.mesh.trimesh import TriangleMesh


def _strip(count, rng):
    """A strip of `count` triangles (levels of odd sizes for most counts)."""
    x = np.arange(count + 2, dtype=float)
    v = np.stack([x, (np.arange(count + 2) % 2).astype(float), rng.random(count + 2)], axis=1)
    t = np.stack([np.arange(count), np.arange(count) + 1, np.arange(count) + 2], axis=1)
    return TriangleMesh(v, t)


@pytest.mark.parametrize("counts", [(301, 45), (1001, 13), (129, 129), (2049, 3), (5, 900), (8000, 1), (1, 1)])
def test_history_order_keys(counts):
    rng = np.random.default_rng(list(counts))
    la, lb = (_strip(c, rng)._local.bvh for c in counts)
    ka, kb = coherence._order_keys(la, lb)
    ia = rng.integers(0, counts[0], 5000)
    ib = rng.integers(0, counts[1], 5000)
    want = descent_order(la, lb, ia, ib)
    assert np.array_equal(ka[ia] | kb[ib], want)
