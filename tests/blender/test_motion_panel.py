"""The Motion sub-panel shows the sweep's summary with jump buttons and a per-frame table, and the move buttons.
Its draw() runs with a recording layout (no UI in background mode)."""
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import cube, draw_panel, select_pair


def draw_motion_panel():
    return draw_panel(bpy.types.VIEW3D_PT_collision_inspector_motion)


def test_registered_under_the_main_panel():
    panel = bpy.types.VIEW3D_PT_collision_inspector_motion
    assert panel.bl_parent_id == "VIEW3D_PT_collision_inspector"


def test_no_sweep_yet():
    log = draw_motion_panel()
    operators = {entry[1] for entry in log if entry[0] == "operator"}
    assert {"collision.push_apart", "collision.move_to_contact", "collision.sweep"} <= operators
    assert ("label", "No sweep yet", "INFO") in log


def test_sweep_rows_and_jumps(addon_modules):
    a, b = cube("A", 1.0), cube("B", 1.0)
    b.location = (5.0, 0.0, 0.0)
    b.keyframe_insert("location", frame=1)
    b.location = (-5.0, 0.0, 0.0)
    b.keyframe_insert("location", frame=11)
    select_pair(a, b)
    assert bpy.ops.collision.sweep(frame_start=1, frame_end=11) == {"FINISHED"}
    sweep = addon_modules.store.sweep_record()
    log = draw_motion_panel()
    labels = [entry[1] for entry in log if entry[0] == "label"]
    assert "First contact" in labels and "Deepest" in labels
    jumps = [entry[3].frame for entry in log if entry[0] == "operator" and entry[1] == "collision.jump_to_frame"]
    assert sweep.first_contact_frame in jumps and sweep.deepest_frame in jumps
    for frame in range(1, 12):  # 11 sampled frames: all in the table, each with its jump button
        assert float(frame) in jumps
        assert any(entry[0] == "label" and entry[1] == f"{frame:g}" for entry in log)


def test_every_listed_pair_rows(addon_modules):
    store, checking = addon_modules.store, addon_modules.checking
    a, b, c = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0)), cube("C", 1.0, location=(0.0, 5.0, 0.0))
    depsgraph = bpy.context.evaluated_depsgraph_get()
    store.set_records(bpy.context.window_manager, [checking.check_pair(a, b, depsgraph),
                                                   checking.check_pair(a, c, depsgraph)], 0)
    log = draw_motion_panel()
    assert any(e[0] == "operator" and e[2] == "Sweep Every Listed Pair" and e[3].all_pairs for e in log)
    assert bpy.ops.collision.sweep(frame_start=1, frame_end=3, all_pairs=True) == {"FINISHED"}
    log = draw_motion_panel()
    labels = [entry[1] for entry in log if entry[0] == "label"]
    assert "A / B" in labels and "A / C" in labels
