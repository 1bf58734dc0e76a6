"""Many convex pairs at once: a vectorised separating-axis prefilter, then GJK/EPA on what is left.

    batch = core.ShapeBatch(shapes)                       # prepare once: bounds, vertices, projections
    hits = core.collide_many(batch, pairs, clearance=0.01)   # [(i, j, Contact), ...]

`collide_many` returns, in the order of `pairs`, every pair (i, j) whose answer `core.collide(shapes[i],
shapes[j])` is INTERSECTING or TOUCHING, or SEPARATED with a certified lower bound on the distance
(`distance - gap`) <= clearance.  A pair exactly at the clearance is included; a pair farther than the clearance
by more than GJK's gap tolerance (Tolerances.gjk_gap x scale, when GJK converges) never is.  The Contact is the
one `core.collide` gives for the pair (same status, distance within its gap, same conventions: A = shapes[i],
B = shapes[j]).

How:
1. `ShapeBatch` validates the shapes once and keeps, per shape: its world AABB (hence the pair's scale and
   touching band exactly as `core.collide` computes them), its world core vertices (polytope cores: clouds, boxes,
   spheres and capsules under similarity transforms) and its sphere-swept radius, and its projection interval on
   `AXES`, a fixed set of 49 unit directions (3 coordinate axes, 6 face diagonals, 4 body diagonals, the 6
   vertex axes and 6 more face axes of an icosahedron, whose other 4 face axes are the body diagonals, and 24
   directions of a Fibonacci lattice on the hemisphere).  On the bench scene (bench/scene.py) 25 axes cleared
   63 % of the broad-phase pairs, 49 cleared 68 %, 97 cleared 71 %, of the 76 % that are farther than the
   clearance.  Curved cores (cylinders, cones, ellipsoids) take their intervals from support queries, and a
   bounding sphere stands in for their vertices on the centre-to-centre axis (as for clouds above
   `_VERTEX_CAP` vertices).
2. For each pair, every axis u gives a certified lower bound on the distance: the gap between the two intervals.
   The prefilter (`candidates`) takes the largest gap over the fixed axes, vectorised over the pairs; a pair whose
   bound exceeds clearance + touching band + a rounding allowance is out: its true distance is larger, so
   `core.collide` would not list it either.  `lower_bounds` adds the pair's centre-to-centre axis (intervals
   from the vertices), which the prefilter leaves out (measured: 0.2 % more pairs cleared for ~10 us a pair).
3. Pairs of two point clouds (<= `_VERTEX_CAP` vertices) then run GJK's opening in lock-step (core/lockstep.py:
   every running pair's support point from one product per block of clouds of similar size, the simplex steps
   vectorised with the scalar code's arithmetic).  A pair whose support plane proves it farther than the
   clearance is dropped there; a pair whose simplex encloses the origin hands that tetrahedron to EPA, and a pair
   whose GJK converged to a positive distance (beyond the touching band, with a positive lower bound) gets the
   Contact `solve` makes of that result, for all such pairs in one pass (`_separated`), without running GJK
   again.  On the bench scenes (bench/scene.py) that decides all but about 1 % of the pairs, for about a third of
   the scalar GJK's time.
4. The tetrahedra around the origin then run EPA in lock-step (core/lockstep_epa.py: one polytope per pair in
   arrays, the supports of all expanding pairs at once, the scalar EPA's steps and arithmetic, so the same
   Contact to the bit).  On the bench scenes it finishes all but about 0.1 % of them; the rest, and anything it
   finds irregular, goes on to step 5 from the same tetrahedron.
5. The rest runs what `core.collide(a, b, tolerances, max_distance=clearance)` runs, from the batch's bounds
   (frame, scale and tolerances as `collide` computes them, for all kept pairs at once): a pair proven farther
   than the clearance stops early and is dropped.
"""
from __future__ import annotations

import math

import numpy as np

from .broadphase import as_clearance, candidate_pairs
from .contact import Contact, Status
from .gjk import GJKOutcome, GJKResult
from . import large_pairs
from .epa import EPAOutcome
from .lockstep import BEYOND, ORIGIN, SEPARATED, lockstep_gjk
from .lockstep_epa import _Sides, lockstep_epa
from .minkowski import SupportPoint
from .convex import _CONTACT_DEFAULTS, Pair, diagonal, solve
from .shapes import PointCloud, Shape, as_shape
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = ["ShapeBatch", "collide_many", "find_clashes", "AXES"]


