"""The exact penetration depth of two convex polytopes from the facet normals of their Minkowski difference.

Why: two identical or near-identical high-poly convex shapes at one pose (Shift+D in Blender) have a
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

The shapes are `ConvexPolytope`s (core/polytope.py): `PointCloud`s that also carry a checked triangulation
(core/triangulation.py); the supports are core/supports.py's.  When EPA hands a pair over is core/large_pairs.py's
policy; for two plain `PointCloud`s (raw arrays) core/hull_views.py makes such views of them, their
triangulations by core/hull.py, checked like any triangulation made later.
"""
from __future__ import annotations

import math

import numpy as np

from .rows import column_dot, row_cross, unit_rows
from .supports import OverBudget, Supports, low_corner, once, repeats
from .triangulation import Graph

__all__ = ["facet_depth"]

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
# sine ~1e-7, crossing direction found only to ~1e-9) would be halved through all the passes.
_SHORT_ARC = 1e-11
# The facet path's work budget: `_WORK_FLOOR` + this per facet of the two shapes, in gathered (direction, vertex)
# products of the climbs (see `facet_depth`).  The facet path needs 30-130 per facet on Ico Spheres, UV Spheres and
# cylinders with Blender-like faces (2,000-18,000 vertices), up to ~1,700 on qhull's fan-capped 8,192-sided
# cylinder and ~1,400 on a 1,024-sided cone (products over every vertex on a small shape).  At ~10 ns a product,
# 4,096 per facet (8 per vertex) is about what EPA spends when it must expand once per vertex (identical copies);
# past it EPA goes on.  `_LAST_WORK`: the last call's work per shape.
_WORK_PER_FACET = 4096
_WORK_FLOOR = 1 << 24
_LAST_WORK = [0, 0]


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
    return unit_rows(normal)


def _undecided_arcs(gb: Graph, pb: np.ndarray, edge_vec: np.ndarray, edge: np.ndarray, s0: np.ndarray,
                    s1: np.ndarray, bisector: np.ndarray):
    """Candidates for arcs still walked after every pass (arcs cut again and again where B's support jumps across
    a facet normal of -B, none shorter than `_SHORT_ARC`): the edges of B around the two supports are the crossed
    ones.  (edges of A, B vertices to climb from, unit directions); `bisector`: per edge of A, the sum of its two
    face normals (orients each direction).  Halved arcs never get here (they reach `_SHORT_ARC` first)."""
    out_e, out_b, out_u = [], [], []
    for s in (s0, s1):
        row, other = gb.neighbour_pairs(s)
        u = row_cross(edge_vec[edge[row]], pb[other] - pb[s[row]])
        length = np.sqrt(np.einsum("ij,ij->i", u, u))
        ok = length > 0.0
        u = u[ok] / length[ok, None]
        row = row[ok]
        u[np.einsum("ij,ij->i", u, bisector[edge[row]]) < 0.0] *= -1.0
        out_e.append(edge[row])
        out_b.append(s[row])
        out_u.append(u)
    return np.concatenate(out_e), np.concatenate(out_b), np.concatenate(out_u)


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


def column_dot(a, b) -> np.ndarray:
    """a . b of three coordinate columns each, as `row_dot` sums them."""
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
    v0 = np.maximum(column_dot(m0, u0), column_dot(m1, u0))
    v1 = np.maximum(column_dot(m0, u1), column_dot(m1, u1))
    low = np.minimum(v0, v1)
    d = [b1k - b0k for b0k, b1k in zip(b0, b1)]
    g0, g1 = column_dot(d, u0), column_dot(d, u1)
    meet = (g0 * g1 <= 0.0) & (np.abs(g0) + np.abs(g1) > 0.0)
    if np.any(meet):  # on every row (most meet on copies), kept where they meet
        w0, w1 = np.abs(g1), np.abs(g0)
        w = [w0 * a + w1 * b for a, b in zip(u0, u1)]
        length = np.sqrt(column_dot(w, w))
        length[length == 0.0] = 1.0
        uc = [wk / length for wk in w]
        np.copyto(low, np.minimum(low, column_dot(m0, uc)), where=meet)
    # tangents of the arc at its ends, in the direction of travel
    c = column_dot(u0, u1)
    t0 = [b - c * a for a, b in zip(u0, u1)]
    t1 = [c * b - a for a, b in zip(u0, u1)]
    dip = (((column_dot(m0, t0) < 0.0) & (column_dot(m0, t1) > 0.0))
           | ((column_dot(m1, t0) < 0.0) & (column_dot(m1, t1) > 0.0)))
    low[dip] = -np.inf
    return low


