"""GJK on the Minkowski difference M = A_core - B_core: separation distance, closest points, or "origin inside".

The distance variant of Gilbert, Johnson and Keerthi (1988), as presented by van den Bergen ("Collision Detection
in Interactive 3D Environments", 2003):
- keep a simplex of support points of M, each stored as a `SupportPoint` (w = a - b, a on A, b on B);
- v is the point of the simplex closest to the origin (computed by `simplex.closest_on_simplex`), and
  w = support_M(-v) the point of M furthest along -v;
- |v| is an upper bound of the distance and v.w/|v| a lower bound (w's plane separates M from the origin), so
  the loop stops when the two meet within the gap tolerance: the answer is certified to that tolerance;
- it also stops when w is already in the simplex (no progress possible: exact on polytopes), when |v| stops
  decreasing (rounding), at the iteration cap, or when the origin is reached (|v| <= zero tolerance or inside a
  tetrahedron), which hands over to EPA.

Near contact v is short, and its direction would be mostly rounding: v's direction is therefore taken from the
simplex's own geometry (`_conditioned`: a triangle's plane normal, a segment's perpendicular), which keeps the
lower bound, and so the certificate, accurate down to distances of a few ulps.

Closest points on A and B come from the barycentric weights of v applied to the stored a and b parts.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from .minkowski import minkowski_support, weighted_points
from .simplex import closest_on_segment, closest_on_tetrahedron, closest_on_triangle
from .vec3 import triangle_normal

__all__ = ["GJKOutcome", "GJKResult", "gjk", "supporting_direction"]


class GJKOutcome(enum.Enum):
    SEPARATED = "separated"
    """Converged with |v| > 0: v is the closest point of M, certified within `gap`."""
    ORIGIN = "origin"
    """The origin is in M (inside the final tetrahedron, or within the zero tolerance of the simplex)."""
    EARLY_SEPARATED = "early separated"
    """Stopped early (boolean query) because the lower bound exceeded the requested threshold."""


@dataclass(frozen=True)
class GJKResult:
    outcome: GJKOutcome
    simplex: tuple  # tuple[SupportPoint, ...] with positive weights
    weights: tuple  # barycentric weights of v
    v: tuple  # closest point of M found (the origin's projection); (0, 0, 0)-like when outcome is ORIGIN
    distance: float  # |v|
    lower_bound: float  # best certified lower bound on the distance (>= 0 only when separated)
    iterations: int
    converged: bool
    cap_hit: bool

    def closest_points(self):
        """(point on A, point on B) as 3-tuples: the weighted a and b parts of the simplex."""
        return weighted_points(self.simplex, self.weights)


def _conditioned(v, vv, points):
    """v with its direction recomputed from the simplex's own geometry.

    v's components carry rounding of about eps x |w| whatever |v| is, so when v is short its *direction* is
    noisy, and a support point far along the closest feature turns that noise into a poor lower bound (the gap
    never closes).  When v lies inside a triangle, it is that triangle's plane normal times the plane's offset;
    `vec3.triangle_normal` crosses the edges at the largest angle, so it is accurate to eps / sin(that angle).
    Inside a segment, v is perpendicular to it: its component along the segment is pure rounding."""
    count = len(points)
    if count == 3:
        p, q, r = points
        n = triangle_normal(p, q, r)
        if n is None:
            return v, vv
        nx, ny, nz = n
        offset = ((nx * p[0] + ny * p[1] + nz * p[2]) + (nx * q[0] + ny * q[1] + nz * q[2])
                  + (nx * r[0] + ny * r[1] + nz * r[2])) / 3.0
        return (offset * nx, offset * ny, offset * nz), offset * offset
    if count == 2:
        a, b = points
        ex, ey, ez = b[0] - a[0], b[1] - a[1], b[2] - a[2]
        ee = ex * ex + ey * ey + ez * ez
        if ee == 0.0:
            return v, vv
        along = (v[0] * ex + v[1] * ey + v[2] * ez) / ee
        v = (v[0] - along * ex, v[1] - along * ey, v[2] - along * ez)
        return v, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
    return v, vv


def gjk(shape_a, shape_b, initial_direction, *, gap: float, zero: float, max_iterations: int,
        stop_above: float | None = None) -> GJKResult:
    """Run GJK on A_core - B_core.

    initial_direction: a guess of the direction from A towards B (e.g. between the shapes' centres).
    gap: absolute duality-gap tolerance (world units); zero: |v| at or below which the origin counts as reached.
    stop_above: if given, stop as soon as the lower bound exceeds it (boolean early-out).
    """
    if type(initial_direction) is tuple and len(initial_direction) == 3:
        d0 = initial_direction  # the solvers' own 3-tuples
    else:
        d0 = tuple(float(x) for x in np.ravel(initial_direction))
    if not any(d0):
        d0 = (1.0, 0.0, 0.0)
    # A point of M on the side facing the origin: a of A furthest towards B, minus b of B furthest towards A.
    first = minkowski_support(shape_a, shape_b, d0)
    simplex = [first]
    ws = [first.w]  # the simplex's points of M, in step with `simplex`
    weights = (1.0,)
    v = first.w
    vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
    lower = 0.0
    iterations = 1
    cap_hit = False
    converged = False
    zero2 = zero * zero
    if vv <= zero2:
        return GJKResult(GJKOutcome.ORIGIN, tuple(simplex), weights, v, math.sqrt(vv), 0.0, iterations, True, False)

    while True:
        if iterations >= max_iterations:
            cap_hit = True
            break
        iterations += 1
        vx, vy, vz = v
        point = minkowski_support(shape_a, shape_b, (-vx, -vy, -vz))
        w = point.w
        norm_v = math.sqrt(vv)
        bound = (vx * w[0] + vy * w[1] + vz * w[2]) / norm_v
        if bound > lower:
            lower = bound
            if stop_above is not None and lower > stop_above:
                return GJKResult(GJKOutcome.EARLY_SEPARATED, tuple(simplex), weights, v, norm_v, lower,
                                 iterations, True, False)
        if norm_v - lower <= gap:
            converged = True
            break
        if w in ws:
            converged = True  # no new support point: v is exact up to rounding
            break
        count = len(ws)
        if count == 1:
            q, cand_weights = closest_on_segment(ws[0], w)
            inside = False
        elif count == 2:
            q, cand_weights = closest_on_triangle(ws[0], ws[1], w)
            inside = False
        else:
            q, cand_weights, inside = closest_on_tetrahedron(ws[0], ws[1], ws[2], w)
        candidate = simplex + [point]
        if inside:
            return GJKResult(GJKOutcome.ORIGIN, tuple(candidate), cand_weights, (0.0, 0.0, 0.0), 0.0, 0.0,
                             iterations, True, False)
        qq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2]
        if qq >= vv:
            converged = True  # rounding stalled the descent; the previous v is the better answer
            break
        if not min(cand_weights) > 0.0:
            simplex = [p for p, lam in zip(candidate, cand_weights) if lam > 0.0]
            weights = tuple(lam for lam in cand_weights if lam > 0.0)
        else:
            simplex = candidate
            weights = cand_weights
        ws = [p.w for p in simplex]
        v, vv = _conditioned(q, qq, ws)
        if vv <= zero2:
            return GJKResult(GJKOutcome.ORIGIN, tuple(simplex), weights, v, math.sqrt(vv), 0.0, iterations,
                             True, False)

    return GJKResult(GJKOutcome.SEPARATED, tuple(simplex), weights, v, math.sqrt(vv), max(lower, 0.0),
                     iterations, converged, cap_hit)


def supporting_direction(shape_a, shape_b, v, standoff: float, *, gap: float, max_iterations: int):
    """A well-conditioned unit direction u with min over M of u.x ~ |v|, for a tiny closest point v of M.

    When |v| is a few ulps of the shapes' size, the direction of v is mostly rounding noise (its angular error is
    about eps * size / |v|).  The point p = -standoff * v/|v| is `standoff` further away from M; GJK from p finds the
    closest point q of M to p, and u = (q - p)/|q - p| is a true normal of M at q (M lies in {x: u.x >= u.q})
    with an angular error of only eps * size / standoff.  Returns None if that query fails to separate."""
    length = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    if length == 0.0:
        return None
    p = (-standoff * v[0] / length, -standoff * v[1] / length, -standoff * v[2] / length)
    # M - p = A - (B + p): B's support points moved by +p.
    result = gjk(shape_a, shape_b.shifted((-p[0], -p[1], -p[2])), (-v[0], -v[1], -v[2]), gap=gap, zero=0.0,
                 max_iterations=max_iterations)
    if result.outcome is not GJKOutcome.SEPARATED or result.distance <= 0.0:
        return None
    q = result.v  # closest point of M - p, i.e. q - p
    return (q[0] / result.distance, q[1] / result.distance, q[2] / result.distance)
