"""A TriangleMesh that is convex answers exactly as the convex engine on its vertices (same numbers, bit for bit)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import is_convex
from tests.core.meshes import box, mesh, torus


def octahedron(r=1.0):
    v = r * np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    t = np.array([[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]])
    return v, t


def tetrahedron():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    return v, np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


def pose(seed):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q * rng.uniform(0.5, 2.0)
    m[:3, 3] = rng.normal(scale=1.2, size=3)
    return m


@pytest.mark.parametrize("make_a, make_b", [(box, octahedron), (tetrahedron, box), (octahedron, tetrahedron)])
@pytest.mark.parametrize("seed", range(6))
def test_convex_mesh_matches_convex_engine(make_a, make_b, seed):
    a, b = make_a(), make_b()
    ma, mb = mesh(a), mesh(b, pose(seed))
    assert is_convex(ma) and is_convex(mb)
    got = core.collide(ma, mb)
    want = core.collide(core.PointCloud(a[0]), core.PointCloud(b[0], pose(seed)))
    assert got.status is want.status
    assert got.distance == want.distance
    assert np.array_equal(got.normal, want.normal)
    assert np.array_equal(got.point_a, want.point_a) and np.array_equal(got.point_b, want.point_b)


def test_non_convex_meshes_are_not_taken_for_convex():
    assert not is_convex(mesh(torus()))
    v, t = box()
    dented = v.copy()
    dented[7] = [0.6, 0.6, 0.6]  # the corner (1,1,1) pushed inside
    assert not is_convex(mesh((dented, t)))
    open_box = (v, t[2:])
    assert not is_convex(mesh(open_box))
