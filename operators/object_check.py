# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Object (`collision.check_object`): the active object on its own, for 3D printing.

Thin, like the pair check: the one pipeline (`checking.check_object`: the evaluated mesh in world space, its
self-intersections and the pairs of its loose parts closer than the scene's Clearance) hands its rows to the one
writer (`store.set_records`, with the `ObjectCheck` they come from) and reports one line.  Nothing in the scene
changes (no undo step).  Choosing a row of the list frames its two closest points (`frame_record`), or the whole
crossing curve for the self-intersection row.
"""
from __future__ import annotations

import traceback

import bpy
import numpy as np

from ..results.object_check import summary_line
from . import access, store
from .checking import check_object
from .reading import GEOMETRY_CACHE, GEOMETRY_TYPES, GeometryError


def object_problem(context) -> str | None:
    """Why Check Object cannot run now (cheap tests only: poll runs on every redraw), or None."""
    if context.view_layer is None:
        return "Needs a scene with a view layer"
    if access.state(context.window_manager) is None:
        return "Collision Inspector is not fully registered"
    obj = context.view_layer.objects.active
    if obj is None:
        return "Make an object active: Check Object checks the active object"
    if obj.type not in GEOMETRY_TYPES:
        return f"'{obj.name}' is a {obj.type.replace('_', ' ').lower()} object and has no geometry"
    return None


class COLLISION_OT_check_object(bpy.types.Operator):
    """Check the active object on its own (3D printing): where its surface crosses itself, and which of its \
loose parts come closer than the scene's Clearance"""

    bl_idname = "collision.check_object"
    bl_label = "Check Object"
    bl_options = {"REGISTER"}  # read-only: no undo step

    @classmethod
    def poll(cls, context):
        problem = object_problem(context)
        if problem:
            cls.poll_message_set(problem)
            return False
        return True

    def execute(self, context):
        problem = object_problem(context)
        if problem:
            self.report({"ERROR"}, problem)
            return {"CANCELLED"}
        obj = context.view_layer.objects.active
        settings = access.settings(context.scene)
        clearance = float(settings.clearance) if settings is not None else 0.0
        wm = context.window_manager
        wm.progress_begin(0, 1)
        try:
            check, rows = check_object(obj, context.evaluated_depsgraph_get(), clearance, cache=GEOMETRY_CACHE)
        except GeometryError as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        except ValueError as exc:
            self.report({"ERROR"}, f"Cannot check '{obj.name}': {exc}")
            return {"CANCELLED"}
        except Exception as exc:  # a bug in the engine: report it, keep Blender running, keep the trace
            traceback.print_exc()
            self.report({"ERROR"}, f"Check Object failed on '{obj.name}': {type(exc).__name__}: {exc} "
                                   f"(details in the console)")
            return {"CANCELLED"}
        finally:
            wm.progress_end()
        store.set_records(wm, rows, 0, object_check=check)
        self.report({"INFO"}, summary_line(check, context.scene.unit_settings))
        return {"FINISHED"}


# --------------------------------------------------------------------------------------------- row choice

def record_points(record) -> np.ndarray:
    """The world points a row is about: its two closest (or witness) points, or its whole crossing curve."""
    c = record.contact
    if record.is_self_intersection and len(c.intersection):
        return np.asarray(c.intersection, float).reshape(-1, 3)
    return np.array([c.point_a, c.point_b], float)


def frame_record(context, record) -> None:
    """Frame a Check Object row's points in the first 3D viewport of the window (deferred: not inside the
    property update that chose the row).  The view is centred on them and zoomed to their span, at least a
    tenth of the object's size, so two points a hair apart still show their surroundings."""
    window = getattr(context, "window", None)
    if window is None or bpy.app.background:
        return
    points = record_points(record)
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = 0.5 * (lo + hi)
    span = max(float(np.linalg.norm(hi - lo)), 0.1 * float(record.contact.scale), 1e-6)
    screen = window.screen.name if window.screen else ""

    def frame():
        for win in bpy.context.window_manager.windows:
            if screen and win.screen.name != screen:
                continue
            for area in win.screen.areas:
                if area.type == "VIEW_3D":
                    region_3d = area.spaces.active.region_3d
                    region_3d.view_location = tuple(map(float, centre))
                    region_3d.view_distance = 2.0 * span
                    area.tag_redraw()
                    return None
        return None

    bpy.app.timers.register(frame, first_interval=0.0)


CLASSES = (COLLISION_OT_check_object,)
