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


def _t_junction_box():
    """A box whose edge (a, c) is split by its middle m on one side only: the triangle (c, a, y) on that side
    becomes (c, m, y) + (m, a, y), and the collinear sliver (a, m, c), three distinct corners and zero area,
    fills the T-junction (its edges cancel those of the split)."""
    v, t = box()
    row = 0
    a, c, y = (int(i) for i in t[row])
    v = np.concatenate([v, [0.5 * (v[a] + v[c])]])
    m = v.shape[0] - 1
    # the first triangle holds a -> c; find the neighbour holding c -> a and split it at m
    tri = [list(x) for x in t]
    a, c = tri[row][0], tri[row][1]
    other = next(k for k, x in enumerate(tri) if any((x[i], x[(i + 1) % 3]) == (c, a) for i in range(3)))
    x = tri[other]
    i = next(i for i in range(3) if (x[i], x[(i + 1) % 3]) == (c, a))
    y = x[(i + 2) % 3]
    tri[other] = [c, m, y]
    tri.append([m, a, y])
    tri.append([a, m, c])
    return v, np.array(tri)


def test_collinear_sliver_filling_a_t_junction_keeps_a_mesh_closed():
    # A guard next to F_SLIVER's fix (tests/core/test_mesh_corpus.py; closedness became edge balance): a truly
    # collinear sliver with three distinct corners whose edges cancel those of a split neighbour.  The surface
    # has no boundary: closed, it still holds a small box inside it (the earlier rule agreed here; it only broke
    # on the doubled sliver, test_mesh_corpus_regressions.py::test_zero_area_sliver_pair_keeps_a_mesh_closed).
    v, t = _t_junction_box()
    outer = core.TriangleMesh(v * 4.0 - 2.0, t)
    assert outer.is_closed
    inner = mesh(box((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)))
    c = core.collide(inner, outer)
    assert c.status is Status.INTERSECTING and c.containment is core.Containment.A_INSIDE_B
