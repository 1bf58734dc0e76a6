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
`beyond_band(points, world, band, among)` answers, in one descent, which points are farther than `band` and the
farthest of the rows `among` (the part corners of core/mesh/inside.py `parts_inside`).
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

__all__ = ["farthest_from_surface", "any_farther", "beyond_band"]

TIGHTEN = 1
"""From this level down to the leaves, `beyond_band` measures each point's pairs of least lower bound exactly
first (`_tightened`); -1: never.  (On the probes' searches, `farthest_from_surface`, it did not pay: 1.04-1.17 on
bench/midsize.py's crossing and inside rows.)"""


def _tightened(points, world, level, pts, nodes, bound, best, slack):
    """The (point, node) pairs (pts, nodes, bound) at `level` left after each point's `best` is lowered to the
    exact distance to the triangle of its pairs of least lower bound (at a leaf; above, the node's first leaf),
    with `nearest_on_leaves`' arithmetic (a distance to one triangle is no less than the least over them, which
    `closest_points` computes), and the pairs whose bound then exceeds it dropped by `closest_points`' own rule.
    Deep inside a rounded mesh a point's leaves are nearly equidistant and the representative points (corners)
    farther than its nearest triangles: fewer pairs reach the leaves and the exact stage.  The leaves at a
    point's least distance all stay, in their order, so its answer is the same."""
    low = np.full(best.shape[0], np.inf)
    np.minimum.at(low, pts, bound)
    seed = np.flatnonzero(bound <= low[pts])
    leaves = nodes[seed] if level == 0 else world.local.first_leaf[world.node(level, nodes[seed])]
    _, dist, _ = nearest_on_leaves(points, world, pts[seed], leaves)
    np.minimum.at(best, pts[seed], dist)
    keep = bound <= best[pts] + slack
    return pts[keep], nodes[keep], bound[keep]


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


def beyond_band(points: np.ndarray, world: WorldBVH, band: float, among: np.ndarray):
    """(off, deepest): whether each point's distance to the mesh surface (`closest_points`') exceeds `band`, and
    `farthest_from_surface(points[among], world, band)` with its row mapped back to a row of `points` (`among`
    ascending), both as `closest_points` and an argmax would give them, bit for bit, in one descent that measures
    few points exactly.  A point leaves the descent once neither question needs it: its flag is decided when its
    least lower bound is beyond the band, or its upper bound below it (with `any_farther`'s and
    `farthest_from_surface`'s rounding margins), and as a candidate for the farthest it is dropped by
    `farthest_from_surface`'s rules, with the largest lower bound taken over the candidates left.  The points
    left reach the exact stage with the node pairs `closest_points` would keep for them (the same pruning and
    slack, less the pairs `_tightened` drops), so their distances and surface points are its own."""
    count = points.shape[0]
    off = np.zeros(count, bool)
    if count == 0:
        return off, None
    undecided = np.ones(count, bool)
    candidate = np.zeros(count, bool)
    candidate[among] = True
    pts = np.arange(count)
    nodes = np.zeros(count, np.int64)
    best = np.full(count, np.inf)
    top = world.local.levels - 1
    slack = rounding_slack(points, world)  # closest_points' own
    for level in range(top, -1, -1):
        if level < top:
            pts, nodes = descend_one_level(world, level, pts, nodes)
        bound = node_bounds(world, level, nodes, points, pts, best)
        keep = bound <= best[pts] + slack
        pts, nodes, bound = pts[keep], nodes[keep], bound[keep]
        if level <= TIGHTEN:
            pts, nodes, bound = _tightened(points, world, level, pts, nodes, bound, best, slack)
        low = np.full(count, np.inf)
        np.minimum.at(low, pts, bound)
        alive = np.isfinite(low)
        beyond = undecided & alive & (low > band + 2.0 * slack)
        off |= beyond
        undecided &= ~beyond & ~(best + 2.0 * slack < band)
        candidate &= alive
        largest = float(low[candidate].max()) if np.any(candidate) else -np.inf
        candidate &= best + 2.0 * slack >= max(largest, band)
        keep = (undecided | candidate)[pts]
        pts, nodes = pts[keep], nodes[keep]
        if pts.size == 0:
            return off, None
    q, dist, first = nearest_on_leaves(points, world, pts, nodes)  # each point's nearest, by row
    rows = pts[first]
    measured = undecided[rows]
    off[rows[measured]] = dist[first][measured] > band
    chosen = first[candidate[rows]]
    if chosen.size == 0:
        return off, None
    far = chosen[np.argmax(dist[chosen])]  # in row order: argmax takes the lowest row of a tie
    if not dist[far] > band:
        return off, None
    return off, (int(pts[far]), float(dist[far]), q[far])
