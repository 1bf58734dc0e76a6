"""Vectorised exact triangle geometry in float64: closest points and crossing segments for k pairs at once.

Every function takes stacked arrays (k, 3) and loops over nothing but the fixed features of a triangle pair.

- `point_triangle(p, a, b, c)`: the closest point of each triangle to each point.  The interior candidate (the
  projection onto the plane when it falls inside) is only used for a non-degenerate triangle; the three edges are
  always candidates, so a zero-area triangle is treated as the segment or point it is.
- `segment_segment(p1, q1, p2, q2)`: closest points of two segments (clamped parameters; a zero-length segment
  is a point; parallel segments take a valid pair among the equals).
- `triangle_triangle(A, B)`: distance and closest points of two triangles: the minimum over the 6 vertex-triangle
  and 9 edge-edge pairs, plus, for each of the 6 edges that has its ends on both sides of the other triangle's
  plane, the point where it meets that plane against the other triangle (this catches piercing pairs, whose
  distance is 0 though no vertex or edge pair is close).  Every candidate is a real pair of points, so the
  minimum is an upper bound that equals the distance.
- `crossing(A, B, on)`: which pairs cross, and the crossing segment.  Two triangles cross when each one has
  corners strictly on both sides of the other's plane and the two intervals where they meet the common line
  overlap with positive length.  A corner within `on` (world units) of the other plane counts as lying on the
  positive side (the side the plane's normal points to): a consistent choice, as if every surface were moved
  inwards by an infinitesimal amount, so surfaces that only touch (face on face, edge or vertex on face, coplanar
  overlap) never cross, and a surface that passes through another exactly along its mesh edges still crosses
  in one of the two triangles around that edge.  Coplanar pairs never cross (their overlap is a touching
  contact at distance 0).  Degenerate triangles never cross.
- `crossing_indexed(PA, PB, ia, ib, on)`: `crossing` on the pairs (ia, ib) of two triangle sets prepared once as
  columns (`Planes`: corners, unit normals, edge lengths), the same arithmetic on every number, so the same mask
  and the same segments bit for bit, without gathering (k, 3, 3) corners per pair.
"""
from __future__ import annotations

import numpy as np

from ..rows import row_cross, row_dot

__all__ = ["point_triangle", "segment_segment", "triangle_triangle", "crossing", "crossing_indexed", "Planes"]


def _cross_columns(u, v):
    """`row_cross` on coordinate-first arrays (3, ...): the same products and differences."""
    return np.stack([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]])


POINT_ROWS = 512
"""`point_triangle` takes the three edges at once up to this many rows (fewer numpy calls); beyond, one edge at a
time (`_point_triangle_by_edge`: smaller temporaries, faster per row).  Both give the same bits."""


def point_triangle(p, a, b, c):
    """Closest point of triangles abc to points p, (k, 3); robust to degenerate triangles.  Row by row: a row's
    answer does not depend on the other rows (callers stack unrelated queries into one call).  Each edge is taken
    from its lower end (`_lower_end_flip`): the two triangles sharing an edge give the same point on it.  Up to
    POINT_ROWS rows the work runs on coordinate columns, the three edges at once as (coordinate, edge, k) arrays
    (each number as `row_dot` and `row_cross` on one edge give it); the closest edge point is then taken edge by
    edge, ab first."""
    if p.shape[0] > POINT_ROWS:
        return _point_triangle_by_edge(p, a, b, c)
    P = np.ascontiguousarray(p.T)  # (coordinate, k)
    corners = np.concatenate([a.T[:, None], b.T[:, None], c.T[:, None]], axis=1)  # (coordinate, corner, k)
    ends = corners.take(_NEXT_CORNER, axis=1)
    edges = ends - corners  # ab, bc, ca
    rels = P[:, None] - corners  # pa, pb, pc
    # each edge run from its lower end (`_lower_end_flip`): end - start is -(start - end) exactly (where no edge
    # turns, the choices below take every number as it is)
    gt, eq = corners > ends, corners == ends
    flip = gt[0] | (eq[0] & (gt[1] | (eq[1] & gt[2])))  # (edge, k)
    start = np.where(flip, ends, corners)
    edge = np.where(flip, -edges, edges)
    rel = np.where(flip, rels.take(_NEXT_CORNER, axis=1), rels)
    square = edge * edge
    denom = square[0] + square[1]
    denom += square[2]  # (edge, k)
    positive = denom > 0.0
    rel *= edge
    t = rel[0] + rel[1]
    t += rel[2]
    t /= np.where(positive, denom, 1.0)
    t = _clip01(np.where(positive, t, 0.0))
    q = t * edge
    q = np.add(start, q, out=q)
    off = P[:, None] - q
    off *= off
    d = off[0] + off[1]
    d += off[2]
    closer1 = d[1] < d[0]
    best_d = np.where(closer1, d[1], d[0])
    closer2 = d[2] < best_d
    best = np.where(closer2, q[:, 2], np.where(closer1, q[:, 1], q[:, 0]))
    n = _cross_rolled(edges[:, 0], corners[:, 2] - corners[:, 0])  # ab x (c - a)
    square = n * n
    nn = square[0] + square[1]
    nn += square[2]
    scale2 = np.maximum(np.maximum(denom[0], denom[1]), denom[2])
    proper = nn > 1e-24 * scale2 * scale2
    turn = _cross_rolled(edges, rels)  # ab x pa, bc x pb, ca x pc
    np.multiply(n[:, None], turn, out=turn)  # n first, as `row_dot(n, ...)` (which NaN a product keeps)
    side = turn[0] + turn[1]
    side += turn[2]
    side = side >= 0.0  # (edge, k)
    inside = side[0] & side[1]
    inside &= side[2]
    inside &= proper
    if inside.any():
        best_d = np.where(closer2, d[2], best_d)
        pa = rels[:, 0] * n
        t = pa[0] + pa[1]
        t += pa[2]
        t /= np.where(proper, nn, 1.0)
        q = P - t * n
        off = P - q
        off *= off
        d = off[0] + off[1]
        d += off[2]
        use = d < best_d
        use &= inside
        best = np.where(use, q, best)
    return np.ascontiguousarray(best.T)


