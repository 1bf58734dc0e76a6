# SPDX-License-Identifier: GPL-3.0-or-later
"""View3D > Sidebar > Collision, and the Object menu entry.  The panel only reads: the active record from
`operators.store` and its rows from `results.text`."""
from __future__ import annotations

import bpy

from ..operators import store
from ..results.status import style
from ..results.text import RowKind, readout_rows
from . import motion
from .tab import MAIN_PANEL, CollisionTab, groups


def draw_rows(layout, rows, status) -> None:
    """Lay the typed readout rows out in `layout`."""
    col = layout.column(align=True)
    for row in rows:
        if row.kind is RowKind.STATUS:
            col.label(text=row.value, icon=style(status).icon)
        elif row.kind is RowKind.WARNING:
            col.label(text=f"{row.label}: {row.value}", icon="ERROR")
        elif row.kind is RowKind.WIDE:  # the value gets the full width on its own line
            col.label(text=row.label)
            line = col.row()
            line.separator()
            line.label(text=row.value)
        else:
            split = col.split(factor=0.36)
            split.label(text=row.label)
            split.label(text=row.value)


class VIEW3D_PT_collision_inspector(CollisionTab, bpy.types.Panel):
    """Collision between the active object and the other selected one"""

    bl_idname = MAIN_PANEL
    bl_label = "Collision Inspector"

    def draw(self, context):
        layout = self.layout
        found = groups(context, layout, need_settings=False)
        if found is None:
            return
        group, settings = found
        if settings is not None:
            layout.prop(settings, "mode", text="Mode")

        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("collision.check", text="Check", icon="PLAY")
        row.operator("collision.clear", text="Clear", icon="X")
        if settings is not None:
            row.prop(settings, "live", text="Live", toggle=True, icon="REC")

        selected = len(context.selected_objects or ())
        if selected != 2:
            layout.label(text=f"Select two objects (active = A): {selected} selected", icon="INFO")

        record = store.active_record()
        draw_rows(layout.box(), readout_rows(record, context.scene.unit_settings if context.scene else None),
                  record.status if record is not None else None)

        col = layout.column(align=True)
        col.enabled = record is not None
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
    self.layout.operator("collision.check_object", icon="MESH_DATA")  # one object on its own (3D printing)


CLASSES = (VIEW3D_PT_collision_inspector,) + motion.CLASSES  # the sub-panel after its parent

