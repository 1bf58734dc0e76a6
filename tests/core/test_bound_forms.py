"""The two forms of the node-pair bounds of core/mesh/bvh.py give the same bits: `box_lower_bound` and
`pair_lower_bound` gather each side's node data in one call and stack their directions on short inputs (up to
`BOUND_ROWS` pairs), and work column by column on long ones.  Seeded mesh pairs at random poses (a turned, skewed
and a flat mesh among them, where the normal axes are missing or degenerate), every level's node pairs."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import bvh
from core.mesh.pair_frame import Frame
from tests.core import mesh_corpus as mc


def bits(x):
    return np.ascontiguousarray(x, np.float64).view(np.uint64)


def _frames(seed):
    rng = np.random.default_rng([28, seed])
    va, ta = mc.torus(1.0, 0.3, 20, 10)
    vb, tb, _, _ = mc.star(rng, 0.6, 0.2, 12, 6)
    grid = core.TriangleMesh(*mc.grid(1.5, 6, 0.0))  # flat: every box's normal axis is one direction
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    skew = np.array([[1.0, 0.3, 0.0], [0.0, 0.8, 0.2], [0.1, 0.0, 1.2]])
    for other, linear in ((b, mc.random_rotation(rng)), (b, skew), (grid, mc.random_rotation(rng))):
        yield rng, Frame(a, other.moved(mc.affine(linear, rng.uniform(-1.0, 1.0, 3))), core.Tolerances())


@pytest.mark.parametrize("seed", range(3))
def test_stacked_and_column_bounds_agree(seed, monkeypatch):
    for rng, frame in _frames(seed):
        wa, wb = frame.sa.world, frame.sb.world
        na = rng.integers(0, wa.local.offsets[-1], 3000)
        nb = rng.integers(0, wb.local.offsets[-1], 3000)
        nb[:200] = na[:200] % wb.local.offsets[-1]  # some pairs of equal index (coinciding boxes for a copy)
        monkeypatch.setattr(bvh, "BOUND_ROWS", 10 ** 9)
        box, pair = bvh.box_lower_bound(wa, na, wb, nb), bvh.pair_lower_bound(wa, na, wb, nb)
        monkeypatch.setattr(bvh, "BOUND_ROWS", 0)
        assert np.array_equal(bits(bvh.box_lower_bound(wa, na, wb, nb)), bits(box))
        assert np.array_equal(bits(bvh.pair_lower_bound(wa, na, wb, nb)), bits(pair))
        assert np.any(pair > box)  # the oriented bounds matter on these pairs (the comparison is not of boxes alone)
