"""`triangle_triangle` (both triangles of every pair as one set of coordinate-first columns, each triangle's edges,
lower ends and normal computed once) gives bit for bit what its 21 candidates give through the row kernels one
feature at a time: `point_triangle` on the 6 corners and the 6 piercing points, `segment_segment` on the 9 edge
pairs from their lower ends, the first closest candidate kept.  Seeded awkward pairs (shared corners and edges,
coplanar, parallel, degenerate, far from the origin) and integer grids with signed zeros, in blocks and alone."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import tritri
from core.rows import row_cross, row_dot

from .test_tritri_stacked import awkward_pairs, bits


def _from_lower_end(p, q):
    """Segments pq (k, 3) as (lower end, upper end), ends compared by x, then y, then z (`tritri._lower_end_flip`)."""
    flip = tritri._lower_end_flip(p, q)
    if flip is None:
        return p, q
    f = flip[:, None]
    return np.where(f, q, p), np.where(f, p, q)


def _pierce_points(p, q, T):
    """Where segments pq meet the plane of triangles T (when their ends are on both sides), else p."""
    t0, t1, t2 = T[:, 0], T[:, 1], T[:, 2]
    n = row_cross(t1 - t0, t2 - t0)
    sp = row_dot(p - t0, n)
    sq = row_dot(q - t0, n)
    mask = (((sp <= 0.0) & (sq >= 0.0)) | ((sp >= 0.0) & (sq <= 0.0))) & (sp != sq)
    t = np.where(mask, sp / np.where(mask, sp - sq, 1.0), 0.0)
    return p + t[:, None] * (q - p)


def candidates_by_feature(A, B):
    """The kernel's candidates written out with the row kernels: (d, xa, xb)."""
    k = A.shape[0]
    on_a, on_b = [], []
    for i in range(3):  # A's corners against B
        on_a.append(A[:, i])
        on_b.append(tritri.point_triangle(A[:, i], B[:, 0], B[:, 1], B[:, 2]))
    for i in range(3):  # B's corners against A
        on_a.append(tritri.point_triangle(B[:, i], A[:, 0], A[:, 1], A[:, 2]))
        on_b.append(B[:, i])
    for i in range(3):  # edge i of A against edge j of B, each from its lower end
        for j in range(3):
            p1, q1 = _from_lower_end(A[:, i], A[:, (i + 1) % 3])
            p2, q2 = _from_lower_end(B[:, j], B[:, (j + 1) % 3])
            s1, s2 = tritri.segment_segment(p1, q1, p2, q2)
            on_a.append(s1)
            on_b.append(s2)
    for i in range(3):  # A's edges where they pierce B's plane
        x = _pierce_points(A[:, i], A[:, (i + 1) % 3], B)
        on_a.append(x)
        on_b.append(tritri.point_triangle(x, B[:, 0], B[:, 1], B[:, 2]))
    for i in range(3):  # B's edges where they pierce A's plane
        x = _pierce_points(B[:, i], B[:, (i + 1) % 3], A)
        on_a.append(tritri.point_triangle(x, A[:, 0], A[:, 1], A[:, 2]))
        on_b.append(x)
    on_a, on_b = np.stack(on_a), np.stack(on_b)
    diff = on_a - on_b
    d2 = row_dot(diff, diff)
    pick = np.argmin(d2, axis=0)
    cols = np.arange(k)
    return np.sqrt(d2[pick, cols]), on_a[pick, cols], on_b[pick, cols]


def same(got, want):
    return all(np.array_equal(bits(g), bits(w)) for g, w in zip(got, want))


@pytest.mark.parametrize("seed", range(4))
def test_triangle_pairs_equal_their_candidates_feature_by_feature(seed):
    A, B = awkward_pairs(seed)
    assert same(tritri.triangle_triangle(A, B), candidates_by_feature(A, B))
    assert same(tritri.triangle_triangle(B, A), candidates_by_feature(B, A))


@pytest.mark.parametrize("seed", range(3))
def test_triangle_pairs_on_signed_zero_grids(seed):
    # corners on a small integer grid with -0.0 mixed in: equal coordinates, zero-length edges and exact zeros,
    # where an edge run from its other end (its difference taken the other way, or negated) differs in the sign
    # of a zero
    rng = np.random.default_rng([23, seed])
    A = rng.integers(-2, 3, size=(400, 3, 3)).astype(float)
    B = rng.integers(-2, 3, size=(400, 3, 3)).astype(float)
    A[rng.random(A.shape) < 0.2] = -0.0
    B[rng.random(B.shape) < 0.2] = -0.0
    assert same(tritri.triangle_triangle(A, B), candidates_by_feature(A, B))


def test_triangle_pairs_in_blocks_equal_one_block(monkeypatch):
    A, B = awkward_pairs(5, 700)
    whole = tritri.triangle_triangle(A, B)
    monkeypatch.setattr(tritri, "TRIANGLE_PAIRS", 64)
    assert same(tritri.triangle_triangle(A, B), whole)
    assert same(tritri.triangle_triangle(A[:1], B[:1]), tuple(x[:1] for x in whole))