def _point_triangle_by_edge(p, a, b, c):
    """`point_triangle` one edge at a time on (k, 3) rows (the same numbers)."""
    ab, bc, ca = b - a, c - b, a - c
    pa, pb, pc = p - a, p - b, p - c
    best = best_d = None
    lengths = []
    for start, end, edge, rel, rel_end in ((a, b, ab, pa, pb), (b, c, bc, pb, pc), (c, a, ca, pc, pa)):
        flip = _lower_end_flip(start, end)
        if flip is not None:  # run from the other end: end - start is -(start - end) exactly
            f = flip[:, None]
            start, edge, rel = np.where(f, end, start), np.where(f, -edge, edge), np.where(f, rel_end, rel)
        denom = row_dot(edge, edge)
        lengths.append(denom)
        t = np.where(denom > 0.0, row_dot(rel, edge) / np.where(denom > 0.0, denom, 1.0), 0.0)
        q = start + np.clip(t, 0.0, 1.0)[:, None] * edge
        off = p - q
        d = row_dot(off, off)
        if best is None:
            best, best_d = q, d
            continue
        closer = d < best_d
        best = np.where(closer[:, None], q, best)
        best_d = np.where(closer, d, best_d)
    n = row_cross(ab, c - a)
    nn = row_dot(n, n)
    scale2 = np.maximum(np.maximum(lengths[0], lengths[1]), lengths[2])
    proper = nn > 1e-24 * scale2 * scale2
    inside = (proper & (row_dot(n, row_cross(ab, pa)) >= 0.0) & (row_dot(n, row_cross(bc, pb)) >= 0.0)
              & (row_dot(n, row_cross(ca, pc)) >= 0.0))
    if np.any(inside):
        t = row_dot(pa, n) / np.where(proper, nn, 1.0)
        q = p - t[:, None] * n
        off = p - q
        d = row_dot(off, off)
        use = inside & (d < best_d)
        best = np.where(use[:, None], q, best)
    return best


def _segment_parameters(a, b, c, e, f):
    """The clamped parameters (s, t) of two segments' closest points from the products a = d1.d1, b = d1.d2,
    c = d1.r, e = d2.d2, f = d2.r (r = p1 - p2), element by element on arrays of any one shape: a zero-length
    segment is a point, parallel segments take a valid pair among the equals."""
    denom = a * e - b * b
    safe_a = np.where(a > 0.0, a, 1.0)
    safe_e = np.where(e > 0.0, e, 1.0)
    general = denom > 1e-14 * a * e
    s = np.where(general, np.clip((b * f - c * e) / np.where(general, denom, 1.0), 0.0, 1.0), 0.0)
    s = np.where(a > 0.0, s, 0.0)
    t = np.where(e > 0.0, (b * s + f) / safe_e, 0.0)
    low = t < 0.0
    high = t > 1.0
    t = np.clip(t, 0.0, 1.0)
    s = np.where(low & (a > 0.0), np.clip(-c / safe_a, 0.0, 1.0), s)
    s = np.where(high & (a > 0.0), np.clip((b - c) / safe_a, 0.0, 1.0), s)
    return s, t


