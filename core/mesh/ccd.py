"""Continuous collision of two deforming triangle meshes whose vertices move in straight lines between two times.

Each vertex of A goes from `a0[i]` at time 0 to `a1[i]` at time 1 at constant speed (the same for B); the
triangles keep their corners.  `first_contact` answers the earliest time at which the two surfaces come within a
distance `band` of each other, or None when they provably never do in [0, 1].  The answer is conservative: no
contact happens before the time returned (a contact is never missed), and one happens within `time_tolerance`
after it up to the distance tolerance below (a near miss closer than about `band + distance_tolerance` may be
reported as a contact).

How (the approach of Tight-Inclusion CCD, Wang et al. 2021, written for numpy):
- Two surfaces first come within `band` at a vertex of one against a triangle of the other, or at an edge of one
  against an edge of the other: the distance between two triangles is the smallest of those 15 feature pairs.
- For each feature pair, the difference of two points, one on each feature, at time t is a function
  F(t, u, w) over the unit cube that is *multilinear* (degree at most one in each of t, u, w):
  edge-edge:        F = p(t) + u (q(t) - p(t)) - r(t) - w (s(t) - r(t));
  vertex-triangle:  F = p(t) - a(t) - u (b(t) - a(t)) - w (1 - u) (c(t) - a(t))  (the unit square folded onto the
  triangle: u = 1 is the corner b for every w), with x(t) = x0 + t (x1 - x0) for every corner.
  Over a box of (t, u, w) the range of each coordinate of a multilinear function is spanned by its values at the
  box's 8 corners, so a box in which some coordinate of F stays above `eta` or below `-eta` at all 8 corners has no
  point within `eta` (in the max norm, hence none within `eta` in length).  Boxes that cannot be ruled out are
  split (along the parameter whose range contributes most), earliest first, until their time width is at most
  `time_tolerance` and either every coordinate's range is at most `distance_tolerance` wide or F at the box's
  centre (the mean of its corners, for a multilinear function) is within `eta + distance_tolerance`: the start of
  the earliest such box is the answer (the second rule settles features that touch along a whole segment, such
  as collinear edges, without cutting the segment into tolerance-sized pieces).  `eta = band + ` a bound on the
  rounding of the corner values.
- Feature pairs come from a hierarchy of swept boxes: every triangle's box over both times (a straight path stays
  in the box of its two ends), padded by `eta`, in the Hilbert order of `core/mesh/bvh.py`'s `LocalBVH` (nodes
  of consecutive triangles; level l + 1 pairs the nodes of level l), descended for both meshes together.

When the work grows past `MAX_BOXES` boxes in one round or `MAX_ROUNDS` rounds, the earliest boxes are kept and
the start of the earliest box dropped bounds the answer from below: still conservative, only less precise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .bvh import LocalBVH

__all__ = ["SweptMesh", "Stats", "first_contact", "vertex_triangle_first", "edge_edge_first", "DISTANCE_TOLERANCE",
           "BATCH", "MAX_BOXES", "MAX_ROUNDS"]

DISTANCE_TOLERANCE = 1e-6
"""A box is small enough when each coordinate of F varies by at most this x the pair's size over it."""
BATCH = 32768
"""Boxes tested in one round: the earliest waiting ones."""
MAX_BOXES = 1_000_000
"""Boxes waiting at most; past that the earliest are kept (see the module docstring)."""
MAX_ROUNDS = 3000
"""Rounds at most."""
_EPS = np.finfo(np.float64).eps


# --------------------------------------------------------------------------------------------- the kernels

def _vertex_triangle(p, a, b, c, u):
    """F of a vertex-triangle pair at one time and one u, as (base, direction): F = base - w direction."""
    return p - a - u * (b - a), (1.0 - u) * (c - a)


def _edge_edge(p, q, r, s, u):
    """F of an edge-edge pair at one time and one u, as (base, direction): F = base - w direction."""
    return p - r + u * (q - p), s - r


def _corner_values(form, points, t, u, w):
    """F at the 8 corners of boxes: (8, k, 3).  form: `_vertex_triangle` or `_edge_edge`; points: four (2, k, 3)
    arrays of positions at times 0 and 1; t, u, w: (2, k) lower and upper parameter of each box."""
    out = []
    for ti in (0, 1):
        tt = t[ti][:, None]
        at = [x[0] + tt * (x[1] - x[0]) for x in points]
        for ui in (0, 1):
            base, direction = form(*at, u[ui][:, None])
            for wi in (0, 1):
                out.append(base - w[wi][:, None] * direction)
    return np.stack(out)


