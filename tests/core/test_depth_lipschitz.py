"""The Lipschitz covering of translation space (core/mesh/depth_lipschitz.py): a certified lower bound of the
translational penetration depth, on boxes whose depth is known in closed form, and never above it.

Hand-worked cases (translations t of B; the overlapping ones form the open box of t where B + t and A share
interior, i.e. the Minkowski difference of the two boxes):
- side by side: A = [0, 2]^3, B = [1.8, 3] x [0.5, 1.5]^2.  B + t meets A's interior iff -3 < t_x < 0.2,
  -1.5 < t_y < 1.5, -1.5 < t_z < 1.5: the nearest face is t_x = 0.2, so PD = 0.2 (B moved by +0.2 x touches).
- a cube inside a wall: A = [0, 10]^2 x [0, 1], B = [4, 4.5]^2 x [0.3, 0.8] (B wholly inside A).  Overlapping iff
  -4.5 < t_x, t_y < 6 and -0.8 < t_z < 0.7: PD = 0.7 (up).
The search is given a lower end and an upper end U realised by a free move (B moved by U = 0.21 along +x, resp.
U = 0.73 along +z, is free), so it must stop at the true depth by itself: no cell beyond PD may be certified.
Without the margin of the cell's size (a cell counted as soon as its centre overlaps) the coarse cells reaching
across the free set are certified and the bound overshoots PD: the third test shows it, and the first fails on
such a version (checked).  The rounding allowance (1e-9 of the size) is not shown necessary here: the finest
cells (1e-3 of U) are far coarser than the rounding."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import depth_cover, depth_interval, depth_lipschitz
from core.mesh.depth_lipschitz import lipschitz_bound
from core.mesh.pair_frame import Frame

from .meshes import box


def _pair(a_box, b_box):
    a = core.TriangleMesh(*box(*a_box))
    b = core.TriangleMesh(*box(*b_box))
    frame = Frame(a, b, core.DEFAULT_TOLERANCES)
    # seeds: a grid over the boxes' overlap (pair frame)
    lo = np.maximum(a_box[0], b_box[0]) - frame.origin
    hi = np.minimum(a_box[1], b_box[1]) - frame.origin
    t = (np.arange(5) + 0.5) / 5
    grid = np.stack(np.meshgrid(t, t, t, indexing="ij"), axis=-1).reshape(-1, 3)
    return frame, lo + grid * (hi - lo)


SIDE = (((0.0, 0.0, 0.0), (2.0, 2.0, 2.0)), ((1.8, 0.5, 0.5), (3.0, 1.5, 1.5)), 0.2, 0.21)
WALL = (((0.0, 0.0, 0.0), (10.0, 10.0, 1.0)), ((4.0, 4.0, 0.3), (4.5, 4.5, 0.8)), 0.7, 0.73)


def _bound(case, lower, margin=True, queries=200_000):
    a_box, b_box, depth, upper = case
    frame, seeds = _pair(a_box, b_box)
    return lipschitz_bound(frame.sa, frame.sb, seeds, frame.scale, lower, upper, max_queries=queries,
                           finest=5e-3, margin=margin)


@pytest.mark.parametrize("case, lower", [(SIDE, 0.1), (WALL, 0.3)], ids=["side by side", "cube inside a wall"])
def test_bound_reaches_the_depth_and_not_beyond(case, lower):
    depth = case[2]
    found = _bound(case, lower)
    assert found is not None
    r, centre, direction = found
    assert depth * (1.0 - 1e-2) <= r <= depth
    # the covering stops against the nearest face of the free set: +x beside, +z in the wall
    assert abs(direction[0 if case is SIDE else 2]) > 0.9


def test_without_the_margin_the_bound_overshoots():
    """A cell counted because its centre overlaps reaches across the face t_x = 0.2: the version without the
    circumradius margin claims more than the true depth."""
    r, _, _ = _bound(SIDE, 0.1, margin=False, queries=20_000)
    assert r > 0.2 * 1.02


def test_no_raise_without_a_point_inside_both():
    """Seeds outside either solid: nothing is claimed."""
    a_box, b_box, _, upper = SIDE
    frame, _ = _pair(a_box, b_box)
    outside = np.array([[10.0, 10.0, 10.0]]) - frame.origin
    assert lipschitz_bound(frame.sa, frame.sb, outside, frame.scale, 0.1, upper) is None


def test_interval_stage_raises_a_wide_lower_end(monkeypatch):
    """Through core.collide on the depth corpus's chain links 3 (crossing links, a wide interval before this
    stage): the stage narrows it, and the lower end stays below every separating move the brute-force search of
    tests/core/depth_oracle.py finds."""
    from tests.core.depth_corpus import make_case
    from tests.core.depth_oracle import Judge, lower_bound_ok, search_moves

    case = make_case("chain", 3)
    a, b = case.a.build(), case.b.build()
    # the covering's vertex-hull pieces alone narrow this pair already: without them the stage is what narrows it
    monkeypatch.setattr(depth_cover, "PIECE_TRIANGLES", 0)
    monkeypatch.setattr(depth_interval, "LIPSCHITZ_WIDER", np.inf)
    without = core.collide(a, b)
    monkeypatch.setattr(depth_interval, "LIPSCHITZ_WIDER", depth_lipschitz.WIDER)
    contact = core.collide(a, b)
    assert contact.status is core.Status.INTERSECTING
    assert contact.depth > without.depth * (1.0 + 1e-2)
    assert contact.depth + contact.gap == pytest.approx(without.depth + without.gap, rel=1e-12)
    assert lower_bound_ok(contact, search_moves(Judge(case), a, b, contact))
    # the witness convention of core/contact.py: point_a - point_b = depth * normal
    assert np.allclose(np.asarray(contact.point_a) - np.asarray(contact.point_b), contact.depth * contact.normal,
                       atol=1e-9 * (contact.depth + contact.gap))
