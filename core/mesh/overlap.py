"""How much two solids overlap: the volume of A ∩ B and the closed surface that bounds it.

`overlap(a, b)` takes two closed `TriangleMesh`es, or two convex polytopes (raw (n, 3) arrays, `PointCloud`s
without a margin, `ConvexPolytope`s: each stands for its hull), and returns an `Overlap`.  A polytope's hull is
core/hull.py's, which may leave points outside it by up to its tolerance (1e-10 x the points' diagonal plus their
coordinates' rounding; up to 100 times that on near-coplanar points such as a jittered grid or a subdivided cube
rounded to float32): the volume is that hull's, below the exact hull's by at most that distance times its area.

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
   - else the class of a strip of the next slab that meets it along the common boundary (no segment between
     them there: one face of the cut), carried until nothing changes;
   - else (a face of the cut with no crossing segment on it) the winding number at a point inside the strip.
   This is the result of shrinking A by an infinitesimal amount before intersecting, which is what makes the
   coplanar cases consistent: A's kept pieces, B's kept pieces and the crossing segments between them close up.
   Where contacts are exact in the meshes' own frames and only rounding makes them cross (turned, scaled or far
   placements), four rules keep the classes right: slab boundaries within `SNAP` of each other are one; a slab
   narrower than `NARROW` x its triangle classifies nothing by its segments; two segments of one triangle along
   one line with the other solid on opposite sides (a ridge of the other surface lying in the plane) are a touch
   and are dropped; and a segment from a triangle that only touches the plane classifies only the side that
   triangle lies over.
5. The kept pieces (whole triangles, strips as two triangles each) are the region; the volume is the divergence
   theorem's sum of det(v0, v1, v2) / 6 over them, taken about the centre of the region's box.
6. The region is checked for closure (`closure_defect`: a closed surface has area vectors summing to zero and
   its moments of x_i n_j equal to delta_ij x its volume); a wrongly kept or dropped strip leaves a hole that
   shows there.  A region that does not close is recomputed with the meshes swapped, then with the coplanar
   band widened to 1e-11, 1e-10 and 1e-9 x scale (`RETRIES`), which reads near-twin faces as one shared face;
   such a run counts as exact only when the volume the band flattened (the wedges between the faces it treated
   as one, bounded by `_flattened`) and its closure defect are within the issue's bound.  When no run passes,
   the result says so: `exact=False`, with the smallest `defect` found and that run's volume.

Exact in the sense of the rest of the engine: every number comes from float64 arithmetic on the given vertices,
no sampling, no voxels; the classification only needs rounding-level care near the crossing curve, where the
strips are as thin as the rounding.  Open meshes have no inside: `volume` and `region` are then None.

Not handled: a mesh whose own parts overlap each other (two loose parts pushed into one another, or a surface
that crosses itself).  Each piece of its surface inside the other solid is counted, so the volume they share
is counted once per part (the non-zero winding rule of core/mesh/points.py would count it once).

Known weak spot, flagged and not silent: a curved mesh against a copy of itself turned by 1e-11 to 1e-7 rad
(beyond the `COPLANAR` band, yet every face crossing its twin at a near-zero angle) is often classified wrongly
(the first run's errors reach ~1e-2 of the volume against manifold3d).  The retries make part of
these exact; the rest come back with `exact=False` and a `defect` that has been at least the error in every
case measured (tests/core/test_overlap_near_copies.py), but is not a certified bound.  Moved copies and copies
within the band are exact.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hull import convex_hull
from ..polytope import ConvexPolytope
from ..progress import Stage, report
from ..shapes import PointCloud, as_vertices
from .bvh import WorldBVH
from .pair_frame import pair_box
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
    exact: False when the region failed its closure check (see `closure_defect`): some strips were classified
        wrongly, so `volume` is an estimate, not the exact value, and a caller must not present it as exact.
        True for every result that passed the check (and for 0.0 and None).
    defect: the closure defect of the region in world units³ (0.0 when exact): how far the region is from a
        closed surface, `closure_defect`.  A wrongly kept or dropped strip of area s at distance h from the
        region's centre moves the volume by about s x h / 3 and the defect by about s x h, so the defect is the
        size to expect of the error; it is a measure, not a certified bound.
    """

    volume: float | None
    region: np.ndarray | None
    open_a: bool = False
    open_b: bool = False
    exact: bool = True
    defect: float = 0.0


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


