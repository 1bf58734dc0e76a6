"""The lock-step EPA's face planes (core/lockstep_epa.py `_plane`) are the scalar EPA's (core/epa.py `_plane`), bit
for bit, row by row.

`_plane` works on whole (m, 3) rows (one product array, one cross product through index columns, one division)
where the scalar code works component by component; both must round each product once and sum in the same order.
Seeded triangles of every shape EPA meets: random ones, each corner of the pivot (the corner facing the longest
edge: a, b or c, and exact ties between edge lengths), slivers, needles, zero-area triangles (normal 0, offset
inf), coordinates far from the origin and from 1e-6 to 1e6 in size."""
from __future__ import annotations

import numpy as np
import pytest

from core.epa import _plane as scalar_plane
from core.lockstep_epa import _plane


def _triangles(rng, m):
    kind = rng.integers(0, 7, m)
    a = rng.normal(size=(m, 3))
    b = rng.normal(size=(m, 3))
    c = rng.normal(size=(m, 3))
    # Slivers: c close to the segment ab; needles: b close to a.
    t = rng.uniform(0.0, 1.0, (m, 1))
    c = np.where((kind == 1)[:, None], a + t * (b - a) + 1e-9 * rng.normal(size=(m, 3)), c)
    b = np.where((kind == 2)[:, None], a + 1e-12 * rng.normal(size=(m, 3)), b)
    # Zero area: c on the line ab exactly (a repeated corner), or all three corners the same point.
    c = np.where((kind == 3)[:, None], a, c)
    b = np.where((kind == 4)[:, None], a, b)
    c = np.where((kind == 4)[:, None], a, c)
    # Isosceles and equilateral-like, exact ties between edge lengths (every pivot's tie-break).
    iso = kind == 5
    a[iso], b[iso], c[iso] = (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.5, 0.75, 0.0)
    right = kind == 6
    a[right], b[right], c[right] = (0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (0.0, 2.0, 0.0)
    return a, b, c


@pytest.mark.parametrize("scale, shift", [(1.0, 0.0), (1e-6, 0.0), (1e6, 0.0), (1.0, 1e5), (1e-3, -7.5)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lockstep_planes_are_the_scalar_planes(seed, scale, shift):
    rng = np.random.default_rng(seed)
    a, b, c = (p * scale + shift for p in _triangles(rng, 400))
    # Every rotation of each triangle's corners, so each corner in turn faces the longest edge.
    for a, b, c in ((a, b, c), (b, c, a), (c, a, b)):
        with np.errstate(divide="ignore", invalid="ignore"):
            normals, offsets = _plane(a, b, c)
        for k in range(len(a)):
            want_n, want_o = scalar_plane(tuple(a[k].tolist()), tuple(b[k].tolist()), tuple(c[k].tolist()))
            assert np.array(want_n, dtype=np.float64).tobytes() == normals[k].tobytes(), (seed, k)
            assert np.float64(want_o).tobytes() == offsets[k].tobytes(), (seed, k)
    assert np.isinf(offsets).any() and np.isfinite(offsets).any()  # both kinds of rows were met
