# SPDX-License-Identifier: GPL-3.0-or-later
"""The add-on's user interface, read only: the sidebar panel and Object-menu entry (`sidebar`), the scene check's
sub-panel and results list (`results_list`), Check Object's sub-panel (`object_check`) and the viewport overlay
(`overlay`: pure draw data + a thin GPU layer).  The words come from `results.text`.

`sidebar` imports bpy and is imported inside `register()` only, which registers every module's `CLASSES` in one
loop (and `unregister()` in reverse); the draw-data half of `overlay` imports no bpy.
"""


def _classes():
    from . import object_check, results_list, sidebar

    return sidebar.CLASSES + results_list.CLASSES + object_check.CLASSES  # the sub-panels after their parent


def register():
    import bpy

    from ..operators import store
    from . import overlay, sidebar

    for cls in _classes():
        bpy.utils.register_class(cls)
    bpy.types.VIEW3D_MT_object.append(sidebar.menu_func)
    store.subscribe(overlay.refresh)
    overlay.refresh(store.view())


def unregister():
    import bpy

    from ..operators import store
    from . import overlay, sidebar

    store.unsubscribe(overlay.refresh)
    overlay.disable()
    overlay.set_draw_data(overlay.DrawData())
    bpy.types.VIEW3D_MT_object.remove(sidebar.menu_func)
    for cls in reversed(_classes()):
        if getattr(cls, "is_registered", True):
            bpy.utils.unregister_class(cls)
