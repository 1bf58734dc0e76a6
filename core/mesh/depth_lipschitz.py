"""A lower bound of the translational penetration depth by a Lipschitz covering of translation space (issue 19;
called from core/mesh/depth_interval.py while its other bounds leave the interval wider than WIDER of U).

The argument.  Let dA(p) be the distance from p to A's surface, taken where p is inside A (non-zero winding), and
dB likewise.  For a translation c of B and a point p inside A with p - c inside B, set g(c, p) = dA(p) + dB(p - c).
The open ball of radius dA(p) about p lies inside A, and the one of radius dB(p - c) about p lies inside B + c.
After any further move e of B with |e| < g(c, p), the point p + s e (s = dA(p) / g(c, p)) is within dA(p) of p and
within dB(p - c) of p + e, so it lies inside A and inside B + c + e: the translation c + e still leaves the
interiors overlapping.  So a set of translations inside a ball of radius h about c overlaps throughout as soon as
some p gives g(c, p) > h.  If every cell of a partition of the shell L <= |c| <= r is certified that way (the
interval's L being certified already: every shorter move overlaps), every translation shorter than r overlaps:
PD >= r.

The cells.  The cone over a spherical triangle (an icosahedron's faces, split in four) times a range of radii
[r0, r1]; the ball about the point at the middle radius on the triangle's axis, through the cap about the axis
that holds the triangle's corners, holds the cell (`_Cells.ball`).  They start as the 80 triangles over the
shell from L to the goal (1 - GOAL) U and are taken nearest the origin first (least r0), BATCH at a time.  A cell
not certified is split (in four across, or in two along the radius when it is deeper than wide) until its ball's
radius falls below FINEST x U; a finest cell that still fails caps the bound at its r0, and when the budget of
point queries runs out, the least r0 of the cells left open does.

The candidates.  `_Sources`: translation balls B(T, R), each with a point inside both solids for any translation
c it holds (p = P + S (c - T)): the pairs of medial balls of A and of B (their difference is the ball about
x - y of radius rA + rB), and each cell's best point so far (the balls' argument above about its centre).  A
source reaching past a cell's ball certifies it with no query; otherwise the cell's CANDIDATES farthest-reaching
sources give points (proved inside by their ball, or by winding numbers where the ball falls short), their exact
g, and the best climbs by a local ascent (the gradient of g is the sum of the unit directions away from the two
nearest surface points; every step is shorter than min(dA, dB), so the point stays inside both).  A point stuck
on one surface (the smaller distance below STUCK of the larger: the source's point is inside, but at the edge of
the overlap) cannot move that way; it climbs by `_climb` instead, whose steps are as long as the larger distance,
each proved to stay inside by the distances at both of its ends (no surface point on the segment) or by winding
numbers.  (Such points are common deep in a covering of bumpy shapes: the overlap of A and the moved B is small
there, the sources' points land at its rim, and g read there is a small fraction of what the overlap's middle
gives.)

Per-cell witnesses (`WITNESS_VERTICES` on; the prototypes `WITNESS_SAMPLES` and `WITNESS_BOX` off).  Far out
in a bumpy pair's covering A ∩ (B + c) is a few hundredths of a per cent of the box A and B + c share, and many
failing cells get no point inside both from the sources.  These give such a cell points of their own (a pool inside
A, samples in that box, or points next to either mesh's vertices, ranked by signed-distance grids), proved inside
both by winding numbers and climbed; docs/decisions.md ("The Lipschitz covering's settings") has what they gain
and cost.  The vertex witnesses' grids and queries come on top of the budget (at most WITNESS_CAP of it
for the queries): charged to it, they would leave the pairs that finish the covering with little to spare short.

Certified.  The distances are the hierarchy's exact closest points (core/mesh/points.py) and the inside tests
its winding numbers; a cell counts only when g exceeds its ball's radius (taken a hair large) plus a rounding
allowance of ROUNDING x (scale + U); the medial balls' radii are shrunk by a relative hair.
"""
from __future__ import annotations

import numpy as np

from .. import sphere_cells
from ..progress import Stage, report
from ..rows import row_dot
from .depth_cover import medial_points
from .points import closest_points, inside_both, winding_numbers

__all__ = ["lipschitz_bound", "WIDER"]

WIDER = 1e-2
"""The stage runs only while the interval is wider than this fraction of U."""

GOAL = 9e-3
"""Moves beyond (1 - GOAL) x U are not covered: the bound then leaves a gap of at most this fraction of U."""

FINEST = 1e-3
"""A cell is split until its ball's radius is below this fraction of U; a finest cell that fails caps the bound."""

START_LEVEL = 1
"""The first cells: the icosahedron's faces split this many times (80), each over LAYERS shells."""

LAYERS = 1
"""The shell from L to the goal is cut into this many layers to start with."""

MAX_QUERIES = 24_000
"""Exact point queries (a closest point or a winding number of one point) spent at most, for pairs up to SMALL
triangles; fewer above (each costs more), down to MIN_QUERIES."""

MIN_QUERIES = 6_000

MAX_TRIANGLES = 20_000
"""Pairs of more triangles in all are not covered (each point query costs more there, and the one-shot query of
two 20k-triangle meshes is to stay within a second)."""

SMALL = 4000
"""Pairs up to this many triangles in all get MAX_QUERIES."""

RADIAL_SPLIT = 0.35
"""A cell split along the radius is cut at this share of its depth from its inner end: the inner child, thinner,
has the smaller ball, and when the budget runs out the bound (the least inner radius left open) has risen by
smaller steps."""