def segment_segment(p1, q1, p2, q2):
    """Closest points (x1 on p1q1, x2 on p2q2) of k segment pairs."""
    d1 = q1 - p1
    d2 = q2 - p2
    r = p1 - p2
    a = row_dot(d1, d1)
    e = row_dot(d2, d2)
    f = row_dot(d2, r)
    c = row_dot(d1, r)
    b = row_dot(d1, d2)
    s, t = _segment_parameters(a, b, c, e, f)
    return p1 + s[:, None] * d1, p2 + t[:, None] * d2


TRIANGLE_PAIRS = 512
"""`triangle_triangle` runs at most this many pairs per block (its (3, 6, 3, 2k) temporaries stay small)."""


def triangle_triangle(A, B):
    """Distance and closest points of k triangle pairs.  A, B: (k, 3, 3) corners.  Returns (dist, xa, xb).

    Both triangles of every pair go through one set of coordinate-first columns (`_triangle_pairs`), so each step
    runs once over all pairs whatever k; blocks of TRIANGLE_PAIRS pairs beyond."""
    k = A.shape[0]
    if k == 0:
        return np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3))
    if k > TRIANGLE_PAIRS:
        parts = [_triangle_pairs(A[i:i + TRIANGLE_PAIRS], B[i:i + TRIANGLE_PAIRS])
                 for i in range(0, k, TRIANGLE_PAIRS)]
        return tuple(np.concatenate([p[j] for p in parts]) for j in range(3))
    return _triangle_pairs(A, B)


