# SPDX-License-Identifier: GPL-3.0-or-later
"""Application handlers: mark results stale when their objects change, forget them when a file is loaded.

Moves and shape changes come as transform/geometry updates of the object.  Renames and deletions do not: a rename
is an object update without either flag, a deletion an update of the scene and its collections.  For those the
handler compares the watched objects' names with the names they had when the records last changed (`_names`,
refreshed by a store listener) and marks the records of every object renamed or gone.

Both are @persistent: Blender drops non-persistent handlers on every file load, which would silently end stale
detection after File > Open.  `add()` is called by register() and `remove()` by unregister().  Handlers only mark;
nothing is computed inside a depsgraph handler.
"""
from __future__ import annotations

import bpy
from bpy.app.handlers import persistent

from . import props, store

_extra_depsgraph_listeners: list = []
"""Functions called with the set of changed object identities after each depsgraph update (live mode)."""


def _changed_identities(depsgraph) -> set:
    changed = set()
    for update in depsgraph.updates:
        if not (update.is_updated_transform or update.is_updated_geometry):
            continue
        datablock = update.id
        if isinstance(datablock, bpy.types.Object):
            changed.add(store.object_identity(datablock.original))
    return changed


_names: dict = {}
"""identity -> name of every object the records watch, as of the last change of the records."""


def _remember_names(_view=None) -> None:
    """Store listener: note the watched objects' current names."""
    watched = _watched()
    _names.clear()
    if not watched:
        return
    for obj in bpy.data.objects:
        uid = store.object_identity(obj)
        if uid in watched:
            _names[uid] = obj.name


def _renamed_or_deleted() -> set:
    """Identities of watched objects whose name changed or that no longer exist."""
    current = {}
    for obj in bpy.data.objects:
        uid = store.object_identity(obj)
        if uid in _names:
            current[uid] = obj.name
    return {uid for uid, name in _names.items() if current.get(uid) != name}


def _structural(depsgraph) -> bool:
    """True when an update may be a rename or a deletion (anything but object moves and shape changes)."""
    for update in depsgraph.updates:
        if not isinstance(update.id, bpy.types.Object):
            return True
        if not (update.is_updated_transform or update.is_updated_geometry):
            return True
    return False


def _watched() -> set:
    watched = set()
    for record in store.records():
        watched.update(uid for uid in (record.identity_a, record.identity_b) if uid)
    return watched


@persistent
def on_depsgraph_update_post(scene, depsgraph):
    """Mark stale every record whose A or B moved or changed shape."""
    if props.state() is None:
        return
    watched = _watched()
    if not watched and not _extra_depsgraph_listeners:
        return
    if watched and _names and _structural(depsgraph):
        gone = _renamed_or_deleted() & watched
        if gone:
            store.mark_stale(None, gone)
    changed = _changed_identities(depsgraph)
    if not changed:
        return
    for listener in list(_extra_depsgraph_listeners):
        listener(changed)
    if changed & watched:
        store.mark_stale(None, changed & watched)


@persistent
def on_load_post(*_args):
    """A new file has other objects: forget the results."""
    store.clear()


def add_depsgraph_listener(listener) -> None:
    if listener not in _extra_depsgraph_listeners:
        _extra_depsgraph_listeners.append(listener)


def remove_depsgraph_listener(listener) -> None:
    while listener in _extra_depsgraph_listeners:
        _extra_depsgraph_listeners.remove(listener)


def add() -> None:
    if on_depsgraph_update_post not in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.append(on_depsgraph_update_post)
    if on_load_post not in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.append(on_load_post)
    store.subscribe(_remember_names)


def remove() -> None:
    while on_depsgraph_update_post in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.remove(on_depsgraph_update_post)
    while on_load_post in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(on_load_post)
    _extra_depsgraph_listeners.clear()
    store.unsubscribe(_remember_names)
    _names.clear()
    store.forget()
