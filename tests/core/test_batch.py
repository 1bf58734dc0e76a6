"""core.collide_many equals per-pair core.collide, and its prefilter's bounds are certified by the exact oracle.

- `ShapeBatch.lower_bounds` never exceeds the exact signed distance (tests/core/oracle.py, an independent hull of
  the Minkowski difference) beyond rounding: it is what lets the prefilter drop pairs;
- on seeded scenes (clouds up to 256 vertices, boxes, spheres, capsules, cylinders, cones; near and far from the
  origin; duplicates and identical shapes) the listed pairs are exactly those whose per-pair answer is
  INTERSECTING, TOUCHING or SEPARATED with distance - gap <= clearance, with the same status and the distance
  within the gap; pairs whose distance is within GJK's gap tolerance of the clearance may fall either way;
- pairs exactly at the clearance and touching pairs (dyadic cubes: exact arithmetic) are listed.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import signed_distance
from tests.core.support import CUBE, uniform_rotation


def pose(rng, spread, offset):
    m = np.eye(4)
    m[:3, :3] = uniform_rotation(rng)
    m[:3, 3] = rng.uniform(0.0, spread, 3) + offset
    return m


def scene(seed, n=40, spread=4.0, offset=0.0, kinds=("cloud", "box", "sphere", "capsule", "cylinder", "cone")):
    rng = np.random.default_rng(seed)
    shapes = []
    for k in range(n):
        kind = kinds[rng.integers(len(kinds))]
        m = pose(rng, spread, offset)
        if kind == "cloud":
            count = int(rng.integers(1, 257))
            v = rng.normal(size=(count, 3)) * rng.uniform(0.2, 1.0, 3)
            shapes.append(core.PointCloud(v, m, margin=float(rng.choice([0.0, 0.05]))))
        elif kind == "box":
            shapes.append(core.Box(rng.uniform(0.1, 1.0, 3), m))
        elif kind == "sphere":
            shapes.append(core.Sphere(rng.uniform(0.1, 1.0), m))
        elif kind == "capsule":
            shapes.append(core.Capsule(rng.uniform(0.1, 0.6), rng.uniform(0.0, 0.8), m))
        elif kind == "cylinder":
            shapes.append(core.Cylinder(rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.8), m))
        else:
            shapes.append(core.Cone(rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.8), m))
    if n > 3:
        shapes[1] = shapes[0]  # the very same shape object twice
        shapes[3] = shapes[2].moved(shapes[2].transform)  # an identical copy in the same place
    return shapes


def expected(shapes, pairs, clearance):
    """Per-pair reference: core.collide on every pair (no prefilter, no max_distance)."""
    out = {}
    for i, j in pairs.tolist():
        c = core.collide(shapes[i], shapes[j])
        out[(i, j)] = c
    return out


def check(shapes, pairs, clearance):
    got = core.collide_many(shapes, pairs, clearance)
    rows = iter(pairs.tolist())
    for i, j, _ in got:  # a subsequence of `pairs`, in its order
        assert any(row == [i, j] for row in rows), "results keep the order of `pairs`"
    if isinstance(shapes, core.ShapeBatch):
        shapes = shapes.shapes
    ref = expected(shapes, pairs, clearance)
    listed = dict(((i, j), c) for i, j, c in got)
    borderline = 0
    for key, c in ref.items():
        want = c.status is not core.Status.SEPARATED or c.distance - c.gap <= clearance
        near = abs(c.distance - clearance) <= 4e-12 * c.scale
        if key in listed:
            g = listed[key]
            assert want or near, (key, c.status, c.distance, clearance)
            assert g.status is c.status, key
            assert abs(g.distance - c.distance) <= max(g.gap, c.gap) + 1e-12 * c.scale, key
            assert g.scale == c.scale and g.touching_tolerance == c.touching_tolerance
            assert not g.beyond_max_distance
        else:
            assert not want or near, (key, c.status, c.distance, clearance)
        borderline += near
    return len(got), borderline


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("clearance", [0.0, 0.1, 0.7])
def test_batch_equals_per_pair(seed, clearance):
    shapes = scene(seed, n=30)
    i, j = np.triu_indices(len(shapes), 1)
    pairs = np.stack([i, j], axis=1)
    listed, _ = check(shapes, pairs, clearance)
    assert 0 < listed < len(pairs)  # the scene has both kinds
    kept = core.ShapeBatch(shapes).candidates(pairs, clearance)
    assert 0 < kept.sum() < len(pairs)  # the prefilter dropped some pairs and passed others on


@pytest.mark.parametrize("offset", [1e5, -3e7])
def test_far_from_origin(offset):
    shapes = scene(9, n=30, offset=offset, kinds=("cloud", "box", "sphere"))
    i, j = np.triu_indices(len(shapes), 1)
    check(shapes, np.stack([i, j], axis=1), 0.2)


def test_pairs_from_the_broad_phase_in_both_orders_and_repeated():
    shapes = scene(5, n=50, spread=6.0)
    batch = core.ShapeBatch(shapes)
    pairs = core.candidate_pairs(batch.lo, batch.hi, 0.3)
    pairs = np.r_[pairs, pairs[:, ::-1], pairs[:5]]
    check(batch, pairs, 0.3)


def test_lower_bounds_are_certified_by_the_oracle():
    for seed in range(3):
        shapes = scene(20 + seed, n=30, kinds=("cloud", "box", "sphere", "capsule"))
        batch = core.ShapeBatch(shapes)
        i, j = np.triu_indices(len(shapes), 1)
        pairs = np.stack([i, j], axis=1)
        bounds = batch.lower_bounds(pairs)
        for (a, b), bound in zip(pairs.tolist(), bounds.tolist()):
            if bound <= 0.0:
                continue
            truth, _ = signed_distance(_spec(shapes[a]), _spec(shapes[b]))
            assert bound <= truth + 1e-12 * (1.0 + abs(truth)), (seed, a, b, bound, truth)


def test_lower_bounds_of_large_clouds_and_margins_are_certified():
    # Clouds above the vertex cap use their bounding sphere on the centre axis; margins widen every interval.
    rng = np.random.default_rng(4)
    shapes = [core.PointCloud(rng.normal(size=(int(rng.choice([3, 40, 2000])), 3)), pose(rng, 6.0, 0.0),
                              margin=float(rng.choice([0.0, 0.2]))) for _ in range(14)]
    batch = core.ShapeBatch(shapes)
    row, _ = batch._vertex_block()
    assert (row < 0).any() and (row >= 0).any()
    i, j = np.triu_indices(len(shapes), 1)
    pairs = np.stack([i, j], axis=1)
    bounds = batch.lower_bounds(pairs)
    assert (bounds > 0).any()
    for (a, b), bound in zip(pairs.tolist(), bounds.tolist()):
        if bound > 0.0:
            truth, _ = signed_distance(_spec(shapes[a]), _spec(shapes[b]))
            assert bound <= truth + 1e-12 * (1.0 + abs(truth)), (a, b, bound, truth)


def _spec(shape):
    from tests.core.oracle import ShapeSpec

    m = shape.transform
    if isinstance(shape, core.PointCloud):
        return ShapeSpec("cloud", vertices=np.asarray(shape.vertices), transform=m, margin=shape.margin)
    if isinstance(shape, core.Box):
        return ShapeSpec("box", half_extents=tuple(shape.half_extents), transform=m, margin=shape.margin)
    if isinstance(shape, core.Sphere):
        return ShapeSpec("sphere", radius=shape.radius, transform=m, margin=shape.margin)
    return ShapeSpec("capsule", radius=shape.radius, half_height=shape.half_height, transform=m,
                     margin=shape.margin)


def test_exactly_at_the_clearance_and_touching_are_listed():
    shapes = [CUBE, CUBE + [1.5, 0.0, 0.0], CUBE + [0.0, 1.0, 0.0], CUBE + [5.0, 5.0, 5.0], CUBE + [0.25, 0.5, 0.0]]
    pairs = np.array([[0, 1], [0, 2], [0, 3], [0, 4], [1, 2]])
    got = {(i, j): c for i, j, c in core.collide_many(shapes, pairs, clearance=0.5)}
    assert got[(0, 1)].status is core.Status.SEPARATED and got[(0, 1)].distance == 0.5
    assert got[(0, 2)].status is core.Status.TOUCHING
    assert got[(0, 4)].status is core.Status.INTERSECTING
    assert got[(1, 2)].status is core.Status.SEPARATED and got[(1, 2)].distance == 0.5
    assert (0, 3) not in got
    tight = {(i, j) for i, j, _ in core.collide_many(shapes, pairs, clearance=np.nextafter(0.5, 0.0))}
    assert tight == {(0, 2), (0, 4)}
    assert {(i, j) for i, j, _ in core.collide_many(shapes, pairs)} == {(0, 2), (0, 4)}


def test_identical_shapes_intersect():
    cloud = np.random.default_rng(2).normal(size=(50, 3))
    got = core.collide_many([cloud, cloud.copy(), core.PointCloud(cloud)], np.array([[0, 1], [1, 2], [0, 0]]))
    assert [(i, j) for i, j, _ in got] == [(0, 1), (1, 2), (0, 0)]
    assert all(c.status is core.Status.INTERSECTING for _, _, c in got)


def test_empty_pairs_and_reuse():
    batch = core.ShapeBatch([CUBE, CUBE + 3.0])
    assert core.collide_many(batch, np.zeros((0, 2), int)) == []
    assert core.collide_many(batch, [[0, 1]], clearance=3.5)[0][2].distance == pytest.approx(2.0 * np.sqrt(3.0))
    assert core.collide_many(batch, [[0, 1]], clearance=3.4) == []


@pytest.mark.parametrize("shapes, pairs, clearance, words", [
    ([CUBE, CUBE], [[0, 2]], 0.0, "outside"),
    ([CUBE, CUBE], [[0, -1]], 0.0, "outside"),
    ([CUBE, CUBE], [0, 1], 0.0, "(k, 2)"),
    ([CUBE, CUBE], [[0.0, 1.0]], 0.0, "integer"),
    ([CUBE, CUBE], [[0, 1]], -0.1, ">= 0"),
    ([CUBE, CUBE], [[0, 1]], float("nan"), "finite"),
    ([CUBE, np.zeros((0, 3))], [[0, 1]], 0.0, "empty"),
    ([CUBE, [[0, 0, float("nan")]]], [[0, 1]], 0.0, "NaN"),
    (5, [[0, 1]], 0.0, "sequence"),
])
def test_bad_input(shapes, pairs, clearance, words):
    with pytest.raises(ValueError) as info:
        core.collide_many(shapes, pairs, clearance)
    assert words in str(info.value), str(info.value)


def test_bad_tolerances():
    with pytest.raises(ValueError, match="Tolerances"):
        core.collide_many([CUBE, CUBE], [[0, 1]], 0.0, tolerances=1e-9)
