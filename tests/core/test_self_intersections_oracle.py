"""`core.mesh.self_crossings` against the brute-force oracle over every triangle pair (tests/core/one_object_oracle.py).

Property: every pair the oracle sees crossing by more than the band beyond what it shares is found; every pair
found meets in the oracle (exact distance within the tolerance), or is an edge-sharing pair folded back flat;
every segment lies on both triangles of its pair.  Each case plain, far from the origin, tiny and huge.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core import mesh_oracle as mo
from tests.core import one_object_oracle as oo
from tests.core.one_object_cases import VARIANTS, self_cases
from tests.core.reporting import TOUCHING, rounding_floor

CASES = [(variant, k) for variant in VARIANTS for k in range(len(self_cases("plain")))]


@pytest.mark.parametrize("variant,k", CASES, ids=[f"{v}-{self_cases('plain')[k].name}" for v, k in CASES])
def test_self_crossings_match_the_oracle(variant, k):
    case = self_cases(variant)[k]
    soup = case.soup()
    scale = soup.diagonal()
    band = TOUCHING * scale
    tol = band + rounding_floor(scale, soup.used) + mo.ROUNDING_ULPS * mo.EPS * scale
    truth = oo.self_pairs(soup, band, tol)
    pairs, segments = core.mesh.self_crossings(case.mesh())
    found = {(int(a), int(b)) for a, b in pairs}
    assert len(found) == len(pairs), "a pair reported twice"
    missed = truth.robust - found
    assert not missed, f"{case.name}: {len(missed)} robust crossings missed, e.g. {sorted(missed)[:3]}"
    extra = found - truth.meeting - truth.folded
    assert not extra, f"{case.name}: {len(extra)} pairs that do not meet, e.g. {sorted(extra)[:3]}"
    assert truth.folded <= found, f"{case.name}: folded-back pairs missed: {sorted(truth.folded - found)[:3]}"
    assert all(truth.shared[p] < 3 for p in found), "identical faces reported"
    if len(pairs):
        tris = soup.tris
        for end in (0, 1):
            for side in (0, 1):
                t = tris[pairs[:, side]]
                off = mo.point_triangle_distance(segments[:, end], t[:, 0], t[:, 1], t[:, 2])
                assert off.max() <= tol, f"{case.name}: a segment end {off.max() / scale:.3g} x scale off its triangle"
    if case.length == 0.0:
        assert segments.shape == (0, 2, 3) and not truth.robust