BATCH = 512
"""Cells evaluated per pass (the nearest open ones)."""

POOL = 4
"""Points deep inside both solids as placed (the witnesses' centre is the deepest)."""

NEIGHBOURS = 4
"""Sources (translation balls) each cell's centre is checked against: those reaching farthest past it."""

STEPS = 2
"""Ascent steps of a cell's best point while the cell is not certified."""

TRIALS = np.array([0.5, 2.0])
"""Step lengths tried at each ascent step (times the point's own step, which grows on success)."""

CLIMB_FROM = 0.6
"""A cell's best point (not stuck on a surface) climbs only when its g is above this share of the cell's ball's
radius."""

STUCK = 0.25
"""A cell's best point whose smaller distance is below this share of the larger sits on one surface, deep in the
other solid: it climbs by `_climb` (long steps), whatever its g."""

CLIMB_STEPS = 2
"""Steps of `_climb` for a cell's best point from the sources (most of the budget goes there on bumpy pairs; the
points still short after two steps are left to the split and the per-cell witnesses)."""

CLIMB_TRIALS = np.array([0.5, 1.0, 2.0])
"""Step lengths `_climb` tries at each step (times the point's own step: half the larger distance at first, 1.5
times the last step taken after a success, a quarter after a failure)."""

CANDIDATES = 2
"""Points (of the sources reaching farthest past its centre) whose exact g a cell not certified by the sources
alone gets."""

MAX_PAIRS = 20_000
"""Medial ball pairs kept as sources (those reaching farthest)."""

MEDIAL_SAMPLES = 512
"""Points sampled in each solid's box (besides the seeds) for its medial balls."""

BALLS = 128
"""Medial balls kept per solid (the largest, spread: BALLS^2 pairs at most).  Many, because far out in the
covering the overlap of A and the moved B is a few bumps' worth near the solids' rims: a cell's point comes from the
pair of balls nearest its translation, and with few balls that point lands in a thin corner of the overlap, where
g is a small share of what the overlap's thick part gives (a bumpy pair's cells then fail at the finest size)."""

MEDIAL_STEPS = 6
"""Steps moving each towards the medial axis."""

WITNESS_SAMPLES = 0
"""Per-cell witnesses from a pool (`_Witness`, a prototype, off at 0): points sampled in A's box for the pool of
points inside A.  Off because it does not pay on the blobs (docs/decisions.md, "The Lipschitz covering's
settings")."""

FIELD = 14
"""Nodes per axis of B's signed-distance grid (ranks the pool's points for a cell's translation)."""

WITNESS_BOX = 0
"""Per-cell witnesses sampled in the box where A and B moved by the cell's centre can meet (`_box_rescue`, a
prototype, off at 0): points sampled per failing cell."""

WITNESS_VERTICES = 8
"""Per-cell witnesses next to the meshes' vertices (`_VertexWitness`; 0: none; else the grids' nodes per axis): a vertex of B moved by the cell's centre that the grid puts deep in A (or one of A's deep in the moved
B), stepped a little into its own solid."""

WITNESS_CAP = 0.2
"""The vertex witnesses stop once their queries pass this share of the budget (checked before each batch)."""

WITNESS_SOURCES = 1
"""1: the vertex witnesses' points become sources for the cells after them (as each cell's best point does)."""

VERTEX_STEP = 0.1
"""How far a vertex's candidate point lies inside its own solid: this share of its edges' mean length."""

WITNESS_COUNT_BUILD = 0
"""1: the pool's or the grids' construction (and the vertex witnesses' queries) is charged to the query budget; 0:
not (the vertex witnesses then spend at most WITNESS_CAP of the budget on top of it)."""

WITNESS_SIZE = 0.1
"""Only cells whose ball's radius is below this fraction of U get a per-cell witness."""

WITNESS_TRY = 8
"""Points per failing cell evaluated exactly (the pool's best ranked, or the box's first found inside both)."""

WITNESS_STEPS = 6
"""`_climb` steps of a failing cell's per-cell witness."""

WITNESS_BELOW = 1.0
"""A failing cell gets a per-cell witness when its best g is below this share of its ball's radius (1: every
failing cell small enough; at 0.6 the witnesses' points, made sources, displaced better candidates of
neighbouring cells on one corpus pair: docs/decisions.md, "The Lipschitz covering's settings")."""

ROUNDING = 1e-9
"""Relative rounding allowance (of the pair's scale plus U) that g must exceed the circumradius by."""

