# SPDX-License-Identifier: GPL-3.0-or-later
"""View3D > Sidebar > Collision > Scene Check: the scene check's settings, the Check All button and the results
list (a UIList over `wm.collision_inspector.results`).  Read only: the rows' numbers come from the exact records
in `operators.store`, the words from `results.text` and `results.status`."""
from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty

from ..core import Status
from ..operators import store
from ..results.object_check import row_names
from ..results.status import style
from ..results.text import depth_text, format_length, volume_text
from .tab import CollisionSubPanel, groups

STATUS_FILTER_ITEMS = (
    ("ALL", "All", "Every listed pair"),
    ("INTERSECTING", "Intersecting", "Only pairs that intersect"),
    ("TOUCHING", "Touching", "Only pairs that touch"),
    ("SEPARATED", "Within Clearance", "Only pairs separated by less than the clearance"),
)


def row_value(record, unit_settings) -> str:
    """Depth (the interval when it is not one number) when intersecting (and the overlap volume when measured), else the distance, in scene units."""
    if record.status is Status.INTERSECTING:
        text = depth_text(record, unit_settings)
        if record.overlap_volume is not None:
            text += f", {volume_text(record, unit_settings)}"
        return text
    return format_length(record.distance, unit_settings)


def volume_order(volumes) -> list:
    """Blender's list order (new position of each row) for the rows sorted by overlap volume, largest first;
    rows without one (-1 in the mirror) last, in their own order."""
    ranked = sorted(range(len(volumes)), key=lambda i: (-volumes[i] if volumes[i] >= 0.0 else 1.0, i))
    order = [0] * len(volumes)
    for position, i in enumerate(ranked):
        order[i] = position
    return order


class COLLISION_UL_results(bpy.types.UIList):
    """The listed pairs, worst first (a scene check's objects, or Check Object's parts of one object): intersecting
    pairs by their certified depth (the interval's lower end), then touching, then the smallest distance; see
    `results.record.sort_key`"""

    bl_idname = "COLLISION_UL_results"

    filter_status: EnumProperty(name="Status", items=STATUS_FILTER_ITEMS, default="ALL",
                                description="Show only the pairs with this status")
    sort_by_volume: BoolProperty(name="Sort by Overlap Volume", default=False,
                                 description="Largest overlap first (the scene check's Overlap Volumes); off: worst "
                                             "first")

    def draw_item(self, context, layout, _data, item, _icon, _active_data, _active_prop, index=0, _flt_flag=0):
        records = store.records()
        record = records[index] if 0 <= index < len(records) else None
        if record is None:
            layout.label(text=f"{item.object_a}  {item.object_b}")
            return
        units = context.scene.unit_settings if context.scene is not None else None
        row = layout.row(align=True)
        row.active = not record.is_stale
        name_a, name_b = row_names(record)
        split = row.split(factor=0.38)
        split.label(text=name_a, icon=style(record.status).icon)
        split = split.split(factor=0.6)
        split.label(text=name_b)
        value = "" if record.is_self_intersection else row_value(record, units)
        split.label(text=value + (" *" if record.is_stale else ""))

    def draw_filter(self, _context, layout):
        row = layout.row(align=True)
        row.prop(self, "filter_name", text="")
        row.prop(self, "use_filter_invert", text="", icon="ARROW_LEFTRIGHT")
        layout.prop(self, "filter_status", expand=True)
        layout.prop(self, "sort_by_volume")

    def filter_items(self, _context, data, propname):
        """Rows whose A or B name holds the filter text and whose status is the chosen one (Blender applies the
        list's Invert toggle to these flags itself)."""
        items = getattr(data, propname)
        flags = [self.bitflag_filter_item] * len(items)
        pattern = self.filter_name.lower()
        wanted = self.filter_status
        for i, item in enumerate(items):
            keep = True
            if pattern:
                keep = pattern in item.object_a.lower() or pattern in item.object_b.lower()
            if keep and wanted != "ALL":
                keep = item.status == wanted
            if not keep:
                flags[i] = 0
        by_volume = getattr(self, "sort_by_volume", False)  # a caller may hand in the filter settings alone
        order = volume_order([float(item.overlap_volume) for item in items]) if by_volume else []
        return flags, order


class VIEW3D_PT_collision_scene_check(CollisionSubPanel, bpy.types.Panel):
    """Every clash in the scene at once"""

    bl_idname = "VIEW3D_PT_collision_scene_check"
    bl_label = "Scene Check"

    def draw(self, context):
        layout = self.layout
        found = groups(context, layout)
        if found is None:
            return
        group, settings = found
        col = layout.column(align=True)
        col.prop(settings, "scope", text="")
        if settings.scope == "GROUPS":
            col.prop(settings, "group_a")
            col.prop(settings, "group_b")
        col = layout.column(align=True)
        col.prop(settings, "clearance")
        col.prop(settings, "ignore_touching")
        if settings.mode == "EXACT":
            col.prop(settings, "overlap_volumes")
        row = layout.row(align=True)
        row.scale_y = 1.3
        row.operator("collision.check_all", text="Check All", icon="VIEWZOOM").scope = settings.scope
        count = len(group.results)
        stale = sum(1 for r in store.records() if r.is_stale)
        label = f"{count} pair{'s' if count != 1 else ''} listed"
        if stale:
            label += f", {stale} stale"
        layout.label(text=label)
        layout.template_list("COLLISION_UL_results", "", group, "results", group, "active_index", rows=5)
        layout.operator("collision.export_report", text="Export Report", icon="EXPORT")


CLASSES = (COLLISION_UL_results, VIEW3D_PT_collision_scene_check)