def _triangle_pairs(A, B):
    """`triangle_triangle` on one block.  The candidates are those of the module docstring, each number with the
    arithmetic `point_triangle` and `segment_segment` give it on (k, 3) rows (tests/core/test_tritri_pairs_columns.py
    writes the candidates out that way, one feature at a time), so the bits are theirs; what a triangle's own
    corners give (its edges taken from their lower ends, its normal, their lengths) is computed once per triangle
    instead of once per candidate.

    Layout: m = 2k triangles, A's then B's, as coordinate-first columns C[x, corner, triangle]; triangle j's
    partner (the other triangle of its pair) is O[:, :, j].  The cost of a call is mostly its count of numpy
    calls (~1 us each on small blocks), so the steps run on as few, wide arrays as they can: the three products
    of a dot product in one multiplication, cross products from coordinate-rolled copies (`_ROLL`), several
    comparisons stacked in one array.  Every number is still the product, sum or quotient the row kernels
    round (the sums in x, y, z order), so the bits do not change."""
    k = A.shape[0]
    m = 2 * k
    X = np.concatenate([A.T, B.T, A.T], axis=2)  # (coordinate, corner, 3k): A, B, A
    X1 = X.take(_NEXT_CORNER, axis=1)  # each edge's other end
    EX = X1 - X  # (coordinate, edge, 3k): c1 - c0, c2 - c1, c0 - c2
    C, C1, E = X[:, :, :m], X1[:, :, :m], EX[:, :, :m]
    O, EO = X[:, :, k:], EX[:, :, k:]  # the partners: B, A
    # each edge from its lower end (x, then y, then z), as `point_triangle` and `segment_segment`'s callers take it
    gt, eq = C > C1, C == C1
    flip = gt[0] | (eq[0] & (gt[1] | (eq[1] & gt[2])))  # (edge, m): `_lower_end_flip_columns(C, C1)`
    start = np.where(flip, C1, C)
    edge = np.where(flip, -E, E)  # as `point_triangle` turns it
    run = np.where(flip, C - C1, E)  # as the lower end's segment gives it to `segment_segment` (0 is +0 here)
    sq = edge * edge
    length2 = sq[0] + sq[1]
    length2 += sq[2]  # (edge, m)
    positive = length2 > 0.0
    safe = np.where(positive, length2, 1.0)
    n = _cross_rolled(E[:, 0], C[:, 2] - C[:, 0])  # (coordinate, m)
    # the partner's corners against this triangle's plane: where its edges pierce it, if they do (else their start)
    h = (O - C[:, :1]) * n[:, None]
    sp = h[0] + h[1]
    sp += h[2]  # (edge of the partner, m): its start corner's height
    sq = sp.take(_NEXT_CORNER, axis=0)  # its end corner's
    signs = np.empty((2,) + sp.shape, bool)
    np.less_equal(sp, 0.0, out=signs[0])
    np.greater_equal(sp, 0.0, out=signs[1])
    ends = signs[::-1].take(_NEXT_CORNER, axis=1)  # (sq >= 0, sq <= 0)
    ends &= signs  # (sp <= 0 & sq >= 0, sp >= 0 & sq <= 0)
    mask = ends[0] | ends[1]
    mask &= sp != sq
    t = np.where(mask, sp / np.where(mask, sp - sq, 1.0), 0.0)
    # the closest point of this triangle to 6 points: the partner's corners and its piercing points
    P = np.empty((3, 6, m))
    P[:, :3] = O
    pierce = P[:, 3:]
    np.multiply(t, EO, out=pierce)
    np.add(O, pierce, out=pierce)  # (coordinate, edge of the partner, m)
    Q = P[:, :, None]  # (coordinate, query, 1, m)
    rels = Q - C[:, None]  # (coordinate, query, corner, m): p - c0, p - c1, p - c2
    rel = Q - start[:, None]  # p - each edge's start
    rel *= edge[:, None]
    t = rel[0] + rel[1]
    t += rel[2]
    t /= safe
    t = _clip01(np.where(positive, t, 0.0))
    t = t * edge[:, None]
    q = np.add(start[:, None], t, out=t)  # (coordinate, query, edge, m)
    off = Q - q
    off *= off
    d = off[0] + off[1]
    d += off[2]  # (query, edge, m)
    d0, d1, d2 = d[:, 0], d[:, 1], d[:, 2]
    closer1 = d1 < d0
    best_d = np.where(closer1, d1, d0)
    closer2 = d2 < best_d
    best = np.where(closer2, q[:, :, 2], np.where(closer1, q[:, :, 1], q[:, :, 0]))
    nn = n * n
    nn = nn[0] + nn[1] + nn[2]
    scale2 = np.maximum(np.maximum(length2[0], length2[1]), length2[2])
    proper = nn > 1e-24 * scale2 * scale2
    turn = _cross_rolled(E[:, None], rels)  # (coordinate, query, edge, m): c1c0 x pc0, ...
    np.multiply(n[:, None, None], turn, out=turn)  # n first, as the row form (which NaN a product keeps)
    side = turn[0] + turn[1]
    side += turn[2]
    side = side >= 0.0
    inside = side[:, 0] & side[:, 1]
    inside &= side[:, 2]
    inside &= proper  # (query, m)
    if inside.any():
        best_d = np.where(closer2, d2, best_d)
        pa = rels[:, :, 0] * n[:, None]
        t = pa[0] + pa[1]
        t += pa[2]
        t /= np.where(proper, nn, 1.0)
        q = P - t * n[:, None]
        off = P - q
        off *= off
        d = off[0] + off[1]
        d += off[2]
        use = d < best_d
        use &= inside
        best = np.where(use, q, best)
    # edge i of A against edge j of B (i major), each from its lower end (`segment_segment`)
    p1, d1 = start[:, :, None, :k], run[:, :, None, :k]
    p2, d2 = start[:, None, :, k:], run[:, None, :, k:]
    r = p1 - p2
    prod = np.empty((3, 3, 3, 3, k))  # (coordinate, product, edge of A, edge of B, pair)
    np.multiply(d2, r, out=prod[:, 0])
    np.multiply(d1, r, out=prod[:, 1])
    np.multiply(d1, d2, out=prod[:, 2])
    dots = prod[0] + prod[1]
    dots += prod[2]
    s, t = _segment_parameters_pairs(length2[:, None, :k], dots[2], dots[1], length2[None, :, k:], dots[0],
                                     positive[:, None, :k], safe[:, None, :k], positive[None, :, k:],
                                     safe[None, :, k:])
    s1 = (p1 + s * d1).reshape(3, 9, k)
    s2 = (p2 + t * d2).reshape(3, 9, k)
    # the 21 candidates in the module docstring's order: A's corners, B's corners, the edge pairs, A's piercing
    # edges, B's piercing edges (a pair's first closest candidate is taken)
    on_a = np.concatenate([C[:, :, :k], best[:, :3, :k], s1, pierce[:, :, k:], best[:, 3:, :k]], axis=1)
    on_b = np.concatenate([best[:, :3, k:], C[:, :, k:], s2, best[:, 3:, k:], pierce[:, :, :k]], axis=1)
    diff = on_a - on_b
    diff *= diff
    d2 = diff[0] + diff[1]
    d2 += diff[2]  # (candidate, k)
    pick = np.argmin(d2, axis=0)
    cols = np.arange(k)
    xa, xb = on_a.transpose(1, 2, 0)[pick, cols], on_b.transpose(1, 2, 0)[pick, cols]
    return np.sqrt(d2[pick, cols]), xa, xb


_NEXT_CORNER = np.array([1, 2, 0])
_ROLL = np.array([1, 2, 0, 2, 0, 1])
"""Coordinates y, z, x then z, x, y: u.take(_ROLL, axis=0) gives the two rolled copies a cross product takes."""


