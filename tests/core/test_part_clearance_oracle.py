"""`core.mesh.part_clearance` against the brute-force oracle (every triangle pair of every pair of parts) on
print-in-place models (a pin in a hole, hinge knuckles and their pin, a ball in a socket, three linked chain
links, parts touching and crossing), plain, far from the origin, tiny and huge.

Property: at a clearance just below and just above each gap (and at 0), exactly the pairs that cross, touch, hold
one another or are no farther apart than the clearance are listed, worst first; each distance is the exact one
(negative when closed parts cross, 0 when two open parts cross), and the points lie on their parts.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core import mesh_oracle as mo
from tests.core import one_object_oracle as oo
from tests.core.one_object_cases import VARIANTS, parts_cases
from tests.core.reporting import TOUCHING, rounding_floor

CASES = [(variant, k) for variant in VARIANTS for k in range(len(parts_cases("plain")))]


@pytest.mark.parametrize("variant,k", CASES, ids=[f"{v}-{parts_cases('plain')[k].name}" for v, k in CASES])
def test_part_clearance_matches_the_oracle(variant, k):
    case = parts_cases(variant)[k]
    mesh = case.mesh()
    assert len(core.mesh.loose_parts(mesh)) == len(case.parts)
    parts = case.part_soups([np.arange(a, b) for a, b in case.parts])
    whole = case.soup()
    size = whole.diagonal()
    floor = rounding_floor(size, whole.used)

    def band_of(sa, sb):
        return TOUCHING * max(sa.diagonal(), sb.diagonal())

    truth = oo.part_pairs(parts, band_of)
    margin = 1e-7 * size
    gaps = sorted(t.distance for t in truth.values() if not (t.crosses or t.contained))
    clearances = [0.0] + [g + s * margin for g in gaps for s in (-1.0, 1.0) if g + s * margin >= 0.0]
    assert len(gaps) >= 1
    for clearance in clearances:
        listed = core.mesh.part_clearance(mesh, clearance)
        got = {(g.part_a, g.part_b): g for g in listed}
        expected = {p for p, t in truth.items()
                    if t.crosses or t.contained or t.distance <= max(clearance, band_of(parts[p[0]], parts[p[1]]))}
        assert set(got) == expected, f"{case.name} at clearance {clearance!r}: listed {sorted(got)}, " \
                                     f"expected {sorted(expected)}"
        assert [g.distance for g in listed] == sorted(g.distance for g in listed), "not worst first"
        for (a, b), g in got.items():
            t = truth[(a, b)]
            tol = band_of(parts[a], parts[b]) + t.error + floor
            on_a = float(mo.point_distance(parts[a], g.point_a[None])[0])
            on_b = float(mo.point_distance(parts[b], g.point_b[None])[0])
            if t.crosses or t.contained:
                assert g.status is core.Status.INTERSECTING, f"{case.name} {a, b}: {g.status}"
                if all(t.closed):
                    assert g.distance < 0.0, f"{case.name} {a, b}: closed parts crossing at distance {g.distance}"
                elif not any(t.closed):
                    assert g.distance == 0.0, f"{case.name} {a, b}: open parts crossing at {g.distance}"
                    assert on_a <= tol and on_b <= tol
                else:  # an open part crossing a closed one: the depth of its points inside, as for two objects
                    assert g.distance <= 0.0
            else:
                assert abs(g.distance - t.distance) <= tol, \
                    f"{case.name} {a, b}: distance {g.distance!r}, oracle {t.distance!r}"
                assert on_a <= tol and on_b <= tol, f"{case.name} {a, b}: points {on_a:.3g}, {on_b:.3g} off"
                assert abs(np.linalg.norm(g.point_b - g.point_a) - g.distance) <= tol
