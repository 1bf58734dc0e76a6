"""core/hull.py: the numpy quickhull against scipy's qhull (test-only) as the independent oracle.

For every cloud the hull must be a closed, outward triangulation (each directed edge met by its reverse exactly
once) of points of the cloud, hold every point of the cloud (each point behind every face plane within 1e-10 x
the cloud's size), have qhull's volume (to 1e-12 relative), and keep every vertex qhull keeps: a vertex it
drops must lie within 1e-10 x size of the hull (coplanar grid points on a cube's face may go either way).
Clouds: seeded random ones in and on a sphere (4 to 10,000 points), the high-poly shapes of issue 7, a cube
grid (coplanar faces, exactly 8 vertices), duplicated and shuffled points, far from the origin, tiny and huge.
Flat, collinear, single-point and too-small clouds are declined (None); bad input raises ValueError.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core.hull import convex_hull
from tests.core.duplicates import blob, cone, cylinder, icosphere, rounded_box, uv_sphere

SLACK = 1e-10


def _on_sphere(n: int, seed: int) -> np.ndarray:
    v = np.random.default_rng([901, seed]).normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1)[:, None]


def _cube_grid(k: int) -> np.ndarray:
    g = np.linspace(-1.0, 1.0, k)
    return np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T


CLOUDS = {
    "4 points": lambda: _on_sphere(4, 1),
    "12 on a sphere": lambda: _on_sphere(12, 2),
    "300 on a sphere": lambda: _on_sphere(300, 3),
    "10000 on a sphere": lambda: _on_sphere(10000, 4),
    "200 in a ball": lambda: np.random.default_rng([902, 1]).normal(size=(200, 3)),
    "20000 in a ball": lambda: np.random.default_rng([902, 2]).normal(size=(20000, 3)),
    "flat-ish box cloud": lambda: np.random.default_rng([902, 3]).uniform(-1, 1, (3000, 3)) * [1.0, 1.0, 1e-3],
    "ico sphere s3": lambda: icosphere(3),
    "ico sphere s5 (10,242 v)": lambda: icosphere(5),
    "uv sphere 128x64 float32": lambda: uv_sphere(128, 64).astype(np.float32).astype(np.float64),
    "cylinder 1024": lambda: cylinder(1024),
    "cone 1024": lambda: cone(1024),
    "rounded box 24": lambda: rounded_box(24),
    "blob ico s4": lambda: blob(4),
    "cube grid 9^3 (coplanar faces)": lambda: _cube_grid(9),
    "duplicated and shuffled": lambda: np.random.default_rng([902, 4]).permutation(np.repeat(icosphere(2), 3, axis=0)),
    "far from the origin": lambda: icosphere(3) * 0.5 + [3e5, -2e5, 1e5],
    "tiny": lambda: blob(3) * 1e-7,
    "huge": lambda: _on_sphere(2000, 5) * 1e7,
    "cube faces with 1e-13 noise": lambda: _cube_grid(12) + np.random.default_rng([902, 5]).normal(size=(1728, 3)) * 1e-13,
    "needle (radius 1e-6, length 2)": lambda: cylinder(64) * [1e-6, 1e-6, 1.0],
    "float32 ico sphere s4 far away": lambda: (icosphere(4) + [1e3, 2e3, -5e2]).astype(np.float32).astype(np.float64),
    "two far clusters": lambda: np.vstack([_on_sphere(500, 7), _on_sphere(500, 8) + [1e3, 0.0, 0.0]]),
    "slab 1e-9 thick": lambda: np.random.default_rng([902, 6]).uniform(-1, 1, (2000, 3)) * [1.0, 1.0, 1e-9],
}


def _volume(points: np.ndarray, triangles: np.ndarray) -> float:
    centre = points[np.unique(triangles)].mean(axis=0)
    a, b, c = (points[triangles[:, k]] - centre for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


def _behind(points: np.ndarray, triangles: np.ndarray, query: np.ndarray, centre: np.ndarray) -> float:
    """The largest height of a query point above a face plane (exact normals up to rounding, chunked)."""
    a, b, c = (points[triangles[:, k]] - centre for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    worst = -np.inf
    q = query - centre
    for lo in range(0, n.shape[0], 2048):
        h = q @ n[lo:lo + 2048].T - np.einsum("ij,ij->i", n[lo:lo + 2048], a[lo:lo + 2048])
        worst = max(worst, float(h.max()))
    return worst


@pytest.mark.parametrize("name", list(CLOUDS))
def test_hull_matches_qhull(name):
    points = CLOUDS[name]()
    found = convex_hull(points)
    assert found is not None, "declined a solid cloud"
    vertices, triangles = found
    size = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))
    centre = 0.5 * (points.max(axis=0) + points.min(axis=0))
    # a closed, consistently oriented surface on points of the cloud
    assert triangles.ndim == 2 and triangles.shape[1] == 3 and triangles.dtype.kind == "i"
    np.testing.assert_array_equal(vertices, np.unique(triangles))
    directed = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    forward = {tuple(e) for e in directed.tolist()}
    assert len(forward) == directed.shape[0], "a directed edge is used twice"
    assert all((j, i) in forward for i, j in forward), "an edge is not met by its reverse"
    assert 2 * vertices.size - 4 == triangles.shape[0], "not a triangulated sphere (V - E + F != 2)"
    # holds the cloud, outward (positive volume), qhull's volume
    assert _behind(points, triangles, points, centre) <= SLACK * size
    qhull = ConvexHull(points)
    volume = _volume(points, triangles)
    assert abs(volume - qhull.volume) <= 1e-12 * abs(qhull.volume) + 1e-12 * size ** 3, (volume, qhull.volume)
    # qhull's vertices are ours, or within the slack of our hull (coplanar points either side)
    ours = {tuple(p) for p in points[vertices].tolist()}
    for p in points[np.setdiff1d(qhull.vertices, vertices)]:
        if tuple(p.tolist()) not in ours:  # not a duplicate of one of ours: on our hull's boundary, within slack
            assert _behind(points, triangles, p[None, :], centre) >= -SLACK * size, "dropped a far vertex"


def test_cube_grid_is_two_triangles_per_face():
    """A 9 x 9 x 9 grid: every face point but the corners is coplanar (exactly): 8 vertices, 12 triangles."""
    vertices, triangles = convex_hull(_cube_grid(9))
    assert vertices.size == 8 and triangles.shape[0] == 12


def test_points_in_general_position_are_all_kept():
    """On a sphere every point is a vertex: the vertex sets agree exactly with qhull's."""
    points = _on_sphere(5000, 6)
    vertices, _ = convex_hull(points)
    np.testing.assert_array_equal(vertices, np.sort(ConvexHull(points).vertices))


@pytest.mark.parametrize("case", ["three points", "flat", "collinear", "one point repeated", "flat with duplicates"])
def test_degenerate_clouds_are_declined(case):
    rng = np.random.default_rng([903, len(case)])
    points = {
        "three points": rng.normal(size=(3, 3)),
        "flat": np.column_stack([rng.normal(size=(500, 2)), np.zeros(500)]) @ np.linalg.qr(rng.normal(size=(3, 3)))[0],
        "collinear": np.outer(rng.normal(size=400), [1.0, 2.0, -0.5]) + [1.0, 1.0, 1.0],
        "one point repeated": np.tile([[0.3, -1.0, 2.0]], (50, 1)),
        "flat with duplicates": np.repeat(np.column_stack([rng.normal(size=(40, 2)), np.ones(40)]), 3, axis=0),
    }[case]
    assert convex_hull(points) is None


@pytest.mark.parametrize("bad, words", [(np.zeros((5, 2)), "shape"), (np.array([[0.0, 0.0, np.nan]] * 5), "NaN"),
                                        (np.array([[np.inf, 0.0, 0.0]] * 5), "infinite")])
def test_bad_input_raises(bad, words):
    with pytest.raises(ValueError, match=words):
        convex_hull(bad)
