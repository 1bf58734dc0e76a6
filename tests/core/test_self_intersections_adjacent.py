"""`core.mesh.self_intersections` on triangles that share a corner or an edge (the rule in core/mesh/selfcross.py),
hand-computed: they count only where they overlap beyond what they share."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core import mesh_corpus as mc

U, V, C1 = (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.5, 1.0, 0.0)


def _pair(c2):
    return core.TriangleMesh(np.array([U, V, C1, c2]), np.array([[0, 1, 2], [1, 0, 3]]))


def test_face_folded_back_flat_reports_the_crease():
    pairs, segments = core.mesh.self_crossings(_pair((0.3, 0.6, 0.0)))
    assert pairs.tolist() == [[0, 1]]
    assert sorted(map(tuple, segments[0].tolist())) == [U, V]


@pytest.mark.parametrize("c2", [(0.3, -0.6, 0.0), (0.3, 0.6, 0.2), (0.3, 0.6, -0.2), (0.3, 0.6, 1e-6)],
                         ids=["flat-open", "folded-up", "folded-down", "folded-by-1e-6"])
def test_neighbours_that_only_share_their_edge(c2):
    assert core.mesh.self_intersections(_pair(c2)).shape == (0, 2, 3)


def test_fold_within_the_band_counts():
    # 1e-12 above the plane: within the band (1e-9 x the diagonal, ~1.1e-9)
    assert core.mesh.self_intersections(_pair((0.3, 0.6, 1e-12))).shape == (1, 2, 3)


def test_fan_crossing_beyond_the_shared_corner():
    v = np.array([[0, 0, 0], [2, -1, 0], [2, 1, 0], [2, 0, -1], [2, 0, 1]], float)
    segments = core.mesh.self_intersections(core.TriangleMesh(v, [[0, 1, 2], [0, 3, 4]]))
    assert segments.shape == (1, 2, 3)
    np.testing.assert_allclose(sorted(map(tuple, segments[0].tolist())), [(0, 0, 0), (2, 0, 0)], atol=1e-15)


def test_neighbours_meeting_only_at_the_shared_corner():
    v = np.array([[0, 0, 0], [2, -1, 0], [2, 1, 0], [-2, 0, -1], [-2, 0, 1]], float)
    assert core.mesh.self_intersections(core.TriangleMesh(v, [[0, 1, 2], [0, 3, 4]])).shape == (0, 2, 3)


def test_split_mesh_is_welded_first():
    # every triangle with its own three vertices (a mesh split along every edge): neighbours still share corners
    v, t = mc.torus(1.0, 0.3, 24, 12)
    soup = v[t].reshape(-1, 3)
    mesh = core.TriangleMesh(soup, np.arange(len(soup)).reshape(-1, 3))
    assert core.mesh.self_intersections(mesh).shape == (0, 2, 3)


@pytest.mark.parametrize("flip", [False, True], ids=["same-orientation", "opposite-orientation"])
def test_duplicated_face_is_not_a_crossing(flip):
    v, t = mc.box()
    extra = t[3:4, ::-1] if flip else t[3:4]
    assert core.mesh.self_intersections(core.TriangleMesh(v, np.concatenate([t, extra]))).shape == (0, 2, 3)


def test_only_degenerate_triangles():
    v = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 0, 0]], float)
    mesh = core.TriangleMesh(v, [[0, 1, 2], [0, 0, 1], [1, 2, 3], [3, 2, 1]])
    assert core.mesh.self_intersections(mesh).shape == (0, 2, 3)


def test_one_triangle():
    assert core.mesh.self_intersections(core.TriangleMesh([U, V, C1], [[0, 1, 2]])).shape == (0, 2, 3)
