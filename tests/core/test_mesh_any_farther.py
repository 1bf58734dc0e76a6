"""`any_farther(points, world, floor)` (core/mesh/farthest.py, its descent ended at the first point certainly
beyond the floor) says whether some point's exact distance to the surface (`closest_points`) exceeds the floor:
checked at floors just below, at and just above the largest distance, where an early answer could go wrong."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.bvh import WorldBVH
from core.mesh.farthest import any_farther
from core.mesh.points import closest_points
from tests.core.mesh_corpus import star, torus


@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(6))
def test_any_farther_agrees_with_the_exact_distances(shape, seed):
    rng = np.random.default_rng([20261128, seed])
    v, t = star(rng, noise=0.3, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    world = WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))
    points = rng.uniform(-1.6, 1.6, (int(rng.integers(1, 200)), 3)) * rng.uniform(0.05, 1.0)
    dist = closest_points(points, world)[0]
    top = float(dist.max())
    floors = [0.0, float(np.median(dist)), top, float(np.nextafter(top, 0.0)), float(np.nextafter(top, np.inf)),
              top * (1 - 1e-12), top * (1 + 1e-12), 2 * top + 1.0]
    for floor in floors:
        assert any_farther(points, world, floor) == bool(np.any(dist > floor)), floor
    assert not any_farther(np.zeros((0, 3)), world, 0.0)