def _fixed_axes() -> np.ndarray:
    axes = [(1, 0, 0), (0, 1, 0), (0, 0, 1),
            (1, 1, 0), (1, -1, 0), (1, 0, 1), (1, 0, -1), (0, 1, 1), (0, 1, -1),
            (1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)]
    g = (1.0 + math.sqrt(5.0)) / 2.0
    # Icosahedron vertex axes (0, +-1, +-g) cyclically, one of each antipodal pair.
    axes += [(0, 1, g), (0, 1, -g), (1, g, 0), (1, -g, 0), (g, 0, 1), (-g, 0, 1)]
    # Icosahedron face axes = dodecahedron vertices: (+-1, +-1, +-1) (already in) and (0, +-1/g, +-g) cyclically.
    axes += [(0, 1 / g, g), (0, 1 / g, -g), (1 / g, g, 0), (1 / g, -g, 0), (g, 0, 1 / g), (-g, 0, 1 / g)]
    # 24 more, spread evenly over the upper hemisphere (a Fibonacci lattice: golden-angle turns, even z steps).
    k = np.arange(24) + 0.5
    z = 1.0 - k / 24.0
    r = np.sqrt(1.0 - z * z)
    turn = k * math.pi * (3.0 - math.sqrt(5.0))
    axes += list(zip(r * np.cos(turn), r * np.sin(turn), z))
    a = np.array(axes, dtype=np.float64)
    return a / np.linalg.norm(a, axis=1)[:, None]


AXES = _fixed_axes()
"""The fixed unit directions of the prefilter (one of each antipodal pair), shape (49, 3)."""

_VERTEX_CAP = 256
"""Shapes with more core vertices than this use their bounding sphere on the centre-to-centre axis (keeps the
padded per-pair vertex arrays small); the fixed axes still use every vertex."""
_LOCKSTEP_ITERATIONS = 20
"""Support queries per pair in the lock-step GJK of `collide_many` (core/lockstep.py) before a pair still running
goes to the scalar engine, which starts it again.  On the bench scenes nearly every pair is decided within 6, but
with a clearance the separated pairs of round shapes take 11 to 15: at 10 about 30 of them started again (~0.5 ms
each), while the lock-step's last iterations over those few rows cost less."""
_LOCKSTEP_EPA_EXPANSIONS = 24
"""EPA expansions per pair in the lock-step EPA of `collide_many` (core/lockstep_epa.py) before a pair still
expanding goes to the scalar engine."""
_CHUNK = 4096
"""Pairs per vectorised block on the centre-to-centre axis and in the lock-step EPA (bounds the temporary
arrays)."""
_PREFILTER_ROWS = 1024
"""Pairs per block of the prefilter's fixed axes (see `ShapeBatch._fixed_axes`)."""
_ROUNDING = 1e-13
"""Allowance for rounding in the projections, relative to the coordinates' magnitude (float64 dot products of
three terms err by a few 1e-16 x |x|)."""


