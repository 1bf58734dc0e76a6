"""core/hull.py `_insert`: a visible region is fanned in only when it is a disc; anything else declines.

Rounding can make the faces a point "sees" something other than a disc; `_insert` then returns False and
`convex_hull` declines (None).  The disc test counts the loops of the region's border (by pointer doubling) and
refuses pinched borders.  Judged on hand-made regions of an Ico Sphere split once (42 vertices, 80 faces; regions
picked by vertex adjacency, independent of the code under test):
- the star of a vertex (a disc) is fanned in: the surface stays closed and consistently oriented, the apex has
  as many new faces as the star had border edges;
- a ring of faces around a star (an annulus: two border loops) is refused;
- two faces that meet only at a corner (a pinched border) are refused;
- two disjoint stars at once (one loop each) are fanned in together.
"""
from __future__ import annotations

import numpy as np

from core import hull
from core.sphere_cells import icosphere


def _mesh():
    v, tri = icosphere(1)
    return v, tri


def _state(points: np.ndarray, tri: np.ndarray):
    P = np.ascontiguousarray(points.T)
    faces = hull._Faces(4 * tri.shape[0])
    k = tri.shape[0]
    plane, ok = hull._planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
    assert ok.all()
    nb, back = hull._neighbours(tri, points.shape[0], slots=True)
    faces.start(tri, nb, back, plane)
    owner = np.full(points.shape[0], -1, np.int64)
    height = np.zeros(points.shape[0])
    return P, faces, owner, height


def _star(tri: np.ndarray, vertex: int) -> np.ndarray:
    return np.flatnonzero((tri == vertex).any(axis=1))


def _closed_and_oriented(tri: np.ndarray) -> bool:
    directed = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    forward = {tuple(e) for e in directed.tolist()}
    return len(forward) == directed.shape[0] and all((j, i) in forward for i, j in forward)


def _with_apexes(v: np.ndarray, vertices) -> np.ndarray:
    return np.vstack([v] + [1.3 * v[[i]] for i in vertices])


def test_a_star_is_fanned_in():
    v, tri = _mesh()
    points = _with_apexes(v, [0])
    P, faces, owner, height = _state(points, tri)
    region = _star(tri, 0)
    assert hull._insert(P, faces, np.array([42]), np.zeros(region.size, np.int64), region, owner, height, 1e-12)
    alive = faces.tri[:faces.count][faces.alive[:faces.count]]
    assert _closed_and_oriented(alive)
    assert (alive == 42).any(axis=1).sum() == region.size  # a star's border has as many edges as it has faces
    assert not (alive == 0).any()  # the star's centre is gone
    # the neighbour links agree with the triangles
    live = np.flatnonzero(faces.alive[:faces.count])
    for f in live:
        for s in range(3):
            g = faces.nb[f, s]
            a, b = faces.tri[f, s], faces.tri[f, (s + 1) % 3]
            assert faces.alive[g] and {a, b} <= set(faces.tri[g].tolist())


def test_an_annulus_is_refused():
    v, tri = _mesh()
    points = _with_apexes(v, [0])
    P, faces, owner, height = _state(points, tri)
    ring_vertices = np.setdiff1d(np.unique(tri[_star(tri, 0)]), [0])
    around = np.flatnonzero(np.isin(tri, ring_vertices).any(axis=1) & ~(tri == 0).any(axis=1))
    assert around.size > 0
    before = faces.tri[:faces.count].copy()
    assert not hull._insert(P, faces, np.array([42]), np.zeros(around.size, np.int64), around, owner, height, 1e-12)
    np.testing.assert_array_equal(faces.tri[:before.shape[0]], before)
    assert faces.count == before.shape[0]


def test_a_pinched_region_is_refused():
    v, tri = _mesh()
    points = _with_apexes(v, [0])
    P, faces, owner, height = _state(points, tri)
    star = _star(tri, 0)
    # two faces of the star that share only the centre (not next to each other around it)
    f = star[0]
    neighbours = set(faces.nb[f].tolist())
    g = next(int(x) for x in star[1:] if int(x) not in neighbours)
    region = np.array(sorted([f, g]))
    assert not hull._insert(P, faces, np.array([42]), np.zeros(2, np.int64), region, owner, height, 1e-12)


def test_two_disjoint_stars_go_in_together():
    v, tri = _mesh()
    far = int(np.argmin(v @ v[0]))  # the vertex opposite vertex 0
    points = _with_apexes(v, [0, far])
    P, faces, owner, height = _state(points, tri)
    s0, s1 = _star(tri, 0), _star(tri, far)
    assert not set(s0.tolist()) & set(s1.tolist())
    pc = np.concatenate([np.zeros(s0.size, np.int64), np.ones(s1.size, np.int64)])
    pf = np.concatenate([s0, s1])
    assert hull._insert(P, faces, np.array([42, 43]), pc, pf, owner, height, 1e-12)
    alive = faces.tri[:faces.count][faces.alive[:faces.count]]
    assert _closed_and_oriented(alive)
    assert (alive == 42).any(axis=1).sum() == s0.size and (alive == 43).any(axis=1).sum() == s1.size
