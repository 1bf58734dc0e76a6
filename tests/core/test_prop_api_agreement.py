"""Property: the three entry points agree. `intersects(a, b)` is `collide(a, b).status != SEPARATED` and
`distance(a, b)` is `collide(a, b).distance`, for shapes and raw vertex arrays alike."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.strategies import any_pairs, ids


@pytest.mark.parametrize("pair", any_pairs(), ids=ids(any_pairs()))
def test_intersects_and_distance_agree_with_collide(pair):
    a, b = pair.a.build(), pair.b.build()
    c = core.collide(a, b)
    assert core.intersects(a, b) is (c.status is not core.Status.SEPARATED)
    np.testing.assert_allclose(core.distance(a, b), c.distance, atol=1e-12 * c.scale)


@pytest.mark.parametrize("pair", [p for p in any_pairs() if p.a.kind == "cloud" and p.a.transform is None
                                  and p.b.kind == "cloud" and p.b.transform is None][:30])
def test_raw_arrays_equal_point_clouds(pair):
    c_shapes = core.collide(core.PointCloud(pair.a.vertices), core.PointCloud(pair.b.vertices))
    c_arrays = core.collide(pair.a.vertices, pair.b.vertices)
    c_lists = core.collide(pair.a.vertices.tolist(), pair.b.vertices.tolist())
    for c in (c_arrays, c_lists):
        assert c.status is c_shapes.status
        np.testing.assert_allclose(c.distance, c_shapes.distance, atol=1e-12 * c.scale)
        assert core.intersects(pair.a.vertices, pair.b.vertices) is (c.status is not core.Status.SEPARATED)
