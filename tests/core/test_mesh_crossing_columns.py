"""The crossing test on gathered columns (`tritri.crossing_indexed`) gives the same mask and, bit for bit, the
same segments as `tritri.crossing` on the pairs' (k, 3, 3) corners, on the pairs that matter most: a mesh against
its copy in place (shared edges and corners, coplanar coincident triangles, pairs within the touching band),
random pairs near each other, degenerate triangles and pairs that only touch.

Issue 7 (Exact mode on a duplicate in place): `meeting.meet` runs the crossing test this way for speed; the reference is
the row form, whose own correctness tests/core/test_mesh_tritri.py checks against exact geometry.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.descent import PRUNE, descend
from core.mesh.pair_frame import Frame
from core.mesh.tritri import Planes, crossing, crossing_indexed
from tests.core.duplicates import blender_uv_sphere, hull_triangles, icosphere, near_copy, placement


def _agree(TA, TB, ia, ib, on):
    mask, segments = crossing(TA[ia], TB[ib], on)
    mask2, segments2 = crossing_indexed(Planes(TA), Planes(TB), ia, ib, on)
    assert np.array_equal(mask, mask2)
    assert segments.shape == segments2.shape
    # bit for bit: the same arithmetic on every number
    assert np.array_equal(segments.view(np.uint64), segments2.view(np.uint64))
    return mask


def _band_pairs(a, b):
    frame = Frame(a, b, core.Tolerances())
    found = descend(frame.sa.world, frame.sb.world, frame.band, PRUNE * frame.scale, None,
                                near_only=True)
    return frame, found


COPIES = {"identical": {}, "rotated 1e-4": {"angle": 1e-4}, "shifted 1e-6": {"shift": 1e-6},
          "scaled 1.001": {"scale": 1.001}, "rotated 1e-2": {"angle": 1e-2}}


@pytest.mark.parametrize("copy", list(COPIES))
def test_a_float32_uv_sphere_and_its_copy(copy):
    v, t = blender_uv_sphere(32, 16)
    v = v.astype(np.float64)
    pose = placement(v, np.random.default_rng(7), **COPIES[copy])
    frame, found = _band_pairs(core.TriangleMesh(v, t), core.TriangleMesh(v, t, pose))
    assert found.ia.size > 0
    mask = _agree(frame.sa.world.leaf_corners, frame.sb.world.leaf_corners, found.ia, found.ib, frame.band)
    if copy == "rotated 1e-2":
        assert mask.any()  # some pairs really cross: the segments are compared too


@pytest.mark.parametrize("copy", list(COPIES))
def test_an_ico_sphere_and_its_copy(copy):
    p = icosphere(3)
    t = hull_triangles(p)
    q = near_copy(p, np.random.default_rng(3), **COPIES[copy]) if COPIES[copy] else p.copy()
    frame, found = _band_pairs(core.TriangleMesh(p, t), core.TriangleMesh(q, t))
    _agree(frame.sa.world.leaf_corners, frame.sb.world.leaf_corners, found.ia, found.ib, frame.band)


@pytest.mark.parametrize("seed", range(4))
def test_random_pairs_near_each_other(seed):
    rng = np.random.default_rng(seed)
    k = 4000
    TA = rng.normal(size=(k, 3, 3))
    TB = TA[rng.permutation(k)] + rng.normal(scale=0.3, size=(k, 3, 3))
    # some exact copies, some sharing an edge, some flattened or collapsed, some coplanar with their partner
    TB[:500] = TA[:500][:, [1, 2, 0]]
    TB[500:1000, :2] = TA[500:1000, :2]
    TA[1000:1100, 2] = TA[1000:1100, 0] + 1e-9 * (TA[1000:1100, 1] - TA[1000:1100, 0])
    TA[1100:1150] = TA[1100:1150, :1]
    TB[1200:1400] = TA[1200:1400] + 0.2 * (TA[1200:1400, 1:2] - TA[1200:1400, :1])
    ia = rng.integers(0, k, size=3 * k)
    ib = rng.integers(0, k, size=3 * k)
    ia[:1400], ib[:1400] = np.arange(1400), np.arange(1400)
    for on in (0.0, 1e-12, 1e-3):
        mask = _agree(TA, TB, ia, ib, on)
        assert mask.any() and not mask.all()


def test_no_pairs():
    T = np.zeros((1, 3, 3))
    mask, segments = crossing_indexed(Planes(T), Planes(T), np.zeros(0, np.int64), np.zeros(0, np.int64), 1e-9)
    assert mask.shape == (0,) and segments.shape == (0, 2, 3)
