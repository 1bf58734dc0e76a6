"""Convex pieces of a closed mesh grown from its own vertices, each certified inside the solid (issue 19: members
of core/mesh/depth_cover.py's covering, for tubes and other bent shapes whose local inner polytopes the bend cuts
short).

Why vertex hulls.  A faceted tube is a union of convex pieces: the solid between two consecutive rings is the hull
of the two rings (the quads between them are planar), while the hull of three rings is not inside (the inner side
bends away).  An L prism is the union of two vertex hulls cut through its inner corner.  A piece is grown around a
point c inside the solid: the vertices nearest to c are tried one at a time, each kept when the hull of c and the
kept ones is still certified inside (so a centre between two rings takes the two rings and refuses the third).

The certificate.  Let S be the points (c and the kept vertices), and P' = {x : n_k . x <= o_k} for the supporting
planes of S through every triple of its points (the hull's facet planes, maintained as vertices join: a plane
through three old points stays a facet while the new point lies below it) and the six planes of S's box, each
pulled in by PULL x scale.  If every triangle of the mesh whose box comes within that box lies wholly at or
beyond one of those planes by a margin (each corner's n_k . v >= o_k + MARGIN x scale, far above the rounding
of the dot products), the closed set P'' = {n_k . x <= o_k + MARGIN x scale / 2} holds no surface point; being
convex (connected) it lies wholly inside or wholly outside the solid, and a point of it that the winding numbers
place inside settles which.  The piece returned is S pulled towards S's centroid until every point satisfies
every plane of P' (so its hull lies in P'', whatever the rounding of the pull).  A triangle that none of the
planes clears (it cuts the hull, or only an edge-edge axis would separate it) refuses the vertex that made it so.
"""
from __future__ import annotations

import numpy as np

from ..rows import row_dot
from .points import winding_numbers

__all__ = ["grow_piece", "pieces_around", "inside_piece", "certify", "facet_normals"]

CANDIDATES = 40
"""The vertices nearest to the centre tried for one piece (in order of distance)."""

PULL = 4e-9
"""The pieces' planes are pulled in by this times the pair's scale (beyond the coplanarity of a far-placed mesh's
planar quads, about 1e-10 of the scale)."""

MARGIN = 2e-9
"""A triangle is cleared by a plane when each of its corners lies at least this times the scale beyond the pulled-in
plane (so corners on the unpulled plane pass, and the rounding of the dot products, about 1e-15 of the scale, never
decides)."""

COPLANAR = 1e-9
"""A plane through three points supports the set when no point lies above it by more than this times the set's
size (planar quads rounded)."""

STALL = 10
"""Growth stops after this many vertices refused in a row (the piece is then as large as the nearby ones allow)."""

WHOLE = 64
"""A mesh of up to this many vertices is first tried whole (a convex one is its own piece)."""

DEDUPE = 48
"""Plane lists longer than this lose their repeats (the planes of a flat face's triangles)."""

_AXES = np.vstack([np.eye(3), -np.eye(3)])


def _new_planes(points, v, tol):
    """Unit outward normals of the planes through v and two of `points` that have every point (and v) on one side
    (within tol)."""
    i, j = np.triu_indices(points.shape[0], 1)
    if i.size == 0:
        return np.empty((0, 3))
    n = np.cross(points[i] - v, points[j] - v)
    length = np.sqrt(row_dot(n, n))
    size2 = float(np.max(row_dot(points - v, points - v)))
    ok = length > 1e-10 * size2
    n = n[ok] / length[ok][:, None]
    h = points @ n.T - (n @ v)[None, :]  # (points, planes)
    up = np.all(h <= tol, axis=0)
    down = np.all(h >= -tol, axis=0)
    return np.concatenate([n[up], -n[down]])


def _dedupe(n):
    if n.shape[0] < DEDUPE:
        return n
    _, first = np.unique(np.round(n * 1e9), axis=0, return_index=True)
    return n[np.sort(first)]


class Work:
    """A budget of work counted in estimated microseconds of a quiet core, not read from a clock, so a stage stops
    at the same point on every machine and in every run: the same pair always gets the same answer (a history's
    answer equals a fresh query's, swapped arguments agree).  `over()` compares what is spent with `cap`, which
    the caller may lower for one phase and raise for the next (at most `limit`)."""

    def __init__(self, limit: float):
        self.limit = self.cap = float(limit)
        self.spent = 0.0

    def spend(self, units: float) -> None:
        self.spent += units

    def over(self) -> bool:
        return self.spent > self.cap


