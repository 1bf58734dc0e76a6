"""core/mesh/depth_sweep.py's directional depth of a box held inside another (no surfaces cross as placed) is the
length at which it has wholly left, not the stretch before the surfaces first cross (still held: not free).

Worked by hand (tests/core/depth_cases.py `box_free_length`): A = [0,4]^3 holds B = [1,2]x[1.5,2.5]x[0.5,3]; B
moved by t d is first free at the least t at which the boxes' ranges along some axis meet in at most a point.
Until B's leading face reaches A's wall nothing crosses, yet B is inside: a sweep told the pair is `held` offers
no candidate there."""
from __future__ import annotations

import numpy as np

from .depth_cases import box_free_length, box_pair_sweep

LO_A, HI_A = np.zeros(3), np.full(3, 4.0)
LO_B, HI_B = np.array([1.0, 1.5, 0.5]), np.array([2.0, 2.5, 3.0])


def test_held_box_leaves_at_the_hand_length():
    sweep = box_pair_sweep(LO_A, HI_A, LO_B, HI_B, held=True)
    rng = np.random.default_rng(11)
    directions = np.concatenate([rng.normal(size=(40, 3)), np.eye(3), -np.eye(3)])
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    got = sweep.depths(directions, 0.0, np.inf)[:, 0]
    want = np.array([box_free_length(LO_A, HI_A, LO_B, HI_B, d) for d in directions])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
