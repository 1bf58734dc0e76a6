"""Loose parts, enclosed volume and exact convexity of triangle meshes (vectorised over all parts at once).

- A loose part is a connected component of triangles sharing a vertex, after welding exactly equal positions
  (so a mesh split along UV seams is still one part).  Unreferenced vertices belong to no part.
- Volume: the signed volume sum of a . (b x c) / 6 over the triangles (positive for a closed mesh whose faces
  point outwards), times det of the transform in world units.  Only meaningful for closed parts.
- Convex: a part is exactly convex when it is closed, has the topology of a sphere (V - E + F = 2 on welded
  vertices), every edge is convex (the far corner of the neighbouring triangle is not in front of a triangle's
  plane, beyond 1e-10 x the part's size plus the rounding of its coordinates), and the face angles around every
  vertex sum to at most 2 pi: a closed locally convex surface of genus 0 bounds a convex body (then its volume
  equals its hull's).  As a cheap guard against rounding, every vertex is also checked against up to 64 of the
  part's face planes.  All of it is measured in the part's own frame (centred on its box), so a part 1e6 from the
  origin is judged as well as one at it.  Zero-area triangles (collinear corners, like a doubled sliver whose edges
  cancel) are set aside: the rest must pass on its own, and their corners must lie inside the body it bounds.
  Convexity is affine-invariant, so it is decided once in local coordinates and holds for every transform.
"""
from __future__ import annotations

import math

import numpy as np

from .tritri import _cross, _dot

__all__ = ["loose_parts", "volume", "is_convex"]


def _ordered(major: np.ndarray, minor: np.ndarray, n: int) -> np.ndarray:
    """The stable order of rows by (major, minor), both in [0, n): two radix passes over 16-bit copies when n
    fits (numpy sorts 16-bit integers stably by radix, about 3x faster than sorting major * n + minor), else one
    stable sort of that key."""
    if n <= 1 << 16:
        first = np.argsort(minor.astype(np.uint16), kind="stable")
        return first[np.argsort(major.astype(np.uint16)[first], kind="stable")]
    return np.argsort(major * n + minor, kind="stable")


def _edge_twins(topo: np.ndarray, n: int):
    """Directed edges of triangles `topo` (k, 3) on n indices, row 3 t + i being the edge from corner i to corner
    i + 1 of triangle t: (eu, ev, owner triangle, twin row, ok), where ok says the edge is used once and its
    reverse exactly once (then twin row is the reverse's row, in triangle twin // 3)."""
    eu = topo.reshape(-1)
    ev = topo[:, [1, 2, 0]].reshape(-1)
    owner = np.repeat(np.arange(topo.shape[0]), 3)
    order = _ordered(eu, ev, n)
    sk = (eu * n + ev)[order]
    back = _ordered(ev, eu, n)
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


def _flat(vertices: np.ndarray, corners_idx: np.ndarray) -> np.ndarray:
    """Mask of triangles of zero area up to rounding (collinear corners: sine of the corner angle below 1e-10)."""
    a = np.take(vertices, corners_idx[:, 0], axis=0)  # np.take: a faster row gather than indexing
    e1 = np.take(vertices, corners_idx[:, 1], axis=0) - a
    e2 = np.take(vertices, corners_idx[:, 2], axis=0) - a
    cr = _cross(e1, e2)
    return _dot(cr, cr) <= 1e-20 * _dot(e1, e1) * _dot(e2, e2)


def _convexity(vertices, corners_idx, topo, label, count, relative: float = 1e-10, pairing=None):
    """Exact convexity of each labelled group of triangles (see the module docstring).

    vertices: local positions; corners_idx (k, 3): vertex indices of the proper triangles (positions);
    topo (k, 3): their welded indices (topology); label (k,): group of each triangle; pairing: `_edge_twins` of
    topo, when the caller has it already.  Triangles of zero area
    (collinear corners, such as a doubled sliver whose edges cancel) are set aside: the rest must be closed and
    convex on its own, and every corner of the set-aside ones must lie in the convex body it bounds."""
    flat = _flat(vertices, corners_idx)
    if np.any(flat):
        keep = ~flat
        convex = np.zeros(count, bool)
        if not np.any(keep):
            return convex
        convex = _convexity_proper(vertices, corners_idx[keep], topo[keep], label[keep], count,
                                   np.bincount(label[keep], minlength=count), relative)
        for group in np.flatnonzero(convex & (np.bincount(label[flat], minlength=count) > 0)):
            rows = np.flatnonzero(keep & (label == group))
            pts = vertices[np.unique(corners_idx[flat & (label == group)])]
            if pts.shape[0] > 4096 or not _all_behind(vertices, corners_idx[rows], pts, relative):
                convex[group] = False
        return convex
    return _convexity_proper(vertices, corners_idx, topo, label, count, None, relative, pairing)


