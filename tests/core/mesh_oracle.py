"""An exact brute-force oracle for triangle meshes (test-only, float64 numpy, independent of the engine).

Nothing here imports `core`.  A mesh is given as world-space vertices and integer triangles (`Soup`); every
answer is computed from the triangles themselves:

- `mesh_distance(A, B)`: the minimum distance between the two surfaces, over ALL triangle pairs.  For one pair of
  triangles the distance is 0 when an edge of one pierces the other, else the minimum of the 6 vertex-to-triangle
  and 9 edge-to-edge distances (closed forms).  First every pair whose boxes overlap is tested for a crossing
  (any crossing: distance 0).  Otherwise every pair is considered: pairs are visited in increasing order of a
  certified lower bound of their distance and the walk stops only when that bound exceeds the best exact pair
  distance found, so no pair that could be closer is skipped.  The answer carries a rounding bound `error`:
  [distance - error, distance + error] holds the exact distance of the float64 input (see `ROUNDING_ULPS`).  (A
  pair's lower bound is the larger of its boxes' distance and the gap between the projections of the two triangles
  on the line through their centroids.)
- `crossings(A, B, margin)`: the triangle pairs whose surfaces cross transversally (an edge of one passes through
  the interior of the other, its end points on both sides of the plane, all by more than `margin`), over all pairs
  whose boxes overlap.  Touching without crossing (a vertex on a face, coplanar faces) is not a crossing.
- `winding_number(soup, points)`: the generalised winding number, the sum of the signed solid angles of the
  triangles seen from each point (Van Oosterom and Strackee's formula for one triangle), divided by 4 pi.  For a
  closed surface it is an integer off the surface (1 inside, 0 outside for an outward-oriented mesh; -1 inside a
  mirrored one; 0 in a cavity); near an open surface it is fractional.
- `is_closed(soup)`: the surface is closed when, after welding vertices with equal coordinates and dropping
  triangles that use one vertex twice, every directed edge a->b is matched by as many b->a (the boundary of the
  triangle chain is empty).  That is exactly the condition for the winding number to be an integer off the surface,
  whatever the orientation, duplicates or slivers.
- `point_distance(soup, points)`: the distance from points to the surface (vertex, edge and face closed forms).

Two implementations of the closed forms: the one-pair functions over (k, 3) arrays (`point_triangle_distance`,
`segment_segment_distance`, `_pierces`), plain and readable, and the batched structure-of-arrays kernels that the
mesh queries run (`_features_d2`, `_pair_crosses`, about six times faster); tests/core/test_mesh_oracle.py checks
that the two agree, and checks the one-pair forms against closed-form cases and an independent optimiser.

Rounding.  Coordinates are first moved to a local frame (minus the centre of the pair's bounding box, which is
exact to one rounding of the result), so a pair 1e6 from the origin is measured to ~1e-16 x its own size, not
1e-10.  The closed forms then lose a few dozen ulps of the local magnitude at most; `error` is ROUNDING_ULPS ulps of
it, a generous bound.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "Soup", "soup", "Distance", "mesh_distance", "crossings", "winding_number", "is_closed", "point_distance",
    "triangle_pair_distance", "point_triangle_distance", "segment_segment_distance", "pair_scale",
    "signed_volume", "ROUNDING_ULPS",
]

ROUNDING_ULPS = 256.0
"""Rounding bound of the closed forms, in ulps of the local coordinate magnitude."""
EPS = np.finfo(float).eps
CHUNK = 1 << 18
"""Triangle pairs (or point-triangle pairs) evaluated per vectorised batch."""


# ----------------------------------------------------------------------------------------------- the mesh record

@dataclass(frozen=True, eq=False)
class Soup:
    """World-space vertices (n, 3) and triangles (m, 3); `tris` (m, 3, 3) are the corner coordinates."""

    vertices: np.ndarray
    triangles: np.ndarray

    @property
    def tris(self) -> np.ndarray:
        return self.vertices[self.triangles]

    @property
    def used(self) -> np.ndarray:
        """The vertices some triangle references (unreferenced ones are not part of the surface)."""
        return self.vertices[np.unique(self.triangles)]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        used = self.used
        return used.min(axis=0), used.max(axis=0)

    def diagonal(self) -> float:
        lo, hi = self.bounds()
        return float(np.linalg.norm(hi - lo))


def soup(vertices, triangles, transform=None) -> Soup:
    """The world-space soup of local `vertices` under an optional 4x4 affine `transform` (x' = M[:3,:3] x + M[:3,3])."""
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if transform is not None:
        m = np.asarray(transform, dtype=np.float64)
        v = v @ m[:3, :3].T + m[:3, 3]
    return Soup(v, t)


def pair_scale(a: Soup, b: Soup) -> float:
    """The pair's scale as the engine defines it: the larger of the two world bounding-box diagonals."""
    return max(a.diagonal(), b.diagonal())


def signed_volume(s: Soup) -> float:
    """Signed enclosed volume (divergence theorem); > 0 for an outward-oriented closed mesh."""
    t = s.tris
    return float(np.sum(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2]))) / 6.0)


