"""The support queries of a large point cloud read its rows one at a time (`shapes._Rows`) and answer the same
floats as the numpy path: `support_max` / `support_min` and `minkowski_support` against `core_support`, bit for
bit, on both sides of `shapes._LISTED_ROWS`, under a transform and a frame shift."""
from __future__ import annotations

import numpy as np
import pytest

import core
import core.shapes
from core.minkowski import minkowski_support


@pytest.mark.parametrize("count", [core.shapes._LISTED_ROWS, core.shapes._LISTED_ROWS + 1, 20_000])
def test_rows_read_one_at_a_time_give_the_same_supports(count):
    rng = np.random.default_rng([5150, count])
    pose = np.eye(4)
    pose[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0] * 1.7
    pose[:3, 3] = [1e3, -2.5, 7.0]
    a = core.PointCloud(rng.normal(size=(count, 3)), transform=pose).shifted((999.0, -3.0, 6.0))
    b = core.PointCloud(rng.normal(size=(count, 3)) * 0.3)
    listed = count <= core.shapes._LISTED_ROWS
    for d in rng.normal(size=(64, 3)):
        top = a.support_max(d)
        assert top == tuple(a.core_support(d).tolist())
        assert a.support_min(d) == tuple(a.core_support(-d).tolist())
        w = minkowski_support(a, b, d)
        assert w.a == top and w.b == tuple(b.core_support(-d).tolist())
    assert isinstance(a._pose_cache["rows"], list) is listed
