"""Topology and exact convexity of triangle sets: welding, directed-edge pairing, and the convexity test shared by
the mesh's loose parts (core/mesh/parts.py), the nearly convex meshes (core/mesh/inner.py) and the checked hull
triangulations of core/triangulation.py.

- `weld(points)`: the distinct rows in lexicographic order and the index of each row among them.
- `edge_twins(topo, n)`: every directed edge of a triangle set with its owner triangle and the row of its reverse.
- `convexity(...)`: per labelled group of triangles, whether it is closed and exactly convex.  A group is exactly
  convex when it is closed, has the topology of a sphere (V - E + F = 2 on welded vertices), every edge is convex
  (the far corner of the neighbouring triangle is not in front of a triangle's plane, beyond `relative` (1e-10)
  x the group's size plus the rounding of its coordinates), and the face angles around every vertex sum to at
  most 2 pi: a closed locally convex surface of genus 0 bounds a convex body.  As a cheap guard against rounding,
  every vertex is also checked against up to 64 of the group's face planes.  All of it is measured in the
  group's own frame (centred on its box), so a group 1e6 from the origin is judged as well as one at it.
  Zero-area triangles (collinear corners, like a doubled sliver whose edges cancel) are set aside: the rest must
  pass on its own, and their corners must lie inside the body it bounds (`all_behind`).
"""
from __future__ import annotations

import math

import numpy as np

from .rows import row_cross, row_dot

__all__ = ["weld", "ordered", "edge_twins", "flat_triangles", "convexity", "convexity_proper", "all_behind"]