def _solve(form, points, eta, time_tolerance, distance_tolerance, weights, before=None):
    """The earliest time at which some feature pair may come within `eta` (None: none does).

    form: `_vertex_triangle` or `_edge_edge`; points: tuple of four (2, k, 3) arrays,
    one per feature point; weights: (k, 3) how much F can change per unit of t, u and w (what picks the split);
    before: only times earlier than this are of interest (an answer found elsewhere).

    Boxes wait in a pool; each round tests the `BATCH` earliest (by their start time), so the work goes to the
    earliest possible contact first and a later one is never refined once an earlier one is found."""
    k = points[0].shape[1]
    if k == 0:
        return None
    pair = np.arange(k)
    lo = np.zeros((k, 3))
    hi = np.ones((k, 3))
    best = np.inf if before is None else float(before)
    floor = np.inf
    rounds = 0
    while pair.size:
        rounds += 1
        if rounds > MAX_ROUNDS:
            best = min(best, float(lo[:, 0].min()))
            break
        if pair.size > BATCH:
            pick = np.argpartition(lo[:, 0], BATCH)[:BATCH]
            rest = np.ones(pair.size, bool)
            rest[pick] = False
            waiting = (pair[rest], lo[rest], hi[rest])
            pair, lo, hi = pair[pick], lo[pick], hi[pick]
        else:
            waiting = None
        sub = tuple(x[:, pair] for x in points)
        values = _corner_values(form, sub, (lo[:, 0], hi[:, 0]), (lo[:, 1], hi[:, 1]), (lo[:, 2], hi[:, 2]))
        vmin, vmax = values.min(axis=0), values.max(axis=0)
        centre = values.mean(axis=0)  # F at the box's centre: a multilinear function there is its corners' mean
        possible = np.all((vmin <= eta[pair, None]) & (vmax >= -eta[pair, None]), axis=1)
        pair, lo, hi, vmin, vmax = pair[possible], lo[possible], hi[possible], vmin[possible], vmax[possible]
        centre = centre[possible]
        flat = np.all(vmax - vmin <= distance_tolerance[pair, None], axis=1)
        near = np.abs(centre).max(axis=1) <= eta[pair] + distance_tolerance[pair]
        small = (flat | near) & (hi[:, 0] - lo[:, 0] <= time_tolerance)
        if np.any(small):
            best = min(best, float(lo[small, 0].min()))
        keep = ~small & (lo[:, 0] < best)
        pair, lo, hi, flat = pair[keep], lo[keep], hi[keep], flat[keep]
        # split each box along the parameter whose width moves F the most, and along time once F varies little
        # enough over the box
        axis = np.argmax((hi - lo) * weights[pair], axis=1)
        axis[flat] = 0
        rows = np.arange(pair.size)
        middle = 0.5 * (lo[rows, axis] + hi[rows, axis])
        lo2, hi1 = lo.copy(), hi.copy()
        hi1[rows, axis] = middle
        lo2[rows, axis] = middle
        pair = np.concatenate([pair, pair])
        lo = np.concatenate([lo, lo2])
        hi = np.concatenate([hi1, hi])
        if waiting is not None:
            pair = np.concatenate([pair, waiting[0]])
            lo = np.concatenate([lo, waiting[1]])
            hi = np.concatenate([hi, waiting[2]])
        # a box starting less than the time tolerance before the best answer cannot make it earlier by more than
        # that: it is dropped, and the answer moves back to its start (still never later than a contact)
        early = lo[:, 0] < best - time_tolerance
        late = ~early & (lo[:, 0] < best)
        if np.any(late):
            floor = min(floor, float(lo[late, 0].min()))
        pair, lo, hi = pair[early], lo[early], hi[early]
        if pair.size > MAX_BOXES:
            order = np.argpartition(lo[:, 0], MAX_BOXES)
            best = min(best, float(lo[order[MAX_BOXES:], 0].min()))
            order = order[:MAX_BOXES]
            pair, lo, hi = pair[order], lo[order], hi[order]
    best = min(best, floor)
    if best == np.inf or (before is not None and best >= before):
        return None
    return best


def _eta(points, band):
    """Per pair: `band` plus a bound on the rounding of F's corner values (a few ulps of the largest coordinate
    that enters them, times the number of operations)."""
    largest = np.max([np.abs(x).max(axis=(0, 2)) for x in points], axis=0)
    return band + 64.0 * _EPS * largest


def _weights_vt(p, a, b, c):
    travel = np.max([np.linalg.norm(x[1] - x[0], axis=1) for x in (p, a, b, c)], axis=0) * 2.0
    edges = np.max([np.linalg.norm(y[i] - x[i], axis=1) for x, y in ((a, b), (a, c), (b, c)) for i in (0, 1)],
                   axis=0)
    return np.stack([travel * 1.0000001, edges, edges], axis=1)


