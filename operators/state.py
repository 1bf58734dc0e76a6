# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the result of the last check lives.

Two copies, one writer (`store` / `clear`, called by the operators):
- `bpy.context.window_manager.collision_inspector.result` (`CollisionResult`): for scripts and the UI.  Blender
  keeps these floats as float32.  Transient: the WindowManager is not where scene data is saved.
- `last_record()`: the exact float64 `core.Contact` plus what the check saw, for display and tests.

Objects are remembered by name (`result.object_a`, `result.object_b`), not by ID pointer: a PointerProperty on
the WindowManager is not cleared when the object is deleted (measured in bpy 5.0: it dangles), so the names
are resolved on use with `resolve_object`.

Listeners (`subscribe`) are told about every change (new result, cleared, stale, display toggles); the overlay
uses this to rebuild its draw data, so this module knows nothing of drawing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import bpy
from bpy.app.handlers import persistent
from bpy.props import BoolProperty, EnumProperty, FloatProperty, FloatVectorProperty, IntProperty, PointerProperty, StringProperty

STATUS_ITEMS = (
    ("NONE", "None", "No check has been run (or the result was cleared)"),
    ("SEPARATED", "Separated", "A gap separates the objects: distance and closest points"),
    ("TOUCHING", "Touching", "The objects touch within the touching tolerance"),
    ("INTERSECTING", "Intersecting", "The objects overlap: penetration depth, normal and witness points"),
)


@dataclass(frozen=True)
class CheckRecord:
    """The exact (float64) outcome of one check, kept on the Python side."""

    contact: Any
    """The `core.Contact` returned by `core.collide` (world space, float64)."""
    object_a: str
    object_b: str
    vertex_count_a: int
    vertex_count_b: int
    time_ms: float
    """Time spent in `core.collide`, in milliseconds."""
    read_ms: float
    """Time spent reading the evaluated meshes, in milliseconds."""
    session_uid_a: int = 0
    session_uid_b: int = 0


@dataclass
class ResultView:
    """What the panel, the overlay and the clipboard show: one flat record, whichever copy it came from."""

    status: str
    distance: float
    depth: float
    normal: tuple
    point_a: tuple
    point_b: tuple
    object_a: str
    object_b: str
    scale: float = 0.0
    touching_tolerance: float = 0.0
    gjk_iterations: int = 0
    epa_iterations: int = 0
    time_ms: float = 0.0
    read_ms: float = 0.0
    converged: bool = True
    fallback_used: bool = False
    iteration_cap_hit: bool = False
    is_stale: bool = False
    vertex_counts: tuple = field(default=(0, 0))


_record: CheckRecord | None = None
_listeners: list[Callable[[], None]] = []


# --------------------------------------------------------------------------------------------- listeners

