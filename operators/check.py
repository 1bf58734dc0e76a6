# SPDX-License-Identifier: GPL-3.0-or-later
"""The pair operators: check the selected pair, clear the results, select A or B, copy the result as text.

Each is thin: `collision.check` picks the pair, calls the one pipeline (`checking.check_pair`), hands the record
to the one writer (`store`) and reports one line.  A check changes nothing in the scene, so it pushes no undo
step (bl_options has no 'UNDO').

With a window, a check that is not done within FIRST_S (two meshes in Exact mode whose depth interval takes
seconds) goes on as a modal run, like Check Object's (`modal_run`): `checking.check_pair_steps` on a window timer,
the progress bar and the interval's stage in the status bar; Esc stops it at the core's next report (a fraction of
a second) and nothing changes: the results stay as they were, since a half-narrowed interval is not the answer
the check gives (a quicker verdict alone is what the scene check, Hull mode or Live mode give).  Without a window
(scripts, `execute`) it runs straight through.
"""
from __future__ import annotations

import traceback
from dataclasses import replace

import bpy
from bpy.props import EnumProperty

from ..results import text
from ..results.record import Mode
from . import access, modal_run, store
from .checking import CheckSettings, check_pair, check_pair_steps
from .reading import GeometryError, SelectionError, pair_problem, pick_pair


def ready_problem(context, pair: bool = True) -> str | None:
    """Why an operator that checks cannot run now, from cheap tests only (poll runs on every redraw), or None.
    `pair`: it needs the selected pair (A active, B the other selected object)."""
    if context.view_layer is None:
        return "Needs a scene with a view layer"
    if access.state(context.window_manager) is None:
        return "Collision Inspector is not fully registered"
    return pair_problem(context) if pair else None


def poll_ready(cls, context, pair: bool = True) -> bool:
    """A poll: True when `ready_problem` finds nothing, else False with the reason as the tooltip."""
    problem = ready_problem(context, pair)
    if problem:
        cls.poll_message_set(problem)
        return False
    return True


def _poll_has_result(cls, context) -> bool:
    """Poll of the operators that act on a stored result: False (and why) when there is none."""
    if store.active_record() is None:
        cls.poll_message_set("Run Check Collision first")
        return False
    return True


def check_settings(context) -> CheckSettings:
    """The scene's settings for a check (defaults when the scene has none)."""
    group = access.settings(context.scene) if context.scene is not None else None
    if group is None:
        return CheckSettings()
    return CheckSettings(mode=Mode[group.mode])


def failure_message(name_a: str, name_b: str, exc: Exception) -> str:
    """What a pair check reports when checking objects `name_a` and `name_b` raised `exc` (a bug's trace goes to
    the console)."""
    if isinstance(exc, GeometryError):
        return str(exc)
    if isinstance(exc, ValueError):
        return f"Cannot check '{name_a}' and '{name_b}': {exc}"
    traceback.print_exc()  # a bug in the engine: report it, keep Blender running, keep the trace
    return (f"Collision check failed on '{name_a}' and '{name_b}': {type(exc).__name__}: {exc} "
            f"(details in the console)")


def run_check(operator, context, obj_a, obj_b, settings: CheckSettings):
    """check_pair with every failure turned into a report naming the objects; the record, or None."""
    try:
        return check_pair(obj_a, obj_b, context.evaluated_depsgraph_get(), settings)
    except Exception as exc:
        operator.report({"ERROR"}, failure_message(obj_a.name, obj_b.name, exc))
    return None


FIRST_S = 0.25
"""A check with a window that is done within this time answers at once; a longer one goes on as a modal run."""
STEP_S = 0.25
"""Time given to the check per timer tick of the modal run (a unit of the core's work, once started, runs to its
end: a fraction of a second).  The work waits between ticks, while Blender handles events and redraws: longer
ticks waste less of that on a busy machine, shorter ones answer Esc sooner."""
PROGRESS_STEPS = 1000


def pair_settings(context) -> CheckSettings:
    """The settings of Check Collision: the panel's, with the overlap measured too (Exact mode); scene checks,
    sweeps and pushes do not measure it."""
    return replace(check_settings(context), overlap_volume=True)


