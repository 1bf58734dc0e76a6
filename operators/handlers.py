# SPDX-License-Identifier: GPL-3.0-or-later
"""Application handlers: mark results stale when their objects change, forget them when a file is loaded.

Moves and shape changes come as transform/geometry updates of the object.  Renames and deletions do not: a rename
is an object update without either flag, a deletion an update of the scene and its collections.  For those the
handler compares the watched objects' names with the names they had when the records last changed (`_names`,
refreshed by a store listener) and marks the records of every object renamed or gone.

All are @persistent: Blender drops non-persistent handlers on every file load, which would silently end stale
detection after File > Open.  `add()` is called by register() and `remove()` by unregister().  Handlers only mark;
nothing is computed inside a depsgraph handler.

The objects that moved or changed shape are told to the listeners of `changes` (live mode, the scene check's
instances, `reading.GEOMETRY_CACHE`), also on frame changes (playback, `scene.frame_set`), which Blender reports
through `frame_change_post` and not through `depsgraph_update_post`.  Undo and redo clear `reading`'s cache (the
data was reloaded) and bring live mode in line with the scene's toggle.
"""
from __future__ import annotations

import bpy
from bpy.app.handlers import persistent

from . import access, changes, live, reading, scene_ops, store
from .reading import object_identity


def _changed_identities(depsgraph, reshaped: set | None = None) -> set:
    """Identities of the objects that moved or changed shape; those whose geometry changed also go into
    `reshaped` when it is given."""
    changed = set()
    for update in depsgraph.updates:
        if not (update.is_updated_transform or update.is_updated_geometry):
            continue
        datablock = update.id
        if isinstance(datablock, bpy.types.Object):
            identity = object_identity(datablock.original)
            changed.add(identity)
            if reshaped is not None and update.is_updated_geometry:
                reshaped.add(identity)
    return changed


def _tell_change_listeners(changed: set, reshaped: set) -> None:
    for listener in changes.change_listeners():
        listener(changed, reshaped)


_names: dict = {}
"""identity -> name of every object the records watch, as of the last change of the records."""


def _remember_names(_view=None) -> None:
    """Store listener: note the watched objects' current names."""
    watched = _watched()
    _names.clear()
    if not watched:
        return
    for obj in bpy.data.objects:
        uid = object_identity(obj)
        if uid in watched:
            _names[uid] = obj.name


def _renamed_or_deleted() -> set:
    """Identities of watched objects whose name changed or that no longer exist."""
    current = {}
    for obj in bpy.data.objects:
        uid = object_identity(obj)
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
    if access.state() is None:
        return
    watched = _watched()
    if not watched and not changes.depsgraph_listeners() and not changes.change_listeners():
        return
    if watched and _names and _structural(depsgraph):
        gone = _renamed_or_deleted() & watched
        if gone:
            store.mark_stale(None, gone)
    reshaped = set()
    changed = _changed_identities(depsgraph, reshaped)
    if not changed:
        return
    _tell_change_listeners(changed, reshaped)
    claimed = set()
    for listener in changes.depsgraph_listeners():
        claimed |= listener(changed) or set()
    stale = (changed & watched) - claimed
    if stale:
        store.mark_stale(None, stale)


@persistent
def on_frame_change_post(scene, depsgraph=None):
    """Playback and `frame_set` move animated objects: tell the listeners (results are not marked stale here:
    a sweep visits frames and comes back)."""
    if depsgraph is None or not (changes.depsgraph_listeners() or changes.change_listeners()):
        return
    reshaped = set()
    changed = _changed_identities(depsgraph, reshaped)
    if not changed:
        return
    _tell_change_listeners(changed, reshaped)
    for listener in changes.depsgraph_listeners():
        listener(changed)


@persistent
def on_load_pre(*_args):
    """Before another file replaces this one: live mode stops (no handler or timer survives the load)."""
    live.shutdown()


@persistent
def on_load_post(*_args):
    """A new file has other objects: forget the results, the last scene check's header and the cached geometry;
    resume live mode if the loaded scene has it on."""
    store.clear()
    scene_ops.clear_last_run()
    reading.GEOMETRY_CACHE.clear()
    live.sync_with_scene()


@persistent
def on_undo_redo(*_args):
    """Undo and redo reload the data: cached geometry may no longer be what the objects hold, and the scene's Live
    toggle may have changed without its update callback."""
    reading.GEOMETRY_CACHE.clear()
    live.sync_with_scene()


def _handler_table():
    h = bpy.app.handlers
    return ((h.depsgraph_update_post, on_depsgraph_update_post), (h.frame_change_post, on_frame_change_post),
            (h.load_pre, on_load_pre), (h.load_post, on_load_post),
            (h.undo_post, on_undo_redo), (h.redo_post, on_undo_redo))


def add() -> None:
    for handler_list, handler in _handler_table():
        if handler not in handler_list:
            handler_list.append(handler)
    changes.add_change_listener(reading.GEOMETRY_CACHE.on_changes)
    store.subscribe(_remember_names)


def remove() -> None:
    live.shutdown()
    for handler_list, handler in _handler_table():
        while handler in handler_list:
            handler_list.remove(handler)
    changes.clear()
    reading.GEOMETRY_CACHE.clear()
    store.unsubscribe(_remember_names)
    _names.clear()
    store.forget()