def facet_depth(shape_a, shape_b):
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
    sup_a, sup_b = Supports(shape_a, hull_a, budget), Supports(shape_b, hull_b, budget)
    try:
        return _facet_depth(shape_a, shape_b, hull_a, hull_b, sup_a, sup_b)
    except OverBudget:
        return None
    finally:
        _LAST_WORK[:] = [sup_a.work, sup_b.work]


def _same_shape(sup_a: Supports, sup_b: Supports) -> bool:
    """The two shapes' supports are the same function computed the same way: one graph (a triangulation shared by
    `Triangulation(..., like=...)`), the same world points bit for bit, the same frame for the start table."""
    if sup_a.graph is not sup_b.graph or sup_a.points.shape != sup_b.points.shape:
        return False
    la, lb = sup_a.linear, sup_b.linear
    if (la is None) != (lb is None) or (la is not None and not np.array_equal(la, lb)):
        return False
    return bool(np.array_equal(sup_a.points, sup_b.points))


def _facet_depth(shape_a, shape_b, hull_a, hull_b, sup_a, sup_b):
    """`facet_depth` with its supports made (may raise `OverBudget`)."""
    ga, gb = hull_a.graph, hull_b.graph
    pa, pb = sup_a.points, sup_b.points
    na = _face_normals(pa, ga.triangles)
    nb = _face_normals(pb, gb.triangles)

    # facets of A (u = n_a) and of -B (u = -n_b): each face's corner of lowest degree starts the climb on its own
    # shape (it is on the support plane already; a fan's hub there would look at all its neighbours, per row)
    rep_a = repeats(na)
    _, ha_a = sup_a(na, low_corner(ga))
    far_b, hb_a = once(sup_b, -na, rep_a)
    if _same_shape(sup_a, sup_b):
        # B is A (an exact copy at A's pose): -B's facets are A's turned round, and their two climbs are the two
        # above with the roles swapped (the same climbs on the same points: the same values, bit for bit)
        ha_b, hb_b = hb_a, ha_a
    else:
        rep_b = repeats(nb)
        if ga is gb and rep_b is None:
            # B's triangulation is A's on B's vertices (a copy: see `Triangulation`), so a vertex index means the
            # same corner on both and the rows of nb are those of na: A's support along -nb[f] starts from B's
            # along -na[f] (on a near copy it is that vertex or next to it; a fan's repeated normals keep `once`)
            _, ha_b = sup_a(-nb, far_b)
        else:
            _, ha_b = once(sup_a, -nb, rep_b)
        _, hb_b = sup_b(nb, low_corner(gb))
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
    u0 = unit_rows(u0 + _NUDGE * chord)
    u1 = unit_rows(u1 - _NUDGE * chord)
    # B's supports along the two face normals (far_b) are points of B as well, so they bound h_M on the arc from
    # below just as the supports at its ends do: arcs already out of the running are dropped before those are
    # climbed (on copies of spheres every arc is, which saves climbs that would be about half of the facet path's time)
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
            found_u.append(unit_rows(u0[short] + u1[short]))
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
            uc = row_cross(ea, eb)
            length = np.sqrt(np.einsum("ij,ij->i", uc, uc))
            parallel = length <= _PARALLEL * np.sqrt(np.einsum("ij,ij->i", ea, ea) * np.einsum("ij,ij->i", eb, eb))
            uc = uc / np.where(parallel, 1.0, length)[:, None]
            a0, a1 = u0[joined], u1[joined]
            uc[np.einsum("ij,ij->i", uc, a0 + a1) < 0.0] *= -1.0
            w = row_cross(a0, a1)
            between = (np.einsum("ij,ij->i", row_cross(a0, uc), w) >= 0.0) & (
                np.einsum("ij,ij->i", row_cross(uc, a1), w) >= 0.0)
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