def _cross_rolled(u, v):
    """`_cross_columns(u, v)` (broadcast, coordinate-first) from the rolled copies of u and v: the same two products
    and one difference per coordinate, in five numpy calls instead of ten."""
    ur, vr = u.take(_ROLL, axis=0), v.take(_ROLL, axis=0)
    out = ur[:3] * vr[3:]  # uy vz, uz vx, ux vy
    out -= ur[3:] * vr[:3]  # uz vy, ux vz, uy vx
    return out


try:  # the clip ufunc itself: np.clip's own checks cost as much as the clipping on small arrays
    from numpy._core.umath import clip as _clip_ufunc
except ImportError:  # numpy < 2
    from numpy.core.umath import clip as _clip_ufunc


def _clip01(x):
    """np.clip(x, 0.0, 1.0) (the same ufunc, called directly)."""
    return _clip_ufunc(x, 0.0, 1.0)


def _segment_parameters_pairs(a, b, c, e, f, a_positive, safe_a, e_positive, safe_e):
    """`_segment_parameters(a, b, c, e, f)` with a > 0, where(a > 0, a, 1), e > 0, where(e > 0, e, 1) given
    (computed once per edge), in fewer numpy calls, the same numbers: its `where(a > 0, s, 0)` changes nothing
    (a = 0 or NaN makes `general` false, so s is 0 already), and its two end corrections (t < 0, t > 1: never
    both) share one division and one clip."""
    denom = a * e - b * b
    general = denom > 1e-14 * a * e
    s = b * f
    s -= c * e
    s /= np.where(general, denom, 1.0)
    s = np.where(general, _clip01(s), 0.0)
    t = b * s
    t += f
    t /= safe_e
    t = np.where(e_positive, t, 0.0)
    low = t < 0.0
    high = t > 1.0
    t = _clip01(t)
    end = np.where(low, -c, b - c)
    end /= safe_a
    high |= low
    high &= a_positive
    s = np.where(high, _clip01(end), s)
    return s, t


def _lower_end_flip_columns(p, q):
    """`_lower_end_flip` on coordinate-first arrays (3, ...)."""
    return (p[0] > q[0]) | ((p[0] == q[0]) & ((p[1] > q[1]) | ((p[1] == q[1]) & (p[2] > q[2]))))


def _lower_end_flip(p, q):
    """Rows (..., ) where q is the lower end of segment pq (..., 3) (ends compared by x, then y, then z), or None if
    none is."""
    flip = _lower_end_flip_columns(np.moveaxis(p, -1, 0), np.moveaxis(q, -1, 0))
    return flip if np.any(flip) else None


SEPARATION_ROWS = 8192
"""`separation_bound` runs its 17 axes at once on at most this many pairs per block (the (17, k, 3) temporaries
stay small)."""


def separation_bound(A, B):
    """A lower bound of the distance of k triangle pairs: the largest gap between their projections on the
    two normals, the nine edge-edge cross products and the six in-plane edge normals (separating axes).  It
    equals the distance whenever the closest points are a vertex and a face interior or two edge interiors, and
    parts coplanar pairs; several times cheaper than `triangle_triangle`, it screens candidates before the exact
    kernel.  0 for pairs that overlap on every axis.  The 17 axes run at once, coordinate by coordinate as
    (17, k) arrays (each number as an axis by itself with `row_dot` and `row_cross` gives it); the largest gap
    is then taken axis by axis in the order above."""
    k = A.shape[0]
    if k > SEPARATION_ROWS:
        return np.concatenate([separation_bound(A[i:i + SEPARATION_ROWS], B[i:i + SEPARATION_ROWS])
                               for i in range(0, k, SEPARATION_ROWS)])
    a = np.ascontiguousarray(A.transpose(2, 1, 0))  # (coordinate, corner, k)
    b = np.ascontiguousarray(B.transpose(2, 1, 0))
    ea = a[:, [1, 2, 0]] - a  # (coordinate, edge, k): A1 - A0, A2 - A1, A0 - A2
    eb = b[:, [1, 2, 0]] - b
    na, nb = _cross_columns(ea[:, 0], -ea[:, 2]), _cross_columns(eb[:, 0], -eb[:, 2])
    w = np.empty((3, 17, k))
    w[:, 0], w[:, 1] = na, nb
    w[:, 2:11] = _cross_columns(ea[:, :, None], eb[:, None, :]).reshape(3, 9, k)  # edge i of A x edge j of B
    # the edges' normals within each triangle's plane: they part coplanar pairs (faces lying on each other),
    # where the normals and the edge cross products are all one direction
    w[:, 11:14] = _cross_columns(na[:, None], ea)
    w[:, 14:17] = _cross_columns(nb[:, None], eb)
    length = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    ok = length > 0.0
    w /= np.where(ok, length, 1.0)
    pa = [a[0, i] * w[0] + a[1, i] * w[1] + a[2, i] * w[2] for i in range(3)]  # (17, k) each
    pb = [b[0, i] * w[0] + b[1, i] * w[1] + b[2, i] * w[2] for i in range(3)]
    lo_a, hi_a = np.minimum(np.minimum(pa[0], pa[1]), pa[2]), np.maximum(np.maximum(pa[0], pa[1]), pa[2])
    lo_b, hi_b = np.minimum(np.minimum(pb[0], pb[1]), pb[2]), np.maximum(np.maximum(pb[0], pb[1]), pb[2])
    gap = np.where(ok, np.maximum(lo_b - hi_a, lo_a - hi_b), 0.0)
    best = np.zeros(k)
    for g in gap:
        best = np.maximum(best, g)
    return best


