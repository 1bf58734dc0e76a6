# SPDX-License-Identifier: GPL-3.0-or-later
"""The add-on's user interface: sidebar panel and Object-menu entry (`sidebar`), the viewport overlay
(`overlay`), and the text of a result (`readout`).

`readout` and the draw-data half of `overlay` are pure Python (no bpy), so they import and test anywhere;
`sidebar` imports bpy and is imported inside `register()` only.
"""


def register():
    from ..operators import state
    from . import overlay, sidebar

    sidebar.register()
    state.subscribe(overlay.refresh)
    overlay.refresh()


def unregister():
    from ..operators import state
    from . import overlay, sidebar

    state.unsubscribe(overlay.refresh)
    overlay.disable()
    overlay.set_draw_data(overlay.DrawData())
    sidebar.unregister()
