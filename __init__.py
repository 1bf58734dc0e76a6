# SPDX-License-Identifier: GPL-3.0-or-later
"""Collision Inspector: exact collision, penetration depth and clearance between objects.

Blender 4.2+ loads this folder as an extension (`blender_manifest.toml`, module `bl_ext.<repo>.collision_inspector`);
Blender 3.4+ can load the same folder as a legacy add-on through `bl_info`.  Nothing heavy is imported at module
level: the test-suite may import this file as a plain package under any folder name, without Blender.

Layers, data flowing one way: `core` (the engine, pure) -> `results` (records and their words, pure) ->
`operators` (everything that touches Blender data) -> `panels` (sidebar and overlay, read only); see
docs/design.md.

Blender versions: the only places where the code depends on the version (3.4 for the real-window tests, 4.2+ as
an extension, 5.0 as the bpy module):
- loading: 4.2+ reads blender_manifest.toml (an extension), 3.4-4.1 read `bl_info` below (a legacy add-on);
- operators/reading.py `_read_positions`: the "position" attribute (3.5+), else `vertices.co` (3.4);
- operators/reading.py `object_identity`: `session_uid` (4.x), else the datablock's address (3.4);
- panels/overlay.py: `blf.size` without a dpi argument (4.0+) or with one (3.x); points are discs drawn with
  `UNIFORM_COLOR`, since `POINT_UNIFORM_COLOR` does not exist in 3.x; no `bgl` (gone in 5.0);
- operators/cli.py: `bpy.utils.register_cli_command` exists from 4.2 on (the command line is skipped before).
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
