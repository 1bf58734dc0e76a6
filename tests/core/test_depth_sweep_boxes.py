"""core/mesh/depth_sweep.py's directional depth is exact on two overlapping boxes, along any direction.

Worked by hand (tests/core/depth_cases.py `box_free_length`): B moved by t d is first free at the least t at which
the boxes' ranges along some axis meet in at most a point.  The sweep sees only the triangles (every pair handed to
it), and its first candidate along d from 0 must be that t; the boxes have equal widths in x and y, so B never sits
inside A and the crossing never pauses.  Below that length it finds none."""
from __future__ import annotations

import numpy as np

from .depth_cases import box_free_length, box_pair_sweep

LO_A, HI_A = np.zeros(3), np.ones(3)
LO_B, HI_B = np.array([0.6, 0.2, -0.3]), np.array([1.6, 1.2, 0.5])


def test_box_sweep_depth_matches_hand_values():
    sweep = box_pair_sweep(LO_A, HI_A, LO_B, HI_B)
    rng = np.random.default_rng(7)
    directions = rng.normal(size=(60, 3))
    directions = np.concatenate([directions, np.eye(3), -np.eye(3), [[1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]]])
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    got = sweep.depths(directions, 0.0, np.inf)[:, 0]
    want = np.array([box_free_length(LO_A, HI_A, LO_B, HI_B, d) for d in directions])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    for d, t in zip(directions, want):
        assert np.isinf(sweep.depths(d, 0.0, 0.99 * t)[0, 0])
