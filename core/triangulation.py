"""Checked hull triangulations of convex polytopes: the input a `ConvexPolytope` (core/polytope.py) carries for
the facet path (core/facet_depth.py).

- `Triangulation`: points and triangles that pass the checks (closed surface of nonzero-area triangles bounding a
  convex body, core/topology.py's exact convexity test within `_HULL_SLACK`), turned outward, with the topology
  of their vertex graph (`Graph`); a hull tool's few folded quad diagonals are flipped first (`_flip_folds`).
- `Later`: a triangulation made the first time a query needs it, by the first of some makers whose answer
  passes and holds every vertex of the cloud (`_holds`).
- `edge_pairing`: the directed-edge pairing of core/topology.py in the form the graph and the flips use.
"""
from __future__ import annotations

import numpy as np

from .rows import row_cross, row_dot, unit_rows
from .topology import all_behind, convexity, convexity_proper, edge_twins, flat_triangles, ordered, weld

__all__ = ["Triangulation", "Graph", "Later", "edge_pairing"]

# The climbs look at up to this many neighbours per vertex in one padded step; a vertex of higher degree (the apex
# of a cone, the pole of a UV sphere) has its whole neighbour list looked at apart.
_TABLE_WIDTH = 16
# The padded neighbour table of the wide vertices is kept when it has at most this many entries.
_WIDE_TABLE = 1 << 20


def edge_pairing(triangles: np.ndarray, n: int):
    """core/topology.py's `edge_twins` (directed edges in corner order, owner triangle, row of the reverse edge)
    as (u, v, owner, twin, pairing), where twin is None unless every edge is used once and met by its reverse once
    (a closed surface); pairing is the whole `edge_twins` answer, for the convexity test."""
    pairing = edge_twins(triangles, n)
    u, v, owner, twin, ok = pairing
    if not (np.all(ok) and np.all(u != v)):
        twin = None
    return u, v, owner, twin, pairing


