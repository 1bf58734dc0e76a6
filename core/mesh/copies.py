"""Certificates for two closed convex meshes when one is a copy of the other lying in or on it (a duplicate in
place, a copy scaled about its centre): answered in time linear in the mesh size, with no hierarchy and no
triangle pair, and with the same answer as the crossing step of core/mesh/meeting.py (`meet`).

`cannot_cross(frame)`: True when no triangle pair of the two meshes can cross by more than the touching band.
A copy listing its vertices and triangles in another order (exported and imported again) is first put in its
partner's order (core/copies.py pairs the vertices; relabelled, the triangles must be the partner's).
`meet` keeps the crossing curve only when some crossing pair is robust: each triangle reaches more than the band
beyond the other's plane on both sides (core/mesh/meeting.py `_robust`).  If every vertex of mesh X lies inside
closed convex Y or within band / 4 of Y's surface, no corner of X is more than band / 4 + (Y's convexity
tolerance) in front of any face plane of Y (a convex solid lies behind each of its face planes), so no pair is
robust and `meet` reports no crossing.  The certificate is cheap for a copy with the same triangles: vertex i of X is
- near: within band / 4 of vertex i of Y (a point of Y's surface), or
- inside: inside one of the tetrahedra spanned by the centroid of Y's vertices (inside convex Y) and a face
  around vertex i of Y (the tetrahedra fill Y, so their union is inside it).  The planes through the centroid
  are inside Y, so the test accepts points up to FAN_SLACK x the tetrahedron's size beyond them (a copy scaled
  about the centroid has its vertices exactly on them): such a point lies within about FAN_SLACK x scale of Y.
Any vertex neither (different triangles, a rotated or shifted copy whose vertices come out of the other) and the
caller runs the general crossing step.  Rounding: a tetrahedron test misjudged by rounding puts the point within a
few ulps of the tetrahedron, far inside the band.  Y's convexity tolerance (core/topology.py: 1e-10 x its size
plus the rounding of its coordinates, in world units through the transform's largest stretch) must stay under
band / 4; past that (a very skewed transform) no certificate is given.

`beyond_convex(points, sy, band)`: whether some point is certainly farther than the band from closed convex Y (its
height over one of Y's face planes says so), for `meeting._leaves`, without a closest-point search.

`convex_measure(points, sy, scale)`: the distances of a few points to convex Y's surface and their inside flags,
by brute force over Y's triangles (pruned by box distance against an upper bound, the distance to the nearest
vertex), for the containment verdict of `inside.parts_inside`: the distances are the same closed forms as
`points.closest_points`, and a point off the surface by more than the band is inside convex Y exactly when it is
behind every face plane (the non-zero winding number of `points.winding_numbers`).
"""
from __future__ import annotations

import numpy as np

from ..copies import paired_order
from ..rows import row_cross, row_dot
from .tritri import point_triangle

__all__ = ["cannot_cross", "convex_measure", "beyond_convex"]

FAN_SLACK = 1e-12
"""Relative slack of the tetrahedron test on its planes through the centroid: a copy scaled about the centroid
puts its vertices exactly on those planes, where rounding picks either side."""


def _convexity_slack(mesh) -> float:
    """How far (world units) a corner may lie in front of a face plane of a mesh that passed the convexity test
    of core/topology.py: its local tolerance times the largest stretch of the transform."""
    v = mesh.vertices[mesh._local.used]
    lo, hi = v.min(axis=0), v.max(axis=0)
    tol = 1e-10 * float(np.linalg.norm(hi - lo)) + 16.0 * np.finfo(float).eps * float(
        np.maximum(np.abs(lo), np.abs(hi)).max())
    if mesh._linear is not None:
        tol *= float(np.linalg.norm(mesh._linear, 2))
    return tol


def _in_tetrahedra(p, c, a, b, e) -> np.ndarray:
    """Which points p (k, 3) lie in the tetrahedra (c, a, b, e) (c (3,), a, b, e (k, 3)) or within FAN_SLACK of
    their size beyond the three planes through c (those planes are inside Y, see the module docstring); flat
    tetrahedra hold none."""
    ca, cb, ce, cp = a - c, b - c, e - c, p - c
    vol = row_dot(ca, row_cross(cb, ce))
    la = row_dot(cp, row_cross(cb, ce))
    lb = row_dot(ca, row_cross(cp, ce))
    le = row_dot(ca, row_cross(cb, cp))
    sign = np.sign(vol)
    floor = -FAN_SLACK * np.abs(vol)
    return (vol != 0.0) & (la * sign >= floor) & (lb * sign >= floor) & (le * sign >= floor) & (
        (la + lb + le) * sign <= np.abs(vol))


def _held(x: np.ndarray, y: np.ndarray, triangles: np.ndarray, used: np.ndarray, near: float) -> bool:
    """Every used vertex of X (pair-frame vertices x) is within `near` of vertex i of Y or inside convex Y by a
    tetrahedron around vertex i (X and Y share `triangles`; see the module docstring)."""
    d = x[used] - y[used]
    close = np.sqrt(row_dot(d, d)) <= near
    if np.all(close):
        return True
    todo = np.zeros(x.shape[0], bool)
    todo[used[~close]] = True
    ok = np.zeros(x.shape[0], bool)
    rows = np.flatnonzero(todo[triangles].any(axis=1))
    t = triangles[rows]
    centre = y[used].mean(axis=0)
    a, b, e = y[t[:, 0]], y[t[:, 1]], y[t[:, 2]]
    for k in range(3):
        inside = _in_tetrahedra(x[t[:, k]], centre, a, b, e)
        ok[t[inside, k]] = True
    return bool(np.all(ok[todo]))


