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


def check_pair(obj_a, obj_b, depsgraph, settings: CheckSettings = CheckSettings()) -> CheckRecord:
    """Check A against B as the viewport shows them; the exact record of what was found."""
    started = time.perf_counter()
    need_triangles = settings.mode is not Mode.HULL
    geometry_a = read_object(obj_a, depsgraph, triangles=need_triangles)
    geometry_b = read_object(obj_b, depsgraph, triangles=need_triangles)
    shape_a = shapes_for(geometry_a, settings.mode)
    shape_b = shapes_for(geometry_b, settings.mode)
    read_done = time.perf_counter()
    contact = collide(shape_a, shape_b)
    query_done = time.perf_counter()
    return CheckRecord(
        contact=contact, object_a=obj_a.name, object_b=obj_b.name, mode=settings.mode,
        identity_a=object_identity(obj_a), identity_b=object_identity(obj_b),
        vertex_count_a=len(geometry_a.vertices), vertex_count_b=len(geometry_b.vertices),
        triangle_count_a=0 if geometry_a.triangles is None else len(geometry_a.triangles),
        triangle_count_b=0 if geometry_b.triangles is None else len(geometry_b.triangles),
        read_ms=(read_done - started) * 1e3, time_ms=(query_done - read_done) * 1e3,
        clearance=settings.clearance)
