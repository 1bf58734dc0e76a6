"""core/mesh/depth_sweep.py's `polish` goes down a crease of the free moves to its corner: a tall box sunk into the
inner corner of an L prism (as tests/core/test_depth_upper_diagonal.py, worked by hand there).

A = the L prism [0,2]x[0,1]x[0,1] united with [0,1]x[1,2]x[0,1]; B = the box [0.7,1.5]x[0.7,1.5]x[-1,2].  Among
the moves (u, v, 0), those with u >= 0.3 and v >= 0.3 free B of both arms, and the shortest move of all is their
corner (0.3, 0.3, 0).  Along a direction near the diagonal the free length falls towards the corner only along the
crease u = v, so a search over directions creeps; the projection of the origin on the free half-spaces picked at a
free move lands on the corner in one step.  Starting from free moves on either face of the crease (and off the
plane z = 0), the polished move must be the corner up to rounding, and from the corner itself nothing shorter."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh.depth_sweep import Sweep, polish

from .meshes import box, l_shape

CORNER = np.array([0.3, 0.3, 0.0])


def _sweep():
    va, ta = l_shape()
    vb, tb = box((0.7, 0.7, -1.0), (1.5, 1.5, 2.0))
    ia, ib = np.meshgrid(np.arange(len(ta)), np.arange(len(tb)), indexing="ij")
    return Sweep(va[ta[ia.ravel()]], vb[tb[ib.ravel()]], 3.0)


@pytest.mark.parametrize("start", [(0.3, 0.7, 0.0), (0.9, 0.3, 0.0), (0.45, 0.35, 0.2), (0.3, 0.31, -0.05)])
def test_polish_reaches_the_corner(start):
    start = np.asarray(start, float)
    got = polish(_sweep(), start)
    assert got is not None
    np.testing.assert_allclose(got, CORNER, atol=1e-9)


def test_polish_finds_nothing_shorter_than_the_corner():
    got = polish(_sweep(), CORNER * (1.0 + 1e-12))
    assert got is None or np.linalg.norm(got) >= np.linalg.norm(CORNER) * (1.0 - 1e-9)
