"""EPA: penetration depth, normal and witness points when the origin lies in M = A_core - B_core.

The Expanding Polytope Algorithm (van den Bergen 2001), with these choices:
- The start polytope is GJK's final tetrahedron when it is well shaped.  Otherwise (GJK ended on a point, a segment,
  a triangle or a flat tetrahedron: touching, coplanar or planar input) it is blown up: support points along the six
  axes are added, a tetrahedron is grown from the widest candidates, and each missing dimension is probed with a
  support query along it.  When M is thinner than the flat tolerance in some direction it *is* flat (coplanar faces,
  collinear edges, a point contact): the depth is 0 and the normal is the flat direction.  The result says so
  (`dimension` < 3).
- Faces keep unit outward normals and their plane offsets (the distance of the origin to the plane, > 0 inside).
  The face closest to the origin is popped from a heap; the support point along its normal either lies within the
  gap tolerance of its plane (converged: depth is certified between the face offset and the support value) or is
  added, removing every face it sees.  The visible set is grown from the popped face across edges (so it stays
  connected) and faces seen edge-on count as visible, which keeps new faces from being slivers.
- Convergence needs more than a certified plane: the final face must also hold the origin's projection on its
  own plane (true of the closest facet of a convex polytope, but not always of the popped triangle when faces
  tie or when a curved M leaves near-coplanar slivers).  `_settle` then picks a tied face that does, or refines
  towards the popped face's nearest point.  Face normals are crossed at the vertex facing the longest edge, the
  triangle's largest angle, so slivers keep accurate normals.
- Witness points are the barycentric weights of the origin's projection on the final face applied to the stored
  a and b parts of its three vertices (with the support point along the normal, or a direct decomposition of the
  contact point, as fallbacks when rounding leaves the projection outside every candidate face).
- Why it stopped is an `EPAOutcome` (converged, settle stuck, flat, cap hit, inconsistent horizon).

Large polytopes.  Two identical or near-identical high-poly convex shapes (a duplicate in place) have a
Minkowski difference whose every facet lies within a fraction of a percent of the depth (for a centrally
symmetric shape M is the shape scaled by 2), so EPA must add about one vertex of M per expansion, all of them.
A support-function stopping test does not help (its lower bound still needs every facet of M that comes within
the gap), nor does reducing each cloud to its hull's extreme vertices (every vertex of a subdivided primitive is on
its hull).  So on large pairs EPA:
- fetches the supports of the closest faces in batches (one (k, n) product per shape instead of k products: the
  per-call overhead dominates);
- lets a new point take only one ring of edge-on faces around those that truly see it (`add_point(local=True)`)
  instead of spreading through every coplanar face (which re-fans a 1,024-sided cylinder's cap at each new rim
  point, O(n^2) in all); a new face that would fold back over a kept coplanar neighbour falls back to the
  spreading rule;
- hands two point clouds over to the facet path (core/facet_depth.py: the exact depth as the minimum of h_M over
  M's facet normals), with the triangulations given (`ConvexPolytope`s) or made then by core/hull.py
  (core/hull_views.py's `with_hulls`).  Every triangulation is checked before use; when one is refused or the
  facet path declines, EPA goes on.
When each of these starts, and why, is core/large_pairs.py's `LargePairs` (the `LARGE_PAIRS` object the main loop
consults); the iteration cap grows with the vertex count (`Tolerances.epa_cap`).  Pairs that converge within its
`batch_after` expansions (nearly every pair) never reach any of it.
"""
from __future__ import annotations

import enum
import heapq
import math
from dataclasses import dataclass

from . import large_pairs
from .gjk import gjk
from .facet_depth import facet_depth
from .hull_views import with_hulls
from .minkowski import SupportPoint, minkowski_support, minkowski_supports, weighted_points
from .simplex import closest_on_triangle
from .vec3 import cross, dot, norm, perpendicular, sub, unit_or_none

__all__ = ["EPAOutcome", "EPAResult", "epa"]

