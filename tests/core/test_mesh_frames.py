"""Placement: transforms (negative and non-uniform scale), far from the origin, moved() reusing local data."""
from __future__ import annotations

import numpy as np

import core
from core import Status
from tests.core.meshes import box, crate, l_shape, mesh, translate


def placed(pair, matrix):
    """The same surface with the transform baked into the vertices (the reference placement)."""
    v, t = pair
    return v @ matrix[:3, :3].T + matrix[:3, 3], t


def test_negative_scale_mirrors_the_mesh():
    mirror = np.diag([-1.0, 1.0, 1.0, 1.0])
    mirror[0, 3] = 2.0  # x -> 2 - x: the L now opens the other way
    other = mesh(box([-0.75, 1.25, 0.0], [0.75, 2.0, 1.0]))
    via_transform = core.collide(mesh(l_shape(), mirror), other)
    baked = core.collide(mesh(placed(l_shape(), mirror)), other)
    assert via_transform.status is baked.status is Status.SEPARATED
    # mirrored, the notch is [0,1] x [1,2]; the box reaches x = 0.75 and starts at y = 1.25: 0.25 from both walls
    assert abs(via_transform.distance - 0.25) < 1e-12
    assert abs(via_transform.distance - baked.distance) < 1e-12


def test_negative_scale_keeps_inside_and_outside():
    # a mirrored crate has inward-facing triangles in the world: the winding number still finds its inside
    flip = np.diag([1.0, 1.0, -1.0, 1.0])
    flip[2, 3] = 3.0
    c = core.collide(mesh(box([0.25] * 3, [0.75] * 3)), mesh(crate(), flip))
    assert c.status is Status.INTERSECTING and c.containment is core.Containment.A_INSIDE_B
    free = core.collide(mesh(box([1.25] * 3, [1.75] * 3)), mesh(crate(), flip))
    assert free.status is Status.SEPARATED and abs(free.distance - 0.25) < 1e-12


def test_non_uniform_scale():
    stretch = np.diag([2.0, 1.0, 0.5, 1.0])
    c = core.collide(mesh(l_shape(), stretch), mesh(translate(box(), [5.0, 0.0, 0.0])))
    assert c.status is Status.SEPARATED and abs(c.distance - 1.0) < 1e-12  # the L reaches x = 4


def test_far_from_the_origin():
    far = np.eye(4)
    far[:3, 3] = [1e6, -2e6, 3e6]
    near_answer = core.collide(mesh(l_shape()), mesh(box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0])))
    far_answer = core.collide(mesh(l_shape(), far), mesh(box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0]), far))
    assert far_answer.status is Status.SEPARATED
    assert abs(far_answer.distance - near_answer.distance) <= 1e-9 * far_answer.scale
    assert np.allclose(far_answer.point_a - far[:3, 3], near_answer.point_a, atol=1e-9)
    crossing = core.collide(mesh(l_shape(), far), mesh(translate(box(), [0.5, 0.5, 0.5]), far))
    assert crossing.status is Status.INTERSECTING and crossing.intersection.shape[0] > 0
    assert np.all(np.abs(crossing.intersection - far[:3, 3]) < 3.0)


def test_moved_shares_the_hierarchy_and_answers_as_a_fresh_mesh():
    base = mesh(l_shape())
    first = core.collide(base, mesh(translate(box(), [4.0, 0, 0])))
    assert first.status is Status.SEPARATED
    hierarchy = base._local.bvh
    pose = np.eye(4)
    pose[:3, 3] = [1.5, 0.0, 0.0]
    moved = base.moved(pose)
    assert moved._local.bvh is hierarchy
    again = core.collide(moved, mesh(translate(box(), [4.0, 0, 0])))
    fresh = core.collide(mesh(l_shape(), pose), mesh(translate(box(), [4.0, 0, 0])))
    assert again.distance == fresh.distance and abs(again.distance - 0.5) < 1e-12
    assert np.array_equal(base.transform, np.eye(4))


def test_tiny_mesh_with_local_coordinates_far_from_zero():
    # no transform: the vertices themselves sit at 1e6, the meshes are 1e-3 across and 1e-4 apart
    offset = np.array([1e6, 1e6, -1e6])
    small = box([0.0] * 3, [1e-3] * 3)
    a = mesh((small[0] + offset, small[1]))
    b = mesh((np.array([[1.1e-3, 0.0, 0.0], [1.1e-3, 1e-3, 0.0], [1.1e-3, 0.0, 1e-3]]) + offset,
              np.array([[0, 1, 2]])))
    c = core.collide(a, b)
    assert c.status is Status.SEPARATED
    # the exact distance of the stored floats (a difference of two floats this close is exact)
    expected = float(b.vertices[0, 0] - a.vertices[:, 0].max())
    assert abs(c.distance - expected) <= 1e-9 * c.scale
