"""Regression: separated pairs of round clouds whose GJK needs 11 to 20 support queries are decided by the
lock-step GJK (core/lockstep.py, `core.batch._LOCKSTEP_ITERATIONS`), not started again in the scalar engine, and
`collide_many` gives them `core.collide`'s answer.

Seeded pairs of clouds on ellipsoids (every point on the surface: GJK creeps towards the closest points of two
curved shapes), a small gap apart along a random direction, with a clearance that lists them.  The oracle is
`core.collide` on each pair from scratch (the scalar GJK): its iteration count picks the slow pairs, and its
status, distance and normal are what `collide_many` must give (distance within the gap, the same status and
scale).  The test fails if no pair needs more than 10 queries (it would be vacuous) or if any such pair leaves the
lock-step undecided.
"""
from __future__ import annotations

import numpy as np

import core
from core.lockstep import SEPARATED
from tests.core.support import uniform_rotation


def _ellipsoid(rng, count, radii):
    v = rng.normal(size=(count, 3))
    return v / np.linalg.norm(v, axis=1)[:, None] * radii


def _pairs(seed, n=24):
    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(n):
        a = _ellipsoid(rng, int(rng.integers(128, 257)), rng.uniform(0.3, 1.0, 3))
        b = _ellipsoid(rng, int(rng.integers(128, 257)), rng.uniform(0.3, 1.0, 3))
        ma, mb = np.eye(4), np.eye(4)
        ma[:3, :3], mb[:3, :3] = uniform_rotation(rng), uniform_rotation(rng)
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        # B placed just beyond A's reach along the direction: a gap of about 0.5 % to 3 % of the size.
        reach = (a @ ma[:3, :3].T @ direction).max() + (-(b @ mb[:3, :3].T @ direction)).max()
        mb[:3, 3] = direction * reach * rng.uniform(1.005, 1.03)
        shapes += [core.PointCloud(a, ma), core.PointCloud(b, mb)]
    return shapes


def test_slow_separated_pairs_are_decided_in_lockstep_with_collides_answer():
    shapes = _pairs(3)
    pairs = np.arange(len(shapes)).reshape(-1, 2)
    clearance = 0.2
    oracle = [core.collide(shapes[i], shapes[j]) for i, j in pairs.tolist()]
    slow = [k for k, c in enumerate(oracle) if 10 < c.gjk_iterations <= 20 and c.status is core.Status.SEPARATED]
    assert len(slow) >= 3, [c.gjk_iterations for c in oracle]

    batch = core.ShapeBatch(shapes)
    keep = np.flatnonzero(batch.candidates(pairs, clearance))
    assert set(slow) <= set(keep.tolist())
    first, second = pairs[keep, 0], pairs[keep, 1]
    scales = np.maximum(batch._scales[first], batch._scales[second]).tolist()
    state, _ = batch._lockstep(first, second, scales, clearance, core.DEFAULT_TOLERANCES)
    decided = dict(zip(keep.tolist(), state.tolist()))
    assert all(decided[k] == SEPARATED for k in slow), [(k, decided[k], oracle[k].gjk_iterations) for k in slow]

    got = {(i, j): c for i, j, c in core.collide_many(batch, pairs, clearance)}
    for k in slow:
        i, j = pairs[k].tolist()
        want, g = oracle[k], got[(i, j)]
        assert g.status is want.status and g.scale == want.scale
        assert abs(g.distance - want.distance) <= max(g.gap, want.gap) + 1e-12 * want.scale, (k, g.distance)
        assert float(np.dot(g.normal, want.normal)) > 1.0 - 1e-6
