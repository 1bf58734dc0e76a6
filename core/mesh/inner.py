"""A convex body proved to lie inside a closed, nearly convex mesh: the lower bound of its depth.

A mesh that bounds a convex body only up to rounding fails the exact convexity test of core/topology.py:
Blender's UV Sphere stores its vertices in float32, so its quads, split into two triangles, fold inwards by up to
about 1e-6 of its size.  Its solid is then a hair smaller than its convex hull H, and the general pipeline's
point samples (core/mesh/query.py) see little of the depth of two such solids deep in each other.  This module
proves how small the hair is.

The centre.  Take c strictly behind the plane of every triangle (faces pointing outwards, i.e. a positive enclosed
volume; the mirror for inward faces).  Every triangle then subtends a solid angle of the same sign at c, so the
winding number at c, their sum over 4 pi, is a non-zero integer: c is inside the mesh (the definition of
core/mesh/points.py).  Triangles whose computed cross product is exactly zero subtend no solid angle worth
counting and are left out.

Shrunk hull.  For s in (0, 1] the body c + s (H - c) is convex, holds c in its interior, and has support
h(u) = u . c + s (h_H(u) - u . c).  A triangle t lies in the half-space {x : u . x >= m_t(u)} of any unit direction
u (m_t: the smallest u . x over its corners), so it misses the body's interior as soon as
m_t(u) - u . c >= s (h_H(u) - u . c), i.e. s <= m_t / h_t measured from c.  With s the smallest such ratio over
all triangles, each with a direction of its own, no triangle meets the body's interior: that interior is
connected, so the winding number is the same all over it, the one at c.  The body is inside the mesh.  The
direction u_t is the triangle's own normal (then h_t - m_t is how far the farthest vertex is in front of its
plane: 0 for an exactly convex mesh) or the area-weighted normal of it and its neighbours within SMOOTH of its
plane (a quad split in two and folded by a hair is judged by the quad's plane), whichever gives the smaller
ratio (`_directions`).

Depth.  Every point p of H is within (1 - s) |p - c| <= (1 - s) R of its image c + s (p - c) (R = max over v of
|v - c|), so the support function of the body is at most (1 - s) R below H's.  The penetration depth of two convex
bodies is the minimum over directions u of h_A(u) + h_B(-u), and the shortest translation that separates two
solids can only shrink when the solids do.  So the depth of two such meshes lies between the hulls' depth minus
both shortfalls (1 - s) R and the hulls' depth itself.  An affine transform maps c + s (H - c) to
T(c) + s (T(H) - T(c)), so s is decided once in local coordinates and R is measured in world units
(`Inner.shortfall`).

Rounding.  Heights u . (x - c) are measured on coordinates taken from c, and m_t is rounded down and h_t up by
16 ulps of the mesh's reach (whatever vector u is, the argument holds for it; only its dot products round).  The
centre's side of each triangle is judged by the sign of the triple product, beyond its rounding.
Work: the vertices are cut into spatially coherent chunks; a chunk's box bounds its heights over each plane, and
only chunks whose box reaches in front of a plane are measured vertex by vertex.  Before that, a few hundred planes
measured against every vertex settle most plainly non-convex meshes (a bump, a dent: `_clearly_beyond`), which
would otherwise pass the first pass's loose limit and be measured in full.  Meshes above `MAX_WORK`
(triangle, chunk) pairs get no certificate (their depth stays the general pipeline's).
"""
from __future__ import annotations

import math

import numpy as np

from ..rows import row_cross, row_dot
from ..topology import edge_twins
from .bvh import hilbert_keys

__all__ = ["Inner", "inner_body"]

MAX_WORK = 100_000_000
"""Cap on (triangle, chunk) pairs measured by box, and on (triangle, vertex) pairs measured exactly."""

NEARLY = 1e-4
"""A mesh is nearly convex when its proved body is its hull shrunk by a factor s >= 1 - NEARLY: 1 - s measures
3e-7 for Blender's default UV Sphere (float32), 5e-7 for a cube under Simple subdivision, 3e-5 for a UV Sphere of
radius 0.5 stored 300 units from the origin (float32's spacing there is 3e-5).  The first pass gives up as soon as
one triangle is 100 times further off than that (a mesh that is just not convex)."""

CHUNK = 32
"""Vertices per chunk (more for large meshes, so that there are at most about 1,024 chunks)."""

SMOOTH = 1e-3
"""Neighbours whose normals are within this angle (radians) of a triangle's are averaged into its direction."""

_EPS = float(np.finfo(float).eps)


class Inner:
    """c + s (H - c) lies inside the closed mesh (see the module docstring).  `centre` c is local; `shrink` is
    1 - s."""

    __slots__ = ("centre", "shrink", "_used")

    def __init__(self, centre: np.ndarray, shrink: float, used: np.ndarray):
        self.centre = centre
        self.shrink = shrink
        self._used = used

    def shortfall(self, mesh) -> float:
        """(1 - s) R in world units for `mesh` (a TriangleMesh on this local data): how far the proved body falls
        short of the convex hull of the mesh's vertices, in every direction."""
        offsets = mesh.vertices[self._used] - self.centre
        if mesh._linear is not None:
            offsets = offsets @ mesh._linear.T
        reach = float(np.sqrt(row_dot(offsets, offsets).max()))
        # rounded up by a few ulps: the bound must not come out a hair too small
        return self.shrink * reach * (1.0 + 8.0 * _EPS)


