"""Drive a real Blender window: enable Collision Inspector, press Check on two scenes, take screenshots.

Runs INSIDE Blender (Debian's 3.4 under Xvfb), never under pytest:

    BLENDER_USER_RESOURCES=$T/user XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp \
      xvfb-run -a -s "-screen 0 1280x800x24" blender --factory-startup -noaudio \
      --enable-event-simulate --python tests/gui/window_check.py -- --out DIR [--screenshot PNG] [--addon-root PATH]

`tests/gui/launch.py` does exactly this (temp dirs included); use it rather than the raw command.

What it does, step by step, from `bpy.app.timers` callbacks so that the window is up and drawing:
1. loads the repository folder as a legacy add-on named `collision_inspector` (a symlink in the isolated user
   scripts folder) and enables it;
2. makes the 3D view fill the window, opens its sidebar, builds a pair of closed meshes that intersect (A = active
   cube, B = an icosphere pushed into A's +x face), sets the check's mode to Exact (the mode that measures their
   overlap), selects both and sets a fixed perspective view on them;
3. brings the sidebar's Collision tab to the front (mouse wheel over the tab strip) and finds its Check button
   (hovering spots and asking Blender's "Copy Python Command" what is under the mouse);
4. screenshots the window before any check (`intersecting_before.png`: no overlay yet);
5. presses Check: a simulated click on that button (events need `--enable-event-simulate`; without it, the
   operator runs under a context override of the sidebar region instead); screenshots `intersecting_after.png`;
6. moves B away from A (a separated pair), presses Check again and screenshots (`separated_after.png`);
7. with `--screenshot`: moves B back, tints the objects, frames them closer, presses Check, saves the demo;
8. writes `window_check.json`: window size, region rectangles, how Check was pressed, and for each scene the
   stored result (overlap volume included), where its points project in screenshot pixels, the view matrices,
   the mode and display settings, and the overlay's draw data (`panels.overlay.current_draw_data()`, colours
   included; `region`: the overlap's triangles, three corners each, drawn in `region_color`).

Any failure prints a traceback and leaves through `os._exit(1)` (Blender itself would exit 0).
"""
import argparse
import json
import math
import os
import sys
import time
import traceback

import bmesh
import bpy
from bpy_extras import view3d_utils
from mathutils import Euler, Vector

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO_ROOT, "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py: enabling the add-on, shared with the other tiers)

ADDON = blender_env.addon_id()
WATCHDOG_SECONDS = 240.0  # the whole run; the caller's timeout (launch.py) is the backstop
MAX_TAB_CYCLES = 8        # wheel steps tried to bring the add-on's sidebar tab to the front
BUTTON_PROBE_STEP = 4     # px between the spots where find_button looks for the Check button
TAB_STRIP_INSET = 8       # px from the sidebar's right edge: inside its tab strip (about 20 px wide at UI scale 1)

# The scene (Blender units). A is a cube with half-extent 1 at the origin. B is an icosphere whose centre sits
# B_INTERSECTING from A's centre, so it sinks into A's +x face; B_SEPARATED leaves a clear gap along +x.
B_RADIUS = 0.8
B_INTERSECTING = (1.5, 0.0, 0.35)
B_SEPARATED = (2.6, 0.0, 0.9)
# A fixed perspective view: the camera looks mostly along +y, a little from above and from the -x side.
VIEW_ROTATION = Euler((math.radians(72.0), 0.0, math.radians(-18.0)), "XYZ")
VIEW_CENTER = (1.0, 0.0, 0.25)
VIEW_DISTANCE = 6.5
# The demo picture: closer, objects tinted (muted, far from the overlay's red / green / amber).
DEMO_VIEW_ROTATION = Euler((math.radians(78.0), 0.0, math.radians(-12.0)), "XYZ")
DEMO_VIEW_CENTER = (0.8, 0.0, 0.15)
DEMO_VIEW_DISTANCE = 5.8
DEMO_COLOR_A = (0.36, 0.5, 0.72, 1.0)
DEMO_COLOR_B = (0.78, 0.74, 0.62, 1.0)


def log(*args):
    print("[window_check]", *args, flush=True)


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(prog="window_check.py")
    parser.add_argument("--out", help="folder for the screenshots and window_check.json")
    parser.add_argument("--screenshot", help="also save the intersecting pair with its overlay here (demo)")
    parser.add_argument("--addon-root", default=REPO_ROOT, help="folder loaded as the add-on (default: repo)")
    args = parser.parse_args(argv)
    if not args.out and not args.screenshot:
        parser.error("give --out and/or --screenshot")
    return args