FIRST_RUN = 0.8
"""The share of the overlap's progress given to the first run (the retries share the rest)."""


def overlap(a, b, progress=None) -> Overlap:
    """The volume of A ∩ B and the surface that bounds it (see the module docstring and `Overlap`).
    `progress`: None, or a hook (core/progress.py, `Stage.OVERLAP`) called between the units of the work; it may
    raise `core.Cancelled`, which is raised on (nothing is answered).  The answer does not depend on it."""
    mesh_a, mesh_b = isinstance(a, TriangleMesh), isinstance(b, TriangleMesh)
    if mesh_a != mesh_b:
        raise ValueError("overlap needs two TriangleMeshes or two convex polytopes, not one of each")
    ma, mb = _as_mesh(a, "a"), _as_mesh(b, "b")
    if ma is None or mb is None:
        return Overlap(0.0, np.zeros((0, 3, 3)))
    open_a, open_b = not ma.is_closed, not mb.is_closed
    if open_a or open_b:
        return Overlap(None, None, open_a, open_b)
    if ma._local.parts.count == 1 and _same_solid(ma, mb):
        return _whole(ma)
    first = _Pair(ma, mb).run(progress, 0.0, FIRST_RUN)
    if first.exact:
        return first
    # A region that does not close: the classification went wrong somewhere (see `closure_defect`).  The same
    # pair taken the other way round, and with the coplanar band widened, takes other decisions at the strips in
    # doubt; the first run that passes its check is returned, else the one with the smallest defect, flagged.
    best = first
    each = (1.0 - FIRST_RUN) / len(RETRIES)
    for k, (x, y, band) in enumerate(RETRIES):
        start = FIRST_RUN + k * each
        result = _Pair(ma if x == "a" else mb, mb if y == "b" else ma, band).run(progress, start, start + each)
        if result.exact:
            return result
        if result.defect < best.defect:
            best = result
    return best


def _same_solid(ma: TriangleMesh, mb: TriangleMesh) -> bool:
    """B is A: the same triangles on the same world vertices, bit for bit (a duplicate in place, Shift+D)."""
    if ma.triangles.shape != mb.triangles.shape or not np.array_equal(ma.triangles, mb.triangles):
        return False
    origin = pair_box(ma, mb)[0]
    return bool(np.array_equal(ma.world_vertices(origin), mb.world_vertices(origin)))


def _whole(mesh: TriangleMesh) -> Overlap:
    """A ∩ A = A for a closed mesh of one loose part: its own surface, turned outward, and the volume it bounds.

    Every face of the two is shared, which is the general path's slowest case (each triangle coplanar with its
    twin); the answer needs none of it.  One part only, so that one orientation holds for the whole surface."""
    origin = pair_box(mesh, mesh)[0]
    region = mesh.world_vertices(origin)[mesh.triangles]
    lo, hi = region.reshape(-1, 3).min(axis=0), region.reshape(-1, 3).max(axis=0)
    r = region - 0.5 * (lo + hi)
    volume = float(np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])).sum()) / 6.0
    if volume < 0.0:  # faces pointing inwards (or a mirroring transform): the same solid, the region turned
        region, volume = region[:, ::-1], -volume
    world = region + origin
    n = np.cross(world[:, 1] - world[:, 0], world[:, 2] - world[:, 0])
    world = world[np.any(n != 0.0, axis=1)]  # zero-area triangles bound nothing
    if world.shape[0] == 0 or volume == 0.0:
        return Overlap(0.0, np.zeros((0, 3, 3)))
    return Overlap(volume, world)


# ---------------------------------------------------------------------------------------------------- the pair


