"""Live mode's settled answer as a modal run (`live.COLLISION_OT_live_settle`, the shared `modal_run.ProgressRun`),
driven without a window as tests/blender/test_check_modal.py drives Check Collision's: crossing chain links shown
in Exact mode are previewed as hulls while B moves; once the changes settle, their exact answer (a depth interval
of seconds) runs tick by tick.  Run to the end it stores what the timer's own exact re-check stores, bit for bit;
Esc part way leaves the preview, holds live mode from trying again (the timer does not come back) until the next
change, and leaves no work running."""
import importlib
from types import SimpleNamespace

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scenes import select_pair
from tests.blender.test_check_modal import fake_operator
from tests.blender.test_motion_live import settle
from tests.blender.test_push_apart_meshes import crossing_links


@pytest.fixture
def live(addon, monkeypatch):
    module = importlib.import_module(f"{addon}.operators.live")
    monkeypatch.setattr(module, "PREVIEW_TRIANGLES", 10)  # the links are previewed while they move
    yield module
    if hasattr(bpy.types.Scene, "collision_inspector"):
        bpy.context.scene.collision_inspector.live = False
    module.disable()


@pytest.fixture
def modal_run(addon, monkeypatch):
    module = importlib.import_module(f"{addon}.operators.modal_run")
    monkeypatch.setattr(module, "STEP_S", 0.0)
    return module


def _answer(record):
    c = record.contact
    return (record.mode.name, record.preview, c.status.name, c.distance, c.separation.tobytes(),
            c.normal.tobytes(), c.point_a.tobytes(), c.point_b.tobytes())


def _shown_links(addon_modules):
    """The links checked in Exact mode and shown, live on."""
    checking, Mode = addon_modules.checking, addon_modules.record.Mode
    a, b = crossing_links()
    select_pair(a, b)
    bpy.context.view_layer.update()
    record = checking.check_pair(a, b, bpy.context.evaluated_depsgraph_get(), checking.CheckSettings(mode=Mode.EXACT))
    addon_modules.store.store(bpy.context.window_manager, record)
    bpy.context.scene.collision_inspector.live = True
    return a, b


def _previewed_links(live, addon_modules):
    """The links shown (`_shown_links`), B moved a little: the record is a hull preview."""
    store, Mode = addon_modules.store, addon_modules.record.Mode
    a, b = _shown_links(addon_modules)
    b.location.x += 0.01
    bpy.context.view_layer.update()
    assert live.tick() is not None  # the timer comes back for the exact answer
    assert store.active_record().preview and store.active_record().mode is Mode.HULL
    settle(live)
    return a, b


def _run(fake, modal_run, limit=20_000):
    ticks = [fake.modal(bpy.context, SimpleNamespace(type="TIMER"))]
    while ticks[-1] == {"RUNNING_MODAL"}:
        ticks.append(fake.modal(bpy.context, SimpleNamespace(type="TIMER")))
        assert len(ticks) < limit
    return ticks


def test_run_to_the_end_stores_the_timers_exact_answer(live, addon_modules, modal_run):
    store = addon_modules.store
    _previewed_links(live, addon_modules)
    assert live.tick() is None  # no window here: the timer answers in Exact mode itself
    inline = _answer(store.active_record())
    assert inline[:2] == ("EXACT", False)
    live._mark({store.active_record().identity_b})  # B marked again where it stands
    assert live.tick() is not None and store.active_record().preview  # previewed again
    settle(live)
    live._histories.clear()  # a fresh history, as the inline answer had (a kept one gives the same bits)

    fake = fake_operator(bpy.types.COLLISION_OT_live_settle, modal_run)
    assert live._settling and live.tick() == live.INTERVAL  # the timer waits while the run owns the records
    ticks = _run(fake, modal_run)
    assert ticks[-1] == {"FINISHED"} and len(ticks) >= 10 and not live._settling
    assert _answer(store.active_record()) == inline
    shares = [done for done, _ in fake.progress]
    assert shares == sorted(shares) and shares[-1] < 1.0
    assert fake._steps is None and not modal_run.work_threads()


def test_esc_keeps_the_preview_until_the_next_change(live, addon_modules, modal_run):
    store = addon_modules.store
    a, b = _previewed_links(live, addon_modules)
    preview = _answer(store.active_record())
    fake = fake_operator(bpy.types.COLLISION_OT_live_settle, modal_run)
    for _ in range(5):
        assert fake.modal(bpy.context, SimpleNamespace(type="TIMER")) == {"RUNNING_MODAL"}
    assert modal_run.work_threads()
    assert fake.modal(bpy.context, SimpleNamespace(type="ESC")) == {"CANCELLED"}
    assert fake.reports[-1] == ({"INFO"}, "Live exact answer cancelled on 'Link A' and 'Link B': nothing changed")
    assert fake._steps is None and not modal_run.work_threads() and not live._settling
    assert _answer(store.active_record()) == preview  # the preview stays
    assert live.tick() is None and _answer(store.active_record()) == preview  # held: not tried again
    b.location.x += 0.01  # the next change: previewed, then answered exactly once settled
    bpy.context.view_layer.update()
    assert live.tick() is not None and store.active_record().preview
    settle(live)
    assert live.tick() is None
    assert store.active_record().mode.name == "EXACT" and not store.active_record().preview


def test_with_a_window_a_settled_change_is_previewed_and_handed_to_the_modal_run(live, addon_modules, monkeypatch):
    """A timer that comes after SETTLE (a busy machine) finds the links' change settled already: with a window
    their exact answer is not computed in the timer (seconds, no Esc) but previewed as hulls and handed to the
    modal run (`_settle_in_window`, recorded here: there is no window to run it in)."""
    store, Mode = addon_modules.store, addon_modules.record.Mode
    a, b = _shown_links(addon_modules)
    handed = []
    monkeypatch.setattr(live, "_window_region", lambda: ("a window",))
    monkeypatch.setattr(live, "_settle_in_window", lambda: handed.append(store.active_record()))
    b.location.x += 0.01
    bpy.context.view_layer.update()
    settle(live)
    live.tick()
    assert len(handed) == 1 and handed[0].preview and handed[0].mode is Mode.HULL
    assert store.active_record() is handed[0]
