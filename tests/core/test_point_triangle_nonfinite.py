"""`point_triangle`'s stacked form (the three edges at once as coordinate columns) gives bit for bit what its
edge-by-edge form on (k, 3) rows gives (`_point_triangle_by_edge`, the one it takes on long inputs) on points and
corners that overflow or are not finite: infinities, NaNs of either sign, the largest and smallest doubles.  Each
product, sum and quotient must keep its operands in the row form's order, or a NaN's sign (the operand a NaN
result is taken from) would differ."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import tritri

SPECIALS = np.array([np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 5e-324, -5e-324, 1.7e308, -1.7e308, 1e200])


def bits(x):
    return np.ascontiguousarray(x, np.float64).view(np.uint64)


@pytest.mark.parametrize("seed", range(3))
def test_point_triangle_on_non_finite_inputs(seed):
    rng = np.random.default_rng([31, seed])
    k = 400
    T = rng.normal(size=(k, 3, 3))
    p = T.mean(axis=1) + rng.normal(size=(k, 3))
    for X in (T, p):
        special = rng.random(X.shape) < 0.03
        X[special] = rng.choice(SPECIALS, int(special.sum()))
    with np.errstate(all="ignore"):
        for rows in (slice(None), slice(0, 5)):
            got = tritri.point_triangle(p[rows], T[rows, 0], T[rows, 1], T[rows, 2])
            want = tritri._point_triangle_by_edge(p[rows], T[rows, 0], T[rows, 1], T[rows, 2])
            assert np.array_equal(bits(got), bits(want))