class _Side:
    """One closed mesh in the pair frame: its hierarchy, leaf triangles and orientation."""

    def __init__(self, mesh: TriangleMesh, origin: np.ndarray):
        local = mesh._local.bvh  # built once per mesh and shared by its moved copies
        vertices = mesh.world_vertices(origin)
        linear = mesh._linear
        self.world = WorldBVH(local, vertices, linear, mesh._translation - origin)
        self.corners = self.world.leaf_corners  # (m, 3, 3) in leaf order
        self.welded = mesh._local.welded[local.order]  # (m, 3) welded vertex indices in leaf order
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
    def __init__(self, a: TriangleMesh, b: TriangleMesh, band: float = COPLANAR):
        self.origin, self.scale, (lo_a, hi_a), (lo_b, hi_b) = pair_box(a, b)
        self.tol = band * self.scale
        self.boxes_meet = bool(np.all(lo_a <= hi_b + self.tol) and np.all(lo_b <= hi_a + self.tol))
        self.a, self.b = a, b

    def run(self, progress=None, start: float = 0.0, end: float = 1.0) -> Overlap:
        """The overlap by this run's band; `progress` hears of each unit of its work done, as a share from
        `start` to `end` of the whole overlap's."""
        def done(share):
            report(progress, Stage.OVERLAP, start + (end - start) * share)

        done(0.0)
        if not self.boxes_meet:
            return Overlap(0.0, np.zeros((0, 3, 3)))
        sa, sb = _Side(self.a, self.origin), _Side(self.b, self.origin)
        ia, ib = _candidate_pairs(sa.world, sb.world, self.tol)
        done(0.15)
        mask, segments = crossing_indexed(sa.world.planes, sb.world.planes, ia, ib, self.tol)
        done(0.3)
        cross_a, cross_b = ia[mask], ib[mask]
        rest = ~mask
        cop = _coplanar(sa, sb, ia[rest], ib[rest], self.tol)
        cop_a, cop_b = ia[rest][cop], ib[rest][cop]
        flattened = _flattened(sa, sb, cop_a, cop_b)
        pieces = []
        for k, (side, other, mine, theirs, pa, pb, is_a) in enumerate((
                (sa, sb, cross_a, cross_b, cop_a, cop_b, True), (sb, sa, cross_b, cross_a, cop_b, cop_a, False))):
            pieces.append(self._side_pieces(side, other, mine, theirs, segments, pa, pb, is_a,
                                            lambda share, k=k: done(0.35 + 0.3 * (k + share))))
        region = np.concatenate(pieces) if pieces else np.zeros((0, 3, 3))
        if region.shape[0] == 0:
            return Overlap(0.0, np.zeros((0, 3, 3)))
        lo, hi = region.reshape(-1, 3).min(axis=0), region.reshape(-1, 3).max(axis=0)
        r = region - 0.5 * (lo + hi)
        volume = float(np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])).sum()) / 6.0
        defect = closure_defect(r)
        if self.tol > COPLANAR * self.scale:
            # a widened band reads thin wedges between faces as contacts: a closed region is then exact only
            # when everything the band flattened is within the bound
            defect = max(4.0 * defect, 2.0 * flattened)
            exact = defect <= 1e-9 * abs(volume) + 1e-12 * self.scale ** 3
        else:
            exact = defect <= CLOSED * (abs(volume) + self.scale ** 3)
        world = region + self.origin
        # slivers whose corners round to one world point carry no area there
        n = np.cross(world[:, 1] - world[:, 0], world[:, 2] - world[:, 0])
        world = world[np.any(n != 0.0, axis=1)]
        if world.shape[0] == 0:  # a sliver thinner than the rounding of its world coordinates
            return Overlap(0.0, np.zeros((0, 3, 3)))
        return Overlap(volume, world, exact=exact, defect=0.0 if exact else defect)

    def _side_pieces(self, side: _Side, other: _Side, mine, theirs, segments, cop_mine, cop_theirs, is_a,
                     done=lambda share: None):
        """The kept pieces of `side`'s surface (frame coordinates, outward), (k, 3, 3); `done(share)` is told
        of the share of them made between the whole triangles and the cut ones."""
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
            # each group asked at a point of its largest triangle (the farthest from a contact, as a rule)
            by_size = np.lexsort((-side.area2[whole], labels))
            first = by_size[np.unique(labels[by_size], return_index=True)[1]]
            points = np.einsum("kij,i->kj", side.corners[whole[first]], np.array([0.3141, 0.3317, 0.3542]))
            inside = winding_numbers(points, other.world, self.scale) != 0
            group_in = inside[np.searchsorted(labels[first], labels)]
            kept.append(side.corners[whole[group_in]])
        done(0.5)
        cut_ids = np.flatnonzero(cut & proper)
        if cut_ids.size:
            kept.append(self._cut_pieces(side, other, cut_ids, mine, theirs, segments, cop_mine, cop_theirs, is_a))
        out = np.concatenate(kept) if kept else np.zeros((0, 3, 3))
        if side.sign < 0.0:
            out = out[:, ::-1]
        return out

    def _cut_pieces(self, side, other, cut_ids, mine, theirs, segments, cop_mine, cop_theirs, is_a):
        """The kept strips of the cut triangles `cut_ids`, as triangles (frame coordinates, T's own winding)."""
        pos = np.full(side.corners.shape[0], -1, np.int64)
        pos[cut_ids] = np.arange(cut_ids.size)
        same = np.einsum("ij,ij->i", other.outward[cop_theirs], side.outward[cop_mine]) > 0.0
        quads, cls, probes = _strips(side.corners[cut_ids],
                                     chords=(pos[mine], segments, -other.outward[theirs], other.corners[theirs]),
                                     partners=(pos[cop_mine], other.corners[cop_theirs],
                                               same if is_a else np.zeros_like(same)), scale=self.scale)
        ask = cls < 0
        if np.any(ask):
            cls = cls.copy()
            cls[ask] = winding_numbers(probes[ask], other.world, self.scale) != 0
        quads = quads[cls == 1]
        tris = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
        # drop the zero-area halves of strips that end in a point
        n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
        return tris[(n ** 2).sum(axis=1) > 0.0]


