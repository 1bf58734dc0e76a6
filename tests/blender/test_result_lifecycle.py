"""The stored result over time: stale marking, clear, select A/B, copy, file loads."""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, execute_directly, result, rows_dict, select_pair


@pytest.fixture
def checked_pair():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    other = cube("Bystander", 0.5, location=(0.0, 5.0, 0.0))
    assert check_pair(a, b) == {"FINISHED"}
    bpy.context.view_layer.update()
    assert not result().is_stale
    return a, b, other


def test_moving_a_marks_stale(checked_pair, addon_modules):
    a, _, _ = checked_pair
    a.location.x += 0.25
    bpy.context.view_layer.update()
    assert result().is_stale
    assert addon_modules.store.active_record().is_stale
    assert ("Stale", "A or B changed since the check") in rows_dict(addon_modules.text.readout_rows(
        addon_modules.store.active_record())).items()


def test_editing_b_geometry_marks_stale(checked_pair):
    _, b, _ = checked_pair
    b.data.vertices[0].co.x -= 0.5
    b.data.update()
    bpy.context.view_layer.update()
    assert result().is_stale


def test_modifier_on_b_marks_stale(checked_pair):
    _, b, _ = checked_pair
    b.modifiers.new("Subdiv", "SUBSURF")
    bpy.context.view_layer.update()
    assert result().is_stale


def test_unrelated_changes_do_not_mark_stale(checked_pair):
    a, _, other = checked_pair
    other.location.z += 1.0
    bpy.context.view_layer.update()
    assert not result().is_stale
    assert bpy.ops.collision.select_object(which="B") == {"FINISHED"}
    bpy.context.view_layer.update()
    assert not result().is_stale


def test_new_check_clears_stale(checked_pair):
    a, b, _ = checked_pair
    b.location.x = 2.5
    bpy.context.view_layer.update()
    assert result().is_stale
    check_pair(a, b)
    assert not result().is_stale
    np.testing.assert_allclose(result().distance, 0.5, atol=1e-6)


def test_stale_detection_survives_file_loads(checked_pair):
    """The handler is persistent: after File > New (read_homefile) it still watches the next check."""
    bpy.ops.wm.read_homefile(use_empty=True)
    assert result().status == "NONE"
    a, b = cube("A2", 1.0), cube("B2", 1.0, location=(3.0, 0.0, 0.0))
    check_pair(a, b)
    bpy.context.view_layer.update()
    b.location.y += 1.0
    bpy.context.view_layer.update()
    assert result().is_stale


def test_file_load_forgets_the_last_scene_check(checked_pair, addon):
    """After File > New the report's header of the previous file's scene check is gone: nothing to export."""
    import importlib
    scene_ops = importlib.import_module(f"{addon}.operators.scene_ops")
    assert bpy.ops.collision.check_all() == {"FINISHED"}
    assert scene_ops.last_run()
    bpy.ops.wm.read_homefile(use_empty=True)
    assert scene_ops.last_run() == {}
    assert not bpy.ops.collision.export_report.poll()


def test_clear(checked_pair, addon_modules):
    assert addon_modules.store.active_record() is not None
    assert not addon_modules.overlay.current_draw_data().is_empty
    assert bpy.ops.collision.clear() == {"FINISHED"}
    assert result().status == "NONE"
    assert addon_modules.store.active_record() is None
    assert addon_modules.store.active_record() is None
    assert addon_modules.overlay.current_draw_data().is_empty
    assert bpy.ops.collision.clear() == {"FINISHED"}  # clearing nothing is fine


def test_select_a_and_b(checked_pair):
    a, b, other = checked_pair
    select_pair(other, a)
    assert bpy.ops.collision.select_object(which="B") == {"FINISHED"}
    assert bpy.context.view_layer.objects.active == b
    assert [o.name for o in bpy.context.selected_objects] == ["B"]
    assert bpy.ops.collision.select_object(which="A") == {"FINISHED"}
    assert bpy.context.view_layer.objects.active == a
    assert [o.name for o in bpy.context.selected_objects] == ["A"]


def test_select_a_deleted_object_is_refused(checked_pair):
    _, b, _ = checked_pair
    bpy.data.objects.remove(b)
    with pytest.raises(RuntimeError, match=r"Object B \('B'\) no longer exists"):
        bpy.ops.collision.select_object(which="B")
    returned, reports = execute_directly("COLLISION_OT_select_object", which="B")
    assert returned == {"CANCELLED"} and reports[0][0] == {"ERROR"}


def test_select_follows_a_renamed_object(checked_pair):
    a, _, _ = checked_pair
    a.name = "Renamed"
    assert bpy.ops.collision.select_object(which="A") == {"FINISHED"}
    assert bpy.context.view_layer.objects.active == a


def test_copy_result(checked_pair, addon_modules):
    assert bpy.ops.collision.copy_result() == {"FINISHED"}
    text = addon_modules.text.result_text(addon_modules.store.active_record(), bpy.context.scene.unit_settings)
    clipboard = bpy.context.window_manager.clipboard
    if clipboard:  # the bpy module has no system clipboard (reads back ""), a real Blender does
        assert clipboard == text
    assert "Status: Separated" in text and "Distance: 1 m" in text
    assert "distance = 1.0" in text and "normal = (1.0, 0.0, 0.0)" in text
