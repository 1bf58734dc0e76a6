"""core/hull.py `_mapped_seed`: the seed hull carried over from the directions' own hull, against scipy's qhull.

A cloud of more than `_SEED_ABOVE` points starts from the hull of its extreme points along 162 spread directions
(`_direction_meshes`: an Ico Sphere's vertices, then Fibonacci directions).  `_mapped_seed` tries to get it
without rounds: it carries the directions' hull triangulation over to the extreme points, flips edges folded the
wrong way, and accepts the result only if every other extreme point lies below each face by more than eps.
Judged here against qhull (test-only) on the same extreme points:
- whenever it answers, its triangles are exactly qhull's facets of the extreme points (each facet a triangle in
  general position), closed and outward; over seeded random round clouds it answers on about half of them;
- on a random sphere the carried triangulation is folded somewhere: the answer needs edge flips; Ico Spheres
  (made as the first directions are) carry over with none;
- the direction meshes themselves are closed, outward, and qhull's hulls of their directions;
- directions that share an extreme point merge (a tetrahedron with points inside: 162 directions, four points,
  and the seed is that tetrahedron);
- it declines (None, with both direction meshes) where four extreme points are coplanar (a cylinder's caps, a
  cube grid's faces), on flat clouds and where fewer than four distinct extreme points remain (a flat triangle);
  the hull `convex_hull` then builds from the rounds-built seed is still qhull's (or None for the flat ones).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core import hull
from core.hull import convex_hull
from tests.core.duplicates import cylinder, icosphere, uv_sphere



def _on_sphere(n: int, seed: int) -> np.ndarray:
    v = np.random.default_rng([911, seed]).normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1)[:, None]


def _centred(points: np.ndarray) -> np.ndarray:
    return points - 0.5 * (points.min(axis=0) + points.max(axis=0))


def _attempts(points: np.ndarray):
    """The centred cloud and, per direction mesh: its extreme points, the mesh, and `_mapped_seed`'s answer."""
    p = _centred(points)
    size = float(np.linalg.norm(p.max(axis=0) - p.min(axis=0)))
    eps = 1e-12 * size + 32 * np.finfo(float).eps * float(np.abs(points).max())  # as convex_hull sets it
    out = []
    for directions, mesh in hull._direction_meshes():
        extreme = (directions @ p.T).argmax(axis=1)
        out.append((extreme, mesh, hull._mapped_seed(p, extreme, mesh, eps)))
    return p, out


def _seed(points: np.ndarray):
    """As `_build` uses it: the first direction mesh that carries over (or the last one tried, None)."""
    p, attempts = _attempts(points)
    for extreme, mesh, triangles in attempts:
        if triangles is not None:
            break
    return p, extreme, mesh, triangles


def _facets(triangles: np.ndarray) -> set:
    return {tuple(sorted(t)) for t in triangles.tolist()}


def _assert_is_the_extreme_points_hull(p: np.ndarray, extreme: np.ndarray, triangles: np.ndarray) -> None:
    extreme = np.unique(extreme)  # directions may share an extreme point
    qhull = ConvexHull(p[extreme])
    assert qhull.vertices.size == extreme.size, "an extreme point along a direction is a hull vertex"
    assert _facets(triangles) == _facets(extreme[qhull.simplices])
    # closed, each directed edge once and met by its reverse
    directed = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    forward = {tuple(e) for e in directed.tolist()}
    assert len(forward) == directed.shape[0]
    assert all((j, i) in forward for i, j in forward)
    # outward: every extreme point on the inner side of each face (normals from numpy's cross, not the code's)
    a, b, c = (p[triangles[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    heights = np.einsum("ij,kj->ik", n, p[extreme]) - np.einsum("ij,ij->i", n, a)[:, None]
    assert heights.max() <= 1e-12 * float(np.linalg.norm(p.max(axis=0) - p.min(axis=0)))


def _tetrahedron_cloud() -> np.ndarray:
    corners = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]])
    return np.vstack([corners, np.random.default_rng(913).dirichlet(np.ones(4), 2000) @ corners])


ROUND = {
    "10,000 on a sphere": lambda: _on_sphere(10_000, 1),
    "20,000 on a sphere": lambda: _on_sphere(20_000, 2),
    "ico sphere s5": lambda: icosphere(5),
    "uv sphere 128x64 float32": lambda: uv_sphere(128, 64).astype(np.float32).astype(np.float64),
    "ellipsoid 2 x 1.5 x 1, turned, far away": lambda: _on_sphere(5000, 3) * [2.0, 1.5, 1.0] @ np.linalg.qr(
        np.random.default_rng([911, 4]).normal(size=(3, 3)))[0] + [4e4, -1e4, 2e3],
    "tiny sphere (1e-6)": lambda: _on_sphere(3000, 5) * 1e-6,
    "tetrahedron with 2,000 points inside (directions merge)": lambda: _tetrahedron_cloud(),
    "huge sphere (1e6)": lambda: _on_sphere(3000, 6) * 1e6,
}


@pytest.mark.parametrize("name", list(ROUND))
def test_round_clouds_get_the_exact_hull_of_their_extreme_points(name):
    points = ROUND[name]()
    p, extreme, _, triangles = _seed(points)
    assert triangles is not None, "declined a round cloud"
    _assert_is_the_extreme_points_hull(p, extreme, triangles)