# ---------------------------------------------------------------------------------------------------- helpers


CLOSED = 1e-12
"""A region whose closure defect is at most this x (|volume| + scale³) is closed up to rounding (the defects of
correctly classified regions, thin slivers along near-parallel crossings included, stay well below it).
(dimensionless)"""

RETRIES = (("b", "a", COPLANAR), ("a", "b", 1e-11), ("a", "b", 1e-10), ("a", "b", 1e-9))
"""The runs tried, in order, when a region does not close: which mesh is taken as A and B, and the coplanar band
(x scale).  Narrower bands than `COPLANAR` were tried and closed no more regions; a band wider than 1e-9 could
never pass the flattened-volume bound.  The widened runs are slow (every triangle gets its twin and the twin's
neighbours as coplanar partners): a flagged near copy of 10k triangles costs ~20x its first run."""


def closure_defect(r: np.ndarray) -> float:
    """How far triangles r (k, 3, 3), given about a point near their middle, are from a closed surface.

    By the divergence theorem a closed surface has sum(area vectors) = 0 and, for every i and j, the integral of
    x_i n_j over it equal to delta_ij x its volume.  The defect is the largest departure from either, the first
    made a volume by the region's extent: max(|sum a| x extent, |M - (trace M / 3) I|), with a the triangles'
    area vectors and M = sum centroid (x) a.  A strip kept or dropped wrongly leaves a hole of its area in the
    surface and shows in both."""
    if r.shape[0] == 0:
        return 0.0
    a = 0.5 * np.cross(r[:, 1] - r[:, 0], r[:, 2] - r[:, 0])
    m = r.mean(axis=1).T @ a
    extent = float(np.max(r.reshape(-1, 3).max(axis=0) - r.reshape(-1, 3).min(axis=0)))
    return max(float(np.abs(a.sum(axis=0)).max()) * extent, float(np.abs(m - np.trace(m) / 3.0 * np.eye(3)).max()))


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


def _flattened(sa: _Side, sb: _Side, ia, ib) -> float:
    """A bound of the volume that treating the pairs (ia, ib) as coplanar can misplace: where A's triangle and B's
    overlap, the two faces are at most the largest height of A's corners over B's plane apart, so the wedge
    between them is at most A's area x that height; summed over A's triangles (each with its largest height)."""
    if ia.size == 0:
        return 0.0
    nb = sb.normal[ib] / sb.area2[ib][:, None]  # coplanar pairs are proper triangles
    h = np.abs(np.einsum("kij,kj->ki", sa.corners[ia] - sb.corners[ib][:, :1], nb)).max(axis=1)
    most = np.zeros(sa.corners.shape[0])
    np.maximum.at(most, ia, h)
    return float((0.5 * sa.area2 * most).sum())


def _groups(side: _Side, ids: np.ndarray) -> np.ndarray:
    """Connected groups of the triangles `ids` joined by the edges they share (welded positions): a label per id."""
    t = side.welded[ids]
    k = ids.size
    u = t.reshape(-1)
    w = t[:, [1, 2, 0]].reshape(-1)
    owner = np.repeat(np.arange(k), 3)
    n = int(t.max()) + 1
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


SNAP = 1e-12
"""Slab boundaries within this x (the cut triangle's size + 1% of the pair's scale) of each other are one.
(dimensionless)"""

NARROW = 1e-9
"""A slab narrower than this x its triangle's size does not classify strips by their crossing segments.
(dimensionless)"""