def inner_body(local) -> Inner | None:
    """The proved inner body of a closed, nearly convex mesh (`_LocalData`), or None: an open mesh, a centre not
    behind every plane (a torus, a cup, two loose parts, a crate's cavity), a body short of s >= 1 - NEARLY, or a
    mesh larger than the work cap.  Cached on the local data."""
    found = local.cached("inner body", lambda: _inner_body(local) or False)
    return found or None


CENTRE_SAMPLE = 64
"""`_inner_body` first judges the centre's side of CENTRE_SAMPLE triangles spread over the mesh
(`_centre_fails_sample`)."""


def _centre_fails_sample(vertices, triangles, centre) -> bool:
    """Does the centre fail the side test of `_inner_body` whichever way the mesh turns, on a sample of the
    triangles alone?  Their triple products and sizes are `_inner_body`'s own numbers for those rows; a triangle
    (of non-zero cross product) not turning positively by more than the rounding and another not turning
    negatively by more than it fail the test for either sign of the volume, and so does the whole mesh."""
    k = triangles.shape[0]
    if k <= CENTRE_SAMPLE:
        return False
    corners = vertices[triangles[::k // CENTRE_SAMPLE]] - centre
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    normal = row_cross(b - a, c - a)
    keep = row_dot(normal, normal) > 0.0
    triple = row_dot(a, row_cross(b, c))[keep]
    limit = 32.0 * _EPS * np.sqrt(row_dot(a, a) * row_dot(b, b) * row_dot(c, c))[keep]
    return bool(np.any(triple <= limit) and np.any(-triple <= limit))


def _inner_body(local) -> Inner | None:
    if not local.closed:
        return None
    used = local.used
    vertices = local.vertices
    lo, hi = vertices[used].min(axis=0), vertices[used].max(axis=0)
    centre = 0.5 * (lo + hi)
    proper = local.proper
    if _centre_fails_sample(vertices, local.triangles[proper], centre):
        return None
    points = vertices[used] - centre
    corners = vertices[local.triangles[proper]] - centre  # (k, 3, 3)
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    normal = row_cross(b - a, c - a)
    keep = row_dot(normal, normal) > 0.0
    if not np.any(keep):
        return None
    # the centre behind every triangle: the tetrahedron (centre, a, b, c) turns the same way as the whole mesh,
    # by more than the rounding of the triple product
    triple = row_dot(a, row_cross(b, c))
    volume = float(triple[keep].sum())  # six times the enclosed volume
    if volume == 0.0:
        return None
    sign = 1.0 if volume > 0.0 else -1.0
    size = np.sqrt(row_dot(a, a) * row_dot(b, b) * row_dot(c, c))
    if not np.all(triple[keep] * sign > 32.0 * _EPS * size[keep]):
        return None
    # without merged vertices the welded triangles are the given ones relabelled one to one: the same twins
    pairing = None if local.weld_merges else local.topology.raw_pairing
    own, smooth = _directions(normal * sign, local.welded[proper], keep, pairing)
    corners = corners[keep]
    reach = float(np.sqrt(row_dot(points, points).max()))
    rounding = 16.0 * _EPS * reach  # of a height u . (p - c) with |u| = 1, |p - c| <= reach
    if _clearly_beyond(points, own, smooth, corners, rounding):
        return None
    # every triangle with the smoothed direction (giving up at 100 x NEARLY: no nearly convex mesh is that far)
    worst = _ratios(points, smooth, corners, rounding, 100.0 * NEARLY)
    if worst is None:
        return None
    # then its own normal where that may lower the largest ratio, the worst triangles first, until the next
    # triangle's smoothed ratio is no worse than the best answer found
    order = np.argsort(-worst, kind="stable")
    shrink, start, batch = 0.0, 0, 256
    while start < order.size and worst[order[start]] > shrink:
        rows = order[start:start + batch]
        ratio = _ratios(points, own[rows], corners[rows], rounding, math.inf)
        if ratio is None:
            return None
        shrink = max(shrink, float(np.minimum(ratio, worst[rows]).max()))
        start, batch = start + batch, 2 * batch
    return Inner(centre, shrink, used) if shrink <= NEARLY else None


SAMPLES = (64, 512)
"""How many triangles (evenly spread over the mesh's order) `_clearly_beyond` measures against every vertex: a
few first, more when those decide nothing."""


def _clearly_beyond(points, own, smooth, corners, rounding) -> bool:
    """True when a sample of the triangles already proves that `_inner_body` ends above NEARLY (a bumped, dented
    or otherwise plainly non-convex mesh, which passes the first pass's 100 x NEARLY but not NEARLY).

    Why it is sound: the passes of `_inner_body` end with shrink = the largest over all triangles t of
    min(own ratio of t, smoothed ratio of t) (a triangle left out of the second pass has a smoothed ratio no
    larger than the shrink already found).  A ratio (h - m + rounding) / h is increasing in the height of the
    farthest vertex, so measuring every vertex exactly against a few planes gives each of their ratios up to
    rounding; a triangle whose two ratios both exceed 2 x NEARLY (a margin far beyond any rounding) makes the
    answer None whatever the rest of the mesh does.  Otherwise nothing is decided here."""
    for sample in SAMPLES:
        rows = np.arange(0, own.shape[0], max(1, own.shape[0] // sample))
        worst = None
        for direction in (own[rows], smooth[rows]):
            low = np.einsum("kij,kj->ki", corners[rows], direction).min(axis=1) - rounding
            if not np.all(low > 0.0):
                return False
            ahead = np.maximum((direction @ points.T).max(axis=1) - low, 0.0) + rounding
            ratio = ahead / (low + ahead)
            worst = ratio if worst is None else np.minimum(worst, ratio)
        if worst.max() > 2.0 * NEARLY:
            return True
    return False


def _ratios(points, direction, corners, rounding, limit):
    """(h_t - m_t) / h_t for each triangle t with unit direction u_t (module docstring: s = min_t m_t / h_t), from
    m_t = min over its corners of u_t . (x - c) rounded down and h_t = max over the vertices rounded up; inf where
    m_t is not positive.  None past the work cap or if some ratio exceeds `limit`."""
    low = np.einsum("kij,kj->ki", corners, direction).min(axis=1) - rounding
    usable = low > 0.0
    bound = np.where(usable, limit / (1.0 - limit) * low - rounding, np.inf) if math.isfinite(limit) else \
        np.full(low.size, np.inf)
    if not np.all(usable) and math.isfinite(limit):
        return None
    ahead = _ahead(points, direction, low, bound)
    if ahead is None:
        return None
    ahead = np.maximum(ahead, 0.0) + rounding
    return np.where(usable, ahead / np.where(usable, low + ahead, 1.0), np.inf)


def _directions(normal: np.ndarray, topo: np.ndarray, keep: np.ndarray, pairing=None):
    """Two outward unit directions for each triangle `keep` (see the module docstring): its own normal, and the
    area-weighted sum of its normal and those of its neighbours across an edge within SMOOTH of it (a quad split
    in two and folded by a hair, or a flat face of many small triangles, is better judged by that; a curved fan by
    its own normal).  `_inner_body` takes the better one per triangle.  pairing: `edge_twins` of triangles
    whose edges pair up as topo's do, row for row (only its owners, twins and ok are read), when known."""

    length = np.sqrt(row_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    total = normal.copy()
    _, _, owner, twin, ok = edge_twins(topo, int(topo.max()) + 1) if pairing is None else pairing
    twin = twin // 3
    close = ok & (row_dot(unit[owner], unit[twin]) >= math.cos(SMOOTH)) & keep[twin]
    for axis in range(3):
        total[:, axis] += np.bincount(owner[close], weights=normal[twin[close], axis], minlength=normal.shape[0])
    smooth = total / np.where(length > 0.0, np.sqrt(row_dot(total, total)), 1.0)[:, None]
    return unit[keep], smooth[keep]


def _ahead(points: np.ndarray, unit: np.ndarray, offset: np.ndarray, limit: np.ndarray) -> np.ndarray | None:
    """max(0, max over `points` of unit_t . p - offset_t) for every plane t, or None past the work cap or as soon as a
    height exceeds its plane's `limit`.

    Points are sorted along a Hilbert curve (core/mesh/bvh.py) and cut into chunks; a chunk's box bounds its
    heights over each plane, and only chunks whose box reaches above a plane's offset are measured point by point
    (the answer is never below 0: the heights below the offset do not matter to the caller).
    """
    n = points.shape[0]
    size = max(CHUNK, -(-n // 1024))
    order = np.argsort(hilbert_keys(points), kind="stable")
    pad = (-n) % size
    sorted_points = points[np.concatenate([order, np.repeat(order[-1:], pad)])]
    chunks = sorted_points.reshape(-1, size, 3)
    count = chunks.shape[0]
    if unit.shape[0] * count > MAX_WORK:
        return None
    lo, hi = chunks.min(axis=1), chunks.max(axis=1)
    mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo)
    best = np.zeros(unit.shape[0])
    flat = unit.shape[0]
    step = max(1, MAX_WORK // (8 * flat))
    measured = 0
    for start in range(0, count, step):
        # chunk by chunk: the planes its box reaches in front of, then its points against just those planes
        bound = mid[start:start + step] @ unit.T + half[start:start + step] @ np.abs(unit).T - offset
        for k, row in enumerate(bound > 0.0, start):
            planes = np.flatnonzero(row)
            if planes.size == 0:
                continue
            measured += planes.size
            if measured * size > MAX_WORK:
                return None
            heights = (unit[planes] @ chunks[k].T).max(axis=1) - offset[planes]
            if np.any(heights > limit[planes]):
                return None
            best[planes] = np.maximum(best[planes], heights)
    return best

