"""A history answers bit for bit as the fresh query when the closest pair is a near tie (issue #21).

Two bumpy spheres dragged around each other, apart: their closest points are often a corner of one near a corner
or an edge of the other, shared by several triangles, and the exact kernel gives those triangle pairs distances or
points a few ulps apart.  Which of them the fresh query reports depends on the order of its own search (its upper
bound's picks level by level, its chunks of lower bounds), which the history cannot see; so on such a tie the
history must leave the pose to the fresh query, or answer only where the order cannot matter (every pair at the
least distance gives the same points, and the fresh query is sure to measure one of them: coherence.`_reached`).
Every pose's answer must be the fresh one, every field; and the drag must hold such ties, judged by an
independent look at the pairs around the answer's points (the kernel's rows of every pair of triangles near
them), else the case was not tested.
"""
from __future__ import annotations

import numpy as np

import core
from core.mesh.tritri import triangle_triangle
from tests.core.answers import assert_same_answer


def _bumpy_sphere(rings, rng):
    """A UV sphere of radius about 1, `rings` latitude rings and as many meridians, every vertex pushed in or out
    by up to 2 %."""
    theta = np.linspace(0.0, np.pi, rings + 2)[1:-1]
    phi = np.arange(rings) * (2.0 * np.pi / rings)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    v = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], -1).reshape(-1, 3)
    v = np.vstack([v, [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]])
    v *= (1.0 + 0.02 * rng.uniform(-1.0, 1.0, len(v)))[:, None]
    tri = []
    for i in range(rings - 1):
        for j in range(rings):
            a, b = i * rings + j, i * rings + (j + 1) % rings
            c, d = a + rings, b + rings
            tri += [(a, c, b), (b, c, d)]
    north, south = len(v) - 2, len(v) - 1
    last = (rings - 1) * rings
    for j in range(rings):
        tri += [(north, (j + 1) % rings, j), (south, last + j, last + (j + 1) % rings)]
    return v, np.array(tri, np.int64)


def _near_tie(va, ta, vb, tb, shift, contact, scale) -> bool:
    """Whether the triangle pairs around the answer's points hold a near tie: pairs within 1e-9 x scale of the
    least distance whose distances or points are not all the same bits (every pair of triangles with a corner
    within a triangle's size of the points is measured; B is placed by `shift`)."""
    pa, pb = np.asarray(contact.point_a), np.asarray(contact.point_b) - shift
    reach = 0.5

    def near(v, t, p):
        return np.flatnonzero(np.min(np.linalg.norm(v[t] - p, axis=2), axis=1) <= reach)

    ia, ib = near(va, ta, pa), near(vb, tb, pb)
    ia, ib = np.repeat(ia, ib.size), np.tile(ib, ia.size)
    d, xa, xb = triangle_triangle(va[ta[ia]], vb[tb[ib]] + shift)
    tied = d <= d.min() + 1e-9 * scale
    rows = {(float(d[k]).hex(), xa[k].tobytes(), xb[k].tobytes()) for k in np.flatnonzero(tied)}
    return len(rows) > 1


def test_moved_near_ties():
    rng = np.random.default_rng([21, 20])
    va, ta = _bumpy_sphere(20, rng)
    vb, tb = _bumpy_sphere(20, rng)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    history = core.PairHistory()
    ties = 0
    for i, s in enumerate(np.arange(40) * 0.01):
        radius = 2.06 + 0.02 * np.sin(15.0 * s)
        pose = np.eye(4)
        pose[:3, 3] = radius * np.cos(s), radius * np.sin(s), 0.0
        moved = b.moved(pose)
        got = core.collide(a, moved, history=history, depth_interval=False)
        want = core.collide(a, moved, depth_interval=False)
        assert_same_answer(got, want, (i, history.route))
        assert want.status is core.Status.SEPARATED
        ties += _near_tie(va, ta, vb, tb, pose[:3, 3], want, 2.2)
    assert ties >= 3, ties
