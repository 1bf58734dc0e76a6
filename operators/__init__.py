# SPDX-License-Identifier: GPL-3.0-or-later
"""The add-on's operators and the storage of their result.

- `reading`: depsgraph-evaluated objects -> numpy arrays (local float32 vertices + float64 matrix_world);
- `state`: the result storage (WindowManager property group for scripts/UI, float64 record on the Python side),
  change listeners and the stale-marking depsgraph handler;
- `check`: `collision.check`, `collision.clear`, `collision.select_object`, `collision.copy_result`.

Submodules import bpy, so they are imported inside `register()` only.
"""


def _classes():
    from . import check, state

    return state.CLASSES + check.CLASSES


def register():
    import bpy

    for cls in _classes():
        bpy.utils.register_class(cls)


def unregister():
    import bpy

    for cls in reversed(_classes()):
        if getattr(cls, "is_registered", True):
            bpy.utils.unregister_class(cls)