def _side_interval(T, s, positive):
    """For triangles T (k,3,3) with signed distances s (k,3) to a plane and sides `positive` (k,3 bool), the
    two points where the triangle meets the plane (the edges from the lone-side corner)."""
    k = T.shape[0]
    rows = np.arange(k)
    count = positive.sum(axis=1)
    # the lone corner is the one whose side differs from the other two
    lone = np.where(count == 1, np.argmax(positive, axis=1), np.argmin(positive, axis=1))
    i1 = (lone + 1) % 3
    i2 = (lone + 2) % 3
    s = np.where(positive, np.maximum(s, 0.0), s).reshape(-1)  # corners counted positive are on or above it
    corners = T.reshape(-1, 3)
    base = 3 * rows  # flat indices: one gather per array instead of a (row, column) pair
    sl = s[base + lone]
    pl = corners[base + lone]
    points = []
    for other in (i1, i2):
        so = s[base + other]
        denom = sl - so
        t = np.where(denom != 0.0, sl / np.where(denom != 0.0, denom, 1.0), 0.0)
        po = corners[base + other]
        points.append(pl + t[:, None] * (po - pl))
    return points


def _against_plane(T, P, on: float):
    """Triangles P (k,3,3) against the planes of triangles T (k,3,3): (T's unit normals (k,3), their lengths before
    normalising (k,), the heights of P's corners over T's planes measured from T's first corner (k,3), which
    corners count as on the positive side (height >= -on), which P straddle the plane)."""
    t0 = T[:, 0]
    n = row_cross(T[:, 1] - t0, T[:, 2] - t0)
    length = np.sqrt(row_dot(n, n))
    n = n / np.where(length > 0.0, length, 1.0)[:, None]
    heights = np.stack([row_dot(P[:, j] - t0, n) for j in range(3)], axis=1)
    positive = heights >= -on
    return n, length, heights, positive, positive.any(axis=1) & ~positive.all(axis=1)


def crossing(A, B, on: float):
    """Which of k triangle pairs cross, and their crossing segments.  Returns (mask (k,), segments (j, 2, 3))."""
    k = A.shape[0]
    mask = np.zeros(k, bool)
    if k == 0:
        return mask, np.zeros((0, 2, 3))
    # B's corners against A's plane first, on every pair: most pairs of surfaces in contact stop here; the rest
    # of the test runs on the pairs where B straddles A's plane
    na, la, sb, pos_b, straddle_b = _against_plane(A, B, on)
    idx = np.flatnonzero(straddle_b)
    A, B, na, la, sb, pos_b = A[idx], B[idx], na[idx], la[idx], sb[idx], pos_b[idx]
    nb, lb, sa, pos_a, straddle_a = _against_plane(B, A, on)
    ea = np.sqrt(np.maximum(np.maximum(row_dot(A[:, 1] - A[:, 0], A[:, 1] - A[:, 0]),
                                       row_dot(A[:, 2] - A[:, 1], A[:, 2] - A[:, 1])),
                            row_dot(A[:, 0] - A[:, 2], A[:, 0] - A[:, 2])))
    eb = np.sqrt(np.maximum(np.maximum(row_dot(B[:, 1] - B[:, 0], B[:, 1] - B[:, 0]),
                                       row_dot(B[:, 2] - B[:, 1], B[:, 2] - B[:, 1])),
                            row_dot(B[:, 0] - B[:, 2], B[:, 0] - B[:, 2])))
    proper = (la > 1e-12 * ea * ea) & (lb > 1e-12 * eb * eb)
    keep = np.flatnonzero(proper & straddle_a)
    idx = idx[keep]
    mask[idx] = True
    if idx.size == 0:
        return mask, np.zeros((0, 2, 3))
    A_, B_, na, nb, sa, sb, pos_a, pos_b, ea, eb = (x[keep] for x in (A, B, na, nb, sa, sb, pos_a, pos_b, ea, eb))
    pa = _side_interval(A_, sa, pos_a)
    pb = _side_interval(B_, sb, pos_b)
    line = row_cross(na, nb)
    # each triangle's interval on the common line: its two points ordered by their parameter (first on ties)
    ta0, ta1 = row_dot(pa[0], line), row_dot(pa[1], line)
    tb0, tb1 = row_dot(pb[0], line), row_dot(pb[1], line)
    first_lo_a, first_hi_a = (ta0 <= ta1)[:, None], (ta0 >= ta1)[:, None]
    first_lo_b, first_hi_b = (tb0 <= tb1)[:, None], (tb0 >= tb1)[:, None]
    lo_a, hi_a = np.minimum(ta0, ta1), np.maximum(ta0, ta1)
    lo_b, hi_b = np.minimum(tb0, tb1), np.maximum(tb0, tb1)
    lo_from_a = lo_a >= lo_b
    hi_from_a = hi_a <= hi_b
    lo = np.where(lo_from_a, lo_a, lo_b)
    hi = np.where(hi_from_a, hi_a, hi_b)
    start = np.where(lo_from_a[:, None], np.where(first_lo_a, pa[0], pa[1]), np.where(first_lo_b, pb[0], pb[1]))
    end = np.where(hi_from_a[:, None], np.where(first_hi_a, pa[0], pa[1]), np.where(first_hi_b, pb[0], pb[1]))
    length_scale = np.sqrt(row_dot(line, line)) * np.maximum(ea, eb)
    real = hi - lo > 1e-13 * length_scale
    mask[idx[~real]] = False
    segments = np.stack([start[real], end[real]], axis=1)
    return mask, segments


