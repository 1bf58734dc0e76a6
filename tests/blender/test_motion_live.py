"""Live mode: the shown pair and the results list follow their objects, re-checked from a timer, and nothing is
left behind when it stops.  Headless, the timer is run by calling `live.tick()` (what bpy.app.timers would call);
expected distances are analytic (axis-aligned cubes)."""
import importlib

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
import addon_utils
from tests.blender.scenes import check_pair, cube, result


@pytest.fixture
def live(addon):
    module = importlib.import_module(f"{addon}.operators.live")
    yield module
    if hasattr(bpy.types.Scene, "collision_inspector"):
        bpy.context.scene.collision_inspector.live = False
    module.disable()


def ours(functions, addon):
    return [f for f in functions if getattr(f, "__module__", "").startswith(addon)]


def settle(live_module):
    """What the timer does once the changes have stopped: pretend SETTLE seconds passed."""
    live_module._last_change -= live_module.SETTLE + 1.0


@pytest.fixture
def pair():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    assert check_pair(a, b) == {"FINISHED"}
    bpy.context.view_layer.update()
    return a, b


def test_moving_b_is_followed(live, pair, addon_modules):
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    assert live.is_enabled()
    before = addon_modules.store.active_record()
    b.location.x = 2.5
    bpy.context.view_layer.update()  # the depsgraph handler marks, and registers the timer
    assert bpy.app.timers.is_registered(live.tick)
    assert addon_modules.store.active_record() is before  # nothing computed in the handler
    assert addon_modules.reading.object_identity(b) in live.pending()
    assert not result().is_stale  # live re-checks it: no stale flicker meanwhile
    assert live.tick() is None  # the timer's call: re-checks, nothing left to do
    assert not result().is_stale
    np.testing.assert_allclose(result().distance, 0.5, atol=1e-6)
    b.matrix_world.translation = (1.5, 0.0, 0.0)  # now overlapping by 0.5
    bpy.context.view_layer.update()
    live.tick()
    assert result().status == "INTERSECTING"
    np.testing.assert_allclose(result().depth, 0.5, atol=1e-6)


def test_rotation_scale_and_edit_are_followed(live, pair, addon_modules):
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    a.scale.x = 1.5  # A's face now at x = 1.5
    bpy.context.view_layer.update()
    live.tick()
    np.testing.assert_allclose(result().distance, 0.5, atol=1e-6)
    b.rotation_euler.z = np.pi / 4  # B's nearest edge at x = 3 - sqrt(2)
    bpy.context.view_layer.update()
    live.tick()
    np.testing.assert_allclose(addon_modules.store.active_record().distance, 3.0 - np.sqrt(2.0) - 1.5, atol=1e-6)
    for vertex in b.data.vertices:  # B's far side is irrelevant; pull its near corner region out to x = 0
        vertex.co = (vertex.co.x * 3.0, vertex.co.y * 3.0, vertex.co.z)
    b.data.update()
    bpy.context.view_layer.update()
    live.tick()
    assert result().status == "INTERSECTING"


def test_playback_frames_are_followed(live, pair):
    a, b = pair
    b.keyframe_insert("location", frame=1)
    b.location.x = 1.0
    b.keyframe_insert("location", frame=11)
    bpy.context.scene.frame_set(1)
    bpy.context.scene.collision_inspector.live = True
    check_pair(a, b)
    bpy.context.scene.frame_set(11)  # playback reports through frame_change_post
    assert bpy.app.timers.is_registered(live.tick)
    live.tick()
    assert result().status == "INTERSECTING"
    np.testing.assert_allclose(result().depth, 1.0, atol=1e-6)


def test_results_list_is_rechecked(live, addon_modules):
    """Several records (what the scene check stores): each follows its own objects, the order is kept."""
    store, checking = addon_modules.store, addon_modules.checking
    a, b, c = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0)), cube("C", 1.0, location=(0.0, 5.0, 0.0))
    depsgraph = bpy.context.evaluated_depsgraph_get()
    records = [checking.check_pair(a, b, depsgraph), checking.check_pair(a, c, depsgraph)]
    store.set_records(bpy.context.window_manager, records, 0)
    bpy.context.scene.collision_inspector.live = True
    c.location.y = 2.25
    bpy.context.view_layer.update()
    live.tick()
    first, second = store.records()
    assert (first.object_b, second.object_b) == ("B", "C")
    np.testing.assert_allclose(first.distance, 1.0, atol=1e-6)
    np.testing.assert_allclose(second.distance, 0.25, atol=1e-6)
    assert not second.is_stale
    mirror = bpy.context.window_manager.collision_inspector.results
    np.testing.assert_allclose(mirror[1].distance, 0.25, atol=1e-6)
    a.location.x = 0.5  # both pairs change
    bpy.context.view_layer.update()
    assert live.recheck() == 2
    np.testing.assert_allclose([r.distance for r in store.records()], [0.5, 0.25], atol=1e-6)


def test_unrelated_changes_start_no_timer(live, pair):
    other = cube("Bystander", 0.5, location=(0.0, 5.0, 0.0))
    bpy.context.scene.collision_inspector.live = True
    bpy.context.view_layer.update()
    other.location.z = 2.0
    bpy.context.view_layer.update()
    assert not bpy.app.timers.is_registered(live.tick)


def test_off_leaves_nothing(live, pair, addon):
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.0
    bpy.context.view_layer.update()
    assert bpy.app.timers.is_registered(live.tick)
    bpy.context.scene.collision_inspector.live = False
    assert not bpy.app.timers.is_registered(live.tick)
    assert not live.is_enabled() and not live.pending()
    assert live._on_changed not in live.changes.depsgraph_listeners()
    b.location.x = 2.5
    bpy.context.view_layer.update()
    assert not bpy.app.timers.is_registered(live.tick)
    assert result().is_stale  # back to plain stale marking


