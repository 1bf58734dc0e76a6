"""The triangle-pair kernels on hand-computed cases: vertex-face, edge-edge, piercing, coplanar, degenerate."""
from __future__ import annotations

import numpy as np

from core.mesh.tritri import crossing, point_triangle, segment_segment, triangle_triangle

UNIT = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def one(t):
    return np.asarray(t, float)[None]


def dist(a, b):
    d, xa, xb = triangle_triangle(one(a), one(b))
    assert np.isclose(np.linalg.norm(xa[0] - xb[0]), d[0], atol=1e-15)
    return float(d[0]), xa[0], xb[0]


def test_vertex_above_face():
    d, xa, xb = dist(UNIT, [[0.2, 0.2, 0.5], [1.0, 1.0, 2.0], [0.3, 0.9, 3.0]])
    assert abs(d - 0.5) < 1e-15 and np.allclose(xa, [0.2, 0.2, 0.0]) and np.allclose(xb, [0.2, 0.2, 0.5])


def test_skew_edges():
    # the edge (2,-1,1)-(2,1,1) is closest to the unit triangle's corner (1,0,0), at (2,0,1): distance sqrt(2)
    d, _, xb = dist(UNIT, [[2.0, -1.0, 1.0], [2.0, 1.0, 1.0], [3.0, 0.0, 5.0]])
    assert abs(d - np.sqrt(2.0)) < 1e-15 and np.allclose(xb, [2.0, 0.0, 1.0])


def test_crossing_edges_of_perpendicular_triangles():
    # the edge (0.5,-0.5,0.5)-(0.5,0.5,-0.5) passes through (0.5,0,0), a point of the unit triangle's edge y = 0
    other = [[0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [0.5, -3.0, -3.0]]
    d, xa, _ = dist(UNIT, other)
    assert d < 1e-15


def test_piercing_triangle_has_zero_distance():
    # a vertical triangle poking through the middle of the unit triangle: no vertex or edge pair touches
    other = [[0.25, 0.25, -1.0], [0.3, 0.25, 1.0], [0.2, 0.3, 1.0]]
    d, xa, xb = dist(UNIT, other)
    assert d < 1e-15 and abs(xa[2]) < 1e-15
    mask, segs = crossing(one(UNIT), one(other), 1e-12)
    assert mask[0] and segs.shape == (1, 2, 3)
    assert np.allclose(segs[0, :, 2], 0.0)


def test_crossing_segment_is_the_overlap_of_both_intervals():
    # the unit square's lower triangle against a vertical triangle in the plane y = 0.25
    wall = [[-1.0, 0.25, -1.0], [2.0, 0.25, -1.0], [0.5, 0.25, 2.0]]
    mask, segs = crossing(one(UNIT), one(wall), 1e-12)
    assert mask[0]
    xs = sorted(segs[0, :, 0])
    assert np.allclose(xs, [0.0, 0.75]) and np.allclose(segs[0, :, 1], 0.25) and np.allclose(segs[0, :, 2], 0.0)


def test_coplanar_overlap_touches_never_crosses():
    shifted = UNIT + [0.2, 0.2, 0.0]
    d, _, _ = dist(UNIT, shifted)
    assert d == 0.0
    mask, segs = crossing(one(UNIT), one(shifted), 1e-12)
    assert not mask[0] and segs.shape == (0, 2, 3)


def test_vertex_resting_on_a_face_touches_never_crosses():
    tent = [[0.25, 0.25, 0.0], [1.0, 1.0, 1.0], [-1.0, 1.0, 1.0]]
    d, _, _ = dist(UNIT, tent)
    assert d == 0.0
    assert not crossing(one(UNIT), one(tent), 1e-12)[0][0]


def test_degenerate_triangles_are_their_segment_or_point():
    segment = [[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [0.5, 0.0, 2.0]]  # collinear: the segment y = 0, z = 2
    assert abs(dist(UNIT, segment)[0] - 2.0) < 1e-15
    point = [[0.1, 0.1, -3.0]] * 3
    d, xa, _ = dist(UNIT, point)
    assert abs(d - 3.0) < 1e-15 and np.allclose(xa, [0.1, 0.1, 0.0])
    assert not crossing(one(UNIT), one(point), 1e-12)[0][0]
    q = point_triangle(np.array([[5.0, 5.0, 5.0]]), *[np.array([[1.0, 1.0, 1.0]])] * 3)
    assert np.allclose(q, [[1.0, 1.0, 1.0]])


def test_parallel_segments():
    x1, x2 = segment_segment(np.array([[0.0, 0, 0]]), np.array([[2.0, 0, 0]]),
                             np.array([[1.0, 1, 0]]), np.array([[3.0, 1, 0]]))
    assert abs(np.linalg.norm(x1 - x2) - 1.0) < 1e-15
    assert 1.0 - 1e-15 <= x1[0, 0] <= 2.0 + 1e-15


def test_separation_bound_is_a_lower_bound_and_exact_for_vertex_face():
    from core.mesh.tritri import separation_bound
    rng = np.random.default_rng(7)
    A = rng.normal(size=(2000, 3, 3))
    B = rng.normal(size=(2000, 3, 3)) + rng.normal(scale=2.0, size=(2000, 1, 3))
    d, _, _ = triangle_triangle(A, B)
    bound = separation_bound(A, B)
    assert np.all(bound <= d + 1e-12)
    above = one([[0.2, 0.2, 0.5], [1.0, 1.0, 2.0], [0.3, 0.9, 3.0]])
    assert abs(separation_bound(one(UNIT), above)[0] - 0.5) < 1e-15
