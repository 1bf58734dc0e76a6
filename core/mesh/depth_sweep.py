"""Directional depths of two placed meshes by sweeping B along straight lines (the upper end of the depth interval,
core/mesh/depth_interval.py), and a search over directions for the shortest of them.

A triangle a of A and a triangle b of B moved by t d meet with interiors overlapping exactly for t in an open
interval: the line t d crosses the convex Minkowski difference a - b there.  The interval comes from the separating
axes of two triangles (their two normals and the nine cross products of their edges): along an axis n the shadows
of a and of b + t d overlap while n.(t d) lies strictly between min(n.a) - max(n.b) and max(n.a) - min(n.b); the
pair meets for the t where every axis overlaps.  An axis without length (a degenerate triangle, parallel edges) is
skipped, and coplanar triangles lack their in-plane axes: both only widen an interval.  So the union of the pairs'
intervals holds every t at which the surfaces cross, and a t outside it (beyond L, which no separating move is
shorter than) is a candidate for the directional depth: the end of one of the union's pieces.  A candidate is not a
certificate: at it one mesh may hold the other, and the intervals are computed in floating point, so the caller
judges it with the pipeline's crossing test and the full query, as every other move.

The triangle pairs are those the hierarchies' descent finds within `reach` of each other as placed (every pair
that can meet for a move no longer than `reach`), so one `Sweep` serves every direction: per direction only the
axes' dot products with d and a sort of the intervals remain.  That makes a search over many directions cheap
(`shortest`): spread directions, then a pattern search (eight directions around the best at an angle that halves
when none is shorter) from the best few, each direction's depth exact up to the rounding above; then the best few
are polished (`polish`: the origin's projection onto a convex set of moves free of every pair, which goes down a
crease of the free moves where the pattern search creeps).
"""
from __future__ import annotations

import numpy as np

from ..progress import Stage, report
from ..rows import fibonacci_directions, row_cross, row_dot
from .descent import PRUNE, descend

__all__ = ["Sweep", "sweep", "shortest", "in_cone", "pairs_within", "cone_sweep", "ray_depths", "pair_balls", "polish"]

MAX_PAIRS = 60_000
"""Above this many triangle pairs within reach the sweep is not built (the caller's bisections remain)."""

CHUNK = 400_000
"""Pair-direction entries per block of the batched evaluation (memory: 8 bytes each, a few arrays)."""

WORK = 1_500_000
"""Pair-direction evaluations one search spends (spread directions and pattern rounds shrink to fit it)."""


