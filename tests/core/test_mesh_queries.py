"""Mesh-mesh answers that can be computed by hand: boxes apart, face to face, crossing, nested, a hollow crate,
open squares, an L-shape.  Each case also runs through the non-convex path (a far second part added to B, so B
is no longer one convex part) and must give the same answer there."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import Containment, Status
from tests.core.meshes import box, crate, join, l_shape, mesh, square, translate

FAR = translate(box(), [50.0, 50.0, 50.0])  # a second loose part far away: forces the non-convex pipeline


def both_paths(a, b):
    """The answer for (a, b), and for (a, b + a far part) which must not change it (except the scale)."""
    return [core.collide(mesh(a), mesh(b)), core.collide(mesh(a), mesh(join(b, FAR)))]


def seg_length(c):
    return float(np.linalg.norm(c.intersection[:, 1] - c.intersection[:, 0], axis=1).sum())


@pytest.mark.parametrize("path", [0, 1])
def test_boxes_apart_along_x(path):
    c = both_paths(box(), translate(box(), [2.0, 0.3, 0.1]))[path]
    assert c.status is Status.SEPARATED
    assert abs(c.distance - 1.0) < 1e-12
    assert np.allclose(c.normal, [1, 0, 0], atol=1e-12)
    assert abs(c.point_a[0] - 1.0) < 1e-12 and abs(c.point_b[0] - 2.0) < 1e-12
    assert np.allclose(c.point_b - c.point_a, c.distance * c.normal, atol=1e-12)
    assert c.containment is None and c.intersection.shape == (0, 2, 3) and not c.open_a and not c.open_b


@pytest.mark.parametrize("path", [0, 1])
def test_boxes_face_to_face_touch(path):
    c = both_paths(box(), translate(box(), [0.0, 0.0, 1.0]))[path]
    assert c.status is Status.TOUCHING
    assert abs(c.distance) <= c.touching_tolerance
    assert abs(c.point_a[2] - 1.0) < 1e-12 and abs(c.point_b[2] - 1.0) < 1e-12
    assert c.intersection.shape[0] == 0, "coplanar faces touch, they do not cross"
    assert c.containment is None


@pytest.mark.parametrize("path", [0, 1])
def test_boxes_offset_diagonally_cross(path):
    c = both_paths(box(), translate(box(), [0.5, 0.5, 0.5]))[path]
    assert c.status is Status.INTERSECTING and c.containment is None
    # the crossing curve: six segments of length 0.5 on the lines where a face of one meets a face of the other
    assert abs(seg_length(c) - 3.0) < 1e-9
    ends = c.intersection.reshape(-1, 3)
    on_a = np.isclose(ends, 0.0) | np.isclose(ends, 1.0)
    on_b = np.isclose(ends, 0.5) | np.isclose(ends, 1.5)
    assert np.all(on_a.any(axis=1) & on_b.any(axis=1))
    # hand-computed depth: translating B by 0.5 along any axis separates; the corner (1,1,1) of A is 0.5 deep
    assert abs(c.depth - 0.5) < 1e-9
    assert np.allclose(c.point_a - c.point_b, c.depth * c.normal, atol=1e-9)


@pytest.mark.parametrize("path", [0, 1])
def test_slab_through_box_crosses_along_two_squares(path):
    c = both_paths(box(), box([-1.0, -1.0, 0.4], [2.0, 2.0, 0.6]))[path]
    assert c.status is Status.INTERSECTING and c.containment is None
    assert abs(seg_length(c) - 8.0) < 1e-9  # the two squares of perimeter 4 at z = 0.4 and 0.6
    z = c.intersection[:, :, 2]
    assert np.all(np.isclose(z, 0.4) | np.isclose(z, 0.6))
    assert c.depth > 0.0
    assert c.depth <= 0.6 + 1e-9  # the slab leaves the box by moving 0.6 along z (also the hulls' depth)


@pytest.mark.parametrize("path", [0, 1])
def test_box_inside_bigger_box_is_contained(path):
    small, big = box([0.25] * 3, [0.75] * 3), box()
    c = both_paths(small, big)[path]
    assert c.status is Status.INTERSECTING
    assert c.containment is Containment.A_INSIDE_B
    assert c.intersection.shape[0] == 0
    assert 0.25 - 1e-12 <= c.depth <= 0.75 + 1e-9  # a corner is 0.25 deep; the hulls need 0.75 to separate
    swapped = both_paths(big, small)[path]
    assert swapped.status is Status.INTERSECTING
    # with the far part added, B is no longer wholly inside A: it holds part of B, without containment
    assert swapped.containment is (Containment.B_INSIDE_A if path == 0 else None)


def test_box_in_the_cavity_of_a_crate_is_free():
    c = core.collide(mesh(box([1.25] * 3, [1.75] * 3)), mesh(crate()))
    assert c.status is Status.SEPARATED
    assert abs(c.distance - 0.25) < 1e-12
    assert c.containment is None


def test_box_in_the_wall_of_a_crate_is_contained():
    c = core.collide(mesh(box([0.25] * 3, [0.75] * 3)), mesh(crate()))
    assert c.status is Status.INTERSECTING and c.containment is Containment.A_INSIDE_B
    assert 0.25 - 1e-12 <= c.depth <= 0.75 + 1e-9


def test_box_resting_on_the_cavity_floor_touches():
    c = core.collide(mesh(box([1.25, 1.25, 1.0], [1.75, 1.75, 1.5])), mesh(crate()))
    assert c.status is Status.TOUCHING and c.containment is None


def test_open_square_above_a_box():
    c = core.collide(mesh(square(2.0)), mesh(box()))
    assert c.status is Status.SEPARATED and abs(c.distance - 1.0) < 1e-12
    assert c.open_a and not c.open_b
    assert np.allclose(c.normal, [0, 0, -1], atol=1e-12)


def test_open_square_through_a_box():
    c = core.collide(mesh(square(0.5)), mesh(box()))
    assert c.status is Status.INTERSECTING and c.containment is None and c.open_a
    assert abs(seg_length(c) - 4.0) < 1e-9
    assert np.allclose(c.intersection[:, :, 2], 0.5)
    assert 0.0 < c.depth <= 0.5 + 1e-9  # no point of the square is deeper than the box's centre


def test_open_square_inside_a_box_is_held_but_never_holds():
    c = core.collide(mesh(square(0.5, 0.25, 0.75)), mesh(box()))
    assert c.status is Status.INTERSECTING and c.containment is Containment.A_INSIDE_B
    assert 0.25 - 1e-12 <= c.depth <= 0.5 + 1e-9
    # the other way round, the open square is B: it still lies inside A, and B never contains anything
    d = core.collide(mesh(box()), mesh(square(0.5, 0.25, 0.75)))
    assert d.containment is Containment.B_INSIDE_A and d.open_b and not d.open_a


def test_two_open_squares_crossing_have_no_depth():
    upright = (np.array([[0.0, 0.5, -1], [1.0, 0.5, -1], [1.0, 0.5, 1], [0.0, 0.5, 1]]), np.array([[0, 1, 2], [0, 2, 3]]))
    c = core.collide(mesh(square(0.0, 0.0, 1.0)), mesh(upright))
    assert c.status is Status.INTERSECTING and c.containment is None
    assert c.distance == 0.0 and c.fallback_used
    assert abs(seg_length(c) - 1.0) < 1e-9


def test_box_in_the_notch_of_an_l_shape():
    # the L's notch is the square [1,2] x [1,2]; a box there at distance 0.25 from both inner walls
    c = core.collide(mesh(l_shape()), mesh(box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0])))
    assert c.status is Status.SEPARATED and abs(c.distance - 0.25) < 1e-12
    hull = core.collide(l_shape()[0], box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0])[0])
    assert hull.status is Status.INTERSECTING, "the convex hulls overlap: only the mesh answer is free"


def test_max_distance_stops_early_with_a_lower_bound():
    c = core.collide(mesh(box()), mesh(translate(box(), [30.0, 0, 0])), max_distance=1.0)
    exact = core.collide(mesh(box()), mesh(translate(box(), [30.0, 0, 0])))
    if c.beyond_max_distance:
        assert 1.0 < c.distance <= exact.distance + 1e-12
    else:
        assert c.distance == exact.distance


def test_identical_closed_meshes_overlap_with_volume():
    # every face coincides: nothing crosses and no surface point is strictly inside the other, yet the solids
    # overlap wholly; points just behind the shared faces are inside both and give a positive depth
    for pair in (box(), l_shape()):
        c = core.collide(mesh(pair), mesh(pair))
        assert c.status is Status.INTERSECTING
        assert c.depth > c.touching_tolerance
        hull = core.collide(pair[0], pair[0])
        assert c.depth <= hull.depth + 1e-9 * c.scale


def test_l_shapes_face_to_face_touch():
    flipped_l = (l_shape()[0] * [1, 1, -1], l_shape()[1][:, ::-1])  # the mirror image below z = 0
    c = core.collide(mesh(l_shape()), mesh(flipped_l))
    assert c.status is Status.TOUCHING and c.intersection.shape[0] == 0


def test_convex_parts_give_their_epa_depth():
    # A: two boxes as one mesh; B: a box sunk 0.4 into the second one from above.  No vertex of B is deeper in A
    # than 0.4 and the parts' EPA depth is exactly 0.4 (move B up by 0.4).
    a = join(box(), translate(box(), [3.0, 0.0, 0.0]))
    b = box([3.2, 0.2, 0.6], [3.8, 0.8, 1.6])
    c = core.collide(mesh(a), mesh(b))
    assert c.status is Status.INTERSECTING
    assert abs(c.depth - 0.4) < 1e-9
    assert np.allclose(c.normal, [0, 0, 1], atol=1e-9)


@pytest.mark.parametrize("path", [0, 1])
def test_box_resting_on_the_inner_floor_of_a_bigger_box_is_contained(path):
    # the small box's walls meet the big box's floor along lines from inside: contact, not crossing
    small = box([0.25, 0.25, 0.0], [0.75, 0.75, 0.5])
    c = both_paths(small, box())[path]
    assert c.status is Status.INTERSECTING
    assert c.containment is Containment.A_INSIDE_B and c.intersection.shape[0] == 0
    corner = both_paths(box([0.0] * 3, [0.5] * 3), box())[path]
    assert corner.containment is Containment.A_INSIDE_B and corner.intersection.shape[0] == 0


def test_intersects_and_distance_take_meshes():
    assert core.intersects(mesh(box()), mesh(translate(box(), [0.5, 0, 0])))
    assert core.intersects(mesh(box()), mesh(translate(box(), [1.0, 0, 0])))  # touching counts
    assert not core.intersects(mesh(l_shape()), mesh(box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0])))
    assert abs(core.distance(mesh(l_shape()), mesh(box([1.25, 1.25, 0.0], [2.0, 2.0, 1.0]))) - 0.25) < 1e-12
