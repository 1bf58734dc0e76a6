# SPDX-License-Identifier: GPL-3.0-or-later
"""The modal run the long operators share (Check All, Sweep Frames, Check Object).

With a window, an operator's `invoke` starts the run (`start`: Blender's progress bar, a window timer, the operator
as the window's modal handler); each TIMER event does a slice of the work within a time budget and reports it
(`show`: the share done, and the line in the status bar that says what runs and that Esc cancels); Esc, the end of
the work or an error ends it (`stop`: no timer, no progress bar, no status line).  Without a window the operators
run straight through in `execute` instead.  The operator keeps its timer in `_timer`.
"""
from __future__ import annotations


def start(operator, context, steps: int, interval: float) -> None:
    """Begin the progress bar (0 to `steps`), add a window timer every `interval` seconds and make `operator` the
    window's modal handler."""
    wm = context.window_manager
    wm.progress_begin(0, steps)
    operator._timer = wm.event_timer_add(interval, window=context.window)
    wm.modal_handler_add(operator)


def show(context, done: float, steps: int, text: str | None = None) -> None:
    """The share `done` (0..1) on the progress bar of `steps`, and `text` in the status bar when given."""
    context.window_manager.progress_update(int(done * steps))
    workspace = getattr(context, "workspace", None)
    if text is not None and workspace is not None:
        workspace.status_text_set(text)


def stop(operator, context) -> None:
    """End what `start` and `show` began: the timer, the progress bar, the status line."""
    wm = context.window_manager
    if operator._timer is not None:
        wm.event_timer_remove(operator._timer)
        operator._timer = None
    wm.progress_end()
    workspace = getattr(context, "workspace", None)
    if workspace is not None:
        workspace.status_text_set(None)
