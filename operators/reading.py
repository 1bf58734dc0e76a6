# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender objects -> numpy arrays: the only place that reads geometry out of Blender, and the identity
(`object_identity`) that names an object everywhere in the add-on.

What a check sees is the *evaluated* object: modifiers, shape keys, geometry nodes, curve bevels, text glyphs
and metaball surfaces, exactly as the viewport shows them.  Vertices stay in the object's local frame
(float32, as Blender stores them) and `matrix_world` becomes a float64 4x4; the core applies the matrix in
float64 around a pair-local origin, so objects far from the world origin keep their precision.  Triangles come
from `loop_triangles` (Blender's own triangulation of the faces), read with `foreach_get` like the vertices.

`GeometryCache` (one per add-on: `GEOMETRY_CACHE`) keeps each object's local arrays by object identity, so a
live re-check, a sweep or Push Apart does not copy an unchanged mesh again: `GeometryCache.read` (what
`checking.check_pair(..., cache=...)` calls) then reads only `matrix_world`.  An entry is dropped when
- the depsgraph reports the object's *geometry* changed (`on_changes`, a change listener of `changes`: edits,
  modifiers, shape keys, deformation, also on frame changes), not when it only moved;
- what it was read from is no longer what the object uses (`_dependency_key`: the data block, the object type,
  edit mode, the modifier stack's names/types/visibility);
- undo, redo or a file load (handlers clear the whole cache), or `invalidate`/`clear` is called;
- the cache holds more than `max_size` vertices + triangles (least recently used first).
Next to the arrays an entry holds what `checking` prepared from them (`prepared`, by mode), placed with the current
matrix through `Shape.moved`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

# Object types whose evaluated form is a mesh (`Object.to_mesh()` works).
GEOMETRY_TYPES = frozenset({"MESH", "CURVE", "SURFACE", "FONT", "META"})


def object_identity(obj) -> int:
    """The number that names an object in records, caches and listeners, and follows it through renames:
    `session_uid` (Blender 4.x, stable across undo), else the datablock's address (Blender 3.4 has no session_uid
    in Python; stable while the object lives)."""
    uid = getattr(obj, "session_uid", None)
    return int(uid) if uid else int(obj.as_pointer())


class GeometryError(ValueError):
    """An object cannot be checked; the message names the object and says why."""


class SelectionError(ValueError):
    """The selection is not a valid pair; the message says what to select."""


@dataclass(frozen=True)
class ObjectGeometry:
    """One object as the core sees it."""

    name: str
    vertices: np.ndarray
    """(n, 3) float32 local coordinates of the evaluated mesh."""
    matrix_world: np.ndarray
    """(4, 4) float64 object-to-world matrix (parents and constraints included)."""
    triangles: np.ndarray | None = None
    """(m, 3) int32 vertex indices of the evaluated mesh's triangles, when they were asked for."""


def _read_positions(mesh, out: np.ndarray) -> None:
    """Vertex positions into the flat float32 array `out` (one vectorised call, no Python loop).

    Blender 3.5+ stores positions as the "position" attribute, whose `foreach_get("vector")` is a plain copy
    (about 5 ms per million vertices, against 60-100 ms through `vertices.foreach_get("co")`); 3.4 has no such
    attribute and takes the second path.
    """
    attributes = getattr(mesh, "attributes", None)
    position = attributes.get("position") if attributes is not None else None
    if position is not None and position.data_type == "FLOAT_VECTOR" and position.domain == "POINT":
        position.data.foreach_get("vector", out)
    else:
        mesh.vertices.foreach_get("co", out)


def pick_pair(context):
    """(A, B) from the selection: A is the active object, B the other selected one; SelectionError otherwise."""
    selected = list(context.selected_objects or ())
    if len(selected) != 2:
        raise SelectionError(
            f"Select exactly two objects (the active one is A), not {len(selected)}")
    active = context.view_layer.objects.active if context.view_layer else None
    if active is None or active not in selected:
        raise SelectionError("Make one of the two selected objects active: the active object is A")
    other = selected[1] if selected[0] == active else selected[0]
    return active, other


def _no_geometry(obj) -> str | None:
    """Why `obj` can never have geometry (its type), or None."""
    if obj.type in GEOMETRY_TYPES:
        return None
    kind = obj.type.replace("_", " ").lower()
    return f"'{obj.name}' is {'an' if kind[0] in 'aeiou' else 'a'} {kind} object and has no geometry"


def pair_problem(context) -> str | None:
    """Why the current selection cannot be checked, from cheap tests only (for `poll`); None when it can.

    What needs the evaluated mesh (empty meshes, NaN coordinates) is only found when the check runs."""
    try:
        pair = pick_pair(context)
    except SelectionError as exc:
        return str(exc)
    for obj in pair:
        problem = _no_geometry(obj)
        if problem:
            return problem
    return None


def _read_triangles(mesh) -> np.ndarray:
    if hasattr(mesh, "calc_loop_triangles"):
        mesh.calc_loop_triangles()
    count = len(mesh.loop_triangles)
    triangles = np.empty(count * 3, dtype=np.int32)
    if count:
        mesh.loop_triangles.foreach_get("vertices", triangles)
    return triangles.reshape(count, 3)


def _dependency_key(obj) -> tuple:
    """What an object's evaluated local geometry is read from, apart from edits the depsgraph reports."""
    data = obj.data
    modifiers = tuple((m.name, m.type, bool(m.show_viewport)) for m in getattr(obj, "modifiers", ()))
    return (obj.type, data.as_pointer() if data is not None else 0, bool(getattr(data, "is_editmode", False)),
            modifiers)


@dataclass
class CacheEntry:
    """One object's cached local arrays and what was prepared from them."""

    key: tuple
    geometry: ObjectGeometry
    prepared: dict = field(default_factory=dict)
    """Anything built from the local arrays alone, e.g. `checking`'s shapes by mode."""


def _size(geometry: ObjectGeometry) -> int:
    """Vertices plus triangles held: what bounds the cache's memory (12 bytes each)."""
    return len(geometry.vertices) + (0 if geometry.triangles is None else len(geometry.triangles))


class GeometryCache:
    """Local vertices (and triangles) by object identity; see the module docstring for when entries go.

    At most `max_size` vertices + triangles are kept (about 12 bytes each): past that the least recently used
    entries go first, so a scene check over a huge scene does not keep a second copy of all of it."""

    def __init__(self, max_size: int = 50_000_000):
        self._entries: dict[int, CacheEntry] = {}  # insertion order = least recently used first
        self.max_size = max_size
        self._held = 0
        self.reads = 0
        """Full reads made through this cache (tests/blender/test_motion_cache.py counts them)."""

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, identity) -> bool:
        return identity in self._entries

    def entry(self, identity) -> CacheEntry | None:
        return self._entries.get(identity)

    def invalidate(self, identities) -> None:
        for identity in identities:
            entry = self._entries.pop(identity, None)
            if entry is not None:
                self._held -= _size(entry.geometry)

    def clear(self) -> None:
        self._entries.clear()
        self._held = 0

    def on_changes(self, _changed: set, reshaped: set) -> None:
        """Change listener (signed up with `changes` by `handlers.add`): drop the objects whose geometry changed;
        moved ones keep their arrays."""
        if reshaped and self._entries:
            self.invalidate(reshaped)

    def read(self, obj, depsgraph, triangles: bool, *, require_faces: bool = True) -> CacheEntry:
        """The entry for `obj`, re-read when missing, out of date or lacking the triangles asked for; its
        geometry carries the current `matrix_world`."""
        identity = object_identity(obj)
        key = _dependency_key(obj)
        entry = self._entries.get(identity)
        if entry is not None and entry.key == key and (not triangles or entry.geometry.triangles is not None):
            self._entries[identity] = self._entries.pop(identity)  # most recently used: to the end
            matrix = _read_matrix(obj.evaluated_get(depsgraph), obj.name)
            if not np.array_equal(matrix, entry.geometry.matrix_world):
                entry.geometry = replace(entry.geometry, name=obj.name, matrix_world=matrix)
            elif entry.geometry.name != obj.name:
                entry.geometry = replace(entry.geometry, name=obj.name)
            return entry
        geometry = read_object(obj, depsgraph, triangles=triangles, require_faces=require_faces)
        self.reads += 1
        self.invalidate((identity,))
        entry = self._entries[identity] = CacheEntry(key=key, geometry=geometry)
        self._held += _size(geometry)
        while self._held > self.max_size and len(self._entries) > 1:
            self.invalidate((next(iter(self._entries)),))
        return entry


