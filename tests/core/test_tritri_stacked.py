"""The stacked triangle kernels give bit for bit what one axis or one edge at a time gives:
`tritri.separation_bound` (its 17 axes at once as (17, k) columns) against the axis-by-axis form written out
below, `point_triangle` (its three edges at once as (3, 3, k) columns) against its own edge-by-edge form (the one
it takes on long inputs), on seeded triangles with the awkward cases mixed in: shared corners, coplanar and parallel
pairs, degenerate (zero-area, zero-length) triangles, coordinates on exact zeros, far from the origin."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import tritri
from core.rows import row_cross, row_dot


def separation_bound_by_axis(A, B):
    """The bound one axis at a time: normals, then edge i of A x edge j of B (i major), then in-plane edge
    normals; the largest gap kept axis by axis."""
    k = A.shape[0]
    best = np.zeros(k)
    ea = [A[:, 1] - A[:, 0], A[:, 2] - A[:, 1], A[:, 0] - A[:, 2]]
    eb = [B[:, 1] - B[:, 0], B[:, 2] - B[:, 1], B[:, 0] - B[:, 2]]
    na, nb = row_cross(ea[0], -ea[2]), row_cross(eb[0], -eb[2])
    axes = [na, nb] + [row_cross(u, v) for u in ea for v in eb]
    axes += [row_cross(na, u) for u in ea] + [row_cross(nb, v) for v in eb]
    for w in axes:
        length = np.sqrt(row_dot(w, w))
        ok = length > 0.0
        w = w / np.where(ok, length, 1.0)[:, None]
        pa = [row_dot(A[:, i], w) for i in range(3)]
        pb = [row_dot(B[:, i], w) for i in range(3)]
        lo_a, hi_a = np.minimum(np.minimum(pa[0], pa[1]), pa[2]), np.maximum(np.maximum(pa[0], pa[1]), pa[2])
        lo_b, hi_b = np.minimum(np.minimum(pb[0], pb[1]), pb[2]), np.maximum(np.maximum(pb[0], pb[1]), pb[2])
        gap = np.maximum(lo_b - hi_a, lo_a - hi_b)
        best = np.maximum(best, np.where(ok, gap, 0.0))
    return best


def awkward_pairs(seed: int, k: int = 600):
    """(A, B) (k, 3, 3): random triangles near each other, with a share of every awkward case."""
    rng = np.random.default_rng([21, seed])
    A = rng.normal(size=(k, 3, 3))
    B = A.mean(axis=1, keepdims=True) + rng.normal(size=(k, 3, 3)) * rng.uniform(0.05, 2.0, (k, 1, 1))
    kind = rng.integers(0, 8, k)
    for i in range(k):
        if kind[i] == 1:  # a shared corner
            B[i, rng.integers(3)] = A[i, rng.integers(3)]
        elif kind[i] == 2:  # coplanar: both in z = 0 (exact zeros)
            A[i, :, 2] = 0.0
            B[i, :, 2] = 0.0
        elif kind[i] == 3:  # parallel planes a little apart
            A[i, :, 2] = 0.0
            B[i, :, 2] = 0.25
        elif kind[i] == 4:  # zero-area: collinear corners
            A[i, 2] = 0.5 * (A[i, 0] + A[i, 1])
        elif kind[i] == 5:  # a point: all corners equal
            B[i] = B[i, 0]
        elif kind[i] == 6:  # far from the origin, integer-ish coordinates
            A[i] = np.round(A[i] * 4.0) + 1e6
            B[i] = np.round(B[i] * 4.0) + 1e6
        elif kind[i] == 7:  # a shared edge, run in opposite directions
            B[i, 0], B[i, 1] = A[i, 1], A[i, 0]
    return A, B


def bits(x):
    return np.ascontiguousarray(x, np.float64).view(np.uint64)


@pytest.mark.parametrize("seed", range(4))
def test_stacked_separation_bound_equals_the_bound_axis_by_axis(seed):
    A, B = awkward_pairs(seed)
    got = tritri.separation_bound(A, B)
    assert np.array_equal(bits(got), bits(separation_bound_by_axis(A, B)))
    assert np.array_equal(bits(tritri.separation_bound(B, A)), bits(separation_bound_by_axis(B, A)))


def test_stacked_separation_bound_in_blocks_equals_one_block(monkeypatch):
    A, B = awkward_pairs(9, 1000)
    whole = tritri.separation_bound(A, B)
    monkeypatch.setattr(tritri, "SEPARATION_ROWS", 96)
    assert np.array_equal(bits(tritri.separation_bound(A, B)), bits(whole))


@pytest.mark.parametrize("seed", range(4))
def test_stacked_point_triangle_equals_the_edge_by_edge_form(seed, monkeypatch):
    # the edges stacked (point_triangle on short inputs, forced here on every length) against the edge-by-edge
    # form it takes on long ones
    monkeypatch.setattr(tritri, "POINT_ROWS", 10 ** 9)
    A, B = awkward_pairs(seed)
    rng = np.random.default_rng([22, seed])
    # points: B's corners, points near A's plane (inside and outside), A's own corners and edge midpoints
    p = np.concatenate([B[:, 0], A.mean(axis=1) + 1e-3 * rng.normal(size=(A.shape[0], 3)), A[:, 1],
                        0.5 * (A[:, 0] + A[:, 2])])
    T = np.concatenate([A, A, A, A])
    got = tritri.point_triangle(p, T[:, 0], T[:, 1], T[:, 2])
    assert np.array_equal(bits(got), bits(tritri._point_triangle_by_edge(p, T[:, 0], T[:, 1], T[:, 2])))


def test_the_awkward_cases_are_there():
    # the comparisons above reach the branches that matter: coplanar pairs that only the in-plane edge normals
    # part, pairs that touch (bound 0), and zero-area triangles (axes of zero length)
    A, B = awkward_pairs(0)
    coplanar = (A[:, :, 2] == 0.0).all(axis=1) & (B[:, :, 2] == 0.0).all(axis=1)
    full = separation_bound_by_axis(A, B)
    assert np.any(full[coplanar] > 0.0) and np.any(full == 0.0)
    area = np.linalg.norm(np.cross(A[:, 1] - A[:, 0], A[:, 2] - A[:, 0]), axis=1)
    assert np.count_nonzero(area == 0.0) > 20
