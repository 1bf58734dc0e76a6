# SPDX-License-Identifier: GPL-3.0-or-later
"""Who hears about changed objects: the listener lists that `handlers` feeds after each depsgraph update and frame
change.  Objects are named by `reading.object_identity`.

- `add_depsgraph_listener(fn(changed))`: every object that moved or changed shape.  A listener may return the
  identities it will re-check itself (live mode): their records are then not marked stale meanwhile, so the stale
  warning does not flicker while live mode follows a drag.  The scene check listens this way too (an instanced
  object changed: its instancers' rows go stale).
- `add_change_listener(fn(changed, reshaped))`: the same, plus the subset whose *geometry* changed (edited,
  modifiers, shape keys, deformation); the others only moved (`matrix_world`), so their local vertices and
  prepared shapes still hold (`reading.GEOMETRY_CACHE` listens this way).

The lists live apart from `handlers` so that a listener (`live`, `scene_ops`) can sign up without importing the
module that calls it: `handlers` imports them, not the other way round.  `clear()` (unregister) empties both.
"""
from __future__ import annotations

_depsgraph_listeners: list = []
_change_listeners: list = []


def depsgraph_listeners() -> tuple:
    return tuple(_depsgraph_listeners)


def change_listeners() -> tuple:
    return tuple(_change_listeners)


def add_depsgraph_listener(listener) -> None:
    if listener not in _depsgraph_listeners:
        _depsgraph_listeners.append(listener)


def remove_depsgraph_listener(listener) -> None:
    while listener in _depsgraph_listeners:
        _depsgraph_listeners.remove(listener)


def add_change_listener(listener) -> None:
    if listener not in _change_listeners:
        _change_listeners.append(listener)


def remove_change_listener(listener) -> None:
    while listener in _change_listeners:
        _change_listeners.remove(listener)


def clear() -> None:
    _depsgraph_listeners.clear()
    _change_listeners.clear()
