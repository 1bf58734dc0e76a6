"""`TriangleMesh`: a non-convex surface given by vertices, triangles and a 4x4 affine transform.

What each legal-but-odd input means (documented once, here):
- degenerate triangles (zero area, collinear or repeated corners) are kept as the point sets they are (a segment
  or a point): they count for distances, never cross anything and add nothing to inside/outside;
- duplicate vertices (the same position under two indices) are welded for topology (closedness, loose parts) and
  are harmless for geometry; unreferenced vertices are ignored (they are not part of the surface);
- non-manifold edges, open surfaces and self-intersecting meshes are legal; only a *closed* mesh has an inside.

Closed means: after welding exactly equal positions and ignoring triangles with a repeated corner index, every
directed edge (u, v) of the triangles is matched by as many reverse edges (v, u) (the surface has no boundary: the
usual case is each edge shared by two oppositely oriented triangles; a doubled zero-area sliver, whose edges cancel
in pairs, or a collinear sliver filling a T-junction keeps a mesh closed, and so does a non-manifold edge shared by
two such pairs).  On such a surface the winding number is an integer everywhere off the surface.  Inside a closed mesh = a non-zero winding number (so a mesh
whose faces all point inwards still has an inside; see `core/mesh/points.py`).

The local data (validated arrays, welded indices, the bounding volume hierarchy, loose parts) lives in one
`_LocalData` object that `moved()` shares, so live re-checks of a mesh in a new pose rebuild nothing.  What
depends on the triangles alone (the referenced vertices, closedness on the given indices, the pairing of directed
edges) is kept in a `_Topology` shared by every mesh built with equal triangles (`_topology`: a few recent ones),
so the frames of a deforming mesh, new vertices on the same triangles, derive it once.
"""
from __future__ import annotations

import hashlib
import zlib
from collections import OrderedDict

import numpy as np

from ..shapes import as_matrix, as_transform, as_vertices
from ..topology import edge_twins, weld
from ..rows import add_rows
from .bvh import LocalBVH
from .parts import part_labels

__all__ = ["TriangleMesh"]


def _as_triangles(triangles, vertex_count: int) -> np.ndarray:
    if isinstance(triangles, np.ndarray) and triangles.dtype.kind not in "iuf":
        raise ValueError(f"triangles must be integer vertex indices, got an array of dtype {triangles.dtype}")
    try:
        array = np.asarray(triangles)
    except (TypeError, ValueError):
        raise ValueError("triangles must be an (m, 3) array of integer vertex indices") from None
    if array.dtype.kind not in "iuf" or array.dtype == np.bool_:
        raise ValueError(f"triangles must be integer vertex indices, got values of dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"triangles must have shape (m, 3), got {array.shape}")
    if array.shape[0] == 0:
        raise ValueError("triangles is empty: no triangles, a mesh needs at least one")
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)):
            raise ValueError("triangles contains NaN or infinite indices")
        if not np.all(array == np.round(array)):
            raise ValueError("triangles must hold integer vertex indices (found non-integer values)")
    array = array.astype(np.int64)
    if array.min() < 0:
        raise ValueError(f"triangles contains a negative vertex index ({int(array.min())})")
    if array.max() >= vertex_count:
        raise ValueError(f"triangles refers to vertex {int(array.max())}, but there are only {vertex_count} "
                         f"vertices (index out of range)")
    return np.ascontiguousarray(array)


def _distinct_corners(t: np.ndarray) -> np.ndarray:
    """Mask of the (m, 3) index triangles whose three corners are three different indices."""
    return (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 2] != t[:, 0])


class _Lazy:
    """Values built on first use and kept (`cached(key, build)`)."""

    def __init__(self):
        self._cache: dict = {}

    def cached(self, key, build):
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = build()
        return value


class _Topology(_Lazy):
    """What follows from the (validated, read-only) triangles alone, built lazily: shared by meshes whose triangles
    are equal, whatever their vertices."""

    def __init__(self, triangles: np.ndarray):
        super().__init__()
        self.triangles = triangles

    @property
    def used(self) -> np.ndarray:
        """Indices of the referenced vertices, sorted."""
        return self.cached("used", lambda: np.flatnonzero(np.bincount(self.triangles.reshape(-1))))

    @property
    def raw_proper(self) -> np.ndarray:
        """Mask of triangles whose three given corner indices differ."""
        return self.cached("raw proper", lambda: _distinct_corners(self.triangles))

    @property
    def raw_closed(self) -> bool:
        return self.cached("raw closed", lambda: np.bool_(_is_closed(self.triangles[self.raw_proper])))

    @property
    def raw_pairing(self):
        """`core.topology.edge_twins` of the raw proper triangles (on as many indices as they use)."""
        def build():
            topo = self.triangles[self.raw_proper]
            pairing = edge_twins(topo, int(topo.max()) + 1)
            for array in pairing:
                array.setflags(write=False)  # shared by every mesh with these triangles
            return pairing
        return self.cached("raw pairing", build)


