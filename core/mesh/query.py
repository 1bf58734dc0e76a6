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
2. Pair frame (`Frame`: origin = centre of the pair's world box, the same for either argument order), scale = the
   larger world box diagonal, touching band.
3. Simultaneous descent of both hierarchies, level by level (core/mesh/descent.py).  A pair of nodes is kept while
   its lower bound (`bvh.pair_lower_bound`) is within the touching band (it may hold a crossing or a contact) or
   below the best upper bound minus `PRUNE` x scale (it may hold a closer pair).  Upper bounds come from a surface
   point of each node and from the exact distance of the first triangles of the most promising pairs.
   One-shot (no history, no max_distance) the band-only descent and step 4 run first (`_near_first`): a pair
   that crosses, or one contained in the other without crossing, is answered from the pairs within the band
   (no closest pair is needed then), any other goes on to this descent.
4. Leaves (core/mesh/meeting.py `meet`, shared by both routes): the pairs within the band go through the crossing
   test (segments of the crossing curve), and the containment is decided: corners of every loose part against the
   other mesh when nothing crosses, points stepped off the curve when a closed mesh may only touch the other from
   inside.  If nothing crosses, the exact triangle-triangle distance runs best-first over the candidates (screened
   by a separating-axis bound) until the next lower bound exceeds the best distance found; candidates that cannot
   beat the best are only asked whether they touch (shared corners first).
5. Depth samples (core/mesh/inside.py; closed meshes only, winding numbers, only when the world boxes meet): corners
   of every loose part, a sample of vertices and points next to the contact are tested against the other mesh.
6. Status, depth (see `core/mesh/__init__.py` for what depth means: the deepest sample, the deepest pair of convex
   parts, or step 1b's bound for nearly convex meshes whose hulls overlap only a little); for an intersecting
   pair the interval is then narrowed (core/mesh/depth_interval.py: the ball bound, local inner polytopes, and
   verified directional moves; `depth_interval=False` skips it) and `gap` = the length of `separation` minus the
   depth (the hulls' move when nothing shorter is verified).

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

from ..contact import Containment, Contact, Status
from ..convex import as_max_distance, collide_convex
from ..polytope import ConvexPolytope
from ..shapes import PointCloud
from ..tolerances import DEFAULT_TOLERANCES, Tolerances
from . import copies, flat_faces, inner
from .coherence import PairHistory, Route
from .depth_interval import depth_interval as narrow_interval, in_canonical_order
from .descent import PRUNE, Found, best_distance, descend, touch_normal
from .inside import deepest_inside
from .meeting import Meeting, containment, meet
from .pair_frame import Frame, unit_or
from .part_depth import convex_part_depth
from .parts import is_convex
from .tritri import triangle_triangle
from .trimesh import TriangleMesh

__all__ = ["collide_meshes", "sample_meshes", "crossing_and_containment"]

_LISTED_HULL_ROWS = 32
"""A mesh's hull shape lists its vertex rows at once up to this many vertices, above it one row per lookup."""

NARROW_ABOVE = 1e-3
"""Nearly convex pairs (step 1b) are narrowed only when their interval is wider than this fraction of its upper
end (float32 folds leave it far narrower; a bevel's n-gons may not)."""


def collide_meshes(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES, max_distance=None, history=None, *,
                   depth_interval: bool = True, progress=None) -> Contact:
    """`core.collide` for two TriangleMeshes (see core/mesh/__init__.py for the meaning of every field).

    max_distance: when given, the query may stop as soon as the meshes are proven farther apart than that
    (`beyond_max_distance`, `distance` then a certified lower bound).  history: None, or the pair's
    `core.PairHistory` (core/mesh/coherence.py: the next query of the pair starts from what this one learnt; the
    answer is the same).  depth_interval: True (the default) narrows an intersecting answer's interval
    (core/mesh/depth_interval.py); False keeps the loose one (the deepest sample and the hulls' move: as certified,
    cheaper), for callers that only need the verdict.  progress: `core.collide`'s hook (core/progress.py), handed
    to the depth interval.  ValueError on bad arguments."""
    if history is not None and not isinstance(history, PairHistory):
        raise ValueError(f"history must be a core.PairHistory, got {type(history).__name__}")
    if history is not None:
        history.route = Route.FRESH
    _check_arguments(a, b, tolerances)
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
    if _both_nearly_convex(a, b):
        # both nearly convex (a fast no for most other meshes: see core/mesh/inner.py)
        hull = _hulls(a, b, tolerances)
        nearly = _nearly_convex(a, b, tolerances, hull, depth_interval, progress)
        if nearly is not None:
            return nearly
    return _mesh_collide(a, b, tolerances, max_distance, hull, history=history, narrow=depth_interval,
                         progress=progress)


def sample_meshes(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances = DEFAULT_TOLERANCES) -> Contact:
    """`collide_meshes`'s status and signed distance, for a search that asks at many times (the sweep's samples,
    core/deform.py): the same route and the same numbers, without the work only the other fields need.

    - Not both convex: the general pipeline runs first, without step 1b.  When it finds the pair SEPARATED or
      TOUCHING, that is `collide_meshes`'s answer too: step 1b answers only for solids whose proved inner bodies
      overlap by more than the band (core/mesh/inner.py), and those the general pipeline finds INTERSECTING.  So
      the inner bodies are proved only for intersecting samples (and then, if both are nearly convex, the answer
      is `collide_meshes`'s own).
    - An intersecting sample knows no separating move unless the hulls were needed for step 1b (the convex hulls
      of two non-convex meshes cost more than the rest of the check): `gap` is then infinite, `separation` zero
      and `converged` False; the depth is the same certified lower bound.
    Everything else is as `collide_meshes` gives it, for the hierarchies the meshes hold (a refitted hierarchy,
    core/deform.py's `SampleChecker`, may pick another of several equally close pairs: the same distance)."""
    _check_arguments(a, b, tolerances)
    _share_local_data(a, b)
    if is_convex(a) and is_convex(b):
        return collide_meshes(a, b, tolerances, depth_interval=False)
    contact = _mesh_collide(a, b, tolerances, None, certify=False, narrow=False)
    if contact.status is Status.INTERSECTING and _both_nearly_convex(a, b):
        return collide_meshes(a, b, tolerances, depth_interval=False)  # step 1b may answer: its whole route
    return contact


def _check_arguments(a, b, tolerances) -> None:
    """ValueError unless `a` and `b` are TriangleMeshes and `tolerances` a Tolerances."""
    if not isinstance(tolerances, Tolerances):
        raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
    for value, name in ((a, "a"), (b, "b")):
        if not isinstance(value, TriangleMesh):
            raise ValueError(f"{name} is a {type(value).__name__}: a TriangleMesh can only be collided with another "
                             f"TriangleMesh (give the convex shape as a TriangleMesh of its surface)")


def _both_nearly_convex(a: TriangleMesh, b: TriangleMesh) -> bool:
    """Both meshes have a proved inner body (step 1b applies; b's is not sought without a's)."""
    return inner.inner_body(a._local) is not None and inner.inner_body(b._local) is not None


def _apart(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances) -> bool:
    """The full query's verdict that two meshes do not intersect (the depth interval's check of a move)."""
    return collide_meshes(a, b, tolerances, depth_interval=False).status is not Status.INTERSECTING


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
    triangulation, with which EPA hands a large deep pair to the facet-normal depth (core/facet_depth.py).  A mesh
    that is one closed convex part gives them at once (already proved convex, so not tested again; a plain
    `PointCloud` when a triangle has zero area); any other offers them to be tried on first need (taken only if,
    once float32 folds are mended, they bound the hull: a nearly convex mesh).  Kept on the local data: every
    pose of the mesh shares it."""
    local = mesh._local

    def build():
        used = local.used
        vertices = local.vertices[used]
        triangles = local.triangles[local.proper].astype(np.intp, copy=False)
        if used.shape[0] < local.vertices.shape[0]:
            # renumber onto the used vertices (every corner is one of them): one lookup, not a binary search
            renumber = np.zeros(local.vertices.shape[0], dtype=np.intp)
            renumber[used] = np.arange(used.shape[0], dtype=np.intp)
            triangles = renumber[triangles]
        if not is_convex(mesh):
            shape = ConvexPolytope(vertices, lambda: (vertices, triangles))
        else:
            try:
                shape = ConvexPolytope(vertices, triangles, _checked=True)
            except ValueError:
                shape = PointCloud(vertices)
        # A hull is queried about once per pose (~15 supports each way on ~500-vertex hulls): each support
        # lookup converts its own row instead of the pose listing all of them (`PointCloud._make_support_data`)
        shape._listed_rows = _LISTED_HULL_ROWS
        return shape

    return local.cached("hull shape", build).moved(mesh.transform)


def _hulls(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances) -> Contact:
    """The convex engine's answer for the two meshes' hulls (`_hull_shape`), worked out in the pair's canonical order
    (core/mesh/depth_interval.py), so that collide(b, a) starts from exactly the swapped hulls' move: the depth
    interval's stages depend on its last bits."""
    if in_canonical_order(a, b):
        return collide_convex(_hull_shape(a), _hull_shape(b), tolerances)
    return collide_convex(_hull_shape(b), _hull_shape(a), tolerances).swapped()


def _nearly_convex(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances, hull: Contact,
                   narrow: bool = True, progress=None) -> Contact | None:
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
    normal, separation = np.asarray(hull.normal), np.asarray(hull.separation)
    upper = float(np.linalg.norm(separation))
    if narrow and upper - depth > NARROW_ABOVE * upper:
        # the hairs are not thin (folds of a bevel): the interval is narrowed as for any other pair
        frame = Frame(a, b, tolerances)
        origin = frame.origin
        refined = narrow_interval(a, b, frame, tolerances, depth, point_a - origin, point_b - origin, normal,
                                  segments - origin, separation, _apart, progress)
        if refined.lower > depth:
            depth, normal = refined.lower, refined.normal
            point_a, point_b = refined.point_a + origin, refined.point_b + origin
        separation = refined.move
        upper = float(np.linalg.norm(separation))
    return Contact(status=Status.INTERSECTING, distance=-depth + 0.0, normal=normal,
                   point_a=point_a, point_b=point_b, scale=hull.scale, touching_tolerance=hull.touching_tolerance,
                   containment=contained, intersection=segments, converged=hull.converged,
                   iteration_cap_hit=hull.iteration_cap_hit, gjk_iterations=hull.gjk_iterations,
                   epa_iterations=hull.epa_iterations, gap=max(0.0, upper - depth), separation=separation)


def _nearly_convex_depth(a: TriangleMesh, b: TriangleMesh, hull: Contact):
    """A lower bound of the depth of two closed, nearly convex meshes from their hulls' answer `hull`, or None
    (core/mesh/inner.py): the hulls' depth minus how far each mesh's proved inner body falls short of its hull.
    Returns (depth, point_a, point_b) in world units, the hulls' witness points each pulled in along the normal by
    its own shortfall (so point_a - point_b = depth x normal)."""
    if hull.status is not Status.INTERSECTING:
        return None
    inner_a = inner.inner_body(a._local)
    inner_b = inner.inner_body(b._local) if inner_a is not None else None  # b's proof is not needed without a's
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
    descent that keeps only the node pairs within the touching band, then `meet`.  Every pair that crosses has
    all its ancestors within the band in either descent, so both find the same crossing pairs
    (tests/core/test_mesh_duplicates.py).  Two closed convex meshes with the same triangles, one certified to lie
    in or on the other (core/mesh/copies.py), skip the descent: nothing crosses by more than the band."""
    frame = Frame(a, b, tolerances)
    if is_convex(a) and is_convex(b) and copies.cannot_cross(frame):
        # a copy of one convex mesh lying in or on the other: nothing crosses by more than the band (see
        # core/mesh/copies.py), so `meet` would find no crossing; only the containment is left to decide
        return np.zeros((0, 2, 3)), containment(frame, copies.convex_measure)
    # large flat faces cut into many triangles (fanned caps): the same pairs without the descent's cost there
    found = flat_faces.near_pairs(frame)
    if found is None:
        found = descend(frame.sa.world, frame.sb.world, frame.band, PRUNE * frame.scale, None, near_only=True)
    meeting = meet(frame, found)
    return meeting.segments + frame.origin, meeting.contained


NEAR_FIRST_CAP = 1
"""The band-only descent of `_near_first` gives up (the full descent answers) once a level keeps more than
NEAR_FIRST_CAP x (triangles of A + B) node pairs: surfaces lying on each other (a copy in place: 3.4 x at its
widest level), where the band holds nearly every pair the full descent keeps, would otherwise pay for both
descents.  Meshes that cross or lie one inside the other keep far fewer (at most 0.26 x on bench/midsize.py's
pairs).  Small meshes may keep up to NEAR_FIRST_FLOOR pairs (their descents cost little either way)."""

NEAR_FIRST_FLOOR = 1024

NEAR_FIRST_EXACT = 4096
"""The contained route measures every pair within the band exactly; beyond this many the full route answers."""


def _near_first(frame: Frame):
    """(found, meeting) of the band-only descent when they decide the pair without the full descent, else
    (None, meeting or None).

    Every pair that can cross or touch lies within the band, and the band-only descent keeps all of them: so a
    crossing found there is the one the full descent's pairs give (the same crossing pairs, in the same order: both
    descents list pairs in `descent_order`, and dropping pairs never reorders the rest), and the crossing route
    needs no distance.  When nothing crosses, `meet`'s answer (no crossing, `containment(frame)`) does not depend
    on the pairs at all: for a contained pair the answer needs only the pairs within the band (which touch, for the
    probes near the contact, and whether any does, for `_wholly_outside`), and those are these pairs; for any
    other pair the meeting is handed back and the full descent finds the distance.  Meshes whose vertices a plane
    parts by more than twice the band (`_apart_along_centres`) have no pair within it: their meeting is had
    without the band-only descent."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    if frame.boxes_meet and _apart_along_centres(frame):
        # No pair is within the band: whatever pairs the band-only descent kept, none crosses, so its meeting is
        # `containment(frame)`'s, which `meet` on no pairs gives without the descent.  Not contained (always, for
        # meshes a plane parts): the full descent answers, as it would after the band-only one.  (Boxes apart by
        # more than the band on an axis need none of this: the band-only descent stops at the roots, and no
        # containment is sought.)
        meeting = _parted_meeting(frame) if _one_part_each(frame) else meet(frame, _no_pairs())
        if meeting.contained is None:
            return None, meeting
    cap = max(NEAR_FIRST_CAP * (sa.local.bvh.sizes[0] + sb.local.bvh.sizes[0]), NEAR_FIRST_FLOOR)
    near = descend(sa.world, sb.world, band, PRUNE * scale, None, near_only=True, cap=cap)
    if near is None:
        return None, None
    meeting = meet(frame, near, probes=True)
    if meeting.crossing_segments.shape[0] > 0:
        return near, meeting
    if meeting.contained is not None and near.ia.size <= NEAR_FIRST_EXACT:
        return near, meeting
    return None, meeting


def _apart_along_centres(frame: Frame) -> bool:
    """Are the meshes' vertices parted along the line between their world boxes' centres by more than twice the
    band (and the rounding of the projections)?  Then so are their hulls, and every triangle pair is farther apart
    than that.  A certificate only: False says nothing.  (Vertices no triangle uses only make it stricter.)"""
    wa, wb = frame.sa.world, frame.sb.world
    lo_a, hi_a, lo_b, hi_b = wa.lo[-1], wa.hi[-1], wb.lo[-1], wb.hi[-1]
    u = 0.5 * (lo_b + hi_b) - 0.5 * (lo_a + hi_a)
    length = float(np.sqrt(u @ u))
    if not (length > 0.0 and math.isfinite(length)):
        return False
    u = u / length
    va, vb = frame.sa.vertices, frame.sb.vertices
    if va.shape[0] == 0 or vb.shape[0] == 0:
        return False
    gap = float((vb @ u).min()) - float((va @ u).max())
    # each projection is within 3 ulps x its coordinates' absolute sum of the exact one (|u| within 3 ulps of 1):
    # take a generous 16 eps x the largest such sum over both boxes, and twice the band
    reach = float(np.maximum(np.maximum(np.abs(lo_a), np.abs(hi_a)), np.maximum(np.abs(lo_b), np.abs(hi_b))).sum())
    return gap > 2.0 * frame.band + 16.0 * _EPS * reach


_EPS = float(np.finfo(float).eps)


def _no_pairs():
    """A band-only descent's result that kept no pair (as `descend(near_only=True)` gives it)."""
    found = Found()
    found.beyond = False
    found.ia, found.ib, found.lb = np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    return found


def _one_part_each(frame: Frame) -> bool:
    return frame.sa.local.parts.count == 1 and frame.sb.local.parts.count == 1


def _parted_meeting(frame: Frame) -> Meeting:
    """`meet(frame, no pairs)` for meshes of one loose part each that a plane parts by more than twice the band,
    without the containment test: every corner of either mesh lies beyond that plane, outside the other's hull and
    farther than the band from it, so `parts_inside` finds none inside (winding number 0) and the containment is
    None.
    What it would have measured of the corners (`corners_a`, `corners_b`) is not needed: with nothing crossing
    and the distance beyond the band, a one-part mesh is wholly outside the other (`_wholly_outside`) and no depth
    probe runs (were the work caps to leave the distance's lower bound within the band, the probes would measure
    those corners themselves, the same numbers)."""
    return Meeting(frame, _no_pairs())


def _within_band(A, B, band) -> np.ndarray:
    """Indices of the triangle pairs (k,3,3) x (k,3,3) whose exact distance is within the band, in order."""
    if A.shape[0] == 0:
        return np.zeros(0, np.int64)
    return np.flatnonzero(triangle_triangle(A, B)[0] <= band)


def _wholly_outside(sx, meeting, crossed, lower, band, inside_verdict) -> bool:
    """Is mesh X's surface known to lie outside the other mesh Y, so that `deepest_inside` would find none of its
    probes inside?  When X is one loose part whose surface neither crosses Y's nor comes within the band of it
    (`lower`: the certified lower bound of the distance), that surface is wholly on one side of Y's: inside Y
    exactly when `meet` found X contained (`inside_verdict`; its corners are then probed as before), else
    outside.  The probes of such a pair are X's own surface points (no crossing or touching pairs), so none is
    inside Y; when Y holds X as the other containment verdict, X's surface surrounds Y and is outside it too."""
    return (not crossed and lower > band and sx.local.parts.count == 1
            and meeting.contained is not inside_verdict)


def _mesh_collide(a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances, max_distance,
                  hull: Contact | None = None, certify: bool = True, history=None, narrow: bool = True,
                  progress=None, near_first: bool = True) -> Contact:
    """The general pipeline (steps 2-6 of the module docstring); `hull`: the hulls' answer, if already known;
    `history`: the pair's `PairHistory`, or None; `narrow`: narrow an intersecting answer's interval
    (core/mesh/depth_interval.py).  certify False (`sample_meshes`): an intersecting pair gets no upper end (`gap`
    infinite) unless the hulls are needed anyway.  `progress`: the depth interval's hook (core/progress.py)."""
    frame = Frame(a, b, tolerances)
    sa, sb, band, scale, origin = frame.sa, frame.sb, frame.band, frame.scale, frame.origin
    fallback_normal = frame.fallback_normal

    # as for convex shapes: stop once the meshes are proven farther than max(max_distance, touching band)
    limit = None if max_distance is None else max(max_distance, band)
    common = dict(scale=scale, touching_tolerance=band, open_a=not sa.closed, open_b=not sb.closed)
    # a pair's history (core/mesh/coherence.py) may stand in for the descent and meeting stage, same answer
    staged = history.stage(frame, tolerances, max_distance) if history is not None else None
    if staged is not None:
        found, meeting, A, B = staged.found, staged.meeting, staged.A, staged.B
        d_min, pa, pb, touching_pairs, lower = staged.d_min, staged.pa, staged.pb, staged.touching, staged.lower
        crossing_pairs = meeting.crossing_pairs
        crossed = meeting.crossing_segments.shape[0] > 0
        outside = staged.outside  # proven apart since the last answer: no probe can be inside
    else:
        outside = False
        found, meeting, contained_route = None, None, False
        if near_first and limit is None and history is None:
            found, meeting = _near_first(frame)
            contained_route = found is not None and meeting.crossing_segments.shape[0] == 0
        if found is None:
            found = descend(sa.world, sb.world, band, PRUNE * scale, limit)
            if found.beyond:
                pa, pb = found.ub_points
                return Contact(status=Status.SEPARATED, distance=found.lower,
                               normal=unit_or(pb - pa, fallback_normal), point_a=pa + origin, point_b=pb + origin,
                               beyond_max_distance=True, converged=False, gap=max(0.0, found.ub - found.lower),
                               **common)
            if meeting is None:
                meeting = meet(frame, found, probes=True)
            else:
                meeting.take_pairs(found)  # nothing crossed: the meeting holds for any pairs (see `_near_first`)

        A, B, crossing_pairs = meeting.A, meeting.B, meeting.crossing_pairs
        crossed = meeting.crossing_segments.shape[0] > 0  # before contact lines are told from crossings

        found.exact_lb = math.inf
        if crossed:
            d_min, pa, pb = 0.0, meeting.crossing_segments[0, 0], meeting.crossing_segments[0, 0]
            touching_pairs = crossing_pairs
        elif contained_route:
            # contained, nothing crossing: the answer needs only which pairs touch and whether any does (no
            # closest pair: the witnesses are the depth's, found below); d_min stands for "within the band or not"
            touching_pairs = _within_band(A, B, band)
            d_min = 0.0 if touching_pairs.size else math.inf
            pa = pb = None
        else:
            d_min, pa, pb, touching_pairs = best_distance(A, B, found, band, PRUNE * scale)
        lower = min(d_min, found.dropped_lb, found.exact_lb)  # certified lower bound of the distance
    if history is not None:
        history.learn(frame, found, meeting, d_min)

    # points inside the other mesh, for the depth: only closed meshes have an inside, only where the boxes meet
    # (a crossing pair is never contained: the parts' corners are then left out)
    probe_ab = sb.closed and frame.boxes_meet and not outside and not _wholly_outside(sa, meeting, crossed, lower,
                                                                                       band, Containment.A_INSIDE_B)
    probe_ba = sa.closed and frame.boxes_meet and not outside and not _wholly_outside(sb, meeting, crossed, lower,
                                                                                       band, Containment.B_INSIDE_A)
    inside_ab = deepest_inside(sa, sb, found, crossing_pairs, touching_pairs, A, B, band, scale,
                               with_parts=not crossed, stepped=meeting.stepped_a,
                               part_corners=meeting.corners_a, probes=meeting.probes_a) if probe_ab else None
    inside_ba = deepest_inside(sb, sa, found, crossing_pairs, touching_pairs, B, A, band, scale, swap=True,
                               with_parts=not crossed, stepped=meeting.stepped_b,
                               part_corners=meeting.corners_b, probes=meeting.probes_b) if probe_ba else None

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
        part_depth = convex_part_depth(sa, sb, tolerances)
        if part_depth is not None and part_depth[0] > depth:
            depth, wa, wb = part_depth[0], part_depth[1] - origin, part_depth[2] - origin
        # The hulls' separating move bounds the true separating translation from above: gap = its length - depth
        # certifies the interval [depth, depth + gap] (rounding can only put the bound a few ulps above it).
        # Without `certify` the hulls are only wanted for step 1b's depth, which needs both inner bodies; the
        # answer then knows no separating move: gap is infinite and `separation` zero (not converged).
        if hull is None and (certify or _both_nearly_convex(a, b)):
            hull = _hulls(a, b, tolerances)
        if hull is None:
            separation, upper = np.zeros(3), math.inf
        else:
            hull_depth = max(0.0, -hull.distance)
            separation = hull.separation if hull.status is Status.INTERSECTING \
                else hull_depth * np.asarray(hull.normal)
            upper = float(np.linalg.norm(separation))
        near = _nearly_convex_depth(a, b, hull) if hull is not None else None
        if near is not None and near[0] > depth:
            depth, wa, wb = near[0], near[1] - origin, near[2] - origin
        if narrow and hull is not None:
            refined = narrow_interval(a, b, frame, tolerances, depth, wa, wb,
                                      None if wa is None else unit_or(wa - wb, fallback_normal), segments, separation,
                                      _apart, progress)
            if refined.lower > depth:
                depth, wa, wb = refined.lower, refined.point_a, refined.point_b
            separation = refined.move
            upper = float(np.linalg.norm(separation))
        if wa is None and pa is None:
            # the contained route knows no closest pair (a contained mesh always has a probe deeper than the
            # band, so this is not expected): the full route answers
            return _mesh_collide(a, b, tolerances, max_distance, hull, certify, history, narrow, progress,
                                 near_first=False)
        if wa is None:
            wa = wb = pa
            normal = fallback_normal
        else:
            normal = unit_or(wa - wb, fallback_normal)
        if history is not None:
            history.answered(False, d_min)
        return Contact(status=Status.INTERSECTING, distance=-depth + 0.0, normal=normal, point_a=wa + origin,
                       point_b=wb + origin, containment=contained, intersection=segments + origin,
                       converged=hull is not None, gap=max(0.0, upper - depth),
                       fallback_used=depth == 0.0, separation=separation, **common)

    gap = max(0.0, d_min - lower)
    if d_min <= band:
        normal = touch_normal(sa, sb, found, touching_pairs, pa, pb, fallback_normal)
        status = Status.TOUCHING
    else:
        normal = (pb - pa) / d_min
        status = Status.SEPARATED
    if history is not None:
        history.answered(status is Status.SEPARATED, d_min)
    return Contact(status=status, distance=d_min, normal=normal, point_a=pa + origin, point_b=pb + origin,
                   converged=lower >= d_min - PRUNE * scale, iteration_cap_hit=lower < d_min - PRUNE * scale,
                   gap=gap, **common)
