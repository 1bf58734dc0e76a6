# SPDX-License-Identifier: GPL-3.0-or-later
"""The operators: check a pair, clear the result, select A or B, copy the result as text.

`collision.check` is thin: read the two evaluated objects (`reading`), hand local vertices + matrix_world to
`core.collide`, store the result (`state.store`) and report one line.  It changes nothing in the scene, so it
pushes no undo step (bl_options has no 'UNDO').
"""
from __future__ import annotations

import time
import traceback

import bpy
from bpy.props import EnumProperty

from ..core import PointCloud, collide
from ..panels import readout
from . import state
from .reading import GeometryError, SelectionError, pair_problem, pick_pair, read_object


def _tag_redraw_view3d(context) -> None:
    wm = context.window_manager
    for window in getattr(wm, "windows", ()):
        screen = window.screen
        for area in getattr(screen, "areas", ()):
            if area.type == "VIEW_3D":
                area.tag_redraw()


def _make_shape(geometry):
    try:
        return PointCloud(geometry.vertices, transform=geometry.matrix_world)
    except ValueError as exc:
        raise GeometryError(f"'{geometry.name}': {exc}") from None


def _poll_has_result(cls, context) -> bool:
    """Poll of the operators that act on a stored result: False (and why) when there is none."""
    group = getattr(context.window_manager, "collision_inspector", None)
    if group is None or group.result.status == "NONE":
        cls.poll_message_set("Run Check Collision first")
        return False
    return True


class COLLISION_OT_check(bpy.types.Operator):
    """Check whether the active object and the other selected object collide: penetration depth and normal, \
or distance and closest points (convex hulls of the evaluated meshes)"""

    bl_idname = "collision.check"
    bl_label = "Check Collision"
    bl_options = {"REGISTER"}  # read-only: no undo step

    @classmethod
    def poll(cls, context):
        # Cheap tests only (poll runs on every redraw); execute repeats them for callers that skip poll.
        if context.view_layer is None:
            cls.poll_message_set("Needs a scene with a view layer")
            return False
        if getattr(context.window_manager, "collision_inspector", None) is None:
            cls.poll_message_set("Collision Inspector is not fully registered")
            return False
        problem = pair_problem(context)
        if problem:
            cls.poll_message_set(problem)
            return False
        return True

    def execute(self, context):
        wm = context.window_manager
        try:
            obj_a, obj_b = pick_pair(context)
        except SelectionError as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}

        started = time.perf_counter()
        wm.progress_begin(0, 4)
        try:
            depsgraph = context.evaluated_depsgraph_get()
            geometry_a = read_object(obj_a, depsgraph)
            wm.progress_update(1)
            geometry_b = read_object(obj_b, depsgraph)
            wm.progress_update(2)
            shape_a = _make_shape(geometry_a)
            shape_b = _make_shape(geometry_b)
            read_done = time.perf_counter()
            wm.progress_update(3)
            contact = collide(shape_a, shape_b)
            query_done = time.perf_counter()
            wm.progress_update(4)
        except GeometryError as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        except ValueError as exc:
            self.report({"ERROR"}, f"Cannot check '{obj_a.name}' and '{obj_b.name}': {exc}")
            return {"CANCELLED"}
        except Exception as exc:  # a bug in the engine: report it, keep Blender running, keep the trace
            traceback.print_exc()
            self.report({"ERROR"}, f"Collision check failed on '{obj_a.name}' and '{obj_b.name}': "
                                   f"{type(exc).__name__}: {exc} (details in the console)")
            return {"CANCELLED"}
        finally:
            wm.progress_end()

        record = state.CheckRecord(
            contact=contact, object_a=obj_a.name, object_b=obj_b.name,
            vertex_count_a=len(geometry_a.vertices), vertex_count_b=len(geometry_b.vertices),
            time_ms=(query_done - read_done) * 1e3, read_ms=(read_done - started) * 1e3,
            session_uid_a=state.object_identity(obj_a), session_uid_b=state.object_identity(obj_b))
        state.store(wm, record)
        view = state.current_view(wm)
        self.report({"INFO"}, readout.summary_line(view, context.scene.unit_settings))
        _tag_redraw_view3d(context)
        return {"FINISHED"}


class COLLISION_OT_clear(bpy.types.Operator):
    """Forget the collision result and remove its overlay"""

    bl_idname = "collision.clear"
    bl_label = "Clear Collision Result"
    bl_options = {"REGISTER"}

    def execute(self, context):
        state.clear(context.window_manager)
        _tag_redraw_view3d(context)
        return {"FINISHED"}


class COLLISION_OT_select_object(bpy.types.Operator):
    """Select object A or B of the last collision check (and make it active)"""

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
        obj = state.resolve_object(self.which, context.window_manager)
        if obj is None:
            result = context.window_manager.collision_inspector.result
            name = result.object_a if self.which == "A" else result.object_b
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
    """Copy the collision result to the clipboard as text (scene units and exact values)"""

    bl_idname = "collision.copy_result"
    bl_label = "Copy Collision Result"
    bl_options = {"REGISTER"}

    @classmethod
    def poll(cls, context):
        return _poll_has_result(cls, context)

    def execute(self, context):
        view = state.current_view(context.window_manager)
        if view is None:
            self.report({"ERROR"}, "No collision result to copy")
            return {"CANCELLED"}
        context.window_manager.clipboard = readout.result_text(view, context.scene.unit_settings)
        self.report({"INFO"}, "Collision result copied to the clipboard")
        return {"FINISHED"}


CLASSES = (COLLISION_OT_check, COLLISION_OT_clear, COLLISION_OT_select_object, COLLISION_OT_copy_result)
