"""Issue 7, raw arrays: the core's own hull triangulations are not welded (`Triangulation(..., own=True)`).

Their points are distinct rows of the cloud, but two rows may sit at one position (a cloud with a repeated
vertex).  A hull through both of them is not one closed convex surface (its edge pairing breaks where the fan of
the shared position switches rows), so it is refused like any wrong triangulation and EPA answers, exact (judged
by `exact_depth` of tests/core/duplicates.py: every facet normal of A - B from two qhull hulls, no engine code).
A hull that uses one row of the pair is the cloud's hull, and is taken.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.spatial import ConvexHull

import core
import core.hull
import core.large_pairs
from core.hull_views import with_hulls
from core.large_pairs import LARGE_PAIRS
from tests.core.duplicates import exact_depth, icosphere, near_copy, point_offset
from tests.core.reporting import TOUCHING


def _cloud():
    a = icosphere(3)
    return np.vstack([a, a[:1]])  # row n repeats row 0


def _qhull(points):
    keep = np.arange(1, points.shape[0])  # qhull of every row but 0 (row n stands for it)
    tri = keep[ConvexHull(points[keep]).simplices]
    return np.unique(tri), tri


def _pinched(points):
    """The hull using row 0 in half of the shared position's fan and row n in the other half."""
    vertices, tri = _qhull(points)
    n = points.shape[0] - 1
    around = np.flatnonzero(np.any(tri == n, axis=1))
    centre = points[n]
    ref = points[tri[around][tri[around] != n].reshape(-1, 2)[:, 0]] - centre
    angle = np.arctan2(ref[:, 1], ref[:, 0])
    half = around[angle < np.median(angle)]
    tri = tri.copy()
    tri[half] = np.where(tri[half] == n, 0, tri[half])
    return np.unique(tri), tri


def _exact(contact, a, b) -> bool:
    exact, _, _ = exact_depth(a, b)
    limit = TOUCHING * contact.scale
    return (contact.converged and abs(contact.depth - exact) <= limit
            and max(point_offset(contact.point_a, a), point_offset(contact.point_b, b)) <= limit)


def test_a_hull_through_both_rows_of_one_position_is_refused(monkeypatch):
    a = _cloud()
    b = near_copy(a, np.random.default_rng(5301), angle=1e-4)
    monkeypatch.setattr(core.hull, "convex_hull", _pinched)
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    assert views[0]._triangulation() is None
    # treated as a small pair (hulls after `raw_hull_per_vertex` expansions per vertex), that made 0: after 256
    monkeypatch.setattr(core.large_pairs, "LARGE_PAIRS", replace(LARGE_PAIRS, raw_hull_early=1 << 30,
                                                                 raw_hull_per_vertex=0.0))
    contact = core.collide(a, b)
    assert _exact(contact, a, b)
    assert contact.epa_iterations > a.shape[0] // 2  # EPA's own expansions: the hull was not used


def test_a_hull_through_one_row_of_the_pair_is_taken(monkeypatch):
    a = _cloud()
    b = near_copy(a, np.random.default_rng(5302), angle=1e-4)
    monkeypatch.setattr(core.hull, "convex_hull", _qhull)
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    assert views[0]._triangulation() is not None and views[1]._triangulation() is not None
    monkeypatch.setattr(core.large_pairs, "LARGE_PAIRS", replace(LARGE_PAIRS, raw_hull_per_vertex=0.0))
    contact = core.collide(a, b)
    assert _exact(contact, a, b) and contact.epa_iterations < 600
