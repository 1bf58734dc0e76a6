"""Push Apart and Move to Contact: the check afterwards says TOUCHING (or SEPARATED by the gap), undo restores
the location exactly, parents are handled, and a B that cannot move is refused.  Expected positions are analytic
(axis-aligned cubes)."""
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from mathutils import Matrix
from tests.blender.scenes import check_pair, cube, result, select_pair


def check_again(a, b):
    assert check_pair(a, b) == {"FINISHED"}
    return result()


def test_push_apart_then_check_says_touching(addon_modules):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.5, 0.25, 0.0))  # overlap 0.5 along x
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    np.testing.assert_allclose(tuple(b.location), (2.0, 0.25, 0.0), atol=1e-6)
    assert tuple(a.location) == (0.0, 0.0, 0.0)  # A never moves
    assert result().status == "TOUCHING"  # the stored confirmation
    assert check_again(a, b).status == "TOUCHING"


def test_push_apart_with_gap(addon_modules):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(0.0, 0.0, 1.25))  # overlap 0.75 along z
    select_pair(a, b)
    assert bpy.ops.collision.push_apart(gap=0.5) == {"FINISHED"}
    checked = check_again(a, b)
    assert checked.status == "SEPARATED"
    np.testing.assert_allclose(checked.distance, 0.5, atol=1e-6)
    np.testing.assert_allclose(tuple(b.location), (0.0, 0.0, 2.5), atol=1e-6)


def test_push_apart_rotated_pair_is_never_left_overlapping(addon_modules):
    """A general direction: float32 locations cannot always hit the band; the result is touching within float32
    resolution and never on the overlapping side."""
    a = cube("A", 1.0, rotation=(0.3, 0.2, 0.1))
    b = cube("B", 0.7, location=(1.1, 0.9, 0.4), rotation=(0.5, -0.4, 0.2))
    select_pair(a, b)
    before = check_again(a, b)
    assert before.status == "INTERSECTING"
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    after = addon_modules.store.active_contact()
    assert after.status.name in ("TOUCHING", "SEPARATED")
    assert after.distance <= 1e-6 * after.scale
    independent = addon_modules.core.collide(
        *(addon_modules.reading.read_object(o, bpy.context.evaluated_depsgraph_get()).vertices @ np.array(
            o.matrix_world)[:3, :3].T.astype(np.float32) + np.array(o.matrix_world)[:3, 3] for o in (a, b)))
    assert -1e-6 * after.scale <= independent.distance <= 1e-6 * after.scale


def test_move_to_contact(addon_modules):
    a, b = cube("A", 1.0), cube("B", 0.5, location=(0.3, -4.0, 0.2))  # 2.5 apart along -y
    select_pair(a, b)
    assert bpy.ops.collision.move_to_contact() == {"FINISHED"}
    np.testing.assert_allclose(tuple(b.location), (0.3, -1.5, 0.2), atol=1e-6)
    assert check_again(a, b).status == "TOUCHING"
    select_pair(a, b)
    b.location.y = -4.0
    assert bpy.ops.collision.move_to_contact(gap=0.125) == {"FINISHED"}
    checked = check_again(a, b)
    assert checked.status == "SEPARATED"
    np.testing.assert_allclose(checked.distance, 0.125, atol=1e-6)


def test_move_to_contact_refuses_an_intersecting_pair():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.5, 0.0, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.move_to_contact() == {"CANCELLED"}
    assert tuple(b.location) == (1.5, 0.0, 0.0)


def test_push_apart_leaves_a_separated_pair():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"CANCELLED"}
    assert tuple(b.location) == (3.0, 0.0, 0.0)