CANDIDATE_COST = 250.0
"""Work units (`Work`) of one candidate vertex tried in `grow_piece`, plus TRIANGLE_COST per nearby triangle its
certificate checks (fitted by CPU time on corpus pairs: about 0.24 ms + 0.46 us per triangle)."""

TRIANGLE_COST = 0.5


def grow_piece(vertices, corners, lo, hi, c, scale, candidates: int = CANDIDATES, work: Work | None = None):
    """A convex piece around c (a point inside the solid, not yet checked: `inside_piece` does) grown from the
    `candidates` mesh `vertices` nearest to it, certified against the triangles (`corners` (m, 3, 3), their boxes
    `lo`, `hi`).  Returns (points, normals, offsets): the piece's points (its hull is the piece) and the planes
    P' of the module docstring, or None (no three-dimensional piece).  Growth stops (keeping the piece certified
    so far) once `work` is over its cap, if given; each candidate tried is charged to it."""
    pull, margin = PULL * scale, MARGIN * scale
    d2 = row_dot(vertices - c, vertices - c)
    order = np.argsort(d2, kind="stable")[:candidates]
    cand = vertices[order]
    region_lo = np.minimum(cand.min(axis=0), c) - 2.0 * margin
    region_hi = np.maximum(cand.max(axis=0), c) + 2.0 * margin
    near = np.flatnonzero(np.all(lo <= region_hi, axis=1) & np.all(hi >= region_lo, axis=1))
    tri, tlo, thi = corners[near], lo[near], hi[near]
    points = c[None, :].copy()
    normals = np.empty((0, 3))
    best, refused = None, 0
    for v in cand:
        if work is not None:
            if work.over():
                break
            work.spend(CANDIDATE_COST + TRIANGLE_COST * tri.shape[0])
        added = _added(points, normals, v)
        if added is None:
            continue
        trial, n = added
        if best is None and (trial.shape[0] < 4 or _flat(trial)):
            # not yet three-dimensional (points is three-dimensional once a trial passed): taken on trust until
            # the first check
            points, normals = trial, n
            continue
        planes = _certified(trial, n, tri, tlo, thi, pull, margin)
        if planes is not None:
            points, normals, best, refused = trial, n, planes, 0
        else:
            refused += 1
            if refused >= STALL:
                break
    if best is None:
        return None
    return points, best[0], best[1]


def _added(points, normals, v):
    """The set `points` with v joined and its facet normals updated (`normals` being those of `points`): the
    old facets v lies below stay, the new ones pass through v.  None when v coincides with every point."""
    size = float(np.sqrt(np.max(row_dot(points - v, points - v))))
    if size == 0.0:
        return None
    tol = COPLANAR * size
    keep = normals[(normals @ v) <= np.max(points @ normals.T, axis=0) + tol] if normals.shape[0] else normals
    return np.vstack([points, v]), _dedupe(np.concatenate([keep, _new_planes(points, v, tol)]))


def _flat(points) -> bool:
    """Whether the points lie in a plane, up to a relative 1e-9 (a ring of a tube and the centre in its plane)."""
    s = np.linalg.svd(points - points.mean(axis=0), compute_uv=False)
    return bool(s[2] <= 1e-9 * s[0])


def _certified(points, n, tri, tlo, thi, pull, margin):
    """The pulled-in planes (normals, offsets) of the set `points` with facet normals `n` and its box, or None when
    a triangle near the box is not cleared by one of them, or the set's centroid is not strictly inside them."""
    normals = np.concatenate([n, _AXES])
    offsets = np.max(points @ normals.T, axis=0) - pull
    centre = points.mean(axis=0)
    if np.any(normals @ centre > offsets - margin):
        return None
    blo, bhi = points.min(axis=0) - 2.0 * margin, points.max(axis=0) + 2.0 * margin
    meets = np.all(tlo <= bhi, axis=1) & np.all(thi >= blo, axis=1)
    t = tri[meets]
    if t.shape[0]:
        h = np.einsum("tcj,pj->tcp", t, normals)  # (triangles, corners, planes)
        cleared = np.any(np.all(h >= offsets[None, None, :] + margin, axis=1), axis=1)
        if not np.all(cleared):
            return None
    return normals, offsets


