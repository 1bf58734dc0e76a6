"""Point clouds seen as `ConvexPolytope`s for the facet path: `with_hulls(a, b)` and the hull makers behind it.

A plain `PointCloud` (a raw vertex array) becomes a view of itself whose triangulation is made on first need by
core/hull.py (its own hull, kept in the cloud's pose cache) or, for the second shape of a pair, its partner's hull
triangulation on its own vertices of the same indices (a duplicate in place keeps the vertex order) or, when the
cloud is its partner's copy in another vertex order, on the vertices core/copies.py pairs them with.  Every such
triangulation is checked by core/triangulation.py before use.
"""
from __future__ import annotations

import numpy as np

from . import hull
from .copies import paired_order
from .polytope import ConvexPolytope
from .shapes import PointCloud
from .triangulation import Later

__all__ = ["with_hulls"]

# A cloud whose vertices, centred, lie within this times its partner's size of the partner's (centred) takes the
# partner's triangulation by the pairing of `core.copies.paired_order` when they are not in the same order.
_COPY = 1e-2


class _OwnHull:
    """The hull triangulation of a `PointCloud`'s local vertices by `core.hull.convex_hull`, computed once on
    first need and kept (in the cloud's pose cache: clones made by `shifted` share it)."""

    def __init__(self, vertices: np.ndarray):
        self.vertices = vertices
        self.done = False
        self.indices = None  # (hull vertex indices, triangles as indices into `vertices`), or None if declined
        self.rows = None  # the triangles as rows of the hull vertices (made once for the two makers)

    def get(self):
        if not self.done:
            self.done = True
            self.indices = hull.convex_hull(self.vertices)
            if self.indices is not None:
                self.rows = np.searchsorted(*self.indices)
        return self.indices


def _hull_maker(own: _OwnHull):
    def make():
        found = own.get()
        if found is None:
            raise ValueError("core.hull declined this cloud")
        return own.vertices[found[0]], own.rows, found[0]
    return make


def _copied_maker(own: _OwnHull, vertices: np.ndarray, later: "Later | None" = None):
    """The partner's hull triangulation on this cloud's vertices of the same indices, or of the partner's order
    when the cloud lists them in another (`_partner_order`): right when the cloud is a rigid, scaled or slightly
    moved copy of the partner (Shift+D keeps the vertex order).  Checked like any
    triangulation made later; its hull is computed only if the partner's already was.  `later`: the partner's
    own `Later`, whose checked triangulation is passed on as `like` (shared when the input is bit for bit the
    same: an exact copy)."""
    def make():
        if own.indices is None or own.vertices.shape != vertices.shape:
            raise ValueError("no partner hull to copy")
        hull_vertices = own.indices[0]
        order = _partner_order(own.vertices, vertices)
        if order is not None:
            hull_vertices = order[hull_vertices]
        like = later.value if later is not None and later.done else None
        return vertices[hull_vertices], own.rows, hull_vertices, like
    return make


def _partner_order(partner: np.ndarray, vertices: np.ndarray) -> np.ndarray | None:
    """None when the cloud's vertices are its partner's of the same indices (within `_COPY` of the partner's size
    per coordinate, both centred on their means) or no other order pairs them; else the order `paired_order`
    found (vertices[order[i]] is the partner's vertex i: a copy listing its vertices in another order)."""
    lo, hi = partner.min(axis=0), partner.max(axis=0)
    tol = _COPY * float(np.linalg.norm(hi - lo))
    a, b = partner - partner.mean(axis=0), vertices - vertices.mean(axis=0)
    if float(np.abs(a - b).max()) <= tol:
        return None
    return paired_order(a, b, tol)


def own_hull(cloud: PointCloud) -> _OwnHull:
    own = cloud._pose_cache.get("own hull")
    if own is None or own.vertices is not cloud.vertices:
        own = cloud._pose_cache["own hull"] = _OwnHull(cloud.vertices)
    return own


def with_hulls(shape_a, shape_b):
    """Both shapes as `ConvexPolytope`s for `facet_depth`, or None unless both are point clouds.

    A `ConvexPolytope` is taken as it is.  A plain `PointCloud` becomes a view of itself (same vertices, pose
    and frame) whose triangulation is made on first need: for B, first A's own hull triangulation on B's
    vertices of the same indices (a duplicate in place has the same vertex order; checked before use), else
    B's own hull by `core.hull.convex_hull`.  Every triangulation passes `Triangulation` and `_holds` before
    use, so a declined or imperfect hull only means EPA goes on (B's copy of A's, when it is A's input bit for
    bit, shares A's checked answer: the same check on the same arrays, see `Triangulation`)."""
    if not (isinstance(shape_a, PointCloud) and isinstance(shape_b, PointCloud)):
        return None
    views = []
    partner = partner_later = None
    for shape in (shape_a, shape_b):
        if isinstance(shape, ConvexPolytope):
            views.append(shape)
            continue
        own = own_hull(shape)
        makers = [_hull_maker(own)]
        if partner is not None and partner is not own:
            makers.insert(0, _copied_maker(partner, shape.vertices, partner_later))
        view = object.__new__(ConvexPolytope)
        view.__dict__.update(shape.__dict__)
        view._source = Later(makers)
        views.append(view)
        partner, partner_later = own, view._source
    return views[0], views[1]