def _cyclic_rows(triangles: np.ndarray) -> np.ndarray:
    """The triangles each turned to start at its smallest index (orientation kept), rows sorted: equal for two
    lists of the same oriented triangles in any order."""
    first = triangles.argmin(axis=1)
    turn = (np.arange(3)[None, :] + first[:, None]) % 3
    rows = np.take_along_axis(triangles, turn, axis=1)
    return rows[np.lexsort(rows.T[::-1])]


def _b_in_a_order(sa, sb, scale: float) -> np.ndarray | None:
    """B's pair-frame vertices listed in A's vertex order, when B is A's copy with its vertices in another order
    (core/copies.py pairs them, within 1e-2 x scale) and, so relabelled, exactly A's oriented triangles; else
    None.  The pairing only chooses which vertex of Y each vertex of X is tested against: `_held` decides."""
    ta, tb = sa.mesh.triangles, sb.mesh.triangles
    if ta.shape != tb.shape or sa.vertices.shape != sb.vertices.shape:
        return None
    order = paired_order(sa.vertices, sb.vertices, 1e-2 * scale)
    if order is None:
        return None
    label = np.empty_like(order)
    label[order] = np.arange(order.size)  # B's vertex j is A's vertex label[j]
    if not np.array_equal(_cyclic_rows(ta), _cyclic_rows(label[tb])):
        return None
    return sb.vertices[order]


def cannot_cross(frame) -> bool:
    """True when one mesh of the pair (two closed convex meshes with the same triangles, or one with its
    vertices and triangles listed in another order) is certified to lie in or on the other, so that no triangle
    pair crosses by more than the band (see the module docstring)."""
    sa, sb = frame.sa, frame.sb
    ta, tb = sa.mesh.triangles, sb.mesh.triangles
    if ta.shape != tb.shape or sa.vertices.shape != sb.vertices.shape:
        return False
    xb = sb.vertices
    if not (ta is tb or np.array_equal(ta, tb)):
        xb = _b_in_a_order(sa, sb, frame.scale)
        if xb is None:
            return False
    near = 0.25 * frame.band
    used = sa.local.used
    for (x, y), mesh_y in (((sa.vertices, xb), sb.mesh), ((xb, sa.vertices), sa.mesh)):
        if _convexity_slack(mesh_y) <= near and _held(x, y, ta, used, near):
            return True
    return False


def convex_measure(points: np.ndarray, sy, scale: float):
    """(distances to closed convex Y's surface, inside flags) of a few points (see the module docstring)."""
    corners = sy.vertices[sy.local.triangles]  # (m, 3, 3)
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    verts = sy.vertices[sy.local.used]
    slack = 1e-12 * scale
    dist = np.empty(points.shape[0])
    for i, p in enumerate(points):
        d = verts - p
        upper = float(np.sqrt(row_dot(d, d).min()))
        gap = np.maximum(np.maximum(lo - p, p - hi), 0.0)
        rows = np.flatnonzero(np.sqrt(row_dot(gap, gap)) <= upper + slack)
        c = corners[rows]
        q = point_triangle(np.broadcast_to(p, (rows.size, 3)), c[:, 0], c[:, 1], c[:, 2])
        dist[i] = float(np.sqrt(row_dot(q - p, q - p)).min())
    # inside: behind every face plane, with the faces' orientation taken from the sign of the enclosed volume
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    n = row_cross(b - a, c - a)
    outward = 1.0 if float(row_dot(a, row_cross(b, c)).sum()) >= 0.0 else -1.0
    height = (points @ n.T - row_dot(a, n)[None, :]) * outward
    return dist, height.max(axis=1) <= 0.0


def beyond_convex(points: np.ndarray, sy, band: float) -> bool:
    """True when some point lies more than `band` from closed convex Y: its height over some face plane of Y
    exceeds the band plus Y's convexity tolerance (Y lies behind each of its face planes up to that tolerance, so
    such a height is a lower bound of the distance to Y) plus rounding.  The rounding allowance per face covers
    its normal's error (about eps x longest edge^2 / twice the area, turning the plane about its first corner)
    over the distance to the point.  False says nothing (the caller measures)."""
    if points.shape[0] == 0:
        return False
    planes = sy.world.planes
    ok = planes.length > 0.0
    if not np.any(ok):
        return False
    normal = np.column_stack(planes.normal)[ok]
    first = np.column_stack(planes.corner[0])[ok]
    corners = sy.world.leaf_corners[ok]
    outward = 1.0 if float(row_dot(corners[:, 0], row_cross(corners[:, 1], corners[:, 2])).sum()) >= 0.0 else -1.0
    height = outward * (points @ normal.T - row_dot(normal, first)[None, :])  # (k, m)
    eps = np.finfo(float).eps
    reach = float(np.abs(points).max()) + float(np.abs(first).max())
    turn = 16.0 * eps * planes.edge[ok] ** 2 / planes.length[ok]  # the normal's error, radians
    rounding = turn * (2.0 * reach) + 16.0 * eps * reach
    return bool(np.any(height - rounding[None, :] > band + _convexity_slack(sy.mesh)))