def _frame(points: np.ndarray, relative: float = 1e-10):
    """(centre, size, tolerance) of a point set: heights are measured from the centre, with a tolerance of
    1e-10 x the set's size plus the rounding of its coordinates (far from the origin, a flat face's corners are
    only coplanar to a few ulps of their magnitude)."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = 0.5 * (lo + hi)
    size = float(np.sqrt(((hi - lo) ** 2).sum()))
    magnitude = float(np.abs(points).max())
    return centre, size, relative * size + 16.0 * np.finfo(float).eps * magnitude


def _all_behind(vertices, corners_idx, pts, relative: float = 1e-10) -> bool:
    """Every point of pts is behind or on every face plane of the closed convex surface corners_idx (up to the
    tolerance of `_frame`), in chunks of planes."""
    corners = vertices[corners_idx]
    centre, _, tol = _frame(corners.reshape(-1, 3), relative)
    a = corners[:, 0] - centre
    n = _cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.sqrt(_dot(n, n))
    n = n / np.where(length > 0.0, length, 1.0)[:, None]
    sign = 1.0 if float(_dot(a, _cross(corners[:, 1] - centre, corners[:, 2] - centre)).sum()) >= 0.0 else -1.0
    p = pts - centre
    for start in range(0, n.shape[0], 4096):
        sl = slice(start, start + 4096)
        h = (p @ n[sl].T - _dot(a[sl], n[sl])) * sign
        if h.max() > tol:
            return False
    return True


def _vertex_group(corners_idx, label, n):
    """Group of each vertex position index (0 for the unused ones)."""
    group = np.zeros(n, np.int64)
    group[corners_idx.reshape(-1)] = np.repeat(label, 3)
    return group


def _convexity_proper(vertices, corners_idx, topo, label, count, faces, relative: float = 1e-10, pairing=None):
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
    eu, ev, owner, twin, ok = _edge_twins(topo, n) if pairing is None else pairing
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
    if count == 1:  # the same subtraction, broadcast instead of gathered per row
        vertices, a, b, c = vertices - centre[0], a - centre[0], b - centre[0], c - centre[0]
    else:
        vertices = vertices - centre[_vertex_group(corners_idx, label, vertices.shape[0])]
        a = a - centre[label]
        b = b - centre[label]
        c = c - centre[label]
    six = _dot(a, _cross(b, c))
    vol = np.bincount(label, weights=six, minlength=count)
    convex &= vol != 0.0
    sign = np.where(vol >= 0.0, 1.0, -1.0)
    ab, bc, ca = b - a, c - b, a - c
    normal = _cross(ab, c - a)
    length = np.sqrt(_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    # edge (u, v) of triangle f: the far corner of the twin triangle (the corner after the twin edge's end) must
    # not be in front of f's plane.  Row 3 f + i of the pairing is corner i's edge of triangle f (`_edge_twins`),
    # so the heights are laid out (k, 3) and computed one coordinate column at a time (`_dot`'s order of sums)
    far = corners_idx.reshape(-1)[twin - twin % 3 + (twin + 2) % 3].reshape(-1, 3)
    height = np.zeros(far.shape)
    for axis in range(3):
        height += (np.take(vertices[:, axis], far) - a[:, axis, None]) * unit[:, axis, None]
    height *= sign[label][:, None]
    over_edge = np.flatnonzero(height > tol[label][:, None])
    convex &= np.bincount(label[owner[over_edge]], minlength=count) == 0
    # face angles around each vertex sum to at most 2 pi; a triangle's corner angle is atan2(|e1 x e2|, e1 . e2)
    # with e1, e2 its two edges from the corner, and |e1 x e2| is twice the area at every corner: `length`
    dots = np.stack([-_dot(ab, ca), -_dot(bc, ab), -_dot(ca, bc)], axis=1)
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
        if ((toward @ pts.T).max(axis=1) - _dot(a[pick], toward)).max() > tol[group]:
            convex[group] = False
    return convex


class _Parts:
    """Per-triangle part labels (connected by shared welded vertex) and per-part convexity of one mesh."""

    def __init__(self, local):
        welded = local.welded
        n = int(welded.max()) + 1
        parent = np.arange(n)
        u = np.concatenate([welded[:, 0], welded[:, 1]])
        v = np.concatenate([welded[:, 1], welded[:, 2]])
        while True:  # hook the larger root onto the smaller, then jump pointers until stable
            pu, pv = parent[u], parent[v]
            differ = pu != pv
            if not np.any(differ):
                break
            np.minimum.at(parent, np.maximum(pu[differ], pv[differ]), np.minimum(pu[differ], pv[differ]))
            while True:
                jumped = parent[parent]
                if np.array_equal(jumped, parent):
                    break
                parent = jumped
        roots, label = np.unique(parent[welded[:, 0]], return_inverse=True)
        self.label = label.reshape(-1)
        self.count = roots.size
        self.triangle_count = np.bincount(self.label, minlength=self.count)
        self._local = local
        self._convex = None

    @property
    def convex(self) -> np.ndarray:
        """(count,) bool: the part is closed and exactly convex."""
        if self._convex is None and self.count == 1:
            self._convex = np.array([bool(self._local.cached(
                "convex", lambda: np.bool_(_whole_is_convex(self._local))))])
        if self._convex is None:
            local = self._local
            proper = local.proper
            self._convex = _convexity(local.vertices, local.triangles[proper], local.welded[proper],
                                      self.label[proper], self.count)
        return self._convex


def _part_labels(local) -> _Parts:
    return _Parts(local)


def _whole_is_convex(local) -> bool:
    """The whole mesh is one closed, exactly convex surface (decided without computing components: a closed
    locally convex surface has V - E + F = 2 per component, so a total of 2 means one component)."""
    if not local.closed:
        return False
    t = local.triangles
    if local.raw_closed:
        proper = (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 2] != t[:, 0])
        topo = t[proper]
        # cheap first test: one closed convex surface has V - E + F = 2 (a torus, a crate, two parts fail here)
        used = np.count_nonzero(np.bincount(topo.reshape(-1)))
        if topo.shape[0] % 2 or used - topo.shape[0] // 2 != 2:
            return False
    else:
        proper = local.proper
        topo = local.welded[proper]
    return bool(_convexity(local.vertices, t[proper], topo, np.zeros(topo.shape[0], np.int64), 1)[0])


def loose_parts(mesh) -> list:
    """The loose parts of a `TriangleMesh` as TriangleMeshes (same transform), in order of first triangle."""
    from .trimesh import TriangleMesh

    parts = mesh._local.parts
    order = np.argsort(parts.label, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(parts.triangle_count)])
    first = np.array([order[bounds[k]] for k in range(parts.count)])
    result = []
    for k in np.argsort(first, kind="stable"):
        tris = mesh.triangles[order[bounds[k]:bounds[k + 1]]]
        used, remap = np.unique(tris, return_inverse=True)
        result.append(TriangleMesh(mesh.vertices[used], remap.reshape(-1, 3), mesh.transform))
    return result


def volume(mesh) -> float:
    """Signed enclosed volume in world units (positive for outward faces; meaningful for closed meshes)."""
    v, t = mesh.vertices, mesh.triangles
    local = float(_dot(v[t[:, 0]], _cross(v[t[:, 1]], v[t[:, 2]])).sum()) / 6.0
    det = 1.0 if mesh._linear is None else float(np.linalg.det(mesh._linear))
    return local * det


def is_convex(mesh) -> bool:
    """True when the mesh is one closed, exactly convex part (see the module docstring)."""
    return bool(mesh._local.cached("convex", lambda: np.bool_(_whole_is_convex(mesh._local))))

