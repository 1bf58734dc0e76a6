"""The picture of the scene check in docs/scene-check.md: a real Blender window (Debian's Blender 3.4 under
Xvfb), Check All run the interactive way (its modal timer run, with progress), the results list in the sidebar
and the overlay.

    python3 scripts/scene_screenshot.py docs/scene_check.png

Run with a plain Python, it starts `xvfb-run blender --factory-startup --enable-event-simulate --python <this
file>` with Blender's user folders in a temporary directory (nothing touches a real profile).  Inside Blender it
enables the add-on from this checkout, builds a small layout (pipes through a wall, a shelf of boxes), runs
`collision.check_all('INVOKE_DEFAULT')` with the window as context, waits for the modal run to finish, brings the
sidebar's Collision tab to the front (simulated wheel steps over the tab strip), chooses the second row and saves
the screenshot.  Exit code non-zero on any failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ADDON = "collision_inspector"
SCREEN = "1400x1000x24"


def launch(out: str) -> int:
    missing = [tool for tool in ("blender", "xvfb-run", "xauth") if shutil.which(tool) is None]
    if missing:
        print(f"scene_screenshot: needs {', '.join(missing)} on PATH")
        return 2
    with tempfile.TemporaryDirectory(prefix="ci-scene-shot-") as tmp:
        env = dict(os.environ, BLENDER_USER_RESOURCES=os.path.join(tmp, "user"),
                   XDG_CACHE_HOME=os.path.join(tmp, "cache"), PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        # Debian's Blender embeds the system Python, which finds its prefix (and numpy) through PATH: a pyenv or
        # venv Python first on PATH hides it.
        env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                      if ".pyenv" not in p and ".venv" not in p)
        for key in [k for k in env if k.startswith("PYENV")]:
            env.pop(key)
        command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", "blender", "--factory-startup", "-noaudio",
                   "--enable-event-simulate", "--python", os.path.abspath(__file__), "--", os.path.abspath(out)]
        try:
            return subprocess.run(command, env=env, cwd=tmp, timeout=300).returncode
        except subprocess.TimeoutExpired:
            print("scene_screenshot: timed out")
            return 124


# --------------------------------------------------------------------------------------------- in Blender

def in_blender():
    import bpy

    out = sys.argv[sys.argv.index("--") + 1]

    def fail(message):
        print("scene_screenshot: FAILED:", message, flush=True)
        os._exit(1)

    sys.path.insert(0, HERE)
    import blender_env  # scripts/blender_env.py: the one way the add-on is enabled in Blender 3.4

    try:
        blender_env.enable_legacy(ROOT)
    except blender_env.BlenderEnvError as exc:
        fail(str(exc))
    store = sys.modules[f"{ADDON}.operators.store"]
    drawn = []
    panel = bpy.types.VIEW3D_PT_collision_scene_check
    original_draw = panel.draw

    def spy(self, context):
        drawn.append(True)
        original_draw(self, context)

    panel.draw = spy

    window = bpy.context.window_manager.windows[0]

    def area_regions():
        area = max((a for a in window.screen.areas if a.type == "VIEW_3D"), key=lambda a: a.width * a.height)
        return area, next(r for r in area.regions if r.type == "WINDOW"), next(r for r in area.regions
                                                                               if r.type == "UI")

    def redraw():
        with bpy.context.temp_override(window=window):
            bpy.ops.wm.redraw_timer(type="DRAW_WIN_SWAP", iterations=1)

    def build():
        for obj in list(bpy.data.objects):
            bpy.data.objects.remove(obj, do_unlink=True)
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 1.0), scale=(0.2, 4.0, 2.0))
        bpy.context.active_object.name = "Wall"
        for k, (y, z, reach) in enumerate(((-1.2, 0.6, 0.0), (0.0, 1.2, -0.25), (1.2, 1.6, 0.3))):
            bpy.ops.mesh.primitive_cylinder_add(vertices=24, radius=0.15, depth=2.0,
                                                location=(-1.0 + reach, y, z), rotation=(0.0, 1.5708, 0.0))
            bpy.context.active_object.name = f"Pipe{k + 1}"
        for k, x in enumerate((-2.5, -1.92, -1.32, -0.69)):  # 2 cm overlap, touching, 3 cm apart
            bpy.ops.mesh.primitive_cube_add(size=0.6, location=(x, -2.0, 0.3))
            bpy.context.active_object.name = f"Box{k + 1}"
        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.35, location=(-2.3, 1.5, 0.36))
        bpy.context.active_object.name = "Ball"
        bpy.context.view_layer.update()
        bpy.context.scene.collision_inspector.clearance = 0.05

    area = None
    state = {"step": 0, "tries": 0, "t0": time.monotonic()}

    def tick():
        nonlocal area
        try:
            if time.monotonic() - state["t0"] > 200:
                fail("watchdog")
            step = state["step"]
            if step == 0:
                area, region, sidebar = area_regions()
                with bpy.context.temp_override(window=window, area=area, region=region):
                    bpy.ops.screen.screen_full_area()
                area, region, sidebar = area_regions()
                space = area.spaces.active
                space.show_region_ui = True
                space.shading.type = "SOLID"
                space.shading.color_type = "OBJECT"
                space.overlay.show_stats = False
                build()
                r3d = space.region_3d
                from mathutils import Euler, Vector

                r3d.view_perspective = "PERSP"
                r3d.view_rotation = Euler((1.1, 0.0, -0.9)).to_quaternion()
                r3d.view_location = Vector((-0.9, 0.0, 0.8))
                r3d.view_distance = 9.0
                with bpy.context.temp_override(window=window, area=area, region=sidebar):
                    result = bpy.ops.collision.check_all("INVOKE_DEFAULT", scope="VISIBLE")
                print("check_all invoked:", result, flush=True)
                if result != {"RUNNING_MODAL"}:
                    fail(f"check_all did not start a modal run: {result}")
                state["step"] = 1
            elif step == 1:  # the modal run: wait for its records
                if not store.records():
                    state["tries"] += 1
                    if state["tries"] > 100:
                        fail("the modal check_all stored nothing")
                    return 0.1
                print("listed:", [(r.object_a, r.object_b, r.status.name) for r in store.records()], flush=True)
                state["step"], state["tries"] = 2, 0
            elif step == 2:  # bring the Collision tab to the front of the sidebar
                drawn.clear()
                redraw()
                if drawn:
                    state["step"] = 3
                    return 0.1
                state["tries"] += 1
                if state["tries"] > 10:
                    fail("the Collision tab never came to the front")
                _, _, sidebar = area_regions()
                x, y = sidebar.x + sidebar.width - 8, sidebar.y + sidebar.height // 2
                window.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
                window.event_simulate("WHEELDOWNMOUSE", "PRESS", x=x, y=y)
            elif step == 3:  # choose a row: its pair is selected and drawn fully
                group = bpy.context.window_manager.collision_inspector
                group.active_index = min(1, len(group.results) - 1)
                area, region, sidebar = area_regions()
                window.event_simulate("MOUSEMOVE", "NOTHING", x=region.x + 5, y=region.y + 5)
                state["step"] = 4
                return 0.5
            elif step == 4:
                redraw()
                os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
                with bpy.context.temp_override(window=window, screen=window.screen):
                    bpy.ops.screen.screenshot(filepath=out)
                if not os.path.isfile(out):
                    fail(f"no screenshot written to {out}")
                print("screenshot:", out, flush=True)
                bpy.ops.wm.quit_blender()
                return None
            return 0.1
        except BaseException as exc:  # noqa: BLE001  (any failure ends the run with a non-zero code)
            import traceback

            traceback.print_exc()
            fail(repr(exc))

    bpy.context.preferences.view.show_splash = False
    bpy.app.timers.register(tick, first_interval=0.5)


if __name__ == "__main__":
    try:
        import bpy  # noqa: F401
    except ImportError:
        sys.exit(launch(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "scene_check.png")))
    in_blender()
