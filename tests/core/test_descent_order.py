"""`descent.descent_order`: a key of leaf pairs that sorts them in the order the simultaneous descent lists them.

The closest route of core/mesh/coherence.py finds the leaf pairs within the band in an order of its own and puts
them in the fresh descent's order with this key before the crossing test, so that the crossing curve comes out
segment for segment as the fresh query's.  Pinned here: on seeded mesh pairs of unequal depths, at random poses,
the leaf pairs of the full descent, of the band-only descent and of the crossing route's reach descent are listed
in strictly increasing key order, and any shuffle of them sorted by the key is that list again."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import coherence
from core.mesh.descent import PRUNE, descend, descent_order
from core.mesh.pair_frame import Frame
from tests.core import mesh_corpus as mc


def _pairs(seed):
    rng = np.random.default_rng([27, seed])
    va, ta = mc.torus(1.0, 0.3, 24 + 8 * seed, 12)
    vb, tb, _, _ = mc.star(rng, 0.6, 0.2, 16, 8)  # far fewer triangles: the descent splits A alone at first
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    for _ in range(8):
        pose = mc.affine(mc.random_rotation(rng), rng.uniform(-1.2, 1.2, 3))
        yield rng, Frame(a, b.moved(pose), core.Tolerances())


@pytest.mark.parametrize("seed", range(3))
def test_descents_list_their_leaf_pairs_in_key_order(seed):
    listed = 0
    for rng, frame in _pairs(seed):
        wa, wb = frame.sa.world, frame.sb.world
        assert wa.local.levels != wb.local.levels
        lists = [descend(wa, wb, frame.band, PRUNE * frame.scale, None, near_only=near) for near in (False, True)]
        reach = coherence._reach_descent(frame, frame.band + 0.05 * frame.scale)
        for ia, ib in [(f.ia, f.ib) for f in lists] + [(reach.ia, reach.ib)]:
            key = descent_order(wa.local, wb.local, ia, ib)
            assert np.all(np.diff(key) > 0)
            shuffled = rng.permutation(ia.size)
            back = shuffled[np.argsort(descent_order(wa.local, wb.local, ia[shuffled], ib[shuffled]), kind="stable")]
            assert np.array_equal(ia[back], ia) and np.array_equal(ib[back], ib)
            listed += ia.size
    assert listed > 1000  # the poses cross and come near: long lists, not empty ones


def test_a_key_with_the_sides_swapped_is_another_order():
    # the key is not vacuous: with A's and B's bits trading significance the same lists are out of order
    for _, frame in _pairs(0):
        wa, wb = frame.sa.world, frame.sb.world
        found = descend(wa, wb, frame.band, PRUNE * frame.scale, None, near_only=True)
        if found.ia.size > 50:
            swapped = descent_order(wb.local, wa.local, found.ib, found.ia)
            assert not np.all(np.diff(swapped) > 0)
            return
    raise AssertionError("no pose with enough pairs within the band")
