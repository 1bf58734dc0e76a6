"""Check Object's modal run in a real Blender window (Debian's 3.4 under Xvfb): a manual check, not run by pytest
(the headless tier, tests/blender/test_check_object_modal.py, calls modal() by hand; this one lets Blender's own
event loop drive the timer and deliver a real Esc).

    T=$(mktemp -d); mkdir -p $T/tmp
    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \
      timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \
      --enable-event-simulate --python tests/gui/object_check_window_check.py

Steps (from `bpy.app.timers` callbacks, so the window is up): enable the repository as a legacy add-on; Check
Object on a small two-part object straight through (the list to keep); then `collision.check_object` invoked in
the 3D view on a large self-crossing object (two overlapping UV spheres of 64 x 32 segments, subdivided once)
must return RUNNING_MODAL, and an Esc pressed while it runs must end it with the list, its Check Object result and
the object as they were; invoked again and left alone, it must finish with the large object's result.
Prints OBJECTGUI lines and exits 0 on success, 1 on any failure.
"""
import os
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manual_check import ManualCheck, make_active, operators_module, press  # noqa: E402  (tests/gui/manual_check.py)

CHECK = ManualCheck("OBJECTGUI")
log, fail, view3d = CHECK.log, CHECK.fail, CHECK.view3d
state = {}


def fingerprint(obj):
    mesh = obj.data
    return (tuple(obj.location), len(mesh.vertices), len(mesh.polygons), [m.name for m in obj.modifiers],
            len(bpy.data.objects), len(bpy.data.meshes))


def invoke_on(obj):
    make_active(obj)
    with CHECK.in_view3d():
        started = bpy.ops.collision.check_object("INVOKE_DEFAULT")
    if started != {"RUNNING_MODAL"}:
        fail(f"check_object did not run modally: {started}")


def run():
    store = operators_module("store")
    window = view3d()[0]
    s = CHECK.step
    if s == 0:
        CHECK.clear_scene()
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=(-6.0, 0.0, 0.0))
        small = bpy.context.active_object
        small.name = "Small"
        small.modifiers.new("Array", "ARRAY").relative_offset_displace = (1.1, 0.0, 0.0)  # two parts, 0.1 apart
        bpy.context.scene.collision_inspector.clearance = 0.2
        make_active(small)
        if bpy.ops.collision.check_object() != {"FINISHED"} or store.object_check().pairs != 1:
            fail(f"the straight run on the small object: {store.object_check()}")
        state["kept"] = (store.records(), store.object_check())
        bpy.ops.mesh.primitive_uv_sphere_add(segments=64, ring_count=32, radius=1.0)
        big = bpy.context.active_object
        big.name = "Big"
        big.modifiers.new("Subdivision", "SUBSURF").levels = 1
        array = big.modifiers.new("Array", "ARRAY")
        array.relative_offset_displace = (0.5, 0.0, 0.0)  # the copy crosses the sphere
        array.use_merge_vertices = False
        bpy.context.view_layer.update()
        state["before"] = fingerprint(big)
        invoke_on(big)
        CHECK.step, state["since"] = 1, time.time()
        return 0.05
    if s == 1:
        press(window, "ESC")
        CHECK.step = 2
        return 1.0
    if s == 2:
        records, check = state["kept"]
        if store.object_check() is not check or store.records() != records:
            fail(f"Esc: the list changed to {store.object_check()}")
        if fingerprint(bpy.data.objects["Big"]) != state["before"]:
            fail("Esc: the object changed")
        log(f"Esc: the list kept 'Small' ({len(records)} rows) {time.time() - state['since']:.2f} s after invoke")
        invoke_on(bpy.data.objects["Big"])
        CHECK.step, state["since"] = 3, time.time()
        return 0.5
    if s == 3:
        check = store.object_check()
        if (check is None or check.object_name != "Big") and time.time() - state["since"] < 200:
            return 0.5
        if check is None or check.object_name != "Big" or check.self_intersections == 0 or check.parts != 2:
            fail(f"the modal run to the end: {check}")
        triangles = sum(len(p.vertices) - 2 for p in bpy.data.objects["Big"].evaluated_get(
            bpy.context.evaluated_depsgraph_get()).data.polygons)
        log(f"modal run: {triangles} triangles, {check.self_intersections} self-intersections, {check.parts} parts, "
            f"finished {time.time() - state['since']:.2f} s after invoke")
        log("OK")
        os._exit(0)
    return None


CHECK.start(run)
