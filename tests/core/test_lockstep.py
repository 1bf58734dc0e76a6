"""collide_many's lock-step GJK (core/lockstep.py) against the scalar engine, pair by pair.

On seeded scenes of point clouds (the shapes it runs on) at several scales and places, with identical, touching
and nearly touching pairs:
- every pair it decides is decided right: an ORIGIN tetrahedron is made of support points of the pair (a vertex
  of A minus a vertex of B, in the pair's frame) and holds the origin (weights >= 0, summing to 1, combining to
  the origin), and `core.collide` says the pair intersects or touches; a BEYOND pair is, by `core.collide`,
  farther apart than the clearance; a SEPARATED pair's simplex is made of support points, its weights combine them
  to v, and |v| and the lower bound bracket `core.collide`'s core distance within the gap tolerance;
- `collide_many`'s list equals the per-pair answers of `core.collide` (same pairs, status, scale; distance within
  the gap), as tests/core/test_batch.py checks for the scalar path;
- the lock-step path really ran (both outcomes occur) so the comparison is not vacuous.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.lockstep import BEYOND, ORIGIN, SEPARATED
from tests.core.support import CUBE, uniform_rotation


def _scene(seed, size, offset, n=36):
    """Clouds of 1 to 256 vertices of extent ~size around offset, a copy of one, the same object twice, and cubes
    that touch (dyadic coordinates: exact), nearly touch, and overlap by a hair."""
    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(n):
        m = np.eye(4)
        m[:3, :3] = uniform_rotation(rng) * size
        m[:3, 3] = offset + rng.uniform(0.0, 3.0, 3) * size
        count = int(rng.integers(1, 257))
        shapes.append(core.PointCloud(rng.normal(size=(count, 3)) * rng.uniform(0.2, 0.8, 3), m))
    shapes[1] = shapes[0]
    shapes[3] = core.PointCloud(shapes[2].vertices, shapes[2].transform)
    cube = CUBE * size + offset
    shapes += [core.PointCloud(cube), core.PointCloud(cube + [size, 0.0, 0.0]),  # touching faces
               core.PointCloud(cube + [0.0, size * (1.0 + 2.0 ** -40), 0.0]),  # a hair apart
               core.PointCloud(cube + [0.0, 0.0, size * (1.0 - 2.0 ** -40)])]  # overlapping by a hair
    return shapes


CASES = [(0, 1.0, 0.0), (1, 1e-6, 0.0), (2, 1e4, 0.0), (3, 1.0, 1e6), (4, 1e-3, -3e4), (5, 50.0, 2e7)]


def _pairs(shapes):
    i, j = np.triu_indices(len(shapes), 1)
    return np.stack([i, j], axis=1)


@pytest.mark.parametrize("clearance_factor", [0.0, 0.3])
@pytest.mark.parametrize("seed,size,offset", CASES)
def test_lockstep_decisions_are_right(seed, size, offset, clearance_factor):
    shapes = _scene(seed, size, offset)
    clearance = clearance_factor * size
    batch = core.ShapeBatch(shapes)
    pairs = _pairs(shapes)
    keep = np.flatnonzero(batch.candidates(pairs, clearance))
    first, second = pairs[keep, 0], pairs[keep, 1]
    scales = np.maximum(batch._scales[first], batch._scales[second]).tolist()
    state, starts = batch._lockstep(first, second, scales, clearance, core.DEFAULT_TOLERANCES)
    assert (state == ORIGIN).any() and (state == BEYOND).any()
    if clearance > 0.0:
        assert (state == SEPARATED).any()
    for k in np.flatnonzero((state == ORIGIN) | (state == SEPARATED)).tolist():
        i, j = int(first[k]), int(second[k])
        start = starts(k)
        weights = np.array(start.weights)
        # ORIGIN: the origin may lie on a face (a zero weight); SEPARATED keeps only points of positive weight.
        assert (weights.min() >= 0.0 if state[k] == ORIGIN else weights.min() > 0.0)
        assert abs(weights.sum() - 1.0) <= 1e-12
        centre = batch.centre[i]
        va = shapes[i]._world_core_vertices() + (shapes[i]._translation - centre)
        vb = shapes[j]._world_core_vertices() + (shapes[j]._translation - centre)
        w = np.array([p.w for p in start.simplex])
        for p in start.simplex:
            assert (va == p.a).all(axis=1).any() and (vb == p.b).all(axis=1).any()
            assert p.w == tuple(x - y for x, y in zip(p.a, p.b))
        extent = np.abs(w).max()
        c = core.collide(shapes[i], shapes[j])
        if state[k] == ORIGIN:
            assert len(w) == 4 and np.abs(weights @ w).max() <= 1e-12 * extent
            assert c.status is not core.Status.SEPARATED, (i, j, c.distance)
            continue
        # SEPARATED: GJK's closest point of the Minkowski difference and its certified bracket.
        assert np.abs(weights @ w - np.array(start.v)).max() <= 1e-9 * max(extent, start.distance)
        tol = core.DEFAULT_TOLERANCES.gjk_gap * c.scale + 1e-12 * c.scale
        assert start.lower_bound <= c.distance + c.gap + tol, (i, j)
        assert abs(start.distance - c.distance) <= max(c.gap, start.distance - start.lower_bound) + tol, (i, j)
    for k in np.flatnonzero(state == BEYOND).tolist():
        c = core.collide(shapes[int(first[k])], shapes[int(second[k])])
        assert c.status is core.Status.SEPARATED and c.distance - c.gap > clearance, (first[k], second[k])


@pytest.mark.parametrize("clearance_factor", [0.0, 0.3])
@pytest.mark.parametrize("seed,size,offset", CASES)
def test_collide_many_equals_collide(seed, size, offset, clearance_factor):
    shapes = _scene(seed, size, offset)
    clearance = clearance_factor * size
    pairs = _pairs(shapes)
    got = {(i, j): c for i, j, c in core.collide_many(shapes, pairs, clearance)}
    for i, j in pairs.tolist():
        c = core.collide(shapes[i], shapes[j])
        want = c.status is not core.Status.SEPARATED or c.distance - c.gap <= clearance
        near = abs(c.distance - clearance) <= 4e-12 * c.scale
        if (i, j) in got:
            g = got[(i, j)]
            assert want or near, (i, j, c.status, c.distance)
            assert g.status is c.status, (i, j, g.status, c.status, g.distance, c.distance)
            assert abs(g.distance - c.distance) <= max(g.gap, c.gap) + 1e-12 * c.scale, (i, j)
            assert g.scale == c.scale and g.touching_tolerance == c.touching_tolerance
            np.testing.assert_allclose(np.linalg.norm(g.normal), 1.0, atol=1e-12)
        else:
            assert not want or near, (i, j, c.status, c.distance)
    n = len(shapes)
    assert got[(n - 4, n - 3)].status is core.Status.TOUCHING  # touching faces
    assert got[(n - 4, n - 1)].status is not core.Status.SEPARATED  # a hair of overlap
    assert got[(0, 1)].status is not core.Status.SEPARATED and got[(2, 3)].status is not core.Status.SEPARATED