class ShapeBatch:
    """Shapes prepared once for `collide_many` (and `lower_bounds`).  Accepts `core.Shape`s and (n, 3) arrays.

    The shapes are used as given (their transforms are read now): move a shape and build a new batch."""

    def __init__(self, shapes):
        if isinstance(shapes, ShapeBatch):
            shapes = shapes.shapes
        try:
            items = list(shapes)
        except TypeError:
            raise ValueError("shapes must be a sequence of core shapes or (n, 3) vertex arrays") from None
        self.shapes = [as_shape(s, f"shapes[{k}]") for k, s in enumerate(items)]
        n = len(self.shapes)
        self.lo = np.zeros((n, 3))
        self.hi = np.zeros((n, 3))
        self.sweep = np.zeros(n)
        self.interval_lo = np.zeros((n, len(AXES)))
        self.interval_hi = np.zeros((n, len(AXES)))
        vertices = []  # world core vertices (or None) per shape
        for k, shape in enumerate(self.shapes):
            lo, hi = shape.bounds()
            self.lo[k], self.hi[k] = lo, hi
            self.sweep[k] = shape.sweep
            vertices.append(self._world_vertices(shape))
        if n and not (np.all(np.isfinite(self.lo)) and np.all(np.isfinite(self.hi))):
            raise ValueError("a shape's bounds are not finite (too large for float64)")
        self.centre = 0.5 * (self.lo + self.hi)
        # Each shape's box diagonal as `core.collide` measures it (the pair's scale is the larger of two).
        self._scales = np.array([diagonal(lo, hi) for lo, hi in zip(self.lo, self.hi)]) if n else np.zeros(0)
        self.diagonal = np.linalg.norm(self.hi - self.lo, axis=1)
        self.magnitude = np.maximum(np.abs(self.lo), np.abs(self.hi)).max(axis=1) if n else np.zeros(0)
        # Bounding sphere about the box centre (sweep included), for curved cores and very large clouds.
        self.radius = 0.5 * self.diagonal
        polytope = [k for k, v in enumerate(vertices) if v is not None]
        curved = [k for k, v in enumerate(vertices) if v is None]
        if polytope:
            counts = np.array([len(vertices[k]) for k in polytope])
            stacked = np.concatenate([vertices[k] for k in polytope])
            starts = np.r_[0, np.cumsum(counts)[:-1]]
            projected = AXES @ stacked.T  # (axes, vertices): reduceat along the contiguous axis is fast
            sweep = self.sweep[polytope][:, None]
            self.interval_lo[polytope] = np.minimum.reduceat(projected, starts, axis=1).T - sweep
            self.interval_hi[polytope] = np.maximum.reduceat(projected, starts, axis=1).T + sweep
            reach = np.sqrt(((stacked - np.repeat(self.centre[polytope], counts, axis=0)) ** 2).sum(axis=1))
            self.radius[polytope] = np.maximum.reduceat(reach, starts) + self.sweep[polytope]
        for k in curved:
            shape = self.shapes[k]
            for a, u in enumerate(AXES):
                self.interval_hi[k, a] = float(u @ shape.support(u))
                self.interval_lo[k, a] = float(u @ shape.support(-u))
        # The padded vertex block of the centre-to-centre axis is built on first use (`lower_bounds` only).
        self._stacked = (np.array(polytope, dtype=np.int64), stacked, starts, counts) if polytope else None
        self._block = None
        # The lock-step GJK's blocks are built now, with the rest of the preparation (about 6 us a cloud).
        self._lock = None
        self._extent = None
        self._columns = None
        self._copies = None
        self._lockstep_data()

    def _vertex_block(self):
        """(row per shape or -1, block): row r of the (rows, width, 3) block holds the world vertices of a shape
        with at most _VERTEX_CAP of them, padded by repeating its last one (repeats change no max or min)."""
        if self._block is None:
            row = np.full(len(self.shapes), -1)
            block = np.zeros((0, 1, 3))
            if self._stacked is not None:
                polytope, stacked, starts, counts = self._stacked
                small = np.flatnonzero(counts <= _VERTEX_CAP)
                if len(small):
                    width = int(counts[small].max())
                    take = starts[small][:, None] + np.minimum(np.arange(width)[None, :], counts[small][:, None] - 1)
                    block = stacked[take]
                    row[polytope[small]] = np.arange(len(small))
            self._block = (row, block)
        return self._block

    @staticmethod
    def _world_vertices(shape: Shape):
        local = shape._world_core_vertices()
        if local is None:
            return None
        return np.asarray(local, dtype=np.float64) + shape._translation

    def _lockstep_data(self):
        """(bucket per shape or -1, row in its bucket, blocks, translations, frame origins): the core vertices of
        the point clouds with at most _VERTEX_CAP vertices, linear part applied and no translation, in blocks
        of equal padded width (powers of two from 8: little padding, one product per block): the lock-step
        GJK's supports."""
        if self._lock is None:
            n = len(self.shapes)
            bucket = np.full(n, -1)
            local = np.zeros(n, dtype=np.int64)
            groups = {}
            for k, shape in enumerate(self.shapes):
                if type(shape) is PointCloud and shape.core_vertex_count() <= _VERTEX_CAP:
                    width = max(8, 1 << (shape.core_vertex_count() - 1).bit_length())
                    groups.setdefault(width, []).append(k)
            blocks = []
            self._worlds = [None] * n  # the scalar support query's vertex arrays (the lock-step EPA's near ties)
            for b, (width, members) in enumerate(sorted(groups.items())):
                block = np.empty((len(members), width, 3))
                for r, k in enumerate(members):
                    w = self._worlds[k] = self.shapes[k]._world_core_vertices()
                    block[r, :len(w)] = w
                    block[r, len(w):] = w[-1]
                blocks.append(block)
                bucket[members] = b
                local[members] = np.arange(len(members))
            translation = np.array([s._translation for s in self.shapes]).reshape(n, 3)
            origin = np.array([s._origin for s in self.shapes]).reshape(n, 3)
            self._lock = (bucket, local, blocks, translation, origin)
        return self._lock

    def _lockstep(self, first, second, scales, clearance, tolerances):
        """Run core/lockstep.py on the pairs (first[k], second[k]) of two eligible point clouds.  Returns (state
        per pair: ORIGIN, BEYOND, SEPARATED, or anything else for the scalar engine; starts(k): pair k's GJK
        result for ORIGIN and SEPARATED)."""
        state, starts, _ = self._lockstep_all(first, second, scales, clearance, tolerances, epa=False)
        return state, starts

    def _lockstep_all(self, first, second, scales, clearance, tolerances, epa=True):
        """`_lockstep`, then (epa=True) core/lockstep_epa.py on the ORIGIN pairs.  Returns (state, starts,
        penetration): penetration is None or (done (k,) over the pairs, then `lockstep_epa`'s depth, normal,
        point_a, point_b, iterations and certified gap, indexed like the pairs) for the pairs it finished."""
        bucket, local, blocks, translation, origin = self._lockstep_data()
        state = np.full(len(first), -1)
        rows = np.flatnonzero((bucket[first] >= 0) & (bucket[second] >= 0))
        if not len(rows):
            return state, None, None
        i, j = first[rows], second[rows]
        scale = np.asarray(scales)[rows]
        # The pair's frame is A's box centre, as `core.collide` puts it (`Shape.shifted`: origin, then offset).
        centre = self.centre[i]
        offset_a = translation[i] - (origin[i] + centre)
        offset_b = translation[j] - (origin[j] + centre)
        touching = tolerances.touching * scale
        stop_above = np.maximum(clearance, touching) + (self.sweep[i] + self.sweep[j])
        out = lockstep_gjk(
            blocks, (bucket[i], local[i]), (bucket[j], local[j]), offset_a, offset_b, self.centre[j] - centre,
            stop_above, tolerances.gjk_gap * scale, tolerances.zero * scale,
            min(_LOCKSTEP_ITERATIONS, tolerances.gjk_max_iterations), self._lockstep_columns(),
            self._lockstep_extent(), self._lockstep_copies())
        state[rows] = out["state"]
        where = np.full(len(first), -1)
        where[rows] = np.arange(len(rows))
        sw, sa, sb, weights, count = out["w"], out["a"], out["b"], out["weights"], out["count"]

        def starts(k):
            """Pair k's GJK result, as `gjk.gjk` returns it, from the lock-step state (ORIGIN or SEPARATED)."""
            r = where[k]
            c = int(count[r])
            simplex = tuple(SupportPoint(tuple(w), tuple(a), tuple(b))
                            for w, a, b in zip(sw[r, :c].tolist(), sa[r, :c].tolist(), sb[r, :c].tolist()))
            lam = tuple(weights[r, :c].tolist())
            iterations = int(out["iterations"][r])
            if state[k] == ORIGIN:
                return GJKResult(GJKOutcome.ORIGIN, simplex, lam, (0.0, 0.0, 0.0), 0.0, 0.0, iterations, True, False)
            return GJKResult(GJKOutcome.SEPARATED, simplex, lam, tuple(out["v"][r].tolist()),
                             math.sqrt(float(out["vv"][r])), max(float(out["lower"][r]), 0.0), iterations, True,
                             False)

        starts.lockstep, starts.where = out, where  # the arrays behind it, for `_separated`
        penetration = self._lockstep_penetration(out, rows, i, j, offset_a, offset_b, scale, state, tolerances,
                                                 len(first)) if epa else None
        return state, starts, penetration

    def _lockstep_penetration(self, out, rows, i, j, offset_a, offset_b, scale, state, tolerances, total):
        """core/lockstep_epa.py on the lock-step rows whose GJK ended around the origin (see `_lockstep_all`)."""
        policy = large_pairs.LARGE_PAIRS
        budget = min(_LOCKSTEP_EPA_EXPANSIONS, policy.batch_after, policy.local_after, policy.near_copy_after,
                     tolerances.epa_max_iterations - 1)
        if policy.raw_hull_early <= _VERTEX_CAP or budget < 1:
            return None  # EPA could change course within the budget: the scalar engine runs it
        hit = np.flatnonzero(out["state"] == ORIGIN)
        if not len(hit):
            return None
        bucket, local, blocks, _, _ = self._lockstep_data()
        radii = self._lockstep_extent()
        worlds = self._worlds
        world = lambda which: [worlds[k] for k in which.tolist()]  # noqa: E731
        parts = []
        for start in range(0, len(hit), _CHUNK):  # bounds the per-pair polytope arrays (~20 kB a pair)
            h = hit[start:start + _CHUNK]
            ia, ib = i[h], j[h]
            columns, copies = self._lockstep_columns(), self._lockstep_copies()
            side_a = _Sides(blocks, radii, bucket[ia], local[ia], offset_a[h], world(ia), True, columns, copies)
            side_b = _Sides(blocks, radii, bucket[ib], local[ib], offset_b[h], world(ib), False, columns, copies)
            parts.append(lockstep_epa(out["w"][h], out["a"][h], out["b"][h], side_a, side_b,
                                      tolerances.epa_gap * scale[h], tolerances.flat * scale[h], budget))
        found = [np.concatenate(column) for column in zip(*parts)]
        done = np.zeros(total, bool)
        done[rows[hit[found[0]]]] = True
        where = np.full(total, -1)
        where[rows[hit]] = np.arange(len(hit))
        gjk_iterations = np.zeros(total, np.int64)
        gjk_iterations[rows] = out["iterations"]
        return (done, where, gjk_iterations) + tuple(found[1:])

    def _lockstep_extent(self):
        """The largest vertex norm of each lock-step block row, one array per block."""
        if self._extent is None:
            # Squared norms by einsum (no (rows, width, 3) temporary: ~3x faster); a bound for the tie margins,
            # which allow for its rounding.
            self._extent = [np.sqrt(np.einsum("rwk,rwk->rw", b, b).max(axis=1)) for b in self._lockstep_data()[2]]
        return self._extent

    def _lockstep_columns(self):
        """The lock-step blocks as (rows, 3, width) coordinate columns (core/lockstep.py `Gathered`), made on first
        use and kept."""
        if self._columns is None:
            self._columns = [np.ascontiguousarray(b.transpose(0, 2, 1)) for b in self._lockstep_data()[2]]
        return self._columns

    def _lockstep_copies(self):
        """Per lock-step block, each row's last own vertex (its vertex count - 1): the row's padding after it
        repeats it (core/lockstep.py `top_and_ties`), made on first use and kept."""
        if self._copies is None:
            bucket, local, blocks, _, _ = self._lockstep_data()
            count = np.zeros(len(self.shapes), np.int64)
            if self._stacked is not None:
                polytope, _, _, counts = self._stacked  # the core vertex counts (those of the block rows)
                count[polytope] = counts
            self._copies = []
            for b, block in enumerate(blocks):
                members = np.flatnonzero(bucket == b)
                last = np.zeros(len(block), np.int64)
                last[local[members]] = count[members] - 1
                self._copies.append(last)
        return self._copies

    def __len__(self) -> int:
        return len(self.shapes)

    def _pairs(self, pairs) -> np.ndarray:
        try:
            array = np.asarray(pairs)
        except (TypeError, ValueError):
            raise ValueError("pairs must be a (k, 2) array of shape indices") from None
        if array.size == 0:
            return np.zeros((0, 2), np.int64)
        if array.ndim != 2 or array.shape[1] != 2 or array.dtype.kind not in "iu":
            raise ValueError(f"pairs must be a (k, 2) array of integer shape indices, got {array.dtype} "
                             f"{array.shape}")
        if array.min() < 0 or array.max() >= len(self.shapes):
            raise ValueError(f"pairs hold a shape index outside [0, {len(self.shapes)})")
        return array.astype(np.int64)

    def lower_bounds(self, pairs) -> np.ndarray:
        """Certified lower bound on each pair's distance (the separating-axis gaps; <= 0 says nothing).

        Each bound is within a few ulps of the coordinates' magnitude of a true lower bound (the rounding of the
        projections); `collide_many` allows for it."""
        pairs = self._pairs(pairs)
        i, j = pairs[:, 0], pairs[:, 1]
        bound = self._fixed_axes(i, j)
        return np.maximum(bound, self._centre_axis(i, j))

    def _fixed_axes(self, i, j) -> np.ndarray:
        # In blocks of _PREFILTER_ROWS pairs: each temporary (rows x 49) stays small enough to be reused from the
        # heap across blocks and calls (whole-array temporaries of 10,000 pairs, ~4 MB each, were mapped and
        # faulted in afresh on every call).
        out = np.empty(len(i))
        lo, hi = self.interval_lo, self.interval_hi
        for start in range(0, len(i), _PREFILTER_ROWS):
            a, b = i[start:start + _PREFILTER_ROWS], j[start:start + _PREFILTER_ROWS]
            gaps = lo.take(b, axis=0)
            gaps -= hi.take(a, axis=0)
            other = lo.take(a, axis=0)
            other -= hi.take(b, axis=0)
            np.maximum(gaps, other, out=gaps)
            gaps.max(axis=1, out=out[start:start + _PREFILTER_ROWS])
        return out

    def _centre_axis(self, i, j) -> np.ndarray:
        """The separating-axis gap along each pair's centre-to-centre direction."""
        out = np.full(len(i), -np.inf)
        u = self.centre[j] - self.centre[i]
        length = np.sqrt((u * u).sum(axis=1))
        ok = length > 0.0
        u[ok] /= length[ok][:, None]
        along_i = (u * self.centre[i]).sum(axis=1)
        along_j = (u * self.centre[j]).sum(axis=1)
        # Bounding spheres first (every shape has one), then the vertices where both have a block row.
        out[ok] = (along_j - self.radius[j] - along_i - self.radius[i])[ok]
        row, block = self._vertex_block()
        exact = ok & (row[i] >= 0) & (row[j] >= 0)
        where = np.flatnonzero(exact)
        for start in range(0, len(where), _CHUNK):
            sel = where[start:start + _CHUNK]
            d = u[sel]
            va = block[row[i[sel]]]
            vb = block[row[j[sel]]]
            top_a = np.matmul(va, d[:, :, None])[:, :, 0].max(axis=1) + self.sweep[i[sel]]
            low_b = np.matmul(vb, d[:, :, None])[:, :, 0].min(axis=1) - self.sweep[j[sel]]
            out[sel] = np.maximum(out[sel], low_b - top_a)
        return out

    def candidates(self, pairs, clearance: float = 0.0, tolerances: Tolerances = DEFAULT_TOLERANCES):
        """Boolean mask over `pairs`: False where the prefilter proves the pair farther than clearance."""
        if not isinstance(tolerances, Tolerances):
            raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
        pairs = self._pairs(pairs)
        clearance = as_clearance(clearance)
        i, j = pairs[:, 0], pairs[:, 1]
        scale = np.maximum(self.diagonal[i], self.diagonal[j])
        limit = clearance + tolerances.touching * scale + _ROUNDING * (self.magnitude[i] + self.magnitude[j]
                                                                       + clearance)
        # The fixed axes only: the centre-to-centre axis (in `lower_bounds`) cleared 0.2 % more pairs on the
        # bench scenes for ~10 us per pair, more than the GJK runs it saves.
        return ~(self._fixed_axes(i, j) > limit)


