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
from .bvh import LocalBVH, WorldBVH, box_lower_bound, pair_lower_bound
from .pair_frame import unit_or
from .screened import screened_distances
from .tritri import separation_bound, triangle_triangle

__all__ = ["PRUNE", "Found", "descend", "best_distance", "touch_normal", "descent_order"]

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

UB_SLACK = 1e4
"""`_Upper` skips a triangle pair whose boxes are farther apart than ub + UB_SLACK x prune (1e-8 x scale: far
above the kernels' rounding, so a skipped pair could never have lowered ub), and takes UB_SLACK x prune off the
smallest box distance of the pairs it put off as a bound of their exact distances."""


class Found:
    measured = None
    """`_Upper.measured` of the descent that made it (the leaf pairs it took the exact distance of), or None."""
    closest = None
    """The closest leaf pair as one-row arrays (ia, ib) when the route that made it knows it (core/mesh/coherence.py
    answers from a frontier so), else None."""


def descend(wa: WorldBVH, wb: WorldBVH, band, prune, max_distance, near_only=False, cap=None) -> Found | None:
    """Simultaneous descent of both hierarchies (step 3 of core/mesh/query.py).  `near_only`: keep only the
    pairs within the band (all that can cross or touch; no upper bound, no closest pair is sought).  `cap` (with
    `near_only`): None is returned as soon as a level keeps more pairs than that (a count of work, so the same
    pairs always give up at the same point)."""
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    ia = np.zeros(1, np.int64)
    ib = np.zeros(1, np.int64)
    upper = _Upper(wa, wb, (wa.rep[wa.node(la, 0)], wb.rep[wb.node(lb, 0)]), UB_SLACK * prune)
    ub = -math.inf if near_only else math.inf
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
            stride = max(1, ia.size // OBB_SAMPLE)
            sample = slice(None, None, stride)
            if ia.size:
                sampled = pair_lower_bound(wa, na[sample], wb, nb[sample])
                if np.mean(sampled > band) > OBB_WORTH:
                    # a sample of every pair is all of them (each pair's bound is its own row)
                    keep = (sampled if stride == 1 else pair_lower_bound(wa, na, wb, nb)) <= band
                    ia, ib = ia[keep], ib[keep]
            if ia.size == 0:
                bound = np.zeros(0)
                break
            if cap is not None and ia.size > cap:
                return None
            ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
            continue
        # the box test first, on every pair; the oriented bounds only on the pairs it keeps
        bound = box_lower_bound(wa, na, wb, nb)
        if ia.size > 1 or near_only:
            if not near_only:
                ub = upper.settled(bound, band, prune)
            alive = (bound <= band) | (bound <= ub - prune)
            if not np.all(alive):
                ia, ib, na, nb, bound = ia[alive], ib[alive], na[alive], nb[alive], bound[alive]
        if ia.size == 0:
            break
        bound = pair_lower_bound(wa, na, wb, nb, bound)
        if not near_only:
            upper.level(na, nb, bound)
            ub = upper.resolve() if max_distance is not None else upper.settled(bound, band, prune)
        if max_distance is not None and min(float(bound.min()), ub) > max_distance:
            # every pair left is farther than max_distance, and so is every pair dropped (no closer than ub)
            found.beyond = True
            found.lower = min(float(bound.min()), ub)
            found.ub = ub
            found.ub_points = upper.points
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
    found.ub = upper.resolve() if not near_only else ub
    found.ub_points = upper.points
    found.measured = upper.measured
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


def descent_order(local_a: LocalBVH, local_b: LocalBVH, ia, ib) -> np.ndarray:
    """A key of leaf pairs (ia, ib) (level-0 indices) of two hierarchies that sorts them in the order `descend`
    lists them (and any descent that steps down with `_split` from the roots): each step puts the pairs from left
    children before those from right children, the order of the step before kept within each, so the last step's
    choice (the lowest bit of the leaf index; B's before A's when both split) is the most significant.  Dropping
    pairs never reorders the rest, so the key holds whatever a descent pruned.  It depends only on the two
    hierarchies' depths, not on their placement."""
    la, lb = local_a.levels - 1, local_b.levels - 1
    key = np.zeros(ia.shape, np.int64)
    shift = 0
    while la > 0 or lb > 0:
        split_a = la > 0 and la >= lb
        split_b = lb > 0 and lb >= la
        if split_a:
            la -= 1
            key |= ((ia >> la) & 1) << shift
            shift += 1
        if split_b:
            lb -= 1
            key |= ((ib >> lb) & 1) << shift
            shift += 1
    if shift > 62:
        raise ValueError("hierarchies too deep for a 63-bit order key")
    return key


class _Upper:
    """The best distance known during the descent (ub) and its points.  After each level it takes a surface point
    of each node pair and the exact distance of the first triangles of the TOP_K most promising pairs; the exact
    distances are put off (`pending`) while the pruning cannot depend on them, and then run for several levels
    in one kernel call.  The value and points are those of taking every level in turn: the first candidate (in
    level order, a level's surface points before its triangles, a level's triangles in their order) that reaches
    the smallest distance.

    Every measured pair is kept (`known`): a level that asks for it again (a node's left child has the node's
    first leaf, so a pair comes back level after level) takes it as a candidate of its own without measuring it
    again, and `best_distance` takes the leaf pairs it measures first from there (`measured`).  Each pair's
    distance is its own row of the kernel, whatever else shares the call, and the key (level, surface point 0 or
    triangles 1, position in the level) orders the candidates whenever they are measured, so this changes
    nothing but the work."""

    def __init__(self, wa: WorldBVH, wb: WorldBVH, points, slack):
        self.wa, self.wb, self.slack = wa, wb, slack
        self.value, self.points, self.key = math.inf, points, (-1, 0, 0)
        self.count = 0  # levels seen
        self.pending = []  # (level, positions in the level, leaves of a, leaves of b) whose exact distance is put off
        self.pending_lb = math.inf  # the smallest box distance of a pending triangle pair
        self.known = {}  # leaf of a * leaves of b + leaf of b -> (distance, point on a, point on b)

    def level(self, na, nb, bound) -> None:
        wa, wb = self.wa, self.wb
        if self.value == 0.0:  # no later candidate can be strictly closer (a crossing pair was found)
            self.count += 1
            return
        r = np.take(wa.rep, na, axis=0) - np.take(wb.rep, nb, axis=0)
        r *= r  # the squares in one product, summed x, y, z
        r = r[:, 0] + r[:, 1] + r[:, 2]
        j = int(r.argmin())
        if math.sqrt(r[j]) < self.value:  # later than every candidate taken so far: strictly closer wins
            self.value, self.points, self.key = math.sqrt(r[j]), (wa.rep[na[j]], wb.rep[nb[j]]), (self.count, 0, 0)
        k = min(TOP_K, bound.size)
        top = bound.argpartition(k - 1)[:k] if bound.size > k else np.arange(bound.size)
        fa, fb = wa.local.first_leaf[na[top]], wb.local.first_leaf[nb[top]]
        # Only triangle pairs whose boxes (level 0 of the hierarchies) are within ub + slack may be closer than
        # ub: the others could never be taken, so they are left out (above the leaves most are, often all).  The
        # slack covers the rounding of the exact kernel's distance against the box distance by a wide margin.
        box = box_lower_bound(wa, fa, wb, fb)
        near = (box <= self.value + self.slack).nonzero()[0]
        if near.size:
            fa, fb, box = fa[near], fb[near], box[near]
            keys = (fa * wb.local.sizes[0] + fb).tolist()
            found = [self.known.get(key) for key in keys]
            have = [i for i, x in enumerate(found) if x is not None]
            if have:  # measured at an earlier level: the first closest of them, as a candidate of this level
                i = min(have, key=lambda i: found[i][0])
                d, xa, xb = found[i]
                key = (self.count, 1, int(near[i]))
                if d < self.value or (d == self.value and key < self.key):
                    self.value, self.points, self.key = d, (xa, xb), key
            if len(have) < near.size:
                rest = np.ones(near.size, bool)
                rest[have] = False
                self.pending.append((self.count, near[rest], fa[rest], fb[rest]))
                self.pending_lb = min(self.pending_lb, float(box[rest].min()))
        self.count += 1

    def settled(self, bound, band, prune) -> float:
        """ub for pruning pairs of lower bounds `bound` (beyond the band) at `bound <= ub - prune`: the value
        known so far when the pending distances, no smaller than pending_lb - slack, cannot change which pairs
        that keeps; otherwise they are resolved first."""
        if self.pending:
            low = (self.pending_lb - self.slack) - prune
            high = self.value - prune
            if np.any((bound > low) & (bound <= high) & (bound > band)):
                return self.resolve()
        return self.value

    def resolve(self) -> float:
        """ub with every pending exact distance taken (one kernel call)."""
        if self.pending:
            levels = np.concatenate([np.full(p[1].size, p[0]) for p in self.pending])
            where = np.concatenate([p[1] for p in self.pending])
            fa = np.concatenate([p[2] for p in self.pending])
            fb = np.concatenate([p[3] for p in self.pending])
            self.pending, self.pending_lb = [], math.inf
            d, xa, xb = triangle_triangle(self.wa.leaf_corners[fa], self.wb.leaf_corners[fb])
            keys = (fa * self.wb.local.sizes[0] + fb).tolist()
            dl = d.tolist()
            for i in range(fa.size):
                self.known[keys[i]] = (dl[i], xa[i], xb[i])
            j = int(np.argmin(d))  # the first in level order among the closest
            key = (int(levels[j]), 1, int(where[j]))
            if d[j] < self.value or (d[j] == self.value and key < self.key):
                self.value, self.points, self.key = float(d[j]), (xa[j], xb[j]), key
        return self.value

    def measured(self, ia, ib):
        """The leaf pairs (ia, ib) whose exact distance was taken: (their positions, d, xa, xb), the kernel's
        rows for them."""
        known = self.known
        got = [known.get(key) for key in (ia * self.wb.local.sizes[0] + ib).tolist()]
        have = [i for i, x in enumerate(got) if x is not None]
        if not have:
            return np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3))
        return (np.array(have, np.int64), np.array([got[i][0] for i in have]), np.array([got[i][1] for i in have]),
                np.array([got[i][2] for i in have]))


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
        if start > 0:
            d, xa, xb = triangle_triangle(A[sel], B[sel])
        else:
            d, xa, xb = _first_distances(A, B, found, sel, best, band, prune)
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


def _first_distances(A, B, found, sel, best, band, prune):
    """(d, xa, xb) of the first chunk `sel` as `screened_distances` gives them: the pairs the descent measured
    already (`found.measured`: most of the first chunk, the leaf level's most promising pairs) are taken from it,
    the others measured by `screened_distances` against the best of both (they matter to the chunk only if
    they are no farther than that, see core/mesh/screened.py).  Each pair's row is the kernel's for that pair."""
    measured = found.measured
    if measured is None:
        return screened_distances(A[sel], B[sel], best, band, prune)
    have, dk, xak, xbk = measured(found.ia[sel], found.ib[sel])
    if have.size == 0:
        return screened_distances(A[sel], B[sel], best, band, prune)
    k = sel.size
    d = np.empty(k)
    xa = np.empty((k, 3))
    xb = np.empty((k, 3))
    d[have], xa[have], xb[have] = dk, xak, xbk
    rest = np.ones(k, bool)
    rest[have] = False
    rest = np.flatnonzero(rest)
    if rest.size:
        sub = sel[rest]
        d[rest], xa[rest], xb[rest] = screened_distances(A[sub], B[sub], min(best, float(dk.min())), band, prune)
    return d, xa, xb


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
