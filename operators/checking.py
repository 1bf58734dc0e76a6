# SPDX-License-Identifier: GPL-3.0-or-later
"""The one check pipeline: two Blender objects in, one `CheckRecord` out.

`check_pair(obj_a, obj_b, depsgraph, settings)` reads both evaluated objects (`reading`), builds the shapes the
mode asks for, asks the core, and returns the exact record (with timings).  Every operator that checks (the pair
check, the scene check, the sweep, the live re-check, Push Apart's confirmation) calls it; none of them reads
geometry or calls `core.collide` on its own.  It raises `reading.GeometryError` (the message names the object) for
objects it cannot check, `ValueError` for numbers the core refuses; it never touches the scene.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..core import PointCloud, collide
from ..results.record import CheckRecord, Mode
from .reading import GeometryError, read_object
from .store import object_identity


@dataclass(frozen=True)
class CheckSettings:
    """How to check a pair."""

    mode: Mode = Mode.HULL
    clearance: float = 0.0
    """Scene checks: pairs farther apart than this may stop early (their distance is then a lower bound)."""
    stop_beyond_clearance: bool = False


def _hull(geometry) -> PointCloud:
    try:
        return PointCloud(geometry.vertices, transform=geometry.matrix_world)
    except ValueError as exc:
        raise GeometryError(f"'{geometry.name}': {exc}") from None


def shapes_for(geometry, mode: Mode):
    """The core shape of one object's geometry in `mode`."""
    return _hull(geometry)


def _collide(shape_a, shape_b, max_distance):
    """`core.collide`, stopping early beyond `max_distance` when the core supports it (else the full answer)."""
    if max_distance is not None and _COLLIDE_TAKES_MAX_DISTANCE:
        return collide(shape_a, shape_b, max_distance=max_distance)
    return collide(shape_a, shape_b)


def _takes_max_distance() -> bool:
    import inspect

    try:
        return "max_distance" in inspect.signature(collide).parameters
    except (TypeError, ValueError):
        return False


_COLLIDE_TAKES_MAX_DISTANCE = _takes_max_distance()


def check_geometry(geometry_a, geometry_b, settings: CheckSettings = CheckSettings(), *, identity_a: int = 0,
                   identity_b: int = 0, shape_a=None, shape_b=None, read_ms: float = 0.0) -> CheckRecord:
    """The record of two geometries already read (`reading.read_object`); the scene check reuses each object's
    geometry and shape (`shapes_for`) across all of its pairs through `shape_a`/`shape_b`."""
    started = time.perf_counter()
    shape_a = shape_a if shape_a is not None else shapes_for(geometry_a, settings.mode)
    shape_b = shape_b if shape_b is not None else shapes_for(geometry_b, settings.mode)
    max_distance = settings.clearance if settings.stop_beyond_clearance else None
    contact = _collide(shape_a, shape_b, max_distance)
    return CheckRecord(
        contact=contact, object_a=geometry_a.name, object_b=geometry_b.name, mode=settings.mode,
        identity_a=identity_a, identity_b=identity_b,
        vertex_count_a=len(geometry_a.vertices), vertex_count_b=len(geometry_b.vertices),
        triangle_count_a=0 if geometry_a.triangles is None else len(geometry_a.triangles),
        triangle_count_b=0 if geometry_b.triangles is None else len(geometry_b.triangles),
        read_ms=read_ms, time_ms=(time.perf_counter() - started) * 1e3, clearance=settings.clearance)


def check_pair(obj_a, obj_b, depsgraph, settings: CheckSettings = CheckSettings()) -> CheckRecord:
    """Check A against B as the viewport shows them; the exact record of what was found."""
    started = time.perf_counter()
    need_triangles = settings.mode is not Mode.HULL
    geometry_a = read_object(obj_a, depsgraph, triangles=need_triangles)
    geometry_b = read_object(obj_b, depsgraph, triangles=need_triangles)
    shape_a = shapes_for(geometry_a, settings.mode)
    shape_b = shapes_for(geometry_b, settings.mode)
    read_ms = (time.perf_counter() - started) * 1e3
    return check_geometry(geometry_a, geometry_b, settings, identity_a=object_identity(obj_a),
                          identity_b=object_identity(obj_b), shape_a=shape_a, shape_b=shape_b, read_ms=read_ms)
