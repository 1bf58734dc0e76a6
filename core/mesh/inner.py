"""A convex body proved to lie inside a closed, nearly convex mesh: the lower bound of its depth.

A mesh that bounds a convex body only up to rounding fails the exact convexity test of core/mesh/parts.py:
Blender's UV Sphere stores its vertices in float32, so its quads, split into two triangles, fold inwards by up to
about 1e-6 of its size.  Its solid is then a hair smaller than its convex hull H, and the general pipeline's
point samples (core/mesh/query.py) see little of the depth of two such solids deep in each other.  This module
proves how small the hair is.

Kernel.  Let x lie strictly behind the plane of every triangle of a closed mesh (faces pointing outwards, i.e. a
positive enclosed volume; the mirror for inward faces).  Every triangle then subtends a solid angle of the same
sign at x, so the winding number at x, their sum over 4 pi, is a non-zero integer: x is inside the mesh (the
definition of core/mesh/points.py).  Triangles whose computed cross product is exactly zero subtend no solid angle
worth counting and are left out.

Shrunk hull.  Take a centre c strictly behind every triangle's plane and a factor s in (0, 1].  The body
c + s (H - c) is convex, so it is behind a plane as soon as its corners c + s (v - c) are (v: the mesh's vertices).
For triangle t with outward unit normal n_t through its corner a_t, write r_t = n_t . (a_t - c) > 0 (how far c is
behind the plane) and e_t = max over v of n_t . (v - a_t) >= 0 (how far the farthest vertex is in front of it: 0
for an exactly convex mesh).  Then every corner is behind the plane when s <= r_t / (r_t + e_t), and the largest
such s over all triangles puts the whole body inside the mesh (by the kernel argument).

Depth.  Every point p of H is within (1 - s) |p - c| <= (1 - s) R of its image c + s (p - c) (R = max over v of
|v - c|), so the support function of the body is at most (1 - s) R below H's.  The penetration depth of two convex
bodies is the minimum over directions u of h_A(u) + h_B(-u), and the shortest translation that separates two
solids can only shrink when the solids do.  So the depth of two such meshes lies between the hulls' depth minus
both shortfalls (1 - s) R and the hulls' depth itself.  An affine transform maps c + s (H - c) to
T(c) + s (T(H) - T(c)), so s is decided once in local coordinates and R is measured in world units
(`Inner.shortfall`).

Rounding.  Heights are measured from c, with a margin per triangle covering the rounding of its normal (which
grows as 1 / sine of its corner angle) and of the dot products: e_t is made larger and r_t smaller by it.
Work: the vertices are cut into spatially coherent chunks; a chunk's box bounds its heights over each plane, and
only chunks whose box reaches in front of a plane are measured vertex by vertex.  Meshes above `MAX_WORK`
(triangle, chunk) pairs get no certificate (their depth stays the general pipeline's).
"""
from __future__ import annotations

import math

import numpy as np

from .bvh import _hilbert
from .tritri import _cross, _dot

__all__ = ["Inner", "inner_body"]

MAX_WORK = 100_000_000
"""Cap on (triangle, chunk) pairs measured by box, and on (triangle, vertex) pairs measured exactly."""

NEARLY = 1e-4
"""A mesh is nearly convex when its proved body is its hull shrunk by a factor s >= 1 - NEARLY: Blender's float32
UV Sphere measures 6e-7, a cube under Simple subdivision 8e-7, a UV Sphere of radius 0.5 stored 300 units from the
origin 7e-5 (float32's spacing there is 3e-5).  Below that, `inner_body` gives up as soon as one vertex is far
enough in front of one triangle's plane to prove it."""

CHUNK = 32
"""Vertices per chunk (more for large meshes, so that there are at most about 1,024 chunks)."""

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
        reach = float(np.sqrt(_dot(offsets, offsets).max()))
        # rounded up by a few ulps: the bound must not come out a hair too small
        return self.shrink * reach * (1.0 + 8.0 * _EPS)


def inner_body(local) -> Inner | None:
    """The proved inner body of a closed, nearly convex mesh (`_LocalData`), or None: an open mesh, a centre not
    behind every plane (a torus, a cup, two loose parts, a crate's cavity), a body short of s >= 1 - NEARLY, or a
    mesh larger than the work cap.  Cached on the local data."""
    found = local.cached("inner body", lambda: _inner_body(local) or False)
    return found or None


def _inner_body(local) -> Inner | None:
    if not local.closed:
        return None
    used = local.used
    tris = local.triangles[local.proper]
    vertices = local.vertices
    lo, hi = vertices[used].min(axis=0), vertices[used].max(axis=0)
    centre = 0.5 * (lo + hi)
    points = vertices[used] - centre
    a = vertices[tris[:, 0]] - centre
    e1 = vertices[tris[:, 1]] - vertices[tris[:, 0]]
    e2 = vertices[tris[:, 2]] - vertices[tris[:, 0]]
    normal = _cross(e1, e2)
    length = np.sqrt(_dot(normal, normal))
    keep = length > 0.0
    if not np.any(keep):
        return None
    a, normal, length = a[keep], normal[keep], length[keep]
    e1, e2 = e1[keep], e2[keep]
    volume = float(_dot(a, normal).sum())  # six times the enclosed volume, up to its sign
    if volume == 0.0:
        return None
    unit = normal / length[:, None] * (1.0 if volume > 0.0 else -1.0)
    reach = float(np.sqrt(_dot(points, points).max()))
    # rounding of a height n_t . (p - a_t) over |p - a_t| <= 2 reach: the normal's direction is off by about
    # eps |e1| |e2| / |e1 x e2|, the products by a few eps
    margin = 16.0 * _EPS * reach * (1.0 + np.sqrt(_dot(e1, e1) * _dot(e2, e2)) / length)
    behind = _dot(unit, a) - margin  # r_t: how far the centre is behind each plane (made smaller by the margin)
    if not np.all(behind > 0.0):
        return None
    # s >= 1 - NEARLY needs e_t <= NEARLY / (1 - NEARLY) r_t on every plane
    ahead = _ahead(points, unit, _dot(unit, a), NEARLY / (1.0 - NEARLY) * behind - margin)
    if ahead is None:
        return None
    ahead = np.maximum(ahead, 0.0) + margin  # e_t (made larger by the margin)
    shrink = float(np.max(ahead / (behind + ahead)))  # 1 - s, with s the smallest r_t / (r_t + e_t)
    return Inner(centre, shrink, used) if shrink <= NEARLY else None


def _ahead(points: np.ndarray, unit: np.ndarray, offset: np.ndarray, limit: np.ndarray) -> np.ndarray | None:
    """max over `points` of unit_t . p - offset_t for every plane t, or None past the work cap or as soon as a
    height exceeds its plane's `limit`.

    Points are sorted along a Hilbert curve (core/mesh/bvh.py) and cut into chunks; a chunk's box gives an upper bound of its heights,
    and only chunks whose bound is above the largest height already known for that plane (at first 0: every plane
    holds its own corners) are measured point by point."""
    n = points.shape[0]
    size = max(CHUNK, -(-n // 1024))
    order = np.argsort(_hilbert(points), kind="stable")
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

