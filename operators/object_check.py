# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Object (`collision.check_object`): the active object on its own, for 3D printing.

Thin, like the pair check: the one pipeline (`checking.check_object`: the evaluated mesh in world space, its
self-intersections and the pairs of its loose parts closer than the scene's Clearance) hands its rows to the one
writer (`store.set_records`, with the `ObjectCheck` they come from) and reports one line.  Nothing in the scene
changes (no undo step).  With a window it runs as the scene check and the sweep do (`modal_run`): stage by stage
(`checking.check_object_steps`) on a window timer, with a progress bar and the stage in the status bar; Esc stops
it between stages (and between the clearance stage's pair questions) and the results list stays as it was
(nothing is written before the last stage).  Without a
window (scripts, `execute`) it runs straight through.  Choosing a row of the list frames its two closest points
(`frame_record`), or the whole crossing curve for the self-intersection row.
"""
from __future__ import annotations

import traceback

import bpy
import numpy as np

from ..results.object_check import summary_line
from . import access, modal_run, store
from .checking import OBJECT_STAGES, check_object, check_object_steps
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


STEP_S = 0.05
"""Time given to the stages per timer tick of the modal run (a stage, once started, runs to its end)."""
PROGRESS_STEPS = 1000


def failure_message(name: str, exc: Exception) -> str:
    """What Check Object reports when the check of object `name` raised `exc` (a bug's trace goes to the
    console)."""
    if isinstance(exc, GeometryError):
        return str(exc)
    if isinstance(exc, ValueError):
        return f"Cannot check '{name}': {exc}"
    if isinstance(exc, ReferenceError):  # removed by a script while the modal run waited between stages
        return f"'{name}' was removed while it was being checked: nothing changed"
    traceback.print_exc()  # a bug in the engine: report it, keep Blender running, keep the trace
    return f"Check Object failed on '{name}': {type(exc).__name__}: {exc} (details in the console)"


class COLLISION_OT_check_object(bpy.types.Operator):
    """Check the active object on its own (3D printing): where its surface crosses itself, and which of its \
loose parts come closer than the scene's Clearance"""

    bl_idname = "collision.check_object"
    bl_label = "Check Object"
    bl_options = {"REGISTER"}  # read-only: no undo step

    _steps = None
    _name = ""
    _timer = None

    @classmethod
    def poll(cls, context):
        problem = object_problem(context)
        if problem:
            cls.poll_message_set(problem)
            return False
        return True

    def _target(self, context):
        """(object, depsgraph, clearance) to check, or None (and an ERROR report) when Check Object cannot run."""
        problem = object_problem(context)
        if problem:
            self.report({"ERROR"}, problem)
            return None
        obj = context.view_layer.objects.active
        settings = access.settings(context.scene)
        clearance = float(settings.clearance) if settings is not None else 0.0
        self._name = obj.name
        return obj, context.evaluated_depsgraph_get(), clearance

    def _publish(self, context, check, rows):
        store.set_records(context.window_manager, rows, 0, object_check=check)
        self.report({"INFO"}, summary_line(check, context.scene.unit_settings))
        return {"FINISHED"}

    def execute(self, context):
        target = self._target(context)
        if target is None:
            return {"CANCELLED"}
        wm = context.window_manager
        wm.progress_begin(0, 1)
        try:
            check, rows = check_object(*target, cache=GEOMETRY_CACHE)
        except Exception as exc:
            self.report({"ERROR"}, failure_message(self._name, exc))
            return {"CANCELLED"}
        finally:
            wm.progress_end()
        return self._publish(context, check, rows)

    def _begin(self, context) -> bool:
        """Start the modal run's stages (`_steps`, not run yet); False (and an ERROR report) when it cannot run."""
        target = self._target(context)
        if target is None:
            return False
        self._steps = check_object_steps(*target, cache=GEOMETRY_CACHE)
        return True

    def invoke(self, context, _event):
        if context.window is None:
            return self.execute(context)
        if not self._begin(context):
            return {"CANCELLED"}
        modal_run.start(self, context, PROGRESS_STEPS, 0.01)
        self._status(context, 0.0, OBJECT_STAGES[0])
        return {"RUNNING_MODAL"}

    def _status(self, context, done: float, stage: str):
        """The progress bar and, in the status bar, the stage that runs next."""
        modal_run.show(context, done, PROGRESS_STEPS, f"Check Object '{self._name}': {stage} (Esc to cancel)")

    def _end(self, context):
        """Stop the modal run: no timer, no progress bar, no status text, the run dropped."""
        modal_run.stop(self, context)
        self._steps = None

    def cancel(self, context):
        """Blender ends the run (the window closes, another file loads): nothing is written."""
        self._end(context)

    def modal(self, context, event):
        def escape():
            self._end(context)
            self.report({"INFO"}, f"Check Object cancelled on '{self._name}': nothing changed")
            return {"CANCELLED"}

        def tick():
            try:
                finished, value = modal_run.advance(self._steps, STEP_S, lambda step: self._status(context, *step))
            except Exception as exc:
                self._end(context)
                self.report({"ERROR"}, failure_message(self._name, exc))
                return {"CANCELLED"}
            if not finished:
                return None  # Esc gets its turn before the next stage
            self._end(context)
            return self._publish(context, *value)

        return modal_run.dispatch(event, escape, tick)


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
