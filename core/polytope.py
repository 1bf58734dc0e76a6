"""Convex polytopes with a known hull triangulation, and their exact penetration depth from facet normals.

Why (issue 7): two identical or near-identical high-poly convex shapes at one pose (Shift+D in Blender) have a
Minkowski difference M = A - B whose every facet lies within a fraction of a percent of the depth, so EPA must
add about one vertex of M per expansion, all of them (~0.1 ms each in Python: a second for 10,000 vertices).
When the hulls' triangulations are known (a convex mesh's own faces in Exact mode; in Hull mode the mesh's faces
or else Blender's Convex Hull), the depth needs no polytope at all:

    depth = min over unit u of h_M(u),   h_M(u) = h_A(u) + h_B(-u)   (h: support function),

and the minimum is attained at a facet normal of M.  Every facet of M (a Minkowski sum of polytopes) is a facet of
A plus a vertex of B, a vertex of A plus a facet of -B, or an edge of A plus an edge of -B whose Gauss-map arcs
cross; its normal is a facet normal of A, minus one of B, or +-(e_a x e_b).  Each candidate u gives an upper bound
h_M(u) >= depth, so the minimum over any superset of M's facet normals *is* the depth.  Everything is vectorised:

- supports by hill climbing on the triangulation's vertex graph, all directions at once.  On a convex surface a
  vertex no neighbour improves on is a global maximum (the edges at a vertex span its tangent cone), so the climb
  is exact; it starts at the support precomputed for the cube-map cell that holds its direction;
- crossing edge pairs without enumerating pairs: along the Gauss arc of an edge of A (from the normal of one of
  its faces to the other's), B's support along -u moves from vertex to vertex of B, one B edge per crossed arc.
  So the supports of B at the arc's two ends (a hair inside them) are compared: equal, no crossing (a normal cone
  is convex); joined by an edge of B, the crossing is where u is perpendicular to both edges, unless B's support
  there is a third vertex (the arc passes round a facet normal of -B), which splits the arc; else the arc is
  halved; the pieces are looked at again, down to `_SHORT_ARC` (then the piece's middle stands for its crossing:
  an edge of A nearly parallel to one of B, as on a float32 copy, has a crossing found only to ~1e-9 rad);
- the winner is checked against every vertex: climbed values are values of real vertices (never above the true
  support), so candidates are verified in order of value until the best verified one is no larger than the next.

`ConvexPolytope` is a `PointCloud` (every query works on it as on its vertices) that also carries the checked
triangulation; EPA switches to `facet_depth` once it has spent `epa._BATCH_AFTER` expansions on a pair of them.
For two plain `PointCloud`s (raw arrays) `with_hulls` makes such views of them there and then, their
triangulations by core/hull.py, checked like any triangulation made later.
"""
from __future__ import annotations

import math

import numpy as np

from .shapes import PointCloud

__all__ = ["ConvexPolytope", "facet_depth", "with_hulls"]

# The climbs start at the support of the cell of a cube map (6 x G x G cells, directions through the cell
# centres) that holds their direction; G grows with the vertex count (about 1 cell per 8 vertices, G <= 24).
_CUBE_MAX = 24
# The climbs look at up to this many neighbours per vertex in one padded step; a vertex of higher degree (the apex
# of a cone, the pole of a UV sphere) has its whole neighbour list looked at apart.
_TABLE_WIDTH = 16
# The padded neighbour table of the wide vertices is kept when it has at most this many entries.
_WIDE_TABLE = 1 << 20
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
# when there are at most `_REPEATS` groups per normal (see `_repeats`).
_REPEATS = 0.75
_SAME_NORMAL = 1e-9
# Climb steps before the rows still climbing take the support over every vertex instead.
_CLIMB_STEPS = 32
# Gauss arcs shorter than this (radians) are not walked: their two faces are coplanar up to rounding (a diagonal
# inside a flat facet), and any direction on such an arc is within this angle of a face normal that is itself a
# candidate (h_M changes by at most this times the size of M there).
_FLAT_ARC = 1e-12
# Arcs are walked from this fraction of their length inside each end (see `facet_depth`): a crossing closer to an
# end than that is missed, which can raise the depth by at most this x pi x the size of M.
_NUDGE = 1e-10
# Edge pairs whose sine of angle is below this are parallel (their Gauss arcs overlap, no facet between them).
_PARALLEL = 1e-12
# Arcs walked at once, per edge of A, beyond which the walk gives up (returns None).  Two identical or
# near-identical shapes cross each arc of A with a few arcs of -B, but two many-sided prisms tilted against each
# other have M with a number of facets that grows as the product of their sides; EPA only refines M near the
# answer and is then cheaper.
_ARC_BUDGET = 1
# Arcs are halved in each pass while more than `_FEW_ARCS` are cut; fewer are cut into `_PIECES` (four times the
# halvings per pass).
_FEW_ARCS = 256
_PIECES = 16
# Passes of the arc walk (each halves or splits the arcs left; 2^-48 of an arc is far below any tolerance).
_MAX_HALVINGS = 48
# An arc still walked when it is shorter than this (radians) is walked no further: its middle direction becomes
# a candidate.  Any facet normal of M on it is within half this angle of that direction, where h_M is at most
# that angle times the size of M larger (h_M is Lipschitz with the largest |m| of M, which holds the origin).
# Without it, arcs whose crossing is ill-conditioned (an edge of A nearly parallel to one of B: float32 copies,
# sine ~1e-7, crossing direction found only to ~1e-9) were halved through all the passes (issue 7).
_SHORT_ARC = 1e-11
# The facet path's work budget: `_WORK_FLOOR` + this per facet of the two shapes, in gathered (direction, vertex)
# products of the climbs (see `facet_depth`).  Measured per facet: 30-130 on Ico Spheres, UV Spheres and cylinders
# with Blender-like faces (2,000-18,000 vertices), up to ~1,700 on qhull's fan-capped 8,192-sided cylinder (1.7 s,
# where EPA takes 2.9 s identical and 0.3 s turned) and ~1,400 on a 1,024-sided cone (products over every vertex
# on a small shape).  At ~10 ns a product, 4,096 per facet (8 per vertex) is about what EPA spends when it must
# expand once per vertex (identical copies); past it EPA goes on.  `_LAST_WORK`: the last call's work per shape.
_WORK_PER_FACET = 4096
_WORK_FLOOR = 1 << 24
# A product over every vertex (one matrix product) counts as 1/this of a climb's gathered product.
_BLAS_PRODUCTS = 8
_LAST_WORK = [0, 0]
# Rows per block in the climbs and the checks (bounds the temporary (rows, width, 3) arrays).
_BLOCK = 1 << 16


