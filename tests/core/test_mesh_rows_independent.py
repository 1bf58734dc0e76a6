"""The exact triangle kernels answer each row on its own: a row stacked with others gets the same bits as alone.

The mesh query stacks unrelated queries into one call (triangle_triangle's corners and piercing points through one
`point_triangle`, every step of `inside.steps_off_the_curve` at once), which is only sound if no row's answer
depends on the rows beside it (a branch taken for the whole batch, a reduction across rows)."""
from __future__ import annotations

import numpy as np

from core.mesh.tritri import crossing, point_triangle, triangle_triangle


def _triangles(rng, k):
    """A mix of ordinary, degenerate (repeated corner, collinear) and tiny triangles."""
    T = rng.normal(size=(k, 3, 3))
    T[::7, 2] = T[::7, 0]                                   # a repeated corner
    T[1::7, 2] = 0.5 * (T[1::7, 0] + T[1::7, 1])            # collinear
    T[2::7] *= 1e-9                                         # tiny
    return T


def test_point_triangle_rows_do_not_depend_on_the_batch():
    rng = np.random.default_rng(7)
    T = _triangles(rng, 200)
    p = rng.normal(size=(200, 3))
    p[::3] = T[::3].mean(axis=1) + 1e-3 * rng.normal(size=(len(T[::3]), 3))  # projections inside the triangle
    together = point_triangle(p, T[:, 0], T[:, 1], T[:, 2])
    for i in range(200):
        alone = point_triangle(p[i:i + 1], T[i:i + 1, 0], T[i:i + 1, 1], T[i:i + 1, 2])
        assert alone.tobytes() == together[i:i + 1].tobytes()


def test_triangle_triangle_rows_do_not_depend_on_the_batch():
    rng = np.random.default_rng(8)
    A, B = _triangles(rng, 120), _triangles(rng, 120)
    B[::4] = A[::4] + 0.2 * rng.normal(size=(30, 3, 3))    # near and crossing pairs
    d, xa, xb = triangle_triangle(A, B)
    for i in range(120):
        di, ai, bi = triangle_triangle(A[i:i + 1], B[i:i + 1])
        assert (di.tobytes(), ai.tobytes(), bi.tobytes()) == (d[i:i + 1].tobytes(), xa[i:i + 1].tobytes(),
                                                               xb[i:i + 1].tobytes())


def test_crossing_segments_follow_the_mask_row_by_row():
    rng = np.random.default_rng(9)
    A = _triangles(rng, 150)
    B = A + 0.3 * rng.normal(size=A.shape)
    mask, segments = crossing(A, B, 1e-12)
    assert segments.shape[0] == int(mask.sum()) > 0
    for row, i in enumerate(np.flatnonzero(mask)):
        one_mask, one = crossing(A[i:i + 1], B[i:i + 1], 1e-12)
        assert one_mask.tolist() == [True]
        assert one.tobytes() == segments[row:row + 1].tobytes()
    for i in np.flatnonzero(~mask):
        assert crossing(A[i:i + 1], B[i:i + 1], 1e-12)[0].tolist() == [False]