GEOMETRY_CACHE = GeometryCache()


def _read_matrix(evaluated, name: str) -> np.ndarray:
    matrix = np.array(evaluated.matrix_world, dtype=np.float64)
    if not np.isfinite(matrix).all():
        raise GeometryError(f"'{name}' has a world matrix with NaN or infinite values")
    return matrix


def read_object(obj, depsgraph, triangles: bool = False, *, require_faces: bool = True) -> ObjectGeometry:
    """The evaluated local vertices (and triangles, if asked) and world matrix of `obj`; GeometryError naming
    the object if unusable, or if triangles were asked with `require_faces` and it has none (Hull mode reads
    them when there are some, to offer them to the core: operators/checking.py)."""
    name = obj.name
    problem = _no_geometry(obj)
    if problem:
        raise GeometryError(problem)
    evaluated = obj.evaluated_get(depsgraph)
    try:
        mesh = evaluated.to_mesh()
    except RuntimeError as exc:
        raise GeometryError(f"'{name}' has no geometry ({exc})") from None
    if mesh is None:  # e.g. a curve without splines
        raise GeometryError(f"'{name}' has no vertices")
    faces = None
    try:
        count = len(mesh.vertices)
        vertices = np.empty(count * 3, dtype=np.float32)
        if count:
            _read_positions(mesh, vertices)
            if triangles:
                faces = _read_triangles(mesh)
    finally:
        evaluated.to_mesh_clear()
    if count == 0:
        hint = " (a metaball's surface belongs to its base object)" if obj.type == "META" else ""
        raise GeometryError(f"'{name}' has no vertices{hint}")
    vertices = vertices.reshape(count, 3)
    if not np.isfinite(vertices).all():
        bad = int(count - np.count_nonzero(np.isfinite(vertices).all(axis=1)))
        raise GeometryError(f"'{name}' has {bad} of {count} vertices with NaN or infinite coordinates")
    matrix = _read_matrix(evaluated, name)
    if triangles and require_faces and faces is not None and len(faces) == 0:
        raise GeometryError(f"'{name}' has no faces (only vertices or edges): use Hull mode, or give it faces "
                            f"(e.g. a curve's bevel depth, or a Solidify modifier)")
    return ObjectGeometry(name=name, vertices=vertices, matrix_world=matrix, triangles=faces)