def collide_many(shapes, pairs, clearance: float = 0.0, tolerances: Tolerances = DEFAULT_TOLERANCES):
    """Every pair of `pairs` that intersects, touches, or is separated by at most `clearance` (world units, >= 0).

    shapes: a `ShapeBatch` (prepared once, reused across calls) or a sequence of shapes / (n, 3) arrays.
    pairs: (k, 2) integer indices into shapes (e.g. from `core.candidate_pairs`).
    Returns a list of (i, j, Contact) in the order of `pairs`, the Contact being `core.collide(shapes[i],
    shapes[j], tolerances)`'s answer; a SEPARATED pair is listed when its certified lower bound `distance - gap`
    is <= clearance (so a pair exactly at the clearance is listed).  See the module docstring.
    Raises ValueError on bad shapes, pairs, clearance or tolerances."""
    if not isinstance(tolerances, Tolerances):
        raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
    batch = shapes if isinstance(shapes, ShapeBatch) else ShapeBatch(shapes)
    pairs = batch._pairs(pairs)
    clearance = as_clearance(clearance)
    keep = np.flatnonzero(batch.candidates(pairs, clearance, tolerances))
    found = []
    if not len(keep):
        return found
    # What `core.collide` derives per pair from the shapes' bounds, here for every kept pair at once from the
    # batch's (same arithmetic, so the same frame, scale and tolerances to the bit).
    first, second = pairs[keep, 0], pairs[keep, 1]
    betweens = (batch.centre[second] - batch.centre[first]).tolist()
    scales = np.maximum(batch._scales[first], batch._scales[second]).tolist()
    shapes, centres = batch.shapes, batch.centre
    dropped = object()  # `solve`'s answer for a pair proven farther than the clearance
    if not all(map(math.isfinite, scales)):
        raise ValueError("the shapes are too large to measure in float64 (their extent overflows)")
    state, starts, penetration = batch._lockstep_all(first, second, scales, clearance, tolerances)
    finished = _finished(batch, first, second, scales, tolerances, penetration)
    finished.update(_separated(batch, first, second, scales, tolerances, state, starts))
    listed = {}  # k -> (i, j, Contact), merged in the order of the pairs at the end
    firsts, seconds = first.tolist(), second.tolist()
    for k, contact in finished.items():
        if contact.status is not Status.SEPARATED or contact.distance - contact.gap <= clearance:
            listed[k] = (firsts[k], seconds[k], contact)
    for k, decided in enumerate(state.tolist()):
        if decided == BEYOND or k in finished:
            continue  # BEYOND: a support plane proved the pair farther than the clearance
        i, j = firsts[k], seconds[k]
        pair = Pair.prepared(shapes[i], shapes[j], centres[i], tuple(betweens[k]), scales[k], tolerances)
        contact = solve(pair, clearance, early=dropped,
                        start=starts(k) if decided == ORIGIN or decided == SEPARATED else None)
        if contact is dropped:
            continue
        if contact.status is not Status.SEPARATED or contact.distance - contact.gap <= clearance:
            listed[k] = (i, j, contact)
    found += [listed[k] for k in sorted(listed)]
    return found