def fail(message):
    raise RuntimeError(message)


# --- add-on ----------------------------------------------------------------------------------------------

def enable_addon(addon_root):
    """Enable `addon_root` as the legacy add-on, the way scripts/blender_env.py does for every Blender < 4.2."""
    name = blender_env.enable_legacy(addon_root)  # refuses unless BLENDER_USER_RESOURCES is set (launch.py)
    if not hasattr(bpy.types, "COLLISION_OT_check"):
        fail("operator collision.check is not registered after enabling the add-on")
    module = sys.modules[name]
    log("enabled", module.__name__, "from", os.path.realpath(os.path.dirname(module.__file__)))
    return module


def stored_result():
    state = getattr(bpy.context.window_manager, "collision_inspector", None)
    if state is None:
        fail("WindowManager.collision_inspector is missing")
    return state.result


def result_dict(result):
    return {
        "status": str(result.status),
        "distance": float(result.distance),
        "normal": [float(v) for v in result.normal],
        "point_a": [float(v) for v in result.point_a],
        "point_b": [float(v) for v in result.point_b],
        "overlap_volume": float(result.overlap_volume),  # -1: not measured (operators/props.py)
        "overlap_exact": bool(result.overlap_exact),
    }


def to_jsonable(value):
    """Draw data as plain JSON: dicts, sequences, numbers, strings; vectors and arrays become lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "name") and hasattr(value, "value") and type(value).__module__ != "builtins":
        return value.name  # an Enum
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        return {name: to_jsonable(getattr(value, name)) for name in value.__dataclass_fields__}
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "_asdict"):
        return to_jsonable(value._asdict())
    if isinstance(value, (list, tuple)) or hasattr(value, "__len__") and hasattr(value, "__getitem__"):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "__dict__"):
        return {k: to_jsonable(v) for k, v in vars(value).items() if not k.startswith("_")}
    return repr(value)


def overlay_draw_data():
    """What the overlay's GPU layer is drawing now (`panels.overlay.current_draw_data()`), as JSON; the crossing
    curve's segments are listed with the lines, in the colour and width they are drawn with."""
    overlay = sys.modules.get(f"{ADDON}.panels.overlay")
    if overlay is None or not hasattr(overlay, "current_draw_data"):
        fail(f"{ADDON}.panels.overlay.current_draw_data is missing")
    data = to_jsonable(overlay.current_draw_data())
    curve = data.pop("curve", None) or []
    data["lines"] += [{"start": start, "end": end, "color": list(overlay.CROSSING_COLOR),
                       "width": overlay.CROSSING_WIDTH} for start, end in zip(curve[0::2], curve[1::2])]
    data["region_color"] = list(overlay.REGION_COLOR)
    return data


class PanelSpy:
    """Wraps the draw() of the add-on's sidebar panels to learn which ones the window really drew (and whether
    any raised). Blender looks draw() up on the class at each call, so wrapping works for registered panels."""

    def __init__(self):
        self.classes = [cls for cls in bpy.types.Panel.__subclasses__()
                        if cls.__module__.split(".")[0] == ADDON and getattr(cls, "bl_region_type", "") == "UI"]
        self.drawn, self.errors = set(), []
        self.categories = sorted({getattr(cls, "bl_category", "") for cls in self.classes})
        for cls in self.classes:
            cls.draw = self._wrap(cls, cls.draw)

    def _wrap(self, cls, draw):
        def spy(panel, context):
            self.drawn.add(cls.__name__)
            try:
                return draw(panel, context)
            except BaseException as exc:
                self.errors.append(f"{cls.__name__}.draw: {exc!r}")
                raise
        spy.original = draw
        return spy

    def remove(self):
        for cls in self.classes:
            cls.draw = getattr(cls.draw, "original", cls.draw)


# --- window, scene, view ---------------------------------------------------------------------------------

class UI:
    """The window, its 3D view area and the regions we need, found again after any screen change."""

    def __init__(self):
        wm = bpy.context.window_manager
        if not wm.windows:
            fail("no window")
        self.window = wm.windows[0]
        areas = [a for a in self.window.screen.areas if a.type == "VIEW_3D"]
        if not areas:
            fail("no 3D view in the window")
        self.area = max(areas, key=lambda a: a.width * a.height)
        self.space = self.area.spaces.active
        self.region = next(r for r in self.area.regions if r.type == "WINDOW")
        self.sidebar = next(r for r in self.area.regions if r.type == "UI")
        self.r3d = self.space.region_3d

    def override(self, region=None):
        return bpy.context.temp_override(window=self.window, screen=self.window.screen, area=self.area,
                                         region=region or self.region)

    def rects(self):
        return {r.type: {"x": r.x, "y": r.y, "width": r.width, "height": r.height}
                for r in self.area.regions if r.width > 1 and r.height > 1}


