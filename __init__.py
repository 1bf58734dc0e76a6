# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision Inspector: exact collision, penetration depth and clearance between objects.

Blender 4.2+ loads this folder as an extension (`blender_manifest.toml`, module `bl_ext.<repo>.collision_inspector`);
Blender 3.4+ can load the same folder as a legacy add-on through `bl_info`.  Nothing heavy is imported at module
level: the test-suite may import this file as a plain package under any folder name, without Blender.

Layers, data flowing one way: `core` (the engine, pure) -> `results` (records and their words, pure) ->
`operators` (everything that touches Blender data) -> `panels` (sidebar and overlay, read only).
"""

bl_info = {
    "name": "Collision Inspector",
    "author": "Collision Inspector contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Sidebar > Collision, Object > Check Collision",
    "description": "Exact collision, penetration depth and clearance between two objects",
    "category": "3D View",
}


def register():
    from . import operators, panels

    operators.register()
    panels.register()


def unregister():
    from . import operators, panels

    panels.unregister()
    operators.unregister()
