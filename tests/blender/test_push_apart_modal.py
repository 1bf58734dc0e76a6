"""Push Apart's modal run on a slow pair, driven without a window as tests/blender/test_check_modal.py drives
Check Collision's (the same `modal_run.ProgressRun`): two crossing chain links in Exact mode, whose first check and
re-check each narrow a depth interval for seconds, pushed apart tick by tick through the real operator's methods.
Run to the end, B ends where a straight Push Apart puts it, bit for bit, and one undo step puts it back; Esc part
way (before B moves, or after its move while the moved pair is re-checked) puts B back bit for bit, stores no
result and returns CANCELLED (Blender pushes no undo step for it), with no work left running.  A pair already
apart is refused at the first step; Move to Contact runs the same way."""
import importlib
from types import SimpleNamespace

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scenes import cube, select_pair, snapshot
from tests.blender.test_check_modal import fake_operator
from tests.blender.test_push_apart_meshes import crossing_links


@pytest.fixture
def modal_run(addon, monkeypatch):
    module = importlib.import_module(f"{addon}.operators.modal_run")
    monkeypatch.setattr(module, "STEP_S", 0.0)  # one unit of the engine's work (or one move of B) per tick
    return module


@pytest.fixture
def exact_mode(fresh_file):
    bpy.context.scene.collision_inspector.mode = "EXACT"


def _fake_push(modal_run, gap=0.0):
    return fake_operator(bpy.types.COLLISION_OT_push_apart, modal_run, gap=gap)


def _tick(fake):
    return fake.modal(bpy.context, SimpleNamespace(type="TIMER"))


def _links():
    a, b = crossing_links()
    select_pair(a, b)
    bpy.context.view_layer.update()
    return a, b


def _placement(obj):
    bpy.context.view_layer.update()
    return tuple(obj.location), np.array(obj.matrix_world).tobytes()


def test_run_to_the_end_moves_b_as_a_straight_push_and_undoes_in_one_step(exact_mode, addon_modules, modal_run):
    a, b = _links()
    start = _placement(b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}  # straight through (execute)
    straight = _placement(b)
    straight_record = addon_modules.store.active_record()
    b.location = start[0]
    addon_modules.store.clear(bpy.context.window_manager)
    assert _placement(b) == start
    bpy.ops.ed.undo_push(message="scene built")
    select_pair(a, b)
    bpy.ops.ed.undo_push(message="selection")

    fake = _fake_push(modal_run)
    ticks = []
    while not ticks or ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(_tick(fake))
        assert len(ticks) < 20_000
    assert ticks[-1] == {"FINISHED"} and len(ticks) >= 20
    assert _placement(b) == straight  # the same moves, bit for bit
    record = addon_modules.store.active_record()
    assert record.status.name in ("TOUCHING", "SEPARATED")
    assert (record.contact.distance, record.contact.normal.tobytes()) == (
        straight_record.contact.distance, straight_record.contact.normal.tobytes())
    assert fake.reports[-1][0] == {"INFO"} and fake.reports[-1][1].startswith("Moved 'Link B'")
    # the bar only goes forward, below full; the status line names the engine's stages
    shares = [done for done, _ in fake.progress]
    assert shares == sorted(shares) and shares[-1] < 1.0
    stages = {stage.text for stage in addon_modules.core.Stage}
    assert {stage for _, stage in fake.progress} <= stages
    assert fake._steps is None and fake._moved is None and not modal_run.work_threads()

    bpy.ops.ed.undo_push(message="Push Apart")  # the step Blender pushes when the modal run returns FINISHED
    bpy.ops.ed.undo()
    assert tuple(bpy.data.objects["Link B"].location) == start[0]  # one undo step, bit for bit