class Graph:
    """The triangulation's topology (pose-independent, local vertex indices): outward triangles, unique edges
    with the two triangles beside them, and the vertex graph (CSR lists, plus a padded table of the first
    `_TABLE_WIDTH` neighbours for the climbs; a vertex of higher degree is `wide`)."""

    def __init__(self, triangles: np.ndarray, n: int, twins=None):
        """twins: `edge_pairing(triangles, n)` when the caller has it already."""
        self.triangles = triangles
        u, v, owner, twin, _ = edge_pairing(triangles, n) if twins is None else twins
        if twin is None:
            raise ValueError("the triangles are not a closed surface (an edge is not met by its reverse once)")
        first = u < v
        self.edges = np.stack([u[first], v[first]], axis=1)  # each undirected edge once
        self.edge_faces = np.stack([owner[first], owner[twin[first]]], axis=1)  # the triangles on either side
        self.edge_keys = (u[first] * n + v[first])[ordered(u[first], v[first], n)]  # ascending
        self.n = n
        degree = np.bincount(u, minlength=n)
        by_vertex = np.argsort(u.astype(np.uint16) if n <= 1 << 16 else u, kind="stable")  # 16 bits: a radix sort
        self.ptr = np.concatenate([[0], np.cumsum(degree)])
        self.idx = v[by_vertex]
        slot = np.arange(u.size) - np.repeat(self.ptr[:-1], degree)
        width = int(min(max(np.percentile(degree, 99), 6), degree.max(), _TABLE_WIDTH))
        table = np.repeat(np.arange(n)[:, None], width, axis=1)  # padding: the vertex itself
        near = slot < width
        table[u[by_vertex][near], slot[near]] = self.idx[near]
        self.table = table
        self.wide = degree > width
        # the wide vertices' whole neighbour lists, padded with the vertex itself, when that table is small (a UV
        # Sphere's two poles: 2 x 128); else their lists are looked at pair by pair (`Supports.__call__`)
        wide_ids = np.flatnonzero(self.wide)
        self.wide_table = None
        if wide_ids.size and wide_ids.size * int(degree.max()) <= _WIDE_TABLE:
            rows, other = self.neighbour_pairs(wide_ids)
            wide_table = np.repeat(wide_ids[:, None], int(degree[wide_ids].max()), axis=1)
            row_start = np.concatenate([[0], np.cumsum(degree[wide_ids])[:-1]])
            wide_table[rows, np.arange(rows.size) - row_start[rows]] = other
            self.wide_row = np.full(n, -1, np.int64)
            self.wide_row[wide_ids] = np.arange(wide_ids.size)
            self.wide_table = wide_table
        self.cube = None  # (g, support vertex of each cube-map cell): built by the first query, see `Supports`

    def adjacent(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        key = np.minimum(i, j) * self.n + np.maximum(i, j)
        pos = np.minimum(np.searchsorted(self.edge_keys, key), self.edge_keys.size - 1)
        return self.edge_keys[pos] == key

    def neighbour_pairs(self, vertices: np.ndarray):
        """(row, neighbour): every neighbour of vertices[row], for every row."""
        count = self.ptr[vertices + 1] - self.ptr[vertices]
        rows = np.repeat(np.arange(vertices.size), count)
        first = np.repeat(self.ptr[vertices] - np.concatenate([[0], np.cumsum(count)[:-1]]), count)
        return rows, self.idx[first + np.arange(rows.size)]


class Triangulation:
    """A checked hull triangulation: its points (local coordinates; in their input order when all are distinct,
    else welded, in lexicographic order) and the topology of their graph."""

    def __init__(self, points: np.ndarray, triangles, checked: bool, like: "Triangulation | None" = None,
                 own: bool = False):
        """like: a triangulation made by `Later` (which keeps the input it passed with, `source`); when `points`
        and `triangles` are bit for bit that input and it was checked at least as strictly, its answer is this
        one's (every step below is a function of these two arrays alone) and is shared instead of recomputed: B
        taking A's triangulation on its vertices (`_copied_maker`) when B is A's exact copy.  Otherwise, when
        the triangles are the same as like's before and after the flips (its copy on a turned, moved or scaled
        copy of A's vertices), the topology is: the first edge pairing (`first`) and the graph, which are
        functions of the triangles alone (the graph's start table, made from like's points, is only where the
        climbs start).  own: made by the core's own makers (see `Later`) from distinct rows of a cloud: not welded
        (two rows at one position would make a zero-area triangle, or a surface through one point twice, which
        the zero-area and convexity checks below refuse: tests/core/test_polytope_own_points.py), and the first
        pairing is kept for a partner."""
        self.source = None
        self.first = None  # (triangles before the flips, their `edge_pairing`), kept for a partner's `like`
        if like is not None and like.source is not None and (checked or not like.source[2]):
            p0, t0, _ = like.source
            if (isinstance(points, np.ndarray) and isinstance(triangles, np.ndarray) and points.dtype == p0.dtype
                    and triangles.dtype == t0.dtype and np.array_equal(points, p0)
                    and np.array_equal(triangles, t0)):
                self.points, self.graph, self.source = like.points, like.graph, like.source
                return
        points = np.asarray(points, dtype=np.float64)
        if points.ndim != 2 or points.shape[1] != 3 or not np.all(np.isfinite(points)):
            raise ValueError("hull points must be a finite (n, 3) array")
        tris = np.asarray(triangles)
        if tris.ndim != 2 or tris.shape[1] != 3 or tris.shape[0] < 4 or not np.issubdtype(tris.dtype, np.integer):
            raise ValueError(f"triangles must be a (k, 3) integer array with k >= 4, got shape {tris.shape}")
        tris = tris.astype(np.int64)
        if tris.min() < 0 or tris.max() >= points.shape[0]:
            raise ValueError("triangles refer to vertices that do not exist")
        unique, index = (points, None) if own else weld(points)
        if own or unique.shape[0] == points.shape[0]:
            # all distinct: kept in their own order, so a copy's triangulation keeps its partner's vertex order
            unique, topo = points, tris
        else:
            topo = index.reshape(-1)[tris]
        if np.bincount(topo.reshape(-1), minlength=unique.shape[0]).min() == 0:
            raise ValueError("every vertex must be a corner of a triangle of the hull triangulation")
        # Outward: a convex body holds its centroid, so each triangle faces away from it (then the convexity test
        # also proves the orientation consistent: every directed edge must meet its reverse).
        corner = np.take(unique, topo, axis=0)
        a, b, c = corner[:, 0], corner[:, 1], corner[:, 2]
        inward = row_dot(a - unique.mean(axis=0), row_cross(b - a, c - a)) < 0.0
        topo[inward] = topo[inward][:, [0, 2, 1]]
        if np.any(flat_triangles(unique, topo)):
            raise ValueError("a triangle of the hull triangulation has zero area")
        twins = None
        if like is not None and like.first is not None and np.array_equal(topo, like.first[0]):
            twins = like.first[1]  # the same triangles: the same pairing
        if not checked:
            if twins is None:
                twins = edge_pairing(topo, unique.shape[0])
            if own:
                self.first = (topo.copy(), twins)
            # zero-area triangles were refused above, so the convexity test proper runs, without `convexity`'s
            # second look for them (an open or non-manifold surface fails it: its pairing has unmatched edges)
            zero = np.zeros(topo.shape[0], np.int64)
            convex = convexity_proper(unique, topo, topo, zero, 1, None, _HULL_SLACK, twins[4])[0]
            if not bool(convex):
                # A hull tool working in float32 may leave a few quads split along the wrong diagonal (Blender's
                # Convex Hull on a 10,242-vertex Ico Sphere: 28 edges folded inwards by up to 3e-4): flipped, then
                # tested again (folds within `_HULL_SLACK` pass as they are: the core's own hulls need no flips)
                flipped, flipped_twins = _flip_folds(unique, topo, twins=twins)
                if flipped is not None and not np.array_equal(flipped, topo):
                    topo, twins = flipped, flipped_twins
                    convex = convexity(unique, topo, topo, zero, 1, _HULL_SLACK, twins[4])[0]
            if not bool(convex):
                raise ValueError("the triangles are not a closed surface bounding a convex body")
        self.points = unique
        if like is not None and like.graph.n == unique.shape[0] and np.array_equal(topo, like.graph.triangles):
            self.graph = like.graph
        else:
            self.graph = Graph(np.ascontiguousarray(topo), unique.shape[0], twins)


def _flip_folds(points: np.ndarray, topo: np.ndarray, rounds: int = 32, twins=None):
    """Edge flips until no edge folds inwards: an edge (i, j) between triangles (i, j, k) and (j, i, l) whose far
    corner l lies above the plane of (i, j, k) becomes (k, l), the triangles (i, l, k) and (l, j, k).  In a round
    an edge flips when it folds more than every other folded edge of its two triangles (all at once, no loop:
    Blender's 128 x 64 UV Sphere has 3,669 folded quad diagonals); the others wait for the next round.  The
    triangulation after the last round and its `edge_pairing` (or None, None when it is not a closed surface); the
    caller checks it again.  twins: `edge_pairing(topo)` when the caller has it already."""
    topo = topo.copy()
    n = points.shape[0]
    lo, hi = points.min(axis=0), points.max(axis=0)
    tol = 1e-10 * float(np.linalg.norm(hi - lo)) + 16.0 * np.finfo(float).eps * float(np.abs(points).max())
    for done in range(rounds + 1):
        if twins is None or done:
            twins = edge_pairing(topo, n)
        u, v, owner, twin, _ = twins
        if twin is None:
            return None, None
        if done == rounds:
            break
        far = topo[:, [2, 0, 1]].reshape(-1)
        corner = np.take(points, topo, axis=0)  # np.take: a faster gather than indexing
        normal = unit_rows(row_cross(corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0]))
        once = np.flatnonzero(u < v)  # each edge from one side
        height = row_dot(np.take(normal, owner[once], axis=0),
                      np.take(points, far[twin[once]], axis=0) - np.take(points, u[once], axis=0))
        over = height > tol
        folded = once[over]
        if not folded.size:
            break
        rank = np.empty(folded.size, np.int64)
        rank[np.lexsort((folded, height[over]))] = np.arange(folded.size)  # distinct, by height
        f, g = owner[folded], owner[twin[folded]]
        top = np.full(topo.shape[0], -1, np.int64)
        np.maximum.at(top, f, rank)
        np.maximum.at(top, g, rank)
        e = folded[(top[f] == rank) & (top[g] == rank)]  # the highest fold of both its triangles
        i, j, k, l = u[e], v[e], far[e], far[twin[e]]
        topo[owner[e]] = np.stack([i, l, k], axis=1)
        topo[owner[twin[e]]] = np.stack([l, j, k], axis=1)
    return topo, twins


