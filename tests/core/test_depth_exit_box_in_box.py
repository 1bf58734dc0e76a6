"""core/mesh/depth_exit.py's bound on a box held inside a box, worked by hand.

B inside A, both axis-aligned boxes: a move of B leaves the interiors disjoint exactly when B's range along some
axis k ends up beyond A's, so the depth is the least over the six faces of how far B's trailing face is from A's
face ahead: min_k min(hi_a[k] - lo_b[k], hi_b[k] - lo_a[k]) (a diagonal move only adds length).  Here that is
0.5, along +x.  The bound must reach the goal below it (the inner box's trailing corners exit along a face normal
exactly), and, asked to certify past the depth, must stop at or below it: it never claims a move it cannot see
as too short.  Both orders of the pair (the inner box is A or B) read the same."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.depth_exit import GOAL, exit_bound
from core.mesh.pair_frame import Frame

from .meshes import box, mesh

LO_A, HI_A = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])
LO_B, HI_B = np.array([0.5, -0.6, -0.2]), np.array([0.9, 0.3, 0.4])
DEPTH = min(float(np.min(HI_A - LO_B)), float(np.min(HI_B - LO_A)))


def _frame(inner_first):
    outer, inner = mesh(box(LO_A, HI_A)), mesh(box(LO_B, HI_B))
    pair = (inner, outer) if inner_first else (outer, inner)
    return Frame(*pair, core.DEFAULT_TOLERANCES)


def test_hand_worked_depth():
    assert DEPTH == pytest.approx(0.5)


@pytest.mark.parametrize("inner_first", [False, True])
def test_bound_reaches_the_goal_below_the_depth(inner_first):
    frame = _frame(inner_first)
    found = exit_bound(frame.sa, frame.sb, frame.scale, 0.0, DEPTH)
    assert found is not None
    assert found[0] == pytest.approx((1.0 - GOAL) * DEPTH, rel=1e-9)


@pytest.mark.parametrize("inner_first", [False, True])
def test_bound_never_passes_the_depth(inner_first):
    frame = _frame(inner_first)
    found = exit_bound(frame.sa, frame.sb, frame.scale, 0.0, 1.5 * DEPTH, max_work=4_000_000)
    assert found is not None
    assert 0.9 * DEPTH < found[0] <= DEPTH