class Planes:
    """Per-triangle columns of m triangles (m, 3, 3) for `crossing_indexed`: the nine corner coordinates (views of
    T), the unit normal (as `crossing` computes it from the first corner), the normal's length and the longest
    edge, each an (m,) array (gathering single columns is several times faster than gathering rows of (m, 3, 3))."""

    __slots__ = ("corner", "normal", "length", "edge")

    def __init__(self, T: np.ndarray):
        # corner[i][axis]: coordinate `axis` of corner i (a strided view: gathers from it are as fast)
        self.corner = [[T[:, i, axis] for axis in range(3)] for i in range(3)]
        c0, c1, c2 = self.corner
        u = [c1[x] - c0[x] for x in range(3)]
        v = [c2[x] - c0[x] for x in range(3)]
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        la = np.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
        safe = np.where(la > 0.0, la, 1.0)
        self.normal = [n[x] / safe for x in range(3)]
        self.length = la
        e = []
        for p, q in ((c1, c0), (c2, c1), (c0, c2)):
            d = [p[x] - q[x] for x in range(3)]
            e.append(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        self.edge = np.sqrt(np.maximum(np.maximum(e[0], e[1]), e[2]))


def _heights(corner, idx, base, normal):
    """Signed distances (three (k,) arrays) of the gathered corners to the planes through `base` with `normal`
    (lists of three (k,) arrays), with the arithmetic of `crossing` (the corner minus the base, then the dot)."""
    out = []
    for c in corner:
        d = [c[x][idx] - base[x] for x in range(3)]
        out.append(d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2])
    return out


def _interval_columns(corner, s, positive):
    """`_side_interval` on columns: corner[i][axis] (k,) arrays, s and positive lists of three (k,) arrays.
    Returns the two points, each a list of three (k,) arrays."""
    p0, p1, p2 = positive
    count = p0.astype(np.int8) + p1 + p2
    # the lone corner (whose side differs from the other two): the positive one when one is positive, else the
    # negative one; argmax/argmin take the first on ties, as `_side_interval` does
    lone_pos = np.where(p0, 0, np.where(p1, 1, 2))
    lone_neg = np.where(~p0, 0, np.where(~p1, 1, 2))
    lone = np.where(count == 1, lone_pos, lone_neg)
    s = [np.where(p, np.maximum(si, 0.0), si) for p, si in zip(positive, s)]
    is0, is1, is2 = lone == 0, lone == 1, lone == 2

    def pick(values, which0, which1):
        return np.where(which0, values[0], np.where(which1, values[1], values[2]))

    sl = pick(s, is0, is1)
    pl = [pick([corner[0][x], corner[1][x], corner[2][x]], is0, is1) for x in range(3)]
    points = []
    # the corner after the lone one is corner 0 where the lone one is 2, corner 1 where it is 0; the next after
    # that is corner 0 where the lone one is 1, corner 1 where it is 2
    for o0, o1 in ((is2, is0), (is1, is2)):
        so = pick(s, o0, o1)
        denom = sl - so
        nz = denom != 0.0
        t = np.where(nz, sl / np.where(nz, denom, 1.0), 0.0)
        points.append([pl[x] + t * (pick([corner[0][x], corner[1][x], corner[2][x]], o0, o1) - pl[x])
                       for x in range(3)])
    return points