def _weights_ee(p, q, r, s):
    travel = np.max([np.linalg.norm(x[1] - x[0], axis=1) for x in (p, q, r, s)], axis=0) * 2.0
    first = np.max([np.linalg.norm(q[i] - p[i], axis=1) for i in (0, 1)], axis=0)
    second = np.max([np.linalg.norm(s[i] - r[i], axis=1) for i in (0, 1)], axis=0)
    return np.stack([travel * 1.0000001, first, second], axis=1)


def vertex_triangle_first(p, a, b, c, band: float, time_tolerance: float = 1e-6,
                          distance_tolerance: float | None = None) -> float | None:
    """Earliest time in [0, 1] at which vertex p comes within `band` of triangle abc (each argument a (2, k, 3)
    array or a (2, 3) pair of positions at times 0 and 1); the earliest over the k pairs; None when never."""
    points = tuple(np.asarray(x, dtype=np.float64).reshape(2, -1, 3) for x in (p, a, b, c))
    return _first(points, _vertex_triangle, _weights_vt, band, time_tolerance, distance_tolerance)


def edge_edge_first(p, q, r, s, band: float, time_tolerance: float = 1e-6,
                    distance_tolerance: float | None = None) -> float | None:
    """Earliest time in [0, 1] at which edge pq comes within `band` of edge rs (arguments as
    `vertex_triangle_first`); None when never."""
    points = tuple(np.asarray(x, dtype=np.float64).reshape(2, -1, 3) for x in (p, q, r, s))
    return _first(points, _edge_edge, _weights_ee, band, time_tolerance, distance_tolerance)


def _first(points, form, weigh, band, time_tolerance, distance_tolerance, before=None):
    if points[0].shape[1] == 0:
        return None
    eta = _eta(points, band)
    if distance_tolerance is None:
        size = max(float(np.ptp(np.concatenate([x.reshape(-1, 3) for x in points]), axis=0).max()), 0.0)
        distance_tolerance = DISTANCE_TOLERANCE * size
    tolerance = np.maximum(np.full(eta.shape, float(distance_tolerance)), eta)
    return _solve(form, points, eta, time_tolerance, tolerance, weigh(*points), before)


# --------------------------------------------------------------------------------------------- the meshes

class SweptMesh:
    """A mesh's triangles and their Hilbert order (from `LocalBVH`, built once from one pose: the order only
    groups neighbouring triangles, so any pose of the same mesh serves), and its unique edges."""

    def __init__(self, triangles: np.ndarray, rest_vertices: np.ndarray):
        triangles = np.asarray(triangles, dtype=np.int64)
        rest = np.asarray(rest_vertices, dtype=np.float64)
        self.triangles = triangles[LocalBVH(rest, triangles).order]
        edges = np.sort(np.concatenate([self.triangles[:, [0, 1]], self.triangles[:, [1, 2]],
                                        self.triangles[:, [2, 0]]]), axis=1)
        self.edges, inverse = np.unique(edges, axis=0, return_inverse=True)
        m = self.triangles.shape[0]
        self.triangle_edges = inverse.reshape(3, m).T  # (m, 3) edge ids of each triangle

    def levels(self, x0: np.ndarray, x1: np.ndarray, pad: float):
        """(lo, hi) per level, leaves first: boxes of each triangle over both times, padded, then their parents."""
        corners = np.concatenate([x0[self.triangles], x1[self.triangles]], axis=1)  # (m, 6, 3)
        lo, hi = [corners.min(axis=1) - pad], [corners.max(axis=1) + pad]
        while lo[-1].shape[0] > 1:
            l, h = lo[-1], hi[-1]
            if l.shape[0] % 2:
                l, h = np.concatenate([l, l[-1:]]), np.concatenate([h, h[-1:]])
            lo.append(np.minimum(l[0::2], l[1::2]))
            hi.append(np.maximum(h[0::2], h[1::2]))
        return lo, hi


def _candidate_triangles(levels_a, levels_b):
    """(i, j) leaf indices (sorted orders) of triangle pairs whose padded swept boxes overlap."""
    (lo_a, hi_a), (lo_b, hi_b) = levels_a, levels_b
    la, lb = len(lo_a) - 1, len(lo_b) - 1
    i = np.zeros(1, np.int64)
    j = np.zeros(1, np.int64)
    while True:
        overlap = np.all((lo_a[la][i] <= hi_b[lb][j]) & (lo_b[lb][j] <= hi_a[la][i]), axis=1)
        i, j = i[overlap], j[overlap]
        if i.size == 0 or (la == 0 and lb == 0):
            return i, j
        if la >= lb and la > 0:
            la -= 1
            i, j = _children(i, j, lo_a[la].shape[0])
        else:
            lb -= 1
            j, i = _children(j, i, lo_b[lb].shape[0])


