"""How much two solids overlap: the volume of A ∩ B and the closed surface that bounds it.

`overlap(a, b)` takes two closed `TriangleMesh`es, or two convex polytopes (raw (n, 3) arrays, `PointCloud`s
without a margin, `ConvexPolytope`s: each stands for its hull), and returns an `Overlap`.

Method (a boolean intersection restricted to what the volume needs; no new vertex is ever shared between
triangles, so nothing has to be welded):

1. Both meshes are placed in the pair frame (origin at the centre of the pair's world box, as core/mesh/query.py
   does), so meshes far from the world origin keep their precision.  Each solid's orientation is the sign of
   its enclosed volume: a mirrored transform or inward-facing triangles bound the same solid
   (core/mesh/trimesh.py), and the region is written with outward normals either way.
2. Candidate triangle pairs come from a simultaneous descent of both hierarchies (core/mesh/bvh.py) keeping the
   node pairs whose boxes meet within `COPLANAR` x scale.  On them, the engine's exact crossing
   (`tritri.crossing_indexed`, with the same `COPLANAR` band as its `on`) gives every crossing segment; the
   pairs that are coplanar within that band (every corner of each within it of the other's plane) are collected
   apart: coplanar pairs never cross.
3. A triangle met by a crossing segment or a coplanar partner is *cut*; every other one is whole.  The whole
   triangles are grouped by the edges they share with whole neighbours (after welding equal positions); along
   such a group nothing of the other surface passes, so one winding number (core/mesh/points.py) at one point
   of it says whether all of it lies inside the other solid.
4. A cut triangle is split in its own plane into trapezoids: vertical slabs at every end point of its segments
   (its own edges, the crossing segments, the coplanar partners' edges) and at every point where two of them
   cross, and within a slab the strips between consecutive segments.  No segment crosses a strip, so each strip
   lies wholly in or out of the other solid (up to rounding at the crossing curve):
   - a strip within the outline of a coplanar partner (both surfaces there): A's copy is kept when the two
     solids lie on the same side of the shared face, B's copy never; so a face shared by both solids is kept
     once, and faces pressed together from opposite sides (a touching contact) leave nothing;
   - else a strip bounded by a crossing segment: the other solid lies, next to that segment, on the side its
     triangle's outward normal points away from;
   - else the winding number at a point inside the strip.
   This is the result of shrinking A by an infinitesimal amount before intersecting, which is what makes the
   coplanar cases consistent: A's kept pieces, B's kept pieces and the crossing segments between them close up.
5. The kept pieces (whole triangles, strips as two triangles each) are the region; the volume is the divergence
   theorem's sum of det(v0, v1, v2) / 6 over them, taken about the centre of the region's box.

Exact in the sense of the rest of the engine: every number comes from float64 arithmetic on the given vertices,
no sampling, no voxels; the classification only needs rounding-level care near the crossing curve, where the
strips are as thin as the rounding.  Open meshes have no inside: `volume` and `region` are then None.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hull import convex_hull
from ..polytope import ConvexPolytope
from ..shapes import PointCloud, as_vertices
from .bvh import WorldBVH
from .points import winding_numbers
from .tritri import crossing_indexed
from .trimesh import TriangleMesh

__all__ = ["Overlap", "overlap", "COPLANAR"]

COPLANAR = 1e-12
"""Faces whose corners all lie within this x scale of each other's planes are one shared face (and this is the
`on` band of the crossing test); an overlap thinner than this x scale reads as a contact.  Rounding in the pair
frame is ~1e-16 x scale, so faces made coplanar by construction (a copy, a rotated copy, a box on a box) are
well inside it.  (dimensionless)"""


@dataclass(frozen=True)
class Overlap:
    """The overlap of two solids.

    volume: volume of A ∩ B in world units³ (>= 0); exactly 0.0 when they do not overlap (apart, touching,
        faces pressed together); None when a mesh is open (it has no inside).
    region: (k, 3, 3) float64 world triangles bounding A ∩ B, outward (counter-clockwise seen from outside),
        made of A's surface inside B and B's surface inside A; a closed surface whose signed volume (the sum of
        det(v0, v1, v2) / 6) is `volume` about any origin up to rounding.  Empty (shape (0, 3, 3)) exactly when
        volume is 0.0; None when volume is None.
    open_a, open_b: which mesh is open (no inside).
    """

    volume: float | None
    region: np.ndarray | None
    open_a: bool = False
    open_b: bool = False


def _as_mesh(shape, name: str) -> TriangleMesh | None:
    """A TriangleMesh as it is; a convex polytope as the TriangleMesh of its hull (None: a flat or empty hull)."""
    if isinstance(shape, TriangleMesh):
        return shape
    transform = None
    if isinstance(shape, (PointCloud, ConvexPolytope)):
        if shape.margin != 0.0:
            raise ValueError(f"{name} has a margin: a rounded shape is not a polytope, its overlap is not computed")
        transform = shape.transform
        points = np.asarray(shape.vertices, np.float64)
    else:
        try:
            points = as_vertices(shape, name)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name} must be a TriangleMesh, a PointCloud, a ConvexPolytope or an (n, 3) "
                             f"vertex array ({error})") from None
    hull = convex_hull(points)
    if hull is None:
        if points.shape[0] >= 4 and np.linalg.matrix_rank(points[1:] - points[0], tol=None) >= 3:
            raise ValueError(f"{name}: the convex hull of its points could not be built")
        return None  # fewer than four points or a flat cloud: no volume
    return TriangleMesh(points, hull[1], transform)


def overlap(a, b) -> Overlap:
    """The volume of A ∩ B and the surface that bounds it (see the module docstring and `Overlap`)."""
    mesh_a, mesh_b = isinstance(a, TriangleMesh), isinstance(b, TriangleMesh)
    if mesh_a != mesh_b:
        raise ValueError("overlap needs two TriangleMeshes or two convex polytopes, not one of each")
    ma, mb = _as_mesh(a, "a"), _as_mesh(b, "b")
    if ma is None or mb is None:
        return Overlap(0.0, np.zeros((0, 3, 3)))
    open_a, open_b = not ma.is_closed, not mb.is_closed
    if open_a or open_b:
        return Overlap(None, None, open_a, open_b)
    return _Pair(ma, mb).run()


# ---------------------------------------------------------------------------------------------------- the pair


class _Side:
    """One closed mesh in the pair frame: its hierarchy, leaf triangles and orientation."""

    def __init__(self, mesh: TriangleMesh, origin: np.ndarray):
        local = mesh._local.bvh  # built once per mesh and shared by its moved copies
        vertices = mesh.world_vertices(origin)
        linear = mesh._linear
        self.world = WorldBVH(local, vertices, linear, mesh._translation - origin)
        self.corners = self.world.leaf_corners  # (m, 3, 3) in leaf order
        self.triangles = local.leaf_triangles  # (m, 3) vertex indices in leaf order
        self.vertices = mesh.vertices
        c = self.corners
        self.normal = np.cross(c[:, 1] - c[:, 0], c[:, 2] - c[:, 0])
        self.area2 = np.sqrt((self.normal ** 2).sum(axis=1))
        centre = c.reshape(-1, 3).mean(axis=0)
        d = c - centre
        signed = float(np.einsum("ij,ij->i", d[:, 0], np.cross(d[:, 1], d[:, 2])).sum())
        self.sign = 1.0 if signed >= 0.0 else -1.0  # +1: the triangles face outwards
        safe = np.where(self.area2 > 0.0, self.area2, 1.0)
        self.outward = self.sign * self.normal / safe[:, None]  # unit outward normals (0 for degenerate)


class _Pair:
    def __init__(self, a: TriangleMesh, b: TriangleMesh):
        lo_a, hi_a = a.bounds()
        lo_b, hi_b = b.bounds()
        self.scale = max(float(np.linalg.norm(hi_a - lo_a)), float(np.linalg.norm(hi_b - lo_b)))
        if not np.isfinite(self.scale):
            raise ValueError("the meshes are too large to measure in float64 (their extent overflows)")
        self.origin = 0.5 * (np.minimum(lo_a, lo_b) + np.maximum(hi_a, hi_b))
        self.tol = COPLANAR * self.scale
        self.boxes_meet = bool(np.all(lo_a <= hi_b + self.tol) and np.all(lo_b <= hi_a + self.tol))
        self.a, self.b = a, b

    def run(self) -> Overlap:
        if not self.boxes_meet:
            return Overlap(0.0, np.zeros((0, 3, 3)))
        sa, sb = _Side(self.a, self.origin), _Side(self.b, self.origin)
        ia, ib = _candidate_pairs(sa.world, sb.world, self.tol)
        mask, segments = crossing_indexed(sa.world.planes, sb.world.planes, ia, ib, self.tol)
        cross_a, cross_b = ia[mask], ib[mask]
        rest = ~mask
        cop = _coplanar(sa, sb, ia[rest], ib[rest], self.tol)
        cop_a, cop_b = ia[rest][cop], ib[rest][cop]
        pieces = []
        for side, other, mine, theirs, pa, pb, is_a in ((sa, sb, cross_a, cross_b, cop_a, cop_b, True),
                                                        (sb, sa, cross_b, cross_a, cop_b, cop_a, False)):
            pieces.append(self._side_pieces(side, other, mine, theirs, segments, pa, pb, is_a))
        region = np.concatenate(pieces) if pieces else np.zeros((0, 3, 3))
        if region.shape[0] == 0:
            return Overlap(0.0, np.zeros((0, 3, 3)))
        lo, hi = region.reshape(-1, 3).min(axis=0), region.reshape(-1, 3).max(axis=0)
        r = region - 0.5 * (lo + hi)
        volume = float(np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])).sum()) / 6.0
        return Overlap(volume, region + self.origin)

    def _side_pieces(self, side: _Side, other: _Side, mine, theirs, segments, cop_mine, cop_theirs, is_a):
        """The kept pieces of `side`'s surface (frame coordinates, outward), (k, 3, 3)."""
        m = side.corners.shape[0]
        cut = np.zeros(m, bool)
        cut[mine] = True
        cut[cop_mine] = True
        proper = side.area2 > 0.0
        # whole triangles: one winding number per group joined by whole edges
        whole = np.flatnonzero(~cut & proper)
        kept = []
        if whole.size:
            labels = _groups(side, whole)
            first = np.unique(labels, return_index=True)[1]
            reps = whole[first]
            points = np.einsum("kij,i->kj", side.corners[reps], np.array([0.3141, 0.3317, 0.3542]))
            inside = winding_numbers(points, other.world, self.scale) != 0
            group_in = inside[np.searchsorted(labels[first], labels)]
            kept.append(side.corners[whole[group_in]])
        cut_ids = np.flatnonzero(cut & proper)
        if cut_ids.size:
            kept.append(self._cut_pieces(side, other, cut_ids, mine, theirs, segments, cop_mine, cop_theirs, is_a))
        out = np.concatenate(kept) if kept else np.zeros((0, 3, 3))
        if side.sign < 0.0:
            out = out[:, ::-1]
        return out

    def _cut_pieces(self, side, other, cut_ids, mine, theirs, segments, cop_mine, cop_theirs, is_a):
        order = np.argsort(mine, kind="stable")
        chord_owner, chord_rows = mine[order], order
        corder = np.argsort(cop_mine, kind="stable")
        cop_owner, cop_rows = cop_mine[corder], corder
        strips, classes, queries = [], [], []
        asked = 0
        for t in cut_ids:
            lo, hi = np.searchsorted(chord_owner, [t, t + 1])
            rows = chord_rows[lo:hi]
            chords = segments[rows]
            inside_dir = -other.outward[theirs[rows]]
            clo, chi = np.searchsorted(cop_owner, [t, t + 1])
            partners = cop_theirs[cop_rows[clo:chi]]
            partner_corners = other.corners[partners]
            same = (other.outward[partners] @ side.outward[t]) > 0.0
            keep_shared = same if is_a else np.zeros(partners.size, bool)
            quads, cls, probe = _split_triangle(side.corners[t], chords, inside_dir, partner_corners, keep_shared)
            if quads.shape[0] == 0:
                continue
            need = cls < 0
            cls = np.where(need, -2 - (asked + np.cumsum(need) - 1), cls)
            asked += int(need.sum())
            queries.append(probe[need])
            strips.append(quads)
            classes.append(cls)
        if not strips:
            return np.zeros((0, 3, 3))
        quads = np.concatenate(strips)
        cls = np.concatenate(classes)
        probe = np.concatenate(queries)
        if probe.shape[0]:
            inside = winding_numbers(probe, other.world, self.scale) != 0
            deferred = cls <= -2
            cls = cls.copy()
            cls[deferred] = inside[-2 - cls[deferred]].astype(cls.dtype)
        quads = quads[cls == 1]
        tris = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
        # drop the zero-area halves of strips that end in a point
        n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        return tris[(n ** 2).sum(axis=1) > 0.0]


