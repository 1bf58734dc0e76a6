# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender objects -> numpy arrays: the only place that reads geometry out of Blender.

What a check sees is the *evaluated* object: modifiers, shape keys, geometry nodes, curve bevels, text glyphs
and metaball surfaces, exactly as the viewport shows them.  Vertices stay in the object's local frame
(float32, as Blender stores them) and `matrix_world` becomes a float64 4x4; the core applies the matrix in
float64 around a pair-local origin, so objects far from the world origin keep their precision.  Triangles come
from `loop_triangles` (Blender's own triangulation of the faces), read with `foreach_get` like the vertices.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Object types whose evaluated form is a mesh (`Object.to_mesh()` works).
GEOMETRY_TYPES = frozenset({"MESH", "CURVE", "SURFACE", "FONT", "META"})


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


def read_object(obj, depsgraph, triangles: bool = False) -> ObjectGeometry:
    """The evaluated local vertices (and triangles, if asked) and world matrix of `obj`; GeometryError naming
    the object if unusable."""
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
    matrix = np.array(evaluated.matrix_world, dtype=np.float64)
    if not np.isfinite(matrix).all():
        raise GeometryError(f"'{name}' has a world matrix with NaN or infinite values")
    if triangles and faces is not None and len(faces) == 0:
        raise GeometryError(f"'{name}' has no faces (only vertices or edges): use Hull mode, or give it faces "
                            f"(e.g. a curve's bevel depth, or a Solidify modifier)")
    return ObjectGeometry(name=name, vertices=vertices, matrix_world=matrix, triangles=faces)
