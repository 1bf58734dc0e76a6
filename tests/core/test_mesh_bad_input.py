"""TriangleMesh validation: bad input is a ValueError naming the problem; odd-but-legal input answers finitely."""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.meshes import box, mesh, square, translate

V, T = box()


@pytest.mark.parametrize("vertices, triangles, words", [
    (V, [[0, 1, 8]], "out of range"),
    (V, [[0, -1, 2]], "negative"),
    (np.where(np.arange(24).reshape(8, 3) == 5, math.nan, V), T, "nan"),
    (np.where(np.arange(24).reshape(8, 3) == 5, math.inf, V), T, "infinite"),
    (V[:, :2], T, "shape"),
    (V, T[:, :2], "shape"),
    (V, np.zeros((0, 3), int), "no"),  # no triangles
    (V, [[0.0, 1.5, 2.0]], "integer"),
    (V, np.array([["a", "b", "c"]]), "integer"),
    (np.zeros((0, 3)), np.zeros((0, 3), int), "empty"),
    ("cube", T, "number"),
])
def test_bad_mesh_input(vertices, triangles, words):
    with pytest.raises(ValueError) as info:
        core.TriangleMesh(vertices, triangles)
    assert words in str(info.value).lower(), str(info.value)


def test_bad_transform():
    with pytest.raises(ValueError, match="affine"):
        core.TriangleMesh(V, T, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]])
    with pytest.raises(ValueError, match="4, 4"):
        core.TriangleMesh(V, T).moved(np.eye(3))


def test_integral_float_indices_are_accepted():
    assert core.TriangleMesh(V, T.astype(float)).triangles.dtype == np.int64


def test_mesh_against_convex_shape_is_a_clear_error():
    with pytest.raises(ValueError, match="TriangleMesh"):
        core.collide(mesh(box()), core.Sphere(1.0))
    with pytest.raises(ValueError, match="TriangleMesh"):
        core.collide(V, mesh(box()))


def test_bad_tolerances_and_max_distance():
    with pytest.raises(ValueError, match="Tolerances"):
        core.collide(mesh(box()), mesh(box()), tolerances=1e-9)
    with pytest.raises(ValueError, match="max_distance"):
        core.collide(mesh(box()), mesh(square(3.0)), max_distance="far")
    with pytest.raises(ValueError, match="max_distance"):
        core.collide(mesh(box()), mesh(square(3.0)), max_distance=-1.0)


def _finite(contact):
    for value in (contact.distance, *contact.normal, *contact.point_a, *contact.point_b, contact.gap):
        assert math.isfinite(value)


def test_degenerate_duplicate_and_unreferenced_vertices_are_legal():
    v, t = box()
    extra = np.concatenate([v, v[:1], [[9.0, 9.0, 9.0]], [[0.5, 0.0, 0.0]]])  # duplicate, unreferenced, midpoint
    # a triangle whose corners 8 and 8 weld onto vertex 0: a segment, ignored by closedness
    m = core.TriangleMesh(extra, np.concatenate([t, [[8, 8, 1]]]))
    assert m.is_closed, "a triangle with a repeated (welded) corner does not open the mesh"
    lo, hi = m.bounds()
    assert hi.tolist() == [1.0, 1.0, 1.0], "the unreferenced vertex is not part of the surface"
    # a zero-area sliver with three distinct corners along the bottom edge (0 -> midpoint -> 4) is an ordinary
    # triangle for topology (its edges are unmatched: the mesh is open) and a segment for geometry
    sliver = core.TriangleMesh(extra, np.concatenate([t, [[0, 10, 4]]]))
    assert not sliver.is_closed
    for shape in (m, sliver):
        c = core.collide(shape, mesh(translate(box(), [2.5, 0, 0])))
        _finite(c)
        assert c.status is core.Status.SEPARATED and abs(c.distance - 1.5) < 1e-12


def test_open_and_non_manifold_surfaces_are_legal():
    v, t = box()
    open_box = core.TriangleMesh(v, t[2:])
    assert not open_box.is_closed
    fin = np.concatenate([v, [[2.0, 0.5, 0.5]]])
    non_manifold = core.TriangleMesh(fin, np.concatenate([t, [[4, 8, 5]]]))  # a fin on an existing edge
    assert not non_manifold.is_closed
    for m in (open_box, non_manifold):
        c = core.collide(m, mesh(translate(box(), [0, 0, 3])))
        _finite(c)
        assert c.status is core.Status.SEPARATED and c.open_a and not c.open_b


@pytest.mark.parametrize("history", [{}, "last", 1])
def test_history_must_be_a_pair_history(history):
    a = core.TriangleMesh(V, T)
    with pytest.raises(ValueError, match="PairHistory"):
        core.collide(a, a.moved(np.eye(4)), history=history)