_PROBE_X, _PROBE_Y = 0.4137, 0.4621  # off-centre, so that symmetric scenes do not put a probe on a seam


def _group_pairs(group: np.ndarray, count: np.ndarray, start: np.ndarray, other_group=None):
    """Index pairs within groups.  group: (N,) sorted group of each row; count/start: rows per group and the
    first row of each group.  Without other_group: every (i, j), i < j, of rows of one group.  With it (the
    sorted groups of a second row set, counted by count/start): every (i, j) with j a row of that set in
    row i's group."""
    if other_group is None:
        n = group.size
        after = start[group] + count[group] - np.arange(n) - 1
        i = np.repeat(np.arange(n), after)
        j = i + 1 + np.arange(i.size) - np.repeat(np.cumsum(after) - after, after)
        return i, j
    per = count[group]
    i = np.repeat(np.arange(group.size), per)
    j = np.repeat(start[group], per) + np.arange(i.size) - np.repeat(np.cumsum(per) - per, per)
    return i, j


def _strips(T, chords, partners, scale: float):
    """Cut triangles T (c, 3, 3) into strips (see the module docstring, step 4), all at once.

    chords: (owner (h,) index into T, segments (h, 2, 3), inside (h, 3): the direction, at the segment, in which
    the other solid lies, face (h, 3, 3): the other mesh's triangle it comes from); partners: (owner (p,), corners (p, 3, 3), keep (p,) bool: what a strip within that
    coplanar partner is).  Returns quads (s, 4, 3) counter-clockwise about T's normal, class (s,) (1 kept,
    0 dropped, -1 ask the winding number) and a probe point inside each strip (s, 3)."""
    c = T.shape[0]
    o = T[:, 0]
    e1 = T[:, 1] - o
    u = e1 / np.sqrt((e1 ** 2).sum(axis=1))[:, None]
    n = np.cross(e1, T[:, 2] - o)
    n = n / np.sqrt((n ** 2).sum(axis=1))[:, None]
    v = np.cross(n, u)

    def flat(points, owner):  # (N, 3) points in the plane frames of their owners -> (N, 2)
        d = points - o[owner]
        return np.stack([np.einsum("ij,ij->i", d, u[owner]), np.einsum("ij,ij->i", d, v[owner])], axis=1)

    c_owner, c_seg, c_inside, c_face = chords
    p_owner, p_corners, p_keep = partners
    tri_owner = np.repeat(np.arange(c), 3)
    corners2 = flat(T.reshape(-1, 3), tri_owner).reshape(c, 3, 2)
    p2 = flat(p_corners.reshape(-1, 3), np.repeat(p_owner, 3)).reshape(-1, 3, 2)
    x_lo, x_hi = corners2[:, :, 0].min(axis=1), corners2[:, :, 0].max(axis=1)
    size = np.maximum(x_hi - x_lo, corners2[:, :, 1].max(axis=1) - corners2[:, :, 1].min(axis=1))
    snap = SNAP * size + SNAP * 1e-2 * scale
    c_owner, c_seg, c_inside, c_face = _without_touches(c_owner, c_seg, c_inside, c_face, flat, snap)
    c_side = _covered_side(c_owner, c_seg, c_face, flat, o, n)
    # every segment of every triangle: its three edges (kind 0), the chords (1), the partners' edges (2)
    seg_P = np.concatenate([corners2.reshape(-1, 2), flat(c_seg[:, 0], c_owner), p2.reshape(-1, 2)])
    seg_Q = np.concatenate([corners2[:, [1, 2, 0]].reshape(-1, 2), flat(c_seg[:, 1], c_owner),
                            p2[:, [1, 2, 0]].reshape(-1, 2)])
    owner = np.concatenate([tri_owner, c_owner, np.repeat(p_owner, 3)])
    kind = np.concatenate([np.zeros(3 * c, np.int8), np.ones(c_owner.size, np.int8),
                           np.full(3 * p_owner.size, 2, np.int8)])
    w2 = np.concatenate([np.zeros((3 * c, 2)), np.stack([np.einsum("ij,ij->i", c_inside, u[c_owner]),
                                                         np.einsum("ij,ij->i", c_inside, v[c_owner])], axis=1),
                         np.zeros((3 * p_owner.size, 2))])
    covers = np.concatenate([np.zeros(3 * c, np.int8), c_side, np.zeros(3 * p_owner.size, np.int8)])
    order = np.argsort(owner, kind="stable")
    seg_P, seg_Q, owner, kind, w2 = seg_P[order], seg_Q[order], owner[order], kind[order], w2[order]
    covers = covers[order]
    count = np.bincount(owner, minlength=c)
    start = np.cumsum(count) - count

    # slab boundaries: every end point, and every crossing of two segments of one triangle
    d = seg_Q - seg_P
    i, j = _group_pairs(owner, count, start)
    den = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    good = den != 0.0
    i, j, den = i[good], j[good], den[good]
    r = seg_P[j] - seg_P[i]
    s_ = (r[:, 0] * d[j, 1] - r[:, 1] * d[j, 0]) / den
    t_ = (r[:, 0] * d[i, 1] - r[:, 1] * d[i, 0]) / den
    hit = (s_ > 0.0) & (s_ < 1.0) & (t_ > 0.0) & (t_ < 1.0)
    bx = np.concatenate([seg_P[:, 0], seg_Q[:, 0], seg_P[i[hit], 0] + s_[hit] * d[i[hit], 0]])
    bo = np.concatenate([owner, owner, owner[i[hit]]])
    bx = np.clip(bx, x_lo[bo], x_hi[bo])
    # boundaries closer than the snap distance are one (a cluster): the ends of the crossing segments that
    # meet on an edge of the other mesh are computed from different triangle pairs and differ by rounding, and
    # a slab between them would be a sliver whose class means nothing
    k = np.lexsort((bx, bo))
    sx, sb = bx[k], bo[k]
    new = np.ones(sx.size, bool)
    new[1:] = (sb[1:] != sb[:-1]) | (sx[1:] - sx[:-1] > snap[sb[1:]])
    cluster = np.empty(sx.size, np.int64)
    cluster[k] = np.cumsum(new) - 1
    rep_x, rep_o = sx[new], sb[new]
    n_seg = owner.size
    c_lo = np.minimum(cluster[:n_seg], cluster[n_seg:2 * n_seg])
    c_hi = np.maximum(cluster[:n_seg], cluster[n_seg:2 * n_seg])
    slab = np.flatnonzero(rep_o[1:] == rep_o[:-1])  # slab c lies between clusters c and c + 1 of one triangle
    xa, xb, so = rep_x[slab], rep_x[slab + 1], rep_o[slab]
    xm = xa + _PROBE_X * (xb - xa)

    # (slab, segment) pairs of one triangle where the segment spans the slab (from cluster to cluster), with
    # its heights there (at x clamped to the segment's own extent: no extrapolation past its ends)
    si, sj = _group_pairs(so, count, start, other_group=owner)
    span = (c_lo[sj] <= slab[si]) & (c_hi[sj] >= slab[si] + 1)
    si, sj = si[span], sj[span]
    lo_x, hi_x = np.minimum(seg_P[sj, 0], seg_Q[sj, 0]), np.maximum(seg_P[sj, 0], seg_Q[sj, 0])
    slope = d[sj, 1] / d[sj, 0]

    def height(x):
        return seg_P[sj, 1] + (np.clip(x, lo_x, hi_x) - seg_P[sj, 0]) * slope

    ya, yb, ym = height(xa[si]), height(xb[si]), height(xm[si])
    edge = kind[sj] == 0
    S = xa.size
    ylo = np.full(S, np.inf)
    yhi = np.full(S, -np.inf)
    np.minimum.at(ylo, si[edge], ym[edge])
    np.maximum.at(yhi, si[edge], ym[edge])
    two = np.bincount(si[edge], minlength=S) == 2
    keep = two[si] & (edge | ((ym > ylo[si]) & (ym < yhi[si])))
    si, sj, ya, yb, ym = si[keep], sj[keep], ya[keep], yb[keep], ym[keep]
    k = np.lexsort((ym, si))
    si, sj, ya, yb, ym = si[k], sj[k], ya[k], yb[k], ym[k]
    lower = np.flatnonzero(si[1:] == si[:-1])
    upper = lower + 1
    eps = 1e-13 * size[so[si[lower]]]
    thick = (ya[upper] - ya[lower] > eps) | (yb[upper] - yb[lower] > eps)
    lower, upper = lower[thick], upper[thick]
    s = si[lower]
    g = so[s]
    px = xm[s]
    py = ym[lower] + _PROBE_Y * (ym[upper] - ym[lower])

    cls = np.full(s.size, -1, np.int64)
    # next to a chord: the other solid lies on the side its inside direction points to
    for end in (upper, lower):  # the lower chord decides when both are chords
        sg = sj[end]
        dx, dy = seg_Q[sg, 0] - seg_P[sg, 0], seg_Q[sg, 1] - seg_P[sg, 1]
        left = np.where(dx * (py - seg_P[sg, 1]) - dy * (px - seg_P[sg, 0]) > 0.0, 1, -1)
        # a triangle of the other mesh that only touches this plane along the segment tells only the side
        # it lies over (see `_covered_side`)
        chord = (kind[sg] == 1) & ((covers[sg] == 0) | (covers[sg] == left))
        side = (px - seg_P[sg, 0]) * w2[sg, 0] + (py - seg_P[sg, 1]) * w2[sg, 1] > 0.0
        cls = np.where(chord, side.astype(np.int64), cls)
    # a slab much narrower than its triangle lies at the end of a crossing segment, where the segments and the
    # triangle's edges meet within rounding: its strips take their class from their neighbours or are asked
    cls = np.where(xb[s] - xa[s] > NARROW * size[g], cls, -1)
    vertical = (kind != 0) & (c_lo == c_hi)
    blocked = np.zeros(rep_x.size + 1, bool)
    blocked[c_lo[vertical]] = True
    cls = _spread(cls, s, slab, so, ya[lower], ya[upper], yb[lower], yb[upper], corners2, size, blocked)
    # within a coplanar partner: what the shared face rule says (this overrides the chords)
    if p_owner.size:
        porder = np.argsort(p_owner, kind="stable")
        pcount = np.bincount(p_owner, minlength=c)
        pstart = np.cumsum(pcount) - pcount
        a, b = _group_pairs(g, pcount, pstart, other_group=p_owner[porder])
        b = porder[b]
        tri = p2[b]
        x, y = px[a], py[a]
        cross = [(tri[:, (m + 1) % 3, 0] - tri[:, m, 0]) * (y - tri[:, m, 1])
                 - (tri[:, (m + 1) % 3, 1] - tri[:, m, 1]) * (x - tri[:, m, 0]) for m in range(3)]
        within = (((cross[0] > 0) & (cross[1] > 0) & (cross[2] > 0))
                  | ((cross[0] < 0) & (cross[1] < 0) & (cross[2] < 0)))
        a, b = a[within], b[within]
        cls[a] = p_keep[b].astype(np.int64)

    xa_s, xb_s = xa[s], xb[s]
    q2 = np.stack([np.stack([xa_s, ya[lower]], axis=1), np.stack([xb_s, yb[lower]], axis=1),
                   np.stack([xb_s, yb[upper]], axis=1), np.stack([xa_s, ya[upper]], axis=1)], axis=1)
    quads = o[g][:, None] + q2[..., :1] * u[g][:, None] + q2[..., 1:] * v[g][:, None]
    probes = o[g] + px[:, None] * u[g] + py[:, None] * v[g]
    return quads, cls, probes


