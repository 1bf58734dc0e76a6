"""`core.mesh.self_intersections`: the crossing curve's length equals the known length of each case (two boxes
joined into one mesh, a sheet folded through itself), and is zero for clean meshes (sphere, torus, cup, a
duplicated face, degenerate triangles), plain, far from the origin, tiny and huge."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.one_object_cases import VARIANTS, self_cases
from tests.core.reporting import rounding_floor

KNOWN = [(variant, k) for variant in VARIANTS for k, c in enumerate(self_cases("plain")) if c.length is not None]


@pytest.mark.parametrize("variant,k", KNOWN, ids=[f"{v}-{self_cases('plain')[k].name}" for v, k in KNOWN])
def test_crossing_curve_length(variant, k):
    case = self_cases(variant)[k]
    segments = core.mesh.self_intersections(case.mesh())
    assert segments.dtype == np.float64 and segments.ndim == 3 and segments.shape[1:] == (2, 3)
    length = float(np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1).sum())
    soup = case.soup()
    # each segment end is exact to the rounding of the world coordinates
    tol = 1e-12 * soup.diagonal() + 2 * len(segments) * rounding_floor(soup.diagonal(), soup.used)
    assert abs(length - case.length) <= tol, f"{case.name}: length {length!r}, expected {case.length!r}"
    if case.length == 0.0:
        assert segments.shape == (0, 2, 3)
