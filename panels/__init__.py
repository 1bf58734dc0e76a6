# SPDX-License-Identifier: GPL-3.0-or-later
"""The add-on's user interface, read only: the sidebar panel and Object-menu entry (`sidebar`), the scene check's
sub-panel and results list (`results_list`), Check Object's sub-panel (`object_check`) and the viewport overlay
(`overlay`: pure draw data + a thin GPU layer).  The words come from `results.text`.

`sidebar` imports bpy and is imported inside `register()` only; the draw-data half of `overlay` imports no bpy.
"""


def register():
    from ..operators import store
    from . import object_check, overlay, results_list, sidebar

    sidebar.register()
    results_list.register()
    object_check.register()
    store.subscribe(overlay.refresh)
    overlay.refresh(store.view())


def unregister():
    from ..operators import store
    from . import object_check, overlay, results_list, sidebar

    store.unsubscribe(overlay.refresh)
    overlay.disable()
    overlay.set_draw_data(overlay.DrawData())
    object_check.unregister()
    results_list.unregister()
    sidebar.unregister()