# A GJK tetrahedron is used as is only when 6 * its volume exceeds this times (longest edge)^3.
_WELL_SHAPED_TETRA = 1e-6
# GJK iterations allowed to `_decompose` (the witness points' last resort, a polytope query that ends far sooner).
_DECOMPOSE_MAX_ITERATIONS = 64


class EPAOutcome(enum.Enum):
    """Why EPA stopped."""

    CONVERGED = "converged"
    """The closest face's plane is certified (support within the gap) and the face, or a tied one, holds the
    origin's projection: the depth is certified to the gap."""
    SETTLE_STUCK = "settle stuck"
    """The closest face's plane is certified, but it misses the origin's projection and the point that would
    refine it could not be added (rounding): that face stands, its witness points come from the fallbacks.  The
    depth is still certified."""
    FLAT = "flat"
    """M is flat (thinner than the flat tolerance in some direction): the depth is 0 by definition."""
    CAP_HIT = "cap hit"
    """The iteration cap stopped the expansion: the best face so far, not certified."""
    INCONSISTENT_HORIZON = "inconsistent horizon"
    """Rounding made the region a new support point sees not a disc, so it could not be added: the best face
    so far, not certified."""

    @property
    def converged(self) -> bool:
        return self in (EPAOutcome.CONVERGED, EPAOutcome.SETTLE_STUCK, EPAOutcome.FLAT)


@dataclass(frozen=True)
class EPAResult:
    depth: float
    """Distance from the origin to the boundary of M (> 0 inside; <= 0 only within rounding of the boundary)."""
    normal: tuple
    """Unit outward normal of M at the closest boundary point (A towards B)."""
    point_a: tuple
    point_b: tuple
    iterations: int
    outcome: EPAOutcome
    dimension: int
    """3 for a solid M; 2, 1 or 0 when M is flat (depth 0 by definition)."""
    gap: float
    """Certified bound on the depth error (support value minus face offset)."""

    @property
    def converged(self) -> bool:
        return self.outcome.converged

    @property
    def cap_hit(self) -> bool:
        return self.outcome is EPAOutcome.CAP_HIT


@dataclass(frozen=True)
class _Settled:
    """`_settle`'s answer when a face is final: its index and the certified gap of its plane."""

    face: int
    gap: float


@dataclass(frozen=True)
class _Refine:
    """`_settle`'s answer when the polytope must grow first: a support point and a face that sees it."""

    point: SupportPoint
    seer: int


def _plane(a, b, c):
    """(unit normal, offset) of triangle a b c (counter-clockwise seen from outside; offset = the origin's
    distance to its plane, > 0 inside).  The normal is crossed at the corner facing the longest edge, the
    triangle's largest angle, so slivers of a curved M keep accurate normals (`vec3.triangle_normal`'s rule,
    written out: this runs ~5 times per expansion).  A zero-area face gets offset inf: never the closest, never
    visible."""
    ax, ay, az = a
    bx, by, bz = b
    cx, cy, cz = c
    ux, uy, uz = bx - ax, by - ay, bz - az  # ab
    vx, vy, vz = cx - bx, cy - by, cz - bz  # bc
    wx, wy, wz = ax - cx, ay - cy, az - cz  # ca
    ab2 = ux * ux + uy * uy + uz * uz
    bc2 = vx * vx + vy * vy + vz * vz
    ca2 = wx * wx + wy * wy + wz * wz
    if bc2 >= ab2 and bc2 >= ca2:  # pivot at a: (b - a) x (c - a)
        px, py, pz = ux, uy, uz
        qx, qy, qz = -wx, -wy, -wz
    elif ca2 >= ab2:  # pivot at b: (c - b) x (a - b)
        px, py, pz = vx, vy, vz
        qx, qy, qz = -ux, -uy, -uz
    else:  # pivot at c: (a - c) x (b - c)
        px, py, pz = wx, wy, wz
        qx, qy, qz = -vx, -vy, -vz
    nx, ny, nz = py * qz - pz * qy, pz * qx - px * qz, px * qy - py * qx
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    if length == 0.0:
        return (0.0, 0.0, 0.0), math.inf
    nx, ny, nz = nx / length, ny / length, nz / length
    return (nx, ny, nz), (nx * (ax + bx + cx) + ny * (ay + by + cy) + nz * (az + bz + cz)) / 3.0


