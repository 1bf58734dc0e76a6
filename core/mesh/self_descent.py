"""One mesh's hierarchy (core/mesh/bvh.py) descended against itself: the leaf pairs whose boxes come close.

`self_leaf_pairs(world, reach, labels, closest)` walks the levels from the root down.  A node pair (p, q), p != q,
splits into the four pairs of their children; a node paired with itself, (p, p), into (l, l), (l, r), (r, r) of
its children l and r; a pair is kept while the world boxes of its two nodes lie within `reach` of each other on
every axis (a node always meets itself).  With `labels` (one per leaf, e.g. its loose part), a pair whose two
nodes hold only leaves of one and the same label is dropped at once: the leaf pairs left are those of different
labels.  With `groups` (one per leaf, coarser than `labels`: each label in one group), the pairs dropped at once
are those whose two nodes hold leaves of one and the same group, so no leaf pair within a group is returned
(parts already known to touch or cross, put in one group: the search then skips the volume where they
interleave, whose node pairs hold both labels and could not be pruned).  With `closest` as well, the search
keeps, for each pair of labels, only what may hold their closest points: a node pair whose nodes each hold a
single label is dropped when its lower bound (`bvh.pair_lower_bound`) exceeds `reach` or the smallest distance
seen so far between two surface points of those labels (a point of each node, and at every level the exact
distance of the first triangles of the label pair's most promising node pair).
"""
from __future__ import annotations

import numpy as np

from .bvh import WorldBVH, pair_lower_bound
from .tritri import triangle_triangle

__all__ = ["self_leaf_pairs"]


def _uniform_labels(local, labels):
    """The label of every node when all its leaves share it, else -1 (flat array over all levels)."""
    levels = [np.asarray(labels, np.int64)]
    for size in local.sizes[1:]:
        below = levels[-1]
        left = below[0::2]
        right = below[1::2]
        if right.shape[0] < left.shape[0]:
            right = np.concatenate([right, left[-1:]])
        levels.append(np.where(left == right, left, -1)[:size])
    return np.concatenate(levels)


class _UpperBounds:
    """The smallest distance seen so far between two surface points of each pair of labels (sorted keys)."""

    def __init__(self):
        self.keys = np.zeros(0, np.int64)
        self.values = np.zeros(0)

    def update(self, keys, values):
        keys = np.concatenate([self.keys, keys])
        values = np.concatenate([self.values, values])
        order = np.lexsort((values, keys))
        keys, values = keys[order], values[order]
        first = np.concatenate([[True], keys[1:] != keys[:-1]])
        self.keys, self.values = keys[first], values[first]

    def of(self, keys):
        pos = np.minimum(np.searchsorted(self.keys, keys), self.keys.shape[0] - 1)
        return np.where(self.keys[pos] == keys, self.values[pos], np.inf)


def self_leaf_pairs(world: WorldBVH, reach: float, labels=None, closest: bool = False, groups=None):
    """Leaf pairs (i, j), i < j (leaf indices: leaf i holds triangle `world.local.order[i]`), whose world boxes lie
    within `reach` of each other, and (with `labels`) whose labels differ (with `groups`, whose groups differ; with
    `closest`, only those that may hold the closest points of their two labels; see the module docstring).
    Returns two (k,) int64 arrays."""
    local = world.local
    lo = [np.ascontiguousarray(world.lo[:, x]) for x in range(3)]
    hi = [np.ascontiguousarray(world.hi[:, x]) for x in range(3)]
    uniform = None if labels is None else _uniform_labels(local, labels)
    grouped = uniform if groups is None else _uniform_labels(local, groups)
    span = 0 if labels is None else int(np.max(labels)) + 1
    bounds = _UpperBounds() if closest and labels is not None else None
    i = np.zeros(1, np.int64)
    j = np.zeros(1, np.int64)
    for level in range(local.levels - 1, 0, -1):
        count = local.sizes[level - 1]
        same = i == j
        li, lj = 2 * i, 2 * j
        d, s = ~same, same
        ci = np.concatenate([li[d], li[d], li[d] + 1, li[d] + 1, li[s], li[s], li[s] + 1])
        cj = np.concatenate([lj[d], lj[d] + 1, lj[d], lj[d] + 1, lj[s], lj[s] + 1, lj[s] + 1])
        ok = (ci < count) & (cj < count)
        ci, cj = ci[ok], cj[ok]
        na, nb = local.offsets[level - 1] + ci, local.offsets[level - 1] + cj
        keep = ci == cj
        apart = np.zeros(ci.shape[0], bool)
        for x in range(3):
            apart |= lo[x][na] > hi[x][nb] + reach
            apart |= lo[x][nb] > hi[x][na] + reach
        keep |= ~apart
        if uniform is not None:
            ua, ub = uniform[na], uniform[nb]
            ga, gb = grouped[na], grouped[nb]
            keep &= ~((ga >= 0) & (ga == gb))
            if bounds is not None:
                rows = np.flatnonzero(keep & (ua >= 0) & (ub >= 0))
                if rows.size:
                    ka = np.minimum(ua[rows], ub[rows]) * span + np.maximum(ua[rows], ub[rows])
                    gap = world.rep[na[rows]] - world.rep[nb[rows]]
                    lower = pair_lower_bound(world, na[rows], world, nb[rows])
                    # per label pair (rows grouped by key, the most promising first): the smallest distance of
                    # the nodes' surface points, and the exact distance of the first triangles of the most
                    # promising node pair (deep down, the nodes are small and these are nearly the closest)
                    order = np.lexsort((lower, ka))
                    keys = ka[order]
                    starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
                    best = order[starts]
                    first = local.first_leaf
                    exact = triangle_triangle(world.leaf_corners[first[na[rows[best]]]],
                                              world.leaf_corners[first[nb[rows[best]]]])[0]
                    points = np.minimum.reduceat(np.sqrt((gap * gap).sum(axis=1))[order], starts)
                    bounds.update(keys[starts], np.minimum(points, exact))
                    keep[rows[lower > np.minimum(bounds.of(ka), reach)]] = False
        i, j = ci[keep], cj[keep]
    keep = i < j
    return i[keep], j[keep]