def _covered_side(owner, seg, face, flat, o, n):
    """For each chord, where its triangle of the other mesh (face) lies: 0 when it crosses this triangle's plane
    (corners beyond 1e-9 x its size on both sides), else the side of the chord's line (+1 left, -1 right, seen
    along the chord in the plane frame) over which its body lies (its corner farthest from the plane, projected).
    A triangle that only touches the plane along the chord decides nothing on the other side: there another
    triangle of its mesh (a ridge or a valley of that surface) lies over the plane."""
    if owner.size == 0:
        return np.zeros(0, np.int8)
    h = np.einsum("kij,kj->ki", face - o[owner][:, None], n[owner])  # heights of its corners over the plane
    edge = face - face[:, [1, 2, 0]]
    reach = 1e-9 * np.sqrt((edge ** 2).sum(axis=2).max(axis=1))
    crosses = (h.max(axis=1) > reach) & (h.min(axis=1) < -reach)
    far = face[np.arange(owner.size), np.abs(h).argmax(axis=1)]
    p, q, f = flat(seg[:, 0], owner), flat(seg[:, 1], owner), flat(far, owner)
    d = q - p
    across = d[:, 0] * (f[:, 1] - p[:, 1]) - d[:, 1] * (f[:, 0] - p[:, 0])
    length = np.sqrt((d ** 2).sum(axis=1)) * np.sqrt(((f - p) ** 2).sum(axis=1))
    side = np.where(across > 1e-9 * length, 1, np.where(across < -1e-9 * length, -1, 0))
    return np.where(crosses, 0, side).astype(np.int8)


