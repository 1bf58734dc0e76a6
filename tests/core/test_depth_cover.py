"""The covering lower bound of the penetration depth (core/mesh/depth_cover.py): the radius of the ball about the
origin that a union of Minkowski differences is proved to hold, on cases worked out by hand, and never above a
separating move that a brute-force search finds on real mesh pairs.

Hand-worked cases:
- crossed slabs: pieces A1 = [-4, 4] x [-.5, .5] x [-4, 4] (8 corners), B1 = [-1, 1] x [-.5, .5] x [-1, 1] give
  M1 = [-5, 5] x [-1, 1] x [-5, 5]; the same turned a quarter about z gives M2 = [-1, 1] x [-5, 5] x [-5, 5].
  Along a unit u, M1 reaches min(1/|u_y|, 5/|u_x|, 5/|u_z|) and M2 the same with x and y swapped; the larger of
  the two is least along (±1, ±1, 0)/sqrt 2, where both reach sqrt 2.  Either slab alone holds only radius 1, and
  the cells across the diagonals are held by neither up to sqrt 2: they must be split.
- two balls of radius 2 centred at (±1, 0, 0): along u at angle θ from x the better reaches
  |cos θ| + sqrt(cos² θ + 3), least at θ = 90°: sqrt 3 (either alone: 1, along the other's side)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import depth_cover
from core.mesh.depth_cover import Balls, covered_radius, minkowski_difference

from . import depth_cases
from . import mesh_oracle as oracle
from .test_mesh_depth_interval import _best_oracle_move, _directions, _soup


def _corners(lo, hi):
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float)


def _slabs():
    m1 = minkowski_difference(_corners((-4, -0.5, -4), (4, 0.5, 4)), _corners((-1, -0.5, -1), (1, 0.5, 1)))
    m2 = minkowski_difference(_corners((-0.5, -4, -4), (0.5, 4, 4)), _corners((-0.5, -1, -1), (0.5, 1, 1)))
    return m1, m2


def test_box_difference_reaches_its_faces():
    """M1's radial function is the box's: 5 along x, 1 along y, sqrt 2 along (1, 1, 0)/sqrt 2 ... (less the
    rounding allowance only)."""
    m1, _ = _slabs()
    u = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, -1.0], [1 / np.sqrt(2), 1 / np.sqrt(2), 0]])
    assert m1.radial(u)[0] == pytest.approx([5.0, 1.0, 5.0, np.sqrt(2)], rel=1e-7)
    assert np.all(m1.radial(u)[0] <= [5.0, 1.0, 5.0, np.sqrt(2)])


def test_crossed_slabs_cover_radius_sqrt2():
    m1, m2 = _slabs()
    alone = [covered_radius([m])[0] for m in (m1, m2)]
    assert alone == pytest.approx([1.0, 1.0], rel=2e-3)
    assert max(alone) <= 1.0
    r, u = covered_radius([m1, m2])
    assert np.sqrt(2) * (1 - 3e-3) <= r <= np.sqrt(2)
    assert abs(u[0]) == pytest.approx(abs(u[1]), abs=0.05) and abs(u[2]) < 0.05


def test_cells_held_by_no_single_piece_are_split():
    """A small cell about the diagonal (1, 1, 0)/sqrt 2 (corners at 44 and 46 degrees in the xy-plane and one
    tilted up): each slab reaches sqrt 2 on the diagonal but less at one of the corners (1 / sin 46° or
    1 / cos 46°), so neither holds the cell up to sqrt 2; split in four, the halves on either side are held by one
    each.  And the refinement is what lifts the whole cover to sqrt 2."""
    m1, m2 = _slabs()
    a, b = np.radians(44.0), np.radians(46.0)
    cell = np.array([[np.cos(a), np.sin(a), 0.0], [np.cos(b), np.sin(b), 0.0], [0.7, 0.7, 0.14]])
    cell /= np.linalg.norm(cell, axis=1)[:, None]
    held = [float(m.radial(cell)[0].min()) for m in (m1, m2)]
    assert max(held) == pytest.approx(1.0 / np.sin(b), rel=1e-6) and max(held) < np.sqrt(2) * 0.99
    coarse, _ = covered_radius([m1, m2], rounds=0)
    fine, _ = covered_radius([m1, m2])
    assert coarse < fine and fine >= np.sqrt(2) * (1 - 3e-3)


def test_two_balls_cover_radius_sqrt3():
    balls = Balls(np.array([[1.0, 0, 0], [-1.0, 0, 0]]), np.array([2.0, 2.0]))
    r, u = covered_radius([balls])
    assert np.sqrt(3) * (1 - 3e-3) <= r <= np.sqrt(3)
    assert abs(u[0]) < 0.05
    # either ball alone: radius 1, thinnest away from its centre
    for k, sign in ((0, -1.0), (1, 1.0)):
        r1, u1 = covered_radius([Balls(balls.centres[k:k + 1], balls.radii[k:k + 1])])
        assert r1 == pytest.approx(1.0, rel=2e-3) and r1 <= 1.0
        assert u1[0] == pytest.approx(sign, abs=0.05)


def test_ball_radial_function_without_cancellation():
    """The origin just inside a ball's surface: the reach back through it is R^2 - |c|^2 over the long chord,
    not a difference of nearly equal numbers."""
    c = np.array([[1.0 - 1e-9, 0, 0]])
    balls = Balls(c, np.array([1.0]))
    s = balls.radial(np.array([[-1.0, 0, 0], [1.0, 0, 0]]))[0]
    assert s[0] == pytest.approx(1e-9, rel=1e-6)
    assert s[1] == pytest.approx(2.0 - 1e-9, rel=1e-12)


def test_floor_drops_what_cannot_beat_it():
    m1, m2 = _slabs()
    assert covered_radius([m1, m2], floor=1.5) is None
    assert covered_radius([m1, m2], floor=1.3)[0] > 1.3


def test_disjoint_pieces_give_no_difference():
    """Pieces that do not overlap: their difference does not hold the origin and is dropped."""
    assert minkowski_difference(_corners((0, 0, 0), (1, 1, 1)), _corners((2, 0, 0), (3, 1, 1))) is None


def test_medial_balls_lie_inside_their_mesh():
    """Every ball `_medial_balls` keeps lies in its solid: centre inside by the oracle's winding number, radius
    at most the oracle's distance to the surface."""
    from core.mesh.pair_frame import Frame

    a, b, _, _ = depth_cases.rod_across_torus_tube()
    frame = Frame(a, b, core.DEFAULT_TOLERANCES)
    rng = np.random.default_rng(3)
    for side, m in ((frame.sa, a), (frame.sb, b)):
        s = _soup(m)
        lo, hi = s.bounds()
        points = lo + rng.random((80, 3)) * (hi - lo) - frame.origin
        centres, radii = depth_cover._medial_balls(side, points, frame.scale, 1e-9 * frame.scale)
        assert centres.shape[0] >= 3
        world = centres + frame.origin
        assert np.all(np.abs(oracle.winding_number(s, world)) > 0.5)
        assert np.all(radii <= oracle.point_distance(s, world))


@pytest.mark.parametrize("name", ["bar through an L", "ball in a cup wall", "rod across a torus tube"])
def test_cover_bound_is_below_every_separating_move_found(name):
    """On a real pair the covering bound never exceeds a separating move a brute-force search finds."""
    from core.mesh import depth_interval
    from core.mesh.pair_frame import Frame

    a, b, low, high = depth_cases.NAMED[name]()
    frame = Frame(a, b, core.DEFAULT_TOLERANCES)
    rng = np.random.default_rng(5)
    lo = np.maximum(frame.sa.world.lo[-1], frame.sb.world.lo[-1])
    hi = np.minimum(frame.sa.world.hi[-1], frame.sb.world.hi[-1])
    seeds = lo + rng.random((128, 3)) * (hi - lo)
    found = depth_cover.cover_bound(frame.sa, frame.sb, seeds, frame.scale, 0.0, 2.0 * high,
                                    depth_interval.inner_polytope, depth_interval._triangle_planes)
    assert found is not None
    r, centre, u = found
    assert r <= high + 1e-9 * frame.scale, (r, high)
    best = _best_oracle_move(a, b, _directions(24), 2.0 * high)
    assert r <= best + 1e-9 * frame.scale, (r, best)
