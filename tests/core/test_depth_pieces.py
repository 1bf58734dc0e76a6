"""Convex pieces grown from a closed mesh's vertices and certified inside it (core/mesh/depth_pieces.py), and the
covering bound they give (core/mesh/depth_cover.py), on cases worked out by hand.

- A torus (major 1, minor 0.25, 24 segments around, 8 around the tube): ring j is the tube's cross-section at
  angle 15 j degrees (vertex k * 24 + j for the tube's k-th profile point).  The quads between two consecutive
  rings are planar (each is symmetric about the plane halfway between the rings), so the solid between rings j and
  j + 1 is exactly the hull of their 16 vertices; the hull of rings j, j + 1, j + 2 is not inside: its edge from
  ring j's to ring j + 2's inner equator vertex passes at radius 0.75 cos 15 deg = 0.724 < 0.75 from the axis, in
  the hole.  From the point on the tube's central circle halfway between rings j and j + 1, the two rings' vertices
  lie within 0.29 and every other vertex farther than 0.42, so the grown piece is those two rings.
- An L prism A (the corpus's hook: the bar [0, 3] x [0, 1], the arm [2, 3] x [0, 3], z in [0, 0.4], caps fanned
  from the inner corner (2, 1)) and a box B = [2.5, 3.5] x [1.5, 2.5] x [-1, 2] through the arm's outer face.
  Moving B by t along +x frees it at t = 0.5 (B then lies at x >= 3); along -x it must pass x = 2 (1.5), along
  +-y it must leave the arm's y in [0, 3] or, going down, also the bar (1.5 and 2.5), along +-z it must clear
  the prism's 0.4 from a box 3 tall (2 and 1.4).  The depth is 0.5, along +x.  A is the union of two vertex
  hulls (the bar's trapezoid (0, 0), (3, 0), (2, 1), (0, 1) and the arm's quadrilateral (2, 1), (3, 0), (3, 3),
  (2, 3), each extruded); the arm's piece minus B reaches 0.5 along +x and farther elsewhere, so the cover holds
  0.5.  A ball inside both is at most 0.2 (half the prism's thickness) plus 0.25 (B's half-width where it is in
  the arm, x in [2.5, 3]): 0.45, so the balls alone cannot reach it.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from core.mesh.depth_cover import covered_radius, minkowski_difference
from core.mesh.depth_pieces import certify, grow_piece, pieces_around
from core.mesh.pair_frame import Side

from . import mesh_corpus as mc

N, M = 24, 8
MAJOR, MINOR = 1.0, 0.25


def _side(v, t):
    import core

    return Side(core.TriangleMesh(np.asarray(v, float), np.asarray(t, np.int64)), np.zeros(3))


def _torus():
    v, t = mc.torus(MAJOR, MINOR, n=N, m=M)
    return _side(v, t), v


def _ring(v, j):
    return v[np.arange(M) * N + j % N]


def _matched(points, vertices):
    """For each of `points`, the index of the vertex within 1e-6 of it (-1 if none)."""
    d = np.sqrt(((points[:, None, :] - vertices[None, :, :]) ** 2).sum(-1))
    return np.where(d.min(axis=1) < 1e-6, d.argmin(axis=1), -1)


def test_torus_segment_piece_is_the_hull_of_two_rings():
    side, v = _torus()
    j = 5
    angle = math.radians(15.0 * (j + 0.5))
    c = MAJOR * np.array([math.cos(angle), math.sin(angle), 0.0])
    world = side.world
    count = world.leaf_corners.shape[0]
    grown = grow_piece(side.vertices, world.leaf_corners, world.lo[:count], world.hi[:count], c, 4.0)
    assert grown is not None
    points = grown[0]
    which = _matched(points, v)
    expected = set((np.arange(M) * N + j).tolist()) | set((np.arange(M) * N + j + 1).tolist())
    assert set(which[which >= 0].tolist()) == expected
    assert np.count_nonzero(which < 0) == 1 and np.allclose(points[which < 0][0], c)
    # and certified inside, with its pulled-in points within a hair of the rings
    built = pieces_around(side, c[None, :], 4.0, 1)
    assert len(built) == 1
    pts = built[0][0]
    assert pts.shape[0] == 17
    assert np.all(np.abs(pts[_matched(pts, v) >= 0] - v[_matched(pts, v)[_matched(pts, v) >= 0]]) < 1e-6)


def test_two_rings_certified_three_refused():
    side, v = _torus()
    two = np.vstack([_ring(v, 3), _ring(v, 4)])
    three = np.vstack([_ring(v, 3), _ring(v, 4), _ring(v, 5)])
    assert certify(side, two, 4.0) is not None
    assert certify(side, three, 4.0) is None
    # the hull of three rings leaves the solid where said: the chord between the inner equator vertices of
    # rings 3 and 5 passes at 0.75 cos 15 deg from the axis
    inner = v[(M // 2) * N + np.array([3, 5])]
    mid = inner.mean(axis=0)
    assert math.hypot(mid[0], mid[1]) == pytest.approx(0.75 * math.cos(math.radians(15.0)), rel=1e-9)


def test_ring_pair_outside_the_solid_is_refused():
    """Two rings on opposite sides of the torus: their hull spans the hole."""
    side, v = _torus()
    assert certify(side, np.vstack([_ring(v, 0), _ring(v, 12)]), 4.0) is None


HOOK = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (0, 1)]


def _hook_and_box():
    a = _side(*mc.prism(HOOK, 0.0, 0.4, fan_from=4))
    b = _side(*mc.box((2.5, 1.5, -1.0), (3.5, 2.5, 2.0)))
    return a, b


def test_l_prism_splits_into_bar_and_arm():
    a, _ = _hook_and_box()
    built = pieces_around(a, np.array([[2.5, 2.0, 0.2], [1.0, 0.5, 0.2]]), 6.0, 4)
    assert len(built) == 2
    arm, bar = (np.round(p[0][:, :2], 6) for p in built)
    assert {tuple(x) for x in arm} >= {(2.0, 1.0), (3.0, 0.0), (3.0, 3.0), (2.0, 3.0)}
    assert {tuple(x) for x in bar} >= {(0.0, 0.0), (3.0, 0.0), (2.0, 1.0), (0.0, 1.0)}
    # neither takes the other's far corners (the hull of the L is not inside it)
    assert (0.0, 0.0) not in {tuple(x) for x in arm} and (2.0, 3.0) not in {tuple(x) for x in bar}


def test_pieces_cover_the_hooked_box_to_its_depth():
    a, b = _hook_and_box()
    pieces_a = pieces_around(a, np.array([[2.5, 2.0, 0.2], [1.0, 0.5, 0.2]]), 6.0, 4)
    pieces_b = pieces_around(b, np.array([[3.0, 2.0, 0.5]]), 6.0, 4)
    assert len(pieces_b) == 1 and pieces_b[0][0].shape[0] >= 8  # the box whole
    differences = [minkowski_difference(pa[0], pb[0]) for pa in pieces_a for pb in pieces_b]
    found = covered_radius(differences)
    assert found is not None
    r, u = found
    assert 0.5 * (1.0 - 5e-3) <= r <= 0.5
    assert u[0] > 0.99
    # the bar's piece alone misses B (their difference does not hold the origin)
    assert differences[1] is None


def _box_member(lo, hi, holding=True):
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])], float)
    return minkowski_difference(corners, np.zeros((1, 3)), holding=holding)


def test_chain_of_shells_follows_members_that_miss_the_origin():
    """M0 = [-1, 1]^3 holds the origin; for each axis direction +-e_i, the box {0.5 <= +-x_i <= 3, |x_j| <= 3}
    does not.  Their union is [-3, 3]^3 (a point with some |x_i| >= 0.5 lies in the box of its largest
    coordinate), so the ball of radius 3 is held, though M0 alone holds only radius 1 and no box holds the
    origin: along u the chain runs from M0's [0, 1 / max |u_i|] into the box of the largest |u_i|, which starts at
    0.5 / max |u_i| and ends at 3 / max |u_i| >= 3 (exactly 3 along the axes)."""
    m0 = _box_member((-1, -1, -1), (1, 1, 1))
    assert _box_member((0.5, -3, -3), (3, 3, 3)) is None  # it misses the origin
    boxes = []
    for i in range(3):
        for sign in (1.0, -1.0):
            lo, hi = np.full(3, -3.0), np.full(3, 3.0)
            lo[i], hi[i] = (0.5, 3.0) if sign > 0 else (-3.0, -0.5)
            boxes.append(_box_member(lo, hi, holding=False))
    assert all(m is not None for m in boxes)
    alone = covered_radius([m0])
    assert alone[0] == pytest.approx(1.0, rel=5e-3) and alone[0] <= 1.0
    assert covered_radius(boxes) is None  # nothing starts a chain
    r, u = covered_radius([m0] + boxes)
    assert 3.0 * (1.0 - 5e-3) <= r <= 3.0
    assert np.max(np.abs(u)) > 0.99  # thinnest along an axis


def test_ball_interval_off_the_origin():
    """The ball of radius 1 about (2, 0, 0): the ray along +x enters at 1 and leaves at 3; along (1, 1, 0)/sqrt 2
    it passes sqrt 2 from the centre (a miss); along (cos 20°, sin 20°, 0) at 2 cos 20° -+ sqrt(1 - 4 sin² 20°)."""
    from core.mesh.depth_cover import Balls

    balls = Balls(np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), np.array([1.0, 1.0]))
    t = math.radians(20.0)
    u = np.array([[1.0, 0.0, 0.0], [1 / math.sqrt(2), 1 / math.sqrt(2), 0.0], [math.cos(t), math.sin(t), 0.0]])
    lo, hi = balls.interval(u)
    root = math.sqrt(1.0 - 4.0 * math.sin(t) ** 2)
    assert lo[0, 0] == pytest.approx(1.0, rel=1e-12) and hi[0, 0] == pytest.approx(3.0, rel=1e-12)
    assert lo[0, 1] > hi[0, 1]
    assert lo[0, 2] == pytest.approx(2 * math.cos(t) - root, rel=1e-12)
    assert hi[0, 2] == pytest.approx(2 * math.cos(t) + root, rel=1e-12)
    assert np.all(lo[1] == 0.0) and np.allclose(hi[1], 1.0)  # the one about the origin: [0, 1]


def test_centre_in_a_ring_plane_takes_the_ring_whole():
    """From the point of the central circle in ring j's own plane, ring j's 8 vertices (coplanar with it) come
    first: they are taken on trust while the set is flat, then the first vertices of rings j - 1 and j + 1
    make it three-dimensional; the piece keeps ring j whole and one neighbouring ring's side."""
    side, v = _torus()
    j = 7
    angle = math.radians(15.0 * j)
    c = MAJOR * np.array([math.cos(angle), math.sin(angle), 0.0])
    world = side.world
    count = world.leaf_corners.shape[0]
    points = grow_piece(side.vertices, world.leaf_corners, world.lo[:count], world.hi[:count], c, 4.0)[0]
    which = set(_matched(points, v).tolist())
    assert set((np.arange(M) * N + j).tolist()) <= which
    assert certify(side, points, 4.0) is not None
