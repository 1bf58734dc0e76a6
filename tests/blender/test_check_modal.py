"""Check Collision's modal run on a slow pair, driven without a window (as tests/blender/test_check_object_modal.py
drives Check Object's): two crossing chain links in Exact mode, whose depth interval takes seconds, are checked
tick by tick through the real operator's methods, the core reporting the interval's stages between its units of
work (core/progress.py); run to the end it stores what a straight check stores, bit for bit; Esc part way leaves
the scene, the stored result and its mirror as they were, and stops the engine's work (no thread left running).
A pair with nothing to narrow answers at the first step."""
import importlib
import types
from types import SimpleNamespace

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scenes import cube, select_pair, snapshot
from tests.blender.test_push_apart_meshes import crossing_links


@pytest.fixture
def check_module(addon):
    return importlib.import_module(f"{addon}.operators.check")


@pytest.fixture
def exact_mode(fresh_file):
    bpy.context.scene.collision_inspector.mode = "EXACT"


def fake_operator(cls, modal_run, **attributes):
    """An object carrying the modal methods of the operator class `cls` (its own and the shared run's,
    `modal_run.ProgressRun`), so they run with no window (bpy.ops cannot), started as invoke() starts it;
    `progress` logs each (share done, stage text) the run shows.  Also for Push Apart's
    (tests/blender/test_push_apart_modal.py)."""
    own = {name: value for klass in reversed(cls.__mro__) if klass.__module__ == cls.__module__
           for name, value in vars(klass).items() if isinstance(value, types.FunctionType) or name == "separate"}
    fake = type(f"Fake{cls.__name__}", (modal_run.ProgressRun,), {**own, "bl_label": cls.bl_label})()
    for name, value in attributes.items():
        setattr(fake, name, value)
    fake._timer, fake._steps, fake.reports, fake.progress = None, None, [], []
    fake.report = lambda kind, message: fake.reports.append((set(kind), message))
    fake._status = lambda context: fake.progress.append((fake._done, fake._stage))
    assert fake._begin(bpy.context)
    return fake


def _fake_operator(check_module):
    return fake_operator(bpy.types.COLLISION_OT_check, check_module.modal_run)


def _event(kind):
    return SimpleNamespace(type=kind)


def _answer(record):
    c = record.contact
    return (record.object_a, record.object_b, c.status.name, c.distance, c.gap, c.separation.tobytes(),
            c.normal.tobytes(), c.point_a.tobytes(), c.point_b.tobytes(), record.overlap_volume)


def _links():
    a, b = crossing_links()
    select_pair(a, b)
    bpy.context.view_layer.update()
    return a, b


def test_modal_run_reports_the_stages_and_stores_what_a_straight_check_stores(exact_mode, addon_modules,
                                                                             check_module, monkeypatch):
    _links()
    assert bpy.ops.collision.check() == {"FINISHED"}
    straight = _answer(addon_modules.store.active_record())
    addon_modules.store.clear(bpy.context.window_manager)
    monkeypatch.setattr(check_module.modal_run, "STEP_S", 0.0)  # one unit of the core's work per tick
    fake = _fake_operator(check_module)
    ticks = []
    while not ticks or ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(fake.modal(bpy.context, _event("TIMER")))
        assert len(ticks) < 10_000
    assert ticks[-1] == {"FINISHED"} and len(ticks) >= 20
    # the core's stages, in the status line; the bar only goes forward and stays below full until the end
    stages = {stage.text for stage in addon_modules.core.Stage}
    shown = [stage for _, stage in fake.progress]
    assert set(shown) <= stages and len(set(shown)) >= 3
    assert shown[-1] == addon_modules.core.Stage.OVERLAP.text  # the overlap volume is measured last
    shares = [done for done, _ in fake.progress]
    assert shares == sorted(shares) and shares[-1] <= 1.0
    assert _answer(addon_modules.store.active_record()) == straight
    assert fake._steps is None and fake.reports[-1][0] == {"INFO"} and not check_module.modal_run.work_threads()


