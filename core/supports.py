"""Exact supports of a convex polytope along many directions at once: hill climbs on its triangulation's vertex
graph (core/triangulation.py), or one product over every vertex when that is cheaper.

On a convex surface a vertex that no neighbour improves on is a global maximum (the edges at a vertex span its
tangent cone), so a climb is exact; it starts at the support precomputed for the cube-map cell that holds its
direction (`Supports`), or at a vertex the caller knows to be near (`start`).  Every (direction, vertex) product
is counted against a work budget; past it `OverBudget` is raised and the facet path (core/facet_depth.py) gives up.
"""
from __future__ import annotations

import math

import numpy as np

from .rows import row_dot
from .topology import weld
from .triangulation import Graph, Triangulation

__all__ = ["Supports", "OverBudget", "repeats", "once", "low_corner"]

# The climbs start at the support of the cell of a cube map (6 x G x G cells, directions through the cell
# centres) that holds their direction; G grows with the vertex count (about 1 cell per 8 vertices, G <= 24).
_CUBE_MAX = 24
# Below this many (direction, vertex) products a set of supports is taken over every vertex, no climbing: for
# directions with no start (a climb from the cube map may take a dozen steps), and, far fewer, for directions
# with a start next to their support (the arc walk's: two or three steps) on a shape of more than
# `_FEW_VERTICES` (on fewer, a row over every vertex costs about one climb step).  Measured on the 8,066-vertex
# UV Sphere: 900 rows over every vertex cost ~5 ms, their climb ~0.5 ms.
_BRUTE_FORCE = 1 << 24
_BRUTE_FORCE_STARTED = 1 << 18
_FEW_VERTICES = 1024
# The far supports of facet normals are climbed per group of nearly equal normals (those closer than about
# `_SAME_NORMAL` per coordinate: flat regions split into many triangles), then per row from the group's support,
# when there are at most `_REPEATS` groups per normal (see `repeats`).
_REPEATS = 0.75
_SAME_NORMAL = 1e-9
# Climb steps before the rows still climbing take the support over every vertex instead.
_CLIMB_STEPS = 32
# A product over every vertex (one matrix product) counts as 1/this of a climb's gathered product.
_BLAS_PRODUCTS = 8
# Rows per block in the climbs and the checks (bounds the temporary (rows, width, 3) arrays).
_BLOCK = 1 << 16


