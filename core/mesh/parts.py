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

__all__ = ["loose_parts", "volume", "is_convex"]


class _Parts:
    """Per-triangle part labels and per-part facts of one mesh's local data."""

    def __init__(self, local):
        welded = local.welded
        proper = local.proper
        m = welded.shape[0]
        n = int(welded.max()) + 1
        parent = np.arange(n)
        u = np.concatenate([welded[:, 0], welded[:, 1]])
        v = np.concatenate([welded[:, 1], welded[:, 2]])
        while True:  # hook the larger root onto the smaller, then jump pointers until stable
            pu, pv = parent[u], parent[v]
            differ = pu != pv
            if not np.any(differ):
                break
            lo = np.minimum(pu[differ], pv[differ])
            hi = np.maximum(pu[differ], pv[differ])
            np.minimum.at(parent, hi, lo)
            while True:
                jumped = parent[parent]
                if np.array_equal(jumped, parent):
                    break
                parent = jumped
        root = parent[welded[:, 0]]
        roots, label = np.unique(root, return_inverse=True)
        self.label = label.reshape(-1)
        self.count = roots.size
        self.triangle_count = np.bincount(self.label, minlength=self.count)

        # closedness per part: each directed edge of a proper triangle unique, and its reverse present
        tri_idx = np.flatnonzero(proper)
        t = welded[tri_idx]
        eu = t.reshape(-1)
        ev = t[:, [1, 2, 0]].reshape(-1)
        owner = np.repeat(tri_idx, 3)
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
        twin_ok = sk[pos] == rev if sk.size else np.zeros(0, bool)
        bad |= ~twin_ok
        bad_count = np.bincount(self.label[owner[bad]], minlength=self.count)
        proper_count = np.bincount(self.label[tri_idx], minlength=self.count)
        self.closed = (bad_count == 0) & (proper_count > 0)
        self._edges = (eu, ev, owner, order, sk, pos, twin_ok)
        self._local = local
        self._convex = None

    def triangles_of(self, part: int) -> np.ndarray:
        return np.flatnonzero(self.label == part)

    @property
    def convex(self) -> np.ndarray:
        if self._convex is None:
            self._convex = _convex_parts(self)
        return self._convex

    def local_volume(self) -> np.ndarray:
        v = self._local.vertices
        t = self._local.triangles
        a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
        six = np.einsum("ij,ij->i", a, np.cross(b, c))
        return np.bincount(self.label, weights=six, minlength=self.count) / 6.0


def _part_labels(local) -> _Parts:
    return _Parts(local)


def _convex_parts(parts: _Parts) -> np.ndarray:
    local = parts._local
    verts = local.vertices
    tris = local.triangles
    welded = local.welded
    count = parts.count
    convex = parts.closed.copy()
    if not np.any(convex):
        return convex
    label = parts.label
    proper = local.proper
    tri_idx = np.flatnonzero(proper)
    eu, ev, owner, order, sk, pos, twin_ok = parts._edges
    # Euler characteristic on welded vertices of proper triangles
    t = welded[tri_idx]
    lab = label[tri_idx]
    faces = np.bincount(lab, minlength=count)
    vert_part = np.full(int(welded.max()) + 1, -1)
    vert_part[t.reshape(-1)] = np.repeat(lab, 3)
    used_v = vert_part >= 0
    vcount = np.bincount(vert_part[used_v], minlength=count)
    euler = vcount - faces * 3 // 2 + faces
    convex &= (euler == 2) & (faces * 3 % 2 == 0)
    # orientation per part (closed parts only matter)
    vol = parts.local_volume()
    sign = np.where(vol >= 0.0, 1.0, -1.0)
    convex &= vol != 0.0
    # part sizes for the tolerance
    corners = verts[tris]
    lo = np.full((count, 3), np.inf)
    hi = np.full((count, 3), -np.inf)
    for axis in range(3):
        np.minimum.at(lo[:, axis], label, corners[:, :, axis].min(axis=1))
        np.maximum.at(hi[:, axis], label, corners[:, :, axis].max(axis=1))
    size = np.sqrt(((hi - lo) ** 2).sum(axis=1))
    tol = 1e-10 * size
    # edge convexity: for directed edge (u, v) of triangle f, the twin triangle g (holding (v, u)) has a far
    # corner w; w must not be in front of f's plane.
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    normal = np.cross(b - a, c - a)
    length = np.sqrt(np.einsum("ij,ij->i", normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    if twin_ok.size:
        twin_tri = owner[order[pos]]
        far = welded[twin_tri].sum(axis=1) - eu - ev  # the third welded corner of the twin
        # the far corner's position: any original vertex welded to it; use the twin's own corner
        twin_corners = welded[twin_tri]
        which = np.argmax(twin_corners == far[:, None], axis=1)
        far_point = verts[tris[twin_tri, which]]
        height = np.einsum("ij,ij->i", far_point - a[owner], unit[owner]) * sign[label[owner]]
        bad = twin_ok & (height > tol[label[owner]])
        convex &= np.bincount(label[owner[bad]], minlength=count) == 0
    # angle sums at each welded vertex
    angles = []
    for i in range(3):
        p = corners[:, i]
        e1 = corners[:, (i + 1) % 3] - p
        e2 = corners[:, (i + 2) % 3] - p
        cross = np.sqrt(np.einsum("ij,ij->i", np.cross(e1, e2), np.cross(e1, e2)))
        angles.append(np.arctan2(cross, np.einsum("ij,ij->i", e1, e2)))
    angle = np.stack(angles, axis=1)[tri_idx].reshape(-1)
    total = np.bincount(t.reshape(-1), weights=angle, minlength=vert_part.size)
    over = used_v & (total > 2.0 * math.pi + 1e-9)
    convex &= np.bincount(vert_part[over], minlength=count) == 0
    # guard: each part's vertices against up to 64 of its face planes
    for part in np.flatnonzero(convex):
        faces_k = tri_idx[lab == part]
        pick = faces_k[np.linspace(0, faces_k.size - 1, min(64, faces_k.size)).astype(np.int64)]
        pts = verts[np.unique(tris[faces_k])]
        heights = (pts @ unit[pick].T - np.einsum("ij,ij->i", a[pick], unit[pick])) * sign[part]
        if heights.max() > tol[part]:
            convex[part] = False
    return convex


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
    local = float(mesh._local.parts.local_volume().sum())
    det = 1.0 if mesh._linear is None else float(np.linalg.det(mesh._linear))
    return local * det


def is_convex(mesh) -> bool:
    """True when the mesh is one closed, exactly convex part (see the module docstring)."""
    parts = mesh._local.parts
    return parts.count == 1 and bool(parts.convex[0])