class Later:
    """A triangulation made the first time it is needed, by the first of some functions of no arguments
    returning (points, triangles) whose answer passes; None from then on if none did.  The core's own makers
    (`_hull_maker`, `_copied_maker`) add a third item, the rows of the cloud the points were taken from, and
    `_copied_maker` a fourth: the partner's accepted triangulation, shared when the input is the same (`like`)."""

    def __init__(self, makers):
        self.makers = list(makers)
        self.done = False
        self.value = None

    def get(self, cloud: np.ndarray):
        """The triangulation, if it is the hull of `cloud` (local vertices): its points are vertices of the cloud
        and every other vertex is behind every one of its face planes (core/topology.py's tolerance)."""
        if not self.done:
            self.done = True
            for make in self.makers:
                try:
                    made = make()
                    hull = Triangulation(made[0], made[1], checked=False, like=made[3] if len(made) > 3 else None,
                                          own=len(made) > 2)
                except (ValueError, TypeError, RuntimeError):
                    continue
                if _holds(hull, cloud, made[2] if len(made) > 2 else None):
                    if len(made) > 2 and hull.source is None:  # the core's own makers: kept for a partner's
                        # `_copied_maker` (`like`); a shared one has its source already
                        hull.source = (made[0], made[1], False)
                    self.value = hull
                    break
            self.makers = None
        return self.value