# ---------------------------------------------------------------------------------------------------- helpers


def _candidate_pairs(wa: WorldBVH, wb: WorldBVH, tol: float):
    """Leaf pairs (leaf-order triangle indices) whose boxes meet within tol on every axis."""
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    ia = np.zeros(1, np.int64)
    ib = np.zeros(1, np.int64)
    while True:
        na, nb = wa.node(la, ia), wb.node(lb, ib)
        meet = np.all((wa.lo[na] <= wb.hi[nb] + tol) & (wb.lo[nb] <= wa.hi[na] + tol), axis=1)
        ia, ib = ia[meet], ib[meet]
        if ia.size == 0 or (la == 0 and lb == 0):
            return ia, ib
        if la >= lb:
            left, right, has = wa.children(la, ia)
            ia = np.concatenate([left, right[has]])
            ib = np.concatenate([ib, ib[has]])
        if lb >= la:
            left, right, has = wb.children(lb, ib)
            ib = np.concatenate([left, right[has]])
            ia = np.concatenate([ia, ia[has]])
        la, lb = (la - 1, lb - 1) if la == lb else ((la - 1, lb) if la > lb else (la, lb - 1))


def _coplanar(sa: _Side, sb: _Side, ia, ib, tol: float) -> np.ndarray:
    """Which pairs lie in one plane within tol (every corner of each within tol of the other's plane)."""
    if ia.size == 0:
        return np.zeros(0, bool)
    A, B = sa.corners[ia], sb.corners[ib]
    ok = (sa.area2[ia] > 0.0) & (sb.area2[ib] > 0.0)
    na = sa.normal[ia] / np.where(ok, sa.area2[ia], 1.0)[:, None]
    nb = sb.normal[ib] / np.where(ok, sb.area2[ib], 1.0)[:, None]
    for X, n, Y in ((B, na, A), (A, nb, B)):
        for j in range(3):
            ok &= np.abs(np.einsum("ij,ij->i", X[:, j] - Y[:, 0], n)) <= tol
    return ok


