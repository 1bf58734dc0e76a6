"""The shape API around the queries: inputs are never modified, and `Shape.moved` is the same as a new shape."""
import numpy as np
import pytest

import core


def _pose(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q * np.sign(np.linalg.det(q))
    m[:3, 3] = rng.normal(size=3) * 2.0
    return m


def test_queries_leave_the_callers_arrays_untouched():
    """Regression (found by the benchmark): PointCloud froze the caller's own float64 array (setflags on the
    array as_vertices returned unchanged), so after core.collide(v, ...) the user could no longer write to v."""
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(20, 3)), rng.normal(size=(30, 3)) + 0.5
    transform = _pose(rng)
    before = a.copy(), b.copy(), transform.copy()
    core.collide(a, b)
    core.collide(core.PointCloud(a, transform=transform), core.PointCloud(b))
    core.intersects(a, b)
    core.distance(a, b)
    for array, copy in zip((a, b, transform), before):
        assert array.flags.writeable
        np.testing.assert_array_equal(array, copy)
    a[0, 0] = 123.0  # still the caller's to change


def test_shape_vertices_are_read_only_inside():
    shape = core.PointCloud(np.zeros((4, 3)))
    with pytest.raises(ValueError):
        shape.vertices[0, 0] = 1.0


@pytest.mark.parametrize("seed", range(6))
def test_moved_is_the_same_as_a_new_shape(seed):
    rng = np.random.default_rng(seed)
    local = rng.normal(size=(40, 3))
    first, second = _pose(rng), _pose(rng)
    other = core.Box([0.5, 0.7, 0.9], transform=_pose(rng))
    for make in (lambda m: core.PointCloud(local, transform=m), lambda m: core.Capsule(0.3, 0.8, transform=m),
                 lambda m: core.Cylinder(0.4, 0.6, transform=m, margin=0.05)):
        moved = make(first).moved(second)
        fresh = make(second)
        got, want = core.collide(moved, other), core.collide(fresh, other)
        assert got.status is want.status
        np.testing.assert_allclose(got.distance, want.distance, rtol=0, atol=1e-12 * want.scale)
        np.testing.assert_allclose(got.point_a, want.point_a, rtol=0, atol=1e-9 * want.scale)
        np.testing.assert_allclose(moved.bounds()[0], fresh.bounds()[0], rtol=0, atol=1e-12)
        # the original keeps its own pose
        np.testing.assert_allclose(make(first).bounds()[1], make(first).moved(first).bounds()[1], atol=1e-12)


def test_moved_validates_the_new_transform():
    shape = core.Sphere(1.0)
    with pytest.raises(ValueError, match="transform"):
        shape.moved(np.full((4, 4), np.nan))


@pytest.mark.parametrize("make", [lambda m: core.Sphere(0.5, transform=m), lambda m: core.Box((1, 2, 3), transform=m),
                                  lambda m: core.PointCloud(np.eye(3), m),
                                  lambda m: core.TriangleMesh(np.eye(3), [[0, 1, 2]], m)],
                         ids=["sphere", "box", "cloud", "mesh"])
def test_transform_gives_back_the_placement(make):
    """`shape.transform` is the 4x4 matrix the shape was placed with (the identity for none), a new array each
    time; a shape made with it answers as the original, bit for bit."""
    m = np.eye(4)
    m[:3, :3] = np.linalg.qr(np.random.default_rng(5).normal(size=(3, 3)))[0] * 1.5
    m[:3, 3] = (1e4, -2.5, 0.125)
    shape = make(m)
    assert np.array_equal(shape.transform, m)
    shape.transform[0, 3] = 7.0  # a copy: the shape keeps its place
    assert np.array_equal(shape.transform, m)
    assert np.array_equal(make(None).transform, np.eye(4))
    probe = core.TriangleMesh(np.eye(3) * 0.25, [[0, 1, 2]]) if isinstance(shape, core.TriangleMesh) \
        else core.Sphere(0.25)
    a, b = core.collide(shape, probe), core.collide(make(shape.transform), probe)
    assert a.distance == b.distance and np.array_equal(a.point_a, b.point_a)
