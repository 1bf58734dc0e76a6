"""The pieces stage's cost controls (core/mesh/depth_cover.py, core/mesh/depth_pieces.py), on cases worked out
by hand.

- `_cannot_pay` bounds the covering from above by support values.  Pieces A = [-1, 1]^3 and B = [-0.5, 0.5]^3
  have the difference [-1.5, 1.5]^3: its covered radius is 1.5 (the inscribed ball), and along a unit u its
  support value is 1.5 |u|_1 (between 1.5 and 1.5 sqrt 3 = 2.598).  So the covering can never exceed 2.598: a
  floor of 2.7 cannot be reached (skip), a floor of 1.4 can (1.5 is reached: no skip).  A ball member of radius
  3 about the origin lifts every support to at least 3: then a floor of 2.7 may be reached (no skip).  Seeded
  random piece pairs: whenever the test says skip, the covering the differences' hulls give is not above the
  floor.
- The budget (`Work`, estimated work, not a clock): a budget already spent grows nothing (pieces_around returns no
  piece) and the same call without one grows the torus segment's piece; the growth charges the same work in every
  run; `stage_budget` is STAGE_SECONDS from STAGE_TRIANGLES up, in proportion
  below, never under STAGE_FLOOR of it.
- The differences' faces without a hull (`_facet_triangles`): on seeded random piece pairs, with the directions
  depth_cover.py gives them (spread ones, facet normals, cross products of edges), the region inside the planes
  is the same as the hull's on 20,000 points (none inside one and outside the other); a direction set missing
  faces leaves the surface open, and no triangulation is returned.
"""
from __future__ import annotations

import math

import numpy as np

import core.mesh.depth_cover as dc
import core.mesh.depth_pieces as dp
from core.mesh.depth_cover import Balls, covered_radius, minkowski_difference, stage_budget
from core.mesh.pair_frame import Side

from . import mesh_corpus as mc

N, M = 24, 8


def _cube(h):
    return np.array([[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)], float)


def test_cannot_pay_by_support_values():
    a, b = _cube(1.0), _cube(0.5)
    assert dc._cannot_pay([(a, b)], [], 2.7)
    assert not dc._cannot_pay([(a, b)], [], 1.4)
    # the hull's covering agrees: at most 1.5 (its cells hold a little less), above 1.4
    r, _ = covered_radius([minkowski_difference(a, b)], floor=1.4)
    assert 1.4 < r <= 1.5
    # another member reaching farther everywhere keeps the pieces in play
    ball = Balls(np.zeros((1, 3)), np.array([3.0]))
    assert not dc._cannot_pay([(a, b)], [ball], 2.7)
    assert dc._cannot_pay([(a, b)], [ball], 3.1)


def test_cannot_pay_never_skips_a_covering_above_the_floor():
    rng = np.random.default_rng(1919)
    for _ in range(40):
        a = rng.normal(size=(10, 3)) * rng.uniform(0.3, 1.5)
        b = rng.normal(size=(10, 3)) * rng.uniform(0.3, 1.5) + rng.normal(size=3) * 0.5
        m = minkowski_difference(a, b, holding=False)
        if m is None:
            continue
        found = covered_radius([m])
        if found is None:
            continue
        r = found[0]
        # just below what the hull covers: never skipped; far above every support value: skipped
        assert not dc._cannot_pay([(a, b)], [], r * (1.0 - 1e-6))
        far = float(np.max(np.linalg.norm(a[:, None] - b[None], axis=-1)))
        assert dc._cannot_pay([(a, b)], [], far * 1.01)


def _torus_side():
    import core

    v, t = mc.torus(1.0, 0.25, n=N, m=M)
    return Side(core.TriangleMesh(np.asarray(v, float), np.asarray(t, np.int64)), np.zeros(3)), v


def test_spent_budget_grows_nothing():
    side, _ = _torus_side()
    angle = math.radians(15.0 * 5.5)
    c = np.array([math.cos(angle), math.sin(angle), 0.0])
    spent = dp.Work(0.0)
    spent.spend(1.0)
    assert dp.pieces_around(side, c[None, :], 4.0, 1, work=spent) == []
    assert len(dp.pieces_around(side, c[None, :], 4.0, 1)) == 1
    first, second = dp.Work(1e12), dp.Work(1e12)
    dp.pieces_around(side, c[None, :], 4.0, 1, work=first)
    dp.pieces_around(side, c[None, :], 4.0, 1, work=second)
    assert first.spent > 0.0 and first.spent == second.spent


def test_stage_budget_scales_with_triangles():
    full = dc.STAGE_SECONDS
    assert stage_budget(dc.STAGE_TRIANGLES) == full
    assert stage_budget(10 * dc.STAGE_TRIANGLES) == full
    assert math.isclose(stage_budget(0), full * dc.STAGE_FLOOR)
    mid = int(dc.STAGE_TRIANGLES * (1.0 + dc.STAGE_FLOOR) / 2)
    assert math.isclose(stage_budget(mid), full * mid / dc.STAGE_TRIANGLES)



def _directions(a, b):
    from core.mesh.depth_pieces import edges, facet_normals
    from core.rows import fibonacci_directions

    na, nb = facet_normals(a), facet_normals(b)
    ea, eb = edges(a, na), edges(b, nb)
    cross = np.cross(ea[:, None], eb[None]).reshape(-1, 3)
    length = np.linalg.norm(cross, axis=1)
    cross = cross[length > 1e-6] / length[length > 1e-6][:, None]
    return np.concatenate([fibonacci_directions(128), na, -nb, cross, -cross])


def test_faces_without_a_hull_give_the_hulls_region():
    rng = np.random.default_rng(2024)
    box = np.array([[x, y, z] for x in (0, 1) for y in (0, 2) for z in (0, 1.5)], float)
    fast = 0
    for trial in range(20):
        a = box + rng.normal(size=3) if trial % 3 == 0 else rng.normal(size=(14, 3))
        b = rng.normal(size=(12, 3)) * 0.7
        directions = _directions(a, b)
        d = np.unique((a[:, None] - b[None]).reshape(-1, 3), axis=0)
        tri = dc._facet_triangles(d, directions, dc.FACE_HAIR * 5.0)
        fast += tri is not None
        m = minkowski_difference(a, b, directions=directions, holding=False)
        hull = minkowski_difference(a, b, holding=False)
        pts = rng.uniform(-4.0, 4.0, size=(20000, 3))
        inside = np.all(pts @ m.normals.T <= m.offsets, axis=1)
        assert np.array_equal(inside, np.all(pts @ hull.normals.T <= hull.offsets, axis=1))
    assert fast >= 15
    # without the cross products of edges, the edge-edge faces are missing: the surface does not close
    a, b = rng.normal(size=(14, 3)), rng.normal(size=(12, 3))
    from core.mesh.depth_pieces import facet_normals
    d = np.unique((a[:, None] - b[None]).reshape(-1, 3), axis=0)
    assert dc._facet_triangles(d, np.concatenate([facet_normals(a), -facet_normals(b)]), dc.FACE_HAIR * 5.0) is None
