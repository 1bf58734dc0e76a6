"""The mesh-mesh query behind `core.collide` when an argument is a `TriangleMesh`.

Steps:
1. Both meshes one closed convex part each: the convex engine answers, on their vertices (exactly as
   `core.collide` on two vertex arrays would); when they intersect, `crossing_and_containment` adds the crossing
   curve and the containment alone (steps 2, 3 keeping only the pairs within the band, 4's crossing test and 5's
   containment; no distance or depth work), or, for a copy lying in or on the other, the certificates of
   core/mesh/copies.py (no hierarchy at all).
1b. Both meshes closed and nearly convex (core/mesh/inner.py proves a body inside each, within a hair of its
   hull), their hulls deeper in each other than the two hairs and the band: the depth is the hulls' depth minus the
   hairs (`_nearly_convex`), with the crossing curve and containment as in step 1; nothing below runs.
2. Pair frame (`_Frame`: origin = centre of the pair's world box, the same for either argument order), scale = the
   larger world box diagonal, touching band.
3. Simultaneous descent of both hierarchies, level by level.  A pair of nodes is kept while its lower bound
   (`bvh.pair_lower_bound`) is within the touching band (it may hold a crossing or a contact) or below the best
   upper bound minus `PRUNE` x scale (it may hold a closer pair).  Upper bounds come from a surface point of each
   node and from the exact distance of the first triangles of the most promising pairs.
4. Leaves (`_meet`, shared by both routes): the pairs within the band go through the crossing test (segments of
   the crossing curve), and the containment is decided: corners of every loose part against the other mesh when
   nothing crosses, points stepped off the curve when a closed mesh may only touch the other from inside.  If
   nothing crosses, the exact triangle-triangle distance runs best-first over the candidates (screened by a
   separating-axis bound) until the next lower bound exceeds the best distance found; candidates that cannot
   beat the best are only asked whether they touch (shared corners first).
5. Depth samples (closed meshes only, winding numbers, only when the world boxes meet): corners of every loose
   part, a sample of vertices and points next to the contact are tested against the other mesh.
6. Status, depth (see `core/mesh/__init__.py` for what depth means: the deepest sample, the deepest pair of convex
   parts, or step 1b's bound for nearly convex meshes whose hulls overlap only a little); for an intersecting
   pair `gap` = the convex hulls' depth minus the depth.

Work caps: if a near-tie keeps more than `MAX_PAIRS` node pairs alive at a level, the farthest ones (by lower
bound) are dropped and their smallest lower bound is kept; past `MAX_EXACT` leaf candidates the best-first stage
stops the same way.  The answer is then the best distance found with its real closest points, and `gap` = that
distance minus the certified lower bound (a certified interval instead of a silent approximation; `converged`
False, `iteration_cap_hit` True).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ..contact import Contact, Containment, Status
from ..convex import as_max_distance, collide_convex
from ..polytope import ConvexPolytope
from ..shapes import PointCloud
from ..tolerances import DEFAULT_TOLERANCES, Tolerances
from ..rows import row_cross, row_dot
from . import copies, inner
from .bvh import WorldBVH, box_lower_bound, pair_lower_bound
from .parts import is_convex
from .points import closest_points, winding_numbers
from .trimesh import TriangleMesh
from .tritri import crossing, crossing_indexed, point_triangle, separation_bound, triangle_triangle

__all__ = ["collide_meshes", "crossing_and_containment"]

PRUNE = 1e-12
"""A pair whose lower bound is within PRUNE x scale of the best distance cannot improve it by more than that,
and is dropped (ties between equally close triangles end there).  The reported distance is exact to this."""

MAX_PAIRS = 300_000
"""Cap on live node pairs per level (memory and time budget); see the module docstring."""

OBB_SAMPLE = 256
OBB_WORTH = 0.1
"""Band-only descent (`_descend(near_only=True)`): above the leaves, the oriented bounds run on a level's pairs
when more than OBB_WORTH of a sample of about OBB_SAMPLE of them would be pruned by them."""

MAX_EXACT = 100_000
"""Cap on leaf candidates taken by the best-first stage; beyond it the answer is the certified interval
[smallest lower bound left, best distance found] (`gap` is its width, `converged` False)."""

TOP_K = 64
"""Most promising pairs per level whose first triangles get an exact distance (a tight upper bound early)."""

MAX_PROBES = 128
"""Scale of the probe budget per side (beyond the corners of every loose part and a sample of 64 vertices):
corners and centroids of MAX_PROBES / 4 contact pairs, clipped centroids of MAX_PROBES / 2 crossing pairs, and
points stepped off the curve for MAX_PROBES / 8 crossing pairs."""

MAX_DEPTH_POINTS = 256
"""Cap on inside points whose distance to the other surface is measured for the depth."""

MAX_CONVEX_PAIRS = 64
"""Cap on pairs of exactly convex loose parts measured by the convex engine for the depth."""


class _Side:
    """One mesh placed in the pair frame."""

    def __init__(self, mesh: TriangleMesh, origin: np.ndarray):
        self.mesh = mesh
        self.local = mesh._local
        self.offset = mesh._translation - origin
        self.vertices = mesh.world_vertices(origin)
        self.closed = bool(self.local.closed)
        self._world = None

    @property
    def world(self) -> WorldBVH:
        """The hierarchy placed in the pair frame (built on first use: the certificates of core/mesh/copies.py
        answer some convex pairs without it)."""
        if self._world is None:
            self._world = WorldBVH(self.local.bvh, self.vertices, self.mesh._linear, self.offset)
        return self._world


def _unit_or(v, fallback):
    n = float(np.linalg.norm(v))
    return v / n if n > 0.0 and math.isfinite(n) else np.asarray(fallback, float)


def collide_meshes(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES, max_distance=None) -> Contact:
    """`core.collide` for two TriangleMeshes (see core/mesh/__init__.py for the meaning of every field).

    max_distance: when given, the query may stop as soon as the meshes are proven farther apart than that
    (`beyond_max_distance`, `distance` then a certified lower bound).  ValueError on bad arguments."""
    if not isinstance(tolerances, Tolerances):
        raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
    for value, name in ((a, "a"), (b, "b")):
        if not isinstance(value, TriangleMesh):
            raise ValueError(f"{name} is a {type(value).__name__}: a TriangleMesh can only be collided with another "
                             f"TriangleMesh (give the convex shape as a TriangleMesh of its surface)")
    max_distance = as_max_distance(max_distance)  # the same rules as for convex shapes (None, or >= 0)
    _share_local_data(a, b)

    if is_convex(a) and is_convex(b):
        # Exactly the convex engine's answer on the vertices; when they intersect, the crossing curve and the
        # containment (the convex engine knows neither) come from the crossing step alone: distance and depth
        # are the convex engine's, so nothing of the distance and depth stages runs.
        contact = collide_convex(_hull_shape(a), _hull_shape(b), tolerances)
        if contact.status is Status.INTERSECTING:
            segments, contained = crossing_and_containment(a, b, tolerances)
            contact = replace(contact, intersection=segments, containment=contained)
        return contact
    hull = None
    if inner.inner_body(a._local) is not None and inner.inner_body(b._local) is not None:
        # both nearly convex (a fast no for most other meshes: see core/mesh/inner.py)
        hull = _hulls(a, b, tolerances)
        nearly = _nearly_convex(a, b, tolerances, hull)
        if nearly is not None:
            return nearly
    return _mesh_collide(a, b, tolerances, max_distance, hull)


def _share_local_data(a: TriangleMesh, b: TriangleMesh) -> None:
    """Two meshes built from the same local arrays, bit for bit (a duplicate in place: Blender's Shift+D copies the
    mesh data, the object transform places it), derive the same data from them: hierarchy, parts, convexity, inner
    body, hull.  They then share one store of it, as a mesh and its `moved()` copy do, so each is built once.
    Nothing of the answer changes: everything stored there depends on the local arrays alone."""
    la, lb = a._local, b._local
    if la is lb or la._cache is lb._cache:
        return
    if (la.vertices.shape != lb.vertices.shape or la.triangles.shape != lb.triangles.shape
            or la.vertices.dtype != lb.vertices.dtype):
        return
    # bits, not values: -0.0 and 0.0 are equal values but not the same data
    if not (np.array_equal(la.triangles, lb.triangles)
            and np.array_equal(np.ascontiguousarray(la.vertices).view(np.uint8),
                               np.ascontiguousarray(lb.vertices).view(np.uint8))):
        return
    shared = {**lb._cache, **la._cache}
    la._cache = lb._cache = shared


def _hull_shape(mesh: TriangleMesh) -> PointCloud:
    """The convex engine's shape of a mesh: the hull of its used vertices with the mesh's own triangles as its
    triangulation, with which EPA hands a large deep pair to the facet-normal depth (core/polytope.py).  A mesh
    that is one closed convex part gives them at once (already proved convex, so not tested again; a plain
    `PointCloud` when a triangle has zero area); any other offers them to be tried on first need (taken only if,
    once float32 folds are mended, they bound the hull: a nearly convex mesh).  Kept on the local data: every
    pose of the mesh shares it."""
    local = mesh._local

    def build():
        used = local.used
        vertices = local.vertices[used]
        triangles = np.searchsorted(used, local.triangles[local.proper])
        if not is_convex(mesh):
            return ConvexPolytope(vertices, lambda: (vertices, triangles))
        try:
            return ConvexPolytope(vertices, triangles, _checked=True)
        except ValueError:
            return PointCloud(vertices)

    return local.cached("hull shape", build).moved(mesh.transform)


def _hulls(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances) -> Contact:
    """The convex engine's answer for the two meshes' hulls (`_hull_shape`)."""
    return collide_convex(_hull_shape(a), _hull_shape(b), tolerances)


def _nearly_convex(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances, hull: Contact) -> Contact | None:
    """The answer for two closed, nearly convex meshes deep in each other (Blender's float32 UV Sphere and its
    duplicate in place), from their hulls' answer `hull`, or None to leave the pair to the general pipeline: the
    depth from the hulls (`_nearly_convex_depth`), the crossing curve and containment from
    `crossing_and_containment`, no point sampling.  Taken only when that depth is beyond the touching band (the
    solids then certainly overlap)."""
    near = _nearly_convex_depth(a, b, hull)
    if near is None or near[0] <= hull.touching_tolerance:
        return None
    depth, point_a, point_b = near
    segments, contained = crossing_and_containment(a, b, tolerances)
    return Contact(status=Status.INTERSECTING, distance=-depth + 0.0, normal=np.asarray(hull.normal),
                   point_a=point_a, point_b=point_b, scale=hull.scale, touching_tolerance=hull.touching_tolerance,
                   containment=contained, intersection=segments, converged=hull.converged,
                   iteration_cap_hit=hull.iteration_cap_hit, gjk_iterations=hull.gjk_iterations,
                   epa_iterations=hull.epa_iterations, gap=max(0.0, hull.depth - depth) + hull.gap)


def _nearly_convex_depth(a: TriangleMesh, b: TriangleMesh, hull: Contact):
    """A lower bound of the depth of two closed, nearly convex meshes from their hulls' answer `hull`, or None
    (core/mesh/inner.py): the hulls' depth minus how far each mesh's proved inner body falls short of its hull.
    Returns (depth, point_a, point_b) in world units, the hulls' witness points each pulled in along the normal by
    its own shortfall (so point_a - point_b = depth x normal)."""
    if hull.status is not Status.INTERSECTING:
        return None
    inner_a, inner_b = inner.inner_body(a._local), inner.inner_body(b._local)
    if inner_a is None or inner_b is None:
        return None
    short_a, short_b = inner_a.shortfall(a), inner_b.shortfall(b)
    depth = hull.depth - short_a - short_b
    if not depth > 0.0:
        return None
    normal = np.asarray(hull.normal)
    return depth, np.asarray(hull.point_a) - short_a * normal, np.asarray(hull.point_b) + short_b * normal


def crossing_and_containment(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances = DEFAULT_TOLERANCES):
    """Only the crossing curve (world segments (k, 2, 3)) and the containment (`Containment` or None) of two
    meshes, as the general pipeline reports them for an intersecting pair, without any distance or depth work: a
    descent that keeps only the node pairs within the touching band, then `_meet`.  Every pair that crosses has
    all its ancestors within the band in either descent, so both find the same crossing pairs
    (tests/core/test_mesh_duplicates.py).  Two closed convex meshes with the same triangles, one certified to lie
    in or on the other (core/mesh/copies.py), skip the descent: nothing crosses by more than the band."""
    frame = _Frame(a, b, tolerances)
    if is_convex(a) and is_convex(b) and copies.cannot_cross(frame):
        # a copy of one convex mesh lying in or on the other: nothing crosses by more than the band (see
        # core/mesh/copies.py), so `_meet` would find no crossing; only the containment is left to decide
        return np.zeros((0, 2, 3)), _containment(frame, copies.convex_measure)
    found = _descend(frame.sa.world, frame.sb.world, frame.band, PRUNE * frame.scale, None, near_only=True)
    meeting = _meet(frame, found)
    return meeting.segments + frame.origin, meeting.contained


class _Frame:
    """The pair frame: origin = centre of the pair's world box (the same for (a, b) and (b, a), so the answers
    agree up to the swap), scale = the larger world box diagonal, the touching band, both sides placed in it."""

    def __init__(self, a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances):
        lo_a, hi_a = a.bounds()
        lo_b, hi_b = b.bounds()
        self.scale = max(float(np.linalg.norm(hi_a - lo_a)), float(np.linalg.norm(hi_b - lo_b)))
        if not math.isfinite(self.scale):
            raise ValueError("the meshes are too large to measure in float64 (their extent overflows)")
        self.origin = 0.5 * (np.minimum(lo_a, lo_b) + np.maximum(hi_a, hi_b))
        self.band = tolerances.touching * self.scale
        self.sa, self.sb = _Side(a, self.origin), _Side(b, self.origin)
        self.fallback_normal = _unit_or(0.5 * (lo_b + hi_b) - self.origin, [0.0, 0.0, 1.0])
        # only where the boxes meet can anything be inside the other mesh
        self.boxes_meet = bool(np.all(lo_a <= hi_b + self.band) and np.all(lo_b <= hi_a + self.band))


def _mesh_collide(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances, max_distance,
                  hull: Contact | None = None) -> Contact:
    """The general pipeline (steps 2-6 of the module docstring); `hull`: the hulls' answer, if already known."""
    frame = _Frame(a, b, tolerances)
    sa, sb, band, scale, origin = frame.sa, frame.sb, frame.band, frame.scale, frame.origin
    fallback_normal = frame.fallback_normal

    # as for convex shapes: stop once the meshes are proven farther than max(max_distance, touching band)
    limit = None if max_distance is None else max(max_distance, band)
    found = _descend(sa.world, sb.world, band, PRUNE * scale, limit)
    common = dict(scale=scale, touching_tolerance=band, open_a=not sa.closed, open_b=not sb.closed)
    if found.beyond:
        pa, pb = found.ub_points
        return Contact(status=Status.SEPARATED, distance=found.lower, normal=_unit_or(pb - pa, fallback_normal),
                       point_a=pa + origin, point_b=pb + origin, beyond_max_distance=True, converged=False,
                       gap=max(0.0, found.ub - found.lower), **common)

    meeting = _meet(frame, found)
    A, B, crossing_pairs = meeting.A, meeting.B, meeting.crossing_pairs
    crossed = meeting.crossing_segments.shape[0] > 0  # before contact lines are told from crossings

    found.exact_lb = math.inf
    if crossed:
        d_min, pa, pb = 0.0, meeting.crossing_segments[0, 0], meeting.crossing_segments[0, 0]
        touching_pairs = crossing_pairs
    else:
        d_min, pa, pb, touching_pairs = _best_distance(A, B, found, band, PRUNE * scale)
    lower = min(d_min, found.dropped_lb, found.exact_lb)  # certified lower bound of the distance

    # points inside the other mesh, for the depth: only closed meshes have an inside, only where the boxes meet
    # (a crossing pair is never contained: the parts' corners are then left out)
    inside_ab = _inside(sa, sb, found, crossing_pairs, touching_pairs, A, B, band, scale,
                        with_parts=not crossed) if sb.closed and frame.boxes_meet else None
    inside_ba = _inside(sb, sa, found, crossing_pairs, touching_pairs, B, A, band, scale, swap=True,
                        with_parts=not crossed) if sa.closed and frame.boxes_meet else None

    segments = meeting.segments
    crossed = segments.shape[0] > 0
    contained = meeting.contained
    deep_a = inside_ab is not None and inside_ab.any_inside
    deep_b = inside_ba is not None and inside_ba.any_inside

    if crossed or deep_a or deep_b or contained is not None:
        depth, wa, wb = 0.0, None, None
        if inside_ab is not None and inside_ab.depth > depth:
            depth, wa, wb = inside_ab.depth, inside_ab.point_in, inside_ab.point_surface
        if inside_ba is not None and inside_ba.depth > depth:
            depth, wa, wb = inside_ba.depth, inside_ba.point_surface, inside_ba.point_in
        part_depth = _convex_part_depth(sa, sb, tolerances)
        if part_depth is not None and part_depth[0] > depth:
            depth, wa, wb = part_depth[0], part_depth[1] - origin, part_depth[2] - origin
        # The hulls' depth bounds the true separating translation from above: gap = hull depth - depth
        # certifies the interval [depth, depth + gap] (rounding can only put the bound a few ulps above it).
        hull = hull if hull is not None else _hulls(a, b, tolerances)
        hull_depth = max(0.0, -hull.distance)
        near = _nearly_convex_depth(a, b, hull)
        if near is not None and near[0] > depth:
            depth, wa, wb = near[0], near[1] - origin, near[2] - origin
        if wa is None:
            wa = wb = pa
            normal = fallback_normal
        else:
            normal = _unit_or(wa - wb, fallback_normal)
        return Contact(status=Status.INTERSECTING, distance=-depth + 0.0, normal=normal, point_a=wa + origin,
                       point_b=wb + origin, containment=contained, intersection=segments + origin,
                       converged=True, gap=max(0.0, hull_depth - depth), fallback_used=depth == 0.0, **common)

    gap = max(0.0, d_min - lower)
    if d_min <= band:
        normal = _touch_normal(sa, sb, found, touching_pairs, pa, pb, fallback_normal)
        status = Status.TOUCHING
    else:
        normal = (pb - pa) / d_min
        status = Status.SEPARATED
    return Contact(status=status, distance=d_min, normal=normal, point_a=pa + origin, point_b=pb + origin,
                   converged=lower >= d_min - PRUNE * scale, iteration_cap_hit=lower < d_min - PRUNE * scale,
                   gap=gap, **common)