def _finished(batch, first, second, scales, tolerances, penetration) -> dict:
    """{k: Contact} for the kept pairs k the lock-step EPA finished: what `solve` makes of its EPAResult (the same
    operations in the same order, so the same bits), for all of them at once."""
    if penetration is None or not penetration[0].any():
        return {}
    done, where, gjk_iterations, depth, normal, point_a, point_b, iterations, certified = penetration
    ks = np.flatnonzero(done)
    r = where[ks]
    i, j = first[ks], second[ks]
    n = normal[r]
    origin = batch.centre[i]
    world_a = (point_a[r] + origin) + batch.sweep[i][:, None] * n
    world_b = (point_b[r] + origin) - batch.sweep[j][:, None] * n
    signed = (-depth[r] - (batch.sweep[i] + batch.sweep[j])) + 0.0
    scale = np.asarray(scales)[ks]
    touching = tolerances.touching * scale
    status = np.where(signed > touching, 0, np.where(signed < -touching, 1, 2))
    # The separating move of the intersecting ones, as `solve` makes it: (certified gap - signed) x each component.
    move = (certified[r] - signed)[:, None] * n
    for vectors in (n, world_a, world_b, move):  # each Contact gets read-only rows of these, as `_contact` makes them
        vectors.setflags(write=False)
    # `_contact`'s fields, filled here without its per-call checks (every vector is already a read-only float64
    # row): the defaults, then the fields common to all of these answers, then each pair's own.
    common = dict(_CONTACT_DEFAULTS)
    common.update(converged=True, iteration_cap_hit=False, fallback_used=False, epa_outcome=EPAOutcome.CONVERGED)
    own = ("scale", "touching_tolerance", "gjk_iterations", "epa_iterations", "gap", "distance", "normal", "point_a",
           "point_b")
    return _filled(ks, status, common, own,
                   (scale.tolist(), touching.tolist(), gjk_iterations[ks].tolist(), iterations[r].tolist(),
                    certified[r].tolist(), signed.tolist(), n, world_a, world_b), move)