def make_mesh_object(name, build, location):
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    build(bm)
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    obj.location = location
    bpy.context.scene.collection.objects.link(obj)
    return obj


def build_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    a = make_mesh_object("A", lambda bm: bmesh.ops.create_cube(bm, size=2.0), (0.0, 0.0, 0.0))
    b = make_mesh_object("B", lambda bm: bmesh.ops.create_icosphere(bm, subdivisions=3, radius=B_RADIUS),
                         B_INTERSECTING)
    bpy.context.scene.collision_inspector.mode = "EXACT"  # the default; the overlap is measured only in it
    view_layer = bpy.context.view_layer
    view_layer.update()  # sync the view layer's bases with the new objects (the old ones are gone)
    a.select_set(True)
    b.select_set(True)
    view_layer.objects.active = a
    return a, b


def set_view(ui, rotation=VIEW_ROTATION, center=VIEW_CENTER, distance=VIEW_DISTANCE):
    ui.space.show_region_ui = True
    ui.space.shading.type = "SOLID"
    ui.r3d.view_perspective = "PERSP"
    ui.r3d.view_rotation = rotation.to_quaternion()
    ui.r3d.view_location = center
    ui.r3d.view_distance = distance
    ui.area.tag_redraw()


def redraw(ui):
    with bpy.context.temp_override(window=ui.window):
        bpy.ops.wm.redraw_timer(type="DRAW_WIN_SWAP", iterations=1)


def screenshot(ui, path):
    redraw(ui)
    with bpy.context.temp_override(window=ui.window, screen=ui.window.screen):
        if bpy.ops.screen.screenshot(filepath=path) != {"FINISHED"}:
            fail(f"screenshot to {path} did not finish")
    if not os.path.isfile(path):
        fail(f"screenshot {path} was not written")
    log("screenshot", path)


def press_check(ui):
    """Run Check the way the sidebar button does: in the 3D view, with the sidebar region as context."""
    with ui.override(region=ui.sidebar):
        outcome = bpy.ops.collision.check("INVOKE_DEFAULT")
    if outcome != {"FINISHED"}:
        fail(f"collision.check returned {outcome}")


def project(ui, point):
    """World point -> (x, y) in window pixels (origin bottom-left) and [column, row] in the screenshot.

    Both are continuous: pixel (column c, row r) of the screenshot covers [c, c + 1) x [r, r + 1), row 0 on top.
    """
    xy = view3d_utils.location_3d_to_region_2d(ui.region, ui.r3d, Vector(point))
    if xy is None:
        fail(f"{tuple(point)} is behind the view")
    x, y = ui.region.x + xy.x, ui.region.y + xy.y
    return {"window": [x, y], "pixel": [x, ui.window.height - y]}


def require_in_view(ui, name, proj, margin=40):
    """The projected point must be well inside the viewport and not under the (overlapping) sidebar."""
    x, y = proj["window"]
    left, bottom = ui.region.x + margin, ui.region.y + margin
    right = (ui.sidebar.x if ui.space.show_region_ui else ui.region.x + ui.region.width) - margin
    top = ui.region.y + ui.region.height - margin
    if not (left <= x <= right and bottom <= y <= top):
        fail(f"{name} projects to {x:.0f},{y:.0f}, outside the free viewport [{left},{right}]x[{bottom},{top}]")


def record_scene(ui, name):
    """The stored result, its projections and the overlay's draw data. Call it right after a screenshot: the
    RegionView3D matrices used for the projections are only brought up to date by a redraw."""
    result = stored_result()
    data = result_dict(result)
    projected = {key: project(ui, data[key]) for key in ("point_a", "point_b")}
    for key, proj in projected.items():
        require_in_view(ui, f"{name} {key}", proj)
    settings, display = bpy.context.scene.collision_inspector, bpy.context.window_manager.collision_inspector
    return {"result": data, "projected": projected, "draw_data": overlay_draw_data(),
            "settings": {"mode": settings.mode, "show_overlay": display.show_overlay,
                         "draw_through": display.draw_through},
            "view_matrix": [list(row) for row in ui.r3d.view_matrix],
            "perspective_matrix": [list(row) for row in ui.r3d.perspective_matrix]}


# --- the run ---------------------------------------------------------------------------------------------

