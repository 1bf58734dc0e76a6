"""The deepest probe searched in two rounds (core/mesh/inside.py `_farthest_of`: first the probes without an upper
bound of their distance and the SEARCHED_FIRST with the largest bounds, then the others whose bound reaches the
depth found) is the one search over all of them: the same row (the lowest of a tie), distance and surface point,
or None, for every floor.  Seeded points about a star and a torus, each with its distance to the triangle it was
made next to as its bound (or none), with the farthest point bounded by its own distance and repeated at a later
row without a bound (a tie across the rounds), and SEARCHED_FIRST small enough that the second round runs."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import core
from core.mesh import inside
from core.mesh.bvh import WorldBVH
from core.mesh.farthest import farthest_from_surface
from core.mesh.points import closest_points
from core.mesh.tritri import point_triangle
from tests.core.mesh_corpus import star, torus


def _same(got, want):
    if want is None:
        return got is None
    return (got is not None and got[0] == want[0] and np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
            and np.asarray(got[2]).tobytes() == np.asarray(want[2]).tobytes())


@pytest.mark.parametrize("searched_first", [0, 1, 4, 16])
@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(3))
def test_two_rounds_are_one_search(monkeypatch, searched_first, shape, seed):
    monkeypatch.setattr(inside, "SEARCHED_FIRST", searched_first)
    rng = np.random.default_rng([20261128, 11, seed])
    v, t = star(rng, noise=0.3, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    world = WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))
    corners = world.leaf_corners
    near = rng.integers(0, corners.shape[0], 200)
    paired = corners[near].mean(axis=1) + rng.normal(size=(200, 3)) * rng.choice([1e-3, 0.05, 0.3], 200)[:, None]
    loose = rng.uniform(-1.0, 1.0, (20, 3)) * 0.6
    tri = corners[near]
    q = point_triangle(paired, tri[:, 0], tri[:, 1], tri[:, 2])
    points = np.concatenate([loose, paired])
    upper = np.concatenate([np.full(loose.shape[0], np.inf), inside.upper_from(paired, q)])
    dist, surface = closest_points(points, world)
    rows = rng.random(points.shape[0]) < 0.8
    if seed:
        # the farthest point with its own distance as its bound (the least a bound can be), and again at a later
        # row without a bound: the later copy is searched first, the earlier one after it, and the lower row wins
        far = int(np.argmax(dist))
        upper[far] = inside.upper_from(points[far:far + 1], surface[far:far + 1])[0]
        points = np.concatenate([points, points[far:far + 1]])
        upper = np.concatenate([upper, [np.inf]])
        dist = np.concatenate([dist, dist[far:far + 1]])
        rows = np.concatenate([rows, [True]])
        rows[far] = True
    rows = np.flatnonzero(rows)
    side = SimpleNamespace(world=world)
    for floor in (0.0, float(np.median(dist[rows])), float(np.nextafter(dist[rows].max(), 0.0)),
                  float(dist[rows].max())):
        want = farthest_from_surface(points[rows], world, floor, upper=upper[rows])
        want = None if want is None else (int(rows[want[0]]), want[1], want[2])
        assert _same(inside._farthest_of(points, rows, side, floor, upper[rows]), want)