def _without_touches(owner, seg, inside, face, flat, snap):
    """The chords less those that come in touching pairs: two chords of one triangle along one line (within the
    snap distance) with the other solid on opposite sides.  They are where a ridge of the other surface (an edge
    whose two triangles both fall away on the same side) lies in this triangle's plane: the crossing test counts
    both triangles as crossing (a corner on the plane counts as on its positive side), but the other solid only
    touches the plane along the line, and this triangle is on the same side of it on both sides of the line."""
    k = owner.size
    if k < 2:
        return owner, seg, inside, face
    order = np.argsort(owner, kind="stable")
    owner, seg, inside, face = owner[order], seg[order], inside[order], face[order]
    count = np.bincount(owner)
    start = np.cumsum(count) - count
    i, j = _group_pairs(owner, count, start)
    if i.size == 0:
        return owner, seg, inside, face
    p = flat(seg[:, 0], owner)
    q = flat(seg[:, 1], owner)
    tol = snap[owner[i]]

    def near(x, y):
        return np.abs(x - y).max(axis=1) <= tol

    same_line = (near(p[i], p[j]) & near(q[i], q[j])) | (near(p[i], q[j]) & near(q[i], p[j]))
    d = q[i] - p[i]
    across = np.stack([-d[:, 1], d[:, 0]], axis=1)  # in the plane, across chord i

    wi = flat(seg[i, 0] + inside[i], owner[i]) - p[i]
    wj = flat(seg[j, 0] + inside[j], owner[j]) - p[j]
    opposite = np.einsum("ij,ij->i", wi, across) * np.einsum("ij,ij->i", wj, across) < 0.0
    drop = np.zeros(k, bool)
    drop[i[same_line & opposite]] = True
    drop[j[same_line & opposite]] = True
    keep = ~drop
    return owner[keep], seg[keep], inside[keep], face[keep]


