"""The hierarchy's levels above the leaves (`bvh._upper_levels`, coordinate-major arrays) are bit for bit the row
form written out here from core/mesh/bvh.py's docstring (a parent takes its left child's frame; along each of its
axes it covers the left box and the right box's projected extent; an odd last node pairs with itself), so every
box, and with them the descent's pairs and every answer, stays the same.  Meshes: an odd and an even triangle count,
degenerate triangles, a far-off mesh, a 1-triangle mesh."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import bvh
from tests.core.duplicates import hull_triangles, icosphere
from tests.core.mesh_corpus import torus


def _rows_dot(u, v):
    return u[..., 0] * v[..., 0] + u[..., 1] * v[..., 1] + u[..., 2] * v[..., 2]


def _row_levels(centre, lengths, axes, count):
    """The same levels in (n, 3) rows, one level after the other."""
    centres, length_levels, axes_levels = [centre], [lengths.T], [axes]
    for _ in range(1, count):
        c, ln, ax = centres[-1], length_levels[-1], axes_levels[-1]
        if c.shape[0] % 2:
            c, ln = np.concatenate([c, c[-1:]]), np.concatenate([ln, ln[:, -1:]], 1)
            ax = np.concatenate([ax, ax[:, -1:]], 1)
        cl, cr, ll, lr, left, right = c[0::2], c[1::2], ln[:, 0::2], ln[:, 1::2], ax[:, 0::2], ax[:, 1::2]
        pl, pr = _rows_dot(cl, left), _rows_dot(cr, left)
        dots = np.abs(_rows_dot(left[:, None], right))
        sr = dots[:, 0] * lr[0] + dots[:, 1] * lr[1] + dots[:, 2] * lr[2]
        lo, hi = np.minimum(pl - ll, pr - sr), np.maximum(pl + ll, pr + sr)
        mid = 0.5 * (lo + hi)
        new = np.zeros_like(cl)
        for i in range(3):
            new += mid[i][:, None] * left[i]
        centres.append(new)
        length_levels.append(0.5 * (hi - lo))
        axes_levels.append(left)
    return centres, length_levels, axes_levels


def _meshes():
    sphere = icosphere(2)
    ring_v, ring_t = torus(n=17, m=9)  # 306 triangles
    degenerate_t = np.concatenate([ring_t, [[0, 0, 1], [2, 2, 2], [3, 4, 3]]])  # zero-length edges and points
    return {"icosphere": (sphere, hull_triangles(sphere)), "torus": (ring_v, ring_t),
            "degenerate": (ring_v, degenerate_t), "far": (ring_v + 1e6, ring_t),
            "one triangle": (ring_v, ring_t[:1]), "three triangles": (ring_v, ring_t[:3])}


@pytest.mark.parametrize("name", list(_meshes()))
def test_levels_equal_the_row_form(name):
    vertices, triangles = _meshes()[name]
    local = bvh.LocalBVH(vertices, triangles)
    corners = [np.take(vertices, local.leaf_triangles[:, i], axis=0) - local.origin for i in range(3)]
    centre, lengths, axes = bvh._leaf_boxes(*corners)
    got = bvh._upper_levels(centre, lengths, axes, local.levels)
    want = _row_levels(centre, lengths, axes, local.levels)
    for level in range(local.levels):
        assert got[0][level].T.tobytes() == np.ascontiguousarray(want[0][level]).tobytes()
        assert got[1][level].tobytes() == np.ascontiguousarray(want[1][level]).tobytes()
        assert got[2][level].transpose(0, 2, 1).tobytes() == np.ascontiguousarray(want[2][level]).tobytes()
    # and the hierarchy's flat arrays are these levels' (centre, half-axis vectors, normal)
    flat_centre = np.concatenate(want[0])
    flat_axes = np.concatenate(want[2], axis=1)
    flat_lengths = np.concatenate(want[1], axis=1)
    assert local.centre.tobytes() == np.ascontiguousarray(flat_centre).tobytes()
    assert local.normal.tobytes() == np.ascontiguousarray(flat_axes[2]).tobytes()
    for i in range(3):
        assert local.half[i].tobytes() == np.ascontiguousarray(flat_lengths[i][:, None] * flat_axes[i]).tobytes()
