# SPDX-License-Identifier: GPL-3.0-or-later
"""The one check pipeline: two Blender objects in, one `CheckRecord` out.

`check_pair(obj_a, obj_b, depsgraph, settings)` reads both evaluated objects (`reading`), builds the shapes the
mode asks for, asks the core, and returns the exact record (with timings).  Every operator that checks (the pair
check, the scene check, the sweep, the live re-check, Push Apart's confirmation) calls it; none of them reads
geometry or calls `core.collide` on its own.  It raises `reading.GeometryError` (the message names the object) for
objects it cannot check, `ValueError` for numbers the core refuses; it never touches the scene.

With `cache=` (a `reading.GeometryCache`, normally `reading.GEOMETRY_CACHE`) an object whose geometry did not
change since the last check is not read again, and its prepared shape is reused, placed with the new
`matrix_world` by `Shape.moved` (no new validation or copy of the vertices).  Without it every check reads afresh.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

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


def _geometry_and_shape(obj, depsgraph, mode: Mode, cache):
    need_triangles = mode is not Mode.HULL
    if cache is None:
        geometry = read_object(obj, depsgraph, triangles=need_triangles)
        return geometry, shapes_for(geometry, mode)
    entry = cache.read(obj, depsgraph, need_triangles)
    geometry = entry.geometry
    placed = entry.prepared.get(mode)
    if placed is None or not hasattr(placed[1], "moved"):
        shape = shapes_for(geometry, mode)
    elif np.array_equal(placed[0], geometry.matrix_world):
        shape = placed[1]
    else:
        shape = placed[1].moved(geometry.matrix_world)
    entry.prepared[mode] = (geometry.matrix_world, shape)
    return geometry, shape


def check_pair(obj_a, obj_b, depsgraph, settings: CheckSettings = CheckSettings(), cache=None) -> CheckRecord:
    """Check A against B as the viewport shows them; the exact record of what was found.

    cache: a `reading.GeometryCache` to reuse unchanged geometry from (None: read both objects afresh)."""
    started = time.perf_counter()
    geometry_a, shape_a = _geometry_and_shape(obj_a, depsgraph, settings.mode, cache)
    geometry_b, shape_b = _geometry_and_shape(obj_b, depsgraph, settings.mode, cache)
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
