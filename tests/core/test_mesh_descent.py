"""The hierarchy descent loses nothing: on seeded random meshes its distance equals the exhaustive minimum of the
same triangle kernel over all pairs, and it finds every crossing pair.  (Independent judging of the kernel itself
is the oracle's job; this pins the pruning.)"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.tritri import crossing, triangle_triangle
from tests.core.meshes import torus


def bumpy_torus(seed, n=14, m=8):
    rng = np.random.default_rng(seed)
    v, t = torus(1.0, 0.3, n, m)
    return v * rng.uniform(0.9, 1.1, size=(len(v), 1)), t


def soup(seed, k=80):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-1, 1, size=(k, 1, 3))
    return (centres + rng.normal(scale=0.15, size=(k, 3, 3))).reshape(-1, 3), np.arange(3 * k).reshape(-1, 3)


def pose(rng, spread):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q
    m[:3, 3] = rng.uniform(-spread, spread, size=3)
    return m


def exhaustive(a, ma, b, mb):
    va = a[0] @ ma[:3, :3].T + ma[:3, 3]
    vb = b[0] @ mb[:3, :3].T + mb[:3, 3]
    A = np.repeat(va[a[1]], len(b[1]), axis=0)
    B = np.tile(vb[b[1]], (len(a[1]), 1, 1))
    d, _, _ = triangle_triangle(A, B)
    mask, segs = crossing(A, B, 0.0)
    return float(d.min()), segs


@pytest.mark.parametrize("seed", range(12))
def test_descent_matches_exhaustive_search(seed):
    rng = np.random.default_rng(1000 + seed)
    a = bumpy_torus(seed) if seed % 2 else soup(seed)
    b = soup(seed + 50) if seed % 3 else bumpy_torus(seed + 50)
    ma, mb = pose(rng, 0.2), pose(rng, 2.5)
    c = core.collide(core.TriangleMesh(*a, ma), core.TriangleMesh(*b, mb))
    best, segs = exhaustive(a, ma, b, mb)
    if segs.shape[0]:
        assert c.intersection.shape[0] > 0 and c.status is core.Status.INTERSECTING
        length = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1).sum()
        found = np.linalg.norm(c.intersection[:, 1] - c.intersection[:, 0], axis=1).sum()
        assert abs(found - length) <= 1e-9 * c.scale
    else:
        assert c.intersection.shape[0] == 0
        if c.status is not core.Status.INTERSECTING:
            assert abs(c.distance - best) <= 1e-12 * c.scale + 1e-15
            assert abs(np.linalg.norm(c.point_b - c.point_a) - c.distance) <= 1e-12 * c.scale
