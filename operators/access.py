# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the add-on's Blender-side state hangs, and the one way every module reaches it.

- `state(wm)`: the transient group on the WindowManager (`props.CollisionInspectorState`: the results mirror, the
  overlay toggles, the last sweep);
- `settings(scene)`: the Scene's saved group (`props.CollisionInspectorSettings`: mode, scope, groups, clearance,
  live).

Both return None when the add-on is not (fully) registered, so a caller can refuse politely instead of raising.
They look the groups up by name (`GROUP`) and never import `props`: every module of operators/ and panels/ may
depend on this one, and it depends on none of them (tests/tooling/test_import_cycles.py keeps the graph acyclic).
"""
from __future__ import annotations

import bpy

GROUP = "collision_inspector"
"""The attribute under which `props.register_properties` hangs both groups (WindowManager and Scene)."""


def settings(scene=None):
    """The Scene's settings group, or None when the add-on is not (fully) registered."""
    scene = scene if scene is not None else bpy.context.scene
    return getattr(scene, GROUP, None)


def state(wm=None):
    """The WindowManager's group, or None when the add-on is not (fully) registered."""
    wm = wm if wm is not None else bpy.context.window_manager
    return getattr(wm, GROUP, None)
