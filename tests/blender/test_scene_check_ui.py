"""The interactive side of the scene check, driven without a window: the modal run in slices (timer ticks) and
Esc keeping what was found, INVOKE falling back to a straight run headless, the results list's filter, the
command line's registration."""
import importlib
from types import SimpleNamespace

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import random_scene


def _fake_operator(scene_ops):
    """An object carrying the operator's modal methods, so they run with no window (bpy.ops cannot)."""
    cls = bpy.types.COLLISION_OT_check_all
    methods = {name: getattr(cls, name) for name in ("modal", "_end", "_status")}
    fake = type("FakeCheckAll", (), methods)()
    fake.scope, fake._timer, fake.reports = "VISIBLE", None, []
    fake.report = lambda kind, message: fake.reports.append((set(kind), message))
    fake._gathering = scene_ops.begin_run(fake, bpy.context, "VISIBLE")  # what invoke() starts with
    fake._run = None
    return fake


def _tick(fake):
    return fake.modal(bpy.context, SimpleNamespace(type="TIMER"))


@pytest.fixture
def scene_ops(addon):
    return importlib.import_module(f"{addon}.operators.scene_ops")


def test_modal_run_in_slices_equals_a_straight_run(addon_modules, scene_ops, monkeypatch):
    random_scene(11)
    bpy.ops.collision.check_all(scope="VISIBLE")
    straight = [(r.object_a, r.object_b, r.distance) for r in addon_modules.store.records()]
    addon_modules.store.clear()
    monkeypatch.setattr(scene_ops, "STEP_S", 0.0)  # one pair per tick
    fake = _fake_operator(scene_ops)
    objects = fake._gathering.total
    read_ticks = 0
    while fake._run is None:  # one object per tick, then the run is made
        read_ticks += 1
        assert _tick(fake) == {"RUNNING_MODAL"}
    assert read_ticks == objects > 2
    total, ticks = fake._run.total, 0
    while True:
        ticks += 1
        returned = _tick(fake)
        if returned != {"RUNNING_MODAL"}:
            break
    assert returned == {"FINISHED"} and ticks == total > 1
    assert [(r.object_a, r.object_b, r.distance) for r in addon_modules.store.records()] == straight


def test_esc_cancels_and_keeps_what_was_found(addon_modules, scene_ops, monkeypatch):
    random_scene(12)
    monkeypatch.setattr(scene_ops, "STEP_S", 0.0)
    fake = _fake_operator(scene_ops)
    while fake._run is None:
        assert _tick(fake) == {"RUNNING_MODAL"}
    run = fake._run
    while len(run.found) < 2:
        assert _tick(fake) == {"RUNNING_MODAL"}
    assert fake.modal(bpy.context, SimpleNamespace(type="LEFTMOUSE")) == {"RUNNING_MODAL"}  # scene edits blocked
    checked = run.position
    assert fake.modal(bpy.context, SimpleNamespace(type="ESC")) == {"CANCELLED"}
    assert checked < run.total
    records = addon_modules.store.records()
    assert len(records) == 2 and all(r.status.name != "SEPARATED" or r.within_clearance for r in records)
    assert fake.reports[-1][1].startswith("Cancelled: ") and f"{checked} of {run.total}" in fake.reports[-1][1]
    assert scene_ops.last_run()["cancelled"] is True


