"""The depth interval of two intersecting closed meshes (called from the intersecting branches of
core/mesh/query.py): a certified lower bound L of the translational penetration depth PD (the length of the
shortest translation of B after which the two solids' interiors are disjoint), and a move of B, of length U >= L,
that a re-check of the moved pair proves separating.  The answer then reads depth = L, gap = U - L,
separation = the move.  The design (docs/engine.md, "The depth interval of meshes"):

Lower bound 1, the ball bound.  For a point p inside both solids, with rA = d(p, ∂A) and rB = d(p, ∂B), the open
balls of radius rA and rB around p lie inside A and inside B; after a move v of B with |v| < rA + rB the point of
the segment from p to p + v at distance |v| rA / (rA + rB) from p is within rA of p and within rB of p + v, so it
lies in A and in the moved B: every separating move is at least rA + rB.  Exact for a ball sunk into a flat wall,
crossing bars or cylinders, parallel boxes overlapping.  Maximised over p by a local ascent (p moves along the sum
of the two distance gradients, each step shorter than min(rA, rB), so it never leaves either solid) from seeds:
the answer's witnesses, points beside the crossing curve, samples of the boxes' overlap, each first proved inside
both by winding numbers.  Distances to the surfaces are exact (the hierarchy's closest points).

Lower bound 2, local inner polytopes (faceted shapes).  For p strictly inside A and a box X around p, let C = X cut
by the plane of every triangle whose box meets X's box, each on p's side.  A surface point in X lies on some
listed triangle, whose plane bounds C, so C's interior holds no surface point; being connected and holding p, it
lies inside A.  The same for B; any move separating A and B separates C_A and C_B, so the convex engine's depth
of the two, minus its gap, is a lower bound.  The planes are pulled towards p by a rounding allowance; a
triangle without area (a dirty mesh's) is bounded by the plane through its segment facing p; p on a plane rules
that box out, and every vertex found is
pulled towards p until it satisfies every plane, so the hull of the vertices lies in C whatever the rounding.
Boxes: cubes of a few multiples of the ball bound, boxes long along its direction, the whole pair.

Lower bound 3, a covering (core/mesh/depth_cover.py), when the interval is still wider than GOOD after the
moves below: the Minkowski differences of pieces of A and B (medial balls; local polytopes around points spread
over the overlap) hold a ball about the origin, whose radius then bounds every separating move.

Lower bound 4, a Lipschitz covering of the moves (core/mesh/depth_lipschitz.py), while still wider than 1 %: cells
of translation space beyond L, each certified by a point whose distances to A's surface and to the moved B's add
up to more than the cell's size.

Upper bound: directional moves, each verified.  Along the ball bound's direction first; when that leaves the
interval wider than 0.6 %, the polytopes are built and their normal tried; then, while it is wider than 0.4 %
(GOOD), the answer's normal and the hulls' move.  Along a direction: L itself (the interval is then exact), L
grown by 0.4 %, 1.6 %, 6.4 %, 26 %, 100 % (each below the best move so far), then a bisection between the last that
intersects and the first free one, until the move is within 0.4 % of L or known to 0.1 % of L (or to a tenth of
the gap left, when L is well below).  "Free" is the pipeline's
crossing test on B's hierarchy shifted (no crossing beyond the touching band, no containment, no inside probe
where the surfaces touch; no depth work), at
most MAX_CHECKS of them; the shortest
free move is re-checked by the full query (`collide_meshes(..., depth_interval=False)`), the next one if that
fails, and the hulls' move (which separates the hulls, hence the meshes) is the fallback.  Still wider than 1 %
after the candidate directions, for pairs up to SWEEP_TRIANGLES: the exact directional depths of a sweep
(core/mesh/depth_sweep.py: every triangle pair within reach, its open interval of t along d from the separating
axes) over the directions tried, spread directions and a pattern search around the best ones; its shortest
candidates are judged by the crossing test and join the verified moves (`_sweep_search`).  Larger pairs, a
sweep with too many pairs, or one whose candidates all fail: spread directions are sampled (`_sample_directions`).  When
one mesh holds the other (nothing crosses as placed: nearly every pair is within reach, and the sweep is not built), or
any pair whose sweep was not built for too many triangle pairs within reach (finely meshed surfaces crossing over a wide
stretch), still wider than 1 %: the same exact depths from only the pairs that can meet along each direction, first
along spread rays, then in cones around the best move (`_cone_search`).  Still wider than 1 % after the lower bounds:
the same rays and cones in the thin shell of moves between L and U (`_shell_search`).  The sweep's searches end in a
projection onto the moves free of every pair near the best (core/mesh/depth_sweep.py `polish`), which goes down a
crease of the free moves.  When the budget runs out the answer is the honest, wider interval.

Open meshes (a sheet crossing a solid) have no inside: nothing here runs, the interval is the samples' bound and
the hulls' move.  Containment: the same bounds on points inside both (the inner solid); a move that leaves one
mesh inside the other is not free (the crossing test reports the containment).
"""
from __future__ import annotations

import numpy as np

from ..contact import Status
from ..rows import fibonacci_directions, row_dot
from .depth_cover import cover_bound
from .depth_exit import exit_bound
from .depth_lipschitz import WIDER as LIPSCHITZ_WIDER, lipschitz_bound
from .depth_sweep import MAX_PAIRS, Sweep, cone_sweep, pair_balls, pairs_within, ray_depths, shortest
from .descent import PRUNE, descend
from .inside import deepest_inside
from .meeting import _robust, containment
from .bvh import WorldBVH
from .pair_frame import Side
from .points import closest_points, inside_both, winding_numbers
from .tritri import crossing_indexed
from ..convex import collide_convex
from ..hull import convex_hull
from ..progress import Stage, report

__all__ = ["Interval", "ball_bound", "depth_interval", "in_canonical_order"]

SEEDS = 128
"""Seed points tried for the ball bound (before the inside test)."""

ASCENT_STEPS = 10
"""Local ascent steps of the ball bound."""

MAX_CHECKS = 14
"""Crossing tests spent on the candidate directions (each a descent of both hierarchies), for pairs up to 80,000
triangles; fewer above, down to 6."""

PER_DIRECTION = 7
"""At most this many of them along one direction (the others get their turn)."""