class Sweep:
    """The separating-axis data of every triangle pair of A and B within `reach` of each other (pair frame):
    `axes` (11, K, 3) and the open range (lo, hi) of n.(t d) per axis (11, K) over which the two shadows overlap.  `held`: the meshes do not cross as placed (one holds the
    other)."""

    def __init__(self, ca, cb, scale, held=False):
        self.pairs = ca.shape[0]
        self.scale = scale
        self.held = held
        self.ca, self.cb = ca, cb
        ea = [ca[:, 1] - ca[:, 0], ca[:, 2] - ca[:, 1], ca[:, 0] - ca[:, 2]]
        eb = [cb[:, 1] - cb[:, 0], cb[:, 2] - cb[:, 1], cb[:, 0] - cb[:, 2]]
        size = np.maximum(np.max([np.abs(e).max(axis=1) for e in ea], axis=0),
                          np.max([np.abs(e).max(axis=1) for e in eb], axis=0))
        tiny = 1e-9 * size * size
        axes = [row_cross(ea[0], ea[1]), row_cross(eb[0], eb[1])]
        axes += [row_cross(x, y) for x in ea for y in eb]
        self.axes = np.empty((11, self.pairs, 3))
        self.lo = np.empty((11, self.pairs))
        self.hi = np.empty((11, self.pairs))
        for i, n in enumerate(axes):
            length = np.sqrt(row_dot(n, n))
            usable = length > tiny
            n = np.where(usable[:, None], n / np.where(usable, length, 1.0)[:, None], 0.0)
            pa = [row_dot(n, ca[:, v]) for v in range(3)]
            pb = [row_dot(n, cb[:, v]) for v in range(3)]
            # an axis without length constrains nothing: every t (lo/0 = -inf, hi/0 = inf)
            self.lo[i] = np.where(usable, np.minimum(np.minimum(pa[0], pa[1]), pa[2])
                                     - np.maximum(np.maximum(pb[0], pb[1]), pb[2]), -np.inf)
            self.hi[i] = np.where(usable, np.maximum(np.maximum(pa[0], pa[1]), pa[2])
                                     - np.minimum(np.minimum(pb[0], pb[1]), pb[2]), np.inf)
            self.axes[i] = n

    def cone(self, axis, angle, lower, upper):
        """The sweep of the pairs that can meet for a move t d with d within `angle` (radians, below a quarter turn)
        of the unit `axis` and lower <= t <= upper (`in_cone`)."""
        keep = in_cone(self.ca, self.cb, axis, angle, lower, upper)
        out = object.__new__(Sweep)
        out.pairs, out.scale, out.held = int(np.count_nonzero(keep)), self.scale, self.held
        out.ca, out.cb = self.ca[keep], self.cb[keep]
        out.axes, out.lo, out.hi = self.axes[:, keep], self.lo[:, keep], self.hi[:, keep]
        return out

    def intervals(self, directions):
        """Per direction (rows of `directions`) the pairs' open intervals of t, (start, end), each (k, m), and the
        indices of the k pairs kept (those that meet along some of the directions; start >= end where they do
        not)."""
        m = directions.shape[0]
        rows = np.arange(self.pairs)
        start = np.full((self.pairs, m), -np.inf)
        end = np.full((self.pairs, m), np.inf)
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(11):
                # along axis n: n.(t d) strictly between lo and hi (dn = 0: every t or none, by lo/0 and hi/0)
                dn = self.axes[i][rows] @ directions.T
                a = self.lo[i][rows][:, None] / dn
                b = self.hi[i][rows][:, None] / dn
                np.maximum(start, np.minimum(a, b), out=start)
                np.minimum(end, np.maximum(a, b), out=end)
                alive = np.any(start < end, axis=1)
                if np.count_nonzero(alive) < 0.6 * alive.size:
                    rows, start, end = rows[alive], start[alive], end[alive]
        return start, end, rows

    def depths(self, directions, lower, upper, count=1):
        """Per direction the first `count` candidate lengths in [lower, upper) (the ends of the union's pieces,
        shortest first; inf where there are fewer), as an (m, count) array."""
        directions = np.atleast_2d(np.asarray(directions, float))
        out = np.full((directions.shape[0], count), np.inf)
        block = max(1, CHUNK // max(1, self.pairs))
        for first in range(0, directions.shape[0], block):
            part = directions[first:first + block]
            start, end, _ = self.intervals(part)
            for j in range(part.shape[0]):
                out[first + j] = _gaps(start[:, j], end[:, j], lower, upper, count, 1e-12 * self.scale, self.held)
        return out


def _gaps(start, end, lower, upper, count, eps, held=False):
    """The first `count` points t >= lower not inside any open interval (start, end), below `upper`: `lower` itself
    when it is outside them all, else ends of the union's pieces (gaps narrower than eps are closed).  `held`: at
    t = 0 nothing crosses (one mesh holds the other), so the stretch up to the first crossing is held too, and no
    candidate; with no crossing at all there is none."""
    out = np.full(count, np.inf)
    real = start < end
    if held:
        ahead = real & (end > 0.0)
        if not np.any(ahead):
            return out
        lower = max(lower, float(start[ahead].min()))
    keep = real & (end > lower) & (start < upper)
    if not np.any(keep):
        out[0] = lower
        return out
    start, end = start[keep], end[keep]
    order = np.argsort(start, kind="stable")
    start, end = start[order], end[order]
    reach = np.maximum(np.maximum.accumulate(end), lower)
    before = np.concatenate([[lower], reach[:-1]])
    # a free point at `before` when the next interval starts beyond it (its end is open: the pairs only touch there)
    points = np.concatenate([before[start > before + eps], reach[-1:]])
    points = points[points < upper][:count]
    out[: points.size] = points
    return out


def in_cone(ca, cb, axis, angle, lower, upper):
    """Which triangle pairs (corners ca, cb, each (K, 3, 3)) can meet for a move t d with d within `angle` (radians,
    below a quarter turn) of the unit `axis` and lower <= t <= upper: a - b (the hull of its nine corner
    differences) must reach the half-space x.axis >= lower cos(angle) and come within upper sin(angle) of the
    axis's line in both directions across it (t d itself does: t d.axis >= t cos(angle), and it lies
    t sin(angle(d, axis)) from the line)."""
    u = np.cross(axis, np.eye(3)[int(np.argmin(np.abs(axis)))])
    u /= np.linalg.norm(u)
    w = np.cross(axis, u)
    frame = np.array([axis, u, w])
    pa = (ca.reshape(-1, 3) @ frame.T).reshape(-1, 3, 3)   # (K, corner, axis)
    pb = (cb.reshape(-1, 3) @ frame.T).reshape(-1, 3, 3)
    hi = np.maximum(np.maximum(pa[:, 0], pa[:, 1]), pa[:, 2]) - np.minimum(np.minimum(pb[:, 0], pb[:, 1]), pb[:, 2])
    lo = np.minimum(np.minimum(pa[:, 0], pa[:, 1]), pa[:, 2]) - np.maximum(np.maximum(pb[:, 0], pb[:, 1]), pb[:, 2])
    side = upper * np.sin(angle)
    return ((hi[:, 0] >= lower * np.cos(angle)) & (lo[:, 0] <= upper)
            & (hi[:, 1] >= -side) & (lo[:, 1] <= side) & (hi[:, 2] >= -side) & (lo[:, 2] <= side))


def pairs_within(frame, lower, reach):
    """The corners (ca, cb), each (K, 3, 3), of the triangle pairs the descent finds within `reach` of each other
    as placed, less those that meet only for moves shorter than `lower` (every corner of a - b nearer than
    `lower`: the difference, their hull, lies inside that ball, and so does every t d at which they meet) and
    those with a triangle without area (`_with_area`)."""
    wa, wb = frame.sa.world, frame.sb.world
    found = descend(wa, wb, reach + frame.band, PRUNE * frame.scale, None, near_only=True)
    ia, ib = found.ia, found.ib
    ca, cb = np.take(wa.leaf_corners, ia, axis=0), np.take(wb.leaf_corners, ib, axis=0)
    far = np.zeros(ia.size)
    for i in range(3):
        for j in range(3):
            diff = ca[:, i] - cb[:, j]
            far = np.maximum(far, row_dot(diff, diff))
    keep = (far >= lower * lower) & _with_area(ca) & _with_area(cb)
    return ca[keep], cb[keep]


def _with_area(corners):
    """Triangles (rows of (K, 3, 3) corners) with an area.  A dirty mesh's zero-area triangles and collinear slivers
    lie on the edges of its other triangles, and their missing axes would widen every interval they are in to most
    of the line (leaving no candidate); a candidate is judged by the crossing test anyway, so leaving a triangle out
    can only cost a candidate, never a wrong move."""
    n = row_cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    edge = np.max(np.abs(corners - corners[:, :1]), axis=(1, 2))
    return row_dot(n, n) > (1e-12 * edge * edge) ** 2


def cone_sweep(ca, cb, scale, axis, angle, lower, upper, held=False, most=MAX_PAIRS, balls=None):
    """The `Sweep` of the pairs among (ca, cb) (`pairs_within`) that can meet for a move t d with d within `angle`
    of the unit `axis` and lower <= t <= upper (`in_cone`), or None when more than MAX_PAIRS do.  Its depths
    along such directions are those of the whole sweep; along others they may be too short (pairs left out)."""
    if balls is not None:
        # t d (d in the cone, lower <= t <= upper) lies within upper sin(angle) of the axis's segment from
        # lower cos(angle): a pair's ball must come that near it
        centre, radius = balls
        near = np.flatnonzero(_near_segments(centre, radius, np.asarray(axis, float)[None], lower * np.cos(angle),
                                             upper, upper * np.sin(angle))[:, 0])
        keep = near[in_cone(ca[near], cb[near], axis, angle, lower, upper)]
    else:
        keep = np.flatnonzero(in_cone(ca, cb, axis, angle, lower, upper))
    if keep.size > most:
        return None
    return Sweep(ca[keep], cb[keep], scale, held)


def pair_balls(ca, cb):
    """Per pair a ball holding a - b: about the difference of the triangles' centroids, of radius the sum of their
    corners' largest distances from them.  Returns (centre (K, 3), radius (K,))."""
    ma, mb = ca.mean(axis=1), cb.mean(axis=1)
    radius = (np.sqrt(np.max(np.sum((ca - ma[:, None]) ** 2, axis=2), axis=1))
              + np.sqrt(np.max(np.sum((cb - mb[:, None]) ** 2, axis=2), axis=1)))
    return ma - mb, radius


def _near_segments(centre, radius, directions, lower, upper, widen=0.0):
    """(K, m) whether each pair's ball (`pair_balls`) comes within `widen` of the segment from lower d to upper d,
    per direction d (a superset: the rounding allowance only adds pairs)."""
    dots = centre @ directions.T
    along = np.clip(dots, lower, upper)
    reach = radius + widen
    norm2 = row_dot(centre, centre)
    # |c - s d|^2 = |c|^2 - 2 s c.d + s^2 for s = c.d clipped to the segment
    return (norm2[:, None] - 2.0 * along * dots + along * along
            <= (reach * reach * (1.0 + 1e-9))[:, None] + 1e-9 * norm2[:, None])


def ray_depths(ca, cb, scale, directions, lower, upper, held=False, balls=None, progress=None):
    """Per direction d (rows of `directions`, unit) the first candidate length in [lower, upper) (inf if none),
    each from a `Sweep` of only the pairs among (ca, cb) whose difference a - b can hold a point t d with
    lower <= t <= upper: a - b lies in the ball about the difference of the triangles' centroids whose radius is
    the sum of their corners' largest distances from them, which must reach the segment, and then `in_cone` with
    no angle.  Exact along each d as the whole sweep is; for pairs too many to sweep at once (a direction along which more than MAX_PAIRS can meet is
    left inf).  `progress`: the depth interval's hook (core/progress.py), called before each eight directions."""
    centre, radius = pair_balls(ca, cb) if balls is None else balls
    out = np.full(directions.shape[0], np.inf)
    for first in range(0, directions.shape[0], 8):
        report(progress, Stage.DIRECTIONS, 0.8 + 0.1 * first / directions.shape[0])
        near = _near_segments(centre, radius, directions[first:first + 8], lower, upper)
        for k in range(near.shape[1]):
            _ray(out, first + k, directions[first + k], np.flatnonzero(near[:, k]), ca, cb, scale, lower, upper, held)
    return out


def _ray(out, j, d, keep, ca, cb, scale, lower, upper, held):
    """`ray_depths` along one direction d (into out[j]) from the pairs `keep` (those whose ball reaches it)."""
    keep = keep[in_cone(ca[keep], cb[keep], d, 0.0, lower, upper)]
    if keep.size > MAX_PAIRS:
        return
    if keep.size == 0:
        out[j] = np.inf if held else lower
        return
    out[j] = Sweep(ca[keep], cb[keep], scale, held).depths(d[None], lower, upper)[0, 0]


def sweep(frame, lower, reach, held=False):
    """The `Sweep` of a pair frame's meshes for moves from `lower` up to `reach` (the pairs `pairs_within` finds),
    or None when more than MAX_PAIRS triangle pairs lie within it.  `held`: nothing crosses as placed."""
    ca, cb = pairs_within(frame, lower, reach)
    if ca.shape[0] > MAX_PAIRS:
        return None
    return Sweep(ca, cb, frame.scale, held)


def _around(d, angle, k=8):
    """k directions `angle` (radians) from the unit vector d, evenly turned about it."""
    u = np.cross(d, np.eye(3)[int(np.argmin(np.abs(d)))])
    u /= np.linalg.norm(u)
    w = np.cross(d, u)
    phi = 2.0 * np.pi * np.arange(k) / k
    ring = np.cos(phi)[:, None] * u + np.sin(phi)[:, None] * w
    out = np.cos(angle) * d + np.sin(angle) * ring
    return out / np.sqrt(row_dot(out, out))[:, None]


def shortest(sw: Sweep, starts, lower, upper, spread=96, keep=3, ring=8, angle=0.25, finest=2e-3, work=None):
    """The shortest candidate moves the sweep finds: the directions `starts` and up to `spread` spread ones, then a
    pattern search from the best `keep` of them (`ring` directions `angle` radians around the best; a shorter one
    is moved to, else the angle halves, down to `finest`), within `work` pair-direction evaluations (WORK by
    default: a sweep with many pairs tries fewer directions).  Returns (t, d) pairs below `upper`, shortest first
    (each d a unit vector, t the first candidate along it)."""
    budget = max(4 * ring, (WORK if work is None else work) // max(1, sw.pairs))
    directions = [np.asarray(s, float) / np.linalg.norm(s) for s in starts if np.linalg.norm(s) > 0.0]
    spread = int(min(spread, max(0, budget // 3 - len(directions))))
    if spread:
        directions.extend(fibonacci_directions(spread))
    directions = np.array(directions).reshape(-1, 3)
    if directions.shape[0] == 0:
        return []
    t = sw.depths(directions, lower, upper)[:, 0]
    budget -= directions.shape[0]
    order = np.argsort(t, kind="stable")
    found = [(float(t[i]), directions[i]) for i in order if np.isfinite(t[i])]
    out = list(found)
    for t0, d0 in found[:keep]:
        best_t, best_d, step = t0, d0, angle
        local, axis, width = None, d0, 0.0
        while step >= finest and best_t > lower and budget >= ring:
            if local is None or _angle(best_d, axis) + step > width:
                # the pairs that can meet within a cone about the best direction (rebuilt as it wanders or shrinks)
                axis, width = best_d, min(1.2, 3.0 * step)
                local = sw.cone(axis, width, lower, best_t)
            around = _around(best_d, step, ring)
            tr = local.depths(around, lower, best_t)[:, 0]
            budget -= max(1, ring * local.pairs // max(1, sw.pairs))
            j = int(np.argmin(tr))
            if tr[j] < best_t:
                best_t, best_d = float(tr[j]), around[j]
                out.append((best_t, best_d))
            else:
                step *= 0.5
                if local.pairs > 64 and 3.0 * step < 0.5 * width:
                    local = None
    out.sort(key=lambda item: item[0])
    # where the shortest lie in a crease of the free moves, the contact-space projection goes down it
    for t0, d0 in out[:keep]:
        moved = polish(sw, t0 * d0)
        if moved is not None:
            length = float(np.linalg.norm(moved))
            out.append((length, moved / length))
    out.sort(key=lambda item: item[0])
    return [(t, d) for t, d in out if t < upper]


def _angle(u, v):
    return float(np.arccos(np.clip(np.dot(u, v), -1.0, 1.0)))


POLISH_ROUNDS = 4
"""Rounds of `polish` (each picks every pair's half-space again at the new point and projects once more)."""

POLISH_CUTS = 40
"""Half-spaces a projection in `polish` adds at most (one per step, the most violated) before it gives up."""


def polish(sw: Sweep, move, rounds: int = POLISH_ROUNDS):
    """A shorter move than `move` (a candidate the sweep finds free: outside every pair's difference) where the
    free moves nearby form a crease or a corner, which a search over directions creeps along slowly (two L
    prisms hooked into each other leave along the diagonal of two faces' normals).  Each pair's difference a - b
    is the open set where all its eleven axes' shadows overlap, so its outside is the union of 22 half-spaces
    (n.x >= hi or n.x <= lo per usable axis).  Picking for every pair one of them that holds the move gives a
    convex set P of moves, all outside every pair's difference; its point nearest the origin (the projection of
    the origin on P, by adding the most violated half-space at a time) is a move at least as short.  Then the
    half-spaces are picked again at that point, those that leave the most room towards the origin, and so on.
    Each point is replaced by the sweep's depth along its direction.  Returns the shortest move found (pair
    frame), or None when none is shorter.  A candidate only, as the sweep's own: the caller judges it with the
    crossing test."""
    x = np.asarray(move, float)
    start = float(np.linalg.norm(x))
    if sw.pairs == 0 or not start > 0.0:
        return None
    axes = sw.axes.transpose(1, 0, 2)            # (K, 11, 3)
    usable = np.isfinite(sw.lo.T) & np.isfinite(sw.hi.T)   # (K, 11)
    eps = 1e-12 * sw.scale
    best = None
    for _ in range(rounds):
        along = np.einsum("kij,j->ki", axes, x)   # (K, 11)
        # per pair, the half-spaces holding x (a hair of rounding allowed) ...
        above = usable & (along >= sw.hi.T - eps)
        below = usable & (along <= sw.lo.T + eps)
        # ... scored by the room they leave towards the origin: their value at x shrunk to 90 %
        toward = 0.9 * along
        score = np.concatenate([np.where(above, toward - sw.hi.T, -np.inf), np.where(below, sw.lo.T - toward, -np.inf)],
                               axis=1)   # (K, 22)
        pick = np.argmax(score, axis=1)
        rows = np.arange(sw.pairs)
        if not np.all(np.isfinite(score[rows, pick])):
            return best   # x is inside some pair's difference: not a free move of the sweep
        axis = pick % 11
        sign = np.where(pick < 11, 1.0, -1.0)
        g = sign[:, None] * axes[rows, axis]                       # g . y >= h
        h = np.where(pick < 11, sw.hi.T[rows, axis], -sw.lo.T[rows, axis])
        y = _project_origin(g, h, eps)
        if y is None:
            return best
        length = float(np.linalg.norm(y))
        if not 0.0 < length < float(np.linalg.norm(x)) * (1.0 - 1e-9):
            break   # no shorter move, or the origin itself holds every half-space within rounding (no direction)
        # the sweep's own depth along y's direction from just short of y: a corner of P where pairs only touch
        # can be an isolated point of the free moves (faces coplanar in the end), whose ray is covered on
        # both sides; the depth says where the ray really leaves
        d = y / length
        t = float(sw.depths(d[None], length * (1.0 - 1e-9), start)[0, 0])
        if not t < float(np.linalg.norm(x)) * (1.0 - 1e-9):
            break
        x = t * d
        best = x
    return best


def _project_origin(g, h, eps):
    """The point of {y : g y >= h} (rows) nearest the origin, by cuts: the projection on the half-spaces taken so
    far (every subset of up to three as equalities, the nearest that holds them all), then the most violated of
    the rest added; None when POLISH_CUTS are not enough."""
    taken = []
    y = np.zeros(3)
    for _ in range(POLISH_CUTS):
        slack = g @ y - h
        j = int(np.argmin(slack))
        if slack[j] >= -eps:
            return y
        taken.append(j)
        y = _nearest_in(g[taken], h[taken], eps)
        if y is None:
            return None
    return None


def _nearest_in(g, h, eps):
    """The point of {y : g y >= h} (a few rows) nearest the origin: among the projections of the origin on the
    affine sets where one, two or three of the rows hold with equality and push it the right way (multipliers not
    negative), the nearest that satisfies every row."""
    k = g.shape[0]
    best, best_norm = None, np.inf
    for size in (1, 2, 3):
        subsets = _subsets(k, size)
        if subsets.shape[0] == 0:
            continue
        gs, hs = g[subsets], h[subsets]                      # (S, size, 3), (S, size)
        gram = np.einsum("sij,skj->sik", gs, gs)
        ok = np.abs(np.linalg.det(gram)) > 1e-12
        if not np.any(ok):
            continue
        gs, hs = gs[ok], hs[ok]
        lam = np.linalg.solve(gram[ok], hs[:, :, None])[:, :, 0]
        y = np.einsum("sij,si->sj", gs, lam)
        good = np.all(lam >= 0.0, axis=1) & np.all(y @ g.T >= h[None, :] - eps, axis=1)
        if np.any(good):
            norms = row_dot(y, y)
            j = int(np.argmin(np.where(good, norms, np.inf)))
            if norms[j] < best_norm:
                best, best_norm = y[j], float(norms[j])
    return best


def _subsets(k, size):
    """Every subset of `size` of range(k), as rows of an int array."""
    grid = np.stack(np.meshgrid(*[np.arange(k)] * size, indexing="ij"), axis=-1).reshape(-1, size)
    return grid[np.all(np.diff(grid, axis=1) > 0, axis=1)] if size > 1 else grid
