"""The farthest point's search started from upper bounds of the points' distances (core/mesh/farthest.py `upper`:
the distance of each point to one triangle of the mesh, as core/mesh/inside.py `_upper_bounds` gives the probes
made from a crossing or touching pair) answers as the search without them, bit for bit: the same row (the lowest
of a tie), distance and surface point; and each such bound is no less than the distance `closest_points` computes
(the least over the triangles, with the same arithmetic).  Some points carry no bound (inf), as the vertex sample
and part corners do."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.bvh import WorldBVH
from core.mesh.farthest import farthest_from_surface
from core.mesh.inside import _upper_bounds
from core.mesh.points import closest_points
from tests.core.mesh_corpus import star, torus


def _world(shape, rng):
    v, t = star(rng, noise=0.3, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    return WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))


def _same(got, want):
    if want is None:
        return got is None
    return (got is not None and got[0] == want[0] and np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
            and np.asarray(got[2]).tobytes() == np.asarray(want[2]).tobytes())


@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(4))
def test_upper_bounds_from_triangles_change_no_answer(shape, seed):
    rng = np.random.default_rng([20261128, seed])
    world = _world(shape, rng)
    corners = world.leaf_corners
    m = corners.shape[0]
    # points next to random triangles (on, just off and far off them), and points with no triangle
    near = rng.integers(0, m, 200)
    centroids = corners[near].mean(axis=1)
    offsets = rng.normal(size=(200, 3)) * rng.choice([0.0, 1e-6, 1e-3, 0.1, 0.5], 200)[:, None]
    paired = centroids + offsets
    loose = rng.uniform(-1.2, 1.2, (60, 3)) * rng.uniform(0.05, 1.0)
    if seed % 2:
        paired = np.concatenate([paired, paired[:3]])  # ties: the lower row must win
        near = np.concatenate([near, near[:3]])
    points = np.concatenate([loose, paired])
    probes = [loose, paired]
    against = [None, corners[near]]
    rows = np.arange(points.shape[0])
    upper = _upper_bounds(points, probes, against, rows)
    exact = closest_points(points, world)[0]
    assert np.all(np.isinf(upper[:loose.shape[0]]))
    assert np.all(upper >= exact)  # bit for bit no less: the least over the triangles
    for floor in (-np.inf, 0.0, float(np.median(exact)), float(np.nextafter(exact.max(), 0.0))):
        want = farthest_from_surface(points, world, floor)
        assert _same(farthest_from_surface(points, world, floor, upper=upper), want)
    # a subset of rows, as `deepest_inside` measures only the points found inside
    subset = rows[rng.random(rows.size) < 0.5]
    upper = _upper_bounds(points, probes, against, subset)
    assert _same(farthest_from_surface(points[subset], world, 0.0, upper=upper),
                 farthest_from_surface(points[subset], world, 0.0))
