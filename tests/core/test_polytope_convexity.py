"""The convexity test of hull triangulations (core/topology.py `convexity_proper`, the one-group path that
`core.triangulation.Triangulation` runs) against qhull as the independent oracle.

Seeded clouds on and in a sphere, near the origin and 1e6 away from it, triangulated by qhull
(`scipy.spatial.ConvexHull`): the surface is convex.  The same triangles with one hull vertex pushed inwards
(qhull then leaves that vertex out of its hull) or pulled outwards past its neighbours' planes are not; the
one-group answer must say so, and must agree with the many-group path on the same mesh given as two groups.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core.topology import convexity_proper, edge_twins


def _cloud(seed: int, n: int, far: bool) -> np.ndarray:
    rng = np.random.default_rng([4201, seed])
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    v *= rng.uniform(0.5, 2.0, size=3)  # an ellipsoid
    return v + (np.array([1e6, -3e5, 2e6]) if far else 0.0)


def _outward(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    c = points.mean(axis=0)
    a, b, d = (points[triangles[:, k]] for k in range(3))
    inward = np.einsum("ij,ij->i", a - c, np.cross(b - a, d - a)) < 0.0
    triangles = triangles.copy()
    triangles[inward] = triangles[inward][:, [0, 2, 1]]
    return triangles


def _one_group(points, triangles) -> bool:
    pairing = edge_twins(triangles, points.shape[0])
    zero = np.zeros(triangles.shape[0], np.int64)
    return bool(convexity_proper(points, triangles, triangles, zero, 1, None, 1e-9, pairing)[0])


def _two_groups(points, triangles) -> np.ndarray:
    """The same mesh twice, the copy 10 sizes away, as groups 0 and 1 (the many-group path)."""
    n = points.shape[0]
    both = np.vstack([points, points + 10.0 * np.ptp(points, axis=0).max()])
    tris = np.vstack([triangles, triangles + n])
    label = np.repeat([0, 1], triangles.shape[0])
    return convexity_proper(both, tris, tris, label, 2, None, 1e-9, None)


CASES = [(seed, n, far) for seed, n in ((1, 200), (2, 2000)) for far in (False, True)]


@pytest.mark.parametrize("seed,n,far", CASES)
def test_qhull_surfaces_are_convex(seed, n, far):
    points = _cloud(seed, n, far)
    hull = ConvexHull(points)
    assert hull.vertices.size == n  # every point on the ellipsoid is a hull vertex
    triangles = _outward(points, hull.simplices)
    assert _one_group(points, triangles)
    assert _two_groups(points, triangles).tolist() == [True, True]


@pytest.mark.parametrize("seed,n,far", CASES)
@pytest.mark.parametrize("push", [0.97, 1.03])
def test_a_moved_vertex_breaks_convexity(seed, n, far, push):
    points = _cloud(seed, n, far)
    triangles = _outward(points, ConvexHull(points).simplices)
    moved = points.copy()
    k = int(np.random.default_rng([4202, seed]).integers(n))
    centre = points.mean(axis=0)
    moved[k] = centre + push * (points[k] - centre)
    oracle = ConvexHull(moved)
    # qhull's verdict: the surface is convex iff it is the hull of its points (every point a hull vertex and
    # the enclosed volume equal to the hull's)
    a, b, d = (moved[triangles[:, i]] - centre for i in range(3))
    volume = np.einsum("ij,ij->i", a, np.cross(b, d)).sum() / 6.0
    convex = oracle.vertices.size == n and abs(volume / oracle.volume - 1.0) < 1e-12
    assert not convex  # the cases are built to break it
    assert _one_group(moved, triangles) is False
    assert _two_groups(moved, triangles).tolist() == [False, False]
