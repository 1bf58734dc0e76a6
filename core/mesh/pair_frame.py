"""The pair frame of the mesh query (core/mesh/query.py): both meshes placed around one origin, with the pair's
scale and touching band.

`Frame`: origin = centre of the pair's world box (the same for (a, b) and (b, a), so the answers agree up to the
swap), scale = the larger world box diagonal, band = the touching tolerance x scale, and each mesh as a `Side`
(its world vertices and its hierarchy placed in the frame).
"""
from __future__ import annotations

import math

import numpy as np

from ..tolerances import Tolerances
from .bvh import WorldBVH, local_boxes
from .trimesh import TriangleMesh

__all__ = ["Frame", "Side", "unit_or"]


class Side:
    """One mesh placed in the pair frame."""

    def __init__(self, mesh: TriangleMesh, origin: np.ndarray):
        self.mesh = mesh
        self.local = mesh._local
        self.offset = mesh._translation - origin
        self.vertices = mesh.world_vertices(origin)
        self.closed = bool(self.local.closed)
        self._world = None

    @property
    def world(self) -> WorldBVH:
        """The hierarchy placed in the pair frame (built on first use: the certificates of core/mesh/copies.py
        answer some convex pairs without it)."""
        if self._world is None:
            local, linear = self.local, self.mesh._linear
            # without a linear part the boxes are the local ones shifted (see WorldBVH), kept with the local data
            boxes = None if linear is not None else local.cached("local boxes",
                                                                  lambda: local_boxes(local.bvh, local.vertices))
            self._world = WorldBVH(local.bvh, self.vertices, linear, self.offset, boxes)
        return self._world


def unit_or(v, fallback):
    n = float(np.linalg.norm(v))
    return v / n if n > 0.0 and math.isfinite(n) else np.asarray(fallback, float)


def pair_box(a: TriangleMesh, b: TriangleMesh):
    """(origin, scale, (lo_a, hi_a), (lo_b, hi_b)) of a pair: origin = the centre of the pair's world box (the same
    for (a, b) and (b, a)), scale = the larger world box diagonal.  ValueError when the extent overflows float64."""
    lo_a, hi_a = a.bounds()
    lo_b, hi_b = b.bounds()
    scale = max(float(np.linalg.norm(hi_a - lo_a)), float(np.linalg.norm(hi_b - lo_b)))
    if not math.isfinite(scale):
        raise ValueError("the meshes are too large to measure in float64 (their extent overflows)")
    origin = 0.5 * (np.minimum(lo_a, lo_b) + np.maximum(hi_a, hi_b))
    return origin, scale, (lo_a, hi_a), (lo_b, hi_b)


class Frame:
    """The pair frame: origin = centre of the pair's world box (the same for (a, b) and (b, a), so the answers
    agree up to the swap), scale = the larger world box diagonal, the touching band, both sides placed in it."""

    def __init__(self, a: TriangleMesh, b: TriangleMesh, tolerances: Tolerances):
        self.origin, self.scale, (lo_a, hi_a), (lo_b, hi_b) = pair_box(a, b)
        self.band = tolerances.touching * self.scale
        self.sa, self.sb = Side(a, self.origin), Side(b, self.origin)
        self.fallback_normal = unit_or(0.5 * (lo_b + hi_b) - self.origin, [0.0, 0.0, 1.0])
        # only where the boxes meet can anything be inside the other mesh
        self.boxes_meet = bool(np.all(lo_a <= hi_b + self.band) and np.all(lo_b <= hi_a + self.band))
