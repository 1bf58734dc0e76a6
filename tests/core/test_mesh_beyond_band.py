"""The part corners' band flags and deepest corner in one descent (core/mesh/farthest.py `beyond_band`, read by
core/mesh/inside.py `_measure` beyond FEW_CORNERS corners) are what `closest_points` and an argmax give: for every
point whether its distance exceeds the band, and of the rows `among` the farthest beyond the band (the lowest row
of a tie, its distance and surface point, bit for bit), or None.  The oracle measures every point exactly.

Seeded points about a star and a torus: deep inside (nearly equidistant from many triangles), near the surface,
outside, and exact repeats of the farthest (a tie, the repeat at a later row), with bands at 0, at a median
distance, at the largest distance and just below it (a point exactly at the band is not beyond it), and with the
leaf pairs of least bound measured first from several levels (`TIGHTEN`) or never."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import farthest
from core.mesh.bvh import WorldBVH
from core.mesh.points import closest_points
from tests.core.mesh_corpus import star, torus


def _same(got, want):
    if want is None:
        return got is None
    return (got is not None and got[0] == want[0] and np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
            and np.asarray(got[2]).tobytes() == np.asarray(want[2]).tobytes())


def _oracle(points, world, band, among):
    dist, surface = closest_points(points, world)
    off = dist > band
    rows = among[off[among]]
    if rows.size == 0:
        return off, None
    first = int(rows[np.argmax(dist[rows])])  # the first of the largest
    return off, (first, float(dist[first]), surface[first])


@pytest.mark.parametrize("tighten", [-1, 0, 1, 3])
@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(3))
def test_band_flags_and_deepest_are_closest_points(monkeypatch, tighten, shape, seed):
    monkeypatch.setattr(farthest, "TIGHTEN", tighten)
    rng = np.random.default_rng([20261128, 21, seed])
    v, t = star(rng, noise=0.2, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    world = WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))
    corners = world.leaf_corners
    near = rng.integers(0, corners.shape[0], 60)
    centre = np.array([0.0, 0.0, 0.0]) if shape == "star" else np.array([1.0, 0.0, 0.0])
    points = np.concatenate([
        centre + rng.normal(size=(60, 3)) * 0.05,  # deep inside: many leaves nearly as near
        corners[near].mean(axis=1) + rng.normal(size=(60, 3)) * rng.choice([1e-6, 1e-3, 0.05], 60)[:, None],
        rng.uniform(-1.6, 1.6, (30, 3)),
    ])
    dist = closest_points(points, world)[0]
    far = int(np.argmax(dist))
    points = np.concatenate([points, points[far:far + 1], points[:5]])  # a tie at a later row, and repeats
    dist = closest_points(points, world)[0]
    for among in (np.arange(points.shape[0]), np.flatnonzero(rng.random(points.shape[0]) < 0.5),
                  np.array([points.shape[0] - 6]), np.zeros(0, np.int64)):
        for band in (0.0, float(np.median(dist)), float(dist.max()), float(np.nextafter(dist.max(), 0.0)),
                     float(np.sort(dist)[-3])):
            off, deepest = farthest.beyond_band(points, world, band, among)
            want_off, want = _oracle(points, world, band, among)
            assert np.array_equal(off, want_off)
            assert _same(deepest, want)