class Run:
    def __init__(self, args):
        self.args = args
        self.out = os.path.abspath(args.out) if args.out else None
        self.report = {"blender_version": bpy.app.version_string, "scenes": {}, "screenshots": {}}
        self.ui = None
        self.objects = None
        self.t0 = time.monotonic()
        self.spy = PanelSpy()
        self.tab_tries = 0
        self.button = None       # window (x, y) of the sidebar's Check button, once found
        self.probes = None       # where find_button still has to look
        self.probe = None
        self.hits = []
        self.record_before = None
        self.confirm_tries = 0
        self.steps = [self.setup, self.show_tab]
        if self.out:
            self.steps += [self.find_button, self.before, self.check_intersecting, self.check_separated]
        if args.screenshot:
            if not self.out:
                self.steps.append(self.find_button)
            self.steps.append(self.demo)
        self.steps.append(self.finish)

    def shot(self, key):
        path = os.path.join(self.out, f"{key}.png")
        screenshot(self.ui, path)
        self.report["screenshots"][key] = path

    def setup(self):
        if self.out:
            os.makedirs(self.out, exist_ok=True)
        ui = UI()
        # Make the 3D view fill the window (Ctrl+Space): a bigger, cleaner picture, same drawing code.
        with ui.override():
            bpy.ops.screen.screen_full_area()
        self.ui = UI()
        self.objects = build_scene()
        set_view(self.ui)

    def show_tab(self):
        """Bring the add-on's sidebar tab to the front (3.4 has no Region.active_panel_category).

        The mouse wheel over the sidebar's tab strip (its right edge) cycles the tabs, as a user would; the
        events are simulated (Blender started with --enable-event-simulate). Not Ctrl+wheel over the panels: over
        a number field that edits the value. Each call redraws and looks whether one of the add-on's panels was
        drawn; if not, it sends one more wheel step and runs again on the next tick.
        """
        self.spy.drawn.clear()
        redraw(self.ui)  # (drawing the sidebar region alone, redraw_timer type DRAW, crashes 3.4 here)
        if self.spy.errors:
            fail("sidebar panel raised: " + "; ".join(self.spy.errors))
        if self.spy.drawn:
            log("sidebar shows", sorted(self.spy.drawn), f"after {self.tab_tries} wheel steps over the tab strip")
            self.report["sidebar_panels_drawn"] = sorted(self.spy.drawn)
            return
        if not getattr(bpy.app, "use_event_simulate", False) or self.tab_tries >= MAX_TAB_CYCLES:
            log("could not bring the add-on's tab", self.spy.categories, "to the front of the sidebar")
            self.report["sidebar_panels_drawn"] = []
            return
        self.tab_tries += 1
        sidebar = self.ui.sidebar
        x, y = sidebar.x + sidebar.width - TAB_STRIP_INSET, sidebar.y + sidebar.height // 2
        self.ui.window.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
        self.ui.window.event_simulate("WHEELDOWNMOUSE", "PRESS", x=x, y=y)
        self.steps.insert(0, self.show_tab)

    def before(self):
        self.shot("intersecting_before")

    def find_button(self):
        """Locate the sidebar's Check button as Blender's own "Copy Python Command" sees it: hover a spot (a
        simulated mouse move), then, with the sidebar as context, run `ui.copy_python_command_button` and read
        the clipboard. Probes go down the left part of the sidebar, one per tick; the button is the middle of
        the run of spots that name `bpy.ops.collision.check()`. Without simulated events (Blender started
        without --enable-event-simulate), Check runs under a context override instead."""
        wm = bpy.context.window_manager
        if self.probe is not None and wm.clipboard.startswith("bpy.ops.collision.check("):
            self.hits.append(self.probe)
        elif self.hits:  # just left the button: click the middle of what was hit
            self.button = (self.hits[0][0], (self.hits[0][1] + self.hits[-1][1]) // 2)
            log("Check button found at", self.button)
            self.report["check_button"] = list(self.button)
            return
        if self.probes is None:
            if not (getattr(bpy.app, "use_event_simulate", False) and self.report.get("sidebar_panels_drawn")):
                log("no simulated events or no panel: Check will run under a context override")
                return
            sidebar = self.ui.sidebar
            top = sidebar.y + sidebar.height
            x = sidebar.x + int(0.3 * sidebar.width)
            self.probes = [(x, y) for y in range(top - 10, top - 240, -BUTTON_PROBE_STEP)]
        if not self.probes:
            fail("no button running collision.check() in the sidebar's Collision tab")
        self.probe = self.probes.pop(0)
        wm.clipboard = ""
        x, y = self.probe
        self.ui.window.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
        self.steps.insert(0, self.find_button)
        self.steps.insert(0, self._probe_copy)

    def _probe_copy(self):
        """The mouse is over the probe: ask the UI to copy the Python command of the button under it."""
        with self.ui.override(region=self.ui.sidebar):
            if bpy.ops.ui.copy_python_command_button.poll():
                bpy.ops.ui.copy_python_command_button()

    def press(self, then):
        """Press Check, then run the step `then` once the press has been handled."""
        store = sys.modules[f"{ADDON}.operators.store"]
        if self.button is None:
            press_check(self.ui)
            self.report.setdefault("check_pressed_by", []).append("override")
            self.steps.insert(0, then)
            return
        self.record_before = store.active_record()
        self.confirm_tries = 0
        x, y = self.button
        win = self.ui.window
        win.event_simulate("MOUSEMOVE", "NOTHING", x=x, y=y)
        win.event_simulate("LEFTMOUSE", "PRESS", x=x, y=y)
        win.event_simulate("LEFTMOUSE", "RELEASE", x=x, y=y)
        # Then rest the mouse on the sidebar's empty margin beside the panels (its bottom now holds the results
        # list, whose rows react to a resting mouse): no tooltip pops up over the viewport.
        sidebar = self.ui.sidebar
        win.event_simulate("MOUSEMOVE", "NOTHING", x=sidebar.x + 2, y=sidebar.y + sidebar.height // 2)
        self.steps[0:0] = [self.confirm_click, then]

    def confirm_click(self):
        """The click ran the check: the add-on holds a new record (retried for a few ticks)."""
        store = sys.modules[f"{ADDON}.operators.store"]
        record = store.active_record()
        if record is not None and record is not self.record_before:
            self.report.setdefault("check_pressed_by", []).append("click")
            return
        self.confirm_tries += 1
        if self.confirm_tries > 20:
            fail(f"clicking the Check button at {self.button} ran no check")
        self.steps.insert(0, self.confirm_click)

    def check_intersecting(self):
        self.press(self.after_intersecting)

    def after_intersecting(self):
        self.shot("intersecting_after")
        self.report["scenes"]["intersecting"] = record_scene(self.ui, "intersecting")

    def check_separated(self):
        self.objects[1].location = B_SEPARATED
        bpy.context.view_layer.update()
        self.press(self.after_separated)

    def after_separated(self):
        self.shot("separated_after")
        self.report["scenes"]["separated"] = record_scene(self.ui, "separated")

    def demo(self):
        """The picture for `make demo`: the intersecting pair closer up, objects tinted, the result fresh."""
        a, b = self.objects
        b.location = B_INTERSECTING
        a.color, b.color = DEMO_COLOR_A, DEMO_COLOR_B
        self.ui.space.shading.color_type = "OBJECT"
        bpy.context.view_layer.update()
        set_view(self.ui, DEMO_VIEW_ROTATION, DEMO_VIEW_CENTER, DEMO_VIEW_DISTANCE)
        self.press(self.after_demo)

    def after_demo(self):
        path = os.path.abspath(self.args.screenshot)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        screenshot(self.ui, path)
        self.report["screenshots"]["demo"] = path
        self.report["scenes"]["demo"] = record_scene(self.ui, "demo")

    def finish(self):
        if self.spy.errors:  # the panel redraws after each check, with the result in it
            fail("sidebar panel raised: " + "; ".join(self.spy.errors))
        ui = self.ui
        self.report.update({
            "window": {"width": ui.window.width, "height": ui.window.height},
            "regions": ui.rects(),
            "sidebar_open": bool(ui.space.show_region_ui),
            "seconds": round(time.monotonic() - self.t0, 2),
        })
        if self.out:
            with open(os.path.join(self.out, "window_check.json"), "w") as f:
                json.dump(self.report, f, indent=1)
        log(f"done in {self.report['seconds']} s")
        bpy.ops.wm.quit_blender()

    def tick(self):
        try:
            if time.monotonic() - self.t0 > WATCHDOG_SECONDS:
                fail(f"watchdog: still running after {WATCHDOG_SECONDS} s")
            step = self.steps.pop(0)
            log(f"step {step.__name__} at {time.monotonic() - self.t0:.1f} s")
            step()
        except BaseException:
            traceback.print_exc()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)
        return 0.1 if self.steps else None


def main():
    try:
        args = parse_args()
        bpy.context.preferences.view.show_splash = False
        enable_addon(args.addon_root)
        run = Run(args)
        bpy.app.timers.register(run.tick, first_interval=0.5)
    except BaseException:
        traceback.print_exc()
        sys.stdout.flush()
        os._exit(1)


main()
