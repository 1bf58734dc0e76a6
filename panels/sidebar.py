# SPDX-License-Identifier: GPL-3.0-or-later
"""View3D > Sidebar > Collision, and the Object menu entry.  The panel only reads the stored result."""
from __future__ import annotations

import bpy

from ..operators import state
from .readout import readout_lines

STATUS_ICONS = {
    "NONE": "INFO",
    "SEPARATED": "CHECKMARK",
    "TOUCHING": "SNAP_ON",
    "INTERSECTING": "ERROR",
}

# Rows whose value is a vector: too wide for the label/value split of a default-width sidebar.
WIDE_ROWS = frozenset({"Normal", "Witness on A", "Witness on B", "Closest on A", "Closest on B", "Contact"})


class VIEW3D_PT_collision_inspector(bpy.types.Panel):
    """Collision between the active object and the other selected one"""

    bl_idname = "VIEW3D_PT_collision_inspector"
    bl_label = "Collision Inspector"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Collision"

    def draw(self, context):
        layout = self.layout
        group = getattr(context.window_manager, "collision_inspector", None)
        if group is None:
            layout.label(text="Collision Inspector is not registered", icon="ERROR")
            return

        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("collision.check", text="Check", icon="PLAY")
        row.operator("collision.clear", text="Clear", icon="X")

        selected = len(context.selected_objects or ())
        if selected != 2:
            layout.label(text=f"Select two objects (active = A): {selected} selected", icon="INFO")

        view = state.current_view(context.window_manager)
        status = view.status if view is not None else "NONE"
        box = layout.box()
        col = box.column(align=True)
        for label, value in readout_lines(view, context.scene.unit_settings if context.scene else None):
            if label == "Status":
                col.label(text=value, icon=STATUS_ICONS.get(status, "INFO"))
                continue
            if label == "Stale":
                col.label(text=f"Stale: {value}", icon="ERROR")
                continue
            if label in WIDE_ROWS:  # vectors: the value gets the full width on its own line
                col.label(text=label)
                row = col.row()
                row.separator()
                row.label(text=value)
                continue
            split = col.split(factor=0.36)
            split.label(text=label)
            split.label(text=value)
        if view is not None:
            col.label(text="Shapes: convex hulls")

        col = layout.column(align=True)
        col.enabled = view is not None
        row = col.row(align=True)
        row.operator("collision.select_object", text="Select A", icon="RESTRICT_SELECT_OFF").which = "A"
        row.operator("collision.select_object", text="Select B", icon="RESTRICT_SELECT_OFF").which = "B"
        col.operator("collision.copy_result", text="Copy Result", icon="COPYDOWN")

        col = layout.column(align=True)
        col.prop(group, "show_overlay")
        sub = col.row()
        sub.enabled = group.show_overlay
        sub.prop(group, "draw_through")


def menu_func(self, _context):
    self.layout.separator()
    self.layout.operator("collision.check", icon="PLAY")


CLASSES = (VIEW3D_PT_collision_inspector,)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.VIEW3D_MT_object.append(menu_func)


def unregister():
    bpy.types.VIEW3D_MT_object.remove(menu_func)
    for cls in reversed(CLASSES):
        if getattr(cls, "is_registered", True):
            bpy.utils.unregister_class(cls)
