"""Point queries against a placed hierarchy (`WorldBVH`): closest surface point, and inside/outside.

Both descend the tree level by level over (point, node) pairs, all in numpy.

Inside/outside is the winding number of a closed mesh, counted along a ray: each triangle the ray passes through
adds the sign of (triangle normal . ray direction).  For a closed mesh (each edge shared by two oppositely
oriented triangles) this integer is the generalised winding number of the point, so "inside" = non-zero winding
(a mesh with all faces flipped still has its inside; nested or self-overlapping shells count by the non-zero
rule).  A ray that grazes an edge or a vertex within rounding makes the count ambiguous; such points are cast
again along another fixed direction (up to eight), so the answer never depends on how a grazing hit rounds.
Degenerate triangles subtend no solid angle and are skipped.  Only meaningful for closed meshes: callers never
ask an open mesh.
"""
from __future__ import annotations

import numpy as np

from .bvh import WorldBVH
from ..rows import row_cross, row_dot, row_extent
from .tritri import point_triangle

__all__ = ["closest_points", "winding_numbers", "descend_one_level", "node_bounds", "nearest_on_leaves",
           "rounding_slack"]

_DIRECTIONS = np.array([
    [0.5773502691896258, 0.5916079783099616, 0.5627314338711377],
    [-0.3162277660168379, 0.8366600265340756, 0.4472135954999579],
    [0.7071067811865476, -0.2449489742783178, 0.6633249580710799],
    [-0.6, -0.48, 0.64],
    [0.2672612419124244, 0.5345224838248488, -0.8017837257372732],
    [-0.8164965809277261, 0.4082482904638631, -0.4082482904638631],
    [0.123, -0.9, 0.4179],
    [0.91, 0.31, -0.2751],
])
_DIRECTIONS = _DIRECTIONS / np.linalg.norm(_DIRECTIONS, axis=1)[:, None]


def descend_one_level(world, level, pts, nodes):
    """Each (point, node) pair at `level + 1` becomes (point, left child) and, where there is one, (point, right
    child) at `level`: one step of the breadth-first descent that every point query makes."""
    left, right, has_right = world.children(level + 1, nodes)
    return np.concatenate([pts, pts[has_right]]), np.concatenate([left, right[has_right]])


def rounding_slack(points, world) -> float:
    """The rounding allowance of a point query's pruning: a lower bound may not exceed a real distance by rounding
    alone (a function of all the points, so each point is pruned alike in any query it is part of)."""
    return 1e-12 * float(np.linalg.norm(world.hi[-1] - world.lo[-1]) + np.abs(points).max(initial=0.0))


def node_bounds(world, level, nodes, points, pts, best):
    """Lower bounds of the distances from points[pts] to the surface in their nodes at `level`; `best` (one per
    point) is lowered in place to the distance of each node's representative surface point.  Above the leaves the
    bound is the box distance alone; at the leaves the oriented bounds (towards the leaf's centre and along its
    normal) are taken too."""
    flat = world.node(level, nodes)
    p = np.take(points, pts, axis=0)
    rep = np.take(world.rep, flat, axis=0) - p
    np.minimum.at(best, pts, np.sqrt(row_dot(rep, rep)))
    gap = np.maximum(np.maximum(np.take(world.lo, flat, axis=0) - p, p - np.take(world.hi, flat, axis=0)), 0.0)
    bound = np.sqrt(row_dot(gap, gap))
    if level > 0:
        return bound
    d = np.take(world.centre, flat, axis=0) - p
    dist = np.sqrt(row_dot(d, d))
    ok = dist > 0.0
    u = d / np.where(ok, dist, 1.0)[:, None]
    half = [np.take(h, flat, axis=0) for h in world.half]
    ext = row_extent(half, u)
    bound = np.maximum(bound, np.where(ok, dist - ext, 0.0))
    n = np.take(world.normal, flat, axis=0)
    ext = row_extent(half, n)
    return np.maximum(bound, np.where(world.normal_ok[flat], np.abs(row_dot(d, n)) - ext, 0.0))


def nearest_on_leaves(points, world, pts, nodes):
    """The exact stage of a point query: for each (point, leaf) pair left, the closest point q of the leaf's
    triangle and its distance; `first` picks each point's nearest pair (the first in pair order among equals),
    in row order."""
    corners = np.take(world.leaf_corners, nodes, axis=0)
    q = point_triangle(np.take(points, pts, axis=0), corners[:, 0], corners[:, 1], corners[:, 2])
    dist = np.sqrt(row_dot(q - points[pts], q - points[pts]))
    order = np.lexsort((dist, pts))
    first = order[np.concatenate([[True], pts[order][1:] != pts[order][:-1]])]
    return q, dist, first


def closest_points(points: np.ndarray, world: WorldBVH):
    """For each point (p, 3): its distance to the mesh surface and the closest surface point.  (Rows are gathered
    with np.take along axis 0 here and in `_ray_count`: the same values, several times faster than indexing.)

    Pruning: a (point, node) pair is dropped when a lower bound of their distance exceeds the best surface point
    distance known (plus a rounding slack).  Above the leaves the bound is the box distance alone: the oriented
    bounds would drop a few more pairs but cost more than they save there; the leaves get them too, before the
    exact distances.  Which valid bound is used changes only which farther leaves reach the exact stage: every
    leaf at the least distance always does, in the same order (the descent keeps its pairs in order), so the
    answer, its ties broken by that order, is the same."""
    local = world.local
    count = points.shape[0]
    pts = np.arange(count)
    nodes = np.zeros(count, np.int64)
    best = np.full(count, np.inf)
    top = local.levels - 1
    slack = rounding_slack(points, world)
    for level in range(top, -1, -1):
        if level < top:
            pts, nodes = descend_one_level(world, level, pts, nodes)
        bound = node_bounds(world, level, nodes, points, pts, best)
        keep = bound <= best[pts] + slack
        pts, nodes = pts[keep], nodes[keep]
    q, dist, first = nearest_on_leaves(points, world, pts, nodes)
    out_d = np.full(count, np.inf)
    out_q = np.zeros((count, 3))
    out_d[pts[first]] = dist[first]
    out_q[pts[first]] = q[first]
    return out_d, out_q