def test_file_load_leaves_nothing(live, pair):
    b = pair[1]
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.0
    bpy.context.view_layer.update()
    assert bpy.app.timers.is_registered(live.tick)
    bpy.ops.wm.read_homefile(use_empty=True)
    assert not bpy.app.timers.is_registered(live.tick)
    assert not live.is_enabled()
    assert live._on_changed not in live.changes.depsgraph_listeners()


def test_disabling_the_addon_leaves_nothing(live, pair, addon):
    b = pair[1]
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.0
    bpy.context.view_layer.update()
    changes = live.changes
    addon_utils.disable(addon, default_set=True)
    try:
        assert not bpy.app.timers.is_registered(live.tick)
        assert not live.is_enabled()
        assert not changes.depsgraph_listeners() and not changes.change_listeners()
        for handler_list in (bpy.app.handlers.depsgraph_update_post, bpy.app.handlers.frame_change_post,
                             bpy.app.handlers.load_pre, bpy.app.handlers.load_post, bpy.app.handlers.undo_post,
                             bpy.app.handlers.redo_post):
            assert ours(handler_list, addon) == []
    finally:
        addon_utils.enable(addon, default_set=True)


def test_large_exact_pair_previews_while_dragging(live, pair, addon_modules, monkeypatch):
    """The preview rule: an Exact pair over PREVIEW_TRIANGLES is answered as hulls (preview=True) while changes
    come, and in Exact mode once they settle."""
    store, checking, Mode = addon_modules.store, addon_modules.checking, addon_modules.record.Mode
    a, b = pair
    monkeypatch.setattr(live, "PREVIEW_TRIANGLES", 10)  # two cubes have 24 triangles
    record = checking.check_pair(a, b, bpy.context.evaluated_depsgraph_get(),
                                 checking.CheckSettings(mode=Mode.EXACT))
    assert record.triangle_count_a + record.triangle_count_b == 24
    store.store(bpy.context.window_manager, record)
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.5
    bpy.context.view_layer.update()
    assert live.tick() is not None  # comes back for the exact answer
    shown = store.active_record()
    assert shown.preview and shown.mode is Mode.HULL
    np.testing.assert_allclose(shown.distance, 0.5, atol=1e-6)
    from tests.blender.scenes import rows_dict
    assert rows_dict(addon_modules.text.readout_rows(shown))["Status"].endswith("(preview)")
    settle(live)
    assert live.tick() is None
    shown = store.active_record()
    assert not shown.preview and shown.mode is Mode.EXACT
    np.testing.assert_allclose(shown.distance, 0.5, atol=1e-6)


def test_undo_of_the_toggle_stops_live(live, pair):
    """Undo flips the property back without its update callback: the undo handler brings live mode in line."""
    bpy.ops.ed.undo_push(message="before live")
    bpy.context.scene.collision_inspector.live = True
    bpy.ops.ed.undo_push(message="live on")
    assert live.is_enabled()
    bpy.ops.ed.undo()
    assert not bpy.context.scene.collision_inspector.live
    assert not live.is_enabled()
    assert live._on_changed not in live.changes.depsgraph_listeners()


def test_deleted_object_leaves_the_record_stale(live, pair, addon_modules):
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.5
    bpy.context.view_layer.update()
    bpy.data.objects.remove(b)
    bpy.context.view_layer.update()
    assert live.tick() is None  # no crash, nothing to re-check
    assert addon_modules.store.active_record().is_stale
    a.location.x = 0.5
    bpy.context.view_layer.update()
    live.tick()
    assert addon_modules.store.active_record().is_stale


def test_sidebar_has_the_live_toggle():
    from tests.blender.scenes import draw_panel

    assert ("prop", "live") in draw_panel()


def test_changes_not_yet_evaluated_are_part_of_the_round(live, pair):
    """A move the depsgraph has not evaluated yet is seen by the re-check, and leaves nothing pending."""
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.5
    bpy.context.view_layer.update()
    b.location.x = 2.75  # not evaluated before the timer runs
    assert live.tick() is None
    assert not live.pending()
    np.testing.assert_allclose(result().distance, 0.75, atol=1e-6)


def test_object_that_can_no_longer_be_checked_goes_stale(live, pair, addon_modules):
    a, b = pair
    bpy.context.scene.collision_inspector.live = True
    b.data = bpy.data.meshes.new("Empty")  # no vertices: GeometryError in the re-check
    bpy.context.view_layer.update()
    assert live.tick() is None
    assert addon_modules.store.active_record().is_stale
    assert result().is_stale


def test_a_slow_exact_pair_previews_while_dragging(live, pair, addon_modules, monkeypatch):
    """The measured half of the preview rule: an Exact pair whose last check took longer than the live budget is
    answered as hulls while changes come (here the budget is set below any real check's time)."""
    store, checking, Mode = addon_modules.store, addon_modules.checking, addon_modules.record.Mode
    a, b = pair
    monkeypatch.setattr(live, "BUDGET_MS", -1.0)
    record = checking.check_pair(a, b, bpy.context.evaluated_depsgraph_get(),
                                 checking.CheckSettings(mode=Mode.EXACT))
    store.store(bpy.context.window_manager, record)
    bpy.context.scene.collision_inspector.live = True
    b.location.x = 2.5
    bpy.context.view_layer.update()
    assert live.tick() is not None
    assert store.active_record().preview and store.active_record().mode is Mode.HULL
    settle(live)
    assert live.tick() is None
    assert not store.active_record().preview and store.active_record().mode is Mode.EXACT
