"""core/mesh/depth_sweep.py's directional depth is exact on two overlapping boxes, along any direction.

Worked by hand: two axis-aligned boxes have disjoint interiors exactly when their ranges along some axis k meet in
at most a point, so B moved by t d (unit d) first comes free at min over k of t_k, with
t_k = (hiA_k - loB_k) / d_k for d_k > 0 and (loA_k - hiB_k) / d_k for d_k < 0 (the k with d_k = 0 never free).
The sweep sees only the triangles; every pair of the two boxes is handed to it, and its first candidate along d
from 0 must be that t (the boxes have equal widths in x and y, so B never sits inside A and the crossing never
pauses)."""
from __future__ import annotations

import numpy as np

from core.mesh.depth_sweep import Sweep

from .meshes import box

LO_A, HI_A = np.zeros(3), np.ones(3)
LO_B, HI_B = np.array([0.6, 0.2, -0.3]), np.array([1.6, 1.2, 0.5])


def _hand_depth(d):
    t = []
    for k in range(3):
        if d[k] > 0.0:
            t.append((HI_A[k] - LO_B[k]) / d[k])
        elif d[k] < 0.0:
            t.append((LO_A[k] - HI_B[k]) / d[k])
    return min(t)


def test_box_sweep_depth_matches_hand_values():
    va, ta = box(LO_A, HI_A)
    vb, tb = box(LO_B, HI_B)
    ia, ib = np.meshgrid(np.arange(len(ta)), np.arange(len(tb)), indexing="ij")
    sweep = Sweep(va[ta[ia.ravel()]], vb[tb[ib.ravel()]], 2.0)
    rng = np.random.default_rng(7)
    directions = rng.normal(size=(60, 3))
    directions = np.concatenate([directions, np.eye(3), -np.eye(3), [[1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]]])
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    got = sweep.depths(directions, 0.0, np.inf)[:, 0]
    want = np.array([_hand_depth(d) for d in directions])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    # below a bound it is not found (none shorter than `upper` exists)
    for d, t in zip(directions, want):
        assert np.isinf(sweep.depths(d, 0.0, 0.99 * t)[0, 0])
