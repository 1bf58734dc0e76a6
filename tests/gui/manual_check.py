"""What the manual window checks (motion_window_check.py, object_check_window_check.py, pair_check_window_check.py)
share: a tagged log, a failure that ends Blender at once with exit code 1, enabling the repository as the legacy
add-on (through scripts/blender_env.py, as every other tier does), the steps run from a Blender timer once the
window is up, an empty scene, the 3D view, making an object active (tests/blender/scenes.py, as the headless
tier does), selecting a pair, and the crossing chain links selected (pair_check_window_check.py,
push_window_check.py, live_settle_window_check.py).
Runs inside Blender only."""
import math
import os
import sys
import traceback

import bpy
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.append(ROOT)  # tests.blender.scenes
import blender_env  # noqa: E402
from tests.blender.scenes import make_active  # noqa: E402,F401  (for the checks)

ADDON = blender_env.addon_id()


class ManualCheck:
    """One manual check's log tag and the steps every such check begins with."""

    def __init__(self, tag: str):
        self.tag = tag
        self.step = 0
        """The check's own step counter: `run` reads and advances it."""

    def log(self, *args):
        print(self.tag, *args, flush=True)

    def fail(self, message):
        self.log("FAIL", message)
        os._exit(1)

    def enable(self):
        try:
            blender_env.enable_legacy(ROOT)  # refuses unless BLENDER_USER_RESOURCES is set
        except blender_env.BlenderEnvError as exc:
            self.fail(str(exc))

    def start(self, run, first_interval: float = 1.0):
        """Run the check's steps from a Blender timer (so the window is up): `run()` after `first_interval`
        seconds, then again after each delay it returns, until it returns None.  The repository is enabled as
        the add-on before the first step; an exception anywhere prints its trace and ends Blender with exit code
        1 (a timer's exception would only be printed)."""
        def tick():
            try:
                if self.step == 0:
                    self.enable()
                return run()
            except Exception:
                traceback.print_exc()
                os._exit(1)

        bpy.app.timers.register(tick, first_interval=first_interval)

    @staticmethod
    def clear_scene():
        for obj in list(bpy.data.objects):
            bpy.data.objects.remove(obj)

    def view3d(self):
        """(window, area, region) of the first 3D view."""
        window = bpy.context.window_manager.windows[0]
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                return window, area, next(r for r in area.regions if r.type == "WINDOW")
        self.fail("no 3D view")


def select_pair(active, other):
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    other.select_set(True)
    active.select_set(True)
    bpy.context.view_layer.objects.active = active


def circle_gap() -> float:
    """Smallest distance between the central circles of the two links (radius 1, one in the xy plane about the
    origin, the other in the xz plane about (1, 0, 0)), by dense sampling, as tests/blender's crossing links."""
    t = np.linspace(0.0, 2.0 * np.pi, 20001)
    x, z = 1.0 + np.cos(t), np.sin(t)
    return float(np.min(np.hypot(np.abs(x) - 1.0, z)))


def torus(name, location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0)):
    # tubes 1.5 x as thick as the gap between the central circles allows: they cross
    bpy.ops.mesh.primitive_torus_add(major_radius=1.0, minor_radius=0.75 * circle_gap(),
                                     major_segments=32, minor_segments=12, location=location, rotation=rotation)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def crossing_links():
    """The two crossing chain links, "Link A" (active) and "Link B" turned across it, selected as the pair."""
    a = torus("Link A")
    b = torus("Link B", location=(1.0, 0.0, 0.0), rotation=(math.pi / 2, 0.0, 0.0))
    select_pair(a, b)
    return a, b
