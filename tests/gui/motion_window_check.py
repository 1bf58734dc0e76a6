"""Live mode and the modal sweep in a real Blender window (Debian's 3.4 under Xvfb): a manual check, not run by
pytest (the headless tier, tests/blender/test_motion_*.py, calls the live timer by hand; this one lets Blender's
own event loop run it during a real interactive transform).

    T=$(mktemp -d); mkdir -p $T/tmp
    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \
      timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \
      --enable-event-simulate --python tests/gui/motion_window_check.py

Steps (from `bpy.app.timers` callbacks, so the window is up): enable the repository as a legacy add-on, build
two cubes (half 1) 4 apart along x, Check, turn Live on; start `transform.translate` (INVOKE, along x) on B in
the 3D view and drag the mouse left in simulated steps; the shown distance must follow B during the drag (the
readout lags B by at most one event) and, after the click that confirms, settle on the analytic value
(|x_B| - 2) with nothing stale, pending or registered; Live off leaves no timer.  Then `collision.sweep` is
invoked with a window (modal, timer-driven) and must finish and restore the frame.
Prints MOTIONGUI lines and exits 0 on success, 1 on any failure.
"""
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manual_check import ManualCheck, operators_module  # noqa: E402  (tests/gui/manual_check.py)

CHECK = ManualCheck("MOTIONGUI")
log, fail, view3d = CHECK.log, CHECK.fail, CHECK.view3d
state = {"seen": []}


def run():
    store, live = operators_module("store"), operators_module("live")
    window, _, region = view3d()
    s = CHECK.step
    if s == 0:
        CHECK.clear_scene()
        bpy.ops.mesh.primitive_cube_add(location=(0, 0, 0))
        a = bpy.context.active_object
        a.name = "A"
        bpy.ops.mesh.primitive_cube_add(location=(4, 0, 0))
        b = bpy.context.active_object
        b.name = "B"
        a.select_set(True)
        bpy.context.view_layer.objects.active = a
        with CHECK.in_view3d():
            bpy.ops.view3d.view_all()
        if bpy.ops.collision.check() != {"FINISHED"} or abs(store.active_record().distance - 2.0) > 1e-6:
            fail("the first check")
        bpy.context.scene.collision_inspector.live = True
        a.select_set(False)
        bpy.context.view_layer.objects.active = b
        CHECK.step = 1
        return 0.3
    if s == 1:
        state["x"], state["y"] = region.x + region.width // 2, region.y + region.height // 2
        window.event_simulate("MOUSEMOVE", "NOTHING", x=state["x"], y=state["y"])
        with CHECK.in_view3d():
            started = bpy.ops.transform.translate("INVOKE_DEFAULT", constraint_axis=(True, False, False))
        if started != {"RUNNING_MODAL"}:
            fail(f"transform.translate returned {started}")
        CHECK.step = 2
        return 0.2
    if s == 2:
        state["x"] -= 25
        window.event_simulate("MOUSEMOVE", "NOTHING", x=state["x"], y=state["y"])
        state["seen"].append((bpy.data.objects["B"].location.x, store.active_record().distance))
        if len(state["seen"]) < 12:
            return 0.15
        CHECK.step = 3
        return 0.3
    if s == 3:
        window.event_simulate("LEFTMOUSE", "PRESS", x=state["x"], y=state["y"])
        window.event_simulate("LEFTMOUSE", "RELEASE", x=state["x"], y=state["y"])
        CHECK.step, state["since"] = 4, time.time()
        return 0.5
    if s == 4:
        record = store.active_record()
        if (record.is_stale or record.preview or live.pending()) and time.time() - state["since"] < 30:
            # the event loop of a software-GL window on a busy machine can take seconds per pass; an Exact check
            # slower than live mode's budget there is previewed as hulls until the drag has settled
            return 0.5
        b = bpy.data.objects["B"]
        distances = {round(d, 6) for _, d in state["seen"]}
        log("during the drag (B.x, shown distance):", [(round(x, 4), round(d, 4)) for x, d in state["seen"]])
        if len(distances) < 4:
            fail(f"the readout did not follow the drag: {sorted(distances)}")
        expected = abs(b.location.x) - 2.0
        if record.is_stale or abs(record.distance - expected) > 1e-5:
            fail(f"after the drag: shown {record.distance} (stale {record.is_stale}), expected {expected}")
        log(f"settled {time.time() - state['since']:.2f} s after the confirm: distance {record.distance:.6f}")
        if bpy.app.timers.is_registered(live.tick):
            fail("the live timer is still registered with nothing to do")
        bpy.context.scene.collision_inspector.live = False
        if bpy.app.timers.is_registered(live.tick) or live.is_enabled():
            fail("Live off left something behind")
        b.location.x = 4.0
        b.keyframe_insert("location", frame=1)
        b.location.x = -4.0
        b.keyframe_insert("location", frame=21)
        bpy.context.scene.frame_set(3)
        store.set_sweep(bpy.context.window_manager, None)
        with CHECK.in_view3d():
            started = bpy.ops.collision.sweep("INVOKE_DEFAULT", frame_start=1, frame_end=21)
        if started != {"RUNNING_MODAL"}:
            fail(f"the sweep did not run modally: {started}")
        CHECK.step, state["since"] = 5, time.time()
        return 0.5
    if s == 5:
        sweep = store.sweep_record()
        if sweep is None and time.time() - state["since"] < 120:
            return 0.5
        if sweep is None or sweep.first_contact_frame is None or sweep.cancelled:
            fail(f"the modal sweep: {sweep}")
        if bpy.context.scene.frame_current != 3:
            fail(f"the frame was not restored: {bpy.context.scene.frame_current}")
        log(f"modal sweep: first contact at frame {sweep.first_contact_frame:.4f}, frame restored")
        log("OK")
        os._exit(0)
    return None


CHECK.start(run)