def _filled(ks, status, common, own, columns, move) -> dict:
    """Contacts by pair index k, made without `_contact`'s per-call checks (every vector already a read-only
    float64 row): the fields `common` to all, then each pair's own (`own` names the `columns`, one value per
    pair), its status from `status` (0 separated, 1 intersecting, 2 touching) and, when intersecting, its row of
    `move` as the separation."""
    names = (Status.SEPARATED, Status.INTERSECTING, Status.TOUCHING)
    new, out = object.__new__, {}
    for k, s, values, m in zip(ks.tolist(), status.tolist(), zip(*columns), move):
        contact = new(Contact)
        fields = contact.__dict__
        fields.update(common)
        fields.update(zip(own, values))
        fields["status"] = names[s]
        if s == 1:
            fields["separation"] = m
        out[k] = contact
    return out


def _separated(batch, first, second, scales, tolerances, state, starts) -> dict:
    """{k: Contact} for the kept pairs k whose lock-step GJK converged to a positive distance (SEPARATED, with a
    lower bound > 0 and a distance beyond the touching band): what `solve` makes of that GJK result with no EPA
    (the same operations in the same order, so the same bits), for all of them at once.  The others (a bound at
    0, a distance within the band: `solve`'s EPA or its neighbour query) are left to `solve`."""
    if starts is None:
        return {}
    out, where = starts.lockstep, starts.where
    ks = np.flatnonzero(state == SEPARATED)
    if not len(ks):
        return {}
    r = where[ks]
    scale = np.asarray(scales)[ks]
    touching = tolerances.touching * scale
    distance = np.sqrt(out["vv"][r])  # `math.sqrt`: both correctly rounded
    lower = out["lower"][r]
    mine = (lower > 0.0) & (distance > touching)
    ks, r, scale, touching = ks[mine], r[mine], scale[mine], touching[mine]
    distance, lower = distance[mine], lower[mine]
    if not len(ks):
        return {}
    i, j = first[ks], second[ks]
    n = -out["v"][r] / distance[:, None]  # (-v) / |v| per component, as `solve` divides
    # `weighted_points`: each sum starts at 0.0 and adds the simplex's weighted points in order (a point beyond
    # the simplex's count adds +0.0, which changes no bit of a sum that is never -0.0).
    count, weights = out["count"][r], out["weights"][r]
    point_a = np.zeros((len(ks), 3))
    point_b = np.zeros((len(ks), 3))
    for c in range(4):
        used = (c < count)[:, None]
        lam = weights[:, c:c + 1]
        point_a = point_a + np.where(used, lam * out["a"][r, c], 0.0)
        point_b = point_b + np.where(used, lam * out["b"][r, c], 0.0)
    origin = batch.centre[i]
    world_a = (point_a + origin) + batch.sweep[i][:, None] * n
    world_b = (point_b + origin) - batch.sweep[j][:, None] * n
    signed = (distance - (batch.sweep[i] + batch.sweep[j])) + 0.0
    gap = distance - lower
    status = np.where(signed > touching, 0, np.where(signed < -touching, 1, 2))
    move = (gap - signed)[:, None] * n
    for vectors in (n, world_a, world_b, move):  # each Contact gets read-only rows of these, as `_contact` makes them
        vectors.setflags(write=False)
    common = dict(_CONTACT_DEFAULTS)
    common.update(converged=True, iteration_cap_hit=False, fallback_used=False, epa_outcome=None, epa_iterations=0)
    own = ("scale", "touching_tolerance", "gjk_iterations", "gap", "distance", "normal", "point_a", "point_b")
    return _filled(ks, status, common, own,
                   (scale.tolist(), touching.tolist(), out["iterations"][r].tolist(), gap.tolist(), signed.tolist(),
                    n, world_a, world_b), move)