def subscribe(listener: Callable[[], None]) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Callable[[], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def notify() -> None:
    for listener in list(_listeners):
        listener()


def _on_display_change(_self, _context):
    notify()


# --------------------------------------------------------------------------------------------- properties

class CollisionResult(bpy.types.PropertyGroup):
    """The last check's result, for scripts: `bpy.context.window_manager.collision_inspector.result`."""

    status: EnumProperty(name="Status", items=STATUS_ITEMS, default="NONE")
    distance: FloatProperty(
        name="Distance", subtype="DISTANCE", unit="LENGTH", precision=6,
        description="Signed distance in scene units: > 0 separated, < 0 intersecting (depth = -distance)")
    depth: FloatProperty(
        name="Depth", subtype="DISTANCE", unit="LENGTH", precision=6, min=0.0,
        description="Penetration depth (0 unless intersecting)")
    normal: FloatVectorProperty(
        name="Normal", size=3, subtype="DIRECTION",
        description="Unit vector from A towards B; intersecting: moving B by depth * normal makes them touch")
    point_a: FloatVectorProperty(
        name="Point on A", size=3, subtype="TRANSLATION", unit="LENGTH",
        description="World point on A: closest point when separated, witness (deepest) point when intersecting")
    point_b: FloatVectorProperty(
        name="Point on B", size=3, subtype="TRANSLATION", unit="LENGTH",
        description="World point on B: closest point when separated, witness (deepest) point when intersecting")
    object_a: StringProperty(name="Object A", description="Name of object A (the active object at check time)")
    object_b: StringProperty(name="Object B", description="Name of object B (the other selected object)")
    gjk_iterations: IntProperty(name="GJK Iterations", min=0)
    epa_iterations: IntProperty(name="EPA Iterations", min=0)
    time_ms: FloatProperty(name="Time (ms)", min=0.0, description="Time spent in the collision query")
    read_ms: FloatProperty(name="Read Time (ms)", min=0.0, description="Time spent reading the evaluated meshes")
    converged: BoolProperty(name="Converged", default=True,
                            description="Every stage met its tolerance: the distance is certified")
    fallback_used: BoolProperty(name="Fallback Used",
                                description="A degenerate configuration was resolved by a fallback")
    iteration_cap_hit: BoolProperty(name="Iteration Cap Hit")
    is_stale: BoolProperty(name="Stale", description="Object A or B changed after the check")
    scale: FloatProperty(name="Scale", unit="LENGTH", description="Size of the pair (largest bounding-box diagonal)")
    touching_tolerance: FloatProperty(name="Touching Tolerance", unit="LENGTH", precision=9)


class CollisionInspectorState(bpy.types.PropertyGroup):
    """Transient add-on state on the WindowManager: the result and the overlay settings."""

    result: PointerProperty(type=CollisionResult)
    show_overlay: BoolProperty(
        name="Show Overlay", default=True, update=_on_display_change,
        description="Draw the normal, witness or closest points and the distance in the 3D viewport")
    draw_through: BoolProperty(
        name="Draw Through Geometry", default=True, update=_on_display_change,
        description="Draw the overlay on top of the objects (X-ray) instead of hiding it behind them")


CLASSES = (CollisionResult, CollisionInspectorState)


def _state(wm=None):
    wm = wm if wm is not None else bpy.context.window_manager
    return getattr(wm, "collision_inspector", None)


# --------------------------------------------------------------------------------------------- writers

def store(wm, record: CheckRecord) -> None:
    """Make `record` the current result (both copies) and tell the listeners."""
    global _record
    contact = record.contact
    result = _state(wm).result
    result.status = contact.status.name
    result.distance = contact.distance
    result.depth = contact.depth
    result.normal = tuple(contact.normal)
    result.point_a = tuple(contact.point_a)
    result.point_b = tuple(contact.point_b)
    result.object_a = record.object_a
    result.object_b = record.object_b
    result.gjk_iterations = int(contact.gjk_iterations)
    result.epa_iterations = int(contact.epa_iterations)
    result.time_ms = record.time_ms
    result.read_ms = record.read_ms
    result.converged = bool(contact.converged)
    result.fallback_used = bool(contact.fallback_used)
    result.iteration_cap_hit = bool(contact.iteration_cap_hit)
    result.scale = contact.scale
    result.touching_tolerance = contact.touching_tolerance
    result.is_stale = False
    _record = record
    notify()


def clear(wm=None) -> None:
    """Forget the result (both copies) and tell the listeners."""
    global _record
    _record = None
    state = _state(wm)
    if state is not None:
        state.result.status = "NONE"
        state.result.is_stale = False
        state.result.object_a = ""
        state.result.object_b = ""
    notify()


# --------------------------------------------------------------------------------------------- readers

def last_record() -> CheckRecord | None:
    return _record


def last_contact():
    """The exact float64 `core.Contact` of the last check, or None."""
    return _record.contact if _record is not None else None


def current_view(wm=None) -> ResultView | None:
    """The current result as a `ResultView` (float64 when the Python record exists), or None."""
    state = _state(wm)
    if state is None:
        return None
    result = state.result
    if result.status == "NONE":
        return None
    record = _record
    if record is not None and record.object_a == result.object_a and record.object_b == result.object_b:
        c = record.contact
        return ResultView(
            status=c.status.name, distance=float(c.distance), depth=float(c.depth),
            normal=tuple(map(float, c.normal)), point_a=tuple(map(float, c.point_a)),
            point_b=tuple(map(float, c.point_b)), object_a=record.object_a, object_b=record.object_b,
            scale=float(c.scale), touching_tolerance=float(c.touching_tolerance),
            gjk_iterations=int(c.gjk_iterations), epa_iterations=int(c.epa_iterations),
            time_ms=record.time_ms, read_ms=record.read_ms, converged=bool(c.converged),
            fallback_used=bool(c.fallback_used), iteration_cap_hit=bool(c.iteration_cap_hit),
            is_stale=bool(result.is_stale), vertex_counts=(record.vertex_count_a, record.vertex_count_b))
    return ResultView(
        status=result.status, distance=result.distance, depth=result.depth, normal=tuple(result.normal),
        point_a=tuple(result.point_a), point_b=tuple(result.point_b), object_a=result.object_a,
        object_b=result.object_b, scale=result.scale, touching_tolerance=result.touching_tolerance,
        gjk_iterations=result.gjk_iterations, epa_iterations=result.epa_iterations, time_ms=result.time_ms,
        read_ms=result.read_ms, converged=result.converged, fallback_used=result.fallback_used,
        iteration_cap_hit=result.iteration_cap_hit, is_stale=result.is_stale)


def display_settings(wm=None) -> tuple[bool, bool]:
    """(show_overlay, draw_through) from the WindowManager group; (False, False) when not registered."""
    state = _state(wm)
    if state is None:
        return False, False
    return bool(state.show_overlay), bool(state.draw_through)


def object_identity(obj) -> int:
    """A number that follows an object through renames: `session_uid` (Blender 4.x, stable across undo), else
    the datablock's address (Blender 3.4 has no session_uid in Python; stable while the object lives)."""
    uid = getattr(obj, "session_uid", None)
    return int(uid) if uid else int(obj.as_pointer())


def resolve_object(which: str, wm=None):
    """The object A or B of the current result (by name, then by session uid), or None if it is gone."""
    state = _state(wm)
    if state is None or state.result.status == "NONE":
        return None
    name = state.result.object_a if which == "A" else state.result.object_b
    obj = bpy.data.objects.get(name)
    if obj is not None:
        return obj
    record = _record
    uid = 0 if record is None else (record.session_uid_a if which == "A" else record.session_uid_b)
    if uid:
        for candidate in bpy.data.objects:
            if object_identity(candidate) == uid:
                return candidate
    return None


# --------------------------------------------------------------------------------------------- handlers
# Both are @persistent: Blender drops non-persistent handlers on every file load, which would silently end
# stale detection after File > Open.  They are added by register() and removed by unregister().

def _watched_uids() -> set:
    record = _record
    if record is None:
        return set()
    return {uid for uid in (record.session_uid_a, record.session_uid_b) if uid}


@persistent
def on_depsgraph_update_post(scene, depsgraph):
    """Mark the result stale when object A or B moves or changes shape after the check."""
    record = _record
    if record is None:
        return
    state = _state()
    if state is None or state.result.status == "NONE" or state.result.is_stale:
        return
    names = {record.object_a, record.object_b}
    uids = _watched_uids()
    for update in depsgraph.updates:
        if not (update.is_updated_transform or update.is_updated_geometry):
            continue
        datablock = update.id
        if not isinstance(datablock, bpy.types.Object):
            continue
        original = datablock.original
        uid = object_identity(original)
        if (uids and uid in uids) or (not uids and original.name in names):
            state.result.is_stale = True
            notify()
            return


@persistent
def on_load_post(*_args):
    """A new file has other objects: forget the result."""
    clear()


def add_handlers() -> None:
    if on_depsgraph_update_post not in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.append(on_depsgraph_update_post)
    if on_load_post not in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.append(on_load_post)


def remove_handlers() -> None:
    global _record
    while on_depsgraph_update_post in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.remove(on_depsgraph_update_post)
    while on_load_post in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(on_load_post)
    _record = None
