"""The leaves' boxes in coordinate-major columns (`bvh._leaf_columns`, what `LocalBVH` builds from) are bit for bit
`bvh._leaf_boxes`' row form transposed, and None exactly when a triangle has a zero first edge or a zero normal
(the row form's fallbacks then build the leaves), so every box, and with them the descent's pairs and every
answer, stays the same.  Meshes: an icosphere, a torus, a far-off torus, noisy stars, a sliver, and a torus with
degenerate triangles."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import bvh
from tests.core.duplicates import hull_triangles, icosphere
from tests.core.mesh_corpus import star, torus


def _meshes():
    rng = np.random.default_rng(20261128)
    sphere = icosphere(2)
    ring_v, ring_t = torus(n=17, m=9)
    sliver = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 1e-12, 0.0], [0.5, 0.0, 1e-9]])
    return {"icosphere": (sphere, hull_triangles(sphere)), "torus": (ring_v, ring_t),
            "far": (ring_v + 1e6, ring_t), "star": star(rng, 1.0, 0.3, n=20, rings=10)[:2],
            "sliver": (sliver, np.array([[0, 1, 2], [0, 1, 3], [1, 2, 3]])),
            "degenerate": (ring_v, np.concatenate([ring_t, [[0, 0, 1], [2, 2, 2], [3, 4, 3]]]))}


def _bits(x):
    return np.ascontiguousarray(x).view(np.uint8).tobytes()


@pytest.mark.parametrize("name", list(_meshes()))
def test_leaf_columns_equal_the_row_form(name):
    vertices, triangles = _meshes()[name]
    local = bvh.LocalBVH(vertices, triangles)
    corners = [np.take(vertices, local.leaf_triangles[:, i], axis=0) - local.origin for i in range(3)]
    columns = bvh._leaf_columns(*corners)
    edge = corners[1] - corners[0]
    normal = np.cross(edge, corners[2] - corners[0])
    degenerate = np.any(np.all(edge == 0.0, axis=1)) or np.any(np.all(normal == 0.0, axis=1))
    if degenerate:
        assert columns is None
        return
    centre, lengths, axes = bvh._leaf_boxes(*corners)
    assert _bits(columns[0]) == _bits(centre.T)
    assert _bits(columns[1]) == _bits(lengths.T)
    assert _bits(columns[2]) == _bits(axes.transpose(0, 2, 1))
