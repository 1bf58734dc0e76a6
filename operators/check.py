# SPDX-License-Identifier: GPL-3.0-or-later
"""The pair operators: check the selected pair, clear the results, select A or B, copy the result as text.

Each is thin: `collision.check` picks the pair, calls the one pipeline (`checking.check_pair`), hands the record
to the one writer (`store`) and reports one line.  A check changes nothing in the scene, so it pushes no undo
step (bl_options has no 'UNDO').

With a window, a check that is not done within `modal_run.FIRST_S` (two meshes in Exact mode whose depth
interval or overlap volume takes seconds) goes on as a modal run (`modal_run.ProgressRun`):
`checking.check_pair_steps` on a window timer, the progress bar and the stage (of the depth interval, then of the
overlap volume) in the status bar; Esc stops it at the core's next report (a fraction of a second) and nothing
changes: the results stay as they were, since a half-narrowed interval is not the answer the check gives (a
quicker verdict alone is what the scene check, Hull mode or Live mode give).  Without a window (scripts,
`execute`) it runs straight through.
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


def pair_settings(context) -> CheckSettings:
    """The settings of Check Collision: the panel's, with the overlap measured too (Exact mode); scene checks,
    sweeps and pushes do not measure it."""
    return replace(check_settings(context), overlap_volume=True)


class COLLISION_OT_check(modal_run.ProgressRun, bpy.types.Operator):
    """Check whether the active object and the other selected object collide: penetration depth and normal, \
or distance and closest points"""

    bl_idname = "collision.check"
    bl_label = "Check Collision"
    bl_options = {"REGISTER"}  # read-only: no undo step

    @classmethod
    def poll(cls, context):
        return poll_ready(cls, context)  # execute repeats the pair tests for callers that skip poll

    def _publish(self, context, record):
        store.store(context.window_manager, record)
        self.report({"INFO"}, text.summary_line(record, context.scene.unit_settings))
        return {"FINISHED"}

    def _failure(self, exc):
        return failure_message(*self._names, exc)

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
        self._names = (obj_a.name, obj_b.name)
        self._steps = check_pair_steps(obj_a, obj_b, context.evaluated_depsgraph_get(), pair_settings(context))
        return True


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