def _groups(side: _Side, ids: np.ndarray) -> np.ndarray:
    """Connected groups of the triangles `ids` joined by the edges they share (welded positions): a label per id."""
    v = side.vertices
    _, weld = np.unique(v, axis=0, return_inverse=True)
    weld = weld.reshape(-1)
    t = weld[side.triangles[ids]]
    k = ids.size
    u = t.reshape(-1)
    w = t[:, [1, 2, 0]].reshape(-1)
    owner = np.repeat(np.arange(k), 3)
    n = int(weld.max()) + 1
    key = np.minimum(u, w) * n + np.maximum(u, w)
    order = np.argsort(key, kind="stable")
    sk, so = key[order], owner[order]
    same = sk[1:] == sk[:-1]
    x, y = so[:-1][same], so[1:][same]
    label = np.arange(k)
    while True:
        lx, ly = label[x], label[y]
        low = np.minimum(lx, ly)
        new = label.copy()
        np.minimum.at(new, lx, low)
        np.minimum.at(new, ly, low)
        while True:  # pointer jumping
            nxt = new[new]
            if np.array_equal(nxt, new):
                break
            new = nxt
        if np.array_equal(new, label):
            return label
        label = new


_PROBE_X, _PROBE_Y = 0.4137, 0.4621  # off-centre so that symmetric scenes do not put a probe on a seam


