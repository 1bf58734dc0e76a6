"""Check Object's modal run, driven without a window (as tests/blender/test_scene_check_ui.py drives the scene
check's): stage by stage on timer ticks, with the progress and the next stage reported at each, the same rows as
a straight run; Esc at any stage leaves the scene, the results list and the mirrored Check Object result as they
were; other events do not reach the scene; INVOKE without a window runs straight through."""
import importlib
from types import SimpleNamespace

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import settings
from tests.blender.scenes import make_active, snapshot
from tests.blender.test_check_object import AXIAL_GAP, hinge_object


@pytest.fixture
def object_check(addon):
    return importlib.import_module(f"{addon}.operators.object_check")


def _fake_operator(object_check):
    """An object carrying the operator's modal methods, so they run with no window (bpy.ops cannot), started as
    invoke() starts it; `progress` logs each (share done, stage) the run reports."""
    cls = bpy.types.COLLISION_OT_check_object
    methods = {name: getattr(cls, name) for name in ("modal", "_begin", "_target", "_publish", "_end", "_status")}
    fake = type("FakeCheckObject", (), methods)()
    fake._timer, fake._steps, fake.reports, fake.progress = None, None, [], []
    fake.report = lambda kind, message: fake.reports.append((set(kind), message))
    status = cls._status

    def logged(context, done, stage):
        fake.progress.append((done, stage))
        status(fake, context, done, stage)

    fake._status = logged
    assert fake._begin(bpy.context)
    return fake


def _event(kind):
    return SimpleNamespace(type=kind)


def _rows(store):
    return [(r.part_a, r.part_b, r.status.name, r.distance, len(r.contact.intersection)) for r in store.records()]


def _crossing_cube():
    """A cube whose Array copy overlaps it: self-intersections and a crossing pair of parts."""
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(5.0, 0.0, 0.0))
    cube = bpy.context.active_object
    array = cube.modifiers.new("Array", "ARRAY")
    array.relative_offset_displace = (0.5, 0.3, 0.2)
    array.use_merge_vertices = False
    return cube


def test_modal_run_reports_each_stage_and_equals_a_straight_run(addon_modules, object_check, monkeypatch):
    make_active(hinge_object())
    settings().clearance = AXIAL_GAP + 1e-4
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    straight = _rows(addon_modules.store)
    addon_modules.store.clear()
    monkeypatch.setattr(object_check, "STEP_S", 0.0)  # one stage per tick
    fake = _fake_operator(object_check)
    stages = object_check.OBJECT_STAGES
    ticks = []
    for _ in range(len(stages) + 1):
        ticks.append(fake.modal(bpy.context, _event("TIMER")))
        if ticks[-1] != {"RUNNING_MODAL"}:
            break
    assert ticks == [{"RUNNING_MODAL"}] * (len(stages) - 1) + [{"FINISHED"}]
    # after each stage but the last: a larger share done and the stage that comes next, in order
    shares = [done for done, _ in fake.progress]
    assert [stage for _, stage in fake.progress] == list(stages[1:])
    assert 0.0 < shares[0] and all(a < b for a, b in zip(shares, shares[1:])) and shares[-1] < 1.0
    assert _rows(addon_modules.store) == straight and len(straight) == 5
    assert addon_modules.store.object_check().parts == 4
    assert fake._steps is None and fake.reports[-1][0] == {"INFO"}


