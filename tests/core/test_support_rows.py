"""The solvers' tuple supports (`Shape.support_max` / `support_min`, `minkowski.minkowski_support`) equal the array
supports (`Shape.core_support`) exactly, for every shape kind, after `shifted` and `moved`, far from the origin,
and on ties (a cloud with repeated vertices and a cube, whose support along an axis is a whole face: the first
vertex of the tie wins in both); and for clouds above their listing bound (`shapes._LISTED_ROWS`, or a lower one a
cloud sets on itself, as a mesh's hull shape does), whose rows are converted one at a time when first looked up and
then kept (`shapes._Rows`), on both sides of that bound, each direction asked twice (a kept row)."""
from __future__ import annotations

import numpy as np
import pytest

import core
import core.shapes
from core.minkowski import minkowski_support


def _pose(rng, offset):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q * np.sign(np.diag(r)) * rng.uniform(0.5, 2.0)
    m[:3, 3] = rng.normal(size=3) + offset
    return m


def _shapes(rng, offset):
    cloud = rng.normal(size=(int(rng.integers(1, 300)), 3))
    cloud = np.r_[cloud, cloud[:5]]  # repeated vertices: ties between equal rows
    cube = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    return [core.PointCloud(cloud, _pose(rng, offset), margin=0.1), core.PointCloud(cube),
            core.PointCloud(cube, _pose(rng, offset)), core.Box((0.3, 0.2, 0.1), _pose(rng, offset)),
            core.Sphere(0.4, _pose(rng, offset)), core.Capsule(0.2, 0.5, _pose(rng, offset)),
            core.Cylinder(0.3, 0.4, _pose(rng, offset)), core.Cone(0.3, 0.4, _pose(rng, offset))]


def _directions(rng):
    axes = [(1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 2.0), (1.0, 1.0, 0.0), (1e-300, 0.0, 0.0)]
    return axes + [tuple(d) for d in rng.normal(size=(40, 3)).tolist()]


@pytest.mark.parametrize("offset", [0.0, 1e6, -3e7])
@pytest.mark.parametrize("seed", range(3))
def test_tuple_supports_equal_array_supports(seed, offset):
    rng = np.random.default_rng(seed)
    for shape in _shapes(rng, offset):
        variants = [shape, shape.shifted(rng.normal(size=3) + offset), shape.moved(_pose(rng, offset))]
        variants.append(variants[2].shifted(rng.normal(size=3) + offset))
        for s in variants:
            for d in _directions(rng):
                want_max = s.core_support(np.array(d)).tolist()
                want_min = s.core_support(-np.array(d)).tolist()
                assert list(s.support_max(d)) == want_max, (type(s).__name__, d)
                assert list(s.support_min(d)) == want_min, (type(s).__name__, d)
                assert all(type(x) is float for x in s.support_max(d))


@pytest.mark.parametrize("seed", range(3))
def test_minkowski_support_equals_its_definition(seed):
    rng = np.random.default_rng(10 + seed)
    origin = rng.normal(size=3) * 1e5
    shapes = [s.shifted(origin) for s in _shapes(rng, 1e5)]
    for a in shapes:
        for b in shapes:
            for d in _directions(rng)[:12]:
                p = minkowski_support(a, b, d)
                want_a = a.core_support(np.array(d)).tolist()
                want_b = b.core_support(-np.array(d)).tolist()
                assert list(p.a) == want_a and list(p.b) == want_b
                assert p.w == tuple(x - y for x, y in zip(want_a, want_b))


@pytest.mark.parametrize("count, limit", [(core.shapes._LISTED_ROWS, None), (core.shapes._LISTED_ROWS + 1, None),
                                          (20_000, None), (40, 40), (41, 40), (453, 32), (1, 0)])
def test_rows_read_one_at_a_time_give_the_same_supports(count, limit):
    rng = np.random.default_rng([5150, count])
    pose = np.eye(4)
    pose[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0] * 1.7
    pose[:3, 3] = [1e3, -2.5, 7.0]
    a = core.PointCloud(rng.normal(size=(count, 3)), transform=pose)
    b = core.PointCloud(rng.normal(size=(count, 3)) * 0.3)
    if limit is not None:
        a._listed_rows = b._listed_rows = limit
    a = a.shifted((999.0, -3.0, 6.0))
    directions = rng.normal(size=(64, 3))
    for d in np.r_[directions, directions]:  # each twice: the second time the row is a kept one
        top = a.support_max(d)
        assert top == tuple(a.core_support(d).tolist()) and all(type(x) is float for x in top)
        assert a.support_min(d) == tuple(a.core_support(-d).tolist())
        w = minkowski_support(a, b, d)
        assert w.a == top and w.b == tuple(b.core_support(-d).tolist())
        assert all(type(x) is float for x in w.b)
    bound = core.shapes._LISTED_ROWS if limit is None else limit
    assert isinstance(a._pose_cache["rows"], list) is (count <= bound)
