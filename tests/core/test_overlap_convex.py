"""core.overlap on convex polytopes (raw arrays, PointCloud, ConvexPolytope: each stands for its hull) against
scipy's halfspace intersection: the hull of the vertices of the intersection of both hulls' halfspaces, its
volume by qhull.  Random clouds, seeded; near the origin, far from it, tiny and huge."""
import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.spatial import ConvexHull, HalfspaceIntersection

import core
from tests.core.overlap_corpus import rotation


def _scipy_volume(p, q) -> float:
    """Volume of hull(p) ∩ hull(q) (0.0 when they do not overlap with positive volume)."""
    h = np.concatenate([ConvexHull(p).equations, ConvexHull(q).equations])  # rows n.x + d <= 0
    norm = np.linalg.norm(h[:, :3], axis=1)
    # the Chebyshev centre: the deepest point of the intersection
    res = linprog(np.r_[0, 0, 0, -1], A_ub=np.c_[h[:, :3], norm], b_ub=-h[:, 3], bounds=[(None, None)] * 4)
    if not res.success or res.x[3] <= 1e-9 * np.ptp(np.concatenate([p, q]), axis=0).max():
        return 0.0
    return float(ConvexHull(HalfspaceIntersection(h, res.x[:3]).intersections).volume)


def _cloud(rng, n):
    kind = rng.integers(3)
    if kind == 0:
        return rng.normal(size=(n, 3))
    if kind == 1:
        d = rng.normal(size=(n, 3))
        return d / np.linalg.norm(d, axis=1)[:, None] * rng.uniform(0.8, 1.2, size=(n, 1))
    return rng.uniform(-1, 1, size=(n, 3)) * rng.uniform(0.3, 1.5, size=3)


def _polytope(points, transform):
    """A ConvexPolytope of the hull's vertices with qhull's triangulation (outward), as the add-on passes one."""
    hull = ConvexHull(points)
    index = np.full(points.shape[0], -1)
    index[hull.vertices] = np.arange(hull.vertices.size)
    tris = index[hull.simplices]
    v = points[hull.vertices]
    d = v[tris]
    centre = v.mean(axis=0)
    flip = np.einsum("ij,ij->i", np.cross(d[:, 1] - d[:, 0], d[:, 2] - d[:, 0]), d[:, 0] - centre) < 0
    tris[flip] = tris[flip][:, ::-1]
    return core.ConvexPolytope(v, tris, transform)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (1.0, 1e5), (1e-3, 0.0), (1e3, 1e6)])
def test_convex_overlap_matches_halfspace_intersection(seed, scale, offset):
    rng = np.random.default_rng(seed)
    p = _cloud(rng, int(rng.integers(6, 60)))
    q = _cloud(rng, int(rng.integers(6, 60))) @ rotation(rng).T + rng.uniform(-1.2, 1.2, size=3)
    truth = scale ** 3 * _scipy_volume(p, q)
    shift = offset * rng.normal(size=3)
    kind = seed % 3
    if kind == 0:  # raw arrays, placed in their coordinates
        a, b = scale * p + shift, scale * q + shift
    else:  # shapes placed by a transform
        w = np.eye(4)
        w[:3, :3] = scale * np.eye(3)
        w[:3, 3] = shift
        if kind == 1:
            a, b = core.PointCloud(p, w), core.PointCloud(q, w)
        else:
            a, b = _polytope(p, w), _polytope(q, w)
    size = scale * max(np.linalg.norm(np.ptp(p, axis=0)), np.linalg.norm(np.ptp(q, axis=0)))
    result = core.overlap(a, b)
    # raw arrays far away are rounded where they are given: allow that rounding (|coordinates| x eps) x area
    given = 64 * np.finfo(float).eps * (np.abs(shift).max() + size) * size ** 2 if kind == 0 else 0.0
    assert abs(result.volume - truth) <= 1e-9 * truth + 1e-12 * size ** 3 + given, (result.volume, truth)
    assert (result.region.shape[0] == 0) == (result.volume == 0.0)