MAX_PLANES = 3000
"""Cap on the triangles cutting a local inner polytope (beyond it that box is not tried)."""

SMALL = 24
"""Up to this many planes a local polytope's vertices come from every triple of planes (else from a hull)."""

GOOD = 4e-3
"""An interval this narrow (relative to L) is not narrowed further: no more directions, no polytopes."""

POLYTOPES_ABOVE = 6e-3
"""The local polytopes are built only when the ball bound's move leaves the interval wider than this (relative to
L): on smooth surfaces they rarely beat the ball bound, and they cost about as much."""

SAMPLE_ABOVE = 1e-2
"""Above this width (relative to L) after the candidate directions, spread directions are sampled."""

SAMPLES = 32
"""Spread directions sampled (and the most crossing tests spent on them, for pairs up to 4,000 triangles; fewer
above, none from 100,000)."""

SWEEP_TRIANGLES = 20_000
"""Pairs up to this many triangles in all that are still wider than SWEEP_ABOVE after the candidate directions get
the sweep's exact directional depths (core/mesh/depth_sweep.py) instead of the spread samples."""

SWEEP_ABOVE = 1e-2
"""Above this width (relative to L) after the candidate directions, the sweep runs (below it the gain is at most
that much, and the sweep costs about as much as the rest of the interval's work)."""

SWEEP_SPREAD = 96
"""Spread directions the sweep evaluates (fewer when it holds many triangle pairs: core/mesh/depth_sweep.py's
WORK)."""

SWEEP_CHECKS = 6
"""Crossing tests spent judging the sweep's candidates."""

CONE_PAIRS = 2_000_000
"""Pairs whose sweep was not built (too many triangle pairs within reach: one mesh holds the other, or the surfaces
cross over a wide stretch), up to SWEEP_TRIANGLES and with triangle counts multiplying to at most this many, get the
exact depths of the pairs along spread rays and in cones around the best moves found (`_cone_search`; memory:
about 150 bytes a pair within reach)."""

RAY_SPREAD = 48
"""Spread directions whose exact depths `_cone_search` takes first (each from the pairs along its own segment)."""

CONE_ANGLE = 0.3
"""The cones' half-angle (radians) at first; it halves while a cone holds more than CONE_MAX pairs."""

CONE_MAX = 20_000
"""Most triangle pairs a cone's sweep holds (the angle halves until it holds no more)."""

CONE_ROUNDS = 3
"""Cones tried (each around the best move so far)."""

SHELL_WIDER = 1e-2
"""Still wider than this (relative to U) after the lower bounds: `_shell_search` looks for a shorter move."""

SHELL_RAYS = 384
"""Spread rays `_shell_search` takes the exact depth along (between L and U)."""

SHELL_WORK = 30_000_000
"""Rays times triangle pairs within reach `_shell_search` spends at most on its rays."""

SHELL_CONES = 3
"""Cones `_shell_search` searches about its shortest rays (besides the one about the best move so far)."""

SHELL_ANGLE = 0.1
"""Half-angle (radians) of `_shell_search`'s cones."""

RELATIVE = 1e-3
"""Bisection stops when the free and the intersecting lengths are within this fraction of L."""


class Interval:
    """The refined interval, in the pair frame: `lower` (L), its witness `point_a`, `point_b`, `normal` with
    point_a - point_b = lower * normal, and the verified `move` of B (world translation)."""

    def __init__(self, lower, point_a, point_b, normal, move):
        self.lower, self.point_a, self.point_b, self.normal, self.move = lower, point_a, point_b, normal, move


COVER_WITNESS_DIRECTIONS = 64
"""Directions tried, after the covering's own, for witness points of its bound (`_cover_witness`)."""


def _unit_rows(v):
    n = np.sqrt(row_dot(v, v))
    return v / np.where(n > 0.0, n, 1.0)[:, None], n


