"""`ConvexPolytope`: a point cloud that also knows a checked triangulation of its hull's boundary.

Every query treats it exactly as the `PointCloud` of its vertices; the triangulation (core/triangulation.py) only
lets EPA (core/epa.py) finish large deep pairs by the facet path (core/facet_depth.py) instead of expanding once per
vertex of M.  Views of plain point clouds with hulls made on first need are core/hull_views.py's `with_hulls`.
"""
from __future__ import annotations

import numpy as np

from .shapes import PointCloud
from .triangulation import Later, Triangulation

__all__ = ["ConvexPolytope"]


class ConvexPolytope(PointCloud):
    """The convex hull of a vertex array (exactly like `PointCloud` in every query) that also knows a closed
    triangulation of that hull's boundary, with which EPA finishes large deep pairs faster (`facet_depth`).

    vertices: (n, 3).  triangles: either (k, 3) indices into `vertices` in any orientation (each triangle is turned
    outward), every vertex a corner (a convex mesh's faces, or a hull tool's output with its points); or a
    function of no arguments returning (hull points, triangles) in the same local coordinates, called the first
    time a query needs them (so only pairs that get there pay for a hull), or a list of such functions tried in
    order until one gives a triangulation that passes (the add-on offers the mesh's own faces, then Blender's
    Convex Hull).  Exactly equal positions are welded.  Given as an array, a triangulation that is not one closed
    surface of nonzero-area triangles bounding a convex body (core/topology.py's exact convexity test) raises
    ValueError; given as a function, such a triangulation, one that leaves a vertex outside it (or a function that
    raises) is just not used.  The final depth is evaluated over the vertices themselves."""

    def __init__(self, vertices, triangles, transform=None, margin: float = 0.0, *, _checked: bool = False):
        """`_checked=True` (core-internal: `core/mesh/query.py`, whose meshes passed the same convexity test
        already) skips the convexity test; the welding and orientation are done all the same."""
        super().__init__(vertices, transform, margin)
        if callable(triangles):
            self._source = Later([triangles])
        elif isinstance(triangles, (list, tuple)) and triangles and all(callable(f) for f in triangles):
            self._source = Later(triangles)
        else:
            self._source = Triangulation(self.vertices, triangles, _checked)

    def _triangulation(self) -> Triangulation | None:
        return self._source.get(self.vertices) if isinstance(self._source, Later) else self._source

    def _hull_world(self, points: np.ndarray) -> np.ndarray:
        """`points` (local) in the current frame (transform and frame shift applied), cached per pose."""
        key = ("hull world", id(points))
        world = self._pose_cache.get(key)
        if world is None:
            world = points if self._linear is None else points @ self._linear_t
            world = self._pose_cache[key] = world
        return world + self._offset

    def __repr__(self) -> str:
        return f"ConvexPolytope({self.vertices.shape[0]} vertices, margin={self.margin!r})"
