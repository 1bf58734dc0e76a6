# SPDX-License-Identifier: GPL-3.0-or-later
"""Everything that touches Blender data.  Imports `core` and `results`, never `panels`.

From the bottom up (each imports only modules above it in this list; tests/tooling/test_import_cycles.py checks it):
- `access`: `state()` / `settings()`, the one way to the add-on's registered groups;
- `changes`: the lists of listeners to changed objects (filled by `live` and `scene_ops`, called by `handlers`);
- `reading`: evaluated objects -> numpy arrays, the geometry cache, `object_identity`;
- `store`: the one writer of results (Python records + mirror) and its listeners;
- `modal_run`: the timer, progress bar and status line of the long operators' modal runs;
- `checking`: `check_pair`, the one pipeline every operator calls; `scene_check`: the scene check's stages;
- `check`: the pair operators (check, clear, select A/B, copy) and the shared poll and settings;
- `live`: live re-checking; `handlers`: Blender's app handlers (stale marking, file loads, undo);
- `object_check`: Check Object (one object on its own: self-intersections, clearance between its parts);
- `push`: Push Apart and Move to Contact; `sweep`: a pair over a frame range (the search: core/motion.py);
  `scene_ops`: the scene check's operators and its report;
- `props`: the PropertyGroups (the WindowManager mirror of the results, the overlay toggles, the Scene's
  settings), whose update callbacks call `store`, `live` and `scene_ops`;
- `cli`: the command line (`blender --command collision_inspector ...`, Blender 4.2+).

Submodules import bpy, so they are imported inside `register()` only.
"""


def _classes():
    from . import check, live, object_check, props, push, scene_ops, sweep

    return (props.CLASSES + check.CLASSES + sweep.CLASSES + push.CLASSES + scene_ops.CLASSES
            + object_check.CLASSES + live.CLASSES)


def register():
    import bpy

    from ..results import text
    from . import handlers, props

    for cls in _classes():
        bpy.utils.register_class(cls)
    props.register_properties()
    handlers.add()
    text.use_blender_units(bpy.utils.units.to_string)
    _register_cli(bpy)


_cli_handle = None


def _register_cli(bpy) -> None:
    """`blender --command collision_inspector ...` (Blender 4.2+ has register_cli_command; older: nothing)."""
    global _cli_handle
    register_cli = getattr(bpy.utils, "register_cli_command", None)
    if register_cli is None or _cli_handle is not None:
        return
    from . import cli

    try:
        _cli_handle = register_cli(cli.COMMAND_ID, cli.command)
    except (RuntimeError, ValueError) as exc:  # e.g. the id is taken: the add-on works without it
        print(f"Collision Inspector: command line not registered: {exc}")


def _unregister_cli(bpy) -> None:
    global _cli_handle
    if _cli_handle is not None:
        try:
            bpy.utils.unregister_cli_command(_cli_handle)
        except (RuntimeError, ValueError):
            pass
        _cli_handle = None


def unregister():
    import bpy

    from ..results import text
    from . import handlers, props

    _unregister_cli(bpy)
    text.use_blender_units(None)
    handlers.remove()
    props.unregister_properties()
    for cls in reversed(_classes()):
        if getattr(cls, "is_registered", True):
            bpy.utils.unregister_class(cls)
