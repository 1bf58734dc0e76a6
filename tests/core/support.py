"""Small helpers shared by the core tier's test files: one home for what several files need.

Report and tolerance arithmetic live in tests/core/reporting.py, corpus transforms (`random_rotation`, `rigid`) in
tests/core/corpus.py, hand-built triangle meshes in tests/core/meshes.py; everything else shared goes here.
"""
from __future__ import annotations

import numpy as np

CUBE = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
"""The unit cube's 8 corners [0, 1]^3 (corner index 4x + 2y + z): dyadic, so every sum and difference is exact."""


def uniform_rotation(rng) -> np.ndarray:
    """A uniformly distributed 3 x 3 rotation from the QR factors of a Gaussian matrix: R's diagonal signs moved into
    Q make the distribution uniform (Haar), and a negative determinant is flipped (-Q is a rotation in 3D)."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def assert_closed_convex_hull(cloud: np.ndarray, result, slack: float) -> float:
    """`result` (core.hull.convex_hull's (vertices, triangles)) is a sound hull of `cloud`: each directed edge once
    and with its reverse, its vertices the points its triangles use, a sphere's triangulation (V = F / 2 + 2), and
    no point of the cloud above a face by more than `slack` x the cloud's diagonal (every edge's far corners
    included: convex).  Returns the enclosed volume, for the caller's own comparison."""
    assert result is not None, "declined"
    vertices, tri = result
    size = float(np.linalg.norm(cloud.max(axis=0) - cloud.min(axis=0)))
    edges = np.stack([tri, np.roll(tri, -1, axis=1)], axis=2).reshape(-1, 2)
    keys = {tuple(e) for e in edges.tolist()}
    assert len(keys) == len(edges), "a directed edge used twice"
    assert all((b, a) in keys for a, b in keys), "an edge without its reverse"
    assert np.array_equal(vertices, np.unique(tri))
    assert vertices.size == tri.shape[0] // 2 + 2, "not a sphere's triangulation"
    corners = cloud[tri]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    height = cloud @ normal.T - np.einsum("ij,ij->i", normal, corners[:, 0])
    assert height.max() <= slack * size, "a point above a face: the surface folds"
    return float(np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6.0)