# ----------------------------------------------------------------------------------------------- closed forms

def _dot(a, b):
    return np.einsum("...i,...i->...", a, b)


def _point_segment_d2(p, a, b):
    """Squared distance from p to the segment ab (broadcast over leading axes); a == b is a point."""
    ab = b - a
    den = _dot(ab, ab)
    t = np.where(den > 0.0, _dot(p - a, ab) / np.where(den > 0.0, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    d = p - (a + t[..., None] * ab)
    return _dot(d, d)


def _point_plane_d2(p, a, b, c):
    """Squared distance from p to the plane of triangle abc when p projects strictly into it, else inf.
    A triangle whose area is below 1e-12 x its longest edge squared has no interior (it is its edges)."""
    n = np.cross(b - a, c - a)
    nn = _dot(n, n)
    longest = np.maximum(np.maximum(_dot(b - a, b - a), _dot(c - b, c - b)), _dot(a - c, a - c))
    flat = nn <= (1e-12 * longest) ** 2
    inside = ((_dot(np.cross(b - a, p - a), n) >= 0.0) & (_dot(np.cross(c - b, p - b), n) >= 0.0)
              & (_dot(np.cross(a - c, p - c), n) >= 0.0) & ~flat)
    return np.where(inside, _dot(p - a, n) ** 2 / np.where(flat, 1.0, nn), np.inf)


def point_triangle_distance(p, a, b, c) -> np.ndarray:
    """Distance from points p to triangles abc (broadcast): the plane distance when p projects inside, and the
    three edge distances always (a zero-area triangle is the union of its edges)."""
    p, a, b, c = (np.asarray(x, dtype=np.float64) for x in (p, a, b, c))
    edges = np.minimum(np.minimum(_point_segment_d2(p, a, b), _point_segment_d2(p, b, c)), _point_segment_d2(p, c, a))
    return np.sqrt(np.minimum(_point_plane_d2(p, a, b, c), edges))


def _segment_inner_d2(p1, q1, p2, q2):
    """Squared distance of the classic clamped closed form for two segments (inf for (near-)parallel or
    zero-length ones, whose minimum is then at an end point: the caller adds the end-point terms)."""
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    c, b = _dot(d1, r), _dot(d1, d2)
    den = a * e - b * b
    ok = (a > 0.0) & (e > 0.0) & (den > 1e-14 * a * e)
    safe_den, safe_a, safe_e = (np.where(ok, x, 1.0) for x in (den, a, e))
    s = np.clip((b * f - c * e) / safe_den, 0.0, 1.0)
    t = (b * s + f) / safe_e
    lo, hi = t < 0.0, t > 1.0
    t = np.clip(t, 0.0, 1.0)
    s = np.where(lo, np.clip(-c / safe_a, 0.0, 1.0), np.where(hi, np.clip((b - c) / safe_a, 0.0, 1.0), s))
    gap = (p1 + s[..., None] * d1) - (p2 + t[..., None] * d2)
    return np.where(ok, _dot(gap, gap), np.inf)


def segment_segment_distance(p1, q1, p2, q2) -> np.ndarray:
    """Distance between segments p1q1 and p2q2 (broadcast); zero-length segments are points.

    The interior solution of the 2x2 normal equations (clamped, then re-projected as in the classic closed form) is
    ill-conditioned only for near-parallel segments, where the distance is flat along them; the four end-point to
    segment distances are taken too, so the minimum is exact up to rounding in every case."""
    p1, q1, p2, q2 = (np.asarray(x, dtype=np.float64) for x in (p1, q1, p2, q2))
    ends = np.minimum(np.minimum(_point_segment_d2(p1, p2, q2), _point_segment_d2(q1, p2, q2)),
                      np.minimum(_point_segment_d2(p2, p1, q1), _point_segment_d2(q2, p1, q1)))
    return np.sqrt(np.minimum(_segment_inner_d2(p1, q1, p2, q2), ends))


def _pierces(p, q, a, b, c, margin=0.0) -> np.ndarray:
    """Edge pq passes through the interior of triangle abc: its ends lie more than `margin` on both sides of the
    plane, and the crossing point lies more than `margin` inside each edge (margin 0: strictly, in float64)."""
    n = np.cross(b - a, c - a)
    nn = np.sqrt(_dot(n, n))
    sp, sq = _dot(p - a, n), _dot(q - a, n)
    m = margin * nn
    straddle = ((sp > m) & (sq < -m)) | ((sp < -m) & (sq > m))
    t = sp / np.where(straddle, sp - sq, 1.0)
    x = p + t[..., None] * (q - p)
    inside = straddle
    for u, v in ((a, b), (b, c), (c, a)):
        uv = v - u
        inside = inside & (_dot(np.cross(uv, x - u), n) > margin * nn * np.sqrt(_dot(uv, uv)))
    return inside


def _pair_crosses(ta, tb, margin=0.0) -> np.ndarray:
    """(k,) bool: triangle ta[i] and tb[i] ((k, 3, 3) each) cross (an edge of one pierces the other)."""
    A, B = _Tri(ta), _Tri(tb)
    out = np.zeros(len(ta), dtype=bool)
    for i in range(3):
        j = (i + 1) % 3
        out |= _s_pierces(A.v[i], A.v[j], B, margin)
        out |= _s_pierces(B.v[i], B.v[j], A, margin)
    return out


def _s_pierces(p, q, tri, margin):
    """`_pierces` on component arrays with the triangle's precomputed normal and inward edge normals."""
    nl = np.sqrt(tri.nn)
    sp, sq = _sdot(_ssub(p, tri.v[0]), tri.n), _sdot(_ssub(q, tri.v[0]), tri.n)
    m = margin * nl
    straddle = ((sp > m) & (sq < -m)) | ((sp < -m) & (sq > m))
    t = sp / np.where(straddle, sp - sq, 1.0)
    x = tuple(p[c] + t * (q[c] - p[c]) for c in range(3))
    inside = straddle
    for j in range(3):
        inside &= _sdot(_ssub(x, tri.v[j]), tri.m[j]) > margin * nl * np.sqrt(tri.ee[j])
    return inside


class _Tri:
    """Triangles as component arrays (structure of arrays: fast elementwise numpy), with the per-triangle data the
    closed forms reuse: corners v[j], edges e[j] = v[j+1] - v[j], their squared lengths, the normal n = e0 x e2'
    (e2' = v2 - v0), |n|^2, inward edge normals m[j] = n x e[j], and whether the triangle has no interior."""

    def __init__(self, t: np.ndarray):
        t = np.asarray(t, dtype=np.float64)
        self.v = [tuple(np.ascontiguousarray(t[:, j, c]) for c in range(3)) for j in range(3)]
        self.e = [tuple(self.v[(j + 1) % 3][c] - self.v[j][c] for c in range(3)) for j in range(3)]
        self.ee = [_sdot(e, e) for e in self.e]
        w = tuple(self.v[2][c] - self.v[0][c] for c in range(3))
        self.n = _scross(self.e[0], w)
        self.nn = _sdot(self.n, self.n)
        longest = np.maximum(np.maximum(self.ee[0], self.ee[1]), self.ee[2])
        self.flat = self.nn <= (1e-12 * longest) ** 2  # no interior to project on: the triangle is its edges
        self.m = [_scross(self.n, e) for e in self.e]


def _sdot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _scross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _ssub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def _s_point_segment_d2(p, a, e, ee):
    """Squared distance from p to the segment a + t e, t in [0, 1] (ee = e.e; ee == 0 is the point a)."""
    ap = _ssub(p, a)
    t = np.clip(_sdot(ap, e) / np.where(ee > 0.0, ee, 1.0), 0.0, 1.0)
    t = np.where(ee > 0.0, t, 0.0)
    return (ap[0] - t * e[0]) ** 2 + (ap[1] - t * e[1]) ** 2 + (ap[2] - t * e[2]) ** 2


def _s_point_plane_d2(p, tri: _Tri):
    """Squared plane distance when p projects into the triangle's interior (or onto its border), else inf."""
    inside = ~tri.flat
    for j in range(3):
        inside &= _sdot(_ssub(p, tri.v[j]), tri.m[j]) >= 0.0
    h = _sdot(_ssub(p, tri.v[0]), tri.n)
    return np.where(inside, h * h / np.where(tri.flat, 1.0, tri.nn), np.inf)


def _s_segment_inner_d2(p1, d1, a, p2, d2, e):
    """The classic clamped closed form for segments p1 + s d1 and p2 + t d2 (a = d1.d1, e = d2.d2); inf for
    (near-)parallel or zero-length segments, whose minimum is at an end point (the vertex-edge terms)."""
    r = _ssub(p1, p2)
    f, c, b = _sdot(d2, r), _sdot(d1, r), _sdot(d1, d2)
    den = a * e - b * b
    ok = (a > 0.0) & (e > 0.0) & (den > 1e-14 * a * e)
    safe_den, safe_a, safe_e = (np.where(ok, x, 1.0) for x in (den, a, e))
    s = np.clip((b * f - c * e) / safe_den, 0.0, 1.0)
    t = (b * s + f) / safe_e
    lo, hi = t < 0.0, t > 1.0
    t = np.clip(t, 0.0, 1.0)
    s = np.where(lo, np.clip(-c / safe_a, 0.0, 1.0), np.where(hi, np.clip((b - c) / safe_a, 0.0, 1.0), s))
    g = (r[0] + s * d1[0] - t * d2[0], r[1] + s * d1[1] - t * d2[1], r[2] + s * d1[2] - t * d2[2])
    return np.where(ok, _sdot(g, g), np.inf)


def _features_d2(ta, tb) -> np.ndarray:
    """(k,) squared minimum over the feature pairs where two non-crossing triangles can be closest: the 18
    vertex-to-edge distances, the 9 edge-edge interior solutions and the 6 vertex-to-face projections."""
    A, B = _Tri(ta), _Tri(tb)
    best = np.full(len(ta), np.inf)
    for i in range(3):
        best = np.minimum(best, _s_point_plane_d2(A.v[i], B))
        best = np.minimum(best, _s_point_plane_d2(B.v[i], A))
        for j in range(3):
            best = np.minimum(best, _s_point_segment_d2(A.v[i], B.v[j], B.e[j], B.ee[j]))
            best = np.minimum(best, _s_point_segment_d2(B.v[i], A.v[j], A.e[j], A.ee[j]))
            best = np.minimum(best, _s_segment_inner_d2(A.v[i], A.e[i], A.ee[i], B.v[j], B.e[j], B.ee[j]))
    return best


def triangle_pair_distance(ta, tb) -> np.ndarray:
    """(k,) exact distance between triangles ta[i] and tb[i] ((k, 3, 3) each): 0 when they cross, else the
    minimum over the feature pairs (`_features_d2`).  A crossing through a vertex or along an edge is not a
    transversal crossing, but there a vertex-face or edge-edge distance is 0 already."""
    ta, tb = np.asarray(ta, dtype=np.float64), np.asarray(tb, dtype=np.float64)
    return np.where(_pair_crosses(ta, tb), 0.0, np.sqrt(_features_d2(ta, tb)))


@dataclass
class Distance:
    """The oracle's distance between two surfaces: `distance` within +-`error`; the pair (ia, ib) attaining it."""

    distance: float
    error: float
    ia: int
    ib: int
    pairs_exact: int

    @property
    def lower(self) -> float:
        return max(0.0, self.distance - self.error)

    @property
    def upper(self) -> float:
        return self.distance + self.error


def _local(a: Soup, b: Soup):
    """Both soups' triangles in a local frame centred on the pair's bounding box, and the local magnitude."""
    lo = np.minimum(a.bounds()[0], b.bounds()[0])
    hi = np.maximum(a.bounds()[1], b.bounds()[1])
    centre = 0.5 * (lo + hi)
    ta, tb = a.tris - centre, b.tris - centre
    magnitude = float(max(np.abs(ta).max(), np.abs(tb).max()))
    return ta, tb, centre, magnitude


def _box_gaps(lo_a, hi_a, lo_b, hi_b):
    """Distance between axis-aligned boxes (broadcast)."""
    gap = np.maximum(0.0, np.maximum(lo_b - hi_a, lo_a - hi_b))
    return np.sqrt(_dot(gap, gap))


def _candidate_pairs(ta, tb, radius):
    """All pairs (i, j) whose triangle boxes lie within `radius` of each other, with that box distance."""
    lo_a, hi_a = ta.min(axis=1), ta.max(axis=1)
    lo_b, hi_b = tb.min(axis=1), tb.max(axis=1)
    rows = max(1, CHUNK // max(1, len(tb)))
    out_i, out_j, out_g = [], [], []
    for s in range(0, len(ta), rows):
        g = _box_gaps(lo_a[s:s + rows, None], hi_a[s:s + rows, None], lo_b[None], hi_b[None])
        i, j = np.nonzero(g <= radius)
        out_i.append(i + s)
        out_j.append(j)
        out_g.append(g[i, j])
    return np.concatenate(out_i), np.concatenate(out_j), np.concatenate(out_g)


def _overlapping(ta, tb, magnitude):
    """Pairs whose triangle boxes overlap (within a few ulps): the only ones that can cross."""
    i, j, _ = _candidate_pairs(ta, tb, 4.0 * EPS * magnitude)
    return i, j


def _crossing_mask(ta, tb, i, j, margin):
    out = np.zeros(len(i), dtype=bool)
    for s in range(0, len(i), CHUNK // 8):
        out[s:s + CHUNK // 8] = _pair_crosses(ta[i[s:s + CHUNK // 8]], tb[j[s:s + CHUNK // 8]], margin)
    return out


def mesh_distance(a: Soup, b: Soup) -> Distance:
    """The exact minimum distance between the surfaces of `a` and `b` (0 when they cross or touch)."""
    ta, tb, _, magnitude = _local(a, b)
    error = ROUNDING_ULPS * EPS * magnitude
    i, j = _overlapping(ta, tb, magnitude)
    hit = np.flatnonzero(_crossing_mask(ta, tb, i, j, 0.0))
    if len(hit):
        return Distance(0.0, error, int(i[hit[0]]), int(j[hit[0]]), len(i))
    # Nothing crosses: every pair's distance is its feature minimum.  An upper bound to start: the distance
    # between the two closest centroids (points of the surfaces).
    ca, cb = ta.mean(axis=1), tb.mean(axis=1)
    upper = np.inf
    rows = max(1, CHUNK // max(1, len(cb)))
    for s in range(0, len(ca), rows):
        d = np.sqrt(((ca[s:s + rows, None] - cb[None]) ** 2).sum(-1))
        upper = min(upper, float(d.min()))
    i, j, g = _candidate_pairs(ta, tb, upper)
    # a tighter lower bound per pair: the gap between the two triangles' projections on the line through their
    # centroids (any direction's projection gap is at most the distance)
    u = cb[j] - ca[i]
    norm = np.sqrt(_dot(u, u))
    u = u / np.where(norm > 0.0, norm, 1.0)[:, None]
    gap = np.einsum("kvi,ki->kv", tb[j], u).min(axis=1) - np.einsum("kvi,ki->kv", ta[i], u).max(axis=1)
    g = np.maximum(g, gap - error)
    order = np.argsort(g, kind="stable")
    i, j, g = i[order], j[order], g[order]
    best, best_i, best_j, done = np.inf, -1, -1, 0
    start, batch = 0, 1024
    while start < len(i) and g[start] <= best and best > 0.0:
        # the remaining pairs are sorted by their lower bound: those beyond `best` cannot be closer, so the
        # batch is cut there
        stop = min(len(i), start + batch, int(np.searchsorted(g, best, side="right")))
        ii, jj = i[start:stop], j[start:stop]
        d = np.sqrt(_features_d2(ta[ii], tb[jj]))
        done += len(ii)
        k = int(np.argmin(d))
        if d[k] < best:
            best, best_i, best_j = float(d[k]), int(ii[k]), int(jj[k])
        start, batch = stop, min(batch * 4, CHUNK // 8)
    return Distance(best, error, best_i, best_j, done)


def crossings(a: Soup, b: Soup, margin: float = 0.0) -> np.ndarray:
    """(k, 2) index pairs (triangle of a, triangle of b) whose surfaces cross transversally.

    With `margin` > 0 (world units) only robust crossings count: an edge whose ends lie more than `margin` on both
    sides of the other triangle's plane and whose crossing point lies more than `margin` inside it.  Rounding of the
    input can make touching faces "cross" by ~1e-16 x their size; a margin of the touching band ignores that."""
    ta, tb, _, magnitude = _local(a, b)
    i, j = _overlapping(ta, tb, magnitude)
    strict = _crossing_mask(ta, tb, i, j, 0.0)
    i, j = i[strict], j[strict]
    if margin > 0.0:
        keep = _crossing_mask(ta, tb, i, j, margin)
        i, j = i[keep], j[keep]
    return np.stack([i, j], axis=1)


def point_distance(s: Soup, points, centre=None) -> np.ndarray:
    """(k,) distance from each point to the surface of `s` (all triangles, exact closed forms).

    `centre` (default: the middle of s's bounding box) is subtracted from both first, for accuracy far away."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if centre is None:
        lo, hi = s.bounds()
        centre = 0.5 * (lo + hi)
    t = s.tris - centre
    p = pts - centre
    out = np.full(len(p), np.inf)
    rows = max(1, CHUNK // max(1, len(t)))
    for k in range(0, len(p), rows):
        d = point_triangle_distance(p[k:k + rows, None], t[None, :, 0], t[None, :, 1], t[None, :, 2])
        out[k:k + rows] = d.min(axis=1)
    return out


def winding_number(s: Soup, points, centre=None) -> np.ndarray:
    """(k,) generalised winding number of the surface of `s` at each point (Van Oosterom-Strackee solid angles).

    For a triangle with corners a, b, c relative to the point, tan(omega / 2) =
    a.(b x c) / (|a||b||c| + (a.b)|c| + (a.c)|b| + (b.c)|a|); the winding number is sum(omega) / (4 pi)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if centre is None:
        lo, hi = s.bounds()
        centre = 0.5 * (lo + hi)
    t = s.tris - centre
    p = pts - centre
    out = np.zeros(len(p))
    rows = max(1, CHUNK // max(1, len(t)))
    for k in range(0, len(p), rows):
        a = t[None, :, 0] - p[k:k + rows, None]
        b = t[None, :, 1] - p[k:k + rows, None]
        c = t[None, :, 2] - p[k:k + rows, None]
        la, lb, lc = (np.sqrt(_dot(x, x)) for x in (a, b, c))
        num = _dot(a, np.cross(b, c))
        den = la * lb * lc + _dot(a, b) * lc + _dot(a, c) * lb + _dot(b, c) * la
        out[k:k + rows] = (2.0 * np.arctan2(num, den)).sum(axis=1) / (4.0 * np.pi)
    return out


def is_closed(s: Soup) -> bool:
    """True when the surface has no boundary (see the module docstring): every directed edge is matched."""
    _, weld = np.unique(s.vertices, axis=0, return_inverse=True)
    tri = weld.reshape(-1)[s.triangles]
    keep = (tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 2] != tri[:, 0])
    tri = tri[keep]
    if len(tri) == 0:
        return False
    edges = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    forward = edges[:, 0] < edges[:, 1]
    key = np.where(forward[:, None], edges, edges[:, ::-1])
    sign = np.where(forward, 1, -1)
    uniq, inverse = np.unique(key, axis=0, return_inverse=True)
    balance = np.zeros(len(uniq), dtype=np.int64)
    np.add.at(balance, inverse.reshape(-1), sign)
    return bool(np.all(balance == 0))
