"""core/mesh/depth_sweep.py's directional depth of a box held inside another (no surfaces cross as placed) is the
length at which it has wholly left, not the stretch before the surfaces first cross (still held: not free).

Worked by hand: A = [0,4]^3 holds B = [1,2]x[1.5,2.5]x[0.5,3]; two axis-aligned boxes have disjoint interiors
exactly when their ranges along some axis k meet in at most a point, so B moved by t d (unit d) is free from
min over k of t_k, t_k = (hiA_k - loB_k) / d_k for d_k > 0 and (loA_k - hiB_k) / d_k for d_k < 0.  Until B's
leading face reaches A's wall nothing crosses, yet B is inside: a sweep told the pair is `held` offers no candidate
there."""
from __future__ import annotations

import numpy as np

from core.mesh.depth_sweep import Sweep

from .meshes import box

LO_A, HI_A = np.zeros(3), np.full(3, 4.0)
LO_B, HI_B = np.array([1.0, 1.5, 0.5]), np.array([2.0, 2.5, 3.0])


def _hand_exit(d):
    t = []
    for k in range(3):
        if d[k] > 0.0:
            t.append((HI_A[k] - LO_B[k]) / d[k])
        elif d[k] < 0.0:
            t.append((LO_A[k] - HI_B[k]) / d[k])
    return min(t)


def test_held_box_leaves_at_the_hand_length():
    va, ta = box(LO_A, HI_A)
    vb, tb = box(LO_B, HI_B)
    ia, ib = np.meshgrid(np.arange(len(ta)), np.arange(len(tb)), indexing="ij")
    sweep = Sweep(va[ta[ia.ravel()]], vb[tb[ib.ravel()]], 4.0 * np.sqrt(3.0), held=True)
    rng = np.random.default_rng(11)
    directions = np.concatenate([rng.normal(size=(40, 3)), np.eye(3), -np.eye(3)])
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    got = sweep.depths(directions, 0.0, np.inf)[:, 0]
    want = np.array([_hand_exit(d) for d in directions])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