def find_clashes(shapes, clearance: float = 0.0, set_a=None, set_b=None,
                 tolerances: Tolerances = DEFAULT_TOLERANCES):
    """Every clash of a scene, worst first: `core.candidate_pairs` then `collide_many`.

    shapes: a `ShapeBatch` or a sequence of shapes / (n, 3) arrays.  set_a, set_b: as in `core.candidate_pairs`
    (neither: every pair of the scene; set_a only: every pair within it; both: A against B).
    Returns a list of (i, j, Contact) with the semantics of `collide_many` (INTERSECTING, TOUCHING, or SEPARATED
    by at most the clearance), sorted by signed distance (the deepest intersection first, then touching pairs,
    then the smallest separation), ties by (i, j).  Within one set, i < j; for A against B, i is in set_a and j in
    set_b whenever the pair allows it (a pair of two objects in both sets keeps i < j)."""
    batch = shapes if isinstance(shapes, ShapeBatch) else ShapeBatch(shapes)
    # Boxes a touching band apart may hold a TOUCHING pair: widen by the largest band any pair can have (the
    # band is a factor of the pair's scale, at most the largest box diagonal of the scene).
    diagonals = np.sqrt(np.square(batch.hi - batch.lo).sum(axis=1)) if len(batch) else np.zeros(0)
    band = tolerances.touching * float(diagonals.max()) if len(diagonals) else 0.0
    pairs = candidate_pairs(batch.lo, batch.hi, clearance + band, set_a, set_b)
    if set_b is not None and len(pairs):
        n = len(batch)
        a = np.zeros(n, bool)
        a[np.asarray(set_a)] = True  # candidate_pairs has validated both sets
        b = np.zeros(n, bool)
        b[np.asarray(set_b)] = True
        flip = ~(a[pairs[:, 0]] & b[pairs[:, 1]])  # then (j, i) is an A x B pair
        pairs[flip] = pairs[flip][:, ::-1]
    found = collide_many(batch, pairs, clearance, tolerances)
    found.sort(key=lambda item: (item[2].distance, item[0], item[1]))
    return found