def crossing_indexed(PA: Planes, PB: Planes, ia: np.ndarray, ib: np.ndarray, on: float):
    """`crossing(TA[ia], TB[ib], on)` for the triangles TA, TB behind `PA`, `PB`, with the same arithmetic on every
    number (the same mask and bit for bit the same segments), on gathered columns instead of (k, 3, 3) rows.
    Returns (mask (k,), segments (j, 2, 3))."""
    k = ia.shape[0]
    mask = np.zeros(k, bool)
    if k == 0:
        return mask, np.zeros((0, 2, 3))
    na = [PA.normal[x][ia] for x in range(3)]
    a0 = [PA.corner[0][x][ia] for x in range(3)]
    sb = _heights(PB.corner, ib, a0, na)
    pos_b = [s >= -on for s in sb]
    straddle_b = (pos_b[0] | pos_b[1] | pos_b[2]) & ~(pos_b[0] & pos_b[1] & pos_b[2])
    idx = np.flatnonzero(straddle_b)
    ja, jb = ia[idx], ib[idx]
    na = [x[idx] for x in na]
    sb = [x[idx] for x in sb]
    pos_b = [x[idx] for x in pos_b]
    nb = [PB.normal[x][jb] for x in range(3)]
    b0 = [PB.corner[0][x][jb] for x in range(3)]
    sa = _heights(PA.corner, ja, b0, nb)
    pos_a = [s >= -on for s in sa]
    straddle_a = (pos_a[0] | pos_a[1] | pos_a[2]) & ~(pos_a[0] & pos_a[1] & pos_a[2])
    la, lb = PA.length[ja], PB.length[jb]
    ea, eb = PA.edge[ja], PB.edge[jb]
    proper = (la > 1e-12 * ea * ea) & (lb > 1e-12 * eb * eb)
    keep = np.flatnonzero(proper & straddle_a)
    idx = idx[keep]
    mask[idx] = True
    if idx.size == 0:
        return mask, np.zeros((0, 2, 3))
    ja, jb = ja[keep], jb[keep]
    na, nb = [x[keep] for x in na], [x[keep] for x in nb]
    sa, sb = [x[keep] for x in sa], [x[keep] for x in sb]
    pos_a, pos_b = [x[keep] for x in pos_a], [x[keep] for x in pos_b]
    ea, eb = ea[keep], eb[keep]
    ca = [[PA.corner[i][x][ja] for x in range(3)] for i in range(3)]
    cb = [[PB.corner[i][x][jb] for x in range(3)] for i in range(3)]
    pa = _interval_columns(ca, sa, pos_a)
    pb = _interval_columns(cb, sb, pos_b)
    line = [na[1] * nb[2] - na[2] * nb[1], na[2] * nb[0] - na[0] * nb[2], na[0] * nb[1] - na[1] * nb[0]]

    def along(p):
        return p[0] * line[0] + p[1] * line[1] + p[2] * line[2]

    ta0, ta1 = along(pa[0]), along(pa[1])
    tb0, tb1 = along(pb[0]), along(pb[1])
    lo_a, hi_a = np.minimum(ta0, ta1), np.maximum(ta0, ta1)
    lo_b, hi_b = np.minimum(tb0, tb1), np.maximum(tb0, tb1)
    length_scale = np.sqrt(line[0] * line[0] + line[1] * line[1] + line[2] * line[2]) * np.maximum(ea, eb)
    real = np.where(hi_a <= hi_b, hi_a, hi_b) - np.where(lo_a >= lo_b, lo_a, lo_b) > 1e-13 * length_scale
    mask[idx[~real]] = False
    r = np.flatnonzero(real)
    if r.size == 0:
        return mask, np.zeros((0, 2, 3))
    ta0, ta1, tb0, tb1 = ta0[r], ta1[r], tb0[r], tb1[r]
    lo_from_a = np.minimum(ta0, ta1) >= np.minimum(tb0, tb1)
    hi_from_a = np.maximum(ta0, ta1) <= np.maximum(tb0, tb1)
    segments = np.empty((r.size, 2, 3))
    for x in range(3):
        a_lo = np.where(ta0 <= ta1, pa[0][x][r], pa[1][x][r])
        a_hi = np.where(ta0 >= ta1, pa[0][x][r], pa[1][x][r])
        b_lo = np.where(tb0 <= tb1, pb[0][x][r], pb[1][x][r])
        b_hi = np.where(tb0 >= tb1, pb[0][x][r], pb[1][x][r])
        segments[:, 0, x] = np.where(lo_from_a, a_lo, b_lo)
        segments[:, 1, x] = np.where(hi_from_a, a_hi, b_hi)
    return mask, segments