_TOPOLOGIES: OrderedDict = OrderedDict()
_KEEP = 8
"""How many recent topologies `_topology` keeps ..."""
_KEEP_TRIANGLES = 500_000
"""... and how many triangles in all beyond the newest (each keeps its pairing, about 100 bytes a triangle, after
its meshes are gone)."""


def _topology(triangles: np.ndarray) -> _Topology:
    """The shared `_Topology` of equal triangles (found by a digest of their bytes, confirmed element by element)."""
    key = (triangles.shape[0], hashlib.blake2b(memoryview(triangles), digest_size=16).digest())
    found = _TOPOLOGIES.get(key)
    if found is not None and np.array_equal(found.triangles, triangles):
        _TOPOLOGIES.move_to_end(key)
        return found
    found = _TOPOLOGIES[key] = _Topology(triangles)
    while len(_TOPOLOGIES) > 1 and (len(_TOPOLOGIES) > _KEEP
                                    or sum(count for count, _ in _TOPOLOGIES) > _KEEP_TRIANGLES):
        _TOPOLOGIES.popitem(last=False)
    return found


class _LocalData(_Lazy):
    """Validated local arrays and everything derived from them alone (built lazily, shared by moved()); what
    follows from the triangles alone comes from `topology`, shared by every mesh with equal triangles."""

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray):
        super().__init__()
        self.vertices = vertices
        self.topology = _topology(triangles)
        self.triangles = self.topology.triangles

    @property
    def used(self) -> np.ndarray:
        """Indices of the referenced vertices, sorted."""
        return self.topology.used

    @property
    def welded(self) -> np.ndarray:
        """(m, 3) triangles on welded indices (one index per distinct position)."""
        def build():
            rows, inverse = weld(self.vertices)
            self._cache["weld merges"] = np.bool_(rows.shape[0] < self.vertices.shape[0])
            return inverse[self.triangles]
        return self.cached("welded", build)

    @property
    def weld_merges(self) -> bool:
        """Some two vertices share a position (else `welded` is the triangles under a one-to-one relabelling, and
        every pairing of their edges is `topology.raw_pairing`'s)."""
        merges = self._cache.get("weld merges")
        if merges is None:
            merges = self._cache["weld merges"] = np.bool_(weld(self.vertices)[0].shape[0] < self.vertices.shape[0])
        return bool(merges)

    @property
    def raw_closed(self) -> bool:
        """Closed on the given indices, without welding (then welding is never needed for closedness)."""
        return bool(self.topology.raw_closed)

    @property
    def proper(self) -> np.ndarray:
        """Mask of triangles whose three welded corner indices differ."""
        return self.cached("proper", lambda: _distinct_corners(self.welded))

    @property
    def closed(self) -> bool:
        def build():
            # closed on the given indices already (the usual case): welding is not needed
            return np.bool_(self.raw_closed or _is_closed(self.welded[self.proper]))
        return self.cached("closed", build)

    @property
    def bvh(self):
        return self.cached("bvh", lambda: LocalBVH(self.vertices, self.triangles))

    @property
    def parts(self):
        return self.cached("parts", lambda: part_labels(self))


def _is_closed(tris: np.ndarray) -> bool:
    """Every directed edge u -> v is matched by as many v -> u (see the module docstring)."""
    if tris.shape[0] == 0:
        return False
    u = tris.reshape(-1)
    v = tris[:, [1, 2, 0]].reshape(-1)
    n = int(max(u.max(), v.max())) + 1
    low, high = np.minimum(u, v), np.maximum(u, v)
    key = low * n + high
    sign = np.where(u < v, 1, -1)
    order = np.argsort(key, kind="stable")
    sk = key[order]
    starts = np.flatnonzero(np.concatenate([[True], sk[1:] != sk[:-1]]))
    balance = np.add.reduceat(sign[order], starts)
    return bool(np.all(balance == 0))


