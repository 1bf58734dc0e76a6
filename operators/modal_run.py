# SPDX-License-Identifier: GPL-3.0-or-later
"""The modal run the long operators share (Check All, Sweep Frames, Check Object, Check Collision).

With a window, an operator's `invoke` starts the run (`start`: Blender's progress bar, a window timer, the operator
as the window's modal handler); each TIMER event does a slice of the work within a time budget and reports it
(`show`: the share done, and the line in the status bar that says what runs and that Esc cancels); Esc, the end of
the work or an error ends it (`stop`: no timer, no progress bar, no status line).  Without a window the operators
run straight through in `execute` instead.  The operator keeps its timer in `_timer`.  Work given as a generator
of steps (Check Object's stages, Check Collision's reports) is run slice by slice by `advance`, and the events of
its run are sorted by `dispatch`.

Work that is one engine call (a pair's depth interval) reaches the timer's slices through `stepped`: the call
runs in a thread of its own, handed the core's progress hook (core/progress.py), and only while the modal run
waits for it, up to its next report.
"""
from __future__ import annotations

import threading
import time

from ..core import Cancelled

NAVIGATION = {"MIDDLEMOUSE", "WHEELUPMOUSE", "WHEELDOWNMOUSE", "TRACKPADPAN", "TRACKPADZOOM"}
"""Events a modal run lets through: the view can be moved while it runs; the scene cannot be edited."""


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


def advance(steps, budget_s: float, take):
    """Run the generator `steps` for `budget_s` seconds (at least one step), handing each value it yields to
    `take`: (True, its return value) once it is done, else (False, None) when the time is up (Esc gets its turn
    before the next step).  Its exceptions, and `take`'s, are raised on."""
    deadline = time.perf_counter() + budget_s
    while True:
        try:
            value = next(steps)
        except StopIteration as finished:
            return True, finished.value
        take(value)
        if time.perf_counter() >= deadline:
            return False, None


def dispatch(event, escape, tick):
    """A modal run's handling of one event: Esc calls `escape()`, a timer tick `tick()` (None while the work goes
    on, else the operator's return value), view navigation passes through, anything else is held back."""
    if event.type == "ESC":
        return escape()
    if event.type == "TIMER":
        outcome = tick()
        return {"RUNNING_MODAL"} if outcome is None else outcome
    if event.type in NAVIGATION:
        return {"PASS_THROUGH"}
    return {"RUNNING_MODAL"}


def stepped(work):
    """`work(hook)` as a generator, for a modal run's slices: each `next` lets the work go on until it calls
    `hook` (the core's progress hook: between units of its work) and yields the `core.Progress` reported; the
    work's value is the StopIteration value, and its exception is raised from `next`.  Closing the generator
    (Esc, the run dropped) makes that pending hook call raise `core.Cancelled`, and waits until the work has
    ended.

    The work runs in a thread of its own but never while the caller runs: each waits for the other, so the work
    may use the core objects the caller holds (their caches are never touched by two at once); it must not touch
    bpy.  The hook returns normally while the run goes on, so the work's answer is that of a straight call."""
    resume, paused = threading.Semaphore(0), threading.Semaphore(0)
    box = {}
    stop = False

    def hook(progress):
        box["progress"] = progress
        paused.release()
        resume.acquire()
        if stop:
            raise Cancelled

    def run():
        resume.acquire()
        try:
            box["value"] = work(hook)
        except BaseException as exc:  # handed to the caller's thread (Cancelled too, where it is dropped)
            box["error"] = exc
        finally:
            box["finished"] = True
            paused.release()

    thread = threading.Thread(target=run, name="collision-inspector-work", daemon=True)
    thread.start()
    try:
        while True:
            resume.release()
            paused.acquire()
            if box.get("finished"):
                break
            yield box.pop("progress")
    finally:
        if not box.get("finished"):  # closed while the work waits in its hook: stop it there
            stop = True
            resume.release()
            thread.join()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