def _children(split, other, count):
    """Each node of `split` replaced by its two children on the level below (those that exist: `count` nodes),
    each beside its partner of `other`."""
    split = np.concatenate([2 * split, 2 * split + 1])
    other = np.concatenate([other, other])
    ok = split < count
    return split[ok], other[ok]


def _unique_pairs(x, y):
    """The distinct (x, y) pairs of two non-negative integer arrays."""
    x, y = np.asarray(x, np.int64), np.asarray(y, np.int64)
    if x.size == 0:
        return x, y
    span = int(y.max()) + 1
    keys = np.unique(x * span + y)
    return keys // span, keys % span


def _box_filter(first, second, pad):
    """Pairs of features whose boxes over both times (first, second: (2, k, n, 3), n points per feature)
    overlap when padded by `pad`."""
    lo1, hi1 = first.min(axis=(0, 2)), first.max(axis=(0, 2))
    lo2, hi2 = second.min(axis=(0, 2)), second.max(axis=(0, 2))
    return np.all((lo1 <= hi2 + pad) & (lo2 <= hi1 + pad), axis=1)


@dataclass
class Stats:
    """What one `first_contact` call looked at (for tests and the bench)."""

    triangle_pairs: int = 0
    vertex_triangle: int = 0
    edge_edge: int = 0


def first_contact(mesh_a: SweptMesh, a0, a1, mesh_b: SweptMesh, b0, b1, band: float,
                  time_tolerance: float = 1e-6, distance_tolerance: float | None = None,
                  stats: Stats | None = None) -> float | None:
    """The earliest time in [0, 1] at which the surfaces of A (vertices a0 -> a1) and B (b0 -> b1), both moving
    linearly, come within `band`; None when they never do (see the module docstring for the guarantees).

    Positions are float64 arrays in one frame; put its origin near the pair (the rounding bound grows with the
    coordinates)."""
    a0, a1, b0, b1 = (np.asarray(x, dtype=np.float64) for x in (a0, a1, b0, b1))
    everything = np.concatenate([a0, a1, b0, b1])
    size = float(np.ptp(everything, axis=0).max())
    if distance_tolerance is None:
        distance_tolerance = DISTANCE_TOLERANCE * size
    pad = band + 64.0 * _EPS * float(np.abs(everything).max())
    ti, tj = _candidate_triangles(mesh_a.levels(a0, a1, pad), mesh_b.levels(b0, b1, 0.0))
    if stats is not None:
        stats.triangle_pairs += int(ti.size)
    if ti.size == 0:
        return None
    best = None

    def earliest(found):
        nonlocal best
        if found is not None and (best is None or found < best):
            best = found

    tri_a, tri_b = mesh_a.triangles, mesh_b.triangles
    ends_a, ends_b = np.stack([a0, a1]), np.stack([b0, b1])
    # vertex of A against triangle of B, and vertex of B against triangle of A
    for verts_from, tri_vertices, tri_index, ends_v, ends_t, tris in (
            (tri_a, ti, tj, ends_a, ends_b, tri_b), (tri_b, tj, ti, ends_b, ends_a, tri_a)):
        v = verts_from[tri_vertices]  # (k, 3) corners of the triangle the vertices come from
        vertex = v.reshape(-1)
        triangle = np.repeat(tri_index, 3)
        vertex, triangle = _unique_pairs(vertex, triangle)
        corners = tris[triangle]
        p = ends_v[:, vertex][:, :, None, :]
        t = ends_t[:, corners]  # (2, k, 3, 3)
        ok = _box_filter(p, t, pad)
        vertex, corners = vertex[ok], corners[ok]
        if stats is not None:
            stats.vertex_triangle += int(vertex.size)
        earliest(_first((ends_v[:, vertex], ends_t[:, corners[:, 0]], ends_t[:, corners[:, 1]],
                         ends_t[:, corners[:, 2]]), _vertex_triangle, _weights_vt, band, time_tolerance,
                        distance_tolerance, best))
    # edge of A against edge of B
    ea = mesh_a.triangle_edges[ti]
    eb = mesh_b.triangle_edges[tj]
    first_edge = np.repeat(ea, 3, axis=1).reshape(-1)
    second_edge = np.tile(eb, (1, 3)).reshape(-1)
    first_edge, second_edge = _unique_pairs(first_edge, second_edge)
    pa, pb = mesh_a.edges[first_edge], mesh_b.edges[second_edge]
    ok = _box_filter(ends_a[:, pa], ends_b[:, pb], pad)
    pa, pb = pa[ok], pb[ok]
    if stats is not None:
        stats.edge_edge += int(pa.shape[0])
    earliest(_first((ends_a[:, pa[:, 0]], ends_a[:, pa[:, 1]], ends_b[:, pb[:, 0]], ends_b[:, pb[:, 1]]),
                    _edge_edge, _weights_ee, band, time_tolerance, distance_tolerance, best))
    return best
