"""Live mode's settled exact answer as a modal run in a real Blender window (Debian's 3.4 under Xvfb): a manual
check, not run by pytest (the headless tier, tests/blender/test_live_settle_modal.py, drives the operator's methods
by hand; here live mode's own timer starts it in the window, and Blender's event loop runs it and a real Esc).

    T=$(mktemp -d); mkdir -p $T/tmp
    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \\
      timeout 900 xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \\
      --enable-event-simulate --python tests/gui/live_settle_window_check.py

Steps (from `bpy.app.timers` callbacks): two crossing chain links checked in Exact mode, Live on with the preview
rule lowered to 10 triangles, B moved a little: once the change has settled, live mode must start its settled
answer as a modal run (a work thread, `live._settling`) with the hulls' preview shown meanwhile (a timer that
comes late, on a busy machine, finds the change settled already: the preview and the run then begin together); an
Esc must end it with the preview kept and live mode held (no new run); the next move of B must bring the exact
answer (Exact mode, no preview) with no work left running.
Prints LIVEGUI lines and exits 0 on success, 1 on any failure.
"""
import importlib
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manual_check import ADDON, ManualCheck, crossing_links  # noqa: E402  (tests/gui/manual_check.py)

CHECK = ManualCheck("LIVEGUI")
log, fail, view3d = CHECK.log, CHECK.fail, CHECK.view3d
state = {}


def waited(limit):
    return time.time() - state["since"] > limit


def run():
    store = importlib.import_module(f"{ADDON}.operators.store")
    modal_run = importlib.import_module(f"{ADDON}.operators.modal_run")
    live = importlib.import_module(f"{ADDON}.operators.live")
    window, area, region = view3d()
    s = CHECK.step
    if s == 0:
        CHECK.clear_scene()
        scene = bpy.context.scene
        scene.collision_inspector.mode = "EXACT"
        a, b = crossing_links()
        bpy.context.view_layer.update()
        if bpy.ops.collision.check() != {"FINISHED"}:
            fail("the links' check did not finish")
        live.PREVIEW_TRIANGLES = 10
        scene.collision_inspector.live = True
        b.location.x += 0.01
        CHECK.step, state["since"] = 1, time.time()
        return 0.1
    if s == 1:
        record = store.active_record()
        if not (live._settling and modal_run.work_threads()):
            if waited(120):
                fail(f"no settled run started: preview {record.preview}, settling {live._settling}")
            return 0.1
        if not record.preview or record.mode.name != "HULL":
            fail(f"the settled run runs without the preview shown: {record}")
        log("the hulls' preview shown, the settled answer runs modally")
        window.event_simulate("ESC", "PRESS")
        window.event_simulate("ESC", "RELEASE")
        CHECK.step, state["since"] = 2, time.time()
        return 0.05
    if s == 2:
        if live._settling or modal_run.work_threads():
            if waited(120):
                fail("Esc did not end the settled run")
            return 0.05
        record = store.active_record()
        if not record.preview or not live._held:
            fail(f"Esc: preview {record.preview}, held {live._held}")
        log(f"Esc: the preview kept, live held; the run ended {time.time() - state['since']:.2f} s after Esc")
        CHECK.step, state["since"] = 3, time.time()
        return 1.0
    if s == 3:
        if live._settling or not store.active_record().preview:
            fail("held, live mode started again without a change")
        bpy.data.objects["Link B"].location.x += 0.01
        CHECK.step, state["since"] = 4, time.time()
        return 0.5
    if s == 4:
        record = store.active_record()
        if record.preview or live._settling or modal_run.work_threads():
            if waited(600):
                fail(f"the next change brought no exact answer: {record}")
            return 0.5
        if record.mode.name != "EXACT" or record.contact.status.name != "INTERSECTING":
            fail(f"the settled answer: {record}")
        log(f"the next change: the exact answer after {time.time() - state['since']:.2f} s, nothing running")
        log("OK")
        os._exit(0)
    return None


CHECK.start(run)