# A triangulation from outside (given as an array or made later) may be convex, and hold the vertices it leaves
# out, only up to this times its size (plus rounding): float32 meshes and hull tools leave points a few 1e-10 off
# (Blender's 128 x 64 UV Sphere of radius 1: folds up to 2e-6 in its own faces, 5e-10 left after the flips).  The
# facet normals then found are those of a polytope this close to the hull, and the depth (evaluated over the
# vertices themselves) is exact to about twice this times the size; a mesh already proved convex (`_checked`)
# keeps the mesh test's 1e-10.
_HULL_SLACK = 1e-9


# The vertices a triangulation made later leaves out are checked against its face planes when there are at most
# this many (vertex, plane) pairs; above it (a dense flat grid inside a few big facets) it is not used.
_CHECK_BUDGET = 1 << 25


def _holds(hull: Triangulation, cloud: np.ndarray, rows: np.ndarray | None = None) -> bool:
    """`rows`: the rows of `cloud` the hull's points were taken from, when they were (then they are vertices of
    the shape by construction, and only the other rows are looked at)."""
    if rows is None:
        both = np.concatenate([hull.points, cloud])
        _, label = weld(both)
        label = label.reshape(-1)
        mine, theirs = label[:hull.points.shape[0]], label[hull.points.shape[0]:]
        if not np.all(np.isin(mine, theirs)):
            return False  # a point that is not a vertex of the shape
        rest = cloud[~np.isin(theirs, mine)]
    else:
        left = np.ones(cloud.shape[0], bool)
        left[rows] = False
        rest = cloud[left]
    if not rest.shape[0]:
        return True
    if rest.shape[0] * hull.graph.triangles.shape[0] > _CHECK_BUDGET:
        return False
    return bool(all_behind(hull.points, hull.graph.triangles, rest, _HULL_SLACK))