# ------------------------------------------------------------------------------------------------ crossing

class _Meeting:
    """Where the surfaces meet: the leaf pairs' corners `A`, `B` (k,3,3, gathered on first use), the indices of the
    pairs that cross (`crossing_pairs`) with their segments (`crossing_segments`, pair frame), the containment,
    and the reported crossing curve `segments` (the crossing segments, or none when they are the contact lines of
    a contained mesh)."""

    def __init__(self, frame, found):
        self._frame, self._found = frame, found
        self._A = self._B = None

    @property
    def A(self):
        if self._A is None:
            self._A = np.take(self._frame.sa.world.leaf_corners, self._found.ia, axis=0)
        return self._A

    @property
    def B(self):
        if self._B is None:
            self._B = np.take(self._frame.sb.world.leaf_corners, self._found.ib, axis=0)
        return self._B


def _meet(frame: _Frame, found) -> _Meeting:
    """The crossing curve and the containment from the descent's leaf pairs within the band.  One home for
    both routes: the general pipeline and the convex one (whose descent keeps only the pairs within the band;
    every crossing pair is among them).  The crossing test runs on columns gathered per pair
    (`tritri.crossing_indexed`: the same numbers as `tritri.crossing` on the pairs' corners)."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    m = _Meeting(frame, found)
    near = np.flatnonzero(found.lb <= band)
    if near.size == found.lb.size:
        cross_mask, segments = crossing_indexed(sa.world.planes, sb.world.planes, found.ia, found.ib, band)
        crossing_pairs = np.flatnonzero(cross_mask)
    else:
        cross_mask, segments = crossing_indexed(sa.world.planes, sb.world.planes, found.ia[near], found.ib[near],
                                                band)
        crossing_pairs = near[cross_mask]
    # (k, 3, 3) rows are gathered with np.take along axis 0 (about 3x faster than fancy indexing; single columns
    # the other way round: plain indexing, np.take checks bounds in a slower pass)
    if segments.shape[0] and not np.any(_robust(np.take(sa.world.leaf_corners, found.ia[crossing_pairs], axis=0),
                                                np.take(sb.world.leaf_corners, found.ib[crossing_pairs], axis=0),
                                                segments, band)):
        # every crossing is a contact blurred by rounding (faces that touch, far from the origin or under a skew
        # transform): the surfaces touch there, they do not cross
        crossing_pairs = crossing_pairs[:0]
        segments = segments[:0]
    m.crossing_pairs, m.crossing_segments, m.segments = crossing_pairs, segments, segments
    m.contained = None
    # only a closed mesh holds anything, and only where the boxes meet
    holds_b = sb.closed and frame.boxes_meet
    holds_a = sa.closed and frame.boxes_meet
    if segments.shape[0]:
        # Crossing segments where one closed mesh only touches the other's surface from inside (a box resting
        # on the inner floor of a bigger box) are contact lines, not crossings: when no point of X stepped off
        # them lies strictly outside Y and every loose part of X is inside Y, X is contained.
        for holds, sx, sy, swap, verdict in ((holds_b, sa, sb, False, Containment.A_INSIDE_B),
                                             (holds_a, sb, sa, True, Containment.B_INSIDE_A)):
            if (holds and not _leaves(sx, sy, found, crossing_pairs, band, scale, swap)
                    and _parts_inside(sx, sy, band, scale)):
                m.contained = verdict
                m.segments = segments[:0]
                break
    else:
        m.contained = _containment(frame)
    return m


def _containment(frame: _Frame, measure=None):
    """The containment of two meshes that do not cross: A_INSIDE_B when every loose part of A is inside closed B
    (`_parts_inside`), else B_INSIDE_A when every part of B is inside closed A, else None.  `measure` as for
    `_parts_inside`."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    if sb.closed and frame.boxes_meet and _parts_inside(sa, sb, band, scale, measure):
        return Containment.A_INSIDE_B
    if sa.closed and frame.boxes_meet and _parts_inside(sb, sa, band, scale, measure):
        return Containment.B_INSIDE_A
    return None


