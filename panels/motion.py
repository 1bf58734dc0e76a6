# SPDX-License-Identifier: GPL-3.0-or-later
"""View3D > Sidebar > Collision > Motion: the sweep (first contact, deepest, closest, a per-frame table with a
distance bar) with buttons that jump to those frames, and Push Apart / Move to Contact.  Reads only: the sweep
from `operators.store`, its words from `results.motion`."""
from __future__ import annotations

import math

import bpy

from ..operators import store
from ..results.motion import between_samples, pair_rows, sweep_rows, sweep_table, table_frame_words
from ..results.status import style
from ..results.text import format_length
from .tab import CollisionSubPanel, groups

_BAR_WIDTH = 12


def _bar(distance: float, largest: float) -> str:
    """A text bar: its length grows with |distance| (separated: '=', intersecting: '#')."""
    if not math.isfinite(distance) or largest <= 0.0:
        return ""
    filled = max(1, round(_BAR_WIDTH * min(1.0, abs(distance) / largest))) if distance != 0.0 else 0
    return ("#" if distance < 0.0 else "=") * filled


def _jump(layout, frame, icon="TIME"):
    layout.operator("collision.jump_to_frame", text="", icon=icon).frame = frame


class VIEW3D_PT_collision_inspector_motion(CollisionSubPanel, bpy.types.Panel):
    """Collision over time and moving B"""

    bl_idname = "VIEW3D_PT_collision_inspector_motion"
    bl_label = "Motion"
    bl_options = {"DEFAULT_CLOSED"}

    def draw(self, context):
        layout = self.layout
        if groups(context, layout) is None:
            return
        row = layout.row(align=True)
        row.operator("collision.push_apart", icon="AUTOMERGE_OFF")
        row.operator("collision.move_to_contact", icon="AUTOMERGE_ON")

        scene = context.scene
        op = layout.operator("collision.sweep", text=f"Sweep Frames {scene.frame_start}-{scene.frame_end}",
                             icon="TIME")
        op.frame_start, op.frame_end = scene.frame_start, scene.frame_end
        if len(store.records()) > 1:
            op = layout.operator("collision.sweep", text="Sweep Every Listed Pair", icon="TIME")
            op.frame_start, op.frame_end, op.all_pairs = scene.frame_start, scene.frame_end, True

        sweep = store.sweep_record()
        if sweep is None:
            layout.label(text="No sweep yet", icon="INFO")
            return
        units = scene.unit_settings
        box = layout.box()
        col = box.column(align=True)
        jumps = {"First contact": sweep.first_contact_frame, "Deepest": sweep.deepest_frame,
                 "Closest": sweep.closest_frame}
        for row_data in sweep_rows(sweep, units):
            line = col.row(align=True)
            split = line.split(factor=0.36)
            split.label(text=row_data.label, icon="ERROR" if row_data.kind.name == "WARNING" else "NONE")
            split.label(text=row_data.value)
            frame = jumps.get(row_data.label)
            if frame is not None:
                _jump(line, frame)

        listed = pair_rows(sweep, units)
        if listed:
            col = layout.box().column(align=True)
            for names, words, frame in listed:
                line = col.row(align=True)
                split = line.split(factor=0.45)
                split.label(text=names)
                split.label(text=words)
                if frame is not None:
                    _jump(line, frame)

        table = sweep_table(sweep)
        if not table:
            return
        largest = max((abs(d) for _, _, d in table if math.isfinite(d)), default=0.0)
        col = layout.box().column(align=True)
        head = col.row()
        head.label(text="Frame")
        head.label(text="Distance")
        marked = between_samples(sweep)
        for frame, status, distance in table:
            line = col.row(align=True)
            line.label(text=table_frame_words(frame, marked), icon=style(status).icon)
            line.label(text=format_length(distance, units))
            line.label(text=_bar(distance, largest))
            _jump(line, frame, icon="PLAY")


CLASSES = (VIEW3D_PT_collision_inspector_motion,)
