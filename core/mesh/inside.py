"""Points of one mesh inside the other closed mesh (step 5 of core/mesh/query.py): the probes, their winding
numbers and their depth, and whether every loose part of a mesh lies inside the other (`parts_inside`).

Probes of mesh X against closed mesh Y: the corners of the first triangle of every loose part, a sample of 64
vertices, the corners and centroids of triangles at the contact, for crossing triangle pairs a point of the
triangle on each side of the other's plane and points stepped off the crossing segment, and points just behind
X's contact faces that X's own winding number puts inside X.  Pairs are sampled in leaf order
(`in_leaf_order`), so collide(b, a) probes the same points as collide(a, b).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rows import row_cross, row_dot
from .farthest import beyond_band, farthest_from_surface
from .pair_frame import Side
from .points import closest_points, winding_numbers
from .tritri import crossing, point_triangle

__all__ = ["Inside", "PartCorners", "PartsInside", "Probes", "make_probes", "probe_rows", "probe_flags",
           "deepest_inside", "parts_inside", "steps_off_the_curve", "in_leaf_order", "crossing_sample"]

MAX_PROBES = 128
"""Scale of the probe budget per side (beyond the corners of every loose part and a sample of 64 vertices):
corners and centroids of MAX_PROBES / 4 contact pairs, clipped centroids of MAX_PROBES / 2 crossing pairs, and
points stepped off the curve for MAX_PROBES / 8 crossing pairs."""

MAX_DEPTH_POINTS = 256
"""Cap on inside points whose distance to the other surface is measured for the depth."""

SEARCHED_FIRST = 16
"""The deepest probe is searched first among those without an upper bound of their distance and the
SEARCHED_FIRST with the largest bounds, then among the others only where their bound reaches the depth found
(`_farthest_of`): most probes near the contact lie close to the other surface and only slow the search down."""

FEW_CORNERS = 16
"""Up to this many part corners `_measure` measures every one exactly (`closest_points`); beyond, it measures
only those its flags and the deepest corner need (core/mesh/farthest.py `beyond_band`), which costs more per level
and pays only with more points (the 9 corners of one part: 0.6 ms against 0.9 on bench/midsize.py's bunny)."""

ASKED_FIRST = 32
"""Of a crossing pair's probes that may wait (`unasked_candidates`: made against a Y triangle, so with an upper
bound of their distance to Y's surface, and not repeated), `meet` asks the winding numbers of the ASKED_FIRST with
the largest bounds, besides every other probe and the points stepped off the curve; the rest are asked by
`deepest_inside` only where their bound reaches the depth found among the others (`_unknown_deeper`).  Near the
contact most of them lie close to Y's surface: on bench/midsize.py's crossing rows none was ever asked late."""


def in_leaf_order(found, pairs, swap):
    """Pair indices sorted by (X's leaf, Y's leaf): the probes sampled from them are then the same whichever
    argument X was (collide(b, a) is collide(a, b).swapped())."""
    x_leaf, y_leaf = (found.ib, found.ia) if swap else (found.ia, found.ib)
    x, y = x_leaf[pairs], y_leaf[pairs]
    if pairs.size and int(x.max()) < 2 ** 31 and int(y.max()) < 2 ** 31:
        # one stable sort on the key x * 2^31 + y: the order of lexsort((y, x)), in about half the time
        return pairs[np.argsort(x.astype(np.int64) * 2 ** 31 + y, kind="stable")]
    return pairs[np.lexsort((y, x))]


def crossing_sample(pairs):
    """The crossing pairs whose curve is stepped off (MAX_PROBES / 8 of them, evenly spread)."""
    return pairs[:: max(1, pairs.size // (MAX_PROBES // 8))]


class PartCorners(NamedTuple):
    """What `parts_inside` measured of X's part corners (`_part_points`) against closed Y: their inside flags, and
    (None when no corner is inside) whether each one's distance to Y's surface exceeds the band (`off`), and the
    deepest of the inside corners beyond the band as (row, distance, closest surface point), or None: what
    `closest_points` and an argmax (first row of a tie) give (core/mesh/farthest.py `beyond_band`).
    `deepest_inside` reads them again instead of measuring the same points."""
    inside: np.ndarray
    off: np.ndarray | None
    deepest: tuple | None


class Inside:
    any_inside = False
    depth = 0.0
    point_in = None
    point_surface = None


class Probes(NamedTuple):
    """The probes `deepest_inside` makes of X against closed Y from the part corners, the vertex sample and the
    pairs (`make_probes`; not the points stepped off the curve), with their inside flags: made by
    core/mesh/meeting.py `meet` for a crossing pair, whose stepped points' winding numbers it takes in the same
    pass (a point's winding number does not depend on the others), and read by `deepest_inside`.
    `crossing_pairs`, `touching_pairs`: the pairs they were made from, in leaf order; `points`: every probe row
    (`blocks` of them, each with the Y triangles it was made against or None, `against`); `count`: the part
    corners' rows (first); `repeat`, `repeated`: how many rows repeat earlier ones and where they start
    (`_repeated`); `inside`: the flags of every row (False where not asked).  `unknown`: the rows whose winding
    numbers were not asked (`ASKED_FIRST`), or None when every row's were; `upper`: the upper bounds of the
    distances to Y's surface of the rows that may wait (`unasked_candidates`; `_upper_bounds`' numbers), inf on
    the other rows, or None."""
    crossing_pairs: np.ndarray
    touching_pairs: np.ndarray
    points: np.ndarray
    blocks: list
    against: list
    count: int
    repeat: int
    repeated: int
    inside: np.ndarray | None
    unknown: np.ndarray | None = None
    upper: np.ndarray | None = None


def make_probes(sx: Side, found, crossing_pairs, touching_pairs, X, Y, band, swap=False, with_parts=True,
                make_steps=False) -> Probes:
    """`deepest_inside`'s probes of X, without their flags (`inside` None).  `make_steps`: the points stepped off
    the curve are made here too (last), as when `meet` did not make them."""
    crossing_pairs = in_leaf_order(found, crossing_pairs, swap)
    touching_pairs = in_leaf_order(found, touching_pairs, swap)
    verts = sx.vertices
    rep_points = _part_points(sx)[0] if with_parts else np.zeros((0, 3))
    used = sx.local.used
    stride = max(1, used.size // 64)
    probes = [rep_points, verts[used[::stride]]]
    # the triangle of Y each probe was made against (a probe of a pair: that pair's Y triangle), for an upper
    # bound of its distance to Y's surface; the part corners and the vertex sample have none
    against = [None, None]
    # a crossing pair's contact pairs are its crossing pairs: their probes are made twice, the same points in the
    # same order (rows `repeat` later than the first ones): counted and searched once
    repeat = repeated = 0
    for pairs in (crossing_pairs, touching_pairs):
        if pairs.size:
            pick = pairs[:: max(1, pairs.size // (MAX_PROBES // 4))]
            corners = X[pick]
            probes += [corners.reshape(-1, 3), corners.mean(axis=1)]
            against += [np.repeat(Y[pick], 3, axis=0), Y[pick]]
    if _repeated(crossing_pairs, touching_pairs):
        repeat = 4 * probes[2].shape[0] // 3  # the corners and centroids of the crossing pairs' pick
        repeated = sum(p.shape[0] for p in probes[:2]) + repeat  # its first row
    if crossing_pairs.size:
        pick = crossing_pairs[:: max(1, crossing_pairs.size // (MAX_PROBES // 2))]
        probes.append(_clipped_centroids(X[pick], Y[pick]))
        against.append(np.concatenate([Y[pick], Y[pick]]))
        if make_steps:
            pick = crossing_sample(crossing_pairs)
            points, rows = steps_off_the_curve(X[pick], Y[pick], band, rows=True)
            probes.append(points)
            against.append(Y[pick][rows])
    return Probes(crossing_pairs, touching_pairs, np.concatenate(probes), probes, against, rep_points.shape[0],
                  repeat, repeated, None)


def probe_rows(probes: Probes, start: int) -> np.ndarray:
    """The rows of `probes.points` from `start` whose winding numbers are asked: a repeated row's are its first
    copy's."""
    points, repeat, repeated = probes.points, probes.repeat, probes.repeated
    if repeat:
        return np.concatenate([points[start:repeated], points[repeated + repeat:]])
    return points[start:]


def asked_rows(probes: Probes, start: int) -> np.ndarray:
    """The rows of `probes.points` that `probe_rows` gives (from `start`, a repeated row's first copy only)."""
    count, repeat, repeated = probes.points.shape[0], probes.repeat, probes.repeated
    if repeat:
        return np.concatenate([np.arange(start, repeated), np.arange(repeated + repeat, count)])
    return np.arange(start, count)


def unasked_candidates(probes: Probes) -> tuple:
    """(rows, triangles (j, 3, 3)): the probe rows whose winding numbers may wait for the depth (`ASKED_FIRST`):
    those made against a Y triangle (given with them, as `_upper_bounds` takes it) that no later row repeats.
    Rows with a repeat are asked at once: each counts twice in the sample of `deepest_inside`
    (`MAX_DEPTH_POINTS`), whose size needs every flag when the rows left unasked could make it reach twice the cap."""
    with_triangle = np.concatenate([np.full(p.shape[0], a is not None) for p, a in zip(probes.blocks, probes.against)])
    index = np.cumsum(with_triangle) - 1  # rows of the triangles of the blocks that have them, in order
    if probes.repeat:
        with_triangle[probes.repeated - probes.repeat:probes.repeated + probes.repeat] = False
    rows = np.flatnonzero(with_triangle)
    if rows.size == 0:
        return rows, np.zeros((0, 3, 3))
    return rows, np.concatenate([a for a in probes.against if a is not None])[index[rows]]


def waiting(probes: Probes, rows, bound) -> np.ndarray:
    """The mask over `probes.points` of the rows whose winding numbers wait (`ASKED_FIRST`): of the candidate
    `rows` (`unasked_candidates`) with their upper bounds `bound`, all but the ASKED_FIRST largest."""
    wait = np.zeros(probes.points.shape[0], bool)
    if ASKED_FIRST <= 0:
        wait[rows] = True
    elif rows.size > ASKED_FIRST:
        wait[rows[bound < np.partition(bound, rows.size - ASKED_FIRST)[rows.size - ASKED_FIRST]]] = True
    return wait


def upper_from(p, q) -> np.ndarray:
    """The distances |q - p| row by row, with `_upper_bounds`' arithmetic (q: `point_triangle`'s points)."""
    return np.sqrt(row_dot(q - p, q - p))


def probe_flags(probes: Probes, start: int, inside) -> np.ndarray:
    """The inside flags of the rows of `probes.points` from `start`, from those of `probe_rows`."""
    repeat, repeated = probes.repeat, probes.repeated
    if repeat:
        head = inside[:repeated - start]
        return np.concatenate([head, head[head.size - repeat:], inside[repeated - start:]])
    return inside


def deepest_inside(sx: Side, sy: Side, found, crossing_pairs, touching_pairs, X, Y, band, scale, swap=False,
                   with_parts=True, stepped=None, part_corners=None, probes=None):
    """The deepest point of mesh X found inside closed mesh Y (for the depth): part representatives (when
    `with_parts`), a vertex sample, points near the contact.  (Containment is decided by `meet`.)  `stepped`: the
    points stepped off the curve of these crossing pairs with their winding numbers in Y and the Y triangles they
    were stepped from, when `meet` has them (core/mesh/meeting.py `Stepped`: the same points; a point's winding
    number does not depend on the others).  The probes made from a pair start the deepest point's search with
    their distance to that pair's Y triangle as an upper bound (`_upper_bounds`: the same answer, fewer nodes).
    `part_corners`: the part corners' `PartCorners` against Y when `parts_inside` measured them (core/mesh/meeting.py
    keeps them): their flags and exact distances are read instead of measured again, and only the other probes
    are searched for one deeper (see `_deepest`).  `probes`: the other probes with their flags (`Probes`), when
    `meet` made them from these arguments with `stepped` (read only with it)."""
    result = Inside()
    if probes is None or stepped is None:
        made = make_probes(sx, found, crossing_pairs, touching_pairs, X, Y, band, swap, with_parts,
                           make_steps=stepped is None)
    else:
        made = probes
    crossing_pairs, touching_pairs = made.crossing_pairs, made.touching_pairs
    points, count, repeat, repeated = made.points, made.count, made.repeat, made.repeated
    probes, against = list(made.blocks), list(made.against)
    unknown, row_upper = made.unknown, made.upper
    known = part_corners is not None and with_parts and part_corners.inside.shape[0] == count
    if not known:
        part_corners = None
    # the part corners' winding numbers were taken by `parts_inside` when it measured them, and the repeated
    # probes' are their first copies' (a point's winding number does not depend on the others)
    start = count if known else 0
    if made.inside is not None:
        inside = made.inside
    else:
        inside = probe_flags(made, start, winding_numbers(probe_rows(made, start), sy.world, scale) != 0)
        if known:
            inside = np.concatenate([part_corners.inside, inside])
    if crossing_pairs.size and stepped is not None:  # the stepped points come last, as when stepped here
        points = np.concatenate([points, stepped.points])
        inside = np.concatenate([inside, stepped.winding != 0])
        probes.append(stepped.points)
        against.append(stepped.against)
        if unknown is not None:
            unknown = np.concatenate([unknown, np.zeros(stepped.points.shape[0], bool)])
    # (`meet` makes the probes whose flags wait, `unknown`, only for crossing pairs, with their stepped points)
    if unknown is not None and np.count_nonzero(inside[count:]) + np.count_nonzero(unknown) >= 2 * MAX_DEPTH_POINTS:
        # the sample below may take every other inside point or fewer: it needs every row's flag
        inside = inside.copy()
        rows = np.flatnonzero(unknown)
        inside[rows] = winding_numbers(points[rows], sy.world, scale) != 0
        unknown = None
    deepest = None
    if np.any(inside):
        measured = np.flatnonzero(inside)
        # every part representative found inside is measured, the other points up to MAX_DEPTH_POINTS: the
        # deepest of them beyond the band (only it is kept, so the others are measured no further than needed)
        reps = measured[measured < count]
        others = measured[measured >= count]
        others = others[:: max(1, others.size // MAX_DEPTH_POINTS)]
        if repeat:
            # a repeated probe whose first copy is searched too can only tie with it, and the first row wins a tie
            copy = (others >= repeated) & (others < repeated + repeat)
            copy &= np.isin(others - repeat, others)
            others = others[~copy]
        deepest = _deepest(points, reps, others, sy, band, part_corners, probes, against)
    if unknown is not None and np.any(unknown):
        deepest = _unknown_deeper(deepest, points, unknown, row_upper, sy, band, scale)
    if deepest is not None:
        row, result.depth, result.point_surface = deepest
        result.point_in = points[row]
        result.any_inside = True
    if not result.any_inside and sx.closed and touching_pairs.size:
        # Surfaces in contact with no surface point found inside (coplanar faces, identical meshes, crossings
        # only along shared edges): points of X's solid just behind the contact faces, kept where X's own
        # winding number puts them inside X.
        pick = touching_pairs[:: max(1, touching_pairs.size // (MAX_PROBES // 4))]
        behind = _steps_behind(X[pick], scale)
        behind = behind[winding_numbers(behind, sx.world, scale) != 0]
        behind = behind[winding_numbers(behind, sy.world, scale) != 0]
        deepest = farthest_from_surface(behind, sy.world, band)
        if deepest is not None:
            row, result.depth, result.point_surface = deepest
            result.point_in = behind[row]
            result.any_inside = True
    return result


def _repeated(crossing_pairs, touching_pairs) -> bool:
    """Are the contact pairs the crossing pairs (a crossing pair's contact), so that `deepest_inside` makes their
    probes twice?"""
    return bool(crossing_pairs.size) and np.array_equal(crossing_pairs, touching_pairs)


def _unknown_deeper(deepest, points, unknown, row_upper, sy: Side, band, scale):
    """`_deepest`'s answer over every probe, given its answer `deepest` over those whose flags were asked: the rows
    `unknown` (not asked, none of them repeated, each with a finite upper bound `row_upper` of its distance) can
    be deeper, or as deep with a lower row, only where that bound reaches the depth found (exceeds the band when
    none was found); those are asked and searched for one at least as deep (the first row wins a tie, as in one
    search over all of them)."""
    rows = np.flatnonzero(unknown)
    if deepest is None:
        rows = rows[row_upper[rows] > band]
    else:
        rows = rows[row_upper[rows] >= deepest[1]]
    if rows.size == 0:
        return deepest
    rows = rows[winding_numbers(points[rows], sy.world, scale) != 0]
    if rows.size == 0:
        return deepest
    floor = band if deepest is None else max(band, float(np.nextafter(deepest[1], -np.inf)))
    found = farthest_from_surface(points[rows], sy.world, floor, upper=row_upper[rows])
    if found is None:
        return deepest
    row = int(rows[found[0]])
    if deepest is None or found[1] > deepest[1] or row < deepest[0]:
        return row, found[1], found[2]
    return deepest


def _deepest(points, reps, others, sy: Side, band, corners, probes, against):
    """(row of `points`, distance, surface point) of the deepest of points[reps] and points[others] beyond the
    band (`farthest_from_surface` on the rows reps + others, in that order, each started from its
    `_upper_bounds` by the blocks `probes` and their triangles `against`), or None.  With `corners` the part
    corners' deepest beyond the band is known (`PartCorners`): the first of their largest distances, and the others
    are searched only for one strictly deeper (a floor at that distance), which is what the search over all of
    them picks: the largest distance, the first row on a tie, and every part corner comes before the others."""
    if corners is None or reps.size == 0:
        measured = np.concatenate([reps, others])
        return _farthest_of(points, measured, sy, band, _upper_bounds(points, probes, against, measured))
    first = corners.deepest  # the first of the largest over every inside corner (reps), when beyond the band
    deepest = _farthest_of(points, others, sy, band if first is None else max(band, first[1]),
                           _upper_bounds(points, probes, against, others))
    if deepest is not None:
        return deepest
    if first is not None:
        return int(first[0]), float(first[1]), first[2]
    return None


def _farthest_of(points, rows, sy: Side, floor, upper):
    """`farthest_from_surface` of points[rows] (rows ascending) beyond `floor`, started from the upper bounds
    `upper`, as (row of `points`, distance, surface point) or None, in two searches: first the rows without a
    bound and the SEARCHED_FIRST with the largest bounds, then only those of the others whose bound reaches the
    distance found (exceeds `floor` when none was), for one at least as far (the lowest row wins a tie, as in one
    search over all of them: a point's answer does not depend on the others searched with it)."""
    finite = np.flatnonzero(np.isfinite(upper))
    if finite.size <= SEARCHED_FIRST:
        found = farthest_from_surface(points[rows], sy.world, floor, upper=upper)
        return None if found is None else (int(rows[found[0]]), found[1], found[2])
    early = np.isinf(upper)
    if SEARCHED_FIRST > 0:
        early |= upper >= np.partition(upper[finite], finite.size - SEARCHED_FIRST)[finite.size - SEARCHED_FIRST]
    found = farthest_from_surface(points[rows[early]], sy.world, floor, upper=upper[early])
    deepest = None if found is None else (int(rows[early][found[0]]), found[1], found[2])
    later = ~early & ((upper > floor) if deepest is None else (upper >= deepest[1]))
    if not np.any(later):
        return deepest
    below = floor if deepest is None else max(floor, float(np.nextafter(deepest[1], -np.inf)))
    found = farthest_from_surface(points[rows[later]], sy.world, below, upper=upper[later])
    if found is None:
        return deepest
    row = int(rows[later][found[0]])
    if deepest is None or found[1] > deepest[1] or row < deepest[0]:
        return row, found[1], found[2]
    return deepest


def _upper_bounds(points, probes, against, rows):
    """Upper bounds of the distances of points[rows] to Y's surface: to the Y triangle each was made against
    (`against`, per block of `probes`; inf for a block without), with the arithmetic of
    core/mesh/points.py `nearest_on_leaves`, so each is no less than the distance `closest_points` computes."""
    with_triangle = np.concatenate([np.full(p.shape[0], a is not None) for p, a in zip(probes, against)])
    has = with_triangle[rows]
    upper = np.full(rows.size, np.inf)
    if np.any(has):
        T = np.concatenate([a for a in against if a is not None])
        # rows of T: the probes of the blocks that have triangles, in order
        index = np.cumsum(with_triangle) - 1
        take = rows[has]
        p = points[take]
        tri = T[index[take]]
        q = point_triangle(p, tri[:, 0], tri[:, 1], tri[:, 2])
        upper[has] = np.sqrt(row_dot(q - p, q - p))
    return upper


def _part_points(side: Side):
    """Representative points of every loose part: the corners of its first, middle and last triangle (so a part
    with a face lying on the other surface still has corners off it; only the first triangle's beyond 1000
    parts, to bound the work).  Returns (points, part of each point)."""
    parts = side.local.parts
    tris = side.local.triangles
    order = np.argsort(parts.label, kind="stable")
    starts = np.concatenate([[0], np.cumsum(parts.triangle_count)[:-1]])
    picks = [order[starts]]
    if parts.count <= 1000:
        picks += [order[starts + parts.triangle_count // 2], order[starts + parts.triangle_count - 1]]
    points = np.concatenate([side.vertices[tris[t, i]] for t in picks for i in range(3)])
    return points, np.tile(np.arange(parts.count), 3 * len(picks))


def _measure(points, sy: Side, band, scale):
    """`PartCorners` of the points against Y: whether each is inside closed Y (non-zero winding number), whether
    its distance to Y's surface exceeds the band, and the deepest inside point beyond the band
    (`closest_points`' numbers: measured by it up to FEW_CORNERS points, else by core/mesh/farthest.py `beyond_band`
    without measuring every point).  The flags first: when no point is inside, the distances decide nothing and
    are not measured (None)."""
    inside = winding_numbers(points, sy.world, scale) != 0
    if not np.any(inside):
        return PartCorners(inside, None, None)
    if points.shape[0] <= FEW_CORNERS:
        dist, surface = closest_points(points, sy.world)
        off = dist > band
        rows = np.flatnonzero(inside & off)
        if rows.size == 0:
            return PartCorners(inside, off, None)
        first = int(rows[np.argmax(dist[rows])])  # the first of the largest
        return PartCorners(inside, off, (first, float(dist[first]), surface[first]))
    off, deepest = beyond_band(points, sy.world, band, np.flatnonzero(inside))
    return PartCorners(inside, off, deepest)


class PartsInside(NamedTuple):
    """`parts_inside`'s verdict, and what its default measure found of X's part corners (`PartCorners`; None when
    that measure did not run: another measure was given, or a corner outside Y's box decided)."""
    verdict: bool
    corners: PartCorners | None


def parts_inside(sx: Side, sy: Side, band, scale, measure=None) -> PartsInside:
    """Is every loose part of X inside closed Y: has each a corner strictly inside Y and none strictly outside it
    (a corner within the band of Y's surface decides nothing)?  A caller's `measure(points, sy, scale)` gives the
    points' distances to Y's surface and their inside flags; by default `_measure` finds the flags, which corners
    lie off the surface and the deepest inside one (kept in the answer's `PartCorners` for `deepest_inside`)."""
    parts = sx.local.parts
    points, part = _part_points(sx)
    corners = None
    if measure is None and _beyond_box(points, sy, band, scale):
        return PartsInside(False, None)  # that corner is strictly outside Y: its part is not inside
    if measure is None:
        corners = _measure(points, sy, band, scale)
        off, inside = corners.off, corners.inside
    else:
        dist, inside = measure(points, sy, scale)
    if not np.any(inside):
        return PartsInside(False, corners)  # no corner inside Y: no part is strictly inside
    if measure is not None:
        off = dist > band
    strictly_in = np.bincount(part[off & inside], minlength=parts.count) > 0
    strictly_out = np.bincount(part[off & ~inside], minlength=parts.count) > 0
    return PartsInside(bool(np.all(strictly_in & ~strictly_out)), corners)


def _beyond_box(points, sy: Side, band, scale) -> bool:
    """Does one of `points` lie outside Y's bounding box by more than the band (and a margin far above rounding)?
    Such a point is outside Y (winding number 0) and farther than the band from its surface: `_measure` would
    count it strictly outside, so `parts_inside` is False without measuring anything."""
    lo, hi = sy.world.lo[-1], sy.world.hi[-1]  # the root's box: the extremes of Y's corners in this frame
    margin = band + 1e-9 * scale
    return bool(np.any((points < lo - margin) | (points > hi + margin)))


def _steps_behind(X, scale):
    """From the centroids of triangles X, steps along both normals, from 1e-6 to a third of the pair's scale."""
    n = row_cross(X[:, 1] - X[:, 0], X[:, 2] - X[:, 0])
    length = np.sqrt((n * n).sum(axis=1))
    ok = length > 0.0
    n = n[ok] / length[ok][:, None]
    centre = X[ok].mean(axis=1)
    out = [centre + (sign * step * scale) * n for step in (1e-6, 1e-3, 0.03, 0.3) for sign in (1.0, -1.0)]
    return np.concatenate(out) if out else np.zeros((0, 3))


def steps_off_the_curve(X, Y, band, rows=False, crossed=None, extra=None):
    """Points of the triangles X (k,3,3) next to where they cross Y: from the middle of the crossing segment,
    steps across it within X's plane (both ways, four lengths from tiny to a third of X's size), each pulled
    back onto X.  One side of a crossing is inside the other mesh, so some of them are, at a positive depth.
    `rows`: also return the pair (row of X and Y) each point was stepped from.  `crossed`: `crossing(X, Y, band)`
    when the caller has it.  `extra`: (points (j, 3), triangles (j, 3, 3)) whose closest points are wanted too,
    taken in the same `point_triangle` call (its rows are independent) and returned last."""
    mask, segs = crossing(X, Y, band) if crossed is None else crossed  # one segment per crossing pair, in order
    source = np.flatnonzero(mask)
    X = X[mask]
    if X.shape[0] == 0:
        out = (np.zeros((0, 3)), source) if rows else (np.zeros((0, 3)),)
        if extra is not None:
            out += (point_triangle(extra[0], extra[1][:, 0], extra[1][:, 1], extra[1][:, 2]),)
        return out if rows or extra is not None else out[0]
    mid = 0.5 * (segs[:, 0] + segs[:, 1])
    n = row_cross(X[:, 1] - X[:, 0], X[:, 2] - X[:, 0])
    across = row_cross(n, segs[:, 1] - segs[:, 0])
    length = np.sqrt((across * across).sum(axis=1))
    ok = length > 0.0
    across = across[ok] / length[ok][:, None]
    X, mid, source = X[ok], mid[ok], source[ok]
    size = np.sqrt(((X[:, 1] - X[:, 0]) ** 2).sum(axis=1) + ((X[:, 2] - X[:, 0]) ** 2).sum(axis=1))
    # every step of every pair in one `point_triangle` call (its rows are independent)
    p = np.concatenate([mid + (sign * step * size)[:, None] * across
                        for step in (1e-6, 1e-3, 0.03, 0.3) for sign in (1.0, -1.0)])
    X = np.concatenate([X] * 8)
    if extra is not None:
        k = p.shape[0]
        p, X = np.concatenate([p, extra[0]]), np.concatenate([X, extra[1]])
    points = point_triangle(p, X[:, 0], X[:, 1], X[:, 2])
    if extra is None:
        return (points, np.tile(source, 8)) if rows else points
    return ((points[:k], np.tile(source, 8)) if rows else (points[:k],)) + (points[k:],)


def _clipped_centroids(X, Y):
    """For crossing triangles X (k,3,3) against Y: a point of X on each side of Y's plane (the centroid of the
    corner triangle cut off by the plane, and the mean of the remaining quadrilateral)."""
    n = row_cross(Y[:, 1] - Y[:, 0], Y[:, 2] - Y[:, 0])
    s = np.einsum("kij,kj->ki", X - Y[:, :1], n)
    positive = s >= 0.0
    count = positive.sum(axis=1)
    lone = np.where(count == 1, np.argmax(positive, axis=1), np.argmin(positive, axis=1))
    rows = np.arange(X.shape[0])
    p0 = X[rows, lone]
    cut = []
    for step in (1, 2):
        other = (lone + step) % 3
        s0, s1 = s[rows, lone], s[rows, other]
        denom = s0 - s1
        t = np.where(denom != 0.0, s0 / np.where(denom != 0.0, denom, 1.0), 0.5)
        t = np.clip(t, 0.0, 1.0)
        cut.append(p0 + t[:, None] * (X[rows, other] - p0))
    tip = (p0 + cut[0] + cut[1]) / 3.0
    quad = (cut[0] + cut[1] + X[rows, (lone + 1) % 3] + X[rows, (lone + 2) % 3]) / 4.0
    return np.concatenate([tip, quad])
