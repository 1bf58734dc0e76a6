"""What the manual window checks (motion_window_check.py, object_check_window_check.py) share: a tagged log, a
failure that ends Blender at once with exit code 1, enabling the repository as the legacy add-on (through
scripts/blender_env.py, as every other tier does) and finding the 3D view.  Runs inside Blender only."""
import os
import sys

import bpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blender_env  # noqa: E402

ADDON = blender_env.addon_id()


class ManualCheck:
    """One manual check's log tag and the steps every such check begins with."""

    def __init__(self, tag: str):
        self.tag = tag

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

    def view3d(self):
        """(window, area, region) of the first 3D view."""
        window = bpy.context.window_manager.windows[0]
        for area in window.screen.areas:
            if area.type == "VIEW_3D":
                return window, area, next(r for r in area.regions if r.type == "WINDOW")
        self.fail("no 3D view")