@pytest.mark.parametrize("ticks", [0, 1, 2, 3], ids=lambda n: f"after {n} stages")
def test_esc_changes_nothing(addon_modules, object_check, monkeypatch, ticks):
    """A hinge checked first; then Esc during a check of a self-crossing cube: the hinge's rows and Check Object
    result stay, mirrored as they were, and the scene is untouched."""
    make_active(hinge_object())
    settings().clearance = AXIAL_GAP + 1e-4
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    store = addon_modules.store
    rows, check = store.records(), store.object_check()
    mirror = bpy.context.window_manager.collision_inspector
    mirrored = (mirror.object_check.object_name, mirror.object_check.parts, mirror.object_check.pairs,
                [(item.part_a, item.part_b, item.distance) for item in mirror.results])
    make_active(_crossing_cube())
    bpy.context.view_layer.update()
    before = snapshot()
    monkeypatch.setattr(object_check, "STEP_S", 0.0)
    fake = _fake_operator(object_check)
    for _ in range(ticks):
        assert fake.modal(bpy.context, _event("TIMER")) == {"RUNNING_MODAL"}
    assert len(fake.progress) == ticks
    assert fake.modal(bpy.context, _event("LEFTMOUSE")) == {"RUNNING_MODAL"}  # does not reach the scene
    assert fake.modal(bpy.context, _event("WHEELUPMOUSE")) == {"PASS_THROUGH"}  # the view may move
    assert fake.modal(bpy.context, _event("ESC")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "Check Object cancelled on 'Cube': nothing changed")
    assert fake._steps is None
    assert store.records() == rows and store.object_check() is check
    assert (mirror.object_check.object_name, mirror.object_check.parts, mirror.object_check.pairs,
            [(item.part_a, item.part_b, item.distance) for item in mirror.results]) == mirrored
    assert snapshot() == before
    # the same object checked to the end does change the list: the cancelled run was a real one
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    assert store.object_check().object_name == "Cube" and store.object_check().self_intersections > 0


def test_an_error_in_a_stage_is_reported_and_changes_nothing(addon_modules, object_check, monkeypatch):
    make_active(hinge_object())
    settings().clearance = AXIAL_GAP + 1e-4
    bpy.ops.collision.check_object()
    rows = addon_modules.store.records()
    checking = addon_modules.checking

    def refused(mesh, clearance):
        raise ValueError("refused for the test")

    monkeypatch.setattr(checking, "part_clearance_steps", refused)
    monkeypatch.setattr(object_check, "STEP_S", 0.0)
    fake = _fake_operator(object_check)
    returned = [fake.modal(bpy.context, _event("TIMER")) for _ in range(3)]
    assert returned == [{"RUNNING_MODAL"}, {"RUNNING_MODAL"}, {"CANCELLED"}]  # the third stage raised
    assert fake.reports[-1] == ({"ERROR"}, "Cannot check 'Hinge': refused for the test")
    assert addon_modules.store.records() == rows and fake._steps is None


def test_esc_is_taken_between_the_pair_questions(addon_modules, object_check, monkeypatch):
    """A cube with three overlapping Array copies: the clearance stage asks the pair question of every pair of
    parts that touch or cross, and the run stops for events before each.  Run to the end tick by tick it lists
    what a straight run lists; Esc at the first of those ticks changes nothing."""
    cube = _crossing_cube()
    cube.modifiers["Array"].count = 4
    settings().clearance = 0.01
    make_active(cube)
    bpy.context.view_layer.update()
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    store = addon_modules.store
    straight, check = _rows(store), store.object_check()
    monkeypatch.setattr(object_check, "STEP_S", 0.0)
    stages = object_check.OBJECT_STAGES
    fake = _fake_operator(object_check)
    ticks = []
    while not ticks or ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(fake.modal(bpy.context, _event("TIMER")))
    inside = [done for done, stage in fake.progress if stage == stages[2]]
    assert len(inside) >= 1 + 3  # after the self-intersections, then before each of at least three questions
    assert ticks[-1] == {"FINISHED"} and _rows(store) == straight
    finished = store.object_check()
    assert finished.pairs == check.pairs and finished is not check
    assert [done for done, _ in fake.progress] == sorted(done for done, _ in fake.progress)
    # again, Esc before the first pair question: the list keeps the finished run's rows
    fake = _fake_operator(object_check)
    for _ in range(3):  # reading, self-intersections, the searches of the clearance stage
        assert fake.modal(bpy.context, _event("TIMER")) == {"RUNNING_MODAL"}
    assert fake.progress[-1][1] == stages[2]
    assert fake.modal(bpy.context, _event("ESC")) == {"CANCELLED"}
    assert _rows(store) == straight and store.object_check() is finished


def test_invoke_without_a_window_runs_straight_through(addon_modules):
    make_active(hinge_object())
    settings().clearance = AXIAL_GAP + 1e-4
    assert bpy.ops.collision.check_object("INVOKE_DEFAULT") == {"FINISHED"}
    assert len(addon_modules.store.records()) == 5
