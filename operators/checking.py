# SPDX-License-Identifier: GPL-3.0-or-later
"""The one check pipeline: two Blender objects in, one `CheckRecord` out.

`check_pair(obj_a, obj_b, depsgraph, settings)` reads both evaluated objects (`reading`), builds the shapes the
mode asks for, asks the core, and returns the exact record (with timings).  Every operator that checks a pair (the
pair check, the sweep, the live re-check, Push Apart and its confirmations) calls it.  The scene check reads each
object once itself (`reading.read_object`: an instanced object's instances share the read) and answers each pair
through `check_geometry`, the second half of `check_pair`.  None of them calls `core.collide` on its own.
`check_object(obj, depsgraph, clearance)` is the same for one object on its own (Check Object); its modal run
takes it stage by stage (`check_object_steps`).  The pair check's modal run takes `check_pair_steps`: the same
check, reporting the depth interval's progress (core/progress.py) and stopped by closing it.
`check_pair` raises `reading.GeometryError` (the message names the object) for objects it cannot check,
`ValueError` for numbers the core refuses; it never touches the scene.

With `cache=` (a `reading.GeometryCache`, normally `reading.GEOMETRY_CACHE`) an object whose geometry did not
change since the last check is not read again, and its prepared shape is reused, placed with the new
`matrix_world` by `Shape.moved` (no new validation or copy of the vertices).  Without it every check reads afresh.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace

import numpy as np

from ..core import (DEFAULT_TOLERANCES, ConvexPolytope, PairHistory, PointCloud, Status, TriangleMesh, collide,
                    collide_worst)
from ..core.mesh import loose_part_count, loose_parts, overlap, part_clearance_steps, self_intersections, volume
from ..core.progress import within
from ..results.object_check import ObjectCheck, object_records
from ..results.record import CheckRecord, Mode
from .modal_run import run_through, stepped
from .reading import GeometryError, object_identity, read_object


@dataclass(frozen=True)
class CheckSettings:
    """How to check a pair."""

    mode: Mode = Mode.HULL
    clearance: float = 0.0
    """Scene checks: pairs farther apart than this may stop early (their distance is then a lower bound)."""
    stop_beyond_clearance: bool = False
    warm_start: tuple | None = None
    """Re-checks of a pair: the previous answer's normal (A towards B), where GJK starts (`core.collide`'s
    `direction`); the answer is the same, found with less work."""
    overlap_volume: bool = False
    """Exact mode: also measure the volume of A ∩ B (`core.overlap`; it costs about a collide of the pair)."""
    history: PairHistory | None = None
    """Exact mode re-checks of one pair (live mode, the sweep): the pair's `core.PairHistory`, kept by the caller,
    from which each query starts (`core.collide`'s `history`); the answer is the same, found with less work."""
    narrow_depth: bool = True
    """Exact mode: narrow an intersecting pair's depth interval and find its shortest verified move
    (`core.collide`'s `depth_interval`).  Off where only the verdict is wanted (the sweep's samples): the interval
    is then the loose one, as certified.  Live mode keeps it: a pair whose check outgrows the drag's budget is
    previewed as hulls until the drag settles (operators/live.py)."""


def hull(geometry) -> PointCloud:
    """The convex hull of one object's geometry as a plain vertex cloud (the scene check's prefilter, and a lower
    bound for the other modes)."""
    try:
        return PointCloud(geometry.vertices, transform=geometry.matrix_world)
    except ValueError as exc:
        raise GeometryError(f"'{geometry.name}': {exc}") from None


def _hull_shape(geometry) -> ConvexPolytope:
    """Hull mode's shape: the vertex cloud's hull, with a triangulation of it offered for the core's facet-normal
    depth: the mesh's own faces when they bound its hull (a convex primitive, its float32 folds mended by the
    core), else Blender's Convex Hull.  Made only if a query needs it (two large hulls deep in each other, such as
    a shape and its duplicate in place: core/polytope.py) and used only if the core finds it is the hull of the
    vertices."""
    try:
        return _offered_hull(geometry.vertices, geometry.matrix_world, geometry.triangles)
    except ValueError as exc:
        raise GeometryError(f"'{geometry.name}': {exc}") from None


def _offered_hull(vertices: np.ndarray, transform, triangles=None) -> ConvexPolytope:
    """A `ConvexPolytope` of these local vertices placed with `transform`, offering `triangles` (the mesh's own
    faces, if any) and then Blender's Convex Hull.  Kept by content (`_by_content`), so a duplicate and a repeated
    check share one validated shape, and its triangulation is made once for all of them."""
    faces = None if triangles is None or len(triangles) < 4 else np.ascontiguousarray(triangles)

    def make(local, own):
        makers = [lambda: blender_hull(local)]
        if own is not None:
            makers.insert(0, lambda: _own_faces(local, own.astype(np.int64)))
        return ConvexPolytope(local, makers)

    return _by_content("hull", vertices, faces, make).moved(transform)


def _own_faces(vertices: np.ndarray, triangles: np.ndarray):
    """(points, triangles): the mesh's own triangles on the vertices they use."""
    used, remap = np.unique(triangles, return_inverse=True)
    return vertices[used], remap.reshape(-1, 3)


def _by_content(kind: str, vertices: np.ndarray, triangles, make):
    """`make(vertices, triangles)` on private copies of the arrays, kept by their contents (`_KEPT`): a Shift+D
    duplicate (the same local vertices, placed by its own matrix) and a repeated check get the object made the first
    time, with everything it prepared (a hull triangulation, a mesh's hierarchy and convexity).  The caller places
    it with `moved`."""
    digest = hashlib.blake2b(np.ascontiguousarray(vertices).data, digest_size=16)
    if triangles is not None:
        digest.update(np.ascontiguousarray(triangles).data)
    key = (kind, vertices.shape, vertices.dtype.str, None if triangles is None else (triangles.shape,
           triangles.dtype.str), digest.digest())
    kept = _KEPT.pop(key, None)
    if kept is None or not (np.array_equal(kept[0], vertices)
                            and (triangles is None or np.array_equal(kept[1], triangles))):
        local = np.array(vertices)  # private copies: the object must not change with the caller's arrays
        own = None if triangles is None else np.array(triangles)
        kept = (local, own, make(local, own))
    _KEPT[key] = kept  # most recently used last
    while len(_KEPT) > 1 and (len(_KEPT) > _KEPT_COUNT or sum(len(v[0]) for v in _KEPT.values()) > _KEPT_VERTICES):
        del _KEPT[next(iter(_KEPT))]
    return kept[2]


_KEPT: dict = {}
"""Objects made from array contents, least recently used first (see `_by_content`)."""
_KEPT_COUNT = 16
_KEPT_VERTICES = 2_000_000


def blender_hull(vertices: np.ndarray):
    """(hull points, triangles) of an (n, 3) array by Blender's own Convex Hull operator (`bmesh.ops.convex_hull`,
    in a scratch BMesh: nothing in the file changes); the points are rows of `vertices`."""
    import bmesh  # noqa: PLC0415  (Blender only; the rest of this module imports without Blender)

    bm = bmesh.new()
    try:
        for point in vertices.tolist():
            bm.verts.new(point)
        geom = bmesh.ops.convex_hull(bm, input=bm.verts[:], use_existing_faces=False)["geom"]
        bm.verts.index_update()
        triangles = []
        for face in geom:
            if isinstance(face, bmesh.types.BMFace):
                corners = [v.index for v in face.verts]
                triangles.extend((corners[0], corners[k], corners[k + 1]) for k in range(1, len(corners) - 1))
    finally:
        bm.free()
    triangles = np.array(triangles, dtype=np.int64).reshape(-1, 3)
    used, remap = np.unique(triangles, return_inverse=True)
    return vertices[used], remap.reshape(-1, 3)


def _mesh(geometry) -> TriangleMesh:
    if geometry.triangles is None or len(geometry.triangles) == 0:
        raise GeometryError(f"'{geometry.name}' has no faces (only vertices or edges): Exact and Loose Parts need "
                            f"faces; use Hull mode, or give it faces (a curve's bevel depth, a Solidify modifier)")
    try:
        return _by_content("mesh", geometry.vertices, geometry.triangles,
                           lambda vertices, triangles: TriangleMesh(vertices, triangles)).moved(geometry.matrix_world)
    except ValueError as exc:
        raise GeometryError(f"'{geometry.name}': {exc}") from None


class PartHulls(tuple):
    """Loose Parts mode: one object as the convex hulls of its loose parts (a tuple of `core.ConvexPolytope`s,
    each offering its part's own faces, then Blender's Convex Hull of the part, like Hull mode's shape)."""

    def bounds(self):
        boxes = [part.bounds() for part in self]
        return np.min([lo for lo, _ in boxes], axis=0), np.max([hi for _, hi in boxes], axis=0)

    def moved(self, transform) -> "PartHulls":
        """The same parts placed with another matrix_world (each part carries the object's matrix)."""
        return PartHulls(part.moved(transform) for part in self)


def _part_hulls(geometry) -> PartHulls:
    mesh = _mesh(geometry)
    return PartHulls(_offered_hull(part.vertices, part.transform, part.triangles) for part in loose_parts(mesh))


def shapes_for(geometry, mode: Mode):
    """The core shape of one object's geometry in `mode`: its convex hull (HULL), its triangles (EXACT), or the
    hulls of its loose parts (LOOSE_PARTS)."""
    if mode is Mode.EXACT:
        return _mesh(geometry)
    if mode is Mode.LOOSE_PARTS:
        return _part_hulls(geometry)
    return _hull_shape(geometry)


def _collide(shape_a, shape_b, max_distance, warm_start=None, history=None, narrow_depth=True, progress=None):
    """The pair's answer: the worst pair of parts in Loose Parts mode, else one query (`progress`: its hook)."""
    if isinstance(shape_a, PartHulls):
        return collide_worst(shape_a, shape_b)[0]
    return collide(shape_a, shape_b, max_distance=max_distance, direction=warm_start, history=history,
                   depth_interval=narrow_depth, progress=progress)


def _geometry_and_shape(obj, depsgraph, mode: Mode, cache):
    required = mode is not Mode.HULL  # Hull mode reads the faces too, when there are some (`_hull_shape`)
    if cache is None:
        geometry = read_object(obj, depsgraph, triangles=True, require_faces=required)
        return geometry, shapes_for(geometry, mode)
    entry = cache.read(obj, depsgraph, True, require_faces=required)
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


def check_geometry(geometry_a, geometry_b, settings: CheckSettings = CheckSettings(), *, identity_a: int = 0,
                   identity_b: int = 0, shape_a=None, shape_b=None, read_ms: float = 0.0,
                   mesh_check=None, progress=None) -> CheckRecord:
    """The record of two geometries already read (`reading.read_object`); the scene check reuses each object's
    geometry and shape (`shapes_for`) across all of its pairs through `shape_a`/`shape_b`.  mesh_check: what
    answers for two TriangleMeshes instead of `core.collide` when no clearance limit applies (the sweep's
    `core.deform.SampleChecker.check`: the same status and distance).  progress: the hook (core/progress.py) of
    `core.collide` and of the overlap volume's `core.overlap` (given the bar from `OVERLAP_FROM` on), for a run
    that shows their progress and may stop them."""
    started = time.perf_counter()
    shape_a = shape_a if shape_a is not None else shapes_for(geometry_a, settings.mode)
    shape_b = shape_b if shape_b is not None else shapes_for(geometry_b, settings.mode)
    max_distance = settings.clearance if settings.stop_beyond_clearance else None
    measures_overlap = (settings.overlap_volume and isinstance(shape_a, TriangleMesh)
                        and isinstance(shape_b, TriangleMesh))
    if (mesh_check is not None and max_distance is None and isinstance(shape_a, TriangleMesh)
            and isinstance(shape_b, TriangleMesh)):
        contact = mesh_check(shape_a, shape_b)
    else:
        contact = _collide(shape_a, shape_b, max_distance, settings.warm_start, settings.history,
                           settings.narrow_depth, within(progress, 0.0, OVERLAP_FROM if measures_overlap else 1.0))
    measured = {}
    if measures_overlap:
        measured = _overlap_volumes(shape_a, shape_b, contact, within(progress, OVERLAP_FROM, 1.0))
    return CheckRecord(
        contact=contact, object_a=geometry_a.name, object_b=geometry_b.name, mode=settings.mode,
        identity_a=identity_a, identity_b=identity_b,
        vertex_count_a=len(geometry_a.vertices), vertex_count_b=len(geometry_b.vertices),
        triangle_count_a=0 if geometry_a.triangles is None else len(geometry_a.triangles),
        triangle_count_b=0 if geometry_b.triangles is None else len(geometry_b.triangles),
        read_ms=read_ms, time_ms=(time.perf_counter() - started) * 1e3, clearance=settings.clearance, **measured)


OVERLAP_FROM = 0.7
"""A check that measures the overlap volume gives the rest of its progress bar from here on to it (its cost is
about that of the pair's depth interval, which comes first)."""


def _overlap_volumes(mesh_a: TriangleMesh, mesh_b: TriangleMesh, contact, progress=None) -> dict:
    """The record's overlap fields: nothing when a mesh is open (no inside); else the volume of A ∩ B (0.0 unless
    the pair intersects: apart or touching solids share no volume) and both volumes, for the share."""
    if not (mesh_a.is_closed and mesh_b.is_closed):
        return {}
    if contact.status is Status.INTERSECTING:
        measured = overlap(mesh_a, mesh_b, progress)
        shared, region, exact = measured.volume, measured.region, measured.exact
        region.setflags(write=False)
    else:
        shared, region, exact = 0.0, None, True
    return {"overlap_volume": shared, "overlap_region": region, "overlap_exact": exact,
            "volume_a": abs(volume(mesh_a)), "volume_b": abs(volume(mesh_b))}


def check_pair(obj_a, obj_b, depsgraph, settings: CheckSettings = CheckSettings(), cache=None,
               mesh_check=None) -> CheckRecord:
    """Check A against B as the viewport shows them; the exact record of what was found.

    cache: a `reading.GeometryCache` to reuse unchanged geometry from (None: read both objects afresh).
    mesh_check: as in `check_geometry`."""
    started = time.perf_counter()
    geometry_a, shape_a = _geometry_and_shape(obj_a, depsgraph, settings.mode, cache)
    geometry_b, shape_b = _geometry_and_shape(obj_b, depsgraph, settings.mode, cache)
    read_ms = (time.perf_counter() - started) * 1e3
    return check_geometry(geometry_a, geometry_b, settings, identity_a=object_identity(obj_a),
                          identity_b=object_identity(obj_b), shape_a=shape_a, shape_b=shape_b, read_ms=read_ms,
                          mesh_check=mesh_check)


def check_pair_steps(obj_a, obj_b, depsgraph, settings: CheckSettings = CheckSettings(), cache=None,
                     part: tuple[float, float] = (0.0, 1.0)):
    """`check_pair` in steps, for a run that shows progress and may be stopped: a generator that reads both
    objects at its first step, then, for two meshes (Exact mode: the depth interval and the overlap volume can
    take seconds), yields each `core.Progress` the core reports between units of its work (placed in `part` of
    the caller's task: `core.progress.within`), and returns the record as its StopIteration value
    (the same record as `check_pair`'s, its time without the pauses between steps).  Closing it part way stops the
    core at its next report (`modal_run.stepped`); it keeps nothing outside itself, so nothing is left behind.
    Raises as `check_pair` does."""
    started = time.perf_counter()
    geometry_a, shape_a = _geometry_and_shape(obj_a, depsgraph, settings.mode, cache)
    geometry_b, shape_b = _geometry_and_shape(obj_b, depsgraph, settings.mode, cache)
    read_ms = (time.perf_counter() - started) * 1e3
    named = dict(identity_a=object_identity(obj_a), identity_b=object_identity(obj_b), shape_a=shape_a,
                 shape_b=shape_b, read_ms=read_ms)  # the objects are not touched after this step

    def work(hook):
        paused = 0.0

        def timed(progress):
            nonlocal paused
            at = time.perf_counter()
            hook(progress)
            paused += time.perf_counter() - at

        record = check_geometry(geometry_a, geometry_b, settings, progress=within(timed, *part), **named)
        return replace(record, time_ms=max(0.0, record.time_ms - paused * 1e3))

    if isinstance(shape_a, TriangleMesh) and isinstance(shape_b, TriangleMesh):
        return (yield from stepped(work))
    # the other modes answer in one short call (and Hull mode may call Blender's Convex Hull: not in a thread)
    return check_geometry(geometry_a, geometry_b, settings, **named)


OBJECT_STAGES = ("reading the object", "finding self-intersections", "measuring the clearance between parts",
                 "counting loose parts")
"""Check Object's stages in order, as `check_object_steps` names the one that comes next."""
_OBJECT_DONE = (0.05, 0.75, 0.95)
"""The share of a run done after each stage (the self-intersections take most of it on large meshes)."""


def check_object_steps(obj, depsgraph, clearance: float, cache=None):
    """Check Object stage by stage (`OBJECT_STAGES`), for a run that shows progress and may be stopped between
    stages: a generator that yields (share done, the next stage) after each stage but the last (and, within the
    clearance stage, between its pair questions: `core.mesh.part_clearance_steps`) and returns
    (`results.object_check.ObjectCheck`, its results-list rows) as its StopIteration value.  It keeps nothing
    outside itself, so a run dropped part way leaves nothing behind.  Raises as `check_object` does."""
    started = time.perf_counter()
    geometry, mesh = _geometry_and_shape(obj, depsgraph, Mode.EXACT, cache)
    identity = object_identity(obj)  # the object is not touched after this stage
    read_ms = (time.perf_counter() - started) * 1e3
    yield _OBJECT_DONE[0], OBJECT_STAGES[1]
    started = time.perf_counter()
    segments = self_intersections(mesh)
    spent = time.perf_counter() - started
    yield _OBJECT_DONE[1], OBJECT_STAGES[2]
    started = time.perf_counter()
    clearance_steps = part_clearance_steps(mesh, clearance)
    while True:
        try:
            share = next(clearance_steps)
        except StopIteration as finished:
            gaps = finished.value
            break
        # before each pair question of parts that touch, cross or may nest: Esc gets its turn there too
        spent += time.perf_counter() - started
        yield _OBJECT_DONE[1] + share * (_OBJECT_DONE[2] - _OBJECT_DONE[1]), OBJECT_STAGES[2]
        started = time.perf_counter()
    spent += time.perf_counter() - started
    yield _OBJECT_DONE[2], OBJECT_STAGES[3]
    started = time.perf_counter()
    parts = loose_part_count(mesh)  # from the part labels part_clearance used: no part is built
    lo, hi = mesh.bounds()
    scale = float(np.linalg.norm(hi - lo))
    check = ObjectCheck(object_name=geometry.name, identity=identity, segments=segments,
                        parts=parts, pairs=len(gaps), clearance=float(clearance), scale=scale,
                        time_ms=(spent + time.perf_counter() - started) * 1e3)
    return check, object_records(check, gaps, band=DEFAULT_TOLERANCES.touching * scale, read_ms=read_ms)


def check_object(obj, depsgraph, clearance: float, cache=None):
    """Check Object: one object on its own, as the viewport shows it (its evaluated mesh in world space): where
    its surface crosses itself, and the pairs of its loose parts that cross, touch or are no farther apart than
    `clearance` (Blender units).  Returns (`results.object_check.ObjectCheck`, its results-list rows).  Raises as
    `check_pair` does.  All of `check_object_steps` in one go."""
    return run_through(check_object_steps(obj, depsgraph, clearance, cache))