RAY_SKIP = 4
"""`_ray_count` starts its descent this many levels below the root, each point paired with every node there (at
most 2^RAY_SKIP): the levels above keep nearly every pair, and a node's slab test passes whenever one of its
children's does (see `_ray_count`), so the leaves reached are the same, with fewer rounds and tests."""


def _ray_count(points, world: WorldBVH, direction, slack):
    """Winding numbers of `points` counted along one ray direction, and which points' counts are ambiguous.

    The leaves kept are those whose slab test passes: a parent's box holds its children's (refitted as their
    extremes, or all shifted by one monotone rounding), and every step of the test is monotone in the box's ends,
    so a child that passes has a parent that passes, and starting the descent at any level keeps the same leaves
    (the counts are sums and flags over them, whatever their order)."""
    local = world.local
    count = points.shape[0]
    inv = 1.0 / direction
    top = local.levels - 1
    start = max(0, top - RAY_SKIP)
    width = local.sizes[start]
    pts = np.repeat(np.arange(count), width)
    nodes = np.tile(np.arange(width), count)
    # The slab test column by column: along axis x the ray enters a node's slab at (lo - slack - p) x inv and
    # leaves it at (hi + slack - p) x inv, the other way round where the direction is negative (the directions
    # have no zero component); the same numbers as the (k, 3) form, without its rows' min and max.
    columns = world.columns
    lower = [columns["lo"][x] - slack for x in range(3)]
    upper = [columns["hi"][x] + slack for x in range(3)]
    entry = [lower[x] if inv[x] > 0.0 else upper[x] for x in range(3)]
    exit_ = [upper[x] if inv[x] > 0.0 else lower[x] for x in range(3)]
    coordinates = [points[:, x] for x in range(3)]
    for level in range(start, -1, -1):
        if level < start:
            pts, nodes = descend_one_level(world, level, pts, nodes)
        flat = world.node(level, nodes)
        enter = leave = None
        for x in range(3):
            p = coordinates[x][pts]
            t_in = (entry[x][flat] - p) * inv[x]
            t_out = (exit_[x][flat] - p) * inv[x]
            enter = t_in if enter is None else np.maximum(enter, t_in)
            leave = t_out if leave is None else np.minimum(leave, t_out)
        keep = (leave >= enter) & (leave >= 0.0)
        pts, nodes = pts[keep], nodes[keep]
    corners = np.take(world.leaf_corners, nodes, axis=0)
    p = np.take(points, pts, axis=0)
    a, b, c = corners[:, 0] - p, corners[:, 1] - p, corners[:, 2] - p
    r = np.broadcast_to(direction, a.shape)
    u = row_dot(r, row_cross(a, b))
    v = row_dot(r, row_cross(b, c))
    w = row_dot(r, row_cross(c, a))
    size = np.maximum(np.maximum(row_dot(a, a), row_dot(b, b)), row_dot(c, c))
    tol = 1e-12 * size
    ab, cb, ac = b - a, c - b, a - c
    normal = row_cross(ab, c - a)
    edge2 = np.maximum(np.maximum(row_dot(ab, ab), row_dot(cb, cb)), row_dot(ac, ac))
    proper = row_dot(normal, normal) > 1e-24 * edge2 * edge2
    pos = (u > tol) & (v > tol) & (w > tol)
    neg = (u < -tol) & (v < -tol) & (w < -tol)
    excluded = (np.maximum(np.maximum(u, v), w) > tol) & (np.minimum(np.minimum(u, v), w) < -tol)
    nr = u + v + w  # = normal . direction
    height = row_dot(normal, a)  # the ray meets the plane at t = height / nr
    ahead = np.where(nr != 0.0, height / np.where(nr != 0.0, nr, 1.0), -1.0)
    on_plane = np.abs(height) <= 1e-12 * np.sqrt(row_dot(normal, normal) * size)
    hit = proper & (pos | neg) & (ahead > 0.0) & ~on_plane
    ambiguous = proper & ~pos & ~neg & ~excluded & (ahead > 0.0)
    ambiguous |= proper & (pos | neg) & on_plane
    winding = np.zeros(count, np.int64)
    np.add.at(winding, pts[hit], np.where(nr[hit] > 0.0, 1, -1))
    bad = np.zeros(count, bool)
    bad[pts[ambiguous]] = True
    return winding, bad


def winding_numbers(points: np.ndarray, world: WorldBVH, scale: float) -> np.ndarray:
    """Integer winding number of each point w.r.t. a closed mesh (see the module docstring)."""
    count = points.shape[0]
    result = np.zeros(count, np.int64)
    todo = np.arange(count)
    slack = 1e-12 * max(scale, 1e-300)
    for direction in _DIRECTIONS:
        if todo.size == 0:
            break
        w, bad = _ray_count(points[todo], world, direction, slack)
        result[todo] = w
        todo = todo[bad]
    return result


def inside_both(points: np.ndarray, wa: WorldBVH, wb: WorldBVH, scale: float) -> np.ndarray:
    """The rows of `points` inside both closed meshes (non-zero winding numbers; B is asked only about the points
    inside A)."""
    points = points[winding_numbers(points, wa, scale) != 0]
    if points.shape[0]:
        points = points[winding_numbers(points, wb, scale) != 0]
    return points