def test_a_random_sphere_needs_edge_flips_on_the_fibonacci_directions():
    """The Fibonacci directions' triangulation carried over alone is not the hull (some edges fold the wrong way):
    the flips made it.  (The Ico Sphere's, better shaped, carries over as it is.)"""
    p, attempts = _attempts(_on_sphere(10_000, 1))
    (ico_extreme, ico_mesh, ico), (fib_extreme, fib_mesh, fib) = attempts
    assert fib is not None and ico is not None
    assert _facets(fib_extreme[fib_mesh]) != _facets(fib)
    _assert_is_the_extreme_points_hull(p, fib_extreme, fib)
    _assert_is_the_extreme_points_hull(p, ico_extreme, ico)


def test_a_uv_sphere_falls_to_the_fibonacci_directions():
    """A UV Sphere's rings put four of the Ico Sphere directions' extreme points on one plane (an isosceles
    trapezoid): the second direction mesh carries over instead."""
    p, attempts = _attempts(uv_sphere(64, 32))
    (_, _, ico), (fib_extreme, _, fib) = attempts
    assert ico is None and fib is not None
    _assert_is_the_extreme_points_hull(p, fib_extreme, fib)


@pytest.mark.parametrize("level", [3, 4, 5, 6])
def test_ico_spheres_carry_over_without_flips(level):
    points = icosphere(level)
    p, attempts = _attempts(points)
    extreme, mesh, triangles = attempts[0]
    assert triangles is not None
    assert _facets(triangles) == _facets(extreme[mesh])
    _assert_is_the_extreme_points_hull(p, extreme, triangles)


def test_the_direction_meshes_are_the_hulls_of_their_directions():
    meshes = list(hull._direction_meshes())
    assert len(meshes) == 2
    for directions, mesh in meshes:
        assert directions.shape == (162, 3) and mesh.shape == (320, 3)
        np.testing.assert_allclose(np.linalg.norm(directions, axis=1), 1.0, rtol=1e-15)
        _assert_is_the_extreme_points_hull(directions, np.arange(162), mesh)


def test_whenever_it_answers_the_answer_is_the_hull():
    """Seeded random round-ish clouds (noisy spheres, ellipsoids, superellipsoids): every answer is qhull's hull
    of the extreme points, and most clouds get an answer (the test is not vacuous)."""
    rng = np.random.default_rng(912)
    answered = 0
    for trial in range(40):
        n = int(rng.integers(300, 4000))
        v = rng.normal(size=(n, 3))
        v /= np.linalg.norm(v, axis=1)[:, None]
        power = rng.choice([1.0, 0.7, 1.5])  # superellipsoid-like: flatter or pointier than a sphere
        v = np.sign(v) * np.abs(v) ** power
        v *= rng.uniform(0.2, 3.0, size=3)
        v *= 1.0 + rng.choice([0.0, 1e-3, 0.05]) * rng.standard_normal((n, 1))  # points inside and outside
        p, extreme, _, triangles = _seed(v)
        if triangles is not None:
            answered += 1
            _assert_is_the_extreme_points_hull(p, extreme, triangles)
    assert answered >= 15, answered


DECLINED = {
    "cylinder 1024 (coplanar caps)": lambda: cylinder(1024),
    "cube grid 9^3 (coplanar faces)": lambda: np.array(np.meshgrid(*[np.linspace(-1, 1, 9)] * 3)).reshape(3, -1).T,
}


@pytest.mark.parametrize("name", list(DECLINED))
def test_declines_and_the_hull_is_still_qhulls(name):
    points = DECLINED[name]()
    _, attempts = _attempts(points)
    assert all(triangles is None for _, _, triangles in attempts)
    vertices, triangles = convex_hull(points)
    qhull = ConvexHull(points)
    a, b, c = (points[triangles[:, k]] for k in range(3))
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0
    assert abs(volume - qhull.volume) <= 1e-12 * qhull.volume
    assert set(points[vertices].round(12).reshape(-1).tolist()) <= set(points.round(12).reshape(-1).tolist())
    assert vertices.size <= np.unique(points[qhull.vertices], axis=0).shape[0]


def test_a_tetrahedron_with_points_inside_is_four_faces():
    """All 162 directions merge into four extreme points: the seed is the whole hull."""
    points = _tetrahedron_cloud()
    _, _, _, seed = _seed(points)
    assert seed is not None and _facets(seed) == _facets(np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]))
    vertices, triangles = convex_hull(points)
    np.testing.assert_array_equal(vertices, [0, 1, 2, 3])
    assert triangles.shape == (4, 3)


def test_a_flat_cloud_is_declined_by_the_seed_and_the_hull():
    rng = np.random.default_rng(914)
    flat = np.column_stack([rng.normal(size=(3000, 2)), np.zeros(3000)]) @ np.linalg.qr(rng.normal(size=(3, 3)))[0]
    _, attempts = _attempts(flat)
    assert all(triangles is None for _, _, triangles in attempts)
    assert convex_hull(flat) is None


def test_three_distinct_extreme_points_are_declined():
    """A flat triangle with points inside: all 162 directions merge into its three corners (fewer than four
    distinct extreme points); the seed declines, and so does the hull (the cloud is flat)."""
    rng = np.random.default_rng(915)
    corners = np.array([[0.0, 0.0, 1.0], [2.0, 0.5, 1.0], [0.3, 1.7, 1.0]]) @ np.linalg.qr(rng.normal(size=(3, 3)))[0]
    points = np.vstack([corners, rng.dirichlet(np.ones(3), 1000) @ corners])
    p, attempts = _attempts(points)
    for extreme, _, triangles in attempts:
        assert np.unique(extreme).size == 3
        assert triangles is None
    assert convex_hull(points) is None
