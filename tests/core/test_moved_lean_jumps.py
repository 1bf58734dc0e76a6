"""The closest route's two lean steps answer bit for bit as the fresh query, along seeded pose sequences that mix
jumps and small steps, near the origin and far from it, with the meshes in either argument order.

The steps (core/mesh/coherence.py): `_answer` measures the CHUNK leaf pairs of smallest bound at once, with no
separating-axis screen before (only what is left within reach of the best is screened); and after a jump into the
other mesh, `_closest` tests the leaf pairs within the band by their boxes for a crossing before any oriented bound,
and answers from them as the crossing route does when one crosses.  A 1,152-triangle torus and a 256-triangle star
(sizes like FCL's env/rob pair): jumps put the star anywhere about the torus (apart, or through its tube), small
steps drag it from there.  The oracle is the fresh query (`core.collide` without a history), for A, B and B, A.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.contact import Status
from core.mesh.coherence import Route
from tests.core import mesh_corpus as mc
from tests.core.answers import assert_same_answer


@pytest.mark.parametrize("far", [0.0, 1e4, 1e6])
def test_jumps_and_small_steps_answer_as_fresh(far):
    rng = np.random.default_rng(2151)
    torus = core.TriangleMesh(*mc.torus(1.0, 0.3, 36, 16))
    vb, tb, _, _ = mc.star(rng, 0.35, 0.2, 16, 8)
    star = core.TriangleMesh(vb, tb)
    centre = far * rng.normal(size=3)
    torus_turn = mc.random_rotation(rng)
    torus_pose = torus.moved(mc.affine(torus_turn, centre))
    history, swapped = core.PairHistory(), core.PairHistory()
    routes = {"jump": [], "step": []}
    turn, place = mc.random_rotation(rng), rng.uniform(-2.0, 2.0, 3)
    for i in range(40):
        kind = "jump" if i % 4 == 0 else "step"
        if kind == "jump" and i % 8 == 0:
            # anywhere about the torus: in its hole, apart, or through its tube
            turn, place = mc.random_rotation(rng), rng.uniform(-1.6, 1.6, 3)
        elif kind == "jump":
            # onto the tube's centre line, give or take: through the tube
            angle = rng.uniform(0.0, 2.0 * np.pi)
            ring = np.array([np.cos(angle), np.sin(angle), 0.0]) + rng.normal(scale=0.1, size=3)
            turn, place = mc.random_rotation(rng), torus_turn @ ring
        else:
            place = place + rng.normal(scale=0.01, size=3)
            turn = turn @ mc.random_rotation(np.random.default_rng(i)) if i % 8 == 1 else turn
        pose = star.moved(mc.affine(turn, centre + place))
        want = core.collide(torus_pose, pose, depth_interval=False)
        assert_same_answer(core.collide(torus_pose, pose, history=history, depth_interval=False), want, (i, kind))
        assert_same_answer(core.collide(pose, torus_pose, history=swapped, depth_interval=False),
                           core.collide(pose, torus_pose, depth_interval=False), (i, kind, "swapped"))
        if i:
            routes[kind].append((history.route, want.status))
    jumps = routes["jump"]
    # the two lean steps were taken: jumps apart by the closest route, jumps through the tube by the crossing one
    assert sum(r is Route.CLOSEST for r, s in jumps if s is Status.SEPARATED) >= 2, jumps
    assert sum(r is Route.CROSSING for r, s in jumps if s is Status.INTERSECTING) >= 2, jumps