def test_esc_mid_pair_stops_the_engine_and_keeps_what_was_found(addon_modules, scene_ops, monkeypatch):
    """Exact mode: two cubes that touch, then the crossing chain links (a depth interval of seconds): the slices
    take the links' check in the engine's steps, the status line names its stage, and Esc in the middle of it
    stops the engine's work, keeping the cubes' pair; a run to the end lists what a straight run lists."""

    from tests.blender.scenes import cube
    from tests.blender.test_push_apart_meshes import crossing_links

    bpy.context.scene.collision_inspector.mode = "EXACT"
    cube("Cube A", location=(10.0, 0.0, 0.0)), cube("Cube B", location=(12.0, 0.0, 0.0))
    crossing_links()
    bpy.context.view_layer.update()
    bpy.ops.collision.check_all(scope="VISIBLE")
    straight = [(r.object_a, r.object_b, r.status.name, r.distance) for r in addon_modules.store.records()]
    assert len(straight) == 2
    addon_modules.store.clear()
    monkeypatch.setattr(scene_ops, "STEP_S", 0.0)

    for esc in (True, False):
        fake = _fake_operator(scene_ops)
        shown = []
        monkeypatch.setattr(scene_ops.modal_run, "show", lambda context, done, steps, text: shown.append(text))
        while fake._run is None:
            assert _tick(fake) == {"RUNNING_MODAL"}
        run = fake._run
        while not run.working:  # until a pair's check is under way in the engine's steps
            assert _tick(fake) == {"RUNNING_MODAL"}
        for _ in range(3):
            assert _tick(fake) == {"RUNNING_MODAL"}
        assert run.working and scene_ops.modal_run.work_threads()
        assert f"pair {run.position + 1}: {run.working}" in shown[-1]
        if esc:
            assert fake.modal(bpy.context, SimpleNamespace(type="ESC")) == {"CANCELLED"}
            assert not scene_ops.modal_run.work_threads() and run.position < run.total
            assert [r.object_a for r in addon_modules.store.records()] == [r.object_a for r in run.found]
            assert scene_ops.last_run()["cancelled"] is True
            addon_modules.store.clear()
        else:
            while _tick(fake) == {"RUNNING_MODAL"}:
                pass
            assert not scene_ops.modal_run.work_threads()
            assert [(r.object_a, r.object_b, r.status.name, r.distance)
                    for r in addon_modules.store.records()] == straight


def test_invoke_without_a_window_runs_straight_through(addon_modules):
    random_scene(13)
    assert bpy.ops.collision.check_all("INVOKE_DEFAULT", scope="VISIBLE") == {"FINISHED"}
    assert len(addon_modules.store.records()) > 0


def test_results_list_filter_by_name_and_status(addon_modules):
    random_scene(14)
    bpy.context.scene.collision_inspector.clearance = 0.5
    bpy.ops.collision.check_all(scope="VISIBLE")
    group = bpy.context.window_manager.collision_inspector
    cls = bpy.types.COLLISION_UL_results

    def shown(name="", status="ALL"):
        fake = SimpleNamespace(filter_name=name, filter_status=status, use_filter_invert=False,
                               bitflag_filter_item=1 << 30)  # Blender's UILST_FLT_ITEM
        flags, order = cls.filter_items(fake, bpy.context, group, "results")
        assert order == []
        return [(i.object_a, i.object_b, i.status) for i, f in zip(group.results, flags) if f]

    every = [(i.object_a, i.object_b, i.status) for i in group.results]
    assert shown() == every
    assert shown(status="INTERSECTING") == [r for r in every if r[2] == "INTERSECTING"]
    assert shown(status="SEPARATED") == [r for r in every if r[2] == "SEPARATED"] != []
    assert shown(name="touch") == [r for r in every if "touch" in (r[0] + r[1]).lower()] != []
    assert shown(name="TOUCH", status="INTERSECTING") == []  # the touching pair is not intersecting


def test_command_line_is_registered(addon):
    operators = importlib.import_module(f"{addon}.operators")
    if not hasattr(bpy.utils, "register_cli_command"):
        pytest.skip("this Blender has no register_cli_command (added in 4.2)")
    assert operators._cli_handle is not None


def test_scene_panel_and_list_are_registered():
    assert bpy.types.VIEW3D_PT_collision_scene_check.bl_parent_id == "VIEW3D_PT_collision_inspector"
    assert hasattr(bpy.types, "COLLISION_UL_results")
    assert bpy.context.scene.collision_inspector.scope == "VISIBLE"


def test_esc_while_reading_changes_nothing(addon_modules, scene_ops, monkeypatch):
    random_scene(15)
    bpy.ops.collision.check_all(scope="VISIBLE")
    before = addon_modules.store.records()
    monkeypatch.setattr(scene_ops, "STEP_S", 0.0)
    fake = _fake_operator(scene_ops)
    for _ in range(3):
        assert _tick(fake) == {"RUNNING_MODAL"}
    assert fake._run is None and 0 < fake._gathering.position < fake._gathering.total
    assert fake.modal(bpy.context, SimpleNamespace(type="ESC")) == {"CANCELLED"}
    assert addon_modules.store.records() == before
    assert "nothing changed" in fake.reports[-1][1]


def test_modal_with_one_object_ends_with_the_message(addon_modules, scene_ops):
    from tests.blender.scenes import cube

    cube("Only")
    fake = _fake_operator(scene_ops)
    assert _tick(fake) == {"CANCELLED"}
    assert fake.reports[-1][0] == {"WARNING"} and fake.reports[-1][1].startswith("Nothing to check: 1 object")
    assert addon_modules.store.records() == ()