def ball_bound(sa, sb, seeds: np.ndarray, scale: float, steps: int = ASCENT_STEPS):
    """The best ball bound rA(p) + rB(p) over points p inside both closed meshes, from `seeds` (pair frame), by
    local ascent.  Returns (value, p, qa, qb, direction) or None when no seed lies inside both: qa, qb the nearest
    surface points of A and B, `direction` the unit move of B the bound points at (from B's nearest surface point
    towards A's; towards the common one when they coincide)."""
    if seeds.shape[0] == 0:
        return None
    seeds = inside_both(seeds, sa.world, sb.world, scale)
    if seeds.shape[0] == 0:
        return None
    p = seeds
    da, qa = closest_points(p, sa.world)
    db, qb = closest_points(p, sb.world)
    value = da + db
    step = np.minimum(da, db)
    history = [float(value.max())]
    factors = np.array([0.3, 1.0, 2.5])
    for k in range(steps):
        if k in (1, 4) and p.shape[0] > 12:
            keep = np.argsort(-value)[: max(12, p.shape[0] // 6)]
            p, da, qa, db, qb, value, step = p[keep], da[keep], qa[keep], db[keep], qb[keep], value[keep], step[keep]
        ua, _ = _unit_rows(p - qa)  # ascent of d(p, ∂A): away from A's nearest surface point
        ub, _ = _unit_rows(p - qb)
        g, gn = _unit_rows(ua + ub)
        # a step shorter than min(rA, rB) keeps p strictly inside both solids (the open balls lie inside them);
        # three step lengths per point in one query of each hierarchy
        room = 0.9 * np.minimum(da, db)
        sizes = np.minimum(step[:, None] * factors[None, :], room[:, None])
        sizes = np.where((gn > 1e-9)[:, None], sizes, 0.0)
        if not np.any(sizes > 0.0):
            break
        trial = (p[:, None, :] + sizes[:, :, None] * g[:, None, :]).reshape(-1, 3)
        ta, tqa = closest_points(trial, sa.world)
        tb, tqb = closest_points(trial, sb.world)
        count = p.shape[0]
        total = (ta + tb).reshape(count, 3)
        pick = np.argmax(total, axis=1)
        rows = np.arange(count) * 3 + pick
        better = total[np.arange(count), pick] > value
        p = np.where(better[:, None], trial[rows], p)
        da, qa = np.where(better, ta[rows], da), np.where(better[:, None], tqa[rows], qa)
        db, qb = np.where(better, tb[rows], db), np.where(better[:, None], tqb[rows], qb)
        value = np.where(better, ta[rows] + tb[rows], value)
        taken = sizes[np.arange(count), pick]
        step = np.where(better, np.maximum(taken, 1e-300) * 1.5, step * 0.25)
        history.append(float(value.max()))
        if np.all(step < 1e-7 * scale) or (k >= 6 and history[-1] <= history[-4] * (1.0 + 1e-5)):
            break
    j = int(np.argmax(value))
    # both nearest points the same (a mesh and its copy in place): towards that point, or any direction
    for direction in (qa[j] - qb[j], qa[j] - p[j], np.array([0.0, 0.0, 1.0])):
        norm = float(np.linalg.norm(direction))
        if norm > 0.0:
            return float(value[j]), p[j], qa[j], qb[j], direction / norm


def _triangle_planes(side, lo=None, hi=None):
    """Per triangle of a placed mesh (pair frame) whose box meets the box [lo, hi] (all by default): its box (lo,
    hi), unit normal, a corner, whether it has a plane at all (three distinct corners spanning an area), and how far
    its corners lie off that plane."""
    world = side.world
    corners = world.leaf_corners
    if lo is not None:
        count = corners.shape[0]  # the first `count` node boxes are the leaves'
        meets = np.all(world.lo[:count] <= hi, axis=1) & np.all(world.hi[:count] >= lo, axis=1)
        corners = corners[np.flatnonzero(meets)]
    a = corners[:, 0]
    n = np.cross(corners[:, 1] - a, corners[:, 2] - a)
    size = np.sqrt(row_dot(n, n))
    edge = np.max(np.abs(corners - a[:, None, :]), axis=(1, 2))
    proper = size > 1e-12 * edge * edge
    n = n / np.where(proper, size, 1.0)[:, None]
    # how far the corners (hence every point of the triangle) lie off the computed plane: a sliver's normal is
    # rounded the most, and its plane is widened by that much
    off = np.max(np.abs(np.einsum("kij,kj->ki", corners - a[:, None, :], n)), axis=1)
    flat = np.flatnonzero(~proper)
    if flat.size:
        # a triangle without a plane (zero area, a collinear sliver: a dirty mesh's) lies on a segment or a point:
        # `n` keeps the unit direction of its longest edge (zero for a point) and `off` how far its corners lie
        # off the line along it through `a`; inner_polytope bounds it by the plane through that line facing p
        c = corners[flat] - a[flat][:, None, :]
        edges = np.stack([c[:, 1], c[:, 2], c[:, 2] - c[:, 1]], axis=1)
        length = np.sqrt(np.einsum("kij,kij->ki", edges, edges))
        longest = edges[np.arange(flat.size), np.argmax(length, axis=1)]
        size = length.max(axis=1)
        d = longest / np.where(size > 0.0, size, 1.0)[:, None]
        across = c - np.einsum("kij,kj->ki", c, d)[:, :, None] * d[:, None, :]
        n[flat] = d
        off[flat] = np.sqrt(np.einsum("kij,kij->ki", across, across)).max(axis=1)
    return corners.min(axis=1), corners.max(axis=1), n, a, proper, off


def inner_polytope(side, planes, p: np.ndarray, half, scale: float, axes=None, max_planes: int = MAX_PLANES):
    """Vertices (pair frame) of a convex polytope inside the closed mesh of `side` around a point p strictly inside
    it, or None: C = the box around p with half-extents `half` (a number or three) along `axes` (rows; the world
    axes by default), cut by the plane of every triangle whose box meets the box's own, each on p's side.
    C's interior meets no surface point (a surface point in the box lies on a listed triangle, whose plane bounds
    C), so, being connected and holding p, it lies inside the mesh.  The planes are pulled towards p by how far the
    triangle's corners lie off the computed plane and by a rounding allowance; a triangle without a plane (no
    area: a segment or a point) cuts by the plane through its line square to the way from p, pulled in the same
    way; p within that allowance of a listed plane gives None.  Vertices by duality: the hull
    (core/hull.py) of the planes' poles n / h about p gives one vertex per facet (every triple of planes for a
    few); each is then pulled towards p until it satisfies every plane (so whatever the rounding, the hull of the
    returned points lies in C)."""
    lo, hi, n, corner, proper, off = planes
    axes = np.eye(3) if axes is None else np.asarray(axes, float)
    halves = np.broadcast_to(np.asarray(half, float), (3,))
    reach = np.abs(axes.T) @ halves  # the oriented box's own axis-aligned box: p +- reach
    box_lo, box_hi = p - reach, p + reach
    meets = np.flatnonzero(np.all(lo <= box_hi, axis=1) & np.all(hi >= box_lo, axis=1))
    if meets.size > max_planes:
        return None
    allowance = 1e-11 * scale
    n = n[meets]
    flat = np.flatnonzero(~proper[meets])
    if flat.size:
        # a triangle without a plane lies within `off` of the line through its corner along n (`_triangle_planes`):
        # the plane through that line square to the way from p to it has the triangle beyond it
        d = n[flat]
        w = corner[meets[flat]] - p
        w = w - row_dot(w, d)[:, None] * d
        size = np.sqrt(row_dot(w, w))
        if not np.all(size > 0.0):
            return None
        n[flat] = w / size[:, None]
    s = row_dot(n, corner[meets] - p)       # p's side: n . (x - p) <= s when s > 0
    flip = np.where(s < 0.0, -1.0, 1.0)
    n = n * flip[:, None]
    h = np.abs(s) - off[meets] - allowance
    if np.any(h <= allowance):
        return None
    normals = np.concatenate([n, axes, -axes])
    offsets = np.concatenate([h, halves - allowance, halves - allowance])
    # the planes of a flat face's triangles are nearly one plane: enumerated once (the check below has them all)
    key = np.round(np.c_[normals, offsets / halves.max()] * 1e9)
    _, first = np.unique(key, axis=0, return_index=True)
    delta = _vertices(normals[first], offsets[first])
    if delta is None:
        return None
    # every vertex pulled in until it satisfies every plane (a slack of 1e-9 against the check's own rounding)
    ratio = (delta @ normals.T) / offsets[None, :]
    worst = ratio.max(axis=1)
    delta = delta / np.maximum(worst, 1.0)[:, None] * (1.0 - 1e-9)
    if not np.all(np.isfinite(delta)):
        return None
    return p + delta


def _vertices(normals, offsets):
    """Candidate vertices (relative to p) of {x : normals . x <= offsets} (offsets > 0, bounded): every triple of
    planes for a few planes, else one per facet of the hull of the poles normals / offsets."""
    k = normals.shape[0]
    if k <= SMALL:
        i, j, l = np.array([t for t in _triples(k)]).T
        m = np.stack([normals[i], normals[j], normals[l]], axis=1)
        det = np.linalg.det(m)
        ok = np.abs(det) > 1e-9
        x = np.linalg.solve(m[ok], np.stack([offsets[i], offsets[j], offsets[l]], axis=1)[ok][:, :, None])[:, :, 0]
        slack = 1e-9 * np.abs(offsets).max()
        inside = np.all(x @ normals.T <= offsets[None, :] + slack, axis=1)
        return x[inside] if np.count_nonzero(inside) >= 4 else None
    poles = normals / offsets[:, None]
    hull = convex_hull(poles)
    if hull is None:
        return None
    y = poles[hull[1]]
    facet = np.cross(y[:, 1] - y[:, 0], y[:, 2] - y[:, 0])
    level = row_dot(facet, y[:, 0])
    good = level > 0.0
    if np.count_nonzero(good) < 4:
        return None
    return facet[good] / level[good][:, None]


def _triples(k):
    for i in range(k):
        for j in range(i + 1, k):
            for l in range(j + 1, k):
                yield i, j, l


def _seeds(frame, segments, witnesses, scale, rng):
    """Seed points in the pair frame: the witnesses, points beside the crossing curve, samples of the boxes'
    overlap (a fixed seed: the same answer every run)."""
    sa, sb = frame.sa, frame.sb
    parts = [np.asarray(w, float).reshape(-1, 3) for w in witnesses if w is not None]
    lo = np.maximum(sa.vertices[sa.local.used].min(axis=0), sb.vertices[sb.local.used].min(axis=0))
    hi = np.minimum(sa.vertices[sa.local.used].max(axis=0), sb.vertices[sb.local.used].max(axis=0))
    extent = np.maximum(hi - lo, 0.0)
    if segments.shape[0]:
        # in an order and at positions that do not depend on the argument order's rounding
        mids = _snapped(segments.mean(axis=1), scale)
        mids = mids[np.lexsort(mids.T[::-1])]
        mids = mids[:: max(1, mids.shape[0] // 24)]
        reach = 0.05 * float(np.linalg.norm(extent)) + 1e-9 * scale
        offsets = rng.normal(size=(mids.shape[0], 4, 3)) * reach
        parts.append(mids)
        parts.append((mids[:, None, :] + offsets).reshape(-1, 3))
    count = max(0, SEEDS - sum(x.shape[0] for x in parts))
    parts.append(lo + rng.random((count, 3)) * extent)
    return _snapped(np.concatenate(parts), scale)


def _snapped(points, scale):
    """Points rounded to a grid of 1e-9 x scale: the same seeds whichever rounding the witnesses came with."""
    step = 1e-9 * scale
    return np.round(points / step) * step


def depth_interval(a, b, frame, tolerances, lower, point_a, point_b, normal, segments, hull_move, apart,
                   progress=None):
    """Refine an intersecting answer's interval.  `lower`, `point_a`, `point_b`, `normal`: today's certified bound
    and witness (pair frame; the points may be None); `segments`: the crossing curve (pair frame); `hull_move`: the
    hulls' separating move of B (world), always valid; `apart(a, moved_b, tolerances)`: the full query's verdict
    that two meshes do not intersect (core/mesh/query.py hands it in: it imports this module).  Returns an
    `Interval`.  `progress`: None, or the caller's hook (core/progress.py), called between stages and between the
    units of work within them; it may raise `core.Cancelled` to stop, and never changes the answer.

    The work runs on the pair in a canonical order (`in_canonical_order`), so collide(b, a) is collide(a, b).swapped():
    moving B by v separates exactly when moving A by -v does."""
    if not in_canonical_order(a, b):
        swapped = _SwappedFrame(frame)
        flip = None if normal is None else -np.asarray(normal, float)
        out = _interval(b, a, swapped, tolerances, lower, point_b, point_a, flip, segments,
                        -np.asarray(hull_move, float), apart, progress)
        return Interval(out.lower, out.point_b, out.point_a, None if out.normal is None else -out.normal, -out.move)
    return _interval(a, b, frame, tolerances, lower, point_a, point_b, normal, segments, hull_move, apart, progress)


def in_canonical_order(a, b) -> bool:
    """Whether (a, b) is the canonical order of the pair: by triangle and vertex counts, then checksums of the world
    vertices and the triangles (deterministic from run to run; a pair of identical meshes is its own swap).  The
    checksums are worked out only when the counts tie, and once per placed mesh (`TriangleMesh.checksums`): the
    mesh query asks before its hulls' answer and again here."""
    counts_a = (a._local.triangles.shape[0], a._local.vertices.shape[0])
    counts_b = (b._local.triangles.shape[0], b._local.vertices.shape[0])
    if counts_a != counts_b:
        return counts_a < counts_b
    return a.checksums() <= b.checksums()


class _SwappedFrame:
    """A pair frame with its two sides exchanged (the same origin, scale and band)."""

    def __init__(self, frame):
        self.origin, self.scale, self.band, self.boxes_meet = frame.origin, frame.scale, frame.band, frame.boxes_meet
        self.sa, self.sb = frame.sb, frame.sa


def _interval(a, b, frame, tolerances, lower, point_a, point_b, normal, segments, hull_move, apart, progress=None):
    sa, sb, scale, band = frame.sa, frame.sb, frame.scale, frame.band
    best = Interval(lower, point_a, point_b, normal, np.asarray(hull_move, float))
    hull_length = float(np.linalg.norm(hull_move))
    triangles = a._local.triangles.shape[0] + b._local.triangles.shape[0]
    # each crossing test is a descent of both hierarchies: fewer of them for large pairs
    most = int(max(6, min(MAX_CHECKS, MAX_CHECKS * 80_000 // max(1, triangles))))
    state = {"checks": 0, "upper": hull_length, "tried": []}
    verified = []

    def free(t, d):
        report(progress, Stage.DIRECTIONS, state["checks"] / (most + SWEEP_CHECKS + SAMPLES))
        state["checks"] += 1
        return not _overlaps(frame, b, t * d)

    def tight():
        return state["upper"] <= best.lower * (1.0 + GOOD)

    def search(d):
        """The shortest free length found along unit d below the best so far: L itself first (the interval is
        then exact), a few lengths just above it, then a bisection between the last that intersects and the
        first free one (or the best so far, which is not a move along d unless d is the hulls')."""
        d = np.asarray(d, float)
        if best.lower <= band or tight() or any(float(np.dot(d, u)) > 0.99995 for u in state["tried"]):
            return
        state["tried"].append(d)
        stop = min(most, state["checks"] + PER_DIRECTION)
        L = best.lower
        lo_t, hi = L, state["upper"]
        for factor in (1.0, 1.0 + GOOD, 1.0 + 4.0 * GOOD, 1.0 + 16.0 * GOOD, 1.0 + 64.0 * GOOD, 1.0 + 256.0 * GOOD):
            t = L * factor
            if t >= hi or state["checks"] >= stop:
                break
            if free(t, d):
                hi = t
                break
            lo_t = t
        # narrower than 0.1 % of L, or than a tenth of what is left of the gap (a weak L cannot use more)
        while (hi > L * (1.0 + GOOD) and hi - lo_t > max(RELATIVE * L, 0.1 * (lo_t - L))
               and state["checks"] < stop):
            mid = 0.5 * (lo_t + hi)
            if free(mid, d):
                hi = mid
            else:
                lo_t = mid
        if hi < state["upper"]:
            state["upper"] = hi
            verified.append((hi, hi * d))

    report(progress, Stage.BOUNDS)
    deep = None  # a point inside both solids (the ball bound's)
    if sa.closed and sb.closed:
        seeds = _seeds(frame, segments, (point_a, point_b, None if point_a is None else 0.5 * (point_a + point_b)),
                       scale, np.random.default_rng(19))
        found = ball_bound(sa, sb, seeds, scale)
        if found is not None:
            value, p, qa, qb, direction = found
            deep = p
            if value > best.lower:
                # point_a: A's side of the ball pair, point_b: B's, point_a - point_b = value * direction
                ra, rb = float(np.linalg.norm(p - qa)), float(np.linalg.norm(p - qb))
                best.lower, best.normal = value, direction
                best.point_a, best.point_b = p + ra * direction, p - rb * direction
            # smooth surfaces: the ball bound is usually tight and its direction the move; faceted ones need the
            # local polytopes (skipped when the ball's move already closes the interval)
            search(direction)
            if state["upper"] > best.lower * (1.0 + POLYTOPES_ABOVE):
                report(progress, Stage.BOUNDS, 0.5)
                poly = _polytope_bound(sa, sb, p, max(value, best.lower), direction, frame, tolerances)
                if poly is not None:
                    lower_p, pa_p, pb_p, normal_p = poly
                    if lower_p > best.lower:
                        best.lower, best.normal, best.point_a, best.point_b = lower_p, normal_p, pa_p, pb_p
                    search(normal_p)
    if normal is not None:
        search(normal)
    if hull_length > 0.0:
        search(np.asarray(hull_move, float) / hull_length)
    swept = False
    if best.lower > band and state["upper"] > best.lower * (1.0 + SWEEP_ABOVE) and triangles <= SWEEP_TRIANGLES:
        report(progress, Stage.DIRECTIONS, 0.5)
        swept = _sweep_search(frame, best.lower, segments.shape[0] == 0, state, verified, free)
    if not swept and best.lower > band and state["upper"] > best.lower * (1.0 + SAMPLE_ABOVE):
        report(progress, Stage.DIRECTIONS, 0.6)
        move = _sample_directions(a, b, best.lower, state, verified, free)
        if move is not None:
            search(move / np.linalg.norm(move))
        if (state["upper"] > best.lower * (1.0 + SAMPLE_ABOVE) and state["upper"] > 0.0
                and triangles <= SWEEP_TRIANGLES
                and sa.local.triangles.shape[0] * sb.local.triangles.shape[0] <= CONE_PAIRS):
            # the sweep was not built (too many triangle pairs within reach: one mesh holds the other, or finely
            # meshed surfaces cross over a wide stretch), but few pairs meet along any one direction
            start = _shortest(verified, best.move)
            report(progress, Stage.DIRECTIONS, 0.8)
            _cone_search(frame, best.lower, segments.shape[0] == 0, state, verified, free, start, progress)
    if sa.closed and sb.closed and state["upper"] > best.lower * (1.0 + GOOD):
        # still wide: pieces around points spread over the overlap, whose differences cover a ball (depth_cover.py)
        report(progress, Stage.COVER)
        found = cover_bound(sa, sb, seeds, scale, best.lower, state["upper"], inner_polytope, _triangle_planes,
                            move=_shortest(verified, best.move),
                            progress=progress)
        _raise_lower(best, sa, sb, scale, found)
    if deep is not None and segments.shape[0] == 0 and state["upper"] > best.lower * (1.0 + GOOD):
        # one mesh holds the other, still wide: how far the inner one's points must travel to leave the outer
        # (depth_exit.py; where the surfaces cross, points entering on the way make that bound weak)
        report(progress, Stage.EXIT)
        found = exit_bound(sa, sb, scale, best.lower, state["upper"], progress=progress)
        _raise_lower(best, sa, sb, scale, None if found is None else (found[0], deep, found[1]))
    if sa.closed and sb.closed and state["upper"] - best.lower > LIPSCHITZ_WIDER * state["upper"]:
        # still wider than 1 %: the Lipschitz covering of translation space (depth_lipschitz.py)
        report(progress, Stage.MOVES)
        found = lipschitz_bound(sa, sb, seeds, scale, best.lower, state["upper"], progress=progress)
        _raise_lower(best, sa, sb, scale, found)
    if (best.lower > band and state["upper"] - best.lower > SHELL_WIDER * state["upper"]
            and triangles <= SWEEP_TRIANGLES
            and sa.local.triangles.shape[0] * sb.local.triangles.shape[0] <= CONE_PAIRS):
        # still wider than 1 % with the lower end as high as it goes: the moves between L and U, a thin shell
        report(progress, Stage.DIRECTIONS, 0.95)
        _shell_search(frame, best.lower, segments.shape[0] == 0, state, verified, free, best.move, progress)
    # the shortest move the crossing test passed, re-checked by the full query (the next one if it fails)
    for k, (_, move) in enumerate(sorted(verified, key=lambda item: item[0])):
        report(progress, Stage.VERIFY, k / len(verified))
        if apart(a, _moved(b, move), tolerances):
            best.move = move
            break
    return best


def _shortest(verified, fallback):
    """The shortest of the verified moves ((length, move) items), or `fallback` when there is none."""
    return min(verified, key=lambda item: item[0])[1] if verified else fallback


def _raise_lower(best, sa, sb, scale, found) -> None:
    """A covering's bound (r, centre, u) raises `best`'s lower end when it is higher and comes with witness points
    that follow core/contact.py (`_cover_witness`); else `best` stays."""
    if found is not None and found[0] > best.lower:
        witness = _cover_witness(sa, sb, scale, *found)
        if witness is not None:
            best.lower, best.point_a, best.point_b, best.normal = found[0], *witness


def _cover_witness(sa, sb, scale, r, centre, u):
    """Witness points for the covering's bound r as core/contact.py asks of an intersecting answer: point_a in A,
    point_b in B, point_a - point_b = r * normal, one of them inside the other mesh.  `centre` lies inside both
    solids, so it serves as one of the two when the other end of a segment of length r from it lies in its own
    mesh: along the covering's thinnest direction u first, then along spread directions, then to a point of A's
    (or B's) surface at distance r.  Returns (point_a, point_b, normal), or None when no such segment is found
    (the bound is then not used)."""
    directions = np.vstack([u[None, :], fibonacci_directions(COVER_WITNESS_DIRECTIONS)])
    ends_a = centre[None, :] + r * directions  # point_b = centre, point_a here: must lie in A
    ends_b = centre[None, :] - r * directions  # point_a = centre, point_b here: must lie in B
    in_a = winding_numbers(ends_a, sa.world, scale) != 0
    in_b = winding_numbers(ends_b, sb.world, scale) != 0
    for k in range(directions.shape[0]):
        if in_a[k]:
            return ends_a[k], centre.copy(), directions[k]
        if in_b[k]:
            return centre.copy(), ends_b[k], directions[k]
    # no such ray end inside: a point of A's (else B's) surface at distance r from the centre, on a segment of a
    # triangle whose ends lie either side of that distance
    for side, sign in ((sa, 1.0), (sb, -1.0)):
        point = _edge_point_at(side.world.leaf_corners, centre, r)
        if point is not None:
            u = sign * (point - centre) / np.linalg.norm(point - centre)
            return (centre + r * u, centre.copy(), u) if sign > 0.0 else (centre.copy(), centre - r * u, u)
    return None


def _edge_point_at(corners, centre, r):
    """A point of a triangle (corners (k, 3, 3)) at distance r from `centre`, on a segment of the triangle (an edge,
    or from its centroid to a corner) with one end nearer than r and the other not: the first such segment in
    order; None when none straddles r."""
    mid = np.repeat(corners.mean(axis=1), 3, axis=0)
    v0 = np.concatenate([corners.reshape(-1, 3), mid])
    v1 = np.concatenate([corners[:, [1, 2, 0], :].reshape(-1, 3), corners.reshape(-1, 3)])
    d0, d1 = row_dot(v0 - centre, v0 - centre), row_dot(v1 - centre, v1 - centre)
    r2 = r * r
    k = np.flatnonzero((d0 < r2) & (d1 >= r2))
    if k.size == 0:
        return None
    x, e = v0[k[0]] - centre, v1[k[0]] - v0[k[0]]
    a, b, c = float(e @ e), float(x @ e), float(x @ x) - r2
    t = min(1.0, max(0.0, (-b + np.sqrt(max(b * b - a * c, 0.0))) / a))
    point = v0[k[0]] + t * e
    return point if np.linalg.norm(point - centre) > 0.0 else None


def _sweep_search(frame, lower, held, state, verified, free) -> bool:
    """Still wider than SWEEP_ABOVE: the exact directional depths of a sweep (core/mesh/depth_sweep.py) over the
    directions tried, spread ones and a pattern search around the best; its shortest candidates are judged by the
    crossing test (at most SWEEP_CHECKS), a free one joining the verified moves.  Whether one did (if not, or the
    sweep is not built for too many triangle pairs within reach, the spread samples run as for larger pairs).
    `held`: the answer found no crossing (one mesh holds the other)."""
    ca, cb = pairs_within(frame, lower, state["upper"])
    state["pairs"] = (ca, cb)  # for `_cone_search`: a superset of those within any shorter reach
    if ca.shape[0] > MAX_PAIRS:
        return False
    sw = Sweep(ca, cb, frame.scale, held)
    starts = list(state["tried"]) + [move for _, move in verified]
    found = shortest(sw, starts, lower, state["upper"], spread=SWEEP_SPREAD)
    return _judge(found, state, verified, free) is not None


def _judge(found, state, verified, free):
    """The first of the sweep's candidates `found` ((t, d), shortest first) that the crossing test calls free, at
    most SWEEP_CHECKS tests: it becomes the best verified move, and its move is returned (None: none was free).
    Each is tried at its length t, the end of a piece of the union where the pairs only touch, and a hair beyond
    in case of rounding."""
    checks = 0
    for t, d in found:
        if checks >= SWEEP_CHECKS or t >= state["upper"]:
            break
        for length in (t, t * (1.0 + 1e-7)):
            if length >= state["upper"] or checks >= SWEEP_CHECKS:
                break
            checks += 1
            if free(length, d):
                state["upper"] = length
                verified.append((length, length * d))
                return length * d
    return None


def _cone_search(frame, lower, held, state, verified, free, start, progress=None):
    """After the spread samples, still wider than SAMPLE_ABOVE, for a pair whose sweep was not built (too many
    triangle pairs within reach: one mesh holding the other puts nearly every pair there, and so do finely meshed
    surfaces crossing over a wide stretch, but few meet along any one direction).  First RAY_SPREAD spread directions,
    each with the exact depth from only the pairs that can meet along it (core/mesh/depth_sweep.py `ray_depths`); then
    cones around the best move: the pairs that can meet within the cone (`cone_sweep`), a pattern search from its axis,
    and candidates only from directions inside it (exact there; outside it pairs are missing).  The shortest candidates
    are judged by the crossing test (at most SWEEP_CHECKS per stage); a free one joins the verified moves and centres
    the next cone.  `start`: the best move so far (the hulls' when none was verified).  `progress`: the hook, called
    between rays and cones."""
    ca, cb = state["pairs"] if "pairs" in state else pairs_within(frame, lower, state["upper"])
    report(progress, Stage.DIRECTIONS, 0.8)
    # spread directions first, each with only the pairs that can meet along its own segment
    directions = fibonacci_directions(RAY_SPREAD)
    balls = pair_balls(ca, cb)
    ray = ray_depths(ca, cb, frame.scale, directions, lower, state["upper"], held, balls, progress)
    checks = 0
    for j in np.argsort(ray, kind="stable"):
        if checks >= SWEEP_CHECKS or ray[j] >= state["upper"]:
            break
        checks += 1
        # the end of a piece of the union: the pairs there only touch; a hair beyond, in case of rounding
        length = next((x for x in (ray[j], ray[j] * (1.0 + 1e-7)) if free(x, directions[j])), None)
        if length is not None:
            state["upper"] = length
            verified.append((length, length * directions[j]))
            start = length * directions[j]
            break
    for _ in range(CONE_ROUNDS):
        report(progress, Stage.DIRECTIONS, 0.9)
        best_t = state["upper"]
        axis = start / np.linalg.norm(start)
        angle, local = CONE_ANGLE, None
        while angle >= 0.02:
            local = cone_sweep(ca, cb, frame.scale, axis, angle, lower, state["upper"] * (1.0 + 1e-6), held,
                               CONE_MAX, balls)
            if local is not None:
                break
            angle *= 0.5
        if local is None:
            return
        # a hair above the best: its own direction's depth (the best itself) starts the pattern search
        found = shortest(local, [axis], lower, state["upper"] * (1.0 + 1e-6), spread=0, angle=0.5 * angle)
        found = [(t, d) for t, d in found if float(np.dot(d, axis)) >= np.cos(angle)]
        move = _judge(found, state, verified, free)
        if move is not None:
            start = move
        if state["upper"] >= best_t * (1.0 - GOOD) or state["upper"] <= lower * (1.0 + GOOD):
            return


def _shell_search(frame, lower, held, state, verified, free, fallback, progress=None):
    """The last search for a shorter move, once the lower bounds have done what they can and the interval is still
    wider than SHELL_WIDER: only moves of length between L and U are left, and few triangle pairs can meet along
    a direction within that thin shell, so the exact depths along many spread rays are cheap (`ray_depths`, at
    most SHELL_RAYS of them, fewer when the pairs within reach are many: SHELL_WORK).  Then a cone about the best
    move so far and about each of the SHELL_CONES shortest rays: the pairs that can meet within it, a pattern
    search from its axis and the contact-space projection (core/mesh/depth_sweep.py `shortest`, `polish`);
    candidates inside the cone are judged by the crossing test and a free one joins the verified moves.
    `fallback`: the hulls' move, when no move is verified yet."""
    ca, cb = pairs_within(frame, lower, state["upper"])
    if ca.shape[0] == 0:
        return
    balls = pair_balls(ca, cb)
    count = int(min(SHELL_RAYS, SHELL_WORK // ca.shape[0]))
    axes = [_shortest(verified, fallback)]
    if count >= 8:
        directions = fibonacci_directions(count)
        ray = ray_depths(ca, cb, frame.scale, directions, lower, state["upper"], held, balls, progress)
        axes += [directions[j] for j in np.argsort(ray, kind="stable")[:SHELL_CONES] if ray[j] < state["upper"]]
    for axis in axes:
        norm = float(np.linalg.norm(axis))
        if not norm > 0.0 or state["upper"] <= lower * (1.0 + GOOD):
            continue
        axis = np.asarray(axis, float) / norm
        local = cone_sweep(ca, cb, frame.scale, axis, SHELL_ANGLE, lower, state["upper"] * (1.0 + 1e-6), held,
                           CONE_MAX, balls)
        if local is None:
            continue
        found = shortest(local, [axis], lower, state["upper"] * (1.0 + 1e-6), spread=0, angle=0.5 * SHELL_ANGLE)
        _judge([(t, d) for t, d in found if float(np.dot(d, axis)) >= np.cos(SHELL_ANGLE)], state, verified, free)


def _sample_directions(a, b, lower, state, verified, free):
    """Still wider than SAMPLE_ABOVE: the best move's direction tilted four ways, then spread directions nearest to
    it first, each asked once per round whether the length 85 % of the way from L to the best move frees the pair;
    a free one narrows the gap and starts the next round, and the best one found is then searched along like the
    candidates.  The budget shrinks with the meshes' size (each test is a descent of both hierarchies)."""
    triangles = a._local.triangles.shape[0] + b._local.triangles.shape[0]
    budget = int(min(SAMPLES, SAMPLES * 4_000 // max(1, triangles)))
    directions = fibonacci_directions(24)
    spent = 0
    while spent < budget and state["upper"] > lower * (1.0 + SAMPLE_ABOVE):
        best_move = min(verified, key=lambda item: item[0])[1] if verified else None
        candidates = directions
        if best_move is not None:
            # the best move's direction tilted a little four ways first, then the spread ones nearest to it
            unit = best_move / np.linalg.norm(best_move)
            candidates = np.concatenate([_tilted(unit, 0.2), directions[np.argsort(-(directions @ unit))]])
        target = lower + 0.85 * (state["upper"] - lower)
        found = False
        for d in candidates:
            if spent >= budget:
                break
            spent += 1
            if free(target, d):
                state["upper"] = target
                verified.append((target, target * d))
                found = True
                break
        if not found:
            break
    return min(verified, key=lambda item: item[0])[1] if verified else None


def _tilted(unit, angle):
    """`unit` turned by `angle` (radians) four ways about it."""
    u = np.cross(unit, [1.0, 0.0, 0.0] if abs(unit[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(unit, u)
    return np.array([np.cos(angle) * unit + np.sin(angle) * w for w in (u, -u, v, -v)])


def _polytope_bound(sa, sb, p, reach, direction, frame, tolerances):
    """The best lower bound from local inner polytopes of A and B around p (a point inside both): the convex
    engine's depth of the two, minus its gap (any move separating A and B separates them), over a few box sizes
    (multiples of `reach`, up to the whole pair).  Returns (lower, point_a, point_b, normal) or None."""
    whole = float(frame.scale)
    # the triangles near p, out to the largest local box (all of them only when the whole box can be tried)
    near = 4.2 * reach  # the oriented (3.0, 0.6, 0.6) box's own axis-aligned box at worst
    planes = []
    for side in (sa, sb):
        if side.local.triangles.shape[0] <= MAX_PLANES:
            planes.append(_triangle_planes(side))
        else:
            planes.append(_triangle_planes(side, p - near, p + near))
    pa_planes, pb_planes = planes
    boxes = [(None, f * reach) for f in (0.75, 1.5)]
    if direction is not None:
        # boxes long along the bound's direction and short across it: a curved surface's facets beside the
        # contact (a torus's tube bending away) then cut less
        u = np.cross(direction, [1.0, 0.0, 0.0] if abs(direction[0]) < 0.9 else [0.0, 1.0, 0.0])
        u /= np.linalg.norm(u)
        axes = np.array([direction, u, np.cross(direction, u)])
        boxes += [(axes, reach * np.array(f)) for f in ((1.5, 0.8, 0.8), (3.0, 0.6, 0.6))]
    if sa.local.triangles.shape[0] <= MAX_PLANES and sb.local.triangles.shape[0] <= MAX_PLANES:
        boxes.append((None, whole))  # (else the planes above are only those near p: no box beyond them)
    best = None
    for axes, half in boxes:
        va = inner_polytope(sa, pa_planes, p, half, frame.scale, axes)
        vb = inner_polytope(sb, pb_planes, p, half, frame.scale, axes) if va is not None else None
        if va is None or vb is None or va.shape[0] < 4 or vb.shape[0] < 4:
            continue
        answer = collide_convex(va, vb, tolerances)
        if answer.status is not Status.INTERSECTING:
            continue
        lower = answer.depth - answer.gap
        if best is None or lower > best[0]:
            n = np.asarray(answer.normal, float)
            point_a = np.asarray(answer.point_a, float)
            best = (lower, point_a, point_a - lower * n, n)
    return best


class _MovedPair:
    """The pair frame of A and B translated by `move`, for the crossing test: A's side and the frame (origin, scale,
    band) stay as they are; B's side and hierarchy are the original ones shifted (no rebuild, no re-placing)."""

    def __init__(self, frame, b, move):
        self.origin, self.scale, self.band = frame.origin, frame.scale, frame.band
        self.sa = frame.sa
        old = frame.sb
        side = object.__new__(Side)
        side.mesh, side.local, side.closed = _moved(b, move), old.local, old.closed
        side.offset, side.vertices = old.offset + move, old.vertices + move
        side._world = _shifted(old.world, move)
        self.sb = side
        lo_a, hi_a = frame.sa.world.lo[-1], frame.sa.world.hi[-1]
        lo_b, hi_b = side._world.lo[-1], side._world.hi[-1]
        self.boxes_meet = bool(np.all(lo_a <= hi_b + self.band) and np.all(lo_b <= hi_a + self.band))


def _shifted(world: WorldBVH, move) -> WorldBVH:
    """`world` translated by `move` (every box, point and corner shifted; the axes and normals unchanged)."""
    out = object.__new__(WorldBVH)
    out.local, out.half, out.normal, out.normal_ok = world.local, world.half, world.normal, world.normal_ok
    out.vertices = world.vertices + move
    out.leaf_corners = world.leaf_corners + move
    out.centre, out.lo, out.hi, out.rep = world.centre + move, world.lo + move, world.hi + move, world.rep + move
    out._planes = out._columns = None
    return out


def _overlaps(frame, b, move) -> bool:
    """The pipeline's verdict for A and B moved by `move`, without its depth work: do the surfaces cross by more
    than the touching band (core/mesh/meeting.py `_robust`), does one closed mesh hold the other
    (`containment`), or, where the surfaces only touch, does a probe of one lie inside the other beyond the band
    (`_sunk`)?  A crossing that `meet` would call a contact line of a contained mesh is an intersection either
    way."""
    pair = _MovedPair(frame, b, np.asarray(move, float))
    wa, wb = pair.sa.world, pair.sb.world
    found = descend(wa, wb, pair.band, PRUNE * pair.scale, None, near_only=True)
    near = np.flatnonzero(found.lb <= pair.band)
    if near.size:
        ia, ib = found.ia[near], found.ib[near]
        mask, segments = crossing_indexed(wa.planes, wb.planes, ia, ib, pair.band)
        if segments.shape[0] and np.any(_robust(np.take(wa.leaf_corners, ia[mask], axis=0),
                                                np.take(wb.leaf_corners, ib[mask], axis=0), segments, pair.band)):
            return True
    if containment(pair) is not None:
        return True
    return bool(near.size) and _sunk(pair, found, near)


def _sunk(pair, found, near) -> bool:
    """Surfaces within the band of each other that neither cross beyond it nor hold one another can still
    overlap: grid-aligned meshes whose faces and edges lie in each other's face planes (a box poking out of an
    L prism's notch, its faces in the prism's planes) meet only in such contacts, yet share a volume.  The
    full query finds that overlap with its depth probes (core/mesh/inside.py `deepest_inside`: contact corners
    and centroids, points just behind the contact faces, each inside the other closed mesh beyond the band);
    the same probes here, on the pairs within the band, so that a move this test calls free is one the full
    query's re-check accepts."""
    sa, sb, band, scale = pair.sa, pair.sb, pair.band, pair.scale
    if not pair.boxes_meet:
        return False
    none = near[:0]
    A = np.take(sa.world.leaf_corners, found.ia, axis=0)
    B = np.take(sb.world.leaf_corners, found.ib, axis=0)
    if sb.closed and deepest_inside(sa, sb, found, none, near, A, B, band, scale).any_inside:
        return True
    return sa.closed and deepest_inside(sb, sa, found, none, near, B, A, band, scale, swap=True).any_inside


def _moved(mesh, move):
    transform = np.eye(4)
    transform[:3, 3] = move
    return mesh.moved(transform @ mesh.transform)
