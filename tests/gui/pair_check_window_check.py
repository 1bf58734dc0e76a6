"""Check Collision's modal run in a real Blender window (Debian's 3.4 under Xvfb): a manual check, not run by
pytest (the headless tier, tests/blender/test_check_modal.py, calls modal() by hand; this one lets Blender's own
event loop drive the timer, the engine's work thread and a real Esc).

    T=$(mktemp -d); mkdir -p $T/tmp
    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \
      timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \
      --enable-event-simulate --python tests/gui/pair_check_window_check.py

Steps (from `bpy.app.timers` callbacks, so the window is up): enable the repository as a legacy add-on; Check
Collision on two cubes apart (the result to keep), invoked in the 3D view: it answers at once (FINISHED: nothing
to narrow); then on two crossing chain links in Exact mode (their depth interval takes seconds) it must return
RUNNING_MODAL, and an Esc pressed while it runs must end it with the cubes' result kept, the scene as it was and
no work thread left; checked straight through (`execute`) and then invoked again and left alone, it must finish
with the links' intersecting result (both times are printed: the modal run's cost).
Prints PAIRGUI lines and exits 0 on success, 1 on any failure.
"""
import importlib
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manual_check import ADDON, ManualCheck, crossing_links, select_pair  # noqa: E402  (tests/gui/manual_check.py)

CHECK = ManualCheck("PAIRGUI")
log, fail, view3d = CHECK.log, CHECK.fail, CHECK.view3d
state = {}


def fingerprint():
    return [(obj.name, tuple(obj.matrix_world.translation), len(obj.data.vertices)) for obj in bpy.data.objects]


def invoke(window, area, region):
    with bpy.context.temp_override(window=window, area=area, region=region):
        return bpy.ops.collision.check("INVOKE_DEFAULT")


def run():
    store = importlib.import_module(f"{ADDON}.operators.store")
    modal_run = importlib.import_module(f"{ADDON}.operators.modal_run")
    window, area, region = view3d()
    s = CHECK.step
    if s == 0:
        CHECK.clear_scene()
        bpy.context.scene.collision_inspector.mode = "EXACT"
        bpy.ops.mesh.primitive_cube_add(size=2.0, location=(-10.0, 0.0, 0.0))
        cube_a = bpy.context.active_object
        bpy.ops.mesh.primitive_cube_add(size=2.0, location=(-7.0, 0.0, 0.0))
        cube_b = bpy.context.active_object
        select_pair(cube_a, cube_b)
        outcome = invoke(window, area, region)
        if outcome != {"FINISHED"} or store.active_record() is None:
            fail(f"the cubes' check did not answer at once: {outcome}")
        state["kept"] = store.active_record()
        crossing_links()
        bpy.context.view_layer.update()
        state["before"] = fingerprint()
        outcome = invoke(window, area, region)
        if outcome != {"RUNNING_MODAL"}:
            fail(f"the links' check did not run modally: {outcome}")
        if not modal_run.work_threads():
            fail("no work thread while the links' check runs")
        CHECK.step, state["since"] = 1, time.time()
        return 0.5
    if s == 1:
        window.event_simulate("ESC", "PRESS")
        window.event_simulate("ESC", "RELEASE")
        CHECK.step, state["esc"] = 2, time.time()
        return 0.02
    if s == 2:
        if modal_run.work_threads() and time.time() - state["esc"] < 30:
            return 0.02  # the run ends at the engine's next report
        if store.active_record() is not state["kept"]:
            fail(f"Esc: the result changed to {store.active_record()}")
        if fingerprint() != state["before"]:
            fail("Esc: the scene changed")
        if modal_run.work_threads():
            fail("Esc: the work thread is still there")
        log(f"Esc: the cubes' result kept; the work stopped {time.time() - state['esc']:.2f} s after Esc "
            f"({state['esc'] - state['since']:.2f} s after invoke)")
        started = time.time()
        if bpy.ops.collision.check() != {"FINISHED"}:
            fail("the links' straight check did not finish")
        state["straight"] = (time.time() - started, store.active_record().time_ms)
        state["straight_record"] = store.active_record()
        if invoke(window, area, region) != {"RUNNING_MODAL"}:
            fail("the links' second check did not run modally")
        CHECK.step, state["since"] = 3, time.time()
        return 0.5
    if s == 3:
        record = store.active_record()
        if record is state["straight_record"] and time.time() - state["since"] < 200:
            return 0.5
        if record is state["straight_record"] or record.object_a != "Link A" or record.contact.status.name != "INTERSECTING":
            fail(f"the modal run to the end: {record}")
        if modal_run.work_threads():
            fail("the work thread outlived the run")
        log(f"modal run: depth {record.contact.depth:.6g} + gap {record.contact.gap:.3g}, finished "
            f"{time.time() - state['since']:.2f} s after invoke (engine {record.time_ms / 1e3:.2f} s); a straight "
            f"check: {state['straight'][0]:.2f} s (engine {state['straight'][1] / 1e3:.2f} s)")
        log("OK")
        os._exit(0)
    return None


CHECK.start(run)
