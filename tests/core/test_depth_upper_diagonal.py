"""The depth interval's upper end finds a separating move along a direction none of its candidate directions gives
(core/mesh/depth_sweep.py's search over directions): a tall box sunk into the inner corner of an L prism.

Worked by hand.  A = the L prism [0,2]x[0,1]x[0,1] united with [0,1]x[1,2]x[0,1]; B = the box
[0.7,1.5]x[0.7,1.5]x[-1,2], 0.3 into both arms at the L's inner corner (1, 1).  B moved by (u, v, w) is free of the
lower arm when v >= 0.3, u >= 1.3, u <= -1.5, v <= -1.5 or |w| >= 2, and of the upper arm ([0,1]x[1,2]) when
u >= 0.3, v >= 1.3, u <= -1.5, v <= -1.5 or |w| >= 2.  The shortest move free of both is (0.3, 0.3, 0): length
0.3 sqrt(2) = 0.42426..., along the corner's diagonal; the ball bound's and the hulls' directions are not that
diagonal (the bisections along them answered about 0.451).  So U must be 0.3 sqrt(2) up to rounding, and B moved
by `separation` must leave the boxes' interiors disjoint (checked here box against box, by hand's rule: two
axis-aligned boxes have disjoint interiors when their ranges meet in at most a point along some axis)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import Status

from .meshes import box, l_shape, mesh, translate

PD = 0.3 * np.sqrt(2.0)
ARMS = (((0.0, 0.0, 0.0), (2.0, 1.0, 1.0)), ((0.0, 1.0, 0.0), (1.0, 2.0, 1.0)))
B_BOX = ((0.7, 0.7, -1.0), (1.5, 1.5, 2.0))


def _disjoint(lo1, hi1, lo2, hi2, slack) -> bool:
    return any(hi1[k] <= lo2[k] + slack or hi2[k] <= lo1[k] + slack for k in range(3))


@pytest.mark.parametrize("offset, swap", [((0.0, 0.0, 0.0), False), ((1e4, -2e4, 3e4), True)])
def test_box_in_the_l_corner_leaves_along_the_diagonal(offset, swap):
    offset = np.asarray(offset, float)
    a = mesh(translate(l_shape(), offset))
    b = mesh(translate(box(*B_BOX), offset))
    contact = core.collide(b, a).swapped() if swap else core.collide(a, b)
    assert contact.status is Status.INTERSECTING
    move = np.asarray(contact.separation, float)
    upper = contact.depth + contact.gap
    rounding = 1e-9 * (1.0 + float(np.abs(offset).max()))
    assert contact.depth <= PD + rounding
    assert np.linalg.norm(move) == pytest.approx(upper, rel=1e-9, abs=rounding)
    # no separating move is shorter than PD, and the search reaches it (the bisections alone stopped 6 % above)
    assert PD - rounding - contact.touching_tolerance <= upper <= PD * (1.0 + 1e-6) + rounding
    np.testing.assert_allclose(move, [0.3, 0.3, 0.0], atol=1e-5)
    # B moved by the separation is free of both arms (by the boxes), and the engine re-checks it not intersecting
    lo_b, hi_b = np.array(B_BOX[0]) + move, np.array(B_BOX[1]) + move
    slack = contact.touching_tolerance + rounding
    for lo_a, hi_a in ARMS:
        assert _disjoint(np.array(lo_a), np.array(hi_a), lo_b, hi_b, slack)
    shift = np.eye(4)
    shift[:3, 3] = move
    assert core.collide(a, b.moved(shift @ b.transform)).status is not Status.INTERSECTING
