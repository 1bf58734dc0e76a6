"""Every way collision.check can be refused: a clear ERROR report and {'CANCELLED'}, never a traceback.

Each case is pressed twice: through bpy.ops (Blender turns an ERROR report into a RuntimeError carrying the
report's text: we assert the exact text, so an unexpected Python exception, whose text is a traceback, fails)
and by calling the registered operator's execute() with a report recorder, which shows the return value.
"""
import re

import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import cube, execute_directly, mesh_object, result, select_pair


def assert_refused(pattern):
    with pytest.raises(RuntimeError) as info:
        bpy.ops.collision.check()
    message = str(info.value)
    assert "Traceback" not in message, message
    assert re.fullmatch(r"Error: " + pattern + r"\n?", message), message
    assert_execute_refuses(pattern)


def assert_poll_refuses(pattern):
    """Cheap problems (selection, object type) grey the button out: poll says why, in Blender's own words."""
    assert not bpy.ops.collision.check.poll()
    with pytest.raises(RuntimeError) as info:
        bpy.ops.collision.check()
    message = str(info.value)
    assert "Traceback" not in message, message
    assert re.fullmatch(r"Operator bpy\.ops\.collision\.check\.poll\(\) " + pattern + r"\n?", message), message
    assert_execute_refuses(pattern)  # a caller that skips poll gets the same reason from execute


def assert_execute_refuses(pattern):
    returned, reports = execute_directly("COLLISION_OT_check")
    assert returned == {"CANCELLED"}
    assert len(reports) == 1 and reports[0][0] == {"ERROR"}
    assert re.fullmatch(pattern, reports[0][1]), reports
    assert result().status == "NONE"


def deselect_all():
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_wrong_selection_count(count):
    objects = [cube(f"C{i}", 0.5, location=(2.0 * i, 0.0, 0.0)) for i in range(3)]
    deselect_all()
    for obj in objects[:count]:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]
    assert_poll_refuses(rf"Select exactly two objects \(the active one is A\), not {count}")


def test_active_object_not_selected():
    a, b, c = cube("A", 0.5), cube("B", 0.5, location=(2, 0, 0)), cube("C", 0.5, location=(4, 0, 0))
    deselect_all()
    a.select_set(True)
    b.select_set(True)
    bpy.context.view_layer.objects.active = c
    assert_poll_refuses(r"Make one of the two selected objects active: the active object is A")
    bpy.context.view_layer.objects.active = None
    assert_poll_refuses(r"Make one of the two selected objects active: the active object is A")


@pytest.mark.parametrize("kind", ["EMPTY", "CAMERA", "LIGHT"])
def test_object_without_geometry(kind):
    if kind == "EMPTY":
        odd = bpy.data.objects.new("Nothing", None)
    elif kind == "CAMERA":
        odd = bpy.data.objects.new("Nothing", bpy.data.cameras.new("Cam"))
    else:
        odd = bpy.data.objects.new("Nothing", bpy.data.lights.new("Lamp", "POINT"))
    bpy.context.scene.collection.objects.link(odd)
    box = cube("Box", 1.0)
    select_pair(box, odd)
    assert_poll_refuses(r"'Nothing' is an? " + kind.lower() + r" object and has no geometry")
    select_pair(odd, box)  # A or B, same message
    assert_poll_refuses(r"'Nothing' is an? " + kind.lower() + r" object and has no geometry")


def test_empty_mesh():
    hollow = mesh_object("Hollow", [])
    box = cube("Box", 1.0)
    select_pair(box, hollow)
    assert_refused(r"'Hollow' has no vertices")


def test_curve_without_points():
    curve = bpy.data.curves.new("Blank", "CURVE")
    blank = bpy.data.objects.new("Blank", curve)
    bpy.context.scene.collection.objects.link(blank)
    box = cube("Box", 1.0)
    select_pair(box, blank)
    assert_refused(r"'Blank' has no vertices")


def test_nan_vertex_is_refused_with_the_name():
    broken = mesh_object("Broken", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
    broken.data.vertices[1].co = (float("nan"), 0.0, 0.0)
    box = cube("Box", 1.0, location=(5, 0, 0))
    select_pair(broken, box)
    assert_refused(r"'Broken' has 1 of 3 vertices with NaN or infinite coordinates")


def test_nan_location_is_refused_with_the_name():
    box = cube("Box", 1.0)
    lost = cube("Lost", 1.0, location=(float("nan"), 0.0, 0.0))
    select_pair(box, lost)
    assert_refused(r"'Lost' has a world matrix with NaN or infinite values")


def test_a_failed_check_keeps_the_previous_result():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3, 0, 0))
    select_pair(a, b)
    assert bpy.ops.collision.check() == {"FINISHED"}
    deselect_all()
    with pytest.raises(RuntimeError):
        bpy.ops.collision.check()
    assert result().status == "SEPARATED" and result().object_a == "A"


def test_poll_accepts_a_valid_pair_and_other_operators_explain():
    """poll passes for two geometry objects with one active; data problems are left to execute."""
    select_pair(cube("A", 1.0), cube("B", 1.0, location=(3, 0, 0)))
    assert bpy.ops.collision.check.poll()
    with pytest.raises(RuntimeError, match="Run Check Collision first"):
        bpy.ops.collision.select_object(which="A")
    with pytest.raises(RuntimeError, match="Run Check Collision first"):
        bpy.ops.collision.copy_result()