def lipschitz_bound(sa, sb, seeds: np.ndarray, scale: float, lower: float, upper: float, max_queries=None,
                    finest: float = FINEST, goal: float = GOAL, margin: bool = True, progress=None,
                    trace=None):
    """A lower bound of PD above `lower`, or None (pair-frame sides `sa`, `sb`, both closed; `seeds` points where
    the solids may overlap as placed; [lower, upper] the interval so far, upper realised by a free move).
    Returns (r, centre, direction): `centre` a point inside both solids as placed, `direction` the unit
    translation where the covering stopped (the axis of the nearest cell left uncertified).  `margin=False` drops
    the Lipschitz and rounding margins: for tests only (the result is then not a bound).  `progress`: the depth
    interval's hook (core/progress.py), called before each batch of cells.  `trace`: a list that gets each batch's
    (centres, radii h, best g found) appended (for bench/lipschitz_witness.py's diagnosis)."""
    if not (upper > 0.0) or seeds.shape[0] == 0:
        return None
    triangles = sa.local.triangles.shape[0] + sb.local.triangles.shape[0]
    if triangles > MAX_TRIANGLES:
        return None
    if max_queries is None:
        max_queries = int(max(MIN_QUERIES, min(MAX_QUERIES, MAX_QUERIES * SMALL // max(1, triangles))))
    pool = _pool(sa, sb, seeds, scale)
    if pool is None:
        return None
    p0, a0, b0 = pool
    report(progress, Stage.MOVES)
    balls = _balls(sa, sb, seeds, scale, upper)
    if balls[0].shape[0] == 0 or balls[2].shape[0] == 0:
        return None
    allowance = ROUNDING * (float(scale) + upper) if margin else 0.0
    stretch = (1.0 + 1e-9) if margin else 0.0
    target = upper * (1.0 - goal)
    if target <= lower:
        return None
    radius = target  # the bound: lowered by every finest cell that fails
    # the first cells: each face of a split icosahedron over LAYERS shells from `lower` to `target` (the inner
    # ones are finished first, so a budget that runs out still leaves L raised)
    corners = sphere_cells.cells(START_LEVEL)
    edges = lower + (target - lower) * np.arange(LAYERS + 1) / LAYERS
    edges[-1] = target
    cells = _Cells(np.tile(corners, (LAYERS, 1, 1)), np.repeat(edges[:-1], corners.shape[0]),
                   np.repeat(edges[1:], corners.shape[0]))
    xa, ra, xb, rb = balls
    # the medial ball pairs whose translation balls reach beyond `lower` (the others hold nothing new)
    centre = (xa[:, None, :] - xb[None, :, :]).reshape(-1, 3)
    reach = (ra[:, None] + rb[None, :]).ravel()
    keep = np.flatnonzero(np.sqrt(row_dot(centre, centre)) + reach > lower)
    if keep.size > MAX_PAIRS:
        keep = keep[np.argsort(-reach[keep], kind="stable")[:MAX_PAIRS]]
    ia, ib = keep // xb.shape[0], keep % xb.shape[0]
    sources = _Sources(centre[keep], reach[keep], xa[ia], ra[ia] / reach[keep])
    spent = 0
    witness = None
    if WITNESS_SAMPLES:
        witness, used = _Witness.build(sa, sb, scale, upper)
        spent += used * WITNESS_COUNT_BUILD
    vertex_witness, rescued = None, 0
    if WITNESS_VERTICES:
        vertex_witness, used = _VertexWitness.build(sa, sb, scale, upper)
        spent += used * WITNESS_COUNT_BUILD
    stop_direction = None
    while cells.count:
        if spent >= max_queries:
            j = int(np.argmin(cells.r0))
            if cells.r0[j] < radius:
                radius, stop_direction = float(cells.r0[j]), cells.axis()[j]
            break
        report(progress, Stage.MOVES, spent / max_queries)
        order = np.argsort(cells.r0, kind="stable")
        batch, cells = cells.select(order[:BATCH]), cells.select(order[BATCH:])
        centres, size = batch.ball()
        h = size * stretch + allowance
        best, found, used = _evaluate(sa, sb, centres, sources, h, scale, allowance)
        sources = sources.add(found)
        spent += used
        if WITNESS_BOX:
            poor = np.flatnonzero((best <= WITNESS_BELOW * h) & (size < WITNESS_SIZE * upper))
            if poor.size:
                value, found, used = _box_rescue(sa, sb, centres[poor], h[poor], scale, allowance, spent)
                best[poor] = np.maximum(best[poor], value)
                sources = sources.add(found)
                spent += used
        if vertex_witness is not None and rescued < WITNESS_CAP * max_queries:
            poor = np.flatnonzero((best <= WITNESS_BELOW * h) & (size < WITNESS_SIZE * upper))
            if poor.size:
                value, found, used = vertex_witness.rescue(sa, sb, centres[poor], h[poor], scale, allowance)
                best[poor] = np.maximum(best[poor], value)
                if WITNESS_SOURCES:
                    sources = sources.add(found)
                spent += used * WITNESS_COUNT_BUILD
                rescued += used
        if witness is not None:
            poor = np.flatnonzero((best <= WITNESS_BELOW * h) & (size < WITNESS_SIZE * upper))
            if poor.size:
                value, found, used = witness.rescue(sa, sb, centres[poor], h[poor], scale, allowance)
                best[poor] = np.maximum(best[poor], value)
                sources = sources.add(found)
                spent += used
        failed = best <= h
        if trace is not None:
            trace.append((centres.copy(), h.copy(), best.copy()))
        finest_fail = failed & (size < finest * upper)
        if np.any(finest_fail):
            j = int(np.argmin(np.where(finest_fail, batch.r0, np.inf)))
            if batch.r0[j] < radius:
                radius, stop_direction = float(batch.r0[j]), batch.axis()[j]
        split = np.flatnonzero(failed & ~finest_fail)
        if split.size:
            cells = cells.concat(batch.children(split))
        cells = cells.select(np.flatnonzero(cells.r0 < radius))
    if not radius > lower:
        return None
    if stop_direction is None:
        stop_direction = np.array([0.0, 0.0, 1.0])
    j = int(np.argmax(a0 + b0))
    return radius, p0[j].copy(), stop_direction


class _Cells:
    """Cells of translation space: the cone over a spherical triangle (`corners` (k, 3, 3), unit directions) cut to
    the shell r0 <= |c| <= r1."""

    def __init__(self, corners, r0, r1):
        self.corners, self.r0, self.r1 = corners, r0, r1

    @property
    def count(self):
        return self.r0.shape[0]

    def select(self, rows):
        return _Cells(self.corners[rows], self.r0[rows], self.r1[rows])

    def concat(self, other):
        return _Cells(np.concatenate([self.corners, other.corners]), np.concatenate([self.r0, other.r0]),
                      np.concatenate([self.r1, other.r1]))

    def axis(self):
        a = self.corners.sum(axis=1)
        return a / np.sqrt(row_dot(a, a))[:, None]

    def _cos(self):
        """cos of the largest angle between the axis and a corner, a hair smaller: the cap about the axis of that
        angle holds the corners, hence (a cap narrower than a hemisphere being convex) the spherical triangle."""
        return np.einsum("kj,kij->ki", self.axis(), self.corners).min(axis=1) * (1.0 - 1e-12) - 1e-15

    def ball(self):
        """Each cell's centre m a (a the axis, m the middle of the shell) and the radius of a ball about it holding
        the cell: the largest |t u - m a| over t in [r0, r1], u in the cap, reached at an end of the radii (the
        square is convex in t) and on the cap's rim."""
        a, cos = self.axis(), self._cos()
        m = 0.5 * (self.r0 + self.r1)
        reach = np.maximum(*(t * t + m * m - 2.0 * t * m * cos for t in (self.r0, self.r1)))
        return m[:, None] * a, np.sqrt(np.maximum(reach, 0.0))

    def children(self, rows):
        """Each cell of `rows` split in four across (when its width across exceeds its depth) or in two along the
        radius."""
        part = self.select(rows)
        across = part.r1 * np.sqrt(np.maximum(1.0 - part._cos() ** 2, 0.0)) > 0.5 * (part.r1 - part.r0)
        x, y = part.select(np.flatnonzero(across)), part.select(np.flatnonzero(~across))
        mid = y.r0 + RADIAL_SPLIT * (y.r1 - y.r0)
        return _Cells(np.concatenate([sphere_cells.split(x.corners), y.corners, y.corners]),
                      np.concatenate([np.tile(x.r0, 4), y.r0, mid]), np.concatenate([np.tile(x.r1, 4), mid, y.r1]))


def _pool(sa, sb, seeds, scale):
    """Up to POOL points deep inside both solids as placed (the seeds inside both, climbed by the ascent at c = 0):
    (points, dA, dB), or None when no seed lies inside both."""
    p = inside_both(seeds, sa.world, sb.world, scale)
    if p.shape[0] == 0:
        return None
    da, qa = closest_points(p, sa.world)
    db, qb = closest_points(p, sb.world)
    c = np.zeros_like(p)
    keep = np.argsort(-(da + db), kind="stable")[: 4 * POOL]
    p, da, qa, db, qb, c = p[keep], da[keep], qa[keep], db[keep], qb[keep], c[keep]
    p, da, qa, db, qb = _ascend(sa, sb, p, c, da, qa, db, qb, 2 * STEPS)
    order = _spread_best(p, da + db, POOL)
    return p[order], da[order], db[order]


def _spread_best(p, value, count):
    """Up to `count` rows of p: the best by `value`, then each time the best of those farther than half their own
    value from every one taken (spread over the solids, the deepest first)."""
    order = np.argsort(-value, kind="stable")
    p, value = p[order], value[order]
    gap = np.full(p.shape[0], np.inf)
    taken = []
    for _ in range(min(count, p.shape[0])):
        free = np.flatnonzero(gap > 0.5 * value)
        if free.size == 0:
            break
        j = int(free[0])
        taken.append(j)
        gap = np.minimum(gap, np.sqrt(row_dot(p - p[j], p - p[j])))
    return order[np.array(taken, dtype=int)]


def _ascend(sa, sb, p, c, da, qa, db, qb, steps):
    """Local ascent of g(c, p) = dA(p) + dB(p - c) over p, each row its own translation c, from points inside A and
    inside B + c; every step is shorter than min(dA, dB), so the points stay inside both."""
    step = 0.5 * np.minimum(da, db)
    factors = TRIALS
    for _ in range(steps):
        ua = p - qa
        ub = p - c - qb
        ua = ua / np.where(da > 0.0, da, 1.0)[:, None]
        ub = ub / np.where(db > 0.0, db, 1.0)[:, None]
        grad = ua + ub
        gn = np.sqrt(row_dot(grad, grad))
        grad = grad / np.where(gn > 0.0, gn, 1.0)[:, None]
        room = 0.9 * np.minimum(da, db)
        sizes = np.minimum(step[:, None] * factors[None, :], room[:, None])
        sizes = np.where((gn > 1e-9)[:, None], sizes, 0.0)
        if not np.any(sizes > 0.0):
            break
        count = p.shape[0]
        t = factors.shape[0]
        trial = (p[:, None, :] + sizes[:, :, None] * grad[:, None, :]).reshape(-1, 3)
        shift = np.repeat(c, t, axis=0)
        ta, tqa = closest_points(trial, sa.world)
        tb, tqb = closest_points(trial - shift, sb.world)
        total = (ta + tb).reshape(count, t)
        pick = np.argmax(total, axis=1)
        rows = np.arange(count) * t + pick
        better = total[np.arange(count), pick] > da + db
        p = np.where(better[:, None], trial[rows], p)
        da, qa = np.where(better, ta[rows], da), np.where(better[:, None], tqa[rows], qa)
        db, qb = np.where(better, tb[rows], db), np.where(better[:, None], tqb[rows], qb)
        taken = sizes[np.arange(count), pick]
        step = np.where(better, np.maximum(taken, 1e-300) * 1.5, step * 0.25)
    return p, da, qa, db, qb


def _climb(sa, sb, p, c, da, qa, db, qb, steps, allowance, scale):
    """Local ascent of g(c, p) over p like `_ascend`, but with steps as long as the larger of the two distances
    (a point on one surface, deep in the other solid, moves off it at once).  A step of length s from p (inside A)
    to p' stays inside A when s < dA(p) - allowance or dA(p) + dA(p') > s + allowance (the distance to the surface
    is 1-Lipschitz along the segment, so no surface point lies on it); else by winding numbers.  The same for B
    moved by c.  Returns (p, dA, dB, queries spent)."""
    spent = 0
    step = 0.5 * np.maximum(da, db)
    factors = CLIMB_TRIALS
    t = factors.shape[0]
    count = p.shape[0]
    for _ in range(steps):
        ua = (p - qa) / np.where(da > 0.0, da, 1.0)[:, None]
        ub = (p - c - qb) / np.where(db > 0.0, db, 1.0)[:, None]
        grad = ua + ub
        gn = np.sqrt(row_dot(grad, grad))
        live = (gn > 1e-9) & (step > allowance)
        if not np.any(live):
            break
        rows = np.flatnonzero(live)
        grad = grad[rows] / gn[rows][:, None]
        sizes = step[rows][:, None] * factors[None, :]
        trial = (p[rows][:, None, :] + sizes[:, :, None] * grad[:, None, :]).reshape(-1, 3)
        shift = np.repeat(c[rows], t, axis=0)
        ta, tqa = closest_points(trial, sa.world)
        tb, tqb = closest_points(trial - shift, sb.world)
        spent += 2 * trial.shape[0]
        s = sizes.ravel()
        da0, db0 = np.repeat(da[rows], t), np.repeat(db[rows], t)
        in_a = (s < da0 - allowance) | (da0 + ta > s + allowance)
        in_b = (s < db0 - allowance) | (db0 + tb > s + allowance)
        value = ta + tb
        # the trials better than the point's own g and not proved inside by their distances: winding numbers
        gain = value > np.repeat(da[rows] + db[rows], t)
        for inside, world, offset in ((in_a, sa.world, None), (in_b, sb.world, shift)):
            test = np.flatnonzero(gain & ~inside)
            if test.size:
                spent += test.size
                q = trial[test] if offset is None else trial[test] - offset[test]
                inside[test] = winding_numbers(q, world, scale) != 0
            gain &= inside
        value = np.where(gain, value, -np.inf).reshape(-1, t)
        pick = np.argmax(value, axis=1)
        better = np.isfinite(value[np.arange(rows.size), pick])
        k = np.arange(rows.size) * t + pick
        take = rows[better]
        k = k[better]
        p[take], qa[take], qb[take] = trial[k], tqa[k], tqb[k]
        da[take], db[take] = ta[k], tb[k]
        grow = np.zeros(count, bool)
        grow[take] = True
        taken = np.zeros(count)
        taken[take] = s[k]
        step = np.where(grow, taken * 1.5, np.where(live, step * 0.25, step))
    return p, da, db, spent


def _balls(sa, sb, seeds, scale, upper):
    """Medial balls of A and of B where they can meet after a move up to `upper`: (xa, ra, xb, rb), the radii
    shrunk by a relative hair (so a point within a radius of the centre lies strictly inside)."""
    rng = np.random.default_rng(19)
    lo_a, hi_a = sa.world.lo[-1], sa.world.hi[-1]
    lo_b, hi_b = sb.world.lo[-1], sb.world.hi[-1]
    out = []
    for side, (slo, shi), (olo, ohi) in ((sa, (lo_a, hi_a), (lo_b, hi_b)), (sb, (lo_b, hi_b), (lo_a, hi_a))):
        lo, hi = np.maximum(slo, olo - upper), np.minimum(shi, ohi + upper)
        points = np.concatenate([seeds, lo + rng.random((MEDIAL_SAMPLES, 3)) * np.maximum(hi - lo, 0.0)])
        x, r = medial_points(side, points, scale, MEDIAL_STEPS)
        keep = _spread_best(x, r, BALLS)
        out += [x[keep], r[keep] * (1.0 - 1e-9)]
    return out


class _Sources:
    """Translation balls, each with the way to a point inside both solids for any translation c it holds:
    `centre` T (k, 3), `radius` R (k,), `anchor` P (k, 3), `share` S (k,); for |c - T| < R the point
    P + S (c - T) lies inside A and inside B + c.  A medial ball pair (x, rA) in A, (y, rB) in B gives T = x - y,
    R = rA + rB, P = x, S = rA / R (the point splits the segment from x to y + c in the ratio of the radii); a point
    p evaluated at a translation c' gives T = c', R = dA + dB, P = p, S = dA / R (the balls' argument)."""

    def __init__(self, centre, radius, anchor, share):
        self.centre, self.radius, self.anchor, self.share = centre, radius, anchor, share

    def add(self, other):
        return _Sources(*(np.concatenate([x, y]) for x, y in zip(
            (self.centre, self.radius, self.anchor, self.share),
            (other.centre, other.radius, other.anchor, other.share))))

    def nearest(self, c, count):
        """For each row of c: the `count` sources reaching farthest past it (indices) and their slack
        R - |c - T|, computed directly (the choice by the expanded square, the slack without its cancellation)."""
        k = self.radius.shape[0]
        count = min(count, k)
        per = max(1, 4_000_000 // max(1, k))
        norms = row_dot(self.centre, self.centre)
        picks = []
        for i in range(0, c.shape[0], per):
            cc = c[i:i + per]
            d2 = norms[None, :] - 2.0 * cc @ self.centre.T + row_dot(cc, cc)[:, None]
            slack = self.radius[None, :] - np.sqrt(np.maximum(d2, 0.0))
            if k > count:
                picks.append(np.argpartition(-slack, count - 1, axis=1)[:, :count])
            else:
                picks.append(np.tile(np.arange(k), (cc.shape[0], 1)))
        pick = np.concatenate(picks)
        gap = c[:, None, :] - self.centre[pick]
        return pick, self.radius[pick] - np.sqrt(np.einsum("ijk,ijk->ij", gap, gap))


def _evaluate(sa, sb, c, sources, h, scale, allowance):
    """The best lower bound of max_p g(c, p) found for each cell's centre c (-inf where none), the new sources
    (each evaluated cell's best point), and the point queries spent.  First the sources alone: a source whose
    ball reaches past c by more than h certifies the cell with no query.  Else the CANDIDATES best sources' points
    (proved inside by their ball or by winding numbers), their exact g, and the best one climbs (`_ascend`, or
    `_climb` when it is stuck on a surface)."""
    n = c.shape[0]
    pick, slack = sources.nearest(c, NEIGHBOURS)
    best = slack.max(axis=1)
    spent = 0
    open_ = np.flatnonzero(~(best > h))
    none = _Sources(np.empty((0, 3)), np.empty(0), np.empty((0, 3)), np.empty(0))
    if open_.size == 0:
        return best, none, spent
    order = np.argsort(-slack[open_], axis=1, kind="stable")[:, :CANDIDATES]
    k = np.take_along_axis(pick[open_], order, axis=1).ravel()
    sl = np.take_along_axis(slack[open_], order, axis=1).ravel()
    owner = np.repeat(open_, order.shape[1])
    pts = sources.anchor[k] + sources.share[k][:, None] * (c[owner] - sources.centre[k])
    # inside both by the source's ball when it holds c (a relative hair to spare), else by winding numbers
    good = sl > 1e-9 * sources.radius[k]
    test = np.flatnonzero(~good)
    if test.size:
        spent += test.size
        inside = winding_numbers(pts[test], sa.world, scale) != 0
        test = test[inside]
        if test.size:
            spent += test.size
            good[test] = winding_numbers(pts[test] - c[owner[test]], sb.world, scale) != 0
    owner, p = owner[good], pts[good]
    if owner.size == 0:
        return best, none, spent
    sh = c[owner]
    spent += 2 * owner.size
    da, qa = closest_points(p, sa.world)
    db, qb = closest_points(p - sh, sb.world)
    value = da + db
    np.maximum.at(best, owner, value)
    # each cell's best point; it climbs while the cell is not certified
    order = np.lexsort((-value, owner))
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
    # a cell far from certified is split instead (its children cost less than the climb would), unless its point
    # is stuck on one surface: the ascent's steps, shorter than min(dA, dB), cannot move it off, `_climb`'s can
    fb, fh = best[owner[first]], h[owner[first]]
    stuck = np.minimum(da[first], db[first]) < STUCK * np.maximum(da[first], db[first])
    ascend = first[(fb <= fh) & (fb > CLIMB_FROM * fh) & ~stuck]
    climb = first[(fb <= fh) & stuck]
    if ascend.size:
        spent += 2 * TRIALS.size * STEPS * ascend.size
        p2, da2, _, db2, _ = _ascend(sa, sb, p[ascend], sh[ascend], da[ascend], qa[ascend], db[ascend], qb[ascend],
                                     STEPS)
        p[ascend], da[ascend], db[ascend] = p2, da2, db2
    if climb.size:
        p2, da2, db2, used = _climb(sa, sb, p[climb], sh[climb], da[climb], qa[climb], db[climb], qb[climb],
                                    CLIMB_STEPS, allowance, scale)
        spent += used
        p[climb], da[climb], db[climb] = p2, da2, db2
    moved = np.concatenate([ascend, climb])
    value[moved] = da[moved] + db[moved]
    np.maximum.at(best, owner[moved], value[moved])
    r = da[first] + db[first]
    return best, _Sources(sh[first].copy(), r, p[first].copy(), da[first] / r), spent


class _Witness:
    """A pool of points inside A (exact distances to A's surface) and B's signed distance on a grid, for failing
    cells whose sources give no point (or a poor one) inside both solids: for a cell's centre c the pool's points p
    are ranked by dA(p) + the grid's estimate of B's signed distance at p - c, the best few tested exactly
    (winding number and distance of p - c to B) and the best found climbs (`_climb`).  Only the exact values
    count; the grid only ranks."""

    def __init__(self, p, da, origin, step, grid):
        self.p, self.da, self.origin, self.step, self.grid = p, da, origin, step, grid

    @staticmethod
    def build(sa, sb, scale, upper):
        rng = np.random.default_rng(1919)
        lo_a, hi_a = sa.world.lo[-1].reshape(3), sa.world.hi[-1].reshape(3)
        lo_b, hi_b = sb.world.lo[-1].reshape(3), sb.world.hi[-1].reshape(3)
        spent = 0
        lo, hi = np.maximum(lo_a, lo_b - upper), np.minimum(hi_a, hi_b + upper)
        pts = lo + rng.random((WITNESS_SAMPLES, 3)) * np.maximum(hi - lo, 0.0)
        spent += pts.shape[0]
        pts = pts[winding_numbers(pts, sa.world, scale) != 0]
        spent += pts.shape[0]
        da, _ = closest_points(pts, sa.world)
        lo, hi = np.maximum(lo_b, lo_a - upper), np.minimum(hi_b, hi_a + upper)
        step = np.maximum(hi - lo, 1e-300) / (FIELD - 1)
        axes = [lo[k] + step[k] * np.arange(FIELD) for k in range(3)]
        nodes = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        spent += 2 * nodes.shape[0]
        sign = np.where(winding_numbers(nodes, sb.world, scale) != 0, 1.0, -1.0)
        db, _ = closest_points(nodes, sb.world)
        return _Witness(pts, da, lo, step, (sign * db).reshape(FIELD, FIELD, FIELD)), spent

    def estimate(self, q):
        """B's signed distance at q (k, 3) read off the grid (`_grid_value`)."""
        return _grid_value((self.origin, self.step, self.grid), q)

    def rescue(self, sa, sb, c, h, scale, allowance):
        """For cells with centres c and radii h: the best exact g found from the pool (-inf where none), the new
        sources, the queries spent."""
        n = c.shape[0]
        best = np.full(n, -np.inf)
        none = _Sources(np.empty((0, 3)), np.empty(0), np.empty((0, 3)), np.empty(0))
        if self.p.shape[0] == 0:
            return best, none, 0
        score = np.empty((n, self.p.shape[0]))
        per = max(1, 2_000_000 // self.p.shape[0])
        for i in range(0, n, per):
            cc = c[i:i + per]
            q = (self.p[None, :, :] - cc[:, None, :]).reshape(-1, 3)
            score[i:i + per] = self.da[None, :] + self.estimate(q).reshape(cc.shape[0], -1)
        k = min(WITNESS_TRY, self.p.shape[0])
        pick = np.argsort(-score, axis=1, kind="stable")[:, :k]
        owner = np.repeat(np.arange(n), k)
        j = pick.ravel()
        p, sh = self.p[j], c[owner]
        spent = p.shape[0]
        inside = winding_numbers(p - sh, sb.world, scale) != 0
        best, found, used = _finish(sa, sb, n, owner[inside], p[inside], sh[inside], h, scale, allowance)
        return best, found, spent + used


def _box_rescue(sa, sb, c, h, scale, allowance, salt):
    """Failing cells with centres c, radii h: WITNESS_BOX points per cell sampled in the box A's box and B's box
    moved by c share, those inside both (winding numbers) evaluated exactly (the best WITNESS_TRY a cell by their
    order), and each cell's best climbs.  Returns (best g per cell, -inf where none; new sources; queries)."""
    n = c.shape[0]
    rng = np.random.default_rng([1919, int(salt)])
    lo_a, hi_a = sa.world.lo[-1].reshape(3), sa.world.hi[-1].reshape(3)
    lo_b, hi_b = sb.world.lo[-1].reshape(3), sb.world.hi[-1].reshape(3)
    lo, hi = np.maximum(lo_a, lo_b + c), np.minimum(hi_a, hi_b + c)
    m = WITNESS_BOX
    owner = np.repeat(np.arange(n), m)
    pts = (lo[owner] + rng.random((n * m, 3)) * np.maximum(hi - lo, 0.0)[owner])
    ok = np.repeat(np.all(hi > lo, axis=1), m)
    owner, pts = owner[ok], pts[ok]
    spent = pts.shape[0]
    keep = winding_numbers(pts, sa.world, scale) != 0
    owner, pts = owner[keep], pts[keep]
    spent += pts.shape[0]
    keep = winding_numbers(pts - c[owner], sb.world, scale) != 0
    owner, pts = owner[keep], pts[keep]
    # the first WITNESS_TRY of each cell
    rank = np.arange(owner.size) - np.searchsorted(owner, owner)
    keep = rank < WITNESS_TRY
    best, found, used = _finish(sa, sb, n, owner[keep], pts[keep], c[owner[keep]], h, scale, allowance)
    return best, found, spent + used


def _signed_grid(side, lo, hi, n, scale):
    """The signed distance (positive inside) to `side`'s closed mesh at an n^3 grid over [lo, hi]: (origin, step,
    values (n, n, n)), and the queries spent."""
    step = np.maximum(hi - lo, 1e-300) / (n - 1)
    axes = [lo[k] + step[k] * np.arange(n) for k in range(3)]
    nodes = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    sign = np.where(winding_numbers(nodes, side.world, scale) != 0, 1.0, -1.0)
    d, _ = closest_points(nodes, side.world)
    return (lo, step, (sign * d).reshape(n, n, n)), 2 * nodes.shape[0]


def _grid_value(grid, q):
    """A signed grid's trilinear estimate at q (k, 3), less the distance outside the grid's box."""
    origin, step, g = grid
    n = g.shape[0]
    u = (q - origin) / step
    v = np.clip(u, 0.0, n - 1 - 1e-9)
    out = np.sqrt(row_dot((u - v) * step, (u - v) * step))
    i = np.floor(v).astype(np.int64)
    f = v - i
    value = np.zeros(q.shape[0])
    for dx in (0, 1):
        wx = f[:, 0] if dx else 1.0 - f[:, 0]
        for dy in (0, 1):
            wy = f[:, 1] if dy else 1.0 - f[:, 1]
            for dz in (0, 1):
                wz = f[:, 2] if dz else 1.0 - f[:, 2]
                value += wx * wy * wz * g[i[:, 0] + dx, i[:, 1] + dy, i[:, 2] + dz]
    return value - out


def _inner_points(side, step_share):
    """Each vertex of `side`'s mesh stepped against its normal (the sum of its triangles' area vectors, turned
    outward by the sign of the mesh's volume) by `step_share` of its edges' mean length."""
    v = side.world.vertices
    t = side.local.triangles
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    area = np.cross(b - a, c - a)
    volume = float(np.sum(row_dot(a, np.cross(b, c))))
    normal = np.zeros_like(v)
    length = np.zeros(v.shape[0])
    count = np.zeros(v.shape[0])
    for k in range(3):
        np.add.at(normal, t[:, k], area)
        e = v[t[:, (k + 1) % 3]] - v[t[:, k]]
        e = np.sqrt(row_dot(e, e))
        np.add.at(length, t[:, k], e)
        np.add.at(count, t[:, k], 1.0)
        np.add.at(length, t[:, (k + 1) % 3], e)
        np.add.at(count, t[:, (k + 1) % 3], 1.0)
    used = count > 0
    norm = np.sqrt(row_dot(normal, normal))
    used &= norm > 0.0
    normal = normal[used] / norm[used][:, None] * (1.0 if volume >= 0.0 else -1.0)
    return v[used] - step_share * (length[used] / count[used])[:, None] * normal


class _VertexWitness:
    """Points just inside each mesh next to its vertices, and both solids' signed distances on grids.  For a
    cell's centre c: B's points moved by c ranked by A's grid, A's points by B's grid at p - c; the best few are
    tested exactly (winding numbers in both), evaluated, and each cell's best climbs (`_climb`).  Where A and the
    moved B overlap by a bump's worth, the bump's tip holds vertices, which a sample of the volume misses."""

    def __init__(self, pa, pb, grid_a, grid_b):
        self.pa, self.pb, self.grid_a, self.grid_b = pa, pb, grid_a, grid_b

    @staticmethod
    def build(sa, sb, scale, upper):
        lo_a, hi_a = sa.world.lo[-1].reshape(3), sa.world.hi[-1].reshape(3)
        lo_b, hi_b = sb.world.lo[-1].reshape(3), sb.world.hi[-1].reshape(3)
        grid_a, spent_a = _signed_grid(sa, np.maximum(lo_a, lo_b - upper), np.minimum(hi_a, hi_b + upper),
                                       WITNESS_VERTICES, scale)
        grid_b, spent_b = _signed_grid(sb, np.maximum(lo_b, lo_a - upper), np.minimum(hi_b, hi_a + upper),
                                       WITNESS_VERTICES, scale)
        return (_VertexWitness(_inner_points(sa, VERTEX_STEP), _inner_points(sb, VERTEX_STEP), grid_a, grid_b),
                spent_a + spent_b)

    def rescue(self, sa, sb, c, h, scale, allowance):
        """For cells with centres c and radii h: the best exact g found next to the vertices (-inf where none),
        the new sources, the queries spent."""
        n = c.shape[0]
        na, nb = self.pa.shape[0], self.pb.shape[0]
        # candidates in A's frame: A's points as they are, B's moved by c
        score = np.empty((n, na + nb))
        per = max(1, 2_000_000 // max(1, na + nb))
        for i in range(0, n, per):
            cc = c[i:i + per]
            m = cc.shape[0]
            qa = (self.pa[None, :, :] - cc[:, None, :]).reshape(-1, 3)
            qb = (self.pb[None, :, :] + cc[:, None, :]).reshape(-1, 3)
            score[i:i + m, :na] = _grid_value(self.grid_b, qa).reshape(m, na)
            score[i:i + m, na:] = _grid_value(self.grid_a, qb).reshape(m, nb)
        k = min(WITNESS_TRY, na + nb)
        pick = np.argsort(-score, axis=1, kind="stable")[:, :k]
        owner = np.repeat(np.arange(n), k)
        j = pick.ravel()
        sh = c[owner]
        p = np.where((j < na)[:, None], self.pa[np.minimum(j, na - 1)], self.pb[np.maximum(j - na, 0)] + sh)
        spent = p.shape[0]
        inside = winding_numbers(p, sa.world, scale) != 0
        owner, p, sh = owner[inside], p[inside], sh[inside]
        spent += p.shape[0]
        inside = winding_numbers(p - sh, sb.world, scale) != 0
        best, found, used = _finish(sa, sb, n, owner[inside], p[inside], sh[inside], h, scale, allowance)
        return best, found, spent + used


def _finish(sa, sb, n, owner, p, sh, h, scale, allowance):
    """The end shared by the per-cell witnesses: points p proved inside A and inside B moved by sh (rows of the
    cells `owner` of n, radii h) get their exact g; each cell's best climbs (`_climb`) while it does not certify
    the cell.  Returns (the best g per cell, -inf where none; the cells' best points as sources; queries spent)."""
    best = np.full(n, -np.inf)
    if owner.size == 0:
        return best, _Sources(np.empty((0, 3)), np.empty(0), np.empty((0, 3)), np.empty(0)), 0
    spent = 2 * owner.size
    da, qa = closest_points(p, sa.world)
    db, qb = closest_points(p - sh, sb.world)
    value = da + db
    order = np.lexsort((-value, owner))
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]]
    climb = first[value[first] <= h[owner[first]]]
    if climb.size:
        p2, da2, db2, used = _climb(sa, sb, p[climb], sh[climb], da[climb], qa[climb], db[climb], qb[climb],
                                    WITNESS_STEPS, allowance, scale)
        spent += used
        p[climb], da[climb], db[climb] = p2, da2, db2
        value[climb] = da2 + db2
    np.maximum.at(best, owner[first], value[first])
    r = da[first] + db[first]
    return best, _Sources(sh[first].copy(), r, p[first].copy(), da[first] / r), spent
