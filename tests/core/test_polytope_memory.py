"""Regression: a hull triangulation with vertices of thousands of neighbours (qhull splits a cylinder's flat cap
into a fan from one of its corners) made the support climbs of core/supports.py look at every (direction,
neighbour) pair at once: 134 million pairs, 1 GiB per array, for an 8,192-sided cylinder against its copy in
place, and the process was killed for want of memory.  They now go in blocks of at most `_BLOCK` pairs.

Measured with tracemalloc (numpy reports its buffers to it) on a 2,048-sided cylinder, where the old climbs peaked at
about 600 MB and the blocked ones at about 13 MB; the answer is checked against the smallest width of the
cylinder (tests/core/duplicates.py)."""
from __future__ import annotations

import tracemalloc

import numpy as np

import core
from core.polytope import ConvexPolytope
from tests.core.duplicates import cylinder, hull_triangles, symmetric_width


def test_fan_triangulated_caps_are_climbed_in_bounded_memory():
    half = cylinder(2048)[:1024, :2]  # a 2,048-sided cylinder made centrally symmetric bit for bit
    ring = np.vstack([half, -half])
    vertices = np.vstack([np.column_stack([ring, -np.ones(2048)]), np.column_stack([ring, np.ones(2048)])])
    triangles = hull_triangles(vertices)
    assert np.bincount(triangles.reshape(-1)).max() > 1000  # the fan this is about
    a, b = ConvexPolytope(vertices, triangles), ConvexPolytope(vertices.copy(), triangles)
    tracemalloc.start()
    try:
        contact = core.collide(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100e6, f"{peak / 1e6:.0f} MB"
    depth = symmetric_width(vertices)
    assert contact.converged and abs(contact.depth - depth) <= 1e-9 * contact.scale
