"""The first query of a new `core.PairHistory` (no seed yet) answers bit for bit as the fresh query, by the closest
route when the meshes are apart and by the crossing route when they cross, not handed to the fresh query.

With no seed the closest route's descent starts from the surface points of its first node pairs alone (as after a
jump), and its node pairs within the band go down to their leaf pairs first (a crossing answers from them:
core/mesh/coherence.py `_closest`).  Each pose gets a history of its own, so every query is a first one.  The
oracle is the fresh query (`core.collide` without a history).
"""
from __future__ import annotations

import numpy as np

import core
from core.contact import Status
from core.mesh.coherence import Route
from tests.core import mesh_corpus as mc
from tests.core.answers import assert_same_answer


def test_a_first_query_answers_as_fresh_by_its_own_route():
    rng = np.random.default_rng(2114)
    torus = core.TriangleMesh(*mc.torus(1.0, 0.3, 48, 24))
    vb, tb, _, _ = mc.star(rng, 0.4, 0.2, 16, 8)
    star = core.TriangleMesh(vb, tb)
    routes = {}
    for i in range(30):
        pose = torus.moved(mc.affine(mc.random_rotation(rng), rng.uniform(-1.8, 1.8, 3)))
        history = core.PairHistory()
        got = core.collide(pose, star, history=history, depth_interval=False)
        want = core.collide(pose, star, depth_interval=False)
        assert_same_answer(got, want, i)
        routes.setdefault(want.status, []).append(history.route)
    # both kinds of pose occur, and each is answered by its own route (a near tie may still go to the fresh query)
    apart, crossing = routes.get(Status.SEPARATED, []), routes.get(Status.INTERSECTING, [])
    assert apart and crossing, routes
    assert sum(r is Route.CLOSEST for r in apart) >= 0.8 * len(apart), apart
    assert sum(r is Route.CROSSING for r in crossing) >= 0.8 * len(crossing), crossing
