"""A mesh's hull shape (`core/mesh/query.py` `_hull_shape`) keeps only the vertices its triangles use and renumbers
the triangles onto them: every triangle of the renumbered triangulation has exactly the corner positions of the mesh
triangle it came from (the oracle is the positions, not the indices), for meshes whose unused vertices come before,
between and after the used ones, and for a mesh that uses all of its vertices."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.query import _hull_shape


def _torus_like(rng):
    """A closed, non-convex mesh (a triangulated torus) with its vertex rows in a random order."""
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 12, endpoint=False), np.linspace(0, 2 * np.pi, 8, endpoint=False),
                       indexing="ij")
    points = np.stack([(2 + np.cos(v)) * np.cos(u), (2 + np.cos(v)) * np.sin(u), np.sin(v)], axis=-1).reshape(-1, 3)
    index = np.arange(12 * 8).reshape(12, 8)
    a, b = index, np.roll(index, -1, axis=0)
    c, d = np.roll(index, -1, axis=1), np.roll(b, -1, axis=1)
    triangles = np.concatenate([np.stack([a, b, d], -1).reshape(-1, 3), np.stack([a, d, c], -1).reshape(-1, 3)])
    order = rng.permutation(points.shape[0])
    return points[order], np.argsort(order)[triangles]


@pytest.mark.parametrize("unused", ["none", "before", "between", "after"])
def test_hull_shape_triangles_have_the_mesh_triangles_corners(unused):
    rng = np.random.default_rng(21)
    points, triangles = _torus_like(rng)
    extra = rng.normal(size=(7, 3)) * 10.0  # far outside: a hull of them would differ
    if unused == "before":
        points, triangles = np.r_[extra, points], triangles + 7
    elif unused == "after":
        points = np.r_[points, extra]
    elif unused == "between":
        spread = np.sort(rng.choice(points.shape[0] + 7, 7, replace=False))
        keep = np.setdiff1d(np.arange(points.shape[0] + 7), spread)
        full = np.empty((points.shape[0] + 7, 3))
        full[keep], full[spread] = points, extra
        points, triangles = full, keep[triangles]
    mesh = core.TriangleMesh(points, triangles)
    shape = _hull_shape(mesh)
    hull_points, hull_triangles = shape._source.makers[0]()
    assert hull_points.shape[0] == points.shape[0] - (0 if unused == "none" else 7)
    assert np.array_equal(hull_points[hull_triangles], points[triangles])
    assert hull_triangles.dtype == np.intp