@pytest.mark.parametrize("ticks", [1, 40], ids=lambda n: f"after {n} units")
def test_esc_changes_nothing(exact_mode, addon_modules, check_module, monkeypatch, ticks):
    """Two cubes apart checked first; then Esc during the check of the chain links: the cubes' result stays,
    mirrored as it was, the scene is untouched and the engine's work has stopped."""
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.check() == {"FINISHED"}
    store = addon_modules.store
    before_record = store.active_record()
    mirror = bpy.context.window_manager.collision_inspector.result
    mirrored = (mirror.object_a, mirror.object_b, mirror.status, mirror.distance)
    _links()
    before = snapshot()
    monkeypatch.setattr(check_module.modal_run, "STEP_S", 0.0)
    fake = _fake_operator(check_module)
    for _ in range(ticks):
        assert fake.modal(bpy.context, _event("TIMER")) == {"RUNNING_MODAL"}
    # the work waits in the core, mid-interval
    assert len(fake.progress) == ticks and check_module.modal_run.work_threads()
    assert fake.modal(bpy.context, _event("LEFTMOUSE")) == {"RUNNING_MODAL"}  # does not reach the scene
    assert fake.modal(bpy.context, _event("WHEELUPMOUSE")) == {"PASS_THROUGH"}  # the view may move
    assert fake.modal(bpy.context, _event("ESC")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "Check Collision cancelled on 'Link A' and 'Link B': nothing changed")
    assert fake._steps is None and not check_module.modal_run.work_threads()
    assert store.active_record() is before_record
    assert (mirror.object_a, mirror.object_b, mirror.status, mirror.distance) == mirrored
    assert snapshot() == before  # (run to its end, the same run stores the links' result: the test above)


def test_esc_while_the_overlap_volume_is_measured(exact_mode, addon_modules, check_module, monkeypatch):
    """The links' depth interval done, Esc during their overlap volume (core.overlap's reports): cancelled, with
    nothing stored and no work left running."""
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.check() == {"FINISHED"}
    before_record = addon_modules.store.active_record()
    _links()
    before = snapshot()
    monkeypatch.setattr(check_module.modal_run, "STEP_S", 0.0)
    fake = _fake_operator(check_module)
    overlap = addon_modules.core.Stage.OVERLAP.text
    while fake._stage != overlap:
        assert fake.modal(bpy.context, _event("TIMER")) == {"RUNNING_MODAL"}
        assert len(fake.progress) < 10_000
    assert fake.modal(bpy.context, _event("TIMER")) == {"RUNNING_MODAL"}  # and one more unit of it
    assert fake._done >= addon_modules.checking.OVERLAP_FROM  # the bar: the overlap's part, after the interval's
    assert fake.modal(bpy.context, _event("ESC")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "Check Collision cancelled on 'Link A' and 'Link B': nothing changed")
    assert fake._steps is None and not check_module.modal_run.work_threads()
    assert addon_modules.store.active_record() is before_record and snapshot() == before


def test_a_pair_with_nothing_to_narrow_answers_at_the_first_step(exact_mode, addon_modules, check_module):
    """Two cubes apart: no depth interval, so the core reports nothing and the first step stores the answer
    (invoke then answers at once, without a modal run, whatever the machine's speed)."""
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    fake = _fake_operator(check_module)
    assert fake._advance(bpy.context, 0.0) == {"FINISHED"}
    assert fake.progress == [] and fake._steps is None
    assert addon_modules.store.active_record().contact.distance == pytest.approx(1.0, abs=1e-12)


def test_an_error_in_the_engine_is_reported_and_changes_nothing(exact_mode, addon_modules, check_module,
                                                                monkeypatch):
    a, b = cube("Cube A"), cube("Cube B", location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.check() == {"FINISHED"}
    before_record = addon_modules.store.active_record()
    _links()
    checking = addon_modules.checking

    def refused(*args, **kwargs):
        raise ValueError("refused for the test")

    monkeypatch.setattr(checking, "check_geometry", refused)
    fake = _fake_operator(check_module)
    assert fake.modal(bpy.context, _event("TIMER")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"ERROR"}, "Cannot check 'Link A' and 'Link B': refused for the test")
    assert addon_modules.store.active_record() is before_record and fake._steps is None
    assert not check_module.modal_run.work_threads()
