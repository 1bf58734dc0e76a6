"""The closest route bounds a turned larger mesh's node pairs in that mesh's own frame (core/mesh/coherence.py
`_pruning_frame`): its local hierarchy, the other mesh placed in it by the inverse rotation, every bound lowered by
an allowance for the rounding and the rotation's skew.

Two properties.  Each bound it gives, less the allowance, is at most the exact distance of the two triangles in the
pair frame (the oracle: the triangle kernel on the pair frame's corners, which never sees the own frame), here for
every leaf pair of a torus and a star turned and placed far from the origin (coordinates near 1e4 and 1e6, where
the rounding of the inverse map is largest).  And along seeded jumps the history answers bit for bit as the fresh
query (A, B and B, A, each against its own fresh query), with the torus, the star or both turned, and with a scaled
(not orthonormal) turn, which keeps the pair frame's hierarchy.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.contact import Status
from core.mesh.bvh import box_lower_bound, pair_lower_bound
from core.mesh.coherence import Route, _pruning_frame
from core.mesh.pair_frame import Frame
from core.mesh.tritri import triangle_triangle
from core.tolerances import Tolerances
from tests.core import mesh_corpus as mc
from tests.core.answers import assert_same_answer


def _pair(rng):
    torus = core.TriangleMesh(*mc.torus(1.0, 0.3, 32, 16))
    vb, tb, _, _ = mc.star(rng, 0.4, 0.2, 12, 6)
    return torus, core.TriangleMesh(vb, tb)


@pytest.mark.parametrize("far", [0.0, 1e4, 1e6])
def test_own_frame_bounds_hold_in_the_pair_frame(far):
    rng = np.random.default_rng(2131)
    torus, star = _pair(rng)
    for _ in range(4):
        centre = far * rng.normal(size=3)
        a = torus.moved(mc.affine(mc.random_rotation(rng), centre))
        b = star.moved(mc.affine(mc.random_rotation(rng), centre + rng.uniform(-1.2, 1.2, 3)))
        frame = Frame(a, b, Tolerances())
        wa, wb, allowance = _pruning_frame(frame)
        assert allowance > 0.0 and frame.sa._world is None  # the own frame taken: the torus not placed at all
        ia = np.repeat(np.arange(wa.local.sizes[0]), wb.local.sizes[0])
        ib = np.tile(np.arange(wb.local.sizes[0]), wa.local.sizes[0])
        na, nb = wa.node(0, ia), wb.node(0, ib)
        box = box_lower_bound(wa, na, wb, nb)
        bound = pair_lower_bound(wa, na, wb, nb, box) - allowance
        corners_a = frame.sa.vertices[frame.sa.local.bvh.leaf_triangles[ia]]
        corners_b = frame.sb.vertices[frame.sb.local.bvh.leaf_triangles[ib]]
        exact, _, _ = triangle_triangle(corners_a, corners_b)
        assert np.all(box - allowance <= exact) and np.all(bound <= exact)
        # the allowance is small beside the pair's size: the bounds still prune
        assert allowance < 1e-9 * max(frame.scale, float(np.abs(centre).max()))


@pytest.mark.parametrize("turned", ["torus", "star", "both", "scaled"])
def test_jumps_answer_as_fresh_with_the_own_frame(turned):
    rng = np.random.default_rng(2132)
    torus, star = _pair(rng)
    history, swapped = core.PairHistory(), core.PairHistory()
    apart = closest = 0
    for i in range(24):
        turn_a = mc.random_rotation(rng) if turned in ("torus", "both", "scaled") else None
        turn_b = mc.random_rotation(rng) if turned in ("star", "both") else None
        if turned == "scaled":
            turn_a = turn_a * np.array([1.0, 1.5, 0.8])
        a = torus.moved(mc.affine(turn_a, 1e3 + rng.uniform(-1.5, 1.5, 3)))
        b = star.moved(mc.affine(turn_b, np.full(3, 1e3)))
        want = core.collide(a, b, depth_interval=False)
        got = core.collide(a, b, history=history, depth_interval=False)
        mirrored = core.collide(b, a, history=swapped, depth_interval=False)
        assert_same_answer(got, want, i)
        mirror = core.collide(b, a, depth_interval=False)  # B's own frame side of the route, A and B swapped
        assert_same_answer(mirrored, mirror, (i, "swapped"))
        if i and want.status is Status.SEPARATED:
            apart += 1
            closest += history.route is Route.CLOSEST
    assert apart >= 8, apart
    assert closest >= 0.6 * apart, (closest, apart)
