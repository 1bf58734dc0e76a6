# SPDX-License-Identifier: GPL-3.0-or-later
"""Live mode: re-check the shown pair (and every record of the results list) whenever A or B changes.

While `scene.collision_inspector.live` is on:
1. `handlers` tells `_on_changed` which objects moved or changed shape (depsgraph updates: moves, edits,
   modifiers, an interactive transform drag; frame changes: playback).  It only *marks* them and makes sure a
   timer is registered; nothing is computed inside a handler.  Their records are not marked stale meanwhile
   (the re-check follows within `INTERVAL`), so the readout does not flicker during a drag; a record whose
   object was deleted or can no longer be checked is marked stale by the re-check.
2. The timer (`tick`, `bpy.app.timers`) runs `INTERVAL` seconds after the first mark, so a burst of updates (a
   drag sends one per mouse move) costs at most one re-check per interval.  Every record whose A or B was marked
   goes through the one pipeline (`checking.check_pair`, with `reading.GEOMETRY_CACHE`, so an object that only
   moved is not read again, and in Exact mode with the pair's `core.PairHistory`, so each query starts from the
   last one's crossing or closest triangles) and back through the one writer (`store.replace_record`); the readout
   and overlay follow as store listeners.

The preview rule (meshes too large for the budget): a record checked in Exact or Loose Parts mode whose last
check in that mode took longer than `BUDGET_MS` (measured, so it adapts to the pair and the machine), or whose two
objects have `PREVIEW_TRIANGLES` triangles or more together, is re-checked as convex hulls (mode HULL,
`preview=True`; the readout says "(preview)") while changes keep coming, and in its own mode once no change has
come for `SETTLE` seconds: the timer comes back for that.  That settled answer can take seconds (two meshes'
depth interval): with a window it runs as a modal run (`COLLISION_OT_live_settle`, a `modal_run.ProgressRun` like
Check Collision's), with progress in the status bar; Esc stops it and leaves the previews as they are, not tried
again until the next change (`_held`).  Live re-checks wait while it runs.  Without a window it runs in the timer.

Turning it off, loading another file (`handlers.on_load_pre`) and disabling the add-on (`handlers.remove`) all
call `disable`/`shutdown`: no listener, no timer and nothing pending is left behind.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import replace

import bpy

from ..core import PairHistory
from ..results.record import Mode
from . import access, changes, modal_run, reading, store
from .checking import CheckSettings, check_pair, check_pair_steps

INTERVAL = 0.05
"""Seconds from the first change to the re-check (updates arriving meanwhile join it)."""
SETTLE = 0.3
"""Seconds without a change after which previewed records get their exact answer."""
PREVIEW_TRIANGLES = 20_000
"""Exact / Loose Parts pairs with at least this many triangles (A + B) are previewed as hulls while changing."""
BUDGET_MS = 50.0
"""An Exact / Loose Parts pair whose last check in its own mode took longer than this (milliseconds: the live
budget of a 10k-triangle pair) is previewed as hulls while changing."""

_enabled = False
_pending: set = set()
"""Identities of the objects changed since the last re-check."""
_last_change = 0.0
_wanted: dict = {}
"""(identity_a, identity_b) -> the Mode a previewed record is to be answered in once changes settle."""
_histories: dict = {}
"""(identity_a, identity_b) -> the pair's `core.PairHistory`: each exact re-check starts from the last one."""
_settling = False
"""The settled answers run as a modal run (`COLLISION_OT_live_settle`): the timer's re-checks wait."""
_held = False
"""The settled answers were cancelled (Esc): previews stay until the next change."""


def is_enabled() -> bool:
    return _enabled


def pending() -> frozenset:
    return frozenset(_pending)


def set_enabled(context, enabled: bool) -> None:
    """Turn live re-checking on or off (the `live` property's update)."""
    if enabled:
        enable()
    else:
        disable()


def enable() -> None:
    """Start listening; records already stale are re-checked at the next tick."""
    global _enabled
    _enabled = True
    changes.add_depsgraph_listener(_on_changed)
    stale = {uid for record in store.records() if record.is_stale or record.preview
             for uid in (record.identity_a, record.identity_b) if uid}
    if stale:
        _mark(stale)


