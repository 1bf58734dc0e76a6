"""core.overlap on boxes and prisms: the volume against the analytic one (products of interval overlaps in the
boxes' common frame), under a common rotation, far from the origin, tiny and huge.  Covers overlapping,
containment both ways, identical copies, faces pressed together (exactly 0.0, empty region), touching edges,
and partly coplanar overlaps (shared faces, flush tops, boxes sunk into a face)."""
import zlib

import numpy as np
import pytest

from core.mesh import TriangleMesh
from tests.core.meshes import box
from tests.core.overlap_corpus import assert_volume, rotation

# (A lo, A hi, B lo, B hi): local boxes; the truth is the product of the interval overlaps
CASES = {
    "corner overlap": ((0, 0, 0), (2, 2, 2), (1, 1, 1), (3, 3, 3)),
    "identical": ((0, 0, 0), (2, 2, 2), (0, 0, 0), (2, 2, 2)),
    "face to face": ((0, 0, 0), (2, 2, 2), (2, 0, 0), (3, 2, 2)),
    "face to face, offset": ((0, 0, 0), (2, 2, 2), (2, 0.5, -0.5), (3, 1.5, 1.5)),
    "edge to edge": ((0, 0, 0), (2, 2, 2), (2, 2, 0), (3, 3, 2)),
    "apart": ((0, 0, 0), (2, 2, 2), (2.5, 0, 0), (3, 2, 2)),
    "half, two faces shared": ((0, 0, 0), (2, 2, 2), (1, 0, 0), (3, 2, 2)),
    "quarter, shared faces": ((0, 0, 0), (2, 2, 2), (1, 1, 0), (3, 3, 2)),
    "sunk, top flush": ((0, 0, 0), (2, 2, 2), (0.5, 0.5, 1), (1.5, 1.5, 2)),
    "inside": ((0, 0, 0), (2, 2, 2), (0.5, 0.5, 0.5), (1.5, 1.5, 1.5)),
    "inside, on the floor": ((0, 0, 0), (2, 2, 2), (0.5, 0.5, 0), (1.5, 1.5, 0.7)),
    "inside, in a corner": ((0, 0, 0), (2, 2, 2), (0, 0, 0), (1, 1, 1)),
    "rod through": ((0, 0, 0), (2, 2, 2), (-1, 0.5, 0.5), (3, 1.5, 1.5)),
    "slab through, flush sides": ((0, 0, 0), (2, 2, 2), (-1, 0, 0.5), (3, 2, 1.5)),
    "thin sliver": ((0, 0, 0), (2, 2, 2), (1.999, 0.3, 0.3), (3, 1.7, 1.7)),
    "plus sign": ((0, -1, 0.25), (2, 3, 0.75), (-1, 0, 0.25), (3, 2, 0.75)),
}

PLACEMENTS = [(1.0, 0.0), (1.0, 1e4), (1.0, 1e6), (1e-3, 0.0), (1e-3, 1e4), (1e3, 0.0), (1e3, 1e6)]


def _truth(lo_a, hi_a, lo_b, hi_b):
    lo, hi = np.maximum(lo_a, lo_b), np.minimum(hi_a, hi_b)
    return float(np.prod(np.maximum(hi - lo, 0.0)))


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("scale,offset", PLACEMENTS)
@pytest.mark.parametrize("turned", [False, True])
def test_box_overlap_volume_is_analytic(name, scale, offset, turned):
    lo_a, hi_a, lo_b, hi_b = (np.asarray(x, float) for x in CASES[name])
    rng = np.random.default_rng(zlib.crc32(repr((name, scale, offset, turned)).encode()))
    w = np.eye(4)
    w[:3, :3] = scale * (rotation(rng) if turned else np.eye(3))
    w[:3, 3] = offset * rng.normal(size=3)
    a, b = TriangleMesh(*box(lo_a, hi_a), w), TriangleMesh(*box(lo_b, hi_b), w)
    truth = scale ** 3 * _truth(lo_a, hi_a, lo_b, hi_b)
    for result in assert_volume(a, b, truth):
        assert (result.volume == 0.0) == (truth == 0.0)