class _Polytope:
    """A closed triangulated convex polytope around the origin, with an edge map for adjacency.

    Written for speed in plain Python (a high-poly pair runs ~10,000 expansions): faces live in parallel lists,
    `W` holds each vertex's w beside its `SupportPoint`, and the hot loops bind what they use to locals."""

    def __init__(self, visible_slack: float):
        self.vertices: list[SupportPoint] = []
        self.W: list[tuple] = []  # vertices[i].w
        self.faces: list[tuple[int, int, int]] = []
        self.normals: list[tuple] = []
        self.offsets: list[float] = []
        self.alive: list[bool] = []
        self.edge_face: dict[tuple[int, int], int] = {}
        self.heap: list[tuple[float, int]] = []
        self.known: set = set()  # the vertices' w, to spot a support point that is one of them already
        self.slack = visible_slack

    def add_vertex(self, point: SupportPoint) -> int:
        self.vertices.append(point)
        self.W.append(point.w)
        self.known.add(point.w)
        return len(self.W) - 1

    def add_face(self, i, j, k):
        """Append face (i, j, k) (counter-clockwise seen from outside) and return its index (see `_plane`)."""
        W = self.W
        normal, offset = _plane(W[i], W[j], W[k])
        index = len(self.faces)
        self.faces.append((i, j, k))
        self.normals.append(normal)
        self.offsets.append(offset)
        self.alive.append(True)
        edge_face = self.edge_face
        edge_face[(i, j)] = index
        edge_face[(j, k)] = index
        edge_face[(k, i)] = index
        heapq.heappush(self.heap, (offset, index))
        return index

    def height(self, face, point):
        """Signed height of `point` above the plane of `face` (> 0 outside)."""
        n = self.normals[face]
        return n[0] * point[0] + n[1] * point[1] + n[2] * point[2] - self.offsets[face]

    def add_point(self, point: SupportPoint, start_face: int, local: bool = False) -> bool:
        """Add a point seen by `start_face`: remove the faces it sees, fan it to the horizon. False if the visible
        region was not a disc (numerically inconsistent); the polytope is then left unchanged.

        Faces seen edge-on (height within the slack) count as visible.  By default they also pass visibility on,
        so a point in the plane of a large flat facet re-fans all of it; `local=True` takes only the edge-on
        faces next to a face that truly sees the point (one ring), which keeps each expansion O(1) on the big
        flat caps of high-poly cylinders and cones (otherwise O(n) per point and O(n^2) in all)."""
        if local and point.w not in self.known:  # a point already in the polytope must absorb its old copy
            visible, horizon = self._visible_local(point.w, start_face)
        else:
            visible, horizon = self._visible_spreading(point.w, start_face)
        if visible is None:
            return False
        return self._replace(point, visible, horizon)

    def _visible_spreading(self, w, start_face):
        wx, wy, wz = w
        faces, normals, offsets = self.faces, self.normals, self.offsets
        get = self.edge_face.get
        slack = -self.slack
        visible = [start_face]
        stack = [start_face]
        tested = {start_face: True}
        horizon = []
        while stack:
            face = stack.pop()
            i, j, k = faces[face]
            for edge, twin in (((i, j), (j, i)), ((j, k), (k, j)), ((k, i), (i, k))):
                neighbour = get(twin)
                if neighbour is None:
                    return None, None
                seen = tested.get(neighbour)
                if seen is None:
                    n = normals[neighbour]
                    seen = tested[neighbour] = n[0] * wx + n[1] * wy + n[2] * wz - offsets[neighbour] > slack
                    if seen:
                        visible.append(neighbour)
                        stack.append(neighbour)
                if not seen:
                    horizon.append(edge)
        return visible, horizon

    def _visible_local(self, w, start_face):
        wx, wy, wz = w
        faces, normals, offsets, edge_face = self.faces, self.normals, self.offsets, self.edge_face
        slack = self.slack
        stack = [start_face]
        height = {start_face: math.inf}
        visible = {start_face}
        edge_on = []
        while stack:  # the faces that see the point above the slack, connected to the start face
            face = stack.pop()
            i, j, k = faces[face]
            for neighbour in (edge_face.get((j, i)), edge_face.get((k, j)), edge_face.get((i, k))):
                if neighbour is None:
                    return None, None
                if neighbour in height:
                    continue
                n = normals[neighbour]
                h = height[neighbour] = n[0] * wx + n[1] * wy + n[2] * wz - offsets[neighbour]
                if h > slack:
                    visible.add(neighbour)
                    stack.append(neighbour)
                elif h > -slack:
                    edge_on.append(neighbour)
        visible.update(edge_on)
        horizon = []
        W = self.W
        for face in visible:
            i, j, k = faces[face]
            for edge in ((i, j), (j, k), (k, i)):
                neighbour = edge_face.get((edge[1], edge[0]))
                if neighbour in visible:
                    continue
                horizon.append(edge)
                # A kept neighbour seen edge-on is (nearly) coplanar with the new face on this edge: the new face
                # must continue it, not fold back over it (its normal would then point inwards).  Its height is
                # known when it was reached from a face that truly sees the point.
                h = height.get(neighbour)
                if h is None:
                    n = normals[neighbour]
                    h = n[0] * wx + n[1] * wy + n[2] * wz - offsets[neighbour]
                if h > -slack:
                    n = normals[neighbour]
                    a, b = W[edge[0]], W[edge[1]]
                    if dot(cross(sub(b, a), (wx - a[0], wy - a[1], wz - a[2])), n) <= 0.0:
                        return None, None
        return visible, horizon

    def _replace(self, point, visible, horizon) -> bool:
        faces, edge_face = self.faces, self.edge_face
        # The horizon must be one simple loop for the new fan to close the surface.
        nxt = dict(horizon)
        if len(nxt) != len(horizon) or not nxt:
            return False
        start = horizon[0][0]
        current, steps = start, 0
        while True:
            current = nxt.get(current)
            steps += 1
            if current is None or steps > len(horizon):
                return False
            if current == start:
                break
        if steps != len(horizon):
            return False
        alive = self.alive
        get = edge_face.get
        for face in visible:
            alive[face] = False
            i, j, k = faces[face]
            if get((i, j)) == face:
                del edge_face[(i, j)]
            if get((j, k)) == face:
                del edge_face[(j, k)]
            if get((k, i)) == face:
                del edge_face[(k, i)]
        new_index = self.add_vertex(point)
        W, w = self.W, point.w
        normals, offsets, heap, push = self.normals, self.offsets, self.heap, heapq.heappush
        index = len(faces)
        for a, b in horizon:  # the fan: `add_face` for each horizon edge, with everything bound once
            normal, offset = _plane(W[a], W[b], w)
            faces.append((a, b, new_index))
            normals.append(normal)
            offsets.append(offset)
            alive.append(True)
            edge_face[(a, b)] = index
            edge_face[(b, new_index)] = index
            edge_face[(new_index, a)] = index
            push(heap, (offset, index))
            index += 1
        return True

    def closest_face(self):
        heap, alive = self.heap, self.alive
        while heap:
            face = heap[0][1]
            if alive[face]:
                return face
            heapq.heappop(heap)
        return None

    def closest_faces(self, count):
        """Up to `count` alive faces in order of offset (the heap is left as it was, minus dead entries)."""
        heap, alive = self.heap, self.alive
        taken = []
        while heap and len(taken) < count:
            entry = heapq.heappop(heap)
            if alive[entry[1]]:
                taken.append(entry)
        for entry in taken:
            heapq.heappush(heap, entry)
        return [face for _, face in taken]


