"""Bugs found while building the mesh engine, each pinned by name."""
from __future__ import annotations

import numpy as np

import core
from core import Status
from tests.core.meshes import box, mesh, square, translate


def test_every_pair_pruned_before_the_leaves():
    # The first triangles' exact distance already equalled the answer, so every node pair was pruned before the
    # leaves and the descent took argmin of an empty array.  An open box against a far box did it.
    v, t = box()
    c = core.collide(core.TriangleMesh(v, t[2:]), mesh(translate(box(), [0.0, 0.0, 3.0])))
    assert c.status is Status.SEPARATED and abs(c.distance - 2.0) < 1e-12


def test_open_square_crossing_a_box_gets_a_depth():
    # The square's two big triangles have every corner outside the box and the centroids of their parts on the
    # inner side of one box face are outside too: the depth was 0.  Points stepped off the crossing curve fix it.
    c = core.collide(mesh(square(0.5)), mesh(box()))
    assert c.status is Status.INTERSECTING and c.depth > 0.0


def test_sliver_does_not_close_a_mesh():
    # A zero-area triangle with three distinct corners is an ordinary triangle for topology: its edges are
    # unmatched, so the mesh is open (only a repeated corner index makes a triangle vanish from topology).
    v, t = box()
    v = np.concatenate([v, [[0.5, 0.0, 0.0]]])
    assert not core.TriangleMesh(v, np.concatenate([t, [[0, 8, 4]]])).is_closed