def _in_leaf_order(found, pairs, swap):
    """Pair indices sorted by (X's leaf, Y's leaf): the probes sampled from them are then the same whichever
    argument X was (collide(b, a) is collide(a, b).swapped())."""
    x_leaf, y_leaf = (found.ib, found.ia) if swap else (found.ia, found.ib)
    x, y = x_leaf[pairs], y_leaf[pairs]
    if pairs.size and int(x.max()) < 2 ** 31 and int(y.max()) < 2 ** 31:
        # one stable sort on the key x * 2^31 + y: the order of lexsort((y, x)), in about half the time
        return pairs[np.argsort(x.astype(np.int64) * 2 ** 31 + y, kind="stable")]
    return pairs[np.lexsort((y, x))]


def _crossing_sample(pairs):
    """The crossing pairs whose curve is stepped off (MAX_PROBES / 8 of them, evenly spread)."""
    return pairs[:: max(1, pairs.size // (MAX_PROBES // 8))]


def _leaves(sx: _Side, sy: _Side, found, crossing_pairs, band, scale, swap=False) -> bool:
    """Does X really leave closed Y where they cross?  Some point of X stepped off the curve strictly outside Y
    (off Y's surface by more than the band) says so; if none is, X only touches Y's surface from inside there.
    `swap`: X is the descent's second mesh."""
    pick = _crossing_sample(_in_leaf_order(found, crossing_pairs, swap))
    x_leaf, y_leaf = (found.ib, found.ia) if swap else (found.ia, found.ib)
    stepped = _steps_off_the_curve(sx.world.leaf_corners[x_leaf[pick]], sy.world.leaf_corners[y_leaf[pick]], band)
    out = stepped[winding_numbers(stepped, sy.world, scale) == 0]
    return bool(out.shape[0]) and bool(np.any(closest_points(out, sy.world)[0] > band))


def _robust(X, Y, segments, band) -> np.ndarray:
    """Which crossing triangle pairs (k,3,3) x (k,3,3) with their segments (k,2,3) cross by more than the band:
    the segment is longer than the band, and each triangle reaches beyond the band on both sides of the other's
    plane (else moving one of them by at most the band along that plane's normal parts them: a contact)."""
    length = np.sqrt(((segments[:, 1] - segments[:, 0]) ** 2).sum(axis=1))
    deep = length > band
    for P, Q in ((X, Y), (Y, X)):
        n = row_cross(Q[:, 1] - Q[:, 0], Q[:, 2] - Q[:, 0])
        size = np.sqrt((n * n).sum(axis=1))
        n = n / np.where(size > 0.0, size, 1.0)[:, None]
        h = np.einsum("kij,kj->ki", P - Q[:, :1], n)
        deep &= np.minimum(h.max(axis=1), -h.min(axis=1)) > band
    return deep


# ------------------------------------------------------------------------------------------------ descent

class _Found:
    pass


def _descend(wa: WorldBVH, wb: WorldBVH, band, prune, max_distance, near_only=False) -> _Found:
    """Simultaneous descent of both hierarchies (step 3 of the module docstring).  `near_only`: keep only the
    pairs within the band (all that can cross or touch; no upper bound, no closest pair is sought)."""
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    ia = np.zeros(1, np.int64)
    ib = np.zeros(1, np.int64)
    ub = -math.inf if near_only else math.inf
    ub_points = (wa.rep[wa.node(la, 0)], wb.rep[wb.node(lb, 0)])
    dropped = math.inf
    found = _Found()
    found.beyond = False
    while True:
        na, nb = wa.node(la, ia), wb.node(lb, ib)
        if near_only and (la > 0 or lb > 0):
            # Above the leaves the boxes' overlap (within the band on every axis) first; the oriented bounds only
            # when a sample says they prune: for surfaces lying on each other they barely do (rounded shapes),
            # except where the boxes are loose (long thin triangles, like a cylinder's caps).  The leaves get the
            # full bound below.
            meet = _boxes_meet(wa, na, wb, nb, band)
            ia, ib, na, nb = ia[meet], ib[meet], na[meet], nb[meet]
            sample = slice(None, None, max(1, ia.size // OBB_SAMPLE))
            if ia.size and np.mean(pair_lower_bound(wa, na[sample], wb, nb[sample]) > band) > OBB_WORTH:
                keep = pair_lower_bound(wa, na, wb, nb) <= band
                ia, ib = ia[keep], ib[keep]
            if ia.size == 0:
                bound = np.zeros(0)
                break
            ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
            continue
        # the box test first, on every pair; the oriented bounds only on the pairs it keeps
        bound = box_lower_bound(wa, na, wb, nb)
        if ia.size > 1 or near_only:
            alive = (bound <= band) | (bound <= ub - prune)
            if not np.all(alive):
                ia, ib, na, nb, bound = ia[alive], ib[alive], na[alive], nb[alive], bound[alive]
        if ia.size == 0:
            break
        bound = pair_lower_bound(wa, na, wb, nb, bound)
        if not near_only:
            ub, ub_points = _upper_bound(wa, na, wb, nb, bound, ub, ub_points)
        if max_distance is not None and min(float(bound.min()), ub) > max_distance:
            # every pair left is farther than max_distance, and so is every pair dropped (no closer than ub)
            found.beyond = True
            found.lower = min(float(bound.min()), ub)
            found.ub = ub
            found.ub_points = ub_points
            return found
        keep = (bound <= band) | (bound <= ub - prune)
        if keep.sum() > MAX_PAIRS:
            # budget: keep every pair inside the band and the most promising others
            others = np.flatnonzero(keep & (bound > band))
            room = max(MAX_PAIRS - int(np.count_nonzero(bound <= band)), 0)
            if others.size > room:
                cut = np.argpartition(bound[others], room)[room:] if room > 0 else np.arange(others.size)
                drop = others[cut]
                dropped = min(dropped, float(bound[drop].min()))
                keep[drop] = False
        ia, ib, bound = ia[keep], ib[keep], bound[keep]
        if ia.size == 0:  # every pair is proven no closer than the best found: it is the answer
            ia, ib, bound = ia[:0], ib[:0], bound[:0]
            la = lb = 0
        if la == 0 and lb == 0:
            break
        ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
    found.ia, found.ib, found.lb = ia, ib, bound
    found.ub, found.ub_points = ub, ub_points
    found.dropped_lb = dropped
    return found


def _boxes_meet(wa: WorldBVH, na, wb: WorldBVH, nb, band) -> np.ndarray:
    """Which node pairs have axis-aligned boxes within `band` of each other on every axis (a necessary
    condition for a box distance within the band)."""
    ca, cb = wa.columns, wb.columns
    meet = None
    for x in range(3):
        lo_a, hi_a = ca["lo"][x][na], ca["hi"][x][na]
        lo_b, hi_b = cb["lo"][x][nb], cb["hi"][x][nb]
        axis = (lo_b - hi_a <= band) & (lo_a - hi_b <= band)
        meet = axis if meet is None else meet & axis
    return meet


def _split(wa: WorldBVH, wb: WorldBVH, ia, ib, la, lb):
    """One level down: the deeper side (both when level with each other) is replaced by its children."""
    split_a = la > 0 and la >= lb
    split_b = lb > 0 and lb >= la
    if split_a:
        left, right, has = wa.children(la, ia)
        ib = np.concatenate([ib, ib[has]])
        ia = np.concatenate([left, right[has]])
        la -= 1
    if split_b:
        left, right, has = wb.children(lb, ib)
        ia = np.concatenate([ia, ia[has]])
        ib = np.concatenate([left, right[has]])
        lb -= 1
    return ia, ib, la, lb


def _upper_bound(wa: WorldBVH, na, wb: WorldBVH, nb, bound, ub, ub_points):
    """The best distance known after one level: a surface point of each node, and the exact distance of the
    first triangles of the TOP_K most promising pairs.  Returns (ub, its points)."""
    r = wa.rep[na] - wb.rep[nb]
    r = r[:, 0] * r[:, 0] + r[:, 1] * r[:, 1] + r[:, 2] * r[:, 2]
    j = int(np.argmin(r))
    if math.sqrt(r[j]) < ub:
        ub = math.sqrt(r[j])
        ub_points = (wa.rep[na[j]], wb.rep[nb[j]])
    k = min(TOP_K, bound.size)
    top = np.argpartition(bound, k - 1)[:k] if bound.size > k else np.arange(bound.size)
    d, xa, xb = triangle_triangle(wa.leaf_corners[wa.local.first_leaf[na[top]]],
                                  wb.leaf_corners[wb.local.first_leaf[nb[top]]])
    j = int(np.argmin(d))
    if d[j] < ub:
        ub = float(d[j])
        ub_points = (xa[j], xb[j])
    return ub, ub_points


def _best_distance(A, B, found, band, prune):
    """Best-first exact distances over the leaf candidates.  Returns (d, pa, pb, indices of pairs within band)."""
    best = found.ub
    pa, pb = found.ub_points
    order = np.argsort(found.lb, kind="stable")
    lbs = found.lb[order]
    touching = []
    start, chunk = 0, 2048
    found.exact_lb = math.inf
    while start < order.size and lbs[start] <= max(best - prune, band):
        if start >= MAX_EXACT:
            found.exact_lb = float(lbs[start])  # budget spent: the rest is certified no closer than this
            break
        sel = order[start:start + chunk]
        if start > 0:
            # Pairs that cannot beat the best (by more than `prune`) are only asked whether they touch: two
            # corners within the band say yes without the exact distance (surfaces lying on each other, a mesh
            # and its copy in place, have a shared corner in almost every such pair).
            only_touch = lbs[start:start + chunk] > best - prune
            if np.any(only_touch):
                touch = _corners_within(A[sel[only_touch]], B[sel[only_touch]], band)
                touching.append(sel[only_touch][touch])
                sel = np.concatenate([sel[~only_touch], sel[only_touch][~touch]])
            # screen with the separating-axis bound: only pairs that may still beat the best (or touch) go on
            screen = separation_bound(A[sel], B[sel])
            sel = sel[(screen <= band) | (screen <= best - prune)]
            if sel.size == 0:
                start += chunk
                chunk *= 2
                continue
        d, xa, xb = triangle_triangle(A[sel], B[sel])
        j = int(np.argmin(d))
        if d[j] < best:
            best, pa, pb = float(d[j]), xa[j], xb[j]
        touching.append(sel[d <= band])
        start += chunk
        chunk *= 2
    touching = np.concatenate(touching) if touching else np.zeros(0, np.int64)
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    touching = touching[np.argsort(rank[touching], kind="stable")]  # in the order of their lower bounds
    return best, pa, pb, touching


def _corners_within(X, Y, band) -> np.ndarray:
    """Which triangle pairs (k,3,3) x (k,3,3) have a corner of X within `band` of a corner of Y (then their
    distance is within the band too)."""
    near = np.zeros(X.shape[0], bool)
    for i in range(3):
        for j in range(3):
            d = X[:, i] - Y[:, j]
            near |= row_dot(d, d) <= band * band
    return near


def _touch_normal(sa, sb, found, pairs, pa, pb, fallback):
    d = pb - pa
    length = float(np.linalg.norm(d))
    if length > 0.0 and length > 1e-6 * float(np.linalg.norm(sb.world.hi[-1] - sb.world.lo[-1])):
        return d / length
    if pairs.size:
        tri = sb.world.leaf_corners[found.ib[pairs[0]]]
        n = _unit_or(row_cross(tri[1] - tri[0], tri[2] - tri[0]), fallback)
        return n if float(n @ fallback) >= 0.0 else -n
    return fallback


# ------------------------------------------------------------------------------------------------ inside

class _Inside:
    any_inside = False
    depth = 0.0
    point_in = None
    point_surface = None


def _inside(sx: _Side, sy: _Side, found, crossing_pairs, touching_pairs, X, Y, band, scale, swap=False,
            with_parts=True):
    """The deepest point of mesh X found inside closed mesh Y (for the depth): part representatives (when
    `with_parts`), a vertex sample, points near the contact.  (Containment is decided by `_meet`.)"""
    result = _Inside()
    crossing_pairs = _in_leaf_order(found, crossing_pairs, swap)
    touching_pairs = _in_leaf_order(found, touching_pairs, swap)
    verts = sx.vertices
    rep_points = _part_points(sx)[0] if with_parts else np.zeros((0, 3))
    probes = [rep_points]
    used = sx.local.used
    stride = max(1, used.size // 64)
    probes.append(verts[used[::stride]])
    for pairs in (crossing_pairs, touching_pairs):
        if pairs.size:
            pick = pairs[:: max(1, pairs.size // (MAX_PROBES // 4))]
            corners = X[pick]
            probes.append(corners.reshape(-1, 3))
            probes.append(corners.mean(axis=1))
    if crossing_pairs.size:
        pick = crossing_pairs[:: max(1, crossing_pairs.size // (MAX_PROBES // 2))]
        probes.append(_clipped_centroids(X[pick], Y[pick]))
        pick = _crossing_sample(crossing_pairs)
        probes.append(_steps_off_the_curve(X[pick], Y[pick], band))
    points = np.concatenate(probes)
    winding = winding_numbers(points, sy.world, scale)
    inside = winding != 0
    dist = np.zeros(points.shape[0])
    surface = np.zeros((points.shape[0], 3))
    if np.any(inside):
        measured = np.flatnonzero(inside)
        # every part representative found inside is measured, the other points up to MAX_DEPTH_POINTS
        reps = measured[measured < rep_points.shape[0]]
        others = measured[measured >= rep_points.shape[0]]
        measured = np.concatenate([reps, others[:: max(1, others.size // MAX_DEPTH_POINTS)]])
        d, q = closest_points(points[measured], sy.world)
        dist[measured], surface[measured] = d, q
    deep = inside & (dist > band)
    result.any_inside = bool(np.any(deep))
    if not result.any_inside and sx.closed and touching_pairs.size:
        # Surfaces in contact with no surface point found inside (coplanar faces, identical meshes, crossings
        # only along shared edges): points of X's solid just behind the contact faces, kept where X's own
        # winding number puts them inside X.
        pick = touching_pairs[:: max(1, touching_pairs.size // (MAX_PROBES // 4))]
        behind = _steps_behind(X[pick], scale)
        behind = behind[winding_numbers(behind, sx.world, scale) != 0]
        behind = behind[winding_numbers(behind, sy.world, scale) != 0]
        if behind.shape[0]:
            d, q = closest_points(behind, sy.world)
            points = np.concatenate([points, behind])
            dist = np.concatenate([dist, d])
            surface = np.concatenate([surface, q])
            deep = np.concatenate([deep, d > band])
            result.any_inside = bool(np.any(deep))
    if result.any_inside:
        j = int(np.argmax(np.where(deep, dist, -1.0)))
        result.depth = float(dist[j])
        result.point_in = points[j]
        result.point_surface = surface[j]
    return result


def _part_points(side: _Side):
    """Representative points of every loose part: the corners of its first, middle and last triangle (so a part
    with a face lying on the other surface still has corners off it; only the first triangle's beyond 1000
    parts, to bound the work).  Returns (points, part of each point)."""
    parts = side.local.parts
    tris = side.local.triangles
    order = np.argsort(parts.label, kind="stable")
    starts = np.concatenate([[0], np.cumsum(parts.triangle_count)[:-1]])
    picks = [order[starts]]
    if parts.count <= 1000:
        picks += [order[starts + parts.triangle_count // 2], order[starts + parts.triangle_count - 1]]
    points = np.concatenate([side.vertices[tris[t, i]] for t in picks for i in range(3)])
    return points, np.tile(np.arange(parts.count), 3 * len(picks))


def _measure(points, sy: _Side, scale):
    """Distance of each point to Y's surface, and whether it is inside closed Y (non-zero winding number)."""
    return closest_points(points, sy.world)[0], winding_numbers(points, sy.world, scale) != 0


def _parts_inside(sx: _Side, sy: _Side, band, scale, measure=None) -> bool:
    """Every loose part of X has a corner strictly inside closed Y and none strictly outside it (a corner within
    the band of Y's surface decides nothing).  `measure(points, sy, scale)` gives the points' distances to Y's
    surface and their inside flags (default `_measure`; only the flags of points off the surface are used)."""
    parts = sx.local.parts
    points, part = _part_points(sx)
    dist, inside = (measure or _measure)(points, sy, scale)
    off = dist > band
    strictly_in = np.bincount(part[off & inside], minlength=parts.count) > 0
    strictly_out = np.bincount(part[off & ~inside], minlength=parts.count) > 0
    return bool(np.all(strictly_in & ~strictly_out))


def _steps_behind(X, scale):
    """From the centroids of triangles X, steps along both normals, from 1e-6 to a third of the pair's scale."""
    n = row_cross(X[:, 1] - X[:, 0], X[:, 2] - X[:, 0])
    length = np.sqrt((n * n).sum(axis=1))
    ok = length > 0.0
    n = n[ok] / length[ok][:, None]
    centre = X[ok].mean(axis=1)
    out = [centre + (sign * step * scale) * n for step in (1e-6, 1e-3, 0.03, 0.3) for sign in (1.0, -1.0)]
    return np.concatenate(out) if out else np.zeros((0, 3))


def _steps_off_the_curve(X, Y, band):
    """Points of the triangles X (k,3,3) next to where they cross Y: from the middle of the crossing segment,
    steps across it within X's plane (both ways, four lengths from tiny to a third of X's size), each pulled
    back onto X.  One side of a crossing is inside the other mesh, so some of them are, at a positive depth."""
    mask, _ = crossing(X, Y, band)
    X, Y = X[mask], Y[mask]
    if X.shape[0] == 0:
        return np.zeros((0, 3))
    _, segs = crossing(X, Y, band)
    if segs.shape[0] != X.shape[0]:
        return np.zeros((0, 3))
    mid = 0.5 * (segs[:, 0] + segs[:, 1])
    n = row_cross(X[:, 1] - X[:, 0], X[:, 2] - X[:, 0])
    across = row_cross(n, segs[:, 1] - segs[:, 0])
    length = np.sqrt((across * across).sum(axis=1))
    ok = length > 0.0
    across = across[ok] / length[ok][:, None]
    X, mid = X[ok], mid[ok]
    size = np.sqrt(((X[:, 1] - X[:, 0]) ** 2).sum(axis=1) + ((X[:, 2] - X[:, 0]) ** 2).sum(axis=1))
    out = []
    for step in (1e-6, 1e-3, 0.03, 0.3):
        for sign in (1.0, -1.0):
            p = mid + (sign * step * size)[:, None] * across
            out.append(point_triangle(p, X[:, 0], X[:, 1], X[:, 2]))
    return np.concatenate(out) if out else np.zeros((0, 3))


def _clipped_centroids(X, Y):
    """For crossing triangles X (k,3,3) against Y: a point of X on each side of Y's plane (the centroid of the
    corner triangle cut off by the plane, and the mean of the remaining quadrilateral)."""
    n = row_cross(Y[:, 1] - Y[:, 0], Y[:, 2] - Y[:, 0])
    s = np.einsum("kij,kj->ki", X - Y[:, :1], n)
    positive = s >= 0.0
    count = positive.sum(axis=1)
    lone = np.where(count == 1, np.argmax(positive, axis=1), np.argmin(positive, axis=1))
    rows = np.arange(X.shape[0])
    p0 = X[rows, lone]
    cut = []
    for step in (1, 2):
        other = (lone + step) % 3
        s0, s1 = s[rows, lone], s[rows, other]
        denom = s0 - s1
        t = np.where(denom != 0.0, s0 / np.where(denom != 0.0, denom, 1.0), 0.5)
        t = np.clip(t, 0.0, 1.0)
        cut.append(p0 + t[:, None] * (X[rows, other] - p0))
    tip = (p0 + cut[0] + cut[1]) / 3.0
    quad = (cut[0] + cut[1] + X[rows, (lone + 1) % 3] + X[rows, (lone + 2) % 3]) / 4.0
    return np.concatenate([tip, quad])


def _part_boxes(side: _Side, ids):
    """Pair-frame boxes (lo, hi) of the loose parts `ids` of one side."""
    parts = side.local.parts
    corners = side.vertices[side.local.triangles]
    lo = np.full((parts.count, 3), np.inf)
    hi = np.full((parts.count, 3), -np.inf)
    for axis in range(3):
        np.minimum.at(lo[:, axis], parts.label, corners[:, :, axis].min(axis=1))
        np.maximum.at(hi[:, axis], parts.label, corners[:, :, axis].max(axis=1))
    return lo[ids], hi[ids]


def _alone(side: _Side, conv, rows) -> np.ndarray:
    """(conv.size,) bool, set for the rows of `conv` (indices into it) whose part's box meets no other loose part's
    box of the same mesh with a positive volume (then nothing of the mesh lies inside the part or crosses it)."""
    ok = np.zeros(conv.size, bool)
    count = side.local.parts.count
    if count == 1:
        ok[rows] = True
        return ok
    lo, hi = _part_boxes(side, np.arange(count))
    ids = conv[rows]
    overlap = np.minimum(hi[ids][:, None], hi[None]) - np.maximum(lo[ids][:, None], lo[None])  # (r, count, 3)
    meets = np.all(overlap > 0.0, axis=2)
    meets[np.arange(ids.size), ids] = False
    ok[rows] = ~np.any(meets, axis=1)
    return ok


def _convex_part_depth(sa: _Side, sb: _Side, tolerances):
    """Deepest EPA depth among intersecting pairs of exactly convex loose parts (world points), or None.

    Candidates are the pairs of convex parts whose boxes overlap, largest overlap first, at most
    MAX_CONVEX_PAIRS of them."""
    pa, pb = sa.local.parts, sb.local.parts
    conv_a = np.flatnonzero(pa.convex)
    conv_b = np.flatnonzero(pb.convex)
    if conv_a.size == 0 or conv_b.size == 0 or conv_a.size * conv_b.size > 4_000_000:
        return None
    lo_a, hi_a = _part_boxes(sa, conv_a)
    lo_b, hi_b = _part_boxes(sb, conv_b)
    overlap = np.minimum(hi_a[:, None], hi_b[None]) - np.maximum(lo_a[:, None], lo_b[None])  # (na, nb, 3)
    meets = np.all(overlap >= 0.0, axis=2)
    ia, ib = np.nonzero(meets)
    if ia.size == 0:
        return None
    size = np.prod(np.maximum(overlap[ia, ib], 0.0), axis=1) + np.linalg.norm(overlap[ia, ib], axis=1)
    first = np.argsort(-size, kind="stable")[:MAX_CONVEX_PAIRS]

    def cloud(side, parts, k):
        mesh = side.mesh
        return PointCloud(mesh.vertices[np.unique(mesh.triangles[parts.label == k])], mesh.transform)

    ia, ib = ia[first], ib[first]
    # a convex part is a convex solid of its mesh only when no other part of the same mesh reaches into its box
    # (a crate's cavity shell inside its outer shell makes the solid the shell minus the cavity)
    ok_a = _alone(sa, conv_a, np.unique(ia))
    ok_b = _alone(sb, conv_b, np.unique(ib))
    keep = ok_a[ia] & ok_b[ib]
    best = None
    for i, j in zip(ia[keep], ib[keep]):
        c = collide_convex(cloud(sa, pa, conv_a[i]), cloud(sb, pb, conv_b[j]), tolerances)
        if c.status is Status.INTERSECTING and (best is None or c.depth > best[0]):
            best = (c.depth, np.array(c.point_a), np.array(c.point_b))
    return best