def _split_triangle(T, chords, inside_dir, partners, keep_shared):
    """Strips of triangle T (3, 3) cut by chords (c, 2, 3) and by the edges of coplanar partners (p, 3, 3).

    Returns (quads (s, 4, 3) counter-clockwise about T's normal, class (s,) 1 kept / 0 dropped / -1 ask,
    probes (s, 3): a point inside each strip for the winding number)."""
    o = T[0]
    e1 = T[1] - o
    n = np.cross(e1, T[2] - o)
    u = e1 / np.sqrt(e1 @ e1)
    n = n / np.sqrt(n @ n)
    v = np.cross(n, u)
    frame = np.stack([u, v])  # (2, 3)

    def flat(points):
        return (points - o) @ frame.T

    tri2 = flat(T)
    segs = [tri2[[0, 1]], tri2[[1, 2]], tri2[[2, 0]]]
    kinds = [0, 0, 0]
    refs = [-1, -1, -1]
    for i in range(chords.shape[0]):
        segs.append(flat(chords[i]))
        kinds.append(1)
        refs.append(i)
    p2 = flat(partners.reshape(-1, 3)).reshape(-1, 3, 2) if partners.shape[0] else np.zeros((0, 3, 2))
    for i in range(p2.shape[0]):
        for j in range(3):
            segs.append(p2[i][[j, (j + 1) % 3]])
            kinds.append(2)
            refs.append(i)
    S = np.array(segs)  # (k, 2, 2)
    kinds = np.array(kinds)
    refs = np.array(refs)
    w2 = inside_dir @ frame.T if chords.shape[0] else np.zeros((0, 2))

    x_lo, x_hi = tri2[:, 0].min(), tri2[:, 0].max()
    size = max(x_hi - x_lo, tri2[:, 1].max() - tri2[:, 1].min())
    xs = [S[:, :, 0].reshape(-1)]
    # crossings of every two segments
    P, Q = S[:, 0], S[:, 1]
    d = Q - P
    i, j = np.triu_indices(S.shape[0], 1)
    den = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    good = den != 0.0
    i, j, den = i[good], j[good], den[good]
    r = P[j] - P[i]
    s_ = (r[:, 0] * d[j, 1] - r[:, 1] * d[j, 0]) / den
    t_ = (r[:, 0] * d[i, 1] - r[:, 1] * d[i, 0]) / den
    hit = (s_ > 0.0) & (s_ < 1.0) & (t_ > 0.0) & (t_ < 1.0)
    xs.append(P[i[hit], 0] + s_[hit] * d[i[hit], 0])
    xs = np.unique(np.clip(np.concatenate(xs), x_lo, x_hi))
    xa, xb = xs[:-1], xs[1:]
    wide = xb - xa > 1e-15 * size
    xa, xb = xa[wide], xb[wide]
    if xa.size == 0:
        return np.zeros((0, 4, 3)), np.zeros(0, np.int64), np.zeros((0, 3))
    xm = xa + _PROBE_X * (xb - xa)
    sx0, sx1 = np.minimum(P[:, 0], Q[:, 0]), np.maximum(P[:, 0], Q[:, 0])
    span = (sx0[None, :] <= xa[:, None]) & (sx1[None, :] >= xb[:, None]) & (sx1 > sx0)[None, :]
    dx = np.where(d[:, 0] != 0.0, d[:, 0], 1.0)

    def y_at(x):  # (slabs, k)
        return P[None, :, 1] + (x[:, None] - P[None, :, 0]) / dx[None, :] * d[None, :, 1]

    ya, yb, ym = y_at(xa), y_at(xb), y_at(xm)
    quads, cls, probes = [], [], []
    eps = 1e-13 * size
    for s in range(xa.size):
        ks = np.flatnonzero(span[s])
        edges = ks[kinds[ks] == 0]
        if edges.size < 2:
            continue
        y_edges = ym[s, edges]
        bottom, top = edges[np.argmin(y_edges)], edges[np.argmax(y_edges)]
        ylo, yhi = ym[s, bottom], ym[s, top]
        inner = ks[(kinds[ks] != 0) & (ym[s, ks] > ylo) & (ym[s, ks] < yhi)]
        inner = inner[np.argsort(ym[s, inner], kind="stable")]
        chain = np.concatenate([[bottom], inner, [top]])
        for lower, upper in zip(chain[:-1], chain[1:]):
            if ya[s, upper] - ya[s, lower] <= eps and yb[s, upper] - yb[s, lower] <= eps:
                continue
            px = xm[s]
            py = ym[s, lower] + _PROBE_Y * (ym[s, upper] - ym[s, lower])
            c = -1
            for pi in range(p2.shape[0]):
                if _in_triangle2(p2[pi], px, py):
                    c = 1 if keep_shared[pi] else 0
                    break
            if c < 0:
                for seg in (lower, upper):
                    if kinds[seg] == 1:
                        k = refs[seg]
                        c = 1 if ((px - P[seg, 0]) * w2[k, 0] + (py - P[seg, 1]) * w2[k, 1]) > 0.0 else 0
                        break
            quads.append([[xa[s], ya[s, lower]], [xb[s], yb[s, lower]], [xb[s], yb[s, upper]], [xa[s], ya[s, upper]]])
            cls.append(c)
            probes.append([px, py])
    if not quads:
        return np.zeros((0, 4, 3)), np.zeros(0, np.int64), np.zeros((0, 3))
    q = np.array(quads)
    lift = o + q[..., :1] * u + q[..., 1:] * v
    pr = np.array(probes)
    probe3 = o + pr[:, :1] * u + pr[:, 1:] * v
    return lift, np.array(cls, np.int64), probe3


def _in_triangle2(t, x, y) -> bool:
    """Whether (x, y) lies inside the 2-D triangle t (3, 2), either winding."""
    s = []
    for j in range(3):
        a, b = t[j], t[(j + 1) % 3]
        s.append((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]))
    return (s[0] > 0 and s[1] > 0 and s[2] > 0) or (s[0] < 0 and s[1] < 0 and s[2] < 0)
