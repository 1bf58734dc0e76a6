"""core.overlap on thin overlaps: a box pushed into another by a thickness from 1e-2 down to below the coplanar
band (1e-12 x scale, where it reads as faces pressed together: 0.0), straight (analytic truth) and tilted by a
small angle (manifold3d's volume), far from the origin and near it."""
import zlib

import numpy as np
import pytest

import core
from core.mesh import TriangleMesh
from tests.core import overlap_corpus as oc
from tests.core.meshes import box


@pytest.mark.parametrize("thickness", [1e-2, 1e-5, 1e-8, 1e-10, 1e-11, 1e-13, 0.0, -1e-13, -1e-9])
@pytest.mark.parametrize("offset", [0.0, 1e5])
def test_thin_straight_overlap(thickness, offset):
    rng = np.random.default_rng(zlib.crc32(repr((thickness, offset)).encode()))
    w = oc.pose(oc.rotation(rng), offset * rng.normal(size=3))
    a = TriangleMesh(*box((0, 0, 0), (1, 1, 1)), w)
    b = TriangleMesh(*box((1 - thickness, 0.25, -0.5), (2, 0.75, 0.5)), w)
    truth = max(thickness, 0.0) * 0.5 * 0.5
    size = np.sqrt(3.0)
    for first, second in ((a, b), (b, a)):
        result = core.overlap(first, second)
        assert abs(result.volume - truth) <= 1e-9 * truth + 1e-12 * size ** 3
        if thickness <= 1e-13:
            assert result.volume == 0.0 and result.region.shape == (0, 3, 3)
        else:
            assert result.volume > 0.0


@pytest.mark.parametrize("angle", [1e-2, 1e-4, 1e-6])
@pytest.mark.parametrize("depth", [1e-3, 1e-6])
@pytest.mark.parametrize("offset", [0.0, 1e5])
def test_thin_tilted_overlap(angle, depth, offset):
    rng = np.random.default_rng(zlib.crc32(repr((angle, depth, offset)).encode()))
    w = oc.pose(oc.rotation(rng), offset * rng.normal(size=3))
    c, s = np.cos(angle), np.sin(angle)
    tilt = np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]])
    a = TriangleMesh(*box((0, 0, 0), (1, 1, 1)), w)
    b = TriangleMesh(*box((0, 0.2, 0.1), (1, 0.8, 0.7)), w @ oc.pose(tilt, (1 - depth, 0, 0)))
    truth = oc.manifold_volume(a, b)
    size = np.sqrt(3.0)
    assert truth > 0.0
    for first, second in ((a, b), (b, a)):
        result = core.overlap(first, second)
        assert abs(result.volume - truth) <= 1e-9 * truth + 1e-12 * size ** 3, (result.volume, truth)
