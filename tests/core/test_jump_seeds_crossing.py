"""A jump after which the last crossing pairs still cross (a rod slid far along itself through a cup's wall) is
answered by a `core.PairHistory` from the crossing route, bit for bit as the fresh query.

After a jump the history asks its seeds whether they still cross only when their first corners are within the
touching band; past it the closest route's descent finds the crossing itself (its leaf pairs within the band hold
every crossing pair) and answers as the crossing route does (core/mesh/coherence.py).  The rod's side triangles
run its whole length, so each slide keeps the same pairs crossing, with first corners far apart.  The oracle is
the fresh query (`core.collide` without a history).
"""
from __future__ import annotations

import numpy as np

import core
from core.contact import Status
from core.mesh.coherence import JUMP, Route
from tests.core import mesh_corpus as mc
from tests.core.answers import assert_same_answer


def test_a_jump_along_a_crossing_rod_takes_the_crossing_route():
    cup = core.TriangleMesh(*mc.cup(n=16))
    rod = core.TriangleMesh(*mc.cylinder(radius=0.1, half_height=3.0, n=12))
    lie = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])  # the rod's axis along x
    slides = [0.0, 1.2, -1.0, 0.4, -0.2]
    history = core.PairHistory()
    routes = []
    for i, x in enumerate(slides):
        rod_pose = rod.moved(mc.affine(lie, (x, 0.05, 0.9)))  # through the wall at x = -0.9 and 0.9, never the bottom
        got = core.collide(cup, rod_pose, history=history, depth_interval=False)
        want = core.collide(cup, rod_pose, depth_interval=False)
        assert want.status is Status.INTERSECTING, i
        assert_same_answer(got, want, i)
        if i:
            assert abs(x - slides[i - 1]) > JUMP * want.scale  # each slide is a jump
        routes.append(history.route)
    assert all(r is Route.CROSSING for r in routes[1:]), routes  # (the first query has no seeds: any route)
