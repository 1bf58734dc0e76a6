# SPDX-License-Identifier: GPL-3.0-or-later
"""What every panel of the sidebar's Collision tab shares: where it sits, and the add-on's groups it reads."""
from __future__ import annotations

from ..operators import access

MAIN_PANEL = "VIEW3D_PT_collision_inspector"


class CollisionTab:
    """Mix-in (before `bpy.types.Panel`) for a panel of View3D > Sidebar > Collision."""

    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Collision"


class CollisionSubPanel(CollisionTab):
    """Mix-in for a sub-panel of the main Collision Inspector panel."""

    bl_parent_id = MAIN_PANEL


def groups(context, layout, *, need_settings: bool = True):
    """(state, settings): the window manager's results group and the scene's settings.

    None, after a line in `layout` that says so, when the add-on is not registered (or, with `need_settings`, when
    there is no scene to read the settings from); without `need_settings`, settings may be None."""
    state = access.state(context.window_manager)
    settings = access.settings(context.scene) if context.scene is not None else None
    if state is None or (need_settings and settings is None):
        layout.label(text="Collision Inspector is not registered", icon="ERROR")
        return None
    return state, settings