@pytest.mark.parametrize("idname", ["push_apart", "move_to_contact"])
def test_undo_restores_the_location_exactly(idname):
    """One undo step each: the operators carry 'UNDO', so Blender pushes a step after them when they run from the
    UI.  bpy.ops called from Python pushes none (measured in bpy 5.0), so this test pushes the step the window
    manager would push (named like the operator) and undoes it: the location comes back bit for bit."""
    operator_class = getattr(bpy.types, f"COLLISION_OT_{idname}")
    assert {"REGISTER", "UNDO"} <= set(operator_class.bl_options)
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.3, 0.1, -0.2) if idname == "push_apart" else (2.7, 0.1, -0.2))
    bpy.ops.ed.undo_push(message="scene built")
    bpy.ops.ed.undo_push(message="selection")
    before = tuple(b.location)
    select_pair(a, b)
    assert getattr(bpy.ops.collision, idname)(gap=0.01) == {"FINISHED"}
    bpy.ops.ed.undo_push(message=operator_class.bl_label)
    assert tuple(bpy.data.objects["B"].location) != before
    bpy.ops.ed.undo()
    assert tuple(bpy.data.objects["B"].location) == before  # bit for bit


def test_parented_b_moves_in_world_space(addon_modules):
    """B's parent is rotated 90 degrees about z, scaled 2 and offset, with a parent inverse: the world move is
    still +x by the overlap."""
    a = cube("A", 1.0)
    parent = bpy.data.objects.new("Parent", None)
    bpy.context.scene.collection.objects.link(parent)
    parent.location = (5.0, -3.0, 1.0)
    parent.rotation_euler = (0.0, 0.0, math.pi / 2)
    parent.scale = (2.0, 2.0, 2.0)
    b = cube("B", 0.5)
    b.parent = parent
    bpy.context.view_layer.update()
    b.matrix_world = Matrix.Translation((1.25, 0.5, 0.0))  # world x = 1.25: overlap 0.25
    bpy.context.view_layer.update()
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    bpy.context.view_layer.update()
    np.testing.assert_allclose(np.array(b.matrix_world.translation), (1.5, 0.5, 0.0), atol=1e-6)
    # Through a rotated, scaled parent a float32 location step is ~1e-7 in the world: touching within that,
    # on the safe side (the operator's documented float32 limit).
    checked = check_again(a, b)
    assert checked.status in ("TOUCHING", "SEPARATED") and checked.distance <= 1e-6


def test_parent_inverse_is_used(addon_modules):
    a = cube("A", 1.0)
    parent = cube("Parent", 0.1, location=(0.0, 10.0, 0.0), rotation=(0.0, 0.0, 0.7))
    b = cube("B", 0.5, location=(0.0, 1.25, 0.0))  # overlap 0.25 along +y
    bpy.context.view_layer.update()
    world = b.matrix_world.copy()
    b.parent = parent
    b.matrix_parent_inverse = parent.matrix_world.inverted()  # "Keep Transform": B stays where it is
    bpy.context.view_layer.update()
    np.testing.assert_allclose(np.array(b.matrix_world), np.array(world), atol=1e-6)
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    bpy.context.view_layer.update()
    np.testing.assert_allclose(np.array(b.matrix_world.translation), (0.0, 1.5, 0.0), atol=1e-6)


@pytest.mark.parametrize("how", ["locked", "driven", "constrained"])
def test_b_that_cannot_move_is_refused(how):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.5, 0.0, 0.0))
    if how == "locked":
        b.lock_location[1] = True
        words = "locked"
    elif how == "driven":
        driver = b.driver_add("location", 0).driver
        driver.expression = "1.5"
        words = "driven"
    else:
        constraint = b.constraints.new("LIMIT_LOCATION")
        constraint.use_min_x = True
        words = "constraint"
    bpy.context.view_layer.update()
    select_pair(a, b)
    with pytest.raises(RuntimeError, match=words):
        bpy.ops.collision.push_apart()
    np.testing.assert_allclose(tuple(b.location), (1.5, 0.0, 0.0))


def test_rotation_only_constraint_is_allowed():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.5, 0.0, 0.0))
    b.constraints.new("LIMIT_ROTATION")
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