def _build_tetrahedron(poly: _Polytope, corners) -> None:
    for p in corners:
        poly.add_vertex(p)
    W = [p.w for p in corners]
    for (i, j, k), opposite in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
        n = cross(sub(W[j], W[i]), sub(W[k], W[i]))
        if dot(n, sub(W[opposite], W[i])) > 0.0:
            j, k = k, j
        poly.add_face(i, j, k)


def _flat_normal(dimension, axis, centre_direction):
    """A normal for a flat M: the plane normal (dimension 2), the part of the centre direction perpendicular to
    the line (dimension 1), or the centre direction (dimension 0); oriented along the centre direction."""
    c = unit_or_none(centre_direction) or (0.0, 0.0, 1.0)
    if dimension == 2:
        n = axis
    elif dimension == 1:
        along = dot(c, axis)
        n = unit_or_none(sub(c, (axis[0] * along, axis[1] * along, axis[2] * along))) or perpendicular(axis)
    else:
        n = c
    if dot(n, c) < 0.0:
        n = (-n[0], -n[1], -n[2])
    return n


def epa(shape_a, shape_b, simplex, weights, centre_direction, *, scale: float, gap: float, flat: float,
        max_iterations: int) -> EPAResult:
    """Penetration of A_core and B_core given GJK's final simplex (which contains the origin, up to rounding).

    centre_direction: direction from A's centre towards B's, used only to orient the normal of a flat M.
    gap, flat: absolute tolerances in world units (see tolerances.py)."""
    poly = _Polytope(visible_slack=flat)
    support = lambda d: minkowski_support(shape_a, shape_b, d)  # noqa: E731

    points = list(simplex)
    well_shaped = False
    if len(points) == 4:
        W = [p.w for p in points]
        volume = abs(dot(sub(W[1], W[0]), cross(sub(W[2], W[0]), sub(W[3], W[0]))))
        longest = max(norm(sub(W[i], W[j])) for i in range(4) for j in range(i + 1, 4))
        well_shaped = volume > _WELL_SHAPED_TETRA * longest ** 3
    extra = 0
    if well_shaped:
        _build_tetrahedron(poly, points)
    else:
        dimension, corners, axis, extra = _grow_tetrahedron(points, support, flat)
        if dimension < 3:
            _point_a, _point_b = weighted_points(simplex, weights)
            return EPAResult(0.0, _flat_normal(dimension, axis, centre_direction), _point_a, _point_b, extra,
                             EPAOutcome.FLAT, dimension, flat)
        _build_tetrahedron(poly, corners)
        # The origin lies in conv(GJK simplex): adding its points to the tetrahedron's hull encloses the origin.
        for p in points:
            if any(p.w == q.w for q in poly.vertices):
                continue
            best_face, best_height = None, flat
            for f in range(len(poly.faces)):
                if poly.alive[f]:
                    h = poly.height(f, p.w)
                    if h > best_height:
                        best_face, best_height = f, h
            if best_face is not None:
                poly.add_point(p, best_face)

    iterations = 0
    outcome = None
    face = poly.closest_face()
    certified_gap = math.inf
    last_support = None
    batched = hasattr(shape_a, "core_supports") and hasattr(shape_b, "core_supports")
    prefetched = {}  # face -> its support point, fetched in a batch with other close faces
    policy = large_pairs.LARGE_PAIRS
    facets_after = policy.first_try(shape_a, shape_b, scale)
    while face is not None:
        if iterations >= max_iterations:
            outcome = EPAOutcome.CAP_HIT
            break
        iterations += 1
        normal = poly.normals[face]
        offset = poly.offsets[face]
        if iterations == policy.batch_after + 1 and facets_after == policy.batch_after:
            facets_after = policy.later_try(shape_a, shape_b)
        if iterations == facets_after + 1:
            # A large M on two point clouds: the depth straight from M's facet normals, with the hulls'
            # triangulations given (`ConvexPolytope`) or made now (core/hull_views.py).
            polytopes = with_hulls(shape_a, shape_b)
            found = None if polytopes is None else facet_depth(*polytopes)
            if found is not None:
                return _facet_result(shape_a, shape_b, found, iterations, flat)
        new = prefetched.pop(face, None)
        if new is None:
            if batched and iterations > policy.batch_after:
                # A large M (high-poly shapes, identical ones above all) needs about one expansion per vertex
                # of M near the origin: fetch the supports of the closest faces together.  Faces that die
                # before their turn only cost their column of the product.
                group = poly.closest_faces(policy.batch_size)
                for f, point in zip(group, minkowski_supports(shape_a, shape_b, [poly.normals[f] for f in group])):
                    prefetched[f] = point
                new = prefetched.pop(face)
            else:
                new = support(normal)
        last_support = new
        certified_gap = dot(normal, new.w) - offset
        i, j, k = poly.faces[face]
        if certified_gap <= gap or new.w == poly.W[i] or new.w == poly.W[j] or new.w == poly.W[k]:
            step = _settle(poly, face, support, gap, flat)
            if isinstance(step, _Settled):
                certified_gap = min(certified_gap, step.gap) if step.face == face else step.gap
                face = step.face
                outcome = EPAOutcome.CONVERGED
                break
            if not poly.add_point(step.point, step.seer):
                outcome = EPAOutcome.SETTLE_STUCK
                break
            face = poly.closest_face()
            continue
        large = iterations > policy.local_after
        if not poly.add_point(new, face, local=large) and not (large and poly.add_point(new, face)):
            outcome = EPAOutcome.INCONSISTENT_HORIZON  # keep the best bound so far
            break
        face = poly.closest_face()

    if face is None:  # pragma: no cover - a closed polytope always has faces
        raise RuntimeError("EPA polytope lost all its faces")
    normal, offset = poly.normals[face], poly.offsets[face]
    target = (offset * normal[0], offset * normal[1], offset * normal[2])
    miss, corners, tri_weights = _own_projection(poly, face)
    point_a, point_b = weighted_points(corners, tri_weights)
    if miss > flat and last_support is not None:
        # On a curved M the support point along the converged normal is the contact itself, and its a and b
        # parts lie exactly on A's and B's boundaries.
        residual = norm(sub(last_support.w, target))
        if residual < miss:
            miss, point_a, point_b = residual, last_support.a, last_support.b
    if miss > flat:
        # Last resort: any a - b = target is on both support faces; decompose the target directly and keep
        # whichever answer misses it least.
        da, db, residual, extra_gjk = _decompose(shape_a, shape_b, target, normal)
        extra += extra_gjk
        if residual < miss:
            point_a, point_b = da, db
    return EPAResult(offset, normal, point_a, point_b, iterations + extra, outcome, 3, max(certified_gap, 0.0))