def weld(points: np.ndarray):
    """(distinct rows in lexicographic order, index of each row among them): np.unique(points, axis=0,
    return_inverse=True) by one lexsort of the columns (3-5x faster: no comparison of rows as records)."""
    order = np.lexsort((points[:, 2], points[:, 1], points[:, 0]))
    rows = points[order]
    new = np.ones(rows.shape[0], bool)
    new[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    inverse = np.empty(rows.shape[0], np.int64)
    inverse[order] = np.cumsum(new) - 1
    return rows[new], inverse


def ordered(major: np.ndarray, minor: np.ndarray, n: int) -> np.ndarray:
    """The stable order of rows by (major, minor), both in [0, n): two radix passes over 16-bit copies when n
    fits (numpy sorts 16-bit integers stably by radix, about 3x faster than sorting major * n + minor), else one
    stable sort of that key."""
    if n <= 1 << 16:
        first = np.argsort(minor.astype(np.uint16), kind="stable")
        return first[np.argsort(major.astype(np.uint16)[first], kind="stable")]
    return np.argsort(major * n + minor, kind="stable")


def edge_twins(topo: np.ndarray, n: int):
    """Directed edges of triangles `topo` (k, 3) on n indices, row 3 t + i being the edge from corner i to corner
    i + 1 of triangle t: (eu, ev, owner triangle, twin row, ok), where ok says the edge is used once and its
    reverse exactly once (then twin row is the reverse's row, in triangle twin // 3)."""
    eu = topo.reshape(-1)
    ev = topo[:, [1, 2, 0]].reshape(-1)
    owner = np.repeat(np.arange(topo.shape[0]), 3)
    order = ordered(eu, ev, n)
    sk = (eu * n + ev)[order]
    back = ordered(ev, eu, n)
    if sk.size and np.array_equal(sk, (ev * n + eu)[back]) and np.all(sk[1:] != sk[:-1]):
        # a closed surface (the usual case): the i-th edge in (u, v) order and the i-th in (v, u) order are twins
        twin = np.empty_like(order)
        twin[order] = back
        return eu, ev, owner, twin, np.ones(eu.size, bool)
    dup = np.zeros(sk.size, bool)
    if sk.size > 1:
        same = sk[1:] == sk[:-1]
        dup[1:] |= same
        dup[:-1] |= same
    bad = np.empty(sk.size, bool)
    bad[order] = dup
    rev = ev * n + eu
    pos = np.minimum(np.searchsorted(sk, rev), max(sk.size - 1, 0))
    found = sk[pos] == rev
    twin_dup = dup[pos]
    ok = found & ~bad & ~twin_dup
    return eu, ev, owner, order[pos], ok


def flat_triangles(vertices: np.ndarray, corners_idx: np.ndarray) -> np.ndarray:
    """Mask of triangles of zero area up to rounding (collinear corners: sine of the corner angle below 1e-10)."""
    a = np.take(vertices, corners_idx[:, 0], axis=0)  # np.take: a faster row gather than indexing
    e1 = np.take(vertices, corners_idx[:, 1], axis=0) - a
    e2 = np.take(vertices, corners_idx[:, 2], axis=0) - a
    cr = row_cross(e1, e2)
    return row_dot(cr, cr) <= 1e-20 * row_dot(e1, e1) * row_dot(e2, e2)


def convexity(vertices, corners_idx, topo, label, count, relative: float = 1e-10, pairing=None):
    """Exact convexity of each labelled group of triangles (see the module docstring).

    vertices: local positions; corners_idx (k, 3): vertex indices of the proper triangles (positions);
    topo (k, 3): their welded indices (topology); label (k,): group of each triangle; pairing: `edge_twins` of
    topo, when the caller has it already.  Triangles of zero area
    (collinear corners, such as a doubled sliver whose edges cancel) are set aside: the rest must be closed and
    convex on its own, and every corner of the set-aside ones must lie in the convex body it bounds."""
    flat = flat_triangles(vertices, corners_idx)
    if np.any(flat):
        keep = ~flat
        convex = np.zeros(count, bool)
        if not np.any(keep):
            return convex
        convex = convexity_proper(vertices, corners_idx[keep], topo[keep], label[keep], count,
                                   np.bincount(label[keep], minlength=count), relative)
        for group in np.flatnonzero(convex & (np.bincount(label[flat], minlength=count) > 0)):
            rows = np.flatnonzero(keep & (label == group))
            pts = vertices[np.unique(corners_idx[flat & (label == group)])]
            if pts.shape[0] > 4096 or not all_behind(vertices, corners_idx[rows], pts, relative):
                convex[group] = False
        return convex
    return convexity_proper(vertices, corners_idx, topo, label, count, None, relative, pairing)


def _frame(points: np.ndarray, relative: float = 1e-10):
    """(centre, size, tolerance) of a point set: heights are measured from the centre, with a tolerance of
    1e-10 x the set's size plus the rounding of its coordinates (far from the origin, a flat face's corners are
    only coplanar to a few ulps of their magnitude)."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = 0.5 * (lo + hi)
    size = float(np.sqrt(((hi - lo) ** 2).sum()))
    magnitude = float(np.abs(points).max())
    return centre, size, relative * size + 16.0 * np.finfo(float).eps * magnitude


def all_behind(vertices, corners_idx, pts, relative: float = 1e-10) -> bool:
    """Every point of pts is behind or on every face plane of the closed convex surface corners_idx (up to the
    tolerance of `_frame`), in chunks of planes."""
    corners = vertices[corners_idx]
    centre, _, tol = _frame(corners.reshape(-1, 3), relative)
    a = corners[:, 0] - centre
    n = row_cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.sqrt(row_dot(n, n))
    n = n / np.where(length > 0.0, length, 1.0)[:, None]
    sign = 1.0 if float(row_dot(a, row_cross(corners[:, 1] - centre, corners[:, 2] - centre)).sum()) >= 0.0 else -1.0
    p = pts - centre
    for start in range(0, n.shape[0], 4096):
        sl = slice(start, start + 4096)
        h = (p @ n[sl].T - row_dot(a[sl], n[sl])) * sign
        if h.max() > tol:
            return False
    return True


def _vertex_group(corners_idx, label, n):
    """Group of each vertex position index (0 for the unused ones)."""
    group = np.zeros(n, np.int64)
    group[corners_idx.reshape(-1)] = np.repeat(label, 3)
    return group


REFLEX_SAMPLE = 64
"""`convexity_proper` first looks at the edges of REFLEX_SAMPLE triangles spread over a single group (see
`_reflex_both_ways`)."""


def _reflex_both_ways(vertices, corners_idx, twin, a, b, c, centre, tol) -> bool:
    """Do the edges of a sample of the triangles (one group, its twins all found) show a far corner in front of a
    face's plane by more than `tol` and another behind one by more than `tol`?  The heights are
    `convexity_proper`'s own numbers for those rows (the same subtractions, products and sums), so whichever
    orientation the volume gives the surface, one of them is over the tolerance there: the group is not convex,
    and the full test, a conjunction that includes these very rows, says so too."""
    k = corners_idx.shape[0]
    if k <= REFLEX_SAMPLE:
        return False
    rows = np.arange(0, k, k // REFLEX_SAMPLE)
    a, b, c = a[rows] - centre, b[rows] - centre, c[rows] - centre
    normal = row_cross(b - a, c - a)
    length = np.sqrt(row_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    twin = twin.reshape(-1, 3)[rows].reshape(-1)
    far = corners_idx.reshape(-1)[twin - twin % 3 + (twin + 2) % 3].reshape(-1, 3)
    height = np.zeros(far.shape)
    for axis in range(3):
        height += ((np.take(vertices[:, axis], far) - centre[axis]) - a[:, axis, None]) * unit[:, axis, None]
    return bool(height.max() > tol and -height.min() > tol)


def convexity_proper(vertices, corners_idx, topo, label, count, faces, relative: float = 1e-10, pairing=None):
    n = int(topo.max()) + 1
    if faces is None:
        faces = np.bincount(label, minlength=count)
    vert_group = np.full(n, -1)
    vert_group[topo.reshape(-1)] = np.repeat(label, 3)
    used_v = vert_group >= 0
    vcount = np.bincount(vert_group[used_v], minlength=count)
    convex = (faces > 0) & (faces % 2 == 0) & (vcount - faces // 2 == 2)  # V - E + F = 2 with E = 3F / 2
    if not np.any(convex):
        return convex
    eu, ev, owner, twin, ok = edge_twins(topo, n) if pairing is None else pairing
    convex &= np.bincount(label[owner[~ok]], minlength=count) == 0
    if not np.any(convex):
        return convex
    # np.take: a faster row gather than indexing (same values)
    a = np.take(vertices, corners_idx[:, 0], axis=0)
    b = np.take(vertices, corners_idx[:, 1], axis=0)
    c = np.take(vertices, corners_idx[:, 2], axis=0)
    lo = np.full((count, 3), np.inf)
    hi = np.full((count, 3), -np.inf)
    if count == 1:  # one group (a hull triangulation): plain reductions, no scatter by label
        for axis in range(3):  # one contiguous reduction per column (a (k, 3) reduction along axis 0 is slow)
            lo[0, axis] = min(float(corner[:, axis].min()) for corner in (a, b, c))
            hi[0, axis] = max(float(corner[:, axis].max()) for corner in (a, b, c))
    else:
        for axis in range(3):
            np.minimum.at(lo[:, axis], label, np.minimum(np.minimum(a[:, axis], b[:, axis]), c[:, axis]))
            np.maximum.at(hi[:, axis], label, np.maximum(np.maximum(a[:, axis], b[:, axis]), c[:, axis]))
    # each group in its own frame (centred on its box), with a tolerance relative to its own size plus the
    # rounding of its coordinates: far from the origin the volume and the heights keep their precision
    magnitude = np.maximum(np.abs(lo), np.abs(hi)).max(axis=1)
    tol = relative * np.sqrt(((hi - lo) ** 2).sum(axis=1)) + 16.0 * np.finfo(float).eps * magnitude
    centre = 0.5 * (lo + hi)
    if count == 1 and _reflex_both_ways(vertices, corners_idx, twin, a, b, c, centre[0], tol[0]):
        return np.zeros(1, bool)
    if count == 1:  # the same subtraction, broadcast instead of gathered per row
        vertices, a, b, c = vertices - centre[0], a - centre[0], b - centre[0], c - centre[0]
    else:
        vertices = vertices - centre[_vertex_group(corners_idx, label, vertices.shape[0])]
        a = a - centre[label]
        b = b - centre[label]
        c = c - centre[label]
    six = row_dot(a, row_cross(b, c))
    vol = np.bincount(label, weights=six, minlength=count)
    convex &= vol != 0.0
    sign = np.where(vol >= 0.0, 1.0, -1.0)
    ab, bc, ca = b - a, c - b, a - c
    normal = row_cross(ab, c - a)
    length = np.sqrt(row_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    # edge (u, v) of triangle f: the far corner of the twin triangle (the corner after the twin edge's end) must
    # not be in front of f's plane.  Row 3 f + i of the pairing is corner i's edge of triangle f (`edge_twins`),
    # so the heights are laid out (k, 3) and computed one coordinate column at a time (`row_dot`'s order of sums)
    far = corners_idx.reshape(-1)[twin - twin % 3 + (twin + 2) % 3].reshape(-1, 3)
    height = np.zeros(far.shape)
    for axis in range(3):
        height += (np.take(vertices[:, axis], far) - a[:, axis, None]) * unit[:, axis, None]
    height *= sign[label][:, None]
    over_edge = np.flatnonzero(height > tol[label][:, None])
    convex &= np.bincount(label[owner[over_edge]], minlength=count) == 0
    if not np.any(convex):  # every group has a reflex edge: the angle sums would change nothing
        return convex
    # face angles around each vertex sum to at most 2 pi; a triangle's corner angle is atan2(|e1 x e2|, e1 . e2)
    # with e1, e2 its two edges from the corner, and |e1 x e2| is twice the area at every corner: `length`
    dots = np.stack([-row_dot(ab, ca), -row_dot(bc, ab), -row_dot(ca, bc)], axis=1)
    angle = np.arctan2(np.broadcast_to(length[:, None], dots.shape), dots)
    total = np.bincount(topo.reshape(-1), weights=angle.reshape(-1), minlength=n)
    over = used_v & (total > 2.0 * math.pi + 1e-9)
    convex &= np.bincount(vert_group[over], minlength=count) == 0
    # guard against rounding: each group's vertices against up to 64 of its face planes
    for group in np.flatnonzero(convex):
        rows = np.flatnonzero(label == group) if count > 1 else np.arange(label.size)
        pick = rows[np.linspace(0, rows.size - 1, min(64, rows.size)).astype(np.int64)]
        used = np.zeros(vertices.shape[0], bool)
        used[corners_idx[rows].reshape(-1)] = True
        pts = vertices[used]
        # (p . u - offset) x sign, largest over the points first: subtracting and negating keep the order
        toward = unit[pick] * sign[group]
        if ((toward @ pts.T).max(axis=1) - row_dot(a[pick], toward)).max() > tol[group]:
            convex[group] = False
    return convex
