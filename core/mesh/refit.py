"""What a deforming mesh's next frame (new vertices on the same triangles) takes over from an earlier one: its
hierarchy, refitted without measuring the boxes again (`Refit`), and a witness that it is not convex
(`NotConvex`).

A hierarchy: every box of a hierarchy built on earlier vertices, moved and grown by how its vertices moved since.

A node's oriented box B (centre c, orthonormal axes e_i, half-lengths l_i) holds its triangles as they were
built.  The displacements of the node's vertices since lie in a box [lo, hi]; with s = (lo + hi) / 2 and r its
half-diagonal, every new corner lies within r of an old corner moved by s, so the new triangles (the hulls of
their corners) lie in B + s + a ball of radius r, which the box centred at c + s with half-lengths l_i + r along
the same axes holds.  That box is what `Refit.grown` gives for every node (the displacement boxes of the leaves
from their three corners, each parent's around its children's), r padded for rounding.  A mesh that moves or
breathes as a whole moves each small box nearly rigidly: r stays small.  The leaf order does not change, so
`WorldBVH` takes the hierarchy as it takes a built one (its axis-aligned boxes and leaf corners are always
measured on the new vertices).  Bounds from grown boxes are looser than from measured ones, so the caller
rebuilds once the vertices have moved too far (`Refit.grown` says how far they moved).

Not convex: core/topology.py's exact test fails a closed surface when the far corner of an edge's twin triangle
stands in front of the triangle's plane by more than its tolerance (1e-10 of the size plus the rounding of the
coordinates), measured from the centre of the box in the orientation of the enclosed volume.  `NotConvex` keeps
the edges that do so by the widest margin on the frame the full test rejected, and `holds` measures them again
on a new frame, asking twice the tolerance (so the rounding of a differently ordered sum cannot matter): if one
still stands in front, the full test would reject the new frame too, whatever it checks first (every other
check of it can only reject as well).  Only for meshes closed on their given indices (the full test then uses
those, without welding), with an enclosed volume clearly away from zero (its sign must be the test's), and on
triangles far from flat (the test sets flat ones aside).
"""
from __future__ import annotations

import copy

import numpy as np

from ..rows import row_cross, row_dot
from .bvh import LocalBVH, _pairs, _perpendicular

__all__ = ["Refit", "NotConvex"]

RELATIVE = 1e-10
"""core/topology.py's `convexity` tolerance, relative to the size (its default, the one `is_convex` uses)."""
WITNESSES = 16
"""Edges `NotConvex` keeps."""

_EPS = float(np.finfo(float).eps)


class Refit:
    """A built `LocalBVH` and the vertices it was built on; `grown(vertices)` refits it to new ones."""

    def __init__(self, bvh: LocalBVH, vertices: np.ndarray):
        self.bvh = bvh
        self.vertices = vertices
        # orthonormal axes of every box: the normal, the first axis from its half-vector (else from the
        # second one, else any perpendicular), the second their cross product, as the build makes them
        normal = bvh.normal
        h0, h1 = bvh.half[0], bvh.half[1]
        l0, l1 = np.sqrt(row_dot(h0, h0)), np.sqrt(row_dot(h1, h1))
        e0 = _perpendicular(normal)
        second = l1 > 0.0
        if np.any(second):
            e0[second] = row_cross(h1[second] / l1[second, None], normal[second])
        first = l0 > 0.0
        e0[first] = h0[first] / l0[first, None]
        self.axes = (e0, row_cross(normal, e0), normal)
        used = np.unique(bvh.leaf_triangles)
        self.reach = float(np.abs(vertices[used] - bvh.origin).max()) if used.size else 0.0

    def grown(self, vertices: np.ndarray) -> tuple[LocalBVH, float]:
        """(the hierarchy refitted to `vertices`, the largest distance a vertex moved since the build)."""
        moved = vertices - self.vertices
        bvh = self.bvh
        reach = max(self.reach, float(np.abs(vertices - bvh.origin).max()))
        # each node's displacements lie in a box: the node moves by its middle, and grows by its half-diagonal
        corners = [moved[bvh.leaf_triangles[:, k]] for k in range(3)]
        lo = np.minimum(np.minimum(corners[0], corners[1]), corners[2])
        hi = np.maximum(np.maximum(corners[0], corners[1]), corners[2])
        los, his = [lo], [hi]
        while lo.shape[0] > 1:  # each parent around its children, paired as the build pairs them
            lo, hi = np.minimum(*_pairs(lo)), np.maximum(*_pairs(hi))
            los.append(lo)
            his.append(hi)
        lo, hi = np.concatenate(los), np.concatenate(his)
        shift = 0.5 * (lo + hi)
        spread = 0.5 * (hi - lo)
        # padded: for the rounding of the axes (orthonormal to ~1e-16), of the displacements and of the boxes'
        # own arithmetic at this reach
        radius = np.sqrt(row_dot(spread, spread)) * (1.0 + 1e-9) + 64.0 * _EPS * reach
        grown = copy.copy(bvh)
        grown.centre = bvh.centre + shift
        grown.half = [h + radius[:, None] * e for h, e in zip(bvh.half, self.axes)]
        largest = float(np.sqrt(row_dot(moved, moved).max())) if moved.size else 0.0
        return grown, largest