def _spread(cls, s, slab, owner, left_lo, left_hi, right_lo, right_hi, corners2, size, blocked):
    """Classes carried from strip to strip across slab boundaries: two strips of consecutive slabs of one
    triangle whose sides on the common boundary overlap with positive length lie in one face of the cut (no
    segment separates them there, unless one stands upright on that boundary: `blocked` per cluster), so they
    share their class.  Strips (sorted by slab, then height) with class -1 take their neighbours' until
    nothing changes; what is left is asked of the winding number."""
    if not np.any(cls < 0) or cls.size < 2:
        return cls
    g = owner[s]
    y0 = corners2[:, :, 1].min(axis=1)[g]
    span = np.maximum(size[g], 1e-300)

    def key(y):  # slab index + height within the triangle scaled into [0, 0.5]: sorted like the strips
        return s + 0.5 * np.clip((y - y0) / span, 0.0, 1.0)

    eps = 1e-10 * size[g]
    pairs = []
    for (here_lo, here_hi, there_lo, there_hi, step) in ((left_lo, left_hi, right_lo, right_hi, -1),
                                                         (right_lo, right_hi, left_lo, left_hi, 1)):
        # each strip's side on a boundary, looked up among the facing sides of the neighbouring slab
        target = s + step
        ok = (target >= 0) & (target < slab.size) & (here_hi - here_lo > eps)
        ok &= np.where(ok, slab[np.clip(target, 0, slab.size - 1)] == slab[s] + step, False)
        ok &= ~blocked[slab[s] + (step > 0)]
        mid = 0.5 * (here_lo + here_hi)
        facing = key(there_hi)
        found = np.searchsorted(facing, target + 0.5 * np.clip((mid - y0) / span, 0.0, 1.0))
        found = np.clip(found, 0, s.size - 1)
        ok &= (s[found] == target) & (there_lo[found] <= mid) & (mid <= there_hi[found])
        ok &= there_hi[found] - there_lo[found] > eps
        here = np.flatnonzero(ok)
        pairs.append((here, found[here]))
    x = np.concatenate([p[0] for p in pairs])
    y = np.concatenate([p[1] for p in pairs])
    cls = cls.copy()
    while True:
        take = (cls[x] < 0) & (cls[y] >= 0)
        if not np.any(take):
            return cls
        cls[x[take]] = cls[y[take]]
