"""Loose parts, enclosed volume and exact convexity of triangle meshes (vectorised over all parts at once).

- A loose part is a connected component of triangles sharing a vertex, after welding exactly equal positions
  (so a mesh split along UV seams is still one part).  Unreferenced vertices belong to no part.
- Volume: the signed volume sum of a . (b x c) / 6 over the triangles (positive for a closed mesh whose faces
  point outwards), times det of the transform in world units.  Only meaningful for closed parts.
- Convex: a part is exactly convex when it is closed, has the topology of a sphere (V - E + F = 2 on welded
  vertices), every edge is convex (the far corner of the neighbouring triangle is not in front of a triangle's
  plane, beyond 1e-10 x the part's size), and the face angles around every vertex sum to at most 2 pi: a closed
  locally convex surface of genus 0 bounds a convex body (then its volume equals its hull's).  As a cheap guard
  against rounding, every vertex is also checked against up to 64 of the part's face planes.  Convexity is
  affine-invariant, so it is decided once in local coordinates and holds for every transform.
"""
from __future__ import annotations

import math

import numpy as np

from .tritri import _cross, _dot

__all__ = ["loose_parts", "volume", "is_convex"]


def _edge_twins(topo: np.ndarray, n: int):
    """Directed edges of triangles `topo` (k, 3) on n indices: (eu, ev, owner row, twin row, ok), where ok says
    the edge is used once and its reverse exactly once (then twin row is the triangle holding the reverse)."""
    eu = topo.reshape(-1)
    ev = topo[:, [1, 2, 0]].reshape(-1)
    owner = np.repeat(np.arange(topo.shape[0]), 3)
    key = eu * n + ev
    order = np.argsort(key, kind="stable")
    sk = key[order]
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
    return eu, ev, owner, owner[order[pos]], ok


def _convexity(vertices, corners_idx, topo, label, count):
    """Exact convexity of each labelled group of triangles (see the module docstring).

    vertices: local positions; corners_idx (k, 3): vertex indices of the proper triangles (positions);
    topo (k, 3): their welded indices (topology); label (k,): group of each triangle."""
    n = int(topo.max()) + 1
    faces = np.bincount(label, minlength=count)
    vert_group = np.full(n, -1)
    vert_group[topo.reshape(-1)] = np.repeat(label, 3)
    used_v = vert_group >= 0
    vcount = np.bincount(vert_group[used_v], minlength=count)
    convex = (faces > 0) & (faces % 2 == 0) & (vcount - faces // 2 == 2)  # V - E + F = 2 with E = 3F / 2
    if not np.any(convex):
        return convex
    eu, ev, owner, twin, ok = _edge_twins(topo, n)
    convex &= np.bincount(label[owner[~ok]], minlength=count) == 0
    if not np.any(convex):
        return convex
    a = vertices[corners_idx[:, 0]]
    b = vertices[corners_idx[:, 1]]
    c = vertices[corners_idx[:, 2]]
    six = _dot(a, _cross(b, c))
    vol = np.bincount(label, weights=six, minlength=count)
    convex &= vol != 0.0
    sign = np.where(vol >= 0.0, 1.0, -1.0)
    lo = np.full((count, 3), np.inf)
    hi = np.full((count, 3), -np.inf)
    for axis in range(3):
        np.minimum.at(lo[:, axis], label, np.minimum(np.minimum(a[:, axis], b[:, axis]), c[:, axis]))
        np.maximum.at(hi[:, axis], label, np.maximum(np.maximum(a[:, axis], b[:, axis]), c[:, axis]))
    tol = 1e-10 * np.sqrt(((hi - lo) ** 2).sum(axis=1))
    normal = _cross(b - a, c - a)
    length = np.sqrt(_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    # edge (u, v) of triangle f: the far corner of the twin triangle must not be in front of f's plane
    far_topo = topo[twin].sum(axis=1) - eu - ev
    which = np.argmax(topo[twin] == far_topo[:, None], axis=1)
    far_point = vertices[corners_idx[twin, which]]
    height = _dot(far_point - a[owner], unit[owner]) * sign[label[owner]]
    convex &= np.bincount(label[owner[height > tol[label[owner]]]], minlength=count) == 0
    # face angles around each vertex sum to at most 2 pi
    total = np.zeros(n)
    for i in range(3):
        p = (a, b, c)[i]
        e1 = (a, b, c)[(i + 1) % 3] - p
        e2 = (a, b, c)[(i + 2) % 3] - p
        cr = _cross(e1, e2)
        total += np.bincount(topo[:, i], weights=np.arctan2(np.sqrt(_dot(cr, cr)), _dot(e1, e2)), minlength=n)
    over = used_v & (total > 2.0 * math.pi + 1e-9)
    convex &= np.bincount(vert_group[over], minlength=count) == 0
    # guard against rounding: each group's vertices against up to 64 of its face planes
    for group in np.flatnonzero(convex):
        rows = np.flatnonzero(label == group) if count > 1 else np.arange(label.size)
        pick = rows[np.linspace(0, rows.size - 1, min(64, rows.size)).astype(np.int64)]
        pts = vertices[np.unique(corners_idx[rows])]
        heights = (pts @ unit[pick].T - _dot(a[pick], unit[pick])) * sign[group]
        if heights.max() > tol[group]:
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

