# SPDX-License-Identifier: GPL-3.0-or-later
"""View3D > Sidebar > Collision > Check Object (the Object menu's entry, which F3 finds, is `sidebar.menu_func`'s):
the active object on its own (3D printing).  Read only: what the check found comes from `operators.store`
(`object_check()`), its rows are the results list's (`results_list.COLLISION_UL_results`), the words come from
`results.text` and `results.object_check`."""
from __future__ import annotations

import bpy

from ..operators import store
from ..results.text import format_length
from .tab import CollisionSubPanel, groups


class VIEW3D_PT_collision_object_check(CollisionSubPanel, bpy.types.Panel):
    """The active object on its own: self-intersections and the clearance between its loose parts"""

    bl_idname = "VIEW3D_PT_collision_object_check"
    bl_label = "Check Object"

    def draw(self, context):
        layout = self.layout
        found = groups(context, layout)
        if found is None:
            return
        group, settings = found
        layout.prop(settings, "clearance")
        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("collision.check_object", text="Check Object", icon="MESH_DATA")
        check = store.object_check()
        if check is None:
            return
        units = context.scene.unit_settings
        col = layout.column(align=True)
        if check.clean:
            col.label(text=f"'{check.object_name}' is clean", icon="CHECKMARK")
            col.label(text=f"No self-intersections; {check.parts} loose part{'s' if check.parts != 1 else ''},")
            col.label(text=f"none closer than {format_length(check.clearance, units)}")
            return
        col.label(text=check.object_name, icon="OBJECT_DATA")
        col.label(text=f"Self-intersections: {check.self_intersections}",
                  icon="ERROR" if check.self_intersections else "CHECKMARK")
        col.label(text=f"Part pairs closer than {format_length(check.clearance, units)}: {check.pairs} "
                       f"(of {check.parts} parts)")
        layout.template_list("COLLISION_UL_results", "object_check", group, "results", group, "active_index", rows=4)
        layout.operator("collision.export_report", text="Export Report", icon="EXPORT")


CLASSES = (VIEW3D_PT_collision_object_check,)

