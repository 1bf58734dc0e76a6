# SPDX-License-Identifier: GPL-3.0-or-later
"""The one writer of results.

The Python side is the source of truth: a list of exact `CheckRecord`s (worst first) and the active index.  Every
change goes through this module, which then
1. mirrors it into the WindowManager properties (`props.CollisionInspectorState`, reached through `access.state`:
   `results`, `active_index` and `result` = the active record) with one loop over `results.record.mirror_fields`,
   and
2. tells the listeners (`subscribe`) with the new `ResultsView`; the overlay is one, and tags the viewports.
Nothing reads the mirror back.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

import bpy

from ..results import object_check as object_data
from ..results.motion import sweep_mirror_fields
from ..results.record import CheckRecord, ResultsView, SweepRecord, mirror_fields
from . import access
from .reading import object_identity

_records: list[CheckRecord] = []
_active: int = -1
_sweep: SweepRecord | None = None
_object_check: object_data.ObjectCheck | None = None  # the list is a Check Object's (set with it, dropped with it)
_listeners: list[Callable[[ResultsView], None]] = []
_writing = False  # set while the mirror is written, so its update callbacks do not re-enter


# --------------------------------------------------------------------------------------------- readers

def records() -> tuple[CheckRecord, ...]:
    return tuple(_records)


def active_record() -> CheckRecord | None:
    return _records[_active] if 0 <= _active < len(_records) else None


def active_contact():
    """The exact float64 `core.Contact` of the active record, or None."""
    record = active_record()
    return record.contact if record is not None else None


def sweep_record() -> SweepRecord | None:
    return _sweep


def object_check() -> object_data.ObjectCheck | None:
    """What Check Object found, when the results list is its rows; else None."""
    return _object_check


def view(wm=None) -> ResultsView:
    """What the user interface shows, built from the records and the display toggles."""
    group = access.state(wm)
    show, through = (bool(group.show_overlay), bool(group.draw_through)) if group is not None else (False, False)
    scene = getattr(bpy.context, "scene", None)
    return ResultsView(records=tuple(_records), active_index=_active, show_overlay=show, draw_through=through,
                       units=scene.unit_settings if scene is not None else None, sweep=_sweep)


# --------------------------------------------------------------------------------------------- listeners

def subscribe(listener: Callable[[ResultsView], None]) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Callable[[ResultsView], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def notify(wm=None) -> None:
    current = view(wm)
    for listener in list(_listeners):
        listener(current)


# --------------------------------------------------------------------------------------------- writers

def _mirror(item, record: CheckRecord | None) -> None:
    for name, value in mirror_fields(record).items():
        setattr(item, name, value)


def _write_mirror(wm) -> None:
    global _writing
    group = access.state(wm)
    if group is None:
        return
    _writing = True
    try:
        if len(group.results) != len(_records):
            group.results.clear()
            for _ in _records:
                group.results.add()
        for item, record in zip(group.results, _records):
            _mirror(item, record)
        group.active_index = _active
        _mirror(group.result, active_record())
        mirror = getattr(group, "object_check", None)
        if mirror is not None:
            for name, value in object_data.mirror_fields(_object_check).items():
                setattr(mirror, name, value)
    finally:
        _writing = False


def set_records(wm, new_records, active: int = 0, object_check=None) -> None:
    """Replace every record (e.g. a scene check's list, worst first) and make `active` the shown one.
    `object_check`: the `results.object_check.ObjectCheck` whose rows these are (Check Object), else None."""
    global _records, _active, _object_check
    _records = list(new_records)
    _object_check = object_check
    _active = active if 0 <= active < len(_records) else (0 if _records else -1)
    _write_mirror(wm)
    notify(wm)


def store(wm, record: CheckRecord) -> None:
    """Make `record` the only result (a pair check)."""
    set_records(wm, [record], 0)


def replace_record(wm, index: int, record: CheckRecord) -> None:
    """Put a new answer for the pair at `index` (a live re-check) in place, keeping the list and its order."""
    if not 0 <= index < len(_records):
        raise IndexError(f"no result at index {index}")
    _records[index] = record
    _write_mirror(wm)
    notify(wm)


def activate(wm, index: int) -> bool:
    """Show the record at `index` (the results list's selection); True when the shown record changed."""
    global _active
    if _writing:
        return False
    if 0 <= index < len(_records) and index != _active:
        _active = index
        _write_mirror(wm)
        notify(wm)
        return True
    return False


def mark_stale(wm, identities: set) -> bool:
    """Mark every record whose A or B has one of these identities as stale; True when any changed."""
    changed = False
    for i, record in enumerate(_records):
        if not record.is_stale and (record.identity_a in identities or record.identity_b in identities):
            _records[i] = replace(record, is_stale=True)
            changed = True
    if changed:
        _write_mirror(wm)
        notify(wm)
    return changed


def _write_sweep_mirror(wm) -> None:
    group = access.state(wm)
    mirror = getattr(group, "sweep", None) if group is not None else None
    if mirror is None:
        return
    for name, value in sweep_mirror_fields(_sweep).items():
        setattr(mirror, name, value)
    mirror.samples.clear()
    for sample in (_sweep.samples if _sweep is not None else ()):
        item = mirror.samples.add()
        item.frame, item.status, item.distance = sample.frame, sample.status.name, sample.distance


def set_sweep(wm, sweep: SweepRecord | None) -> None:
    """Make `sweep` the shown sweep (None: none) and mirror it at `wm.collision_inspector.sweep`."""
    global _sweep
    _sweep = sweep
    _write_sweep_mirror(wm)
    notify(wm)


def clear(wm=None) -> None:
    """Forget every record and the sweep, and tell the listeners."""
    global _records, _active, _sweep, _object_check
    _records, _active, _sweep, _object_check = [], -1, None, None
    _write_mirror(wm)
    _write_sweep_mirror(wm)
    notify(wm)


def forget() -> None:
    """Drop the Python-side records without touching Blender data (unregister)."""
    global _records, _active, _sweep, _object_check
    _records, _active, _sweep, _object_check = [], -1, None, None


# --------------------------------------------------------------------------------------------- objects

def resolve(name: str, identity: int = 0):
    """The object called `name`, else the one with that identity (it was renamed), else None (deleted)."""
    obj = bpy.data.objects.get(name) if name else None
    if obj is not None and (not identity or object_identity(obj) == identity):
        return obj
    if identity:
        for candidate in bpy.data.objects:
            if object_identity(candidate) == identity:
                return candidate
    return obj


def resolve_object(which: str, record: CheckRecord | None = None):
    """Object 'A' or 'B' of `record` (default: the active record), or None if it is gone."""
    record = record if record is not None else active_record()
    if record is None:
        return None
    if which == "A":
        return resolve(record.object_a, record.identity_a)
    return resolve(record.object_b, record.identity_b)