class TriangleMesh:
    """A triangle surface: (n, 3) float `vertices`, (m, 3) integer `triangles`, optional 4x4 affine `transform`.

    Raises ValueError on bad input: wrong shapes, NaN or infinite coordinates, non-integer, negative or
    out-of-range indices, no triangles, a bad transform.  See the module docstring for what degenerate triangles,
    duplicate or unreferenced vertices, non-manifold edges and open surfaces mean."""

    def __init__(self, vertices, triangles, transform=None):
        verts = as_vertices(vertices, "vertices").copy()
        verts.setflags(write=False)
        tris = _as_triangles(triangles, verts.shape[0])
        tris.setflags(write=False)
        self._local = _LocalData(verts, tris)
        self._linear, self._translation = as_transform(transform)
        self._bounds = None
        self._checksums = None
        self._turned = None

    # ------------------------------------------------------------------ data
    @property
    def vertices(self) -> np.ndarray:
        """(n, 3) local vertices (read-only)."""
        return self._local.vertices

    @property
    def triangles(self) -> np.ndarray:
        """(m, 3) int64 vertex indices (read-only)."""
        return self._local.triangles

    @property
    def transform(self) -> np.ndarray:
        """The 4x4 affine placement (a new array)."""
        return as_matrix(self._linear, self._translation)

    @property
    def is_closed(self) -> bool:
        """True when every directed edge is matched by as many reverse edges (after welding equal positions and
        ignoring triangles with a repeated corner; see the module docstring).  Only a closed mesh has an inside."""
        return bool(self._local.closed)

    def moved(self, transform) -> "TriangleMesh":
        """The same mesh (same local data, hierarchy and caches, nothing re-validated) placed with `transform`."""
        clone = object.__new__(TriangleMesh)
        clone._local = self._local
        clone._linear, clone._translation = as_transform(transform)
        clone._bounds = None
        clone._checksums = None
        clone._turned = None
        return clone

    # ------------------------------------------------------------------ geometry
    def world_vertices(self, origin=None) -> np.ndarray:
        """(n, 3) float64 vertices with the transform applied, minus `origin` (a frame origin; translation minus
        origin is formed first, so a mesh far from the world origin keeps its precision near `origin`)."""
        offset = self._translation if origin is None else self._translation - np.asarray(origin, np.float64)
        return add_rows(self._local.vertices if self._linear is None else self._turned_vertices(), offset)

    def _turned_vertices(self) -> np.ndarray:
        """(n, 3) local vertices times the linear part (once per placed mesh: its bounds and its world vertices in
        every frame share the product)."""
        if self._turned is None:
            self._turned = self._local.vertices @ self._linear.T
        return self._turned

    def checksums(self) -> tuple[int, int]:
        """crc32 of the world vertices' bytes and of the triangles' (computed once for this placed mesh): with the
        counts, the key of a pair's canonical order (core/mesh/depth_interval.py `in_canonical_order`)."""
        if self._checksums is None:
            triangles = self._local.triangles
            self._checksums = (zlib.crc32(np.ascontiguousarray(self.world_vertices()).tobytes()),
                               zlib.crc32(np.ascontiguousarray(triangles).tobytes()))
        return self._checksums

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """World axis-aligned box (lo, hi) of the referenced vertices."""
        if self._bounds is None:
            def extremes(linear):
                local = self._local
                if linear is not None and local.cached("all used", lambda: bool(
                        np.array_equal(local.used, np.arange(local.vertices.shape[0])))):
                    v = self._turned_vertices()  # every vertex used: the same rows as the product of the used ones
                else:
                    v = local.vertices[local.used]
                    if linear is not None:
                        v = v @ linear.T
                return (np.array([v[:, 0].min(), v[:, 1].min(), v[:, 2].min()]),
                        np.array([v[:, 0].max(), v[:, 1].max(), v[:, 2].max()]))
            # without a linear part the extremes are the local ones, kept with the local data (every pose of a
            # moved mesh shares them)
            lo, hi = extremes(self._linear) if self._linear is not None else \
                self._local.cached("used extremes", lambda: extremes(None))
            self._bounds = (lo + self._translation, hi + self._translation)
        return self._bounds

    def __repr__(self) -> str:
        return f"TriangleMesh({self.vertices.shape[0]} vertices, {self.triangles.shape[0]} triangles)"