def _twins(triangles: np.ndarray, n: int):
    """core/mesh/parts.py's `_edge_twins` (directed edges in corner order, owner triangle, row of the reverse edge)
    as (u, v, owner, twin, pairing), where twin is None unless every edge is used once and met by its reverse once
    (a closed surface); pairing is the whole `_edge_twins` answer, for the convexity test."""
    from .mesh.parts import _edge_twins
    pairing = _edge_twins(triangles, n)
    u, v, owner, twin, ok = pairing
    if not (np.all(ok) and np.all(u != v)):
        twin = None
    return u, v, owner, twin, pairing


def _weld(points: np.ndarray):
    """(distinct rows in lexicographic order, index of each row among them): np.unique(points, axis=0,
    return_inverse=True) by one lexsort of the columns (3-5x faster: no comparison of rows as records)."""
    order = np.lexsort((points[:, 2], points[:, 1], points[:, 0]))
    ordered = points[order]
    new = np.ones(ordered.shape[0], bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    inverse = np.empty(ordered.shape[0], np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


class _Graph:
    """The triangulation's topology (pose-independent, local vertex indices): outward triangles, unique edges
    with the two triangles beside them, and the vertex graph (CSR lists, plus a padded table of the first
    `_TABLE_WIDTH` neighbours for the climbs; a vertex of higher degree is `wide`)."""

    def __init__(self, triangles: np.ndarray, n: int, twins=None):
        """twins: `_twins(triangles, n)` when the caller has it already."""
        self.triangles = triangles
        u, v, owner, twin, _ = _twins(triangles, n) if twins is None else twins
        if twin is None:
            raise ValueError("the triangles are not a closed surface (an edge is not met by its reverse once)")
        first = u < v
        self.edges = np.stack([u[first], v[first]], axis=1)  # each undirected edge once
        self.edge_faces = np.stack([owner[first], owner[twin[first]]], axis=1)  # the triangles on either side
        from .mesh.parts import _ordered
        self.edge_keys = (u[first] * n + v[first])[_ordered(u[first], v[first], n)]  # ascending
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
        # Sphere's two poles: 2 x 128); else their lists are looked at pair by pair (`_Supports.__call__`)
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
        self.cube = None  # (g, support vertex of each cube-map cell): built by the first query, see `_Supports`

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


class _Triangulation:
    """A checked hull triangulation: its points (local coordinates; in their input order when all are distinct,
    else welded, in lexicographic order) and the topology of their graph."""

    def __init__(self, points: np.ndarray, triangles, checked: bool, like: "_Triangulation | None" = None,
                 own: bool = False):
        """like: a triangulation made by `_Later` (which keeps the input it passed with, `source`); when `points`
        and `triangles` are bit for bit that input and it was checked at least as strictly, its answer is this
        one's (every step below is a function of these two arrays alone) and is shared instead of recomputed: B
        taking A's triangulation on its vertices (`_copied_maker`) when B is A's exact copy.  Otherwise, when
        the triangles are the same as like's before and after the flips (its copy on a turned, moved or scaled
        copy of A's vertices), the topology is: the first edge pairing (`first`) and the graph, which are
        functions of the triangles alone (the graph's start table, made from like's points, is only where the
        climbs start).  own: made by the core's own makers (see `_Later`) from distinct rows of a cloud: not welded
        (two rows at one position would make a zero-area triangle, or a surface through one point twice, which
        the zero-area and convexity checks below refuse: tests/core/test_polytope_own_points.py), and the first pairing is kept for a partner."""
        self.source = None
        self.first = None  # (triangles before the flips, their `_twins`), kept for a partner's `like`
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
        unique, weld = (points, None) if own else _weld(points)
        if own or unique.shape[0] == points.shape[0]:
            # all distinct: kept in their own order, so a copy's triangulation keeps its partner's vertex order
            unique, topo = points, tris
        else:
            topo = weld.reshape(-1)[tris]
        if np.bincount(topo.reshape(-1), minlength=unique.shape[0]).min() == 0:
            raise ValueError("every vertex must be a corner of a triangle of the hull triangulation")
        # Outward: a convex body holds its centroid, so each triangle faces away from it (then the convexity test
        # also proves the orientation consistent: every directed edge must meet its reverse).
        corner = np.take(unique, topo, axis=0)
        a, b, c = corner[:, 0], corner[:, 1], corner[:, 2]
        inward = _dot(a - unique.mean(axis=0), _cross(b - a, c - a)) < 0.0
        topo[inward] = topo[inward][:, [0, 2, 1]]
        from .mesh.parts import _convexity, _convexity_proper, _flat
        if np.any(_flat(unique, topo)):
            raise ValueError("a triangle of the hull triangulation has zero area")
        twins = None
        if like is not None and like.first is not None and np.array_equal(topo, like.first[0]):
            twins = like.first[1]  # the same triangles: the same pairing
        if not checked:
            if twins is None:
                twins = _twins(topo, unique.shape[0])
            if own:
                self.first = (topo.copy(), twins)
            # zero-area triangles were refused above, so the convexity test proper runs, without `_convexity`'s
            # second look for them (an open or non-manifold surface fails it: its pairing has unmatched edges)
            zero = np.zeros(topo.shape[0], np.int64)
            convex = _convexity_proper(unique, topo, topo, zero, 1, None, _HULL_SLACK, twins[4])[0]
            if not bool(convex):
                # A hull tool working in float32 may leave a few quads split along the wrong diagonal (Blender's
                # Convex Hull on a 10,242-vertex Ico Sphere: 28 edges folded inwards by up to 3e-4): flipped, then
                # tested again (folds within `_HULL_SLACK` pass as they are: the core's own hulls need no flips)
                flipped, flipped_twins = _flip_folds(unique, topo, twins=twins)
                if flipped is not None and not np.array_equal(flipped, topo):
                    topo, twins = flipped, flipped_twins
                    convex = _convexity(unique, topo, topo, zero, 1, _HULL_SLACK, twins[4])[0]
            if not bool(convex):
                raise ValueError("the triangles are not a closed surface bounding a convex body")
        self.points = unique
        if like is not None and like.graph.n == unique.shape[0] and np.array_equal(topo, like.graph.triangles):
            self.graph = like.graph
        else:
            self.graph = _Graph(np.ascontiguousarray(topo), unique.shape[0], twins)


def _flip_folds(points: np.ndarray, topo: np.ndarray, rounds: int = 32, twins=None):
    """Edge flips until no edge folds inwards: an edge (i, j) between triangles (i, j, k) and (j, i, l) whose far
    corner l lies above the plane of (i, j, k) becomes (k, l), the triangles (i, l, k) and (l, j, k).  In a round
    an edge flips when it folds more than every other folded edge of its two triangles (all at once, no loop:
    Blender's 128 x 64 UV Sphere has 3,669 folded quad diagonals); the others wait for the next round.  The
    triangulation after the last round and its `_twins` (or None, None when it is not a closed surface); the
    caller checks it again.  twins: `_twins(topo)` when the caller has it already."""
    topo = topo.copy()
    n = points.shape[0]
    lo, hi = points.min(axis=0), points.max(axis=0)
    tol = 1e-10 * float(np.linalg.norm(hi - lo)) + 16.0 * np.finfo(float).eps * float(np.abs(points).max())
    for done in range(rounds + 1):
        if twins is None or done:
            twins = _twins(topo, n)
        u, v, owner, twin, _ = twins
        if twin is None:
            return None, None
        if done == rounds:
            break
        far = topo[:, [2, 0, 1]].reshape(-1)
        corner = np.take(points, topo, axis=0)  # np.take: a faster gather than indexing
        normal = _unit_rows(_cross(corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0]))
        once = np.flatnonzero(u < v)  # each edge from one side
        height = _dot(np.take(normal, owner[once], axis=0),
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


class _Later:
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
        and every other vertex is behind every one of its face planes (core/mesh/parts.py's tolerance)."""
        if not self.done:
            self.done = True
            for make in self.makers:
                try:
                    made = make()
                    hull = _Triangulation(made[0], made[1], checked=False, like=made[3] if len(made) > 3 else None,
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


def _holds(hull: _Triangulation, cloud: np.ndarray, rows: np.ndarray | None = None) -> bool:
    """`rows`: the rows of `cloud` the hull's points were taken from, when they were (then they are vertices of
    the shape by construction, and only the other rows are looked at)."""
    if rows is None:
        both = np.concatenate([hull.points, cloud])
        _, label = _weld(both)
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
    from .mesh.parts import _all_behind
    return bool(_all_behind(hull.points, hull.graph.triangles, rest, _HULL_SLACK))


class ConvexPolytope(PointCloud):
    """The convex hull of a vertex array (exactly like `PointCloud` in every query) that also knows a closed
    triangulation of that hull's boundary, with which EPA finishes large deep pairs faster (`facet_depth`).

    vertices: (n, 3).  triangles: either (k, 3) indices into `vertices` in any orientation (each triangle is turned
    outward), every vertex a corner (a convex mesh's faces, or a hull tool's output with its points); or a
    function of no arguments returning (hull points, triangles) in the same local coordinates, called the first
    time a query needs them (so only pairs that get there pay for a hull), or a list of such functions tried in
    order until one gives a triangulation that passes (the add-on offers the mesh's own faces, then Blender's
    Convex Hull).  Exactly equal positions are welded.  Given as an array, a triangulation that is not one closed
    surface of nonzero-area triangles bounding a convex body (core/mesh/parts.py's exact convexity test) raises
    ValueError; given as a function, such a triangulation, one that leaves a vertex outside it (or a function that
    raises) is just not used.  The final depth is evaluated over the vertices themselves."""

    def __init__(self, vertices, triangles, transform=None, margin: float = 0.0, *, _checked: bool = False):
        """`_checked=True` (core-internal: `core/mesh/query.py`, whose meshes passed the same convexity test
        already) skips the convexity test; the welding and orientation are done all the same."""
        super().__init__(vertices, transform, margin)
        if callable(triangles):
            self._source = _Later([triangles])
        elif isinstance(triangles, (list, tuple)) and triangles and all(callable(f) for f in triangles):
            self._source = _Later(triangles)
        else:
            self._source = _Triangulation(self.vertices, triangles, _checked)

    def _triangulation(self) -> _Triangulation | None:
        return self._source.get(self.vertices) if isinstance(self._source, _Later) else self._source

    def _hull_world(self, points: np.ndarray) -> np.ndarray:
        """`points` (local) in the current frame (transform and frame shift applied), cached per pose."""
        key = ("hull world", id(points))
        world = self._pose_cache.get(key)
        if world is None:
            world = points if self._linear is None else points @ self._linear_t
            world = self._pose_cache[key] = world
        return world + self._offset

    def __repr__(self) -> str:
        return f"ConvexPolytope({self.vertices.shape[0]} vertices, margin={self.margin!r})"


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise cross products by core/mesh/tritri.py's column arithmetic (4x faster than np.cross on (k, 3)
    rows, same bits); imported on first use, as core/mesh imports this module."""
    from .mesh.tritri import _cross as cross
    return cross(u, v)


def _dot(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise dot products of (k, 3) arrays, by core/mesh/tritri.py's column arithmetic (as `_cross`)."""
    from .mesh.tritri import _dot as dot
    return dot(u, v)


class _OwnHull:
    """The hull triangulation of a `PointCloud`'s local vertices by `core.hull.convex_hull`, computed once on
    first need and kept (in the cloud's pose cache: clones made by `shifted` share it)."""

    def __init__(self, vertices: np.ndarray):
        self.vertices = vertices
        self.done = False
        self.indices = None  # (hull vertex indices, triangles as indices into `vertices`), or None if declined
        self.rows = None  # the triangles as rows of the hull vertices (made once for the two makers)

    def get(self):
        if not self.done:
            self.done = True
            from .hull import convex_hull
            self.indices = convex_hull(self.vertices)
            if self.indices is not None:
                self.rows = np.searchsorted(*self.indices)
        return self.indices


def _hull_maker(own: _OwnHull):
    def make():
        found = own.get()
        if found is None:
            raise ValueError("core.hull declined this cloud")
        return own.vertices[found[0]], own.rows, found[0]
    return make


def _copied_maker(own: _OwnHull, vertices: np.ndarray, later: "_Later | None" = None):
    """The partner's hull triangulation on this cloud's vertices of the same indices: right when the cloud is
    a rigid, scaled or slightly moved copy of the partner (Shift+D keeps the vertex order).  Checked like any
    triangulation made later; its hull is computed only if the partner's already was.  `later`: the partner's
    own `_Later`, whose checked triangulation is passed on as `like` (shared when the input is bit for bit the
    same: an exact copy)."""
    def make():
        if own.indices is None or own.vertices.shape != vertices.shape:
            raise ValueError("no partner hull to copy")
        hull_vertices = own.indices[0]
        like = later.value if later is not None and later.done else None
        return vertices[hull_vertices], own.rows, hull_vertices, like
    return make


def _own_hull(cloud: PointCloud) -> _OwnHull:
    own = cloud._pose_cache.get("own hull")
    if own is None or own.vertices is not cloud.vertices:
        own = cloud._pose_cache["own hull"] = _OwnHull(cloud.vertices)
    return own


def with_hulls(shape_a, shape_b):
    """Both shapes as `ConvexPolytope`s for `facet_depth`, or None unless both are point clouds.

    A `ConvexPolytope` is taken as it is.  A plain `PointCloud` becomes a view of itself (same vertices, pose
    and frame) whose triangulation is made on first need: for B, first A's own hull triangulation on B's
    vertices of the same indices (a duplicate in place has the same vertex order; checked before use), else
    B's own hull by `core.hull.convex_hull`.  Every triangulation passes `_Triangulation` and `_holds` before
    use, so a declined or imperfect hull only means EPA goes on (B's copy of A's, when it is A's input bit for
    bit, shares A's checked answer: the same check on the same arrays, see `_Triangulation`)."""
    if not (isinstance(shape_a, PointCloud) and isinstance(shape_b, PointCloud)):
        return None
    views = []
    partner = partner_later = None
    for shape in (shape_a, shape_b):
        if isinstance(shape, ConvexPolytope):
            views.append(shape)
            continue
        own = _own_hull(shape)
        makers = [_hull_maker(own)]
        if partner is not None and partner is not own:
            makers.insert(0, _copied_maker(partner, shape.vertices, partner_later))
        view = object.__new__(ConvexPolytope)
        view.__dict__.update(shape.__dict__)
        view._source = _Later(makers)
        views.append(view)
        partner, partner_later = own, view._source
    return views[0], views[1]


def _unit_rows(v: np.ndarray) -> np.ndarray:
    length = np.sqrt(np.einsum("ij,ij->i", v, v))
    length[length == 0.0] = 1.0
    out = np.empty(v.shape)
    for k in range(3):  # column by column: a (k, 3) / (k, 1) division runs one 3-long loop per row
        np.divide(v[:, k], length, out=out[:, k])
    return out


def _face_normals(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Unit outward normals, each crossed at the corner facing the triangle's longest edge (its largest angle:
    well conditioned on slivers; the first such corner on ties).  Gathered one coordinate column at a time ((k, 3)
    corners per column: `np.take` of a 1-D column is much faster than a (k, 3, 3) row gather), the picked corners
    taken from those by flat index; the same arithmetic, in the same order, as crossing the picked corners' rows."""
    col = [np.take(np.ascontiguousarray(points[:, axis]), triangles) for axis in range(3)]  # (k, 3) each

    def opposite(i, j):  # squared length of the edge from corner i to corner j, (k,)
        d = [c[:, j] - c[:, i] for c in col]
        return d[0] * d[0] + d[1] * d[1] + d[2] * d[2]

    e0, e1, e2 = opposite(1, 2), opposite(2, 0), opposite(0, 1)  # the edge opposite corner 0, 1, 2
    first = (e0 >= e1) & (e0 >= e2)  # argmax's choice: corner 0, else 1, else 2
    pivot = np.where(first, 0, np.where(e1 >= e2, 1, 2))
    base = np.arange(0, 3 * triangles.shape[0], 3)
    at = [base + pivot, base + np.take(np.array([1, 2, 0]), pivot), base + np.take(np.array([2, 0, 1]), pivot)]
    flat = [c.reshape(-1) for c in col]
    o = [np.take(f, at[0]) for f in flat]
    q = [np.take(f, at[1]) - oc for f, oc in zip(flat, o)]
    r = [np.take(f, at[2]) - oc for f, oc in zip(flat, o)]
    normal = np.empty((triangles.shape[0], 3))
    normal[:, 0] = q[1] * r[2] - q[2] * r[1]
    normal[:, 1] = q[2] * r[0] - q[0] * r[2]
    normal[:, 2] = q[0] * r[1] - q[1] * r[0]
    return _unit_rows(normal)


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


class _OverBudget(Exception):
    """Raised by `_Supports` past its work budget: `facet_depth` gives up and EPA goes on."""


class _Supports:
    """Exact supports of one polytope, many directions at once: by hill climbing on a large polytope, over every
    vertex on a small one."""

    def __init__(self, shape: ConvexPolytope, hull: _Triangulation, budget: float = math.inf):
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
                graph.cube = (g, _Supports._every(fine, local)[0])
            else:
                # a coarse map over every vertex, then each fine cell climbs from its coarse cell's support (the
                # fine map over every vertex cost ~55 ms on an 18,000-vertex sphere, the climbs a few ms)
                graph.cube = (coarse, _Supports._every(_cube_directions(coarse), local)[0])
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
        """Counts (direction, vertex) products; past `budget` the query is abandoned (`_OverBudget`)."""
        self.work += pairs
        if self.work > self.budget:
            raise _OverBudget

    def __call__(self, directions: np.ndarray, start: np.ndarray | None = None):
        """(vertex index, support value) along each row of `directions`; `start`: vertices to climb from.

        Every value a climb compares is (x dx + y dy) + z dz of one vertex and one direction, each product and sum
        rounded once in this order (`_dot`; `_values` for the neighbours): a vertex's value has the same bits
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
        value = _dot(np.take(points, current, axis=0), directions)
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
                    vals = _dot(np.take(points, other, axis=0), np.take(directions, rows[row], axis=0))
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
    order: `_dot`'s bits (tests/core/test_polytope_climb_columns.py checks it on this numpy), at about half
    the cost of the same sums over (rows, width, 3) (whose inner loop is over the 3 coordinates), or of the
    three column products with the directions broadcast along the width (one short inner loop per row).  A
    width of 1 (einsum then sums the coordinates another way) goes through `_dot` itself."""
    if points.shape[2] == 1:
        return _dot(points[:, :, 0], directions)[:, None]
    return np.einsum("rkw,rk->rw", points, directions)


def _undecided_arcs(gb: _Graph, pb: np.ndarray, edge_vec: np.ndarray, edge: np.ndarray, s0: np.ndarray,
                    s1: np.ndarray, bisector: np.ndarray):
    """Candidates for arcs still walked after every pass (arcs cut again and again where B's support jumps across
    a facet normal of -B, none shorter than `_SHORT_ARC`): the edges of B around the two supports are the crossed
    ones.  (edges of A, B vertices to climb from, unit directions); `bisector`: per edge of A, the sum of its two
    face normals (orients each direction).  Halved arcs never get here (they reach `_SHORT_ARC` first)."""
    out_e, out_b, out_u = [], [], []
    for s in (s0, s1):
        row, other = gb.neighbour_pairs(s)
        u = _cross(edge_vec[edge[row]], pb[other] - pb[s[row]])
        length = np.sqrt(np.einsum("ij,ij->i", u, u))
        ok = length > 0.0
        u = u[ok] / length[ok, None]
        row = row[ok]
        u[np.einsum("ij,ij->i", u, bisector[edge[row]]) < 0.0] *= -1.0
        out_e.append(edge[row])
        out_b.append(s[row])
        out_u.append(u)
    return np.concatenate(out_e), np.concatenate(out_b), np.concatenate(out_u)


def _low_corner(graph: _Graph) -> np.ndarray:
    """Per triangle, its corner with the fewest neighbours."""
    degree = np.take(graph.ptr[1:] - graph.ptr[:-1], graph.triangles)
    return graph.triangles[np.arange(graph.triangles.shape[0]), degree.argmin(axis=1)]


def _repeats(normals: np.ndarray):
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
    _, inverse = _weld(grid)
    count = int(inverse.max()) + 1 if inverse.size else 0
    if count > _REPEATS * normals.shape[0]:
        return None
    first = np.empty(count, np.int64)
    first[inverse] = np.arange(normals.shape[0])  # one of its rows (any one serves)
    return first, inverse


def _once(supports: _Supports, directions: np.ndarray, repeats):
    """`supports(directions)` in two climbs when `repeats` (from `_repeats`): one row of each group from the cube
    map, then every row from its group's support (a step or none: the exact support of the row itself)."""
    if repeats is None or supports.points.shape[0] <= _FEW_VERTICES:  # few: products over every vertex anyway
        return supports(directions)
    first, inverse = repeats
    index, _ = supports(directions[first])
    return supports(directions, index[inverse])


def _smallest_first(values: np.ndarray, count: int) -> np.ndarray:
    """The first `count` (or more) entries of np.argsort(values, kind="stable"), without sorting all of them: the
    rows at most the count-th smallest value (ties included), in index order, sorted stably by value."""
    if count >= values.size:
        return np.argsort(values, kind="stable")
    kth = np.partition(values, count - 1)[count - 1]
    rows = np.flatnonzero(values <= kth)
    return rows[np.argsort(values[rows], kind="stable")]


def _upper_bound(directions: np.ndarray, values: np.ndarray, cloud_a: np.ndarray, cloud_b: np.ndarray,
                 count: int = 64, kept: list | None = None) -> float:
    """min of h_M over the `count` directions of smallest climbed value, each h_M taken over every vertex (an
    attained value of h_M, so at least the depth).  `kept`: a list the rows and their values of h_M are appended
    to (the final check takes them when its first block is those rows again)."""
    rows = _smallest_first(values, count)[:count]
    u = np.take(directions, rows, axis=0)
    exact = (u @ cloud_a.T).max(axis=1) + (-u @ cloud_b.T).max(axis=1)
    if kept is not None:
        kept.append((rows, exact))
    return float(exact.min())


def _kept_values(kept: list, rows: np.ndarray):
    """The values of h_M `_upper_bound` kept when it took exactly these rows in this order (the same matrix
    product: the same bits), else None."""
    if kept and np.array_equal(rows, kept[0][0]):
        return kept[0][1]
    return None


def _column_views(rows: np.ndarray) -> list:
    """The three coordinate columns of (k, 3) rows (views)."""
    return [rows[:, 0], rows[:, 1], rows[:, 2]]


def _dot3(a, b) -> np.ndarray:
    """a . b of three coordinate columns each, as `_dot` sums them."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _arc_lower_bound(p: np.ndarray, b0: np.ndarray, b1: np.ndarray, u0: np.ndarray, u1: np.ndarray) -> np.ndarray:
    """Per arc (unit ends u0, u1, shorter than pi), a number no larger than h_M anywhere on it.

    p is a point of A (an end of A's edge), b0 and b1 points of B (its supports at the ends), so m0 = p - b0 and
    m1 = p - b1 are points of M and h_M(u) >= f(u) = max(m0.u, m1.u).  Along the great circle each m.u is a
    sinusoid; on the arc the smallest f is at an end, where m0.u = m1.u (u perpendicular to b1 - b0), or at an
    interior minimum of one sinusoid (only where it is falling at u0 and rising at u1): that case gets -inf."""
    p, b0, b1, u0, u1 = (_column_views(x) for x in (p, b0, b1, u0, u1))  # 1-D coordinate columns throughout
    m0 = [pk - bk for pk, bk in zip(p, b0)]
    m1 = [pk - bk for pk, bk in zip(p, b1)]
    v0 = np.maximum(_dot3(m0, u0), _dot3(m1, u0))
    v1 = np.maximum(_dot3(m0, u1), _dot3(m1, u1))
    low = np.minimum(v0, v1)
    d = [b1k - b0k for b0k, b1k in zip(b0, b1)]
    g0, g1 = _dot3(d, u0), _dot3(d, u1)
    meet = (g0 * g1 <= 0.0) & (np.abs(g0) + np.abs(g1) > 0.0)
    if np.any(meet):  # on every row (most meet on copies), kept where they meet
        w0, w1 = np.abs(g1), np.abs(g0)
        w = [w0 * a + w1 * b for a, b in zip(u0, u1)]
        length = np.sqrt(_dot3(w, w))
        length[length == 0.0] = 1.0
        uc = [wk / length for wk in w]
        np.copyto(low, np.minimum(low, _dot3(m0, uc)), where=meet)
    # tangents of the arc at its ends, in the direction of travel
    c = _dot3(u0, u1)
    t0 = [b - c * a for a, b in zip(u0, u1)]
    t1 = [c * b - a for a, b in zip(u0, u1)]
    dip = ((_dot3(m0, t0) < 0.0) & (_dot3(m0, t1) > 0.0)) | ((_dot3(m1, t0) < 0.0) & (_dot3(m1, t1) > 0.0))
    low[dip] = -np.inf
    return low


def facet_depth(shape_a: ConvexPolytope, shape_b: ConvexPolytope):
    """Exact penetration of two convex polytopes whose Minkowski difference holds the origin (EPA's frame).

    Returns (depth, unit normal u of M at the closest boundary point, candidates checked), with depth =
    h_A(u) + h_B(-u) the minimum over M's facet normals; or None when M has too many facets for this to pay
    (see `_ARC_BUDGET`) or the climbs cost too much (see `_WORK_PER_FACET`): EPA then goes on."""
    hull_a, hull_b = shape_a._triangulation(), shape_b._triangulation()
    if hull_a is None or hull_b is None:
        return None
    # Work budget per shape: (direction, vertex) products in the climbs, and 1/`_BLAS_PRODUCTS` of those over
    # every vertex.  The facet path on the pairs it suits stays far below it (see `_WORK_PER_FACET`); a graph
    # whose climbs cost more than EPA would is cut short and EPA goes on.
    budget = _WORK_FLOOR + _WORK_PER_FACET * (hull_a.graph.triangles.shape[0] + hull_b.graph.triangles.shape[0])
    sup_a, sup_b = _Supports(shape_a, hull_a, budget), _Supports(shape_b, hull_b, budget)
    try:
        return _facet_depth(shape_a, shape_b, hull_a, hull_b, sup_a, sup_b)
    except _OverBudget:
        return None
    finally:
        _LAST_WORK[:] = [sup_a.work, sup_b.work]


def _same_shape(sup_a: _Supports, sup_b: _Supports) -> bool:
    """The two shapes' supports are the same function computed the same way: one graph (a triangulation shared by
    `_Triangulation(..., like=...)`), the same world points bit for bit, the same frame for the start table."""
    if sup_a.graph is not sup_b.graph or sup_a.points.shape != sup_b.points.shape:
        return False
    la, lb = sup_a.linear, sup_b.linear
    if (la is None) != (lb is None) or (la is not None and not np.array_equal(la, lb)):
        return False
    return bool(np.array_equal(sup_a.points, sup_b.points))


def _facet_depth(shape_a, shape_b, hull_a, hull_b, sup_a, sup_b):
    """`facet_depth` with its supports made (may raise `_OverBudget`)."""
    ga, gb = hull_a.graph, hull_b.graph
    pa, pb = sup_a.points, sup_b.points
    na = _face_normals(pa, ga.triangles)
    nb = _face_normals(pb, gb.triangles)

    # facets of A (u = n_a) and of -B (u = -n_b): each face's corner of lowest degree starts the climb on its own
    # shape (it is on the support plane already; a fan's hub there would look at all its neighbours, per row)
    rep_a = _repeats(na)
    _, ha_a = sup_a(na, _low_corner(ga))
    far_b, hb_a = _once(sup_b, -na, rep_a)
    if _same_shape(sup_a, sup_b):
        # B is A (an exact copy at A's pose): -B's facets are A's turned round, and their two climbs are the two
        # above with the roles swapped (the same climbs on the same points: the same values, bit for bit)
        ha_b, hb_b = hb_a, ha_a
    else:
        rep_b = _repeats(nb)
        if ga is gb and rep_b is None:
            # B's triangulation is A's on B's vertices (a copy: see `_Triangulation`), so a vertex index means the
            # same corner on both and the rows of nb are those of na: A's support along -nb[f] starts from B's
            # along -na[f] (on a near copy it is that vertex or next to it; a fan's repeated normals keep `_once`)
            _, ha_b = sup_a(-nb, far_b)
        else:
            _, ha_b = _once(sup_a, -nb, rep_b)
        _, hb_b = sup_b(nb, _low_corner(gb))
    directions = [na, -nb]
    values = [ha_a + hb_a, ha_b + hb_b]
    # An upper bound of the depth before the walk: the smallest facet candidates evaluated over every vertex.
    cloud_a = shape_a._world_core_vertices() + shape_a._offset
    cloud_b = shape_b._world_core_vertices() + shape_b._offset
    kept = []
    bound = _upper_bound(np.concatenate(directions), np.concatenate(values), cloud_a, cloud_b, kept=kept)
    # rounding allowed for in the arcs' lower bounds (dot products of differences of coordinates)
    slack = 64.0 * np.finfo(float).eps * (abs(bound) + 2.0 * float(np.abs(pa).max()) + 2.0 * float(np.abs(pb).max()))

    # crossing edge pairs, walking each Gauss arc of A through B's supports (far_b[f] = B's support along -n_f)
    left, right = ga.edge_faces[:, 0], ga.edge_faces[:, 1]
    take = np.take  # row gathers by np.take: faster than indexing, the same rows
    edge_vec = take(pa, ga.edges[:, 1], axis=0) - take(pa, ga.edges[:, 0], axis=0)
    edge = np.arange(ga.edges.shape[0])
    u0, u1 = take(na, left, axis=0), take(na, right, axis=0)
    chord = u1 - u0
    bent = np.einsum("ij,ij->i", chord, chord) > _FLAT_ARC * _FLAT_ARC
    if not np.all(bent):
        edge, u0, u1, chord = edge[bent], u0[bent], u1[bent], chord[bent]
    # Each arc starts and ends a hair inside: an end that is exactly a facet normal of -B (identical shapes at
    # one pose: every facet of A faces one of B) has a whole facet of B as its support, and the nudge picks the
    # vertex of that facet whose normal cone the arc enters.
    u0 = _unit_rows(u0 + _NUDGE * chord)
    u1 = _unit_rows(u1 - _NUDGE * chord)
    # B's supports along the two face normals (far_b) are points of B as well, so they bound h_M on the arc from
    # below just as the supports at its ends do: arcs already out of the running are dropped before those are
    # climbed (on copies of spheres every arc is: the climbs were half of the facet path's time at 20,000 vertices)
    near = _arc_lower_bound(take(pa, ga.edges[edge, 0], axis=0), take(pb, far_b[left[edge]], axis=0),
                            take(pb, far_b[right[edge]], axis=0), u0, u1) <= bound + slack
    edge, u0, u1 = edge[near], u0[near], u1[near]
    s0, _ = sup_b(-u0, far_b[left[edge]])
    s1, _ = sup_b(-u1, far_b[right[edge]])
    found_edges, found_b0, found_u = [], [], []
    budget = _ARC_BUDGET * ga.edges.shape[0]
    for _ in range(_MAX_HALVINGS + 1):
        walk = s0 != s1
        # arcs on which h_M stays above a depth already attained hold no facet normal that matters
        walk[walk] = _arc_lower_bound(pa[ga.edges[edge[walk], 0]], pb[s0[walk]], pb[s1[walk]], u0[walk],
                                      u1[walk]) <= bound + slack
        edge, u0, u1, s0, s1 = edge[walk], u0[walk], u1[walk], s0[walk], s1[walk]
        chord = u1 - u0
        short = np.einsum("ij,ij->i", chord, chord) < _SHORT_ARC * _SHORT_ARC
        if np.any(short):  # walked far enough: the middle stands for any crossing on it (see `_SHORT_ARC`)
            found_edges.append(edge[short])
            found_b0.append(s0[short])
            found_u.append(_unit_rows(u0[short] + u1[short]))
            keep = ~short
            edge, u0, u1, s0, s1 = edge[keep], u0[keep], u1[keep], s0[keep], s1[keep]
        if not edge.size:
            break
        if edge.size > budget:
            return None  # M has far more facets than A and B (tilted many-sided caps): EPA is cheaper here
        # Ends joined by an edge of B: the arc meets that edge's arc where u is perpendicular to both edges.  It is
        # the crossing when B's support there is still that edge; a third vertex beyond it means the arc passes
        # through that vertex's cone on the way (round a facet normal of -B just beside it): split there.
        half = np.ones(edge.size, bool)
        joined = np.flatnonzero(gb.adjacent(s0, s1))
        if joined.size:
            ea, eb = edge_vec[edge[joined]], pb[s1[joined]] - pb[s0[joined]]
            uc = _cross(ea, eb)
            length = np.sqrt(np.einsum("ij,ij->i", uc, uc))
            parallel = length <= _PARALLEL * np.sqrt(np.einsum("ij,ij->i", ea, ea) * np.einsum("ij,ij->i", eb, eb))
            uc = uc / np.where(parallel, 1.0, length)[:, None]
            a0, a1 = u0[joined], u1[joined]
            uc[np.einsum("ij,ij->i", uc, a0 + a1) < 0.0] *= -1.0
            w = _cross(a0, a1)
            between = (np.einsum("ij,ij->i", _cross(a0, uc), w) >= 0.0) & (
                np.einsum("ij,ij->i", _cross(uc, a1), w) >= 0.0)
            half[joined[parallel]] = False  # parallel edges: the arcs lie on one great circle, no facet
            look = ~parallel & between
            rows = joined[look]
            uc = uc[look]
            sc, value = sup_b(-uc, s0[rows])
            ref = -np.einsum("ij,ij->i", pb[s0[rows]], uc)
            beyond = value > ref + 64.0 * np.finfo(float).eps * (np.abs(value) + np.abs(ref))
            crossing = rows[~beyond]
            found_edges.append(edge[crossing])
            found_b0.append(s0[crossing])
            found_u.append(uc[~beyond])
            half[crossing] = False
            # a cut within `_SHORT_ARC` of an end would leave the arc as it was (seen on float32 copies, next to
            # a facet normal of -B): halved instead
            a0, a1 = a0[look][beyond], a1[look][beyond]
            inside = (np.einsum("ij,ij->i", uc[beyond] - a0, uc[beyond] - a0) >= _SHORT_ARC * _SHORT_ARC) & (
                np.einsum("ij,ij->i", uc[beyond] - a1, uc[beyond] - a1) >= _SHORT_ARC * _SHORT_ARC)
            cut = rows[beyond][inside]
            half[cut] = False
            cut_u, cut_s = uc[beyond][inside], sc[beyond][inside]
        else:
            cut, cut_u, cut_s = joined, np.zeros((0, 3)), joined
        # the others are cut into `pieces` equal chords (halved while many are left; a few arcs left, the ones
        # near the depth whose crossing is ill-conditioned, go down to `_SHORT_ARC` in a quarter of the passes)
        rows = np.flatnonzero(half)
        pieces = 2 if rows.size > _FEW_ARCS else _PIECES
        t = (np.arange(1, pieces) / pieces)[None, :, None]
        mid = (1.0 - t) * u0[rows][:, None, :] + t * u1[rows][:, None, :]  # (rows, pieces - 1, 3)
        length = np.sqrt(np.einsum("ijk,ijk->ij", mid, mid))
        keep = np.all(length > 1e-300, axis=1)  # opposite normals: no zero dihedral angle on a valid hull
        rows, mid = rows[keep], mid[keep] / length[keep][:, :, None]
        sm, _ = sup_b(-mid.reshape(-1, 3), np.repeat(s0[rows], pieces - 1))
        ends_u = np.concatenate([u0[rows][:, None, :], mid, u1[rows][:, None, :]], axis=1)
        ends_s = np.column_stack([s0[rows], sm.reshape(rows.size, pieces - 1), s1[rows]])
        edge = np.concatenate([edge[cut], edge[cut], np.repeat(edge[rows], pieces)])
        u0 = np.concatenate([u0[cut], cut_u, ends_u[:, :-1].reshape(-1, 3)])
        u1 = np.concatenate([cut_u, u1[cut], ends_u[:, 1:].reshape(-1, 3)])
        s0 = np.concatenate([s0[cut], cut_s, ends_s[:, :-1].reshape(-1)])
        s1 = np.concatenate([cut_s, s1[cut], ends_s[:, 1:].reshape(-1)])
    else:
        more = _undecided_arcs(gb, pb, edge_vec, edge, s0, s1, na[left] + na[right])
        for found, part in zip((found_edges, found_b0, found_u), more):
            found.append(part)
    if found_edges:
        e, b0, u = np.concatenate(found_edges), np.concatenate(found_b0), np.concatenate(found_u)
        _, ha = sup_a(u, ga.edges[e, 0])
        _, hb = sup_b(-u, b0)
        directions.append(u)
        values.append(ha + hb)

    directions = np.concatenate(directions)
    values = np.concatenate(values)
    # Verify the smallest candidates against every vertex of the shapes themselves (not the triangulation's
    # points), in order, until none left can beat the best verified.  Climbed values are values of real vertices,
    # never above the true support, so the order is safe.  A best candidate whose verified value exceeds its
    # climbed one by more than rounding means the triangulation misses part of the shape: not used then.
    order = _smallest_first(values, 256)  # seldom more than the first block of 64 is looked at
    best_value, best_u, best_climbed, checked = math.inf, None, math.inf, 0
    for lo in range(0, values.size, 64):
        if lo + 64 > order.size and order.size < values.size:
            order = np.argsort(values, kind="stable")  # the same order, in full
        rows = order[lo:lo + 64]
        if values[rows[0]] >= best_value:
            break
        u = directions[rows]
        exact = _kept_values(kept, rows) if lo == 0 else None
        if exact is None:
            exact = (u @ cloud_a.T).max(axis=1) + (-u @ cloud_b.T).max(axis=1)
        checked += rows.size
        k = int(exact.argmin())
        if exact[k] < best_value:
            best_value, best_u, best_climbed = float(exact[k]), u[k], float(values[rows[k]])
    if best_value - best_climbed > 64.0 * np.finfo(float).eps * (abs(best_value) + float(np.abs(cloud_a).max())
                                                                 + float(np.abs(cloud_b).max())):
        return None
    return best_value, tuple(best_u.tolist()), checked
