"""Issue 7, raw arrays: a copy's triangulation takes its partner's topology only when its triangles are the same.

`core.hull_views.with_hulls` gives B A's triangulation on B's own vertices of the same indices (`_copied_maker`).  Its
points are checked on their own, but when its triangles come out the same as A's (before the flips and after
them) the edge pairing and the graph, functions of the triangles alone, are A's (`Triangulation(..., like=...)`),
and the facet path starts A's climbs along B's facet normals from B's supports of the same rows.  Pinned here:
- sharing changes nothing: B's points and triangles are what B's own check of the same input gives, and the
  shared graph is the graph of those triangles;
- distinct points keep their input order (the copy's vertex order is its partner's); repeated ones are welded;
- triangles that differ (a mirrored copy, whose faces turn round; another split of a flat quad) get their own graph
  (a mirror-symmetric shape's mirror image is the same points in another order: paired, the same graph), and every
  copy, sharing or not, answers exactly (`exact_depth` of tests/core/duplicates.py: every facet normal of A - B from
  two qhull hulls, no engine code).
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.facet_depth import facet_depth
from core.hull_views import with_hulls
from core.triangulation import Graph, Triangulation
from tests.core.duplicates import blob, exact_depth, icosphere, near_copy, subdivided_cube
from tests.core.reporting import TOUCHING

COPIES = {
    "turned 1e-4": lambda a: near_copy(a, np.random.default_rng(5201), angle=1e-4),
    "shifted 1e-6": lambda a: near_copy(a, np.random.default_rng(5202), shift=1e-6),
    "inside a 1.001 copy": lambda a: near_copy(a, np.random.default_rng(5203), scale=1.001),
    "scaled by 10": lambda a: near_copy(a, np.random.default_rng(5204), scale=10.0),
    "turned 0.5": lambda a: near_copy(a, np.random.default_rng(5205), angle=0.5),
}


def _graph_fields(graph):
    return [graph.triangles, graph.edges, graph.edge_faces, graph.edge_keys, graph.ptr, graph.idx, graph.table,
            graph.wide]


def _exact(a, b, found) -> bool:
    exact, _, _ = exact_depth(a, b)
    scale = max(float(np.linalg.norm(np.ptp(p, axis=0))) for p in (a, b))
    return found is not None and abs(found[0] - exact) <= TOUCHING * scale


@pytest.mark.parametrize("name", list(COPIES))
def test_a_copy_shares_the_topology_and_nothing_else_changes(name):
    a = icosphere(3)
    b = COPIES[name](a)
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    hull_a, hull_b = (v._triangulation() for v in views)
    assert hull_b.graph is hull_a.graph and hull_b.points is not hull_a.points
    # B's own check of the same input, with nothing shared
    own = Triangulation(hull_b.points.copy(), hull_b.graph.triangles.copy(), checked=False)
    assert np.array_equal(own.points, hull_b.points)
    for mine, theirs in zip(_graph_fields(Graph(own.graph.triangles, own.points.shape[0])),
                            _graph_fields(hull_b.graph)):
        assert np.array_equal(mine, theirs)
    assert _exact(a, b, facet_depth(*views))


def test_distinct_points_keep_their_order_and_repeated_ones_are_welded():
    points, triangles = subdivided_cube(3)
    order = np.random.default_rng(5206).permutation(points.shape[0])
    back = np.argsort(order)
    made = Triangulation(points[order], back[triangles], checked=False)
    assert np.array_equal(made.points, points[order])
    doubled = np.vstack([points[order], points[order][:1]])  # the first point once more, as the last row
    tris = back[triangles]
    tris[tris == 0] = points.shape[0]  # its triangles use the repeat
    welded = Triangulation(doubled, np.vstack([tris, back[triangles][:0]]), checked=False)
    assert welded.points.shape[0] == points.shape[0]
    assert np.array_equal(np.unique(welded.points, axis=0), np.unique(points, axis=0))


def test_a_mirrored_copy_gets_its_own_graph_and_is_exact():
    a = blob(3)  # no mirror symmetry: its mirror image is another point set
    b = a * np.array([-1.0, 1.0, 1.0]) + [1e-3, 0.0, 0.0]  # a mirror image: every face turns round
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    hull_a, hull_b = (v._triangulation() for v in views)
    assert hull_a is not None and hull_b is not None and hull_b.graph is not hull_a.graph
    assert _exact(a, b, facet_depth(*views))


def test_a_mirror_symmetric_shape_mirrored_is_a_copy_in_another_order():
    """An Ico Sphere is its own mirror image: its mirrored copy is the same points in another vertex order, which
    core/copies.py pairs, so B takes A's triangles on the paired vertices (the same graph), exact all the same."""
    a = icosphere(3)
    b = a * np.array([-1.0, 1.0, 1.0]) + [1e-3, 0.0, 0.0]
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    hull_a, hull_b = (v._triangulation() for v in views)
    assert hull_a is not None and hull_b is not None and hull_b.graph is hull_a.graph
    assert np.abs(hull_b.points - (hull_a.points + [1e-3, 0.0, 0.0])).max() <= 1e-15
    assert _exact(a, b, facet_depth(*views))


def test_another_split_of_a_flat_quad_gets_its_own_graph():
    points, triangles = subdivided_cube(4)
    first = Triangulation(points, triangles, checked=False, own=True)
    other = triangles.copy()
    # the first quad split along its other diagonal: triangles (i, j, k) and (j, i, l) become (i, l, k), (l, j, k)
    t0, t1 = [int(x) for x in other[0]], [int(x) for x in other[1]]
    for turn in range(3):
        i, j, k = t0[turn:] + t0[:turn]
        pairs = {(t1[m], t1[(m + 1) % 3]) for m in range(3)}
        if (j, i) in pairs:
            break
    l = next(x for x in t1 if x not in (i, j))
    other[0], other[1] = (i, l, k), (l, j, k)
    second = Triangulation(points * 1.001, other, checked=False, like=first)
    assert second.graph is not first.graph
    assert not np.array_equal(second.graph.triangles, first.graph.triangles)
    for mine, theirs in zip(_graph_fields(Graph(second.graph.triangles, points.shape[0])),
                            _graph_fields(second.graph)):
        assert np.array_equal(mine, theirs)
