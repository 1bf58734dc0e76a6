"""Face normals of hull triangulations (core/facet_depth.py `_face_normals`, gathered one coordinate column at a
time) against qhull's facet planes as the independent oracle, and against a row-by-row reference written here.

Seeded clouds (an ellipsoid near the origin and 1e5 away, a float32 copy of it, and a cylinder with long thin
cap triangles): each normal must be qhull's outward facet normal within 1e-12 (1e-9 for the far cloud, whose
coordinates carry 1e5 x eps of rounding), and within 1e-15 the cross product at the corner facing the longest
edge (the rule the normals' accuracy on slivers rests on).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core.facet_depth import _face_normals
from tests.core.duplicates import cylinder


def _ellipsoid(n: int, offset: float) -> np.ndarray:
    rng = np.random.default_rng([4301, n])
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    return v * np.array([1.0, 2.5, 0.4]) + offset


CLOUDS = {
    "ellipsoid": (lambda: _ellipsoid(3000, 0.0), 1e-12),
    "ellipsoid 1e5 away": (lambda: _ellipsoid(3000, 1e5), 1e-9),
    "ellipsoid float32": (lambda: _ellipsoid(3000, 0.0).astype(np.float32).astype(np.float64), 1e-12),
    "cylinder 512 (thin cap triangles)": (lambda: cylinder(512), 1e-12),
}


def _reference(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Row by row: cross the two edges leaving the corner opposite the longest edge (first such on ties)."""
    out = np.empty((triangles.shape[0], 3))
    for row, tri in enumerate(triangles):
        p = points[tri]
        opposite = [float(((p[(i + 2) % 3] - p[(i + 1) % 3]) ** 2).sum()) for i in range(3)]
        i = int(np.argmax(opposite))
        e1, e2 = p[(i + 1) % 3] - p[i], p[(i + 2) % 3] - p[i]
        n = np.array([e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]])
        out[row] = n / np.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    return out


@pytest.mark.parametrize("name", list(CLOUDS))
def test_face_normals_are_qhulls_outward_normals(name):
    make, limit = CLOUDS[name]
    points = make()
    hull = ConvexHull(points)
    triangles = hull.simplices.copy()
    # outward order, as `Triangulation` keeps them: judged by qhull's own plane
    a, b, c = (points[triangles[:, k]] for k in range(3))
    flip = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0.0
    triangles[flip] = triangles[flip][:, [0, 2, 1]]
    normals = _face_normals(points, triangles)
    assert np.abs(normals - hull.equations[:, :3]).max() <= limit
    # the crossing corner: the reference's normal to rounding (a sliver crossed at another corner is off by far
    # more than that: the cylinder's cap triangles)
    assert np.abs(normals - _reference(points, triangles)).max() <= 1e-15
