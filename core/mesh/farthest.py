"""The point of a set farthest from a mesh surface (the deepest probe of core/mesh/inside.py), without measuring
every point exactly.

`farthest_from_surface(points, world)` answers what `closest_points` followed by an argmax would: the first point
(lowest row) of those at the largest distance, that distance and its closest surface point, bit for bit.  It runs
the same level-by-level descent, and the same pruning of each point's own nodes, so every point it keeps gets
exactly the node pairs `closest_points` would give it; in addition it drops whole points that cannot be the
farthest:
- at each level every point has an upper bound of its distance (`best`, the nearest surface point of a node seen
  so far) and a lower bound (`low`, the least lower bound over its nodes still alive, which holds the nearest
  triangle);
- the farthest point lies no nearer than the largest of the lower bounds (L), so a point whose upper bound is
  below L (with two rounding slacks of margin, see `closest_points`) is strictly nearer than the farthest point:
  it can neither be it nor tie with it;
- a point whose upper bound is below `floor` (with the same margin) is dropped too: the caller wants only a point
  farther than `floor`.  When no point is, the answer is None.
`any_farther(points, world, floor)` asks only whether some point is farther than `floor`: the same descent, ended
as soon as one point's lower bound is beyond it.

`upper`, when given, is an upper bound of each point's distance as `closest_points` computes it (inf where none is
known; a distance to one triangle of the mesh with `nearest_on_leaves`' own arithmetic is one, since that
distance is the least over the triangles): it starts each point's `best` instead of inf.  A point then keeps
fewer far nodes and may be dropped sooner; its nearest leaves, and so the answer, are the same (a valid upper
bound of the distance is all `best` ever holds).
"""
from __future__ import annotations

import numpy as np

from .bvh import WorldBVH
from .points import descend_one_level, nearest_on_leaves, node_bounds, rounding_slack

__all__ = ["farthest_from_surface", "any_farther"]


def _lower_bounds(low, pts, count):
    """The largest over the points of their least lower bound (over their nodes still alive)."""
    lowest = np.full(count, np.inf)
    np.minimum.at(lowest, pts, low)
    alive = np.isfinite(lowest)
    return float(lowest[alive].max()) if np.any(alive) else -np.inf


def any_farther(points: np.ndarray, world: WorldBVH, floor: float) -> bool:
    """Is some point of `points` farther than `floor` from the mesh surface (`closest_points`' distance)?  The
    descent of `farthest_from_surface`, stopped as soon as a point's lower bound is beyond `floor` by more than
    the rounding slacks."""
    return _descend(points, world, floor, early=True) is not None


def farthest_from_surface(points: np.ndarray, world: WorldBVH, floor: float = -np.inf, upper=None):
    """(row, distance, surface point) of the point of `points` (p, 3) farthest from the mesh surface (the lowest
    row among equally far ones), as `closest_points(points, world)` and an argmax of its distances give them;
    None when no point is farther than `floor` (or `points` is empty).  `upper`: None, or upper bounds of the
    points' distances (see the module docstring)."""
    return _descend(points, world, floor, early=False, upper=upper)


def _descend(points, world, floor, early, upper=None):
    """`farthest_from_surface`; with `early`, True as soon as some point is certainly farther than `floor`."""
    count = points.shape[0]
    if count == 0:
        return None
    local = world.local
    pts = np.arange(count)
    nodes = np.zeros(count, np.int64)
    best = np.full(count, np.inf) if upper is None else np.array(upper, float)
    top = local.levels - 1
    slack = rounding_slack(points, world)  # closest_points' own
    for level in range(top, -1, -1):
        if level < top:
            pts, nodes = descend_one_level(world, level, pts, nodes)
        bound = node_bounds(world, level, nodes, points, pts, best)
        keep = bound <= best[pts] + slack
        pts, nodes, bound = pts[keep], nodes[keep], bound[keep]
        largest = _lower_bounds(bound, pts, count)
        if early and largest > floor + 2.0 * slack:
            return True  # that point's exact distance is beyond floor + slack
        # the points that cannot be the farthest (nor farther than `floor`)
        keep = best[pts] + 2.0 * slack >= max(largest, floor)
        pts, nodes = pts[keep], nodes[keep]
        if pts.size == 0:
            return None
    q, dist, first = nearest_on_leaves(points, world, pts, nodes)  # each point's nearest, by row
    far = first[np.argmax(dist[first])]  # `first` is in row order: argmax takes the lowest row of a tie
    if not dist[far] > floor:
        return None
    return int(pts[far]), float(dist[far]), q[far]