def disable() -> None:
    """Stop: no listener, no timer, nothing pending."""
    global _enabled
    _enabled = False
    changes.remove_depsgraph_listener(_on_changed)
    if bpy.app.timers.is_registered(tick):
        bpy.app.timers.unregister(tick)
    _hold(False)
    _pending.clear()
    _wanted.clear()
    _histories.clear()


def shutdown() -> None:
    """Before a file load and on unregister."""
    disable()


def sync_with_scene() -> None:
    """Match the scene's `live` property where its update callback does not run: after a file load (on again if
    the file was saved with Live on) and after undo or redo (which can flip the property back)."""
    scene = getattr(bpy.context, "scene", None)
    group = access.settings(scene) if scene is not None else None
    wanted = group is not None and bool(group.live)
    if wanted and not _enabled:
        enable()
    elif not wanted and _enabled:
        disable()


def _watched() -> set:
    return {uid for record in store.records() for uid in (record.identity_a, record.identity_b) if uid}


def _on_changed(changed: set) -> set:
    """Depsgraph / frame-change listener: mark, never compute; the identities live mode will re-check (the
    handler then does not mark their records stale in between)."""
    hit = changed & _watched()
    if hit:
        _mark(hit)
    return hit


def _hold(held: bool) -> None:
    global _held
    _held = held


def _mark(identities) -> None:
    global _last_change
    _hold(False)
    _pending.update(identities)
    _last_change = time.perf_counter()
    if not bpy.app.timers.is_registered(tick):
        bpy.app.timers.register(tick, first_interval=INTERVAL)


def _is_large(record) -> bool:
    """Too slow for a smooth drag in its own mode: measured (its last check) or by size."""
    if record.mode is not Mode.HULL and not record.preview and record.time_ms > BUDGET_MS:
        return True
    return record.triangle_count_a + record.triangle_count_b >= PREVIEW_TRIANGLES


def recheck(now: float | None = None) -> int:
    """Re-check every record whose A or B was marked (and, once changes settled, every previewed record);
    the number of records re-checked.  The timer's work, callable directly (tests/blender/test_motion_live.py,
    bench/live.py)."""
    # Evaluate first: updates still waiting are reported (and marked) now, and are part of this round.
    depsgraph = bpy.context.evaluated_depsgraph_get()
    now = time.perf_counter() if now is None else now
    settled = now - _last_change >= SETTLE
    marked = set(_pending)
    _pending.clear()
    wm = bpy.context.window_manager
    done = 0
    in_window = settled and not _held and _window_region() is not None
    waiting = False
    for index, record in enumerate(store.records()):
        touched = record.identity_a in marked or record.identity_b in marked
        if not touched and not (record.preview and settled and not _held):
            continue
        if record.is_one_object:  # Check Object's rows are not re-checked live: they go stale until checked again
            store.mark_stale(wm, {record.identity_a})
            continue
        key = (record.identity_a, record.identity_b)
        wanted = _wanted.get(key, record.mode) if record.preview else record.mode
        large = wanted is not Mode.HULL and (record.preview or _is_large(record))
        # settled, a large pair's answer in its own mode is the modal run's (with a window); it is previewed
        # until then (when it has just changed: a change the timer comes to late has settled already)
        preview = large and (not settled or in_window)
        if preview and settled:
            waiting = True
            if not touched:
                continue  # the preview shown is of the objects where they stand
        obj_a = store.resolve_object("A", record)
        obj_b = store.resolve_object("B", record)
        if obj_a is None or obj_b is None:  # deleted: the record is stale for good
            store.mark_stale(wm, {record.identity_a, record.identity_b})
            continue
        settings = _settings(record, Mode.HULL if preview else wanted)
        try:
            new = check_pair(obj_a, obj_b, depsgraph, settings, cache=reading.GEOMETRY_CACHE)
        except ValueError:  # GeometryError included: the object can no longer be checked; the record is stale
            store.mark_stale(wm, {record.identity_a, record.identity_b})
            continue
        if preview:
            _wanted[key] = wanted
            new = replace(new, preview=True)
        else:
            _wanted.pop(key, None)
        store.replace_record(wm, index, new)
        done += 1
    if waiting:
        _settle_in_window()
    return done


def _settings(record, mode: Mode) -> CheckSettings:
    """A live re-check's settings for `record` in `mode` (the pair's history in Exact mode)."""
    key = (record.identity_a, record.identity_b)
    history = _histories.setdefault(key, PairHistory()) if mode is Mode.EXACT else None
    return CheckSettings(mode=mode, clearance=record.clearance, warm_start=tuple(map(float, record.contact.normal)),
                         history=history)


