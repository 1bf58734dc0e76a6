"""`meeting.meet` given the crossing test's result (`crossed`, as the history's closest route passes it on after
running it on the band pairs) reports the same crossing pairs, segments and containment, bit for bit, as `meet`
running the test itself.

Pairs of crossing meshes (a torus and a noisy star in random poses, a star inside a cup's wall); the band pairs are
the fresh descent's (`descent.descend` with `near_only`), the caller's test is `tritri.crossing` on their corners.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.descent import descend
from core.mesh.meeting import meet
from core.mesh.pair_frame import Frame
from core.mesh.tritri import crossing
from tests.core import mesh_corpus as mc
from tests.core.answers import float_bits


@pytest.mark.parametrize("seed", range(6))
def test_meet_given_the_crossing_test(seed):
    rng = np.random.default_rng([2105, seed])
    va, ta = mc.torus(1.0, 0.3, 24, 12) if seed % 2 else mc.cup(n=16)
    vb, tb, _, _ = mc.star(rng, 0.5, 0.2, 16, 8)
    a = core.TriangleMesh(va, ta)
    crossed_poses = 0
    for _ in range(8):
        b = core.TriangleMesh(vb, tb, mc.affine(mc.random_rotation(rng), rng.uniform(-1.0, 1.0, 3)))
        frame = Frame(a, b, core.Tolerances())
        found = descend(frame.sa.world, frame.sb.world, frame.band, 0.0, None, near_only=True)
        if found.ia.size == 0:
            continue
        given = crossing(frame.sa.world.corners(found.ia), frame.sb.world.corners(found.ib), frame.band)
        crossed_poses += bool(np.any(given[0]))
        got, want = meet(frame, found, given), meet(frame, found)
        assert np.array_equal(got.crossing_pairs, want.crossing_pairs)
        assert np.array_equal(float_bits(got.crossing_segments), float_bits(want.crossing_segments))
        assert np.array_equal(float_bits(got.segments), float_bits(want.segments))
        assert got.contained == want.contained
    assert crossed_poses >= 2, crossed_poses
