"""The simultaneous descent of two mesh hierarchies (step 3 of core/mesh/query.py) and the exact best-first
distance over the leaf pairs it keeps (step 4's distance).

A pair of nodes is kept while its lower bound (`bvh.pair_lower_bound`) is within the touching band (it may hold a
crossing or a contact) or below the best upper bound minus `PRUNE` x scale (it may hold a closer pair).  Upper
bounds come from a surface point of each node and from the exact distance of the first triangles of the `TOP_K`
most promising pairs.  Work caps (`MAX_PAIRS`, `MAX_EXACT`) keep the smallest lower bound of what they drop, so
the answer is a certified interval, never a silent approximation.
"""
from __future__ import annotations

import math

import numpy as np

from ..rows import row_cross, row_dot
from .bvh import WorldBVH, box_lower_bound, pair_lower_bound
from .pair_frame import unit_or
from .tritri import separation_bound, triangle_triangle

__all__ = ["PRUNE", "Found", "descend", "best_distance", "touch_normal"]

PRUNE = 1e-12
"""A pair whose lower bound is within PRUNE x scale of the best distance cannot improve it by more than that,
and is dropped (ties between equally close triangles end there).  The reported distance is exact to this."""

MAX_PAIRS = 300_000
"""Cap on live node pairs per level (memory and time budget): past it the farthest pairs (by lower bound) are
dropped and their smallest lower bound is kept (core/mesh/query.py, "Work caps")."""

OBB_SAMPLE = 256
OBB_WORTH = 0.1
"""Band-only descent (`descend(near_only=True)`): above the leaves, the oriented bounds run on a level's pairs
when more than OBB_WORTH of a sample of about OBB_SAMPLE of them would be pruned by them."""

MAX_EXACT = 100_000
"""Cap on leaf candidates taken by the best-first stage; beyond it the answer is the certified interval
[smallest lower bound left, best distance found] (`gap` is its width, `converged` False)."""

TOP_K = 64
"""Most promising pairs per level whose first triangles get an exact distance (a tight upper bound early)."""


class Found:
    pass


