"""A lower bound of the translational penetration depth from how far points must travel to leave the other solid
(issue 19; called from core/mesh/depth_interval.py while its other bounds leave the interval wider than GOOD).
It is the bound of one mesh held inside another (nothing crosses: the covering bounds over the overlap then have
the whole inner solid to cover), and it applies as well to a shape sunk into another.

The argument.  A move v of B separates the solids only when no point of B ends inside A: for a point x of B
inside A, x + v must lie outside A's interior.  Along a ray x + s u the winding number of A's surface changes only
where the ray meets a triangle, so x + s u stays inside A until the ray meets one: every separating move t u has t >=
e(x, u), the distance along u to the first triangle of A.  The same for a point y of A inside B and the move -u of A
relative to B.  So for a set K of directions, every separating move along a direction of K is at least

    bound(K) = max( max_x min_{u in K} e_A(x, u), max_y min_{u in K} e_B(y, -u) ),

and PD is at least the least bound(K) over cells K covering the sphere of directions.

A cone of rays.  K is a spherical triangle, held in the cap of half-angle theta about its axis a.  A ray from x
meets a triangle T only inside T's pyramid seen from x, the directions on the inner side of the three planes
through x and an edge of T; when the whole cap lies beyond one of those planes (its unit normal q, inward, has
q . a < -sin(theta)), no ray of K meets T.  A ray along u that meets T's plane at distance s has
s |n . u| = |n . (T - x)| = |h|, and |n . u| <= m = cos(max(0, angle(n, a) - theta)) over the cap: s >= |h| / m.
So min_{u in K} e(x, u) >= min over the triangles not ruled out of max(|h| / m, d(x, T)) (|h| taken smaller by
how far T's corners lie off its computed plane; a triangle without area (a dirty mesh's) has only d(x, T); all
less a rounding allowance; no triangle left: the bound is the goal).  As the cells
shrink the bound tends to the exact first exit along the ray, so a cell is split (in four) while its bound falls
short of the goal, down to MIN_ANGLE; a cell left then keeps its bound.

Points.  The vertices of each mesh proved inside the other (winding numbers): the last points of the inner mesh to
leave lie on its surface, and where an outer vertex meets an inner face last that point lies inside a face, so a
finest cell still short of the goal is bounded again with a grid of points on the faces around its best vertices
(`_refine`; any point proved inside serves, the bound only stays below the depth where the grid misses the last
one).  A cell tries its parent's TOP best points and its own TRAIL last ones along its axis; every point once per
lineage below EVERY_BELOW.  A triangle is evaluated for a point only when the cap of directions from the point
that holds the triangle meets the cap of the cell's first ancestor (`_Rays.screen`: a ray meets the triangle only
along such a direction).  Work is counted in point-triangle evaluations (MAX_WORK, with CELL_COST a cell and the
refinement's pairs), never in time; the answer is deterministic, and the work runs in core/mesh/depth_interval.py's
canonical order of the pair.
"""
from __future__ import annotations

import numpy as np

from .. import sphere_cells
from ..progress import Stage, report
from ..rows import row_cross, row_dot
from .points import winding_numbers
from .tritri import point_triangle

__all__ = ["exit_bound"]

GOAL = 8e-3
"""Directions are certified up to (1 - GOAL) x U: the bound then leaves a gap of at most this fraction of U."""

MIN_ANGLE = 1e-3
"""Cells are split until their cap's half-angle (radians) falls below this."""

MAX_POINTS = 400
"""Points per side at most (evenly spread over the vertex list beyond it)."""

MAX_PAIRS = 300_000
"""Point-triangle pairs held at most (points x triangles within reach, both sides)."""

MAX_WORK = 10_000_000
"""Point-triangle evaluations (one cap test of a pair) spent at most."""

TOP = 6
"""Points a child cell tries: its parent's best (besides its own TRAIL)."""

TRAIL = 16
"""Points a cell tries that come last along its direction (their rays start farthest back)."""

EVERY_BELOW = 0.03
"""A cell short of the goal whose cap is narrower than this (radians) tries every point, once per lineage (its
children then start from the best of them)."""

ROOT_LEVEL = 2
"""The first cells: the icosahedron's faces split this many times (320)."""

CELL_COST = 2_000
"""Evaluations a cell's pass is charged besides its point-triangle pairs (the work of a cell that the screen leaves
few pairs)."""

