"""Cells of the sphere of directions: the icosahedron's faces split in four, level by level (a spherical
triangle's corners as unit vectors).  The hull's seeds (core/hull.py) start from its vertices; the depth interval's
coverings of directions (core/mesh/depth_cover.py, depth_lipschitz.py, depth_exit.py) split its cells."""
from __future__ import annotations

import numpy as np

from .rows import row_dot

__all__ = ["icosphere", "cells", "split"]


def icosphere(level: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit vertices and outward triangles of the icosahedron with every triangle split in four `level` times
    (edge midpoints pushed out to the sphere): 10 x 4^level + 2 vertices."""
    g = 0.5 * (1.0 + np.sqrt(5.0))
    v = np.array([(0.0, s, t * g) for s in (-1, 1) for t in (-1, 1)])
    v = np.vstack([v, v[:, [1, 2, 0]], v[:, [2, 0, 1]]])  # (0, +-1, +-g) and its cyclic shifts: edges of length 2
    i, j, k = np.array([(i, j, k) for i in range(12) for j in range(i + 1, 12) for k in range(j + 1, 12)]).T
    near = np.isclose(((v[:, None] - v[None]) ** 2).sum(axis=2), 4.0)
    keep = near[i, j] & near[j, k] & near[i, k]
    tri = np.column_stack([i[keep], j[keep], k[keep]])
    flip = np.einsum("ij,ij->i", np.cross(v[tri[:, 1]] - v[tri[:, 0]], v[tri[:, 2]] - v[tri[:, 0]]), v[tri[:, 0]]) < 0
    tri[flip] = tri[flip][:, [0, 2, 1]]
    v /= np.linalg.norm(v, axis=1)[:, None]
    for _ in range(level):
        edges = np.sort(np.stack([tri, np.roll(tri, -1, axis=1)], axis=2).reshape(-1, 2), axis=1)
        unique, which = np.unique(edges, axis=0, return_inverse=True)
        middle = v[unique[:, 0]] + v[unique[:, 1]]
        mid = v.shape[0] + which.reshape(-1, 3)  # midpoints of edges (0, 1), (1, 2), (2, 0) of each triangle
        v = np.vstack([v, middle / np.linalg.norm(middle, axis=1)[:, None]])
        a, b, c = tri.T
        ab, bc, ca = mid.T
        tri = np.concatenate([np.column_stack(t) for t in ((a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca))])
    return v, tri


def cells(level: int) -> np.ndarray:
    """(k, 3, 3) corner directions of the icosahedron's faces split in four `level` times (outward order)."""
    v, tri = icosphere(level)
    return v[tri]


def split(cells: np.ndarray) -> np.ndarray:
    """Each spherical triangle split in four at its edges' normalised midpoints (the same float midpoint for the
    two cells on an edge: u + v is computed the same either way round)."""
    a, b, c = cells[:, 0], cells[:, 1], cells[:, 2]

    def mid(x, y):
        m = x + y
        return m / np.sqrt(row_dot(m, m))[:, None]

    ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
    return np.concatenate([np.stack(t, axis=1) for t in ((a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca))])