def descend(wa: WorldBVH, wb: WorldBVH, band, prune, max_distance, near_only=False) -> Found:
    """Simultaneous descent of both hierarchies (step 3 of core/mesh/query.py).  `near_only`: keep only the
    pairs within the band (all that can cross or touch; no upper bound, no closest pair is sought)."""
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    ia = np.zeros(1, np.int64)
    ib = np.zeros(1, np.int64)
    ub = -math.inf if near_only else math.inf
    ub_points = (wa.rep[wa.node(la, 0)], wb.rep[wb.node(lb, 0)])
    dropped = math.inf
    found = Found()
    found.beyond = False
    while True:
        na, nb = wa.node(la, ia), wb.node(lb, ib)
        if near_only and (la > 0 or lb > 0):
            # Above the leaves the boxes' overlap (within the band on every axis) first; the oriented bounds only
            # when a sample says they prune: for surfaces lying on each other they barely do (rounded shapes),
            # except where the boxes are loose (long thin triangles, like a cylinder's caps).  The leaves get the
            # full bound below.
            meet = _boxes_meet(wa, na, wb, nb, band)
            ia, ib, na, nb = ia[meet], ib[meet], na[meet], nb[meet]
            sample = slice(None, None, max(1, ia.size // OBB_SAMPLE))
            if ia.size and np.mean(pair_lower_bound(wa, na[sample], wb, nb[sample]) > band) > OBB_WORTH:
                keep = pair_lower_bound(wa, na, wb, nb) <= band
                ia, ib = ia[keep], ib[keep]
            if ia.size == 0:
                bound = np.zeros(0)
                break
            ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
            continue
        # the box test first, on every pair; the oriented bounds only on the pairs it keeps
        bound = box_lower_bound(wa, na, wb, nb)
        if ia.size > 1 or near_only:
            alive = (bound <= band) | (bound <= ub - prune)
            if not np.all(alive):
                ia, ib, na, nb, bound = ia[alive], ib[alive], na[alive], nb[alive], bound[alive]
        if ia.size == 0:
            break
        bound = pair_lower_bound(wa, na, wb, nb, bound)
        if not near_only:
            ub, ub_points = _upper_bound(wa, na, wb, nb, bound, ub, ub_points)
        if max_distance is not None and min(float(bound.min()), ub) > max_distance:
            # every pair left is farther than max_distance, and so is every pair dropped (no closer than ub)
            found.beyond = True
            found.lower = min(float(bound.min()), ub)
            found.ub = ub
            found.ub_points = ub_points
            return found
        keep = (bound <= band) | (bound <= ub - prune)
        if keep.sum() > MAX_PAIRS:
            # budget: keep every pair inside the band and the most promising others
            others = np.flatnonzero(keep & (bound > band))
            room = max(MAX_PAIRS - int(np.count_nonzero(bound <= band)), 0)
            if others.size > room:
                cut = np.argpartition(bound[others], room)[room:] if room > 0 else np.arange(others.size)
                drop = others[cut]
                dropped = min(dropped, float(bound[drop].min()))
                keep[drop] = False
        ia, ib, bound = ia[keep], ib[keep], bound[keep]
        if ia.size == 0:  # every pair is proven no closer than the best found: it is the answer
            ia, ib, bound = ia[:0], ib[:0], bound[:0]
            la = lb = 0
        if la == 0 and lb == 0:
            break
        ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
    found.ia, found.ib, found.lb = ia, ib, bound
    found.ub, found.ub_points = ub, ub_points
    found.dropped_lb = dropped
    return found


def _boxes_meet(wa: WorldBVH, na, wb: WorldBVH, nb, band) -> np.ndarray:
    """Which node pairs have axis-aligned boxes within `band` of each other on every axis (a necessary
    condition for a box distance within the band)."""
    ca, cb = wa.columns, wb.columns
    meet = None
    for x in range(3):
        lo_a, hi_a = ca["lo"][x][na], ca["hi"][x][na]
        lo_b, hi_b = cb["lo"][x][nb], cb["hi"][x][nb]
        axis = (lo_b - hi_a <= band) & (lo_a - hi_b <= band)
        meet = axis if meet is None else meet & axis
    return meet


def _split(wa: WorldBVH, wb: WorldBVH, ia, ib, la, lb):
    """One level down: the deeper side (both when level with each other) is replaced by its children."""
    split_a = la > 0 and la >= lb
    split_b = lb > 0 and lb >= la
    if split_a:
        left, right, has = wa.children(la, ia)
        ib = np.concatenate([ib, ib[has]])
        ia = np.concatenate([left, right[has]])
        la -= 1
    if split_b:
        left, right, has = wb.children(lb, ib)
        ia = np.concatenate([ia, ia[has]])
        ib = np.concatenate([left, right[has]])
        lb -= 1
    return ia, ib, la, lb


def _upper_bound(wa: WorldBVH, na, wb: WorldBVH, nb, bound, ub, ub_points):
    """The best distance known after one level: a surface point of each node, and the exact distance of the
    first triangles of the TOP_K most promising pairs.  Returns (ub, its points)."""
    r = np.take(wa.rep, na, axis=0) - np.take(wb.rep, nb, axis=0)
    r = r[:, 0] * r[:, 0] + r[:, 1] * r[:, 1] + r[:, 2] * r[:, 2]
    j = int(np.argmin(r))
    if math.sqrt(r[j]) < ub:
        ub = math.sqrt(r[j])
        ub_points = (wa.rep[na[j]], wb.rep[nb[j]])
    k = min(TOP_K, bound.size)
    top = np.argpartition(bound, k - 1)[:k] if bound.size > k else np.arange(bound.size)
    d, xa, xb = triangle_triangle(wa.leaf_corners[wa.local.first_leaf[na[top]]],
                                  wb.leaf_corners[wb.local.first_leaf[nb[top]]])
    j = int(np.argmin(d))
    if d[j] < ub:
        ub = float(d[j])
        ub_points = (xa[j], xb[j])
    return ub, ub_points


def best_distance(A, B, found, band, prune):
    """Best-first exact distances over the leaf candidates.  Returns (d, pa, pb, indices of pairs within band)."""
    best = found.ub
    pa, pb = found.ub_points
    order = np.argsort(found.lb, kind="stable")
    lbs = found.lb[order]
    touching = []
    start, chunk = 0, 2048
    found.exact_lb = math.inf
    while start < order.size and lbs[start] <= max(best - prune, band):
        if start >= MAX_EXACT:
            found.exact_lb = float(lbs[start])  # budget spent: the rest is certified no closer than this
            break
        sel = order[start:start + chunk]
        if start > 0:
            # Pairs that cannot beat the best (by more than `prune`) are only asked whether they touch: two
            # corners within the band say yes without the exact distance (surfaces lying on each other, a mesh
            # and its copy in place, have a shared corner in almost every such pair).
            only_touch = lbs[start:start + chunk] > best - prune
            if np.any(only_touch):
                touch = _corners_within(A[sel[only_touch]], B[sel[only_touch]], band)
                touching.append(sel[only_touch][touch])
                sel = np.concatenate([sel[~only_touch], sel[only_touch][~touch]])
            # screen with the separating-axis bound: only pairs that may still beat the best (or touch) go on
            screen = separation_bound(A[sel], B[sel])
            sel = sel[(screen <= band) | (screen <= best - prune)]
            if sel.size == 0:
                start += chunk
                chunk *= 2
                continue
        d, xa, xb = triangle_triangle(A[sel], B[sel])
        j = int(np.argmin(d))
        if d[j] < best:
            best, pa, pb = float(d[j]), xa[j], xb[j]
        touching.append(sel[d <= band])
        start += chunk
        chunk *= 2
    touching = np.concatenate(touching) if touching else np.zeros(0, np.int64)
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    touching = touching[np.argsort(rank[touching], kind="stable")]  # in the order of their lower bounds
    return best, pa, pb, touching


def _corners_within(X, Y, band) -> np.ndarray:
    """Which triangle pairs (k,3,3) x (k,3,3) have a corner of X within `band` of a corner of Y (then their
    distance is within the band too)."""
    near = np.zeros(X.shape[0], bool)
    for i in range(3):
        for j in range(3):
            d = X[:, i] - Y[:, j]
            near |= row_dot(d, d) <= band * band
    return near


def touch_normal(sa, sb, found, pairs, pa, pb, fallback):
    d = pb - pa
    length = float(np.linalg.norm(d))
    if length > 0.0 and length > 1e-6 * float(np.linalg.norm(sb.world.hi[-1] - sb.world.lo[-1])):
        return d / length
    if pairs.size:
        tri = sb.world.leaf_corners[found.ib[pairs[0]]]
        n = unit_or(row_cross(tri[1] - tri[0], tri[2] - tri[0]), fallback)
        return n if float(n @ fallback) >= 0.0 else -n
    return fallback