BATCH = 256
"""Cells evaluated per pass."""

ROUNDING = 1e-9
"""Relative rounding allowance (of the pair's scale) taken off every exit distance."""


def exit_bound(sa, sb, scale: float, lower: float, upper: float, max_work: int = MAX_WORK, goal: float = GOAL,
               progress=None):
    """A lower bound of PD above `lower`, or None (pair-frame sides `sa`, `sb`, both closed; [lower, upper] the
    interval so far).  Returns (r, direction): `direction` a unit move of B in the cell that set r (the goal's
    direction when every cell reached it).  `progress` (core/progress.py) hears of each pass of cells, with the
    share of the work budget spent."""
    target = upper * (1.0 - goal)
    if not target > lower:
        return None
    allowance = ROUNDING * float(scale)
    sides, room = [], MAX_PAIRS
    for inner, outer, sign in ((sb, sa, 1.0), (sa, sb, -1.0)):
        side = _Rays(inner, outer, scale, target, room)
        if side.too_many:
            return None
        side.sign = sign   # B's points leave A along the move, A's leave B against it
        room -= side.count * side.triangles
        sides.append(side)
    sides = [s for s in sides if s.count]
    if not sides:
        return None
    # a cell tries its parent's TOP best points and its own TRAIL last ones along its direction; every point
    # once it reaches the finest angle
    cells = sphere_cells.cells(ROOT_LEVEL)
    for side in sides:
        side.screen(cells)
    root = np.arange(cells.shape[0])              # the first cell each cell lies in (its triangles' screen)
    everything = [np.arange(s.count) for s in sides]
    tops = [np.zeros((cells.shape[0], min(TOP, s.count)), int) for s in sides]  # (point 0: a placeholder)
    bound = np.full(cells.shape[0], -np.inf)   # each cell's parent's bound: it holds for the cell too
    fresh = np.zeros(cells.shape[0], bool)     # a cell of the lineage has tried every point
    radius, where, spent = target, None, 0
    finest = np.sin(MIN_ANGLE)
    while cells.shape[0]:
        report(progress, Stage.EXIT, spent / max_work)
        # the weakest first: the result is the least bound over the cells left
        order = np.argsort(bound, kind="stable")
        if spent >= max_work:
            j = int(order[0])
            if bound[j] < radius:
                radius, where = float(bound[j]), _caps(cells[j:j + 1])[0][0]
            break
        take, rest = order[:BATCH], order[BATCH:]
        batch, roots = cells[take], root[take]
        a, s, c = _caps(batch)
        final = s < finest
        rows = [np.concatenate([t[take], side.trailing(side.sign * a)], axis=1) for t, side in zip(tops, sides)]
        got, picks, used = _evaluate(sides, rows, a, s, c, roots, allowance)
        spent += used
        got = np.maximum(got, bound[take])
        again = np.flatnonzero((got < target) & ~fresh[take] & (s < np.sin(EVERY_BELOW)))
        renewed = np.zeros(take.size, bool)
        if again.size:
            more, more_picks, used = _evaluate(sides, [np.broadcast_to(e, (again.size, e.size))
                                                       for e in everything], a[again], s[again], c[again],
                                                      roots[again], allowance)
            spent += used
            got[again] = np.maximum(got[again], more)
            renewed[again] = True
            for k in range(len(sides)):
                picks[k][again] = more_picks[k]
        got = np.minimum(got, target)
        if np.any(final & (got < target)):
            # the finest cells short of the goal, again with points of the faces around their best vertices (the
            # last point to leave may lie inside a face)
            at = np.flatnonzero(final & (got < target))
            more, used = _refine(sides, [p[at, 0] for p in picks], a[at], s[at], c[at], roots[at], target,
                                 allowance, scale)
            spent += used
            got[at] = np.minimum(np.maximum(got[at], more), target)
        short = got < target
        done = short & final
        if np.any(done):
            j = int(np.argmin(np.where(done, got, np.inf)))
            if got[j] < radius:
                radius, where = float(got[j]), a[j]
        grow = np.flatnonzero(short & ~final)
        kids = sphere_cells.split(batch[grow])
        cells = np.concatenate([cells[rest], kids])
        tops = [np.concatenate([t[rest], np.tile(p[grow], (4, 1))]) for t, p in zip(tops, picks)]
        bound = np.concatenate([bound[rest], np.tile(got[grow], 4)])
        root = np.concatenate([root[rest], np.tile(roots[grow], 4)])
        fresh = np.concatenate([fresh[rest], np.tile((fresh[take] | renewed)[grow], 4)])
        # cells whose parent's bound already reaches the radius cannot lower it
        keep = np.flatnonzero(bound < radius)
        cells, bound, fresh, root = cells[keep], bound[keep], fresh[keep], root[keep]
        tops = [t[keep] for t in tops]
    if not radius > lower:
        return None
    return radius, (where if where is not None else np.array([0.0, 0.0, 1.0]))


