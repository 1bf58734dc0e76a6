"""Loose parts, enclosed volume and exact convexity of triangle meshes (vectorised over all parts at once).

- A loose part is a connected component of triangles sharing a vertex, after welding exactly equal positions
  (so a mesh split along UV seams is still one part).  Unreferenced vertices belong to no part.
- Volume: the signed volume sum of a . (b x c) / 6 over the triangles (positive for a closed mesh whose faces
  point outwards), times det of the transform in world units.  Only meaningful for closed parts.
- Convex: a part is exactly convex when it passes core/topology.py's exact convexity test (closed, of genus 0,
  every edge convex, the face angles around every vertex at most 2 pi; then its volume equals its hull's).
  Convexity is affine-invariant, so it is decided once in local coordinates and holds for every transform.
"""
from __future__ import annotations

import numpy as np

from ..rows import row_cross, row_dot
from ..topology import convexity

__all__ = ["loose_parts", "loose_part_count", "volume", "is_convex"]


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
    def convex_known(self) -> bool:
        """Is `convex` worked out already (asking for it costs nothing more)?"""
        return self._convex is not None

    @property
    def convex(self) -> np.ndarray:
        """(count,) bool: the part is closed and exactly convex."""
        if self._convex is None and self.count == 1:
            self._convex = np.array([bool(self._local.cached(
                "convex", lambda: np.bool_(_whole_is_convex(self._local))))])
        if self._convex is None:
            local = self._local
            proper = local.proper
            self._convex = convexity(local.vertices, local.triangles[proper], local.welded[proper],
                                      self.label[proper], self.count)
        return self._convex


def part_labels(local) -> _Parts:
    """The loose parts of a `LocalMesh` (core/mesh/trimesh.py): labels, counts and per-part convexity."""
    return _Parts(local)


def _whole_is_convex(local) -> bool:
    """The whole mesh is one closed, exactly convex surface (decided without computing components: a closed
    locally convex surface has V - E + F = 2 per component, so a total of 2 means one component)."""
    if not local.closed:
        return False
    t = local.triangles
    pairing = None
    if local.raw_closed:
        proper = local.topology.raw_proper
        topo = t[proper]
        # cheap first test: one closed convex surface has V - E + F = 2 (a torus, a crate, two parts fail here)
        used = np.count_nonzero(np.bincount(topo.reshape(-1)))
        if topo.shape[0] % 2 or used - topo.shape[0] // 2 != 2:
            return False
        pairing = local.topology.raw_pairing  # the same edge_twins(topo, ...), shared by equal triangles
    else:
        proper = local.proper
        topo = local.welded[proper]
    return bool(convexity(local.vertices, t[proper], topo, np.zeros(topo.shape[0], np.int64), 1,
                          pairing=pairing)[0])


def loose_parts(mesh, which=None) -> list:
    """The loose parts of a `TriangleMesh` as TriangleMeshes (same transform), in order of first triangle;
    `which`: only the parts of these numbers (in that order), the others not built."""
    parts = mesh._local.parts
    order = np.argsort(parts.label, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(parts.triangle_count)])
    numbered = np.argsort(order[bounds[:-1]], kind="stable")  # the label of part k: by first triangle
    if which is not None:
        numbered = numbered[np.asarray(which, np.int64)]
    result = []
    for k in numbered:
        tris = mesh.triangles[order[bounds[k]:bounds[k + 1]]]
        used, remap = np.unique(tris, return_inverse=True)
        result.append(type(mesh)(mesh.vertices[used], remap.reshape(-1, 3), mesh.transform))
    return result


def loose_part_count(mesh) -> int:
    """How many loose parts a `TriangleMesh` has (`len(loose_parts(mesh))`, without building them)."""
    return int(mesh._local.parts.count)


def volume(mesh) -> float:
    """Signed enclosed volume in world units (positive for outward faces; meaningful for closed meshes)."""
    v, t = mesh.vertices, mesh.triangles
    local = float(row_dot(v[t[:, 0]], row_cross(v[t[:, 1]], v[t[:, 2]])).sum()) / 6.0
    det = 1.0 if mesh._linear is None else float(np.linalg.det(mesh._linear))
    return local * det


def is_convex(mesh) -> bool:
    """True when the mesh is one closed, exactly convex part (see the module docstring)."""
    return bool(mesh._local.cached("convex", lambda: np.bool_(_whole_is_convex(mesh._local))))

