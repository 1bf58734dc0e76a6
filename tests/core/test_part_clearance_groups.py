"""`core.mesh.part_clearance` on parts that cross, at a clearance as large as the parts: the parts joined by
contacts are grouped before the search within the clearance (core/mesh/clearance.py), so the volume where two
crossing parts interleave is not searched pair of triangles by pair of triangles.  The pairs inside a group that
do not touch are asked the pair question instead, and every pair between groups is searched as before.

Property: exactly the pairs the brute-force oracle (tests/core/one_object_oracle.py: every triangle pair of every
pair of parts) lists are listed, with its distances: a chain of three crossing balls (A-B and B-C cross, A and C
1.2 apart: one group holding a pair that only comes close) and a fourth ball 0.3 from C (another group).  Also
the loose parts built on demand: `loose_parts(mesh, which)` are the same meshes as those of `loose_parts(mesh)`,
and `loose_part_count` is their number."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core import mesh_oracle as mo
from tests.core import one_object_oracle as oo
from tests.core.meshes import ball, join, translate
from tests.core.reporting import TOUCHING

CENTRES = ((0.0, 0.0, 0.0), (1.5, 0.0, 0.0), (3.2, 0.0, 0.0), (5.5, 0.0, 0.0))
"""Unit balls: A-B and B-C cross, A-C are about 1.2 apart, C-D about 0.3 (a little more: the balls are faceted)."""


def _balls():
    pieces = [translate(ball(1.0, 24, 12), c) for c in CENTRES]
    return core.TriangleMesh(*join(*pieces)), [mo.soup(*p) for p in pieces]


def _band(sa, sb):
    return TOUCHING * max(sa.diagonal(), sb.diagonal())


@pytest.mark.parametrize("clearance", [0.0, 0.5, 1.5])
def test_crossing_parts_at_a_large_clearance_match_the_oracle(clearance):
    mesh, parts = _balls()
    truth = oo.part_pairs(parts, _band)
    expected = {p for p, t in truth.items()
                if t.crosses or t.contained or t.distance <= max(clearance, _band(parts[p[0]], parts[p[1]]))}
    got = {(g.part_a, g.part_b): g for g in core.mesh.part_clearance(mesh, clearance)}
    assert set(got) == expected
    if clearance == 1.5:
        assert expected == {(0, 1), (1, 2), (0, 2), (2, 3)}  # the in-group pair (0, 2) and the other group's
    for pair, gap in got.items():
        t = truth[pair]
        if t.crosses:
            assert gap.status is core.Status.INTERSECTING and gap.distance < 0.0
        else:
            assert gap.status is core.Status.SEPARATED
            assert gap.distance == pytest.approx(t.distance, abs=t.error + 1e-9)


def test_loose_parts_built_on_demand_are_the_same_meshes():
    mesh, _ = _balls()
    every = core.mesh.loose_parts(mesh)
    assert core.mesh.loose_part_count(mesh) == len(every) == len(CENTRES)
    which = [3, 0, 2]
    for k, part in zip(which, core.mesh.loose_parts(mesh, which)):
        np.testing.assert_array_equal(part.vertices, every[k].vertices)
        np.testing.assert_array_equal(part.triangles, every[k].triangles)
    assert core.mesh.loose_parts(mesh, []) == []