def _refine(sides, best, a, s, c, roots, target, allowance, scale):
    """Cells bounded again with points of the faces around their best vertices (`best`: per side, the best point
    of each cell): a grid of REFINE_GRID steps a side on each such face, proved inside the other mesh like the
    vertices, at most REFINE_FACES faces (fewer if the pairs would pass MAX_PAIRS).  Returns (each cell's bound over
    those points, the evaluations spent)."""
    got, spent = np.full(a.shape[0], -np.inf), 0
    first = sphere_cells.cells(ROOT_LEVEL)
    ancestors, at = np.unique(roots, return_inverse=True)
    for side, picked in zip(sides, best):
        ids = np.unique(side.ids[picked])
        ids = ids[ids >= 0]
        faces = side.inner.local.triangles[np.isin(side.inner.local.triangles, ids).any(axis=1)]
        most = max(1, min(REFINE_FACES, MAX_PAIRS // (_GRID.shape[0] * max(1, side.triangles))))
        if faces.shape[0] > most:
            faces = faces[np.linspace(0, faces.shape[0] - 1, most).astype(int)]
        if not faces.shape[0]:
            continue
        points = np.einsum("wk,fkj->fwj", _GRID, side.inner.vertices[faces]).reshape(-1, 3)
        extra = _Rays(side.inner, side.outer, scale, target, MAX_PAIRS, points)
        if extra.too_many or not extra.count:
            continue
        extra.sign = side.sign
        extra.screen(first[ancestors])
        e, used = extra.exits(np.arange(extra.count), side.sign * a, s, c, at, allowance)
        spent += used + extra.count * extra.triangles
        got = np.maximum(got, e.max(axis=1))
    return got, spent


def _grid(steps):
    """Barycentric weights of a triangle's grid points with `steps` steps a side, its corners left out."""
    w = [(steps - i - j, i, j) for i in range(steps + 1) for j in range(steps + 1 - i)]
    return np.array([t for t in w if max(t) < steps], float) / steps


REFINE_GRID = 4
"""Grid steps a side on the faces `_refine` samples."""

REFINE_FACES = 24
"""Faces `_refine` samples per side and pass at most."""

_GRID = _grid(REFINE_GRID)


def _evaluate(sides, rows, a, s, c, roots, allowance):
    """Each cell's bound over the points `rows` (per side, a row of point indices per cell), the TOP best points
    per side and cell, and the evaluations spent.  B's points' rays go along the cells' directions, A's against
    them (`_Rays.sign`)."""
    best = np.full(a.shape[0], -np.inf)
    picks, spent = [], 0
    for k, side in enumerate(sides):
        r = np.ascontiguousarray(rows[k])
        e, used = side.exits(r, side.sign * a, s, c, roots, allowance)
        spent += used
        best = np.maximum(best, e.max(axis=1))
        order = np.argsort(-e, axis=1, kind="stable")[:, :min(TOP, side.count)]
        picks.append(np.take_along_axis(r, order, axis=1))
    return best, picks, spent


def _caps(cells):
    """Each spherical triangle's axis and the sine and cosine of the half-angle of a cap about it that holds its
    corners (the cosine a hair small, the sine a hair large)."""
    if cells.shape[0] == 0:
        return np.empty((0, 3)), np.empty(0), np.empty(0)
    a = cells.sum(axis=1)
    a = a / np.sqrt(row_dot(a, a))[:, None]
    cos = np.einsum("kj,kij->ki", a, cells).min(axis=1) * (1.0 - 1e-12) - 1e-15
    sin = np.sqrt(np.maximum(1.0 - cos * cos, 0.0)) + 1e-12
    return a, sin, cos


class _Rays:
    """The points of `inner` inside `outer` and, for each, the triangles of `outer` within reach as seen from it
    (`too_many` when there are more than `most` such pairs: nothing else is built):
    the inward unit normals of the planes through the point and each edge, |h| = the distance of the triangle's
    plane less how far its corners lie off it (0 for a triangle without area), and the distance to the triangle."""

    def __init__(self, inner, outer, scale, reach, most, points=None):
        if points is None:
            ids = inner.local.used
            if ids.size > MAX_POINTS:
                ids = ids[np.linspace(0, ids.size - 1, MAX_POINTS).astype(int)]
            x = inner.vertices[ids]
        else:
            ids, x = np.full(points.shape[0], -1), points
        self.inner, self.outer = inner, outer
        inside = winding_numbers(x, outer.world, scale) != 0 if x.shape[0] else np.zeros(0, bool)
        x, self.ids = x[inside], ids[inside]   # (the inner mesh's vertex of each point, -1 for other points)
        corners = outer.world.leaf_corners
        n = row_cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        size = np.sqrt(row_dot(n, n))
        edge = np.max(np.abs(corners - corners[:, :1]), axis=(1, 2))
        # within reach of some point: the triangle's box within `reach` of the points' box
        if x.shape[0]:
            lo, hi = x.min(axis=0) - reach, x.max(axis=0) + reach
            near = np.all(corners.max(axis=1) >= lo, axis=1) & np.all(corners.min(axis=1) <= hi, axis=1)
        else:
            near = np.zeros(corners.shape[0], bool)
        keep = np.flatnonzero(near)
        # (the pairs' arrays are built only when there are at most `most` of them)
        self.too_many = x.shape[0] * keep.size > most
        if self.too_many:
            self.count = self.triangles = 0
            return
        proper = size[keep] > 1e-12 * edge[keep] * edge[keep]
        corners = corners[keep]
        n = n[keep] / np.where(proper, size[keep], 1.0)[:, None]
        off = np.max(np.abs(np.einsum("kij,kj->ki", corners - corners[:, :1], n)), axis=1)
        self.count, self.triangles = x.shape[0], corners.shape[0]
        self.x, self.n = x, n
        if self.count == 0 or self.triangles == 0:
            self.count = 0
            return
        rel = corners[None, :, :, :] - x[:, None, None, :]          # (p, t, 3 corners, 3)
        q = np.stack([np.cross(rel[:, :, i], rel[:, :, (i + 1) % 3]) for i in range(3)], axis=2)  # (p, t, 3, 3)
        det = np.einsum("ptj,ptj->pt", q[:, :, 0], rel[:, :, 2])
        qn = np.sqrt(np.einsum("ptij,ptij->pti", q, q))
        # the pyramid's inside: sign(det) q . u >= 0 for its three planes; a point nearly in T's plane (its
        # pyramid flat) or an edge through it rules nothing out (q = 0)
        scale_rel = np.max(np.sqrt(np.einsum("ptij,ptij->pti", rel, rel)), axis=2)
        flat = np.abs(det) <= 1e-9 * scale_rel ** 3
        sign = np.where(det < 0.0, -1.0, 1.0)
        good = (qn > 1e-12 * scale_rel[:, :, None] ** 2) & ~flat[:, :, None]
        q = np.where(good[..., None], q * (sign[:, :, None] / np.where(good, qn, 1.0))[..., None], 0.0)
        self.q = np.ascontiguousarray(q)  # (p, t, 3 planes, 3)
        # the cap of directions from each point that holds a triangle: about its centroid's direction, as wide as
        # its farthest corner (cosine a hair small; not a number where a corner is the point: kept, see `screen`)
        with np.errstate(invalid="ignore", divide="ignore"):
            aim = rel.sum(axis=2)
            aim = aim / np.sqrt(np.einsum("ptj,ptj->pt", aim, aim))[..., None]
            unit = rel / np.sqrt(np.einsum("ptij,ptij->pti", rel, rel))[..., None]
            self.cos_t = np.einsum("ptij,ptj->pti", unit, aim).min(axis=2) * (1.0 - 1e-12) - 1e-15
        self.aim = np.nan_to_num(aim)
        h = np.abs(np.einsum("tj,ptj->pt", n, rel[:, :, 0])) - off[None, :]
        self.h = np.where(proper[None, :], np.maximum(h, 0.0), 0.0)
        # and the distance to the triangle itself, whatever the direction
        count, tris = x.shape[0], corners.shape[0]
        flat_x = np.repeat(x, tris, axis=0)
        flat_c = np.tile(corners, (count, 1, 1))
        gap = flat_x - point_triangle(flat_x, flat_c[:, 0], flat_c[:, 1], flat_c[:, 2])
        self.d = np.sqrt(row_dot(gap, gap)).reshape(count, tris)

    def trailing(self, d):
        """Per direction (rows of d) the TRAIL points least along it."""
        along = d @ self.x.T
        count = min(TRAIL, self.count)
        if count == self.count:
            return np.tile(np.arange(self.count), (d.shape[0], 1))
        part = np.argpartition(along, count - 1, axis=1)[:, :count]
        return np.sort(part, axis=1)

    def screen(self, roots):
        """Which triangles each point's rays can meet along the directions of each first cell (`roots`, spherical
        triangles; the rays go along `sign` x the direction): a ray from x meets T only along a direction between
        T's corners as seen from x, all inside the cap about the direction of T's centroid that holds the corners
        (a cap narrower than a hemisphere holds the spherical triangle between them), so T is out of reach of a
        cell whose cap lies wholly apart from that one.  A cell's descendants lie inside it and keep its screen."""
        axes, sin_r, cos_r = _caps(roots)
        axes = self.sign * axes
        self.mask = np.empty((roots.shape[0], self.count, self.triangles), bool)
        chunk = max(1, 2_000_000 // max(1, self.triangles * roots.shape[0]))
        for lo in range(0, self.count, chunk):
            c, cos_t = self.aim[lo:lo + chunk], self.cos_t[lo:lo + chunk]
            sin_t = np.sqrt(np.maximum(1.0 - cos_t * cos_t, 0.0)) + 1e-12
            # apart when the angle between the two axes exceeds the sum of the half-angles
            near = (c @ axes.T) >= (cos_t[..., None] * cos_r - sin_t[..., None] * sin_r) - 1e-9   # (p, t, cells)
            near |= ~(cos_t > 1e-3)[..., None]   # a wide (or degenerate) view: kept
            self.mask[:, lo:lo + chunk] = np.moveaxis(near, 2, 0)

    def exits(self, rows, a, sin, cos, roots, allowance):
        """For each cell (axes `a`, cap sine and cosine, first cell `roots`) and each of its points (`rows`: one
        list for all, or a row per cell), a lower bound of the first exit distance along the cell's directions.
        Only the pairs the first cell's screen keeps are evaluated.  Returns (bounds (cells, points),
        evaluations)."""
        cells = a.shape[0]
        rows = np.broadcast_to(rows, (cells, rows.shape[-1])) if rows.ndim == 1 else rows
        points = rows.shape[1]
        out = np.full(cells * points, np.inf)
        # a cap about a with cosine c: max over it of |n . u| is cos(max(0, angle(n, a) - theta))
        na = np.clip(np.abs(self.n @ a.T), 0.0, 1.0)                 # (t, cells)
        sn = np.sqrt(np.maximum(1.0 - na * na, 0.0))
        # cos(phi - theta) = cos phi cos theta + sin phi sin theta, and 1 once phi <= theta
        m = np.where(na >= cos[None, :], 1.0, na * cos[None, :] + sn * sin[None, :])
        m = np.minimum(m * (1.0 + 1e-12) + 1e-15, 1.0)
        used = rows.size + CELL_COST * cells
        step = max(1, 4_000_000 // max(1, points * self.triangles))
        for lo in range(0, cells, step):
            hi = min(cells, lo + step)
            ci, pi, ti = np.nonzero(self.mask[roots[lo:hi, None], rows[lo:hi]])
            ci = ci + lo
            pt = rows[ci, pi]
            reach = np.einsum("nkj,nj->nk", self.q[pt, ti], a[ci]).min(axis=1)
            e = np.maximum(self.h[pt, ti] / m[ti, ci], self.d[pt, ti])
            e[reach < -sin[ci] - 1e-9] = np.inf
            np.minimum.at(out, ci * points + pi, e)
            used += e.size
        out = out.reshape(cells, points) * (1.0 - 1e-12) - allowance
        return out, used