def facet_normals(points: np.ndarray) -> np.ndarray:
    """Unit outward normals of the planes through three of `points` with every point on one side (within
    COPLANAR of the set's size): the facet planes of their hull, each at least once."""
    normals = np.empty((0, 3))
    for k in range(1, points.shape[0]):
        v, before = points[k], points[:k]
        size = float(np.sqrt(np.max(row_dot(points[: k + 1] - v, points[: k + 1] - v))))
        tol = COPLANAR * size
        keep = normals[(normals @ v) <= np.max(before @ normals.T, axis=0) + tol] if normals.shape[0] else normals
        normals = _dedupe(np.concatenate([keep, _new_planes(before, v, tol)]))
    return normals


def certify(side, points: np.ndarray, scale: float):
    """Whether the hull of `points` (pair frame) is certified inside the closed mesh of `side` by the test of the
    module docstring (every nearby triangle cleared by a pulled-in plane of the hull or of its box, and the
    centroid inside by winding numbers).  Returns the piece's points pulled in (its hull is inside), or None."""
    world = side.world
    count = world.leaf_corners.shape[0]
    planes = _certified(points, facet_normals(points), world.leaf_corners, world.lo[:count], world.hi[:count],
                        PULL * scale, MARGIN * scale)
    if planes is None:
        return None
    pulled, centre = inside_piece(points, *planes)
    return pulled if winding_numbers(centre[None, :], world, scale)[0] != 0 else None


def inside_piece(points, normals, offsets):
    """The piece's points pulled towards their centroid until each satisfies every plane (relative slack 1e-9), and
    that centroid (the point the caller proves inside the solid)."""
    centre = points.mean(axis=0)
    delta = points - centre
    room = offsets - normals @ centre
    ratio = np.max((delta @ normals.T) / room[None, :], axis=1)
    delta = delta / np.maximum(ratio, 1.0)[:, None] * (1.0 - 1e-9)
    return centre + delta, centre


def pieces_around(side, centres, scale, most: int, work: Work | None = None):
    """Up to `most` certified pieces of the closed mesh of `side` (pair frame), grown around `centres` in order (a
    centre inside a piece already built is passed over; one on its boundary grows another, across the face), none
    started (and the one growing stopped) once `work` is over its cap.  Returns a list of (points, facet
    normals, unit edge directions): the piece is the hull of its points."""
    world = side.world
    count = world.leaf_corners.shape[0]
    corners, lo, hi = world.leaf_corners, world.lo[:count], world.hi[:count]
    vertices = side.vertices[side.local.used]
    built, planes, proofs = [], [], []
    if vertices.shape[0] <= WHOLE:
        found = _certified(vertices, facet_normals(vertices), corners, lo, hi, PULL * scale, MARGIN * scale)
        if found is not None:
            pts, centre = inside_piece(vertices, *found)
            built.append(pts)
            planes.append(found)
            proofs.append(centre)
            centres = centres[:0]  # a convex mesh: every piece lies in this one
    for c in centres:
        if len(built) >= most or (work is not None and work.over()):
            break
        if any(np.all(n @ c < o) for n, o in planes):
            continue
        grown = grow_piece(vertices, corners, lo, hi, c, scale, work=work)
        if grown is None:
            continue
        points, n, o = grown
        pts, centre = inside_piece(points, n, o)
        built.append(pts)
        planes.append((n, o))
        proofs.append(centre)
    if not built:
        return []
    inside = winding_numbers(np.array(proofs), world, scale) != 0
    return [(p, n[:-6], edges(p, n[:-6])) for p, (n, _), ok in zip(built, planes, inside) if ok]


def edges(points: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Unit directions of the hull's edges (and of some diagonals of faces split in two): the pairs of `points`
    that lie on two of the facet planes `normals` (within a hair)."""
    h = points @ normals.T
    hair = 1e-7 * float(np.max(np.abs(points - points.mean(axis=0))))
    tight = (h >= h.max(axis=0) - hair).astype(float)
    i, j = np.nonzero(np.triu(tight @ tight.T >= 2.0, 1))
    e = points[j] - points[i]
    length = np.sqrt(row_dot(e, e))
    ok = length > 0.0
    return e[ok] / length[ok][:, None]
