# SPDX-License-Identifier: GPL-3.0-or-later
"""Everything that touches Blender data.  Imports `core` and `results`, never `panels`.

- `props`: the PropertyGroups (the WindowManager mirror of the results, the overlay toggles);
- `store`: the one writer of results (Python records + mirror) and its listeners;
- `handlers`: stale marking and file loads;
- `reading`: evaluated objects -> numpy arrays;
- `checking`: `check_pair`, the one pipeline every operator calls;
- `check`: the pair operators (check, clear, select A/B, copy).

Submodules import bpy, so they are imported inside `register()` only.
"""


def _classes():
    from . import check, props, scene_ops

    return props.CLASSES + check.CLASSES + scene_ops.CLASSES


def register():
    import bpy

    from ..results import text
    from . import handlers, props

    for cls in _classes():
        bpy.utils.register_class(cls)
    props.register_properties()
    handlers.add()
    text.use_blender_units(bpy.utils.units.to_string)


def unregister():
    import bpy

    from ..results import text
    from . import handlers, props

    text.use_blender_units(None)
    handlers.remove()
    props.unregister_properties()
    for cls in reversed(_classes()):
        if getattr(cls, "is_registered", True):
            bpy.utils.unregister_class(cls)
