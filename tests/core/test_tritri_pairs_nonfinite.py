"""`triangle_triangle` gives bit for bit what its 21 candidates give through the row kernels one feature at a time
(tests/core/test_tritri_pairs_columns.py's oracle) on corners that overflow or are not finite: infinities, NaNs of
either sign, the largest and smallest doubles.  The stacked kernel reorders its numpy calls (products of a dot at
once, cross products from rolled copies); each product, sum and quotient must keep its operands in the row form's
order, or a NaN's sign (the operand a NaN result is taken from) or an overflow would differ."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh import tritri

from .test_tritri_pairs_columns import candidates_by_feature, same

SPECIALS = np.array([np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 5e-324, -5e-324, 1.7e308, -1.7e308, 1e200])


@pytest.mark.parametrize("seed", range(3))
def test_triangle_pairs_on_non_finite_corners(seed):
    rng = np.random.default_rng([29, seed])
    k = 400
    A = rng.normal(size=(k, 3, 3))
    B = A.mean(axis=1, keepdims=True) + rng.normal(size=(k, 3, 3))
    for T in (A, B):
        special = rng.random(T.shape) < 0.03
        T[special] = rng.choice(SPECIALS, int(special.sum()))
    with np.errstate(all="ignore"):
        assert same(tritri.triangle_triangle(A, B), candidates_by_feature(A, B))
        assert same(tritri.triangle_triangle(B, A), candidates_by_feature(B, A))
        assert same(tritri.triangle_triangle(A[:3], B[:3]), candidates_by_feature(A[:3], B[:3]))