def _facet_result(shape_a, shape_b, found, iterations, flat) -> EPAResult:
    """EPAResult of `facet_depth` (core/facet_depth.py): the depth and normal are exact (the minimum of h_M over
    M's facet normals, each checked against every vertex); the witness points decompose the closest point of M."""
    depth, normal, checked = found
    target = (depth * normal[0], depth * normal[1], depth * normal[2])
    point_a, point_b, _residual, extra = _decompose(shape_a, shape_b, target, normal)
    return EPAResult(depth, normal, point_a, point_b, iterations + extra, EPAOutcome.CONVERGED, 3, 0.0)


def _own_projection(poly, face):
    """(distance from the origin's projection on the face's plane to its triangle, corners, weights)."""
    i, j, k = poly.faces[face]
    corners = (poly.vertices[i], poly.vertices[j], poly.vertices[k])
    q, weights = closest_on_triangle(corners[0].w, corners[1].w, corners[2].w)
    n, offset = poly.normals[face], poly.offsets[face]
    return norm(sub(q, (offset * n[0], offset * n[1], offset * n[2]))), corners, weights


def _settle(poly, face, support, gap, flat):
    """Called when `face`'s plane is certified (support within `gap`). In exact arithmetic the closest face of a
    convex polytope around the origin holds the origin's projection on its own plane; with ties (a facet of M
    split into triangles) or the near-coplanar slivers of a curved M, the popped face may not. Then:
    - a face whose offset is within the certified gap and that holds its own projection is the answer, once its
      own plane is certified too;
    - otherwise refine with the support point towards the popped face's nearest point, if some face sees it.
    Returns `_Settled(face, gap)` or `_Refine(point, face that sees it)`."""
    miss = _own_projection(poly, face)[0]
    if miss <= flat:
        return _Settled(face, 0.0)
    offset = poly.offsets[face]
    best, best_miss = face, miss
    for f, alive in enumerate(poly.alive):
        if alive and f != face and poly.offsets[f] <= offset + gap + flat:
            m = _own_projection(poly, f)[0]
            if m < best_miss:
                best, best_miss = f, m
    if best != face and best_miss <= flat:
        n = poly.normals[best]
        point = support(n)
        g_gap = dot(n, point.w) - poly.offsets[best]
        if g_gap <= gap:
            return _Settled(best, g_gap)
        return _Refine(point, best)
    i, j, k = poly.faces[face]
    W = poly.vertices
    q, _ = closest_on_triangle(W[i].w, W[j].w, W[k].w)
    direction = unit_or_none(q)
    if direction is not None:
        point = support(direction)
        seer, seer_height = None, gap
        for f in [face] + [poly.edge_face.get(edge) for edge in ((j, i), (k, j), (i, k))]:
            if f is not None and poly.alive[f]:
                h = poly.height(f, point.w)
                if h > seer_height:
                    seer, seer_height = f, h
        if seer is not None:
            return _Refine(point, seer)
    return _Settled(best, math.inf if best != face else 0.0)


