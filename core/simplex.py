"""Closest point of a simplex (point, segment, triangle, tetrahedron) to the origin, with barycentric weights.

Used by GJK for its sub-problem and by EPA for its witness points.  Points are 3-tuples of Python floats: for
these tiny fixed-size problems plain float arithmetic is an order of magnitude faster than numpy.

Robustness rules (the degenerate cases are where GJK implementations break, see fcl#293 and fcl#652):
- a zero-length segment is its first point;
- a triangle is solved in its plane (signed areas); a collinear triangle is the exact minimum over its three
  edges, and a needle or sliver takes whichever of the two is closer (both are points of the triangle);
- a tetrahedron whose volume is negligible relative to its edge lengths (flat) is solved as the exact minimum
  over its four faces, so a coplanar simplex never produces NaN or a division by ~0.
Every function returns (closest point, weights) where weights has one entry per input point, sums to 1 and is
>= 0, and sum(w_i * p_i) is the closest point.  Points with weight 0 can be dropped from the simplex.
"""
from __future__ import annotations

from .vec3 import cross, dot, sub

__all__ = ["closest_on_segment", "closest_on_triangle", "closest_on_tetrahedron", "closest_on_simplex"]

# A triangle's in-plane solution is trusted alone when |n|^2 exceeds this times (longest edge)^4, i.e. when its
# smallest angle is well above rounding (sin(angle) >~ 1e-7).  Below it the edges are solved too, exactly.
TRIANGLE_SIN2_MIN = 1e-14
# A tetrahedron is solved with signed volumes only when 6*volume exceeds this times (longest edge)^3.
TETRA_VOLUME_MIN = 1e-10


def _combine(points, weights):
    x = y = z = 0.0
    for p, w in zip(points, weights):
        if w:
            x += w * p[0]
            y += w * p[1]
            z += w * p[2]
    return (x, y, z)


def closest_on_segment(p0, p1):
    """Closest point to the origin on segment p0-p1 and the weights (1 - t, t)."""
    x0, y0, z0 = p0
    dx, dy, dz = p1[0] - x0, p1[1] - y0, p1[2] - z0
    dd = dx * dx + dy * dy + dz * dz
    if dd <= 0.0:
        return p0, (1.0, 0.0)
    t = -(x0 * dx + y0 * dy + z0 * dz) / dd
    if t <= 0.0:
        return p0, (1.0, 0.0)
    if t >= 1.0:
        return p1, (0.0, 1.0)
    return (x0 + t * dx, y0 + t * dy, z0 + t * dz), (1.0 - t, t)


def _closest_on_edges(p0, p1, p2):
    best = None
    for (i, j) in ((0, 1), (1, 2), (0, 2)):
        pts = (p0, p1, p2)
        q, (wi, wj) = closest_on_segment(pts[i], pts[j])
        dist2 = dot(q, q)
        if best is None or dist2 < best[0]:
            weights = [0.0, 0.0, 0.0]
            weights[i] = wi
            weights[j] = wj
            best = (dist2, q, tuple(weights))
    return best[1], best[2]


def _longest_edge2(points):
    longest = 0.0
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            e = sub(points[i], points[j])
            longest = max(longest, dot(e, e))
    return longest


def closest_on_triangle(p0, p1, p2):
    """Closest point to the origin on triangle p0 p1 p2 and its three weights."""
    x0, y0, z0 = p0
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
    vx, vy, vz = x2 - x0, y2 - y0, z2 - z0
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx  # (p1 - p0) x (p2 - p0)
    nn = nx * nx + ny * ny + nz * nz
    if nn > 0.0:
        # Barycentric coordinates of the origin's projection on the plane: signed areas over the full area,
        # n.(p1 x p2) / n.n and n.(p2 x p0) / n.n.
        u = (nx * (y1 * z2 - z1 * y2) + ny * (z1 * x2 - x1 * z2) + nz * (x1 * y2 - y1 * x2)) / nn
        v = (nx * (y2 * z0 - z2 * y0) + ny * (z2 * x0 - x2 * z0) + nz * (x2 * y0 - y2 * x0)) / nn
        w = 1.0 - u - v
        if u >= 0.0 and v >= 0.0 and w >= 0.0:
            qx = qy = qz = 0.0  # as `_combine` forms it: zero weights add nothing
            if u:
                qx += u * x0
                qy += u * y0
                qz += u * z0
            if v:
                qx += v * x1
                qy += v * y1
                qz += v * z1
            if w:
                qx += w * x2
                qy += w * y2
                qz += w * z2
            q = (qx, qy, qz)
            wx, wy, wz = x2 - x1, y2 - y1, z2 - z1
            longest2 = max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz)
            if nn > TRIANGLE_SIN2_MIN * longest2 * longest2:
                return q, (u, v, w)
            # A needle or sliver: the in-plane solution may be off by rounding, the edges are exact on the
            # boundary. Both are points of the triangle (weights >= 0, sum 1): keep the closer one.
            e, weights = _closest_on_edges(p0, p1, p2)
            return (q, (u, v, w)) if dot(q, q) < dot(e, e) else (e, weights)
    return _closest_on_edges(p0, p1, p2)