def _heights(local, rows: np.ndarray):
    """(heights of the far corners over edge rows `rows` of the raw proper triangles, the test's tolerance), or
    None when the volume's sign is not clear (see the module docstring)."""
    topology = local.topology
    t = local.triangles[topology.raw_proper]
    vertices = local.vertices
    used = local.used
    points = vertices[used]
    lo, hi = points.min(axis=0), points.max(axis=0)
    size = float(np.sqrt(((hi - lo) ** 2).sum()))
    magnitude = float(np.maximum(np.abs(lo), np.abs(hi)).max())
    tol = RELATIVE * size + 16.0 * _EPS * magnitude
    centre = 0.5 * (lo + hi)
    a, b, c = (vertices[t[:, k]] - centre for k in range(3))
    volume = float(row_dot(a, row_cross(b, c)).sum())
    if not abs(volume) > 1e-9 * size ** 3:
        return None
    sign = 1.0 if volume > 0.0 else -1.0
    _, _, _, twin, _ = topology.raw_pairing
    owner = rows // 3
    other = twin[rows]
    far = t.reshape(-1)[other - other % 3 + (other + 2) % 3]
    e1, e2 = b[owner] - a[owner], c[owner] - a[owner]
    normal = row_cross(e1, e2)
    length = np.sqrt(row_dot(normal, normal))
    unit = normal / np.where(length > 0.0, length, 1.0)[:, None]
    heights = row_dot(vertices[far] - centre - a[owner], unit) * sign
    # a triangle the test would set aside as flat (sine of its corner angle below 1e-10), or nearly so, gives no
    # plane to stand in front of: its edges witness nothing
    flat = row_dot(normal, normal) <= 1e-16 * row_dot(e1, e1) * row_dot(e2, e2)
    return np.where(flat, -np.inf, heights), tol


class NotConvex:
    """Edges that prove a closed mesh not convex (see the module docstring); `find` them on a frame the exact test
    rejected, ask `holds` on a later frame with the same triangles."""

    def __init__(self, rows: np.ndarray):
        self.rows = rows

    @classmethod
    def find(cls, local) -> "NotConvex | None":
        if not local.raw_closed:
            return None
        _, _, _, _, ok = local.topology.raw_pairing
        rows = np.flatnonzero(ok)
        measured = _heights(local, rows)
        if measured is None:
            return None
        heights, tol = measured
        clear = np.flatnonzero(heights > 4.0 * tol)
        if clear.size == 0:
            return None
        best = clear[np.argsort(heights[clear])[::-1][:WITNESSES]]
        return cls(rows[best])

    def holds(self, local) -> bool:
        """The exact convexity test rejects this mesh (its triangles must be the ones the witness was found on)."""
        if not local.raw_closed:
            return False
        measured = _heights(local, self.rows)
        if measured is None:
            return False
        heights, tol = measured
        return bool(np.any(heights > 2.0 * tol))
