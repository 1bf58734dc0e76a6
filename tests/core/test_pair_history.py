"""A query given a `core.PairHistory` answers bit for bit as the fresh query, along any sequence of poses.

The history (core/mesh/coherence.py) starts each query from the last one's crossing or closest triangle pairs and
takes its own shortcut only when it is sure of the fresh answer; this pins that it never changes a bit of it:
status, containment, distance, points, normal, gap, convergence flags and the crossing curve.  Seeded pose
sequences over non-convex meshes: small steps (a drag) from apart through touching and crossing and out again,
random jumps, turns, one mesh inside the other, an open mesh, a skewed transform, boxes resting face on face
(touching, where many triangle pairs tie), and the history passed on to another pair.  The oracle is the fresh
query itself (`core.collide` without a history), whose own answers the corpus tests check against exact ones; each
sequence of small moves must also take the history's shortcuts (the crossing, closest and frontier routes)
somewhere, else nothing was tested.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.coherence import Route
from tests.core import mesh_corpus as mc
from tests.core import meshes
from tests.core.answers import assert_same_answer


def _pose(rotation, offset):
    return mc.affine(rotation, offset)


def _run(a, b, poses, moving="b", history=None, max_distance=None, narrow=False):
    """Query every pose with one history and fresh; the routes the history took.  narrow: whether intersecting
    answers narrow their depth interval (core/mesh/depth_interval.py runs after the stages the history stands in
    for; the jumps test keeps it, the others skip its cost)."""
    history = core.PairHistory() if history is None else history
    routes = []
    for i, pose in enumerate(poses):
        pa, pb = (a.moved(pose), b) if moving == "a" else (a, b.moved(pose))
        got = core.collide(pa, pb, history=history, max_distance=max_distance, depth_interval=narrow)
        routes.append(history.route)
        want = core.collide(pa, pb, max_distance=max_distance, depth_interval=narrow)
        assert_same_answer(got, want, (i, history.route, want.status))
    return routes


def _drag(rng, start, end, steps, turn=0.0):
    """Poses from `start` to `end` in `steps` small steps, turning `turn` radians in all about a random axis."""
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    poses = []
    for s in np.linspace(0.0, 1.0, steps):
        angle = turn * s
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        rotation = np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)
        poses.append(_pose(rotation, (1 - s) * np.asarray(start) + s * np.asarray(end)))
    return poses


@pytest.mark.parametrize("seed", range(4))
def test_drag_through_and_out(seed):
    """Two noisy star meshes: a drag from apart, through touching and crossing, out the other side."""
    rng = np.random.default_rng([21, seed])
    va, ta, _, _ = mc.star(rng, 1.0, 0.15, 24, 12)
    vb, tb, _, _ = mc.star(rng, 0.7, 0.15, 16, 8)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    direction = rng.normal(size=3)
    direction /= np.linalg.norm(direction)
    routes = _run(a, b, _drag(rng, 3.0 * direction, -3.0 * direction, 40, turn=0.6))
    assert {Route.CROSSING, Route.CLOSEST, Route.FRONTIER} <= set(routes), routes


@pytest.mark.parametrize("seed", range(3))
def test_jumps(seed):
    """Random poses, each a jump from the last: apart, crossing, one inside the other."""
    rng = np.random.default_rng([22, seed])
    va, ta = mc.torus(1.0, 0.3, 24, 12)
    vb, tb, _, _ = mc.star(rng, 0.5, 0.2, 16, 8)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    poses = [_pose(mc.random_rotation(rng), rng.uniform(-1.8, 1.8, 3)) for _ in range(30)]
    # a seed that still crosses takes the crossing route; a jump apart is fresh.  The first seed also narrows the
    # intersecting answers' depth interval, after the stages the history stands in for
    _run(a, b, poses, narrow=seed == 0)


def test_small_steps_and_jumps_mixed():
    """A drag interrupted by jumps, moving the first argument; then the same history on the swapped pair."""
    rng = np.random.default_rng(23)
    va, ta, _, _ = mc.star(rng, 1.0, 0.2, 24, 12)
    vb, tb = mc.cup(n=16)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    poses = []
    for _ in range(3):
        start = rng.uniform(-2.0, 2.0, 3)
        poses += _drag(rng, start, start + rng.uniform(-1.0, 1.0, 3), 12, turn=0.3)
    history = core.PairHistory()
    routes = _run(a, b, poses, moving="a", history=history)
    assert Route.CROSSING in routes and Route.CLOSEST in routes, routes
    _run(b, a, poses[:12], moving="b", history=history)  # another argument order: the history starts afresh


def test_inside_and_open_and_skewed():
    """A small mesh wandering inside a hollow crate (contained, crossing its cavity wall); an open grid under a
    skewed transform dragged through a star."""
    rng = np.random.default_rng(24)
    crate = core.TriangleMesh(*mc.crate(2.0, 1.5))
    vb, tb, _, _ = mc.star(rng, 0.3, 0.2, 16, 8)
    small = core.TriangleMesh(vb, tb)
    routes = _run(crate, small, _drag(rng, (-1.0, 0.2, 0.1), (1.9, 0.3, -0.2), 25, turn=0.5))
    assert Route.CROSSING in routes, routes
    grid = core.TriangleMesh(*mc.grid(1.5, 12, 0.0))
    star = core.TriangleMesh(*mc.star(rng, 0.8, 0.2, 16, 8)[:2])
    skew = np.array([[1.0, 0.3, 0.0], [0.0, 0.8, 0.2], [0.1, 0.0, 1.2]])
    poses = [_pose(skew, (0.1, -0.2, z)) for z in np.linspace(1.6, -1.6, 25)]
    routes = _run(star, grid, poses, moving="b")
    assert Route.CROSSING in routes and Route.CLOSEST in routes, routes


def test_touching_faces_and_max_distance():
    """Boxes resting face on face (touching: many triangle pairs tie) slid along, lifted off and pushed in; the
    same poses with a max_distance."""
    a = core.TriangleMesh(*meshes.box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    b = core.TriangleMesh(*meshes.box((0.0, 0.0, 0.0), (0.5, 0.5, 0.5)))
    poses = [_pose(None, (0.1 + 0.01 * i, 0.2, 1.0)) for i in range(10)]
    poses += [_pose(None, (0.2, 0.2, 1.0 + 0.02 * i)) for i in range(10)]
    poses += [_pose(None, (0.2, 0.2 + 0.01 * i, 0.97 - 0.01 * i)) for i in range(10)]
    _run(a, b, poses)
    _run(a, b, poses, max_distance=0.05)


@pytest.mark.parametrize("seed", range(2))
def test_drag_around_at_a_small_gap(seed):
    """A noisy star dragged around another at a small, varying gap in small steps (live mode's drag past a part):
    the answers come from the frontier's leaf pairs (their bounds kept from pose to pose, the pair proven apart
    since the last answer, so no inside probe runs); then a jump in and out of the other, and the same drag with
    the moving star opened (a few triangles taken out: no inside)."""
    rng = np.random.default_rng([25, seed])
    va, ta, _, _ = mc.star(rng, 1.0, 0.05, 32, 16)
    vb, tb, _, _ = mc.star(rng, 0.6, 0.05, 24, 12)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    t = np.linspace(0.0, 0.6, 40)
    radius = 1.78 + 0.03 * np.sin(12.0 * t)
    path = np.stack([radius * np.cos(t), radius * np.sin(t), 0.1 * t], axis=1)
    poses = [_pose(mc.random_rotation(rng) if i == 20 else None, p) for i, p in enumerate(path)]
    poses[21] = _pose(None, (0.2, 0.1, 0.0))  # a jump into A, and out again
    routes = _run(a, b, poses)
    assert routes.count(Route.FRONTIER) >= 10, routes
    opened = core.TriangleMesh(vb, tb[5:])
    assert not opened.is_closed
    routes = _run(a, opened, poses)
    assert routes.count(Route.FRONTIER) >= 10, routes


def test_jumps_take_their_own_routes():
    """Random poses of a torus and a star, each a jump: a jump apart takes the closest route (a descent bounded by
    its own best), a jump into the other the crossing route."""
    rng = np.random.default_rng(26)
    va, ta = mc.torus(1.0, 0.3, 24, 12)
    vb, tb, _, _ = mc.star(rng, 0.5, 0.2, 16, 8)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    poses = [_pose(mc.random_rotation(rng), rng.uniform(-2.5, 2.5, 3)) for _ in range(30)]
    routes = _run(a, b, poses)
    assert Route.CLOSEST in routes and Route.CROSSING in routes, routes
