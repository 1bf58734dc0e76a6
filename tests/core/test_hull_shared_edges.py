"""core/hull.py: proposals whose visible regions share an edge are inserted in one round only when the two new
faces on that edge meet convexly (`_shared_edges_convex`).

- the rule itself against exact rational arithmetic (Python's fractions on the same float inputs: the sign of the
  triple product ((b - a) x (P - a)) . (Q - a), independent of the numpy code): on seeded random edges clear of
  the eps band it agrees; points coplanar with the other face (exactly, by construction) count as convex;
- the rule is used in earnest: building the hull of 10,000 points on a sphere meets concave shared edges (whose
  proposals must wait for a later round) and convex ones (inserted together), and the hull is still qhull's.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.spatial import ConvexHull

from core import hull
from core.hull import convex_hull


def _exact_volume(a, b, pp, q) -> Fraction:
    a, b, pp, q = ([Fraction(float(x)) for x in v] for v in (a, b, pp, q))
    u = [b[i] - a[i] for i in range(3)]
    v = [pp[i] - a[i] for i in range(3)]
    w = [q[i] - a[i] for i in range(3)]
    uv = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    return uv[0] * w[0] + uv[1] * w[1] + uv[2] * w[2]


def _judge(points: np.ndarray, eps: float) -> np.ndarray:
    """The rule on edges (0, 1) of faces (0, 1, 2) and (1, 0, 3) of each block of four points."""
    m = points.shape[0] // 4
    faces = hull._Faces(m)
    base = 4 * np.arange(m)
    faces.tri[:m] = np.column_stack([base, base + 1, base + 2])
    faces.count = m
    cand = np.concatenate([base + 2, base + 3])  # candidates 0..m-1: P; m..2m-1: Q
    P = np.ascontiguousarray(points.T)
    return hull._shared_edges_convex(P, faces, cand, np.arange(m), np.arange(m), np.zeros(m, np.int64),
                                     m + np.arange(m), eps)


def test_agrees_with_exact_arithmetic_off_the_band():
    rng = np.random.default_rng(921)
    m = 4000
    pts = rng.normal(size=(4 * m, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(m, 1)).repeat(4, axis=0)
    eps = 1e-12
    got = _judge(pts, eps)
    checked = 0
    for i in range(m):
        a, b, pp, q = pts[4 * i:4 * i + 4]
        volume = _exact_volume(a, b, pp, q)
        area = min(np.linalg.norm(np.cross(b - a, pp - a)), np.linalg.norm(np.cross(b - a, q - a)))
        if abs(volume) <= 1e-6 * area * np.abs(pts[4 * i:4 * i + 4]).max():
            continue  # too close to the band for the floating-point test to be judged
        checked += 1
        assert got[i] == (volume < 0), (i, float(volume))
    assert checked > 0.9 * m
    assert 0.3 * m < got.sum() < 0.7 * m  # both answers well represented


def test_coplanar_faces_count_as_convex():
    """Q on the plane of (a, b, P) exactly (small integers: every product and sum is exact)."""
    rng = np.random.default_rng(922)
    m = 500
    blocks = []
    for _ in range(m):
        a, b, pp = rng.integers(-50, 50, size=(3, 3)).astype(float)
        s, t = rng.integers(-3, 4, size=2)
        q = a + s * (b - a) + t * (pp - a)
        blocks.append([a, b, pp, q])
    pts = np.array(blocks).reshape(-1, 3)
    ok = np.array([_exact_volume(*pts[4 * i:4 * i + 4]) == 0 for i in range(m)])
    area = np.linalg.norm(np.cross(pts[1::4] - pts[0::4], pts[2::4] - pts[0::4]), axis=1)
    flat_q = np.linalg.norm(np.cross(pts[1::4] - pts[0::4], pts[3::4] - pts[0::4]), axis=1)
    keep = ok & (area > 0) & (flat_q > 0)  # both faces real triangles
    assert keep.sum() > 100
    assert np.all(_judge(pts, 1e-12)[keep])


def test_a_sphere_meets_both_kinds_of_shared_edge_and_is_still_qhulls(monkeypatch):
    seen = {"convex": 0, "concave": 0}
    real = hull._shared_edges_convex

    def counting(*args):
        fine = real(*args)
        seen["convex"] += int(fine.sum())
        seen["concave"] += int((~fine).sum())
        return fine

    monkeypatch.setattr(hull, "_shared_edges_convex", counting)
    v = np.random.default_rng(923).normal(size=(10_000, 3))
    points = v / np.linalg.norm(v, axis=1)[:, None]
    vertices, triangles = convex_hull(points)
    assert seen["convex"] > 100 and seen["concave"] > 10, seen
    qhull = ConvexHull(points)
    np.testing.assert_array_equal(vertices, np.sort(qhull.vertices))
    assert _facets(triangles) == _facets(qhull.simplices)


def _facets(triangles: np.ndarray) -> set:
    return {tuple(sorted(t)) for t in np.asarray(triangles).tolist()}