class COLLISION_OT_check(bpy.types.Operator):
    """Check whether the active object and the other selected object collide: penetration depth and normal, \
or distance and closest points"""

    bl_idname = "collision.check"
    bl_label = "Check Collision"
    bl_options = {"REGISTER"}  # read-only: no undo step

    @classmethod
    def poll(cls, context):
        return poll_ready(cls, context)  # execute repeats the pair tests for callers that skip poll

    _steps = None
    _timer = None
    _names = ("", "")
    _done = 0.0
    _stage = ""

    def _pair(self):
        """The checked pair, as the messages name it."""
        return f"'{self._names[0]}' and '{self._names[1]}'"

    def _publish(self, context, record):
        store.store(context.window_manager, record)
        self.report({"INFO"}, text.summary_line(record, context.scene.unit_settings))
        return {"FINISHED"}

    def execute(self, context):
        wm = context.window_manager
        try:
            obj_a, obj_b = pick_pair(context)
        except SelectionError as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        wm.progress_begin(0, 1)
        try:
            record = run_check(self, context, obj_a, obj_b, pair_settings(context))
        finally:
            wm.progress_end()
        if record is None:
            return {"CANCELLED"}
        return self._publish(context, record)

    def _begin(self, context) -> bool:
        """Start the modal run's steps (`_steps`, not run yet); False (and an ERROR report) when it cannot run."""
        try:
            obj_a, obj_b = pick_pair(context)
        except SelectionError as exc:
            self.report({"ERROR"}, str(exc))
            return False
        self._names, self._done, self._stage = (obj_a.name, obj_b.name), 0.0, "reading the objects"
        self._steps = check_pair_steps(obj_a, obj_b, context.evaluated_depsgraph_get(), pair_settings(context))
        return True

    def _advance(self, context, budget_s: float, show: bool = True):
        """Run the steps for `budget_s` seconds (at least one step); None while they go on, else the operator's
        return value (the record published, or the failure reported)."""
        def take(progress):
            # a stage may be skipped and a unit report a stage again: the bar never goes back
            self._done, self._stage = max(self._done, progress.done), progress.stage.text

        try:
            finished, record = modal_run.advance(self._steps, budget_s, take)
        except Exception as exc:
            self._end(context)
            self.report({"ERROR"}, failure_message(*self._names, exc))
            return {"CANCELLED"}
        if finished:
            self._end(context)
            return self._publish(context, record)
        if show:
            self._status(context)
        return None

    def invoke(self, context, _event):
        if context.window is None:
            return self.execute(context)
        if not self._begin(context):
            return {"CANCELLED"}
        # a quick check answers at once, as `execute` does; a long one goes on as a modal run
        outcome = self._advance(context, FIRST_S, show=False)
        if outcome is not None:
            return outcome
        modal_run.start(self, context, PROGRESS_STEPS, 0.01)
        self._status(context)
        return {"RUNNING_MODAL"}

    def _status(self, context):
        """The progress bar and, in the status bar, the stage of the depth interval that runs."""
        modal_run.show(context, self._done, PROGRESS_STEPS,
                       f"Check Collision {self._pair()}: {self._stage} (Esc to cancel)")

    def _end(self, context):
        """Stop the modal run: no timer, no progress bar, no status text; the work stopped and dropped."""
        if self._timer is not None:
            modal_run.stop(self, context)
        if self._steps is not None:
            self._steps.close()
            self._steps = None

    def cancel(self, context):
        """Blender ends the run (the window closes, another file loads): nothing is written."""
        self._end(context)

    def modal(self, context, event):
        def escape():
            self._end(context)
            self.report({"INFO"}, f"Check Collision cancelled on {self._pair()}: nothing changed")
            return {"CANCELLED"}

        return modal_run.dispatch(event, escape, lambda: self._advance(context, STEP_S))


class COLLISION_OT_clear(bpy.types.Operator):
    """Forget the collision results and remove their overlay"""

    bl_idname = "collision.clear"
    bl_label = "Clear Collision Result"
    bl_options = {"REGISTER"}

    def execute(self, context):
        store.clear(context.window_manager)
        return {"FINISHED"}


class COLLISION_OT_select_object(bpy.types.Operator):
    """Select object A or B of the shown collision result (and make it active)"""

    bl_idname = "collision.select_object"
    bl_label = "Select Checked Object"
    bl_options = {"REGISTER", "UNDO"}  # changes the selection

    which: EnumProperty(
        name="Object",
        items=(("A", "A", "The active object of the check"), ("B", "B", "The other object of the check")),
        default="A")

    @classmethod
    def poll(cls, context):
        if not _poll_has_result(cls, context):
            return False
        if context.view_layer is None:
            cls.poll_message_set("Needs a scene with a view layer")
            return False
        return True

    def execute(self, context):
        record = store.active_record()
        obj = store.resolve_object(self.which, record)
        if obj is None:
            name = record.object_a if self.which == "A" else record.object_b
            self.report({"ERROR"}, f"Object {self.which} ('{name}') no longer exists")
            return {"CANCELLED"}
        view_layer = context.view_layer
        if view_layer.objects.get(obj.name) is None:
            self.report({"ERROR"}, f"'{obj.name}' is not in the view layer '{view_layer.name}'")
            return {"CANCELLED"}
        for other in list(context.selected_objects):
            other.select_set(False)
        obj.select_set(True)
        view_layer.objects.active = obj
        return {"FINISHED"}


class COLLISION_OT_copy_result(bpy.types.Operator):
    """Copy the shown collision result to the clipboard as text (scene units and exact values)"""

    bl_idname = "collision.copy_result"
    bl_label = "Copy Collision Result"
    bl_options = {"REGISTER"}

    @classmethod
    def poll(cls, context):
        return _poll_has_result(cls, context)

    def execute(self, context):
        record = store.active_record()
        if record is None:
            self.report({"ERROR"}, "No collision result to copy")
            return {"CANCELLED"}
        context.window_manager.clipboard = text.result_text(record, context.scene.unit_settings)
        self.report({"INFO"}, "Collision result copied to the clipboard")
        return {"FINISHED"}


CLASSES = (COLLISION_OT_check, COLLISION_OT_clear, COLLISION_OT_select_object, COLLISION_OT_copy_result)
