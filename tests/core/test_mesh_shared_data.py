"""Two meshes built from the same local arrays, bit for bit (Blender's Shift+D: the copy has its own mesh data,
equal to the original's, and its own object transform), share their derived data for the query
(`query._share_local_data`): built once, the same answer as when each builds its own.  Arrays that differ in any
bit (a vertex moved by one ulp, -0.0 against 0.0, other triangles) share nothing.

Issue 7 (Exact mode on a duplicate in place): the hierarchy, convexity test, inner body and hull were built twice.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import query as mesh_query
from tests.core.duplicates import blender_uv_sphere, hull_triangles, icosphere, placement


def _same(c1, c2):
    assert c1.status is c2.status and c1.containment is c2.containment
    for name in ("distance", "gap", "normal", "point_a", "point_b", "intersection"):
        assert np.array_equal(np.asarray(getattr(c1, name)), np.asarray(getattr(c2, name))), name
    assert c1.converged == c2.converged


MESHES = {"float32 uv sphere 32x16 (nearly convex)": lambda: blender_uv_sphere(32, 16),
          "ico sphere 642 (convex)": lambda: (icosphere(3), hull_triangles(icosphere(3)))}


@pytest.mark.parametrize("mesh", list(MESHES))
@pytest.mark.parametrize("angle", [0.0, 1e-4])
def test_a_copy_shares_and_answers_the_same(mesh, angle, monkeypatch):
    v, t = MESHES[mesh]()
    v = np.asarray(v, np.float64)
    pose = placement(v, np.random.default_rng(5), angle=angle, shift=1e-7)
    a, b = core.TriangleMesh(v, t), core.TriangleMesh(v.copy(), t.copy(), pose)
    shared = core.collide(a, b)
    assert a._local._cache is b._local._cache
    monkeypatch.setattr(mesh_query, "_share_local_data", lambda a, b: None)
    alone = core.collide(core.TriangleMesh(v, t), core.TriangleMesh(v.copy(), t.copy(), pose))
    _same(shared, alone)
    assert shared.status is core.Status.INTERSECTING


def test_different_bits_share_nothing():
    p = icosphere(2)
    t = hull_triangles(p)
    moved = p.copy()
    moved[0, 0] = np.nextafter(moved[0, 0], np.inf)
    signed = p.copy()
    zero = np.flatnonzero(signed == 0.0)
    assert zero.size  # the ico sphere has zero coordinates: they get the other sign
    signed.reshape(-1)[zero] = -0.0
    for q, s in ((moved, t), (signed, t), (p, t[:, [0, 2, 1]])):
        a, b = core.TriangleMesh(p, t), core.TriangleMesh(q, s)
        core.collide(a, b)
        assert a._local._cache is not b._local._cache