def _decompose(shape_a, shape_b, target, direction):
    """Points a on A and b on B with a - b ~ target (a point of M), found by GJK on A - (B + target).

    Returns (a, b, residual |a - b - target|, GJK iterations)."""
    shifted_b = shape_b.shifted((-target[0], -target[1], -target[2]))
    result = gjk(shape_a, shifted_b, direction, gap=0.0, zero=0.0, max_iterations=_DECOMPOSE_MAX_ITERATIONS)
    point_a, point_b = weighted_points(result.simplex, result.weights)
    point_b = (point_b[0] - target[0], point_b[1] - target[1], point_b[2] - target[2])
    return point_a, point_b, result.distance, result.iterations


def _grow_tetrahedron(points, support, flat):
    """From GJK's degenerate simplex, find four support points spanning a solid, or the dimension of a flat M.

    Returns (dimension, corners, axis, queries): corners are 4 SupportPoints when dimension == 3; axis is the
    flat direction (plane normal for 2, line direction for 1)."""
    candidates = list(points)
    queries = 0
    for axis in ((1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0),
                 (0.0, 0.0, -1.0)):
        candidates.append(support(axis))
        queries += 1

    def farthest(measure):
        best, best_value = None, -1.0
        for p in candidates:
            value = measure(p.w)
            if value > best_value:
                best, best_value = p, value
        return best, best_value

    p0 = candidates[0]
    p1, spread = farthest(lambda w: norm(sub(w, p0.w)))
    if spread <= flat:
        return 0, None, None, queries  # the six axis supports coincide: M is a point
    u = unit_or_none(sub(p1.w, p0.w))

    def off_line(w):
        r = sub(w, p0.w)
        along = dot(r, u)
        return norm(sub(r, (u[0] * along, u[1] * along, u[2] * along)))

    p2, spread = farthest(off_line)
    if spread <= flat:
        e1 = perpendicular(u)
        e2 = cross(u, e1)
        for d in (e1, (-e1[0], -e1[1], -e1[2]), e2, (-e2[0], -e2[1], -e2[2])):
            candidates.append(support(d))
            queries += 1
        p2, spread = farthest(off_line)
        if spread <= flat:
            return 1, None, u, queries
    n = unit_or_none(cross(sub(p1.w, p0.w), sub(p2.w, p0.w)))
    off_plane = lambda w: abs(dot(n, sub(w, p0.w)))  # noqa: E731
    p3, spread = farthest(off_plane)
    if spread <= flat:
        for d in (n, (-n[0], -n[1], -n[2])):
            candidates.append(support(d))
            queries += 1
        p3, spread = farthest(off_plane)
        if spread <= flat:
            return 2, None, n, queries
    return 3, [p0, p1, p2, p3], None, queries
