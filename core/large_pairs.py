"""EPA's policy for large pairs: when to fetch supports in batches, when to add points locally, and when to hand a
pair of point clouds over to the facet path (core/facet_depth.py).

Two identical or near-identical high-poly convex shapes (a duplicate in place) have a Minkowski difference M whose
every facet lies within a fraction of a percent of the depth, so EPA adds about one vertex of M per expansion, all
of them.  EPA's main loop (core/epa.py) asks one `LargePairs` object, `LARGE_PAIRS`, what to do at each expansion;
the thresholds and the reason for each live here, in one place.  Every choice only changes how the answer is
reached: the facet path is exact and checked, and when it declines EPA goes on.  Pairs that converge within
`batch_after` expansions (nearly all pairs) never reach any of it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .copies import paired_order
from .polytope import ConvexPolytope
from .rows import fibonacci_directions
from .shapes import PointCloud

__all__ = ["LargePairs", "LARGE_PAIRS"]


@dataclass(frozen=True)
class LargePairs:
    """The large-pair thresholds (see each field) and the decisions made from them."""

    batch_after: int = 256
    """Expansions after which the supports of the `batch_size` closest faces are fetched in one product per shape
    (the per-call overhead of one support query dominates on large M), and after which a pair with given
    triangulations (two `ConvexPolytope`s) tries the facet path."""
    batch_size: int = 32
    """Faces whose supports are fetched together once batching starts."""
    local_after: int = 256
    """After this many expansions a new point takes only one ring of edge-on faces (`_Polytope.add_point(local=
    True)`): spreading through every coplanar face re-fans a many-sided cylinder's cap at each new rim point,
    O(n^2) in all."""
    raw_hull_per_vertex: float = 1.5
    """Raw point clouds (no triangulation given) below `raw_hull_early` vertices try the facet path only after this
    many expansions per vertex of the larger one: building and checking their hulls (core/hull.py) costs about one
    EPA expansion per vertex, and EPA needs 0.2 to 1.3 expansions per vertex on copies of spheres and cylinders
    but up to 4.4 on a 1,024-sided cone; so only pairs running past EPA's usual pace pay for hulls."""
    raw_hull_early: int = 1024
    """From this many vertices on (the larger cloud) raw clouds try the facet path after `batch_after` expansions,
    as given triangulations do: there the facet path, hulls included, beats EPA's expansions to the end; below it
    (642-vertex Ico Spheres, 256-sided cylinders) EPA alone is as fast (docs/decisions.md)."""
    near_copy: float = 1e-2
    """Clouds of at least `raw_hull_early` vertices whose world vertices all lie within this times the pair's scale
    of their partner's vertex of the same index, or of the partner's vertex `core.copies.paired_order` pairs them
    with (a copy listing its vertices in another order), are copies (a duplicate in place, turned, shifted or
    scaled a hair: `near_copies`), which try the facet path sooner than other pairs (`first_try`)."""
    near_copy_after: int = 128
    """Copies that are not round try the facet path after this many expansions: EPA finishes a rounded box's or a
    lumpy blob's copy in about 50 to 65 expansions, with no hull to build."""
    round_spread: float = 1e-2
    """A copy is round when h_M = h_A(u) + h_B(-u) over `round_directions` spread directions stays within this
    fraction of its smallest value (a sphere of 1,024 vertices or more: ~1e-3; a cylinder as tall as it is wide,
    a rounded box: ~0.4).  On copies of round shapes EPA expands about once per vertex (a sphere's copy shifted by
    1e-2 of its size still has its closest facets spread over a cap of ~0.35 rad), so they try the facet path at
    once."""
    round_directions: int = 42
    """Directions of the roundness test (a Fibonacci lattice: one small product per shape)."""

    def near_copies(self, shape_a, shape_b, scale: float) -> bool:
        """Two point clouds of the same vertex count, at least `raw_hull_early`, each world vertex within
        `near_copy` x scale of its partner's vertex of the same index, or else of a partner paired by
        `paired_order` (a vertex order shuffled: without it such a copy expanded `batch_after` times first, 2-4 ms
        each on a many-sided cylinder whose caps EPA fans again and again)."""
        if not (isinstance(shape_a, PointCloud) and isinstance(shape_b, PointCloud)):
            return False
        count = shape_a.core_vertex_count()
        if count < self.raw_hull_early or shape_b.core_vertex_count() != count:
            return False
        world_a, world_b = shape_a._world_core_vertices(), shape_b._world_core_vertices()
        apart = (world_a - world_b) + (shape_a._offset - shape_b._offset)
        if np.abs(apart).max() <= self.near_copy * scale:
            return True
        return paired_order(world_a + (shape_a._offset - shape_b._offset), world_b, self.near_copy * scale) is not None

    def first_try(self, shape_a, shape_b, scale: float) -> int:
        """Expansions after which EPA first tries the facet path, decided before the first expansion: 0 for round
        copies, `near_copy_after` for other copies, else `batch_after` (then decided again by `later_try`)."""
        if not self.near_copies(shape_a, shape_b, scale):
            return self.batch_after
        u = fibonacci_directions(self.round_directions)
        h = ((u @ shape_a._world_core_vertices().T).max(axis=1)
             + (-(u @ shape_b._world_core_vertices().T)).max(axis=1))
        h += u @ (shape_a._offset - shape_b._offset)
        low = float(h.min())
        return 0 if low > 0.0 and float(h.max()) <= (1.0 + self.round_spread) * low else self.near_copy_after

    def later_try(self, shape_a, shape_b) -> int:
        """Expansions after which EPA tries the facet path, decided after `batch_after` expansions of a pair that
        `first_try` gave `batch_after`: `batch_after` when both triangulations are given or the larger cloud has
        at least `raw_hull_early` vertices, else `raw_hull_per_vertex` per vertex of the larger cloud."""
        if isinstance(shape_a, ConvexPolytope) and isinstance(shape_b, ConvexPolytope):
            return self.batch_after
        count = max(shape_a.core_vertex_count(), shape_b.core_vertex_count())
        if count >= self.raw_hull_early:
            return self.batch_after
        return max(self.batch_after, int(self.raw_hull_per_vertex * count))


LARGE_PAIRS = LargePairs()
"""The policy EPA consults (read at each call of `core.epa.epa`, so a test may replace it)."""
