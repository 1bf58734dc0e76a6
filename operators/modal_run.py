# SPDX-License-Identifier: GPL-3.0-or-later
"""The modal run the long operators share (Check All, Sweep Frames, Check Object, Check Collision, Push Apart and
Move to Contact).

With a window, an operator's `invoke` starts the run (`start`: Blender's progress bar, a window timer, the operator
as the window's modal handler); each TIMER event does a slice of the work within a time budget and reports it
(`show`: the share done, and the line in the status bar that says what runs and that Esc cancels); Esc, the end of
the work or an error ends it (`stop`: no timer, no progress bar, no status line).  Without a window the operators
run straight through in `execute` instead.  The operator keeps its timer in `_timer`.  Work given as a generator
of steps (Check Object's stages, Check Collision's reports) is run slice by slice by `advance`, and the events of
its run are sorted by `dispatch`.

Work that is one engine call (a pair's depth interval, its overlap volume) reaches the timer's slices through
`stepped`: the call runs in a thread of its own, handed the core's progress hook (core/progress.py), and only
while the modal run waits for it, up to its next report.  `ProgressRun` is the whole run of an operator whose
work is such a generator of `core.Progress` reports (Check Collision, Push Apart, Move to Contact).
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


def run_through(steps):
    """The generator `steps` run to its end, its values dropped: its return value (its exceptions raised on)."""
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            return finished.value


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


_paused = 0
"""`stepped` works under way: each waits, part way through a query, on core objects that other checks share."""


WORK_THREAD = "collision-inspector-work"
"""The name of the thread `stepped` runs its work in."""


def work_threads() -> list:
    """The threads of `stepped` works still alive (none once every run has ended or been cancelled)."""
    return [t for t in threading.enumerate() if t.name == WORK_THREAD]


def busy() -> bool:
    """Engine work of a modal run waits part way (live mode's timer waits too: its re-checks would use the
    shapes that work holds)."""
    return _paused > 0


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

    global _paused
    thread = threading.Thread(target=run, name=WORK_THREAD, daemon=True)
    thread.start()
    _paused += 1
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
        _paused -= 1
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


FIRST_S = 0.25
"""Work run from `invoke` that is done within this time answers at once; longer work goes on as a modal run."""
STEP_S = 0.25
"""Time given to the work per timer tick of the modal run (a unit of the core's work, once started, runs to its
end: a fraction of a second).  The work waits between ticks, while Blender handles events and redraws: longer
ticks waste less of that on a busy machine, shorter ones answer Esc sooner."""
PROGRESS_STEPS = 1000


class ProgressRun:
    """Mixin of an operator whose work is a generator of `core.Progress` reports ending in a value: with a window,
    `invoke` runs it for FIRST_S and, when it is not done by then, goes on as a modal run (progress bar, the
    stage in the status bar, Esc cancels at the core's next report); `execute` is the operator's own straight run.

    The operator provides `_begin(context)` (sets `_steps` and `_names`; False, having reported why, when it
    cannot run), `_publish(context, value)` (the operator's return value once the work is done),
    `_failure(exc)` (the message of an error the work raised) and, when its work changes the scene on the way,
    `_restore(context)` (put it back as it was: the run was cancelled or failed; called after the work stopped)."""

    _steps = None
    _timer = None
    _names = ("", "")
    _done = 0.0
    _stage = ""

    def _pair(self):
        """The pair worked on, as the messages name it."""
        return f"'{self._names[0]}' and '{self._names[1]}'"

    def _restore(self, context):
        """Nothing to put back: the work changes nothing in the scene before it is done."""

    def _advance(self, context, budget_s: float, show: bool = True):
        """Run the steps for `budget_s` seconds (at least one step); None while they go on, else the operator's
        return value (the value published, or the failure reported)."""
        def take(progress):
            # a stage may be skipped and a unit report a stage again: the bar never goes back
            self._done, self._stage = max(self._done, progress.done), progress.stage.text

        try:
            finished, value = advance(self._steps, budget_s, take)
        except Exception as exc:
            self._drop(context)
            self.report({"ERROR"}, self._failure(exc))
            return {"CANCELLED"}
        if finished:
            self._end(context)
            return self._publish(context, value)
        if show:
            self._status(context)
        return None

    def invoke(self, context, _event):
        if context.window is None:
            return self.execute(context)
        if not self._begin(context):
            return {"CANCELLED"}
        self._done, self._stage = 0.0, "reading the objects"
        # quick work answers at once, as `execute` does; long work goes on as a modal run
        outcome = self._advance(context, FIRST_S, show=False)
        if outcome is not None:
            return outcome
        start(self, context, PROGRESS_STEPS, 0.01)
        self._status(context)
        return {"RUNNING_MODAL"}

    def _status(self, context):
        """The progress bar and, in the status bar, the stage that runs."""
        show(context, self._done, PROGRESS_STEPS, f"{self.bl_label} {self._pair()}: {self._stage} (Esc to cancel)")

    def _end(self, context):
        """Stop the modal run: no timer, no progress bar, no status text; the work stopped and dropped."""
        if self._timer is not None:
            stop(self, context)
        if self._steps is not None:
            self._steps.close()
            self._steps = None

    def _drop(self, context):
        """End the run without its answer: the work stopped, the scene as it was before."""
        self._end(context)
        self._restore(context)

    def cancel(self, context):
        """Blender ends the run (the window closes, another file loads): nothing is written."""
        self._drop(context)

    def modal(self, context, event):
        def escape():
            self._drop(context)
            self.report({"INFO"}, f"{self.bl_label} cancelled on {self._pair()}: nothing changed")
            return {"CANCELLED"}

        return dispatch(event, escape, lambda: self._advance(context, STEP_S))
