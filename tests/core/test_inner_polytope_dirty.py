"""A local inner polytope (core/mesh/depth_interval.py `inner_polytope`) of a dirty mesh: the cube [-1, 1]^3 with
duplicate vertices, zero-area triangles (i, i, j) and (i, j, i) on its edges and a doubled collinear sliver along
an edge.  Such a triangle has no plane; it is bounded by the plane through its segment square to the way from p.
Worked by hand: from p at the centre that plane through a cube edge is the cube's supporting plane there
(x + y <= 2 for the edge x = y = 1), so the polytope of a box larger than the cube is the whole cube: volume 8.
From a point off the centre the planes cut a little, and every vertex still lies in the cube."""
from __future__ import annotations

import numpy as np

import core
from core.hull import convex_hull
from core.mesh import depth_interval
from core.mesh.pair_frame import Frame

from .meshes import box, mesh


def _dirty_cube():
    v, t = box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0))
    v, t = np.asarray(v, float), np.asarray(t, np.int64)
    a, b = t[0, 0], t[0, 1]
    v = np.concatenate([v, v[:3], 0.5 * (v[a] + v[b])[None]])       # duplicates of 0, 1, 2; an edge's middle
    m = v.shape[0] - 1
    t = np.concatenate([t, [[8, 1, 5], [a, a, b], [a, b, a], [a, b, m], [a, m, b]]])
    t[3] = [8 if i == 0 else int(i) for i in t[3]]                  # a triangle on a duplicate of vertex 0
    return v, t


def _volume(points):
    hull = convex_hull(points)
    tri = points[hull[1]]
    c = points.mean(axis=0)
    return float(np.abs(np.einsum("ij,ij->i", np.cross(tri[:, 0] - c, tri[:, 1] - c), tri[:, 2] - c)).sum() / 6.0)


def _polytope(p):
    cube = mesh(_dirty_cube())
    frame = Frame(cube, mesh(box((-0.2, -0.2, -0.2), (0.2, 0.2, 0.2))), core.DEFAULT_TOLERANCES)
    side = frame.sa
    planes = depth_interval._triangle_planes(side)
    assert not np.all(planes[4]), "the dirty cube has triangles without a plane"
    v = depth_interval.inner_polytope(side, planes, np.asarray(p, float) - frame.origin, 3.0, frame.scale)
    return None if v is None else v + frame.origin


def test_centre_polytope_is_the_whole_cube():
    v = _polytope((0.0, 0.0, 0.0))
    assert v is not None
    assert np.all(np.abs(v) <= 1.0 + 1e-12)
    assert _volume(v) > 8.0 * (1.0 - 1e-6)


def test_off_centre_polytopes_stay_inside():
    rng = np.random.default_rng(3)
    for p in rng.uniform(-0.8, 0.8, (12, 3)):
        v = _polytope(p)
        assert v is not None
        assert np.all(np.abs(v) <= 1.0 + 1e-12)
        assert _volume(v) > 4.0
