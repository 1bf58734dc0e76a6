"""Push Apart's modal run in a real Blender window (Debian's 3.4 under Xvfb): a manual check, not run by pytest
(the headless tier, tests/blender/test_push_apart_modal.py, calls modal() by hand and cannot see Blender's undo
pushes; this one lets Blender's own event loop drive the run, a real Esc, and the window manager's undo steps).

    T=$(mktemp -d); mkdir -p $T/tmp
    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \\
      timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \\
      --enable-event-simulate --python tests/gui/push_window_check.py

Steps (from `bpy.app.timers` callbacks): two crossing chain links in Exact mode; a scene property marks two undo
steps ("marker" = 1, then "before" = 2).  Push Apart invoked in the 3D view must return RUNNING_MODAL; an Esc must
end it with B where it was, no result stored, no work thread left, and no undo step: one undo then goes back past
"before" (marker 1).  Redone to "before", Push Apart invoked again and left alone must move B apart (the pair then
touches or is apart) in one undo step: one undo puts B back at its start with marker 2.
Prints PUSHGUI lines and exits 0 on success, 1 on any failure.
"""
import importlib
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manual_check import ADDON, ManualCheck, crossing_links, select_pair  # noqa: E402  (tests/gui/manual_check.py)

CHECK = ManualCheck("PUSHGUI")
log, fail, view3d = CHECK.log, CHECK.fail, CHECK.view3d
state = {}


def invoke(window, area, region):
    with bpy.context.temp_override(window=window, area=area, region=region):
        return bpy.ops.collision.push_apart("INVOKE_DEFAULT")


def link_b():
    return bpy.data.objects["Link B"]


def undo(window, area, region):
    with bpy.context.temp_override(window=window, area=area, region=region):
        bpy.ops.ed.undo()


def run():
    store = importlib.import_module(f"{ADDON}.operators.store")
    modal_run = importlib.import_module(f"{ADDON}.operators.modal_run")
    window, area, region = view3d()
    s = CHECK.step
    if s == 0:
        CHECK.clear_scene()
        scene = bpy.context.scene
        scene.collision_inspector.mode = "EXACT"
        a, b = crossing_links()
        scene["marker"] = 1
        bpy.ops.ed.undo_push(message="marker")
        scene["marker"] = 2
        bpy.ops.ed.undo_push(message="before")
        state["start"] = tuple(b.location)
        outcome = invoke(window, area, region)
        if outcome != {"RUNNING_MODAL"}:
            fail(f"Push Apart did not run modally: {outcome}")
        CHECK.step, state["since"] = 1, time.time()
        return 0.5
    if s == 1:
        window.event_simulate("ESC", "PRESS")
        window.event_simulate("ESC", "RELEASE")
        CHECK.step, state["esc"] = 2, time.time()
        return 0.02
    if s == 2:
        if modal_run.work_threads() and time.time() - state["esc"] < 60:
            return 0.02
        if modal_run.work_threads():
            fail("Esc: the work thread is still there")
        if tuple(link_b().location) != state["start"]:
            fail(f"Esc: B moved to {tuple(link_b().location)}")
        if store.active_record() is not None:
            fail("Esc: a result was stored")
        log(f"Esc: B where it was, nothing stored; the work stopped {time.time() - state['esc']:.2f} s after Esc")
        undo(window, area, region)
        CHECK.step = 3
        return 0.5
    if s == 3:
        if bpy.context.scene.get("marker") != 1:
            fail(f"Esc pushed an undo step: one undo left marker {bpy.context.scene.get('marker')}")
        log("Esc: no undo step (one undo goes back past 'before')")
        with bpy.context.temp_override(window=window, area=area, region=region):
            bpy.ops.ed.redo()
        select_pair(bpy.data.objects["Link A"], link_b())
        if invoke(window, area, region) != {"RUNNING_MODAL"}:
            fail("the second Push Apart did not run modally")
        CHECK.step, state["since"] = 4, time.time()
        return 0.5
    if s == 4:
        record = store.active_record()
        if (record is None or modal_run.work_threads()) and time.time() - state["since"] < 400:
            return 0.5
        if record is None or record.contact.status.name == "INTERSECTING":
            fail(f"Push Apart run to the end: {record}")
        moved = tuple(link_b().location)
        if moved == state["start"]:
            fail("Push Apart run to the end did not move B")
        log(f"run to the end: B moved by {[m - s for m, s in zip(moved, state['start'])]}, "
            f"{record.contact.status.name}, {time.time() - state['since']:.2f} s")
        undo(window, area, region)
        CHECK.step = 5
        return 0.5
    if s == 5:
        if tuple(link_b().location) != state["start"] or bpy.context.scene.get("marker") != 2:
            fail(f"one undo: B at {tuple(link_b().location)}, marker {bpy.context.scene.get('marker')}")
        log("one undo step puts B back bit for bit")
        log("OK")
        os._exit(0)
    return None


CHECK.start(run)
