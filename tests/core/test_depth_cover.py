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


def _cube_and_far_tetrahedron():
    """A closed mesh of two parts: the unit cube [0, 1]^3 and, beyond x = 3, a tetrahedron with a face in the
    plane x + y = 1.9 (corners (3, -1.1, 0), (3, -1.1, 1), (4, -2.1, 0.5); fourth corner (4, -1.1, 0.5)).  That
    plane slices the cube's corner x + y > 1.9 off, though the face itself is far away."""
    from .mesh_corpus import box

    cv, ct = box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    tv = np.array([[3.0, -1.1, 0.0], [3.0, -1.1, 1.0], [4.0, -2.1, 0.5], [4.0, -1.1, 0.5]])
    tt = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])
    return core.TriangleMesh(np.concatenate([cv, tv]), np.concatenate([ct, tt + len(cv)]))


def test_pruned_planes_drop_a_far_face_that_would_cut():
    """About p = (.5, .5, .5) in the whole pair's box: cut by every plane, the inner polytope loses the cube's
    corner x + y > 1.9 (its largest x + y is 1.9); the pruned planes drop the tetrahedron's faces (each wholly
    beyond the cube's face x = 1, nearer to p), so the polytope is the whole cube (largest x + y: 2), and still
    inside it."""
    from core.mesh import depth_interval
    from core.mesh.pair_frame import Frame

    mesh = _cube_and_far_tetrahedron()
    frame = Frame(mesh, mesh, core.DEFAULT_TOLERANCES)
    side = frame.sa
    p = np.array([0.5, 0.5, 0.5]) - frame.origin
    planes = depth_interval._triangle_planes(side)
    half = float(frame.scale)
    full = depth_interval.inner_polytope(side, planes, p, half, frame.scale) + frame.origin
    kept = depth_cover.pruned(side, planes, p, half, frame.scale)
    assert kept[0].shape[0] == 12  # the cube's own triangles
    grown = depth_interval.inner_polytope(side, kept, p, half, frame.scale) + frame.origin
    assert (full[:, 0] + full[:, 1]).max() == pytest.approx(1.9, abs=1e-8)
    assert (grown[:, 0] + grown[:, 1]).max() == pytest.approx(2.0, abs=1e-8)
    assert np.all(grown >= -1e-12) and np.all(grown <= 1.0 + 1e-12)


def test_pruned_planes_keep_a_face_beside_the_nearest():
    """A triangle that only touches a kept plane (shares its edge) is not beyond it, so it is kept: on the cube
    alone nothing is dropped."""
    from core.mesh import depth_interval
    from core.mesh.pair_frame import Frame
    from .mesh_corpus import box

    mesh = core.TriangleMesh(*box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    frame = Frame(mesh, mesh, core.DEFAULT_TOLERANCES)
    planes = depth_interval._triangle_planes(frame.sa)
    kept = depth_cover.pruned(frame.sa, planes, np.array([0.3, 0.6, 0.5]) - frame.origin, 2.0, frame.scale)
    assert kept[0].shape[0] == 12


def test_folded_hull_surface_is_retried(monkeypatch):
    """A triangulation with a point of the cloud far above a face (a fold) is not used as it is: the difference
    is rebuilt from the surface's own vertices.  The pieces: the cube [-1, 1]^3 and the point 0, so the difference
    is the cube (radius 1 along the axes).  The first hull handed back is the cube with its corner (1, 1, 1) folded
    in to (-0.5, -0.5, -0.5) (an extra point of the cloud): the origin is then outside some of its faces."""
    from core import hull as real

    va = np.concatenate([_corners((-1, -1, -1), (1, 1, 1)), [[-0.5, -0.5, -0.5]]])
    vb = np.zeros((1, 3))
    good = real.convex_hull(va[:8])
    top = 7  # (1, 1, 1) in _corners' order
    folded = np.where(good[1] == top, 8, good[1])
    calls = []

    def fake(points):
        calls.append(points.shape[0])
        if len(calls) == 1:
            return np.arange(9), folded
        return real.convex_hull(points)

    monkeypatch.setattr(depth_cover, "convex_hull", fake)
    m = minkowski_difference(va, vb)
    assert calls == [9, 9]
    assert m is not None
    u = np.array([[1.0, 0, 0], [-1.0, 0, 0], [0, 0, 1.0]])
    assert m.radial(u)[0] == pytest.approx([1.0, 1.0, 1.0], rel=1e-7)


def test_cut_pair_keeps_a_large_piece_against_a_small_one():
    """Against a piece of 8 vertices the other keeps up to DIFFERENCE_POINTS / 8 of its own (more than
    PIECE_VERTICES); of two large pieces the first is cut to PIECE_VERTICES and the other to DIFFERENCE_POINTS / 32."""
    rng = np.random.default_rng(4)
    sphere = rng.normal(size=(400, 3))
    sphere /= np.linalg.norm(sphere, axis=1)[:, None]
    small = _corners((-1, -1, -1), (1, 1, 1))
    a, b = depth_cover._cut_pair(small, sphere)
    assert a.shape[0] == 8 and depth_cover.PIECE_VERTICES < b.shape[0] <= depth_cover.DIFFERENCE_POINTS // 8
    a, b = depth_cover._cut_pair(sphere, sphere[::-1])
    assert a.shape[0] <= depth_cover.PIECE_VERTICES and b.shape[0] <= depth_cover.DIFFERENCE_POINTS // a.shape[0]
    assert a.shape[0] * b.shape[0] <= depth_cover.DIFFERENCE_POINTS