def _det(a, b, c):
    return dot(a, cross(b, c))


# The four faces of a tetrahedron as (index triple, index of the opposite vertex).
_TETRA_FACES = (((1, 2, 3), 0), ((0, 2, 3), 1), ((0, 1, 3), 2), ((0, 1, 2), 3))


def signed_volumes(x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3):
    """The signed volumes (x 6) of the tetrahedra the origin makes with each face of p0 p1 p2 p3 (Cramer's rule):
    p1.(p2 x p3), -p0.(p2 x p3), p0.(p1 x p3), -p0.(p1 x p2); their sum is 6 x the tetrahedron's volume.  Plain
    arithmetic, so the same code serves Python floats here and numpy columns in core/lockstep.py, bit for bit."""
    cx, cy, cz = y2 * z3 - z2 * y3, z2 * x3 - x2 * z3, x2 * y3 - y2 * x3
    d0 = x1 * cx + y1 * cy + z1 * cz
    d1 = -(x0 * cx + y0 * cy + z0 * cz)
    cx, cy, cz = y1 * z3 - z1 * y3, z1 * x3 - x1 * z3, x1 * y3 - y1 * x3
    d2 = x0 * cx + y0 * cy + z0 * cz
    cx, cy, cz = y1 * z2 - z1 * y2, z1 * x2 - x1 * z2, x1 * y2 - y1 * x2
    d3 = -(x0 * cx + y0 * cy + z0 * cz)
    return d0, d1, d2, d3


def closest_on_tetrahedron(p0, p1, p2, p3):
    """Closest point to the origin on the solid tetrahedron, its four weights, and whether the origin is inside.

    Inside means all four barycentric weights are >= 0 (the returned point is then the origin itself)."""
    pts = (p0, p1, p2, p3)
    d0, d1, d2, d3 = signed_volumes(*p0, *p1, *p2, *p3)
    volume = d0 + d1 + d2 + d3
    longest2 = 0.0
    for i, (xi, yi, zi) in enumerate(pts):
        for xj, yj, zj in pts[i + 1:]:
            ex, ey, ez = xi - xj, yi - yj, zi - zj
            e2 = ex * ex + ey * ey + ez * ez
            if e2 > longest2:
                longest2 = e2
    flat = abs(volume) <= TETRA_VOLUME_MIN * longest2 * longest2 ** 0.5
    if not flat:
        weights = (d0 / volume, d1 / volume, d2 / volume, d3 / volume)
        if min(weights) >= 0.0:
            return (0.0, 0.0, 0.0), weights, True
        candidates = [face for face in _TETRA_FACES if weights[face[1]] < 0.0]
    else:
        candidates = _TETRA_FACES
    best = None
    for (i, j, k), _opposite in candidates:
        q, (wi, wj, wk) = closest_on_triangle(pts[i], pts[j], pts[k])
        dist2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2]
        if best is None or dist2 < best[0]:
            weights = [0.0, 0.0, 0.0, 0.0]
            weights[i], weights[j], weights[k] = wi, wj, wk
            best = (dist2, q, tuple(weights))
    return best[1], best[2], False


def closest_on_simplex(points):
    """Closest point to the origin on conv(points) for 1 to 4 points: (point, weights, origin_inside)."""
    count = len(points)
    if count == 1:
        return points[0], (1.0,), False
    if count == 2:
        q, w = closest_on_segment(*points)
        return q, w, False
    if count == 3:
        q, w = closest_on_triangle(*points)
        return q, w, False
    return closest_on_tetrahedron(*points)
