"""Bad input raises ValueError with a message naming the problem; odd-but-valid input gives exact answers.

Invalid: empty arrays, wrong shapes, NaN/inf, non-numeric values, bad transforms (shape, NaN, not affine),
negative radius / half extents / margin, a bad `tolerances`.  Valid: a single vertex, duplicated vertices,
coplanar and collinear clouds, zero radius, zero size, a zero-scale transform axis.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.oracle import ShapeSpec, signed_distance
from tests.core.support import CUBE


@pytest.mark.parametrize("vertices, words", [
    (np.zeros((0, 3)), "empty"),
    ([], "shape"),
    (np.zeros((4, 2)), "shape"),
    (np.zeros((2, 3, 1)), "shape"),
    (np.zeros(3), "shape"),
    ([[0, 0, math.nan]], "nan"),
    ([[0, 0, math.inf], [1, 1, 1]], "infinite"),
    ([["a", "b", "c"]], "number"),
    (np.array([["x", "y", "z"]]), "numeric"),
    ([[0, 0], [1, 1, 1]], "number"),
    ([[1 + 2j, 0, 0]], "number"),
    ("not an array", "number"),
])
def test_bad_vertices(vertices, words):
    with pytest.raises(ValueError) as info:
        core.PointCloud(vertices)
    assert words.lower() in str(info.value).lower(), str(info.value)
    with pytest.raises(ValueError):
        core.collide(vertices, CUBE)
    with pytest.raises(ValueError):
        core.collide(CUBE, vertices)


@pytest.mark.parametrize("transform, words", [
    (np.eye(3), "4, 4"),
    (np.eye(4)[:, :3], "4, 4"),
    (np.full((4, 4), math.nan), "nan"),
    (np.where(np.eye(4) == 1, math.inf, 0.0), "infinite"),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]], "affine"),
    ([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 2]], "affine"),
    ("eye", "transform"),
    ([["a"] * 4] * 4, "transform"),
])
@pytest.mark.parametrize("make", [
    lambda m: core.PointCloud(CUBE, transform=m), lambda m: core.Sphere(1.0, transform=m),
    lambda m: core.Box([1, 1, 1], transform=m), lambda m: core.Capsule(1.0, 1.0, transform=m),
    lambda m: core.Cylinder(1.0, 1.0, transform=m), lambda m: core.Cone(1.0, 1.0, transform=m),
])
def test_bad_transforms(make, transform, words):
    with pytest.raises(ValueError) as info:
        make(transform)
    assert words.lower() in str(info.value).lower(), str(info.value)


@pytest.mark.parametrize("make, words", [
    (lambda: core.Sphere(-1.0), "radius"),
    (lambda: core.Sphere(math.nan), "radius"),
    (lambda: core.Sphere("big"), "radius"),
    (lambda: core.Capsule(-0.1, 1.0), "radius"),
    (lambda: core.Capsule(0.1, -1.0), "half_height"),
    (lambda: core.Cylinder(1.0, math.inf), "half_height"),
    (lambda: core.Cone(-1.0, 1.0), "radius"),
    (lambda: core.Box([1.0, -1.0, 1.0]), "half extent"),
    (lambda: core.Box([1.0, 1.0]), "3 values"),
    (lambda: core.Box([1.0, math.nan, 1.0]), "half extent"),
    (lambda: core.PointCloud(CUBE, margin=-0.1), "margin"),
    (lambda: core.Sphere(1.0, margin=math.nan), "margin"),
    (lambda: core.Box([1, 1, 1], margin="wide"), "margin"),
])
def test_bad_sizes_and_margins(make, words):
    with pytest.raises(ValueError) as info:
        make()
    assert words.lower() in str(info.value).lower(), str(info.value)


@pytest.mark.parametrize("tolerances", [None, "default", {"touching": 1e-9}, 1e-9])
def test_bad_tolerances_argument(tolerances):
    with pytest.raises(ValueError) as info:
        core.collide(CUBE, CUBE + 2, tolerances=tolerances)
    assert "tolerances" in str(info.value).lower()


@pytest.mark.parametrize("kwargs", [{"touching": -1e-9}, {"touching": 2.0}, {"gjk_gap": math.nan},
                                    {"gjk_max_iterations": 0}, {"epa_max_iterations": 2.5}])
def test_bad_tolerance_values(kwargs):
    with pytest.raises(ValueError) as info:
        core.Tolerances(**kwargs)
    assert list(kwargs)[0] in str(info.value)


def test_non_shape_objects_are_rejected():
    for bad in (None, 3.0, object(), {"vertices": CUBE}):
        with pytest.raises(ValueError):
            core.collide(bad, CUBE)


# ----------------------------------------------------------------------------------------------- valid oddities

def _exact(a, b):
    """Engine vs oracle on specs: status by sign, distance to 1e-12 x scale."""
    c = core.collide(a.build(), b.build())
    d, _ = signed_distance(a, b)
    tol = max(c.touching_tolerance, 1e-15)
    np.testing.assert_allclose(c.distance, d, atol=max(1e-12 * c.scale, 1e-15))
    expected = "SEPARATED" if d > tol else "INTERSECTING" if d < -tol else "TOUCHING"
    assert c.status.name == expected
    return c


def _cloud(v):
    return ShapeSpec("cloud", vertices=np.asarray(v, dtype=float))


def test_single_vertex_against_a_cube():
    _exact(_cloud([[2.0, 0.5, 0.5]]), _cloud(CUBE))
    _exact(_cloud([[0.5, 0.5, 0.25]]), _cloud(CUBE))  # inside: depth 0.25
    c = _exact(_cloud([[1.0, 0.5, 0.5]]), _cloud(CUBE))  # on the face
    assert c.status is core.Status.TOUCHING


def test_two_single_points():
    c = _exact(_cloud([[0.0, 0.0, 0.0]]), _cloud([[3.0, 4.0, 0.0]]))
    assert c.distance == pytest.approx(5.0, rel=1e-15)
    c = core.collide([[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]])
    assert c.status is core.Status.TOUCHING and c.distance == 0.0


def test_duplicated_vertices_are_the_same_shape():
    dup = np.repeat(CUBE, 5, axis=0)
    a = core.collide(dup, CUBE + [1.5, 0.2, 0.1])
    b = core.collide(CUBE, CUBE + [1.5, 0.2, 0.1])
    assert a.distance == pytest.approx(b.distance, abs=1e-15) == pytest.approx(0.5, abs=1e-12)
    _exact(_cloud(np.repeat([[0.2, 0.3, 0.4]], 7, axis=0)), _cloud(CUBE))


@pytest.mark.parametrize("offset", [(0.5, 0.5, 0.0), (0.5, 0.5, 0.5), (0.5, 0.5, 2.0), (2.5, 0.5, 0.0), (0.5, 0.5, 1e-12)])
def test_coplanar_square(offset):
    square = np.array([[-0.25, -0.25, 0], [0.25, -0.25, 0], [0.25, 0.25, 0], [-0.25, 0.25, 0]]) + offset
    _exact(_cloud(square), _cloud(CUBE))
    _exact(_cloud(square), _cloud(square + [0.3, 0.1, 0.0]))  # coplanar squares: depth 0 when overlapping


@pytest.mark.parametrize("offset", [(0.5, 0.5, 0.5), (0.5, 0.5, 1.5), (1.0, 0.5, 0.5), (0.5, 3.0, 0.5)])
def test_collinear_needle(offset):
    needle = np.array([[-0.2, 0, 0], [0.0, 0, 0], [0.1, 0, 0], [0.2, 0, 0]]) + offset
    _exact(_cloud(needle), _cloud(CUBE))
    _exact(_cloud(needle), _cloud(needle[:, [1, 0, 2]] + [0.0, 0.0, 0.3]))  # skew needles


def test_degenerate_primitives():
    _exact(ShapeSpec("sphere", radius=0.0), _cloud(CUBE + 0.5))
    _exact(ShapeSpec("capsule", radius=0.0, half_height=2.0), _cloud(CUBE + [0.5, 0.5, 0.0]))
    _exact(ShapeSpec("box", half_extents=(0.0, 0.0, 0.0)), _cloud(CUBE - 0.5))
    squash = np.diag([1.0, 1.0, 0.0, 1.0])
    _exact(ShapeSpec("box", half_extents=(0.5, 0.5, 0.5), transform=squash), _cloud(CUBE + [0.2, 0.2, 0.0]))
    _exact(ShapeSpec("box", half_extents=(0.5, 0.5, 0.5), transform=squash), _cloud(CUBE + [0.2, 0.2, 0.5]))
    # zero-size curved primitives are still valid shapes
    for shape in (core.Cylinder(0.0, 1.0), core.Cone(0.0, 1.0), core.Cylinder(1.0, 0.0), core.Cone(1.0, 0.0)):
        c = core.collide(shape, CUBE + [3.0, 0.0, 0.0])
        assert c.status is core.Status.SEPARATED and math.isfinite(c.distance)