def _pick3(first: np.ndarray, second: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a where `first`, else b where `second`, else c (1-D arrays of one length)."""
    out = np.where(second, b, c)
    np.copyto(out, a, where=first)
    return out


def _cube_cells(directions: np.ndarray, g: int) -> np.ndarray:
    """Cube-map cell index (0 .. 6 g^2 - 1) of each row of `directions` (any length, nonzero); in 1-D coordinate
    columns (`_pick3`)."""
    x, y, z = (np.ascontiguousarray(directions[:, axis]) for axis in range(3))
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    on_x = (ax >= ay) & (ax >= az)  # the major axis, as argmax picks it: x, else y, else z
    on_y = ~on_x & (ay >= az)
    major = _pick3(on_x, on_y, x, y, z)
    size = _pick3(on_x, on_y, ax, ay, az)
    half = 0.5 * g
    u = np.clip(((_pick3(on_x, on_y, y, z, x) / size + 1.0) * half).astype(np.int64), 0, g - 1)
    v = np.clip(((_pick3(on_x, on_y, z, x, y) / size + 1.0) * half).astype(np.int64), 0, g - 1)
    face = 2 * _pick3(on_x, on_y, np.zeros(1, np.int64), np.ones(1, np.int64), np.full(1, 2, np.int64))
    face += major < 0.0
    return (face * g + u) * g + v


def _cube_directions(g: int) -> np.ndarray:
    """The centre direction of every cube-map cell, in `_cube_cells` order."""
    t = (np.arange(g) + 0.5) * (2.0 / g) - 1.0
    cu, cv = np.meshgrid(t, t, indexing="ij")
    out = np.empty((6, g, g, 3))
    for face in range(6):
        axis, sign = face // 2, (-1.0 if face % 2 else 1.0)
        out[face, :, :, axis] = sign
        out[face, :, :, (axis + 1) % 3] = cu
        out[face, :, :, (axis + 2) % 3] = cv
    return out.reshape(-1, 3)


class OverBudget(Exception):
    """Raised by `Supports` past its work budget: `facet_depth` gives up and EPA goes on."""


class Supports:
    """Exact supports of one polytope, many directions at once: by hill climbing on a large polytope, over every
    vertex on a small one."""

    def __init__(self, shape, hull: Triangulation, budget: float = math.inf):
        self.graph = graph = hull.graph
        self._near = None
        self.work, self.budget = 0, math.inf  # the start table is not counted (made once per triangulation)
        # the start table is pose-independent (supports of the local vertices, looked up with local directions):
        # kept with the triangulation, so repeated queries on the same shape build it once
        if graph.cube is None:
            local = hull.points
            g = int(min(max(2, round(math.sqrt(local.shape[0] / 48.0))), _CUBE_MAX))
            fine = _cube_directions(g)
            coarse = max(2, g // 4)
            if g <= coarse or fine.shape[0] * local.shape[0] <= _BRUTE_FORCE:
                graph.cube = (g, Supports._every(fine, local)[0])
            else:
                # a coarse map over every vertex, then each fine cell climbs from its coarse cell's support (the
                # fine map over every vertex cost ~55 ms on an 18,000-vertex sphere, the climbs a few ms)
                graph.cube = (coarse, Supports._every(_cube_directions(coarse), local)[0])
                self.points, self.linear = local, None
                self.cube, self.start_vertex = graph.cube
                graph.cube = (g, self(fine)[0])
        self.points = shape._hull_world(hull.points)
        self.linear = shape._linear
        self.cube, self.start_vertex = graph.cube
        self.work, self.budget = 0, budget

    @staticmethod
    def _every(directions: np.ndarray, points: np.ndarray):
        index = np.empty(directions.shape[0], np.int64)
        value = np.empty(directions.shape[0])
        block = max(1, _BLOCK * 4 // max(points.shape[0], 1))
        for lo in range(0, directions.shape[0], block):
            vals = directions[lo:lo + block] @ points.T
            best = vals.argmax(axis=1)
            index[lo:lo + block] = best
            value[lo:lo + block] = vals[np.arange(best.size), best]
        return index, value

    def every_vertex(self, directions: np.ndarray):
        """(vertex index, support value) along each row of `directions`, over every vertex (blocks of rows)."""
        self._spend(directions.shape[0] * self.points.shape[0] // _BLAS_PRODUCTS)
        return self._every(directions, self.points)

    def _spend(self, pairs: int):
        """Counts (direction, vertex) products; past `budget` the query is abandoned (`OverBudget`)."""
        self.work += pairs
        if self.work > self.budget:
            raise OverBudget

    def __call__(self, directions: np.ndarray, start: np.ndarray | None = None):
        """(vertex index, support value) along each row of `directions`; `start`: vertices to climb from.

        Every value a climb compares is (x dx + y dy) + z dz of one vertex and one direction, each product and sum
        rounded once in this order (`row_dot`; `_values` for the neighbours): a vertex's value has the same bits
        however it is reached, so a neighbour tied with the current vertex (the table's padding is the vertex
        itself) never moves it.  A climb is exact from a corner of the hull; a vertex inside a flat region of the
        triangulation, climbed along minus that region's normal, has only equal neighbours and stays (every climb
        here starts at or next to its support: a cube-map cell's, a face's own corner, a neighbouring arc's)."""
        points, table, wide = self.points, self.graph.table, self.graph.wide
        started = start is not None and points.shape[0] > _FEW_VERTICES
        if directions.shape[0] * points.shape[0] <= (_BRUTE_FORCE_STARTED if started else _BRUTE_FORCE):
            return self.every_vertex(directions)
        if start is None:
            local = directions if self.linear is None else directions @ self.linear
            start = self.start_vertex[_cube_cells(local, self.cube)]
        current = np.array(start, dtype=np.int64)
        value = row_dot(np.take(points, current, axis=0), directions)
        active = np.arange(directions.shape[0])
        block = max(1, _BLOCK // table.shape[1])
        steps = 0
        while active.size:
            steps += 1
            if steps > _CLIMB_STEPS:  # a long walk (round the rim of a many-sided cylinder): every vertex
                current[active], value[active] = self.every_vertex(np.take(directions, active, axis=0))
                break
            moved = []
            at_wide = np.take(wide, np.take(current, active))
            if np.any(at_wide) and self.graph.wide_table is not None:
                # a vertex of high degree (a cone's apex, a UV Sphere's pole): all its neighbours, padded
                wide_table, wide_row = self.graph.wide_table, self.graph.wide_row
                rows_all = active[at_wide]
                for lo in range(0, rows_all.size, max(1, _BLOCK // wide_table.shape[1])):
                    rows = rows_all[lo:lo + max(1, _BLOCK // wide_table.shape[1])]
                    at = wide_row[current[rows]]
                    self._step(rows, wide_table[at], directions, current, value, moved,
                               np.take(self._near_points(wide=True), at, axis=0))
                active = active[~at_wide]
            elif np.any(at_wide):  # the same pair by pair (many wide vertices, or one of a huge degree)
                wide_rows = active[at_wide]
                # in blocks of at most _BLOCK (row, neighbour) pairs: a fan-triangulated cap of thousands of sides
                # has vertices of thousands of neighbours, reached by thousands of rows
                degree = self.graph.ptr[current[wide_rows] + 1] - self.graph.ptr[current[wide_rows]]
                cuts = np.flatnonzero(np.diff(np.cumsum(degree) // _BLOCK)) + 1
                for rows in np.split(wide_rows, cuts):
                    row, other = self.graph.neighbour_pairs(current[rows])
                    self._spend(other.size)
                    vals = row_dot(np.take(points, other, axis=0), np.take(directions, rows[row], axis=0))
                    order = np.lexsort((-vals, row))  # per row, its best neighbour first
                    first = order[np.concatenate([[True], row[order][1:] != row[order][:-1]])]
                    r, top = rows[row[first]], vals[first]
                    up = top > value[r]
                    current[r[up]] = other[first][up]
                    value[r[up]] = top[up]
                    moved.append(r[up])
                active = active[~at_wide]
            for lo in range(0, active.size, block):
                self._table_step(active[lo:lo + block], directions, current, value, moved)
            active = np.concatenate(moved) if moved else active[:0]
        return current, value

    def _near_points(self, wide: bool = False) -> np.ndarray:
        """(rows of the table, 3, table width): coordinate k of the j-th vertex of row v of the padded neighbour
        table at [v, k, j] (of the wide vertices' table when `wide`), gathered once per set of points: a climb
        step reads one contiguous block per row, and its products run along the width (see `_values`)."""
        if self._near is None or self._near[0] is not self.points:
            self._near = (self.points, {})
        near = self._near[1].get(wide)
        if near is None:
            table = self.graph.wide_table if wide else self.graph.table
            near = self._near[1][wide] = np.empty((table.shape[0], 3, table.shape[1]))
            for k in range(3):
                near[:, k, :] = np.take(np.ascontiguousarray(self.points[:, k]), table)
        return near

    def _table_step(self, rows, directions, current, value, moved):
        """One climb step of `rows` over the padded neighbour table: `_step` with `table[current[rows]]` for
        candidates, but only the moved rows' new vertices are read from the table."""
        table = self.graph.table
        width = table.shape[1]
        self._spend(rows.size * width)
        at = np.take(current, rows)
        vals = _values(np.take(self._near_points(), at, axis=0), np.take(directions, rows, axis=0))
        best = vals.argmax(axis=1)  # the first of the table's order among equals
        flat = np.arange(0, vals.size, width)
        flat += best
        top = np.take(vals.reshape(-1), flat)
        up = top > np.take(value, rows)
        if np.any(up):
            r = rows[up]
            at *= width
            at += best
            current[r] = np.take(table.reshape(-1), at[up])
            value[r] = top[up]
            moved.append(r)

    def _step(self, rows, cand, directions, current, value, moved, cand_points):
        """One climb step of `rows` to the best of their candidates `cand` (rows, width) when it is higher (the
        first of a row's candidates among equals); `cand_points`: their points as (rows, 3, width)."""
        self._spend(cand.size)
        vals = _values(cand_points, np.take(directions, rows, axis=0))
        best = vals.argmax(axis=1)
        top = np.take_along_axis(vals, best[:, None], axis=1)[:, 0]
        up = top > np.take(value, rows)
        if np.any(up):
            r = rows[up]
            current[r] = np.take_along_axis(cand[up], best[up][:, None], axis=1)[:, 0]
            value[r] = top[up]
            moved.append(r)


def _values(points: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """(rows, width) dot products of points (rows, 3, width), contiguous, with directions (rows, 3).

    `einsum` over that layout runs its sums along the width, adding the three products to zero in coordinate
    order: `row_dot`'s bits (tests/core/test_polytope_climb_columns.py checks it on this numpy), at about half
    the cost of the same sums over (rows, width, 3) (whose inner loop is over the 3 coordinates), or of the
    three column products with the directions broadcast along the width (one short inner loop per row).  A
    width of 1 (einsum then sums the coordinates another way) goes through `row_dot` itself."""
    if points.shape[2] == 1:
        return row_dot(points[:, :, 0], directions)[:, None]
    return np.einsum("rkw,rk->rw", points, directions)


def low_corner(graph: Graph) -> np.ndarray:
    """Per triangle, its corner with the fewest neighbours."""
    degree = np.take(graph.ptr[1:] - graph.ptr[:-1], graph.triangles)
    return graph.triangles[np.arange(graph.triangles.shape[0]), degree.argmin(axis=1)]


def repeats(normals: np.ndarray):
    """(a row of each group, group of each row) when the normals fall into at most `_REPEATS` x as many groups as
    rows, else None; a group: the normals that round to one point of a grid of `_SAME_NORMAL`.  The facets of a
    flat region (a cylinder's cap cut into thousands of triangles) share one normal up to rounding (bit for bit
    on an axis-aligned cap, ~1e-13 apart on a turned qhull fan); climbed row by row from a fan's hub, each looked
    at all of the hub's neighbours (0.8-1.8 s per set on an 8,192-sided qhull cylinder)."""
    grid = np.round(normals * (1.0 / _SAME_NORMAL))
    # as many groups as distinct first coordinates at least: one sort of a column tells a curved surface (no
    # repeats) before the rows are sorted whole
    if np.unique(grid[:, 0]).size > _REPEATS * normals.shape[0]:
        return None
    _, inverse = weld(grid)
    count = int(inverse.max()) + 1 if inverse.size else 0
    if count > _REPEATS * normals.shape[0]:
        return None
    first = np.empty(count, np.int64)
    first[inverse] = np.arange(normals.shape[0])  # one of its rows (any one serves)
    return first, inverse


def once(supports: Supports, directions: np.ndarray, groups):
    """`supports(directions)` in two climbs when `groups` (from `repeats`): one row of each group from the cube
    map, then every row from its group's support (a step or none: the exact support of the row itself)."""
    if groups is None or supports.points.shape[0] <= _FEW_VERTICES:  # few: products over every vertex anyway
        return supports(directions)
    first, inverse = groups
    index, _ = supports(directions[first])
    return supports(directions, index[inverse])
