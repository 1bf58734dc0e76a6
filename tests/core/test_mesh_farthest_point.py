"""The farthest point of a set from a mesh surface, found with points dropped as soon as they cannot be it
(core/mesh/farthest.py), is the argmax of every point's exact distance (`closest_points`), bit for bit: the same
row (the lowest of a tie), distance and surface point, and None exactly when no distance is beyond the floor."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.bvh import WorldBVH
from core.mesh.farthest import farthest_from_surface
from core.mesh.points import closest_points
from tests.core.mesh_corpus import star, torus


def _world(shape, rng):
    v, t = star(rng, noise=0.3, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    return WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3)), v


def _expected(points, world, floor):
    dist, q = closest_points(points, world)
    j = int(np.argmax(dist))
    return None if not dist[j] > floor else (j, dist[j], q[j])


@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(6))
def test_farthest_point_is_the_argmax_of_the_exact_distances(shape, seed):
    rng = np.random.default_rng([20261127, seed])
    world, v = _world(shape, rng)
    size = int(rng.integers(1, 300))
    points = rng.uniform(-1.6, 1.6, (size, 3)) * rng.uniform(0.05, 1.0)
    if seed % 2:
        # ties: points on the surface (distance 0), and the farthest point again at the end (the lower row wins)
        points = np.concatenate([v[rng.integers(0, len(v), 5)], points])
        far = points[int(np.argmax(closest_points(points, world)[0]))]
        points = np.concatenate([points, [far]])
    dist = closest_points(points, world)[0]
    for floor in (-np.inf, 0.0, float(np.median(dist)), float(dist.max()), float(np.nextafter(dist.max(), 0.0))):
        want = _expected(points, world, floor)
        got = farthest_from_surface(points, world, floor)
        if want is None:
            assert got is None
            continue
        assert got is not None
        assert got[0] == want[0]
        assert np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
        assert np.asarray(got[2]).tobytes() == np.asarray(want[2]).tobytes()


def test_no_points_no_farthest():
    world, _ = _world("torus", np.random.default_rng(1))
    assert farthest_from_surface(np.zeros((0, 3)), world) is None
