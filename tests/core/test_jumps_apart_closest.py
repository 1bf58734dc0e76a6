"""Jumps apart between a 2,304-triangle torus and a 256-triangle star (sizes like FCL's env/rob benchmark pair)
are answered by a `core.PairHistory`'s closest route, not handed to the fresh query, and bit for bit as the fresh
query.

The closest route's descent (core/mesh/coherence.py `_closest`) prunes above the leaves by box distance alone and
starts from a seed no better than the last pose's closest corners; it must still keep few enough node pairs to
answer a jump by itself.  The oracle is the fresh query (`core.collide` without a history).
"""
from __future__ import annotations

import numpy as np

import core
from core.contact import Status
from core.mesh.coherence import Route
from tests.core import mesh_corpus as mc
from tests.core.answers import assert_same_answer


def test_jumps_apart_take_the_closest_route():
    rng = np.random.default_rng(2104)
    torus = core.TriangleMesh(*mc.torus(1.0, 0.3, 48, 24))
    vb, tb, _, _ = mc.star(rng, 0.4, 0.2, 16, 8)
    star = core.TriangleMesh(vb, tb)
    history = core.PairHistory()
    apart = closest = 0
    for i in range(40):
        pose = torus.moved(mc.affine(mc.random_rotation(rng), rng.uniform(-2.5, 2.5, 3)))
        got = core.collide(pose, star, history=history, depth_interval=False)
        want = core.collide(pose, star, depth_interval=False)
        assert_same_answer(got, want, i)
        if i and want.status is Status.SEPARATED:
            apart += 1
            closest += history.route is Route.CLOSEST
    assert apart >= 20, apart
    assert closest >= 0.8 * apart, (closest, apart)