def settle_steps():
    """The previewed records answered in their own mode, in steps (`checking.check_pair_steps`, each record given
    its part of the bar): a generator of `core.Progress` reports, each record replaced as soon as it is answered;
    returns how many were.  A record whose objects are gone or can no longer be checked goes stale."""
    wm = bpy.context.window_manager
    previews = [index for index, record in enumerate(store.records()) if record.preview]
    done = 0
    for k, index in enumerate(previews):
        record = store.records()[index]
        key = (record.identity_a, record.identity_b)
        obj_a, obj_b = store.resolve_object("A", record), store.resolve_object("B", record)
        if obj_a is None or obj_b is None:
            store.mark_stale(wm, {record.identity_a, record.identity_b})
            continue
        settings = _settings(record, _wanted.get(key, record.mode))
        try:
            new = yield from check_pair_steps(obj_a, obj_b, bpy.context.evaluated_depsgraph_get(), settings,
                                              cache=reading.GEOMETRY_CACHE,
                                              part=(k / len(previews), (k + 1) / len(previews)))
        except ValueError:
            store.mark_stale(wm, {record.identity_a, record.identity_b})
            continue
        _wanted.pop(key, None)
        store.replace_record(wm, index, new)
        done += 1
    return done


def _window_region():
    """(window, area, region) for a modal run: a 3D view's main region, else any window's first area; None
    without a window (background mode, scripts)."""
    wm = bpy.context.window_manager
    for window in getattr(wm, "windows", ()):
        areas = sorted(window.screen.areas, key=lambda area: area.type != "VIEW_3D")
        for area in areas:
            for region in area.regions:
                if region.type == "WINDOW":
                    return window, area, region
    return None


def _settle_in_window() -> None:
    """Start the settled answers' modal run in a window (the timer has no window of its own); when Blender
    refuses to start it there, they are answered here, straight through."""
    found = _window_region()
    if _settling:
        return
    try:
        window, area, region = found
        with bpy.context.temp_override(window=window, area=area, region=region):
            bpy.ops.collision.live_settle("INVOKE_DEFAULT")
    except (RuntimeError, TypeError):
        traceback.print_exc()
        modal_run.run_through(settle_steps())


def tick():
    """The timer: re-check, then come back while previews wait for the changes to settle; None ends it."""
    if not _enabled:
        return None
    if _settling or modal_run.busy():  # a modal run holds the records or the shapes meanwhile
        return INTERVAL
    try:
        recheck()
    except Exception:  # a bug must not kill Blender's timer loop silently: print it and stop this round
        traceback.print_exc()
        return None
    if _pending:
        return INTERVAL
    if not _held and not _settling and any(record.preview for record in store.records()):
        return max(INTERVAL, SETTLE - (time.perf_counter() - _last_change))
    return None


class COLLISION_OT_live_settle(modal_run.ProgressRun, bpy.types.Operator):
    """Live mode: answer the previewed pairs in their own mode now that the changes have settled (Esc keeps the \
previews until the next change)"""

    bl_idname = "collision.live_settle"
    bl_label = "Live exact answer"
    bl_options = {"INTERNAL"}  # started by live mode's timer; changes no scene data: no undo step

    @classmethod
    def poll(cls, context):
        return _enabled

    def _begin(self, context) -> bool:
        global _settling
        previews = [record for record in store.records() if record.preview]
        if not previews:
            return False
        self._names = (previews[0].object_a, previews[0].object_b)
        self._steps = settle_steps()
        _settling = True
        return True

    def execute(self, context):
        if not self._begin(context):
            return {"CANCELLED"}
        try:
            value = modal_run.run_through(self._steps)
        finally:
            self._end(context)
        return self._publish(context, value)

    def _publish(self, context, value):
        return {"FINISHED"}

    def _failure(self, exc):
        traceback.print_exc()  # a bug: the previews stay; the trace goes to the console
        return f"Live mode could not answer {self._pair()}: {type(exc).__name__}: {exc} (details in the console)"

    def _end(self, context):
        global _settling
        modal_run.ProgressRun._end(self, context)
        _settling = False

    def _restore(self, context):
        """Cancelled: the previews stay (the records already answered keep their answers) until the next change."""
        _hold(True)


CLASSES = (COLLISION_OT_live_settle,)
