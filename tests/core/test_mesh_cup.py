"""A ball in a cup (a closed solid of revolution): free in the opening, resting on the floor, sunk into the wall.
The cup's convex hull holds the ball in every pose; only the mesh answer tells them apart."""
from __future__ import annotations

import numpy as np

import core
from core import Status
from tests.core.meshes import ball, cup, mesh, translate


def test_ball_free_in_the_cup():
    c = core.collide(mesh(ball()), mesh(translate(cup(), [0.0, 0.0, -0.9])))  # floor top at z = -0.7
    assert c.status is Status.SEPARATED
    assert abs(c.distance - 0.2) < 1e-12  # the ball's pole (z = -0.5) is 0.2 above the floor
    assert np.allclose(c.normal, [0, 0, -1], atol=1e-12)
    assert c.containment is None
    assert core.collide(ball()[0], translate(cup(), [0.0, 0.0, -0.9])[0]).status is Status.INTERSECTING


def test_ball_resting_on_the_floor_touches():
    c = core.collide(mesh(ball()), mesh(translate(cup(), [0.0, 0.0, -0.7])))  # floor top at z = -0.5
    assert c.status is Status.TOUCHING and c.containment is None
    assert c.intersection.shape[0] == 0


def test_ball_sunk_into_the_wall_intersects():
    # the verdict and the crossing curve: the loose interval will do (tests/core/test_mesh_depth_interval.py
    # checks the narrowed one on a ball in the cup's wall)
    c = core.collide(mesh(translate(ball(), [0.75, 0.0, 0.9])), mesh(cup()), depth_interval=False)
    assert c.status is Status.INTERSECTING and c.containment is None
    assert c.intersection.shape[0] > 0
    assert 0.0 < c.depth <= c.depth + c.gap


def test_ball_inside_the_cup_wall_material_is_contained():
    small = translate(ball(0.05, 12, 6), [0.0, 0.0, 0.1])  # inside the floor slab (z from 0 to 0.2)
    c = core.collide(mesh(small), mesh(cup()))
    assert c.status is Status.INTERSECTING and c.containment is core.Containment.A_INSIDE_B
    assert c.depth >= 0.05 - 1e-9