@pytest.fixture
def slow_rechecks(addon, monkeypatch):
    """The links' re-check after the move is a distance query that reports nothing (it ends within the tick of
    the move); this makes every check after a run's first report three units of work first, as a long re-check
    of larger meshes would, so that Esc can come while B stands moved."""
    push = importlib.import_module(f"{addon}.operators.push")
    core = importlib.import_module(f"{addon}.core")
    real, calls = push.check_pair_steps, []

    def reporting(*args, **kwargs):
        calls.append(args[1].name)
        if len(calls) > 1:
            for k in range(3):
                yield core.Progress(core.Stage.VERIFY, k / 3.0, kwargs["part"])
        return (yield from real(*args, **kwargs))

    monkeypatch.setattr(push, "check_pair_steps", reporting)
    return calls


@pytest.mark.parametrize("when", ["during the first check", "after the move, during the re-check"])
def test_esc_puts_b_back_and_changes_nothing(exact_mode, addon_modules, modal_run, slow_rechecks, when):
    c, d = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(c, d)
    assert bpy.ops.collision.check() == {"FINISHED"}
    before_record = addon_modules.store.active_record()
    a, b = _links()
    start = _placement(b)
    before = snapshot()
    fake = _fake_push(modal_run)
    if when == "during the first check":
        for _ in range(5):
            assert _tick(fake) == {"RUNNING_MODAL"}
        assert tuple(b.location) == start[0]
    else:
        while tuple(b.location) == start[0]:  # until B has made its separating move
            assert _tick(fake) == {"RUNNING_MODAL"}
            assert len(fake.progress) < 20_000
        assert len(slow_rechecks) == 2 and tuple(b.location) != start[0]  # the moved pair's re-check began
    # in the first check, the engine's work waits at one of its reports (the re-check's reports come first)
    assert bool(modal_run.work_threads()) == (when == "during the first check")
    assert fake.modal(bpy.context, SimpleNamespace(type="ESC")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "Push Apart cancelled on 'Link A' and 'Link B': nothing changed")
    assert fake._steps is None and not modal_run.work_threads()
    assert _placement(b) == start  # bit for bit
    assert snapshot() == before
    assert addon_modules.store.active_record() is before_record


def test_a_failing_recheck_puts_b_back(exact_mode, addon_modules, addon, modal_run, monkeypatch):
    """The check after B's move raises: the error is reported, B goes back, nothing is stored."""
    a, b = _links()
    start = _placement(b)
    push = importlib.import_module(f"{addon}.operators.push")
    real, calls = push.check_pair_steps, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) > 1:
            raise ValueError("refused for the test")
        return (yield from real(*args, **kwargs))

    monkeypatch.setattr(push, "check_pair_steps", failing)
    fake = _fake_push(modal_run)
    ticks = [_tick(fake)]
    while ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(_tick(fake))
        assert len(ticks) < 20_000
    assert ticks[-1] == {"CANCELLED"} and len(calls) == 2
    assert fake.reports[-1] == ({"ERROR"}, "Cannot check 'Link A' and 'Link B': refused for the test")
    assert _placement(b) == start and addon_modules.store.active_record() is None and not modal_run.work_threads()


def test_a_pair_already_apart_is_refused_at_the_first_step(exact_mode, addon_modules, modal_run):
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    fake = _fake_push(modal_run)
    assert fake._advance(bpy.context, 0.0) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "'Cube A' and 'Cube B' are already apart: nothing to push")
    assert tuple(b.location) == (3.0, 0.0, 0.0) and fake._steps is None
    assert addon_modules.store.active_record().contact.distance == pytest.approx(1.0, abs=1e-12)


def test_move_to_contact_runs_the_same_way(exact_mode, addon_modules, modal_run):
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    fake = fake_operator(bpy.types.COLLISION_OT_move_to_contact, modal_run, gap=0.0)
    ticks = [_tick(fake)]
    while ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(_tick(fake))
        assert len(ticks) < 1000
    assert ticks[-1] == {"FINISHED"}
    assert tuple(b.location)[0] == pytest.approx(2.0, abs=1e-6)
    assert addon_modules.store.active_record().status.name == "TOUCHING"
