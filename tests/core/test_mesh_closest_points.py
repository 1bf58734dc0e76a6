"""The closest surface point of a mesh found through its hierarchy is the least exact point-triangle distance over
every triangle, bit for bit: pruning (whichever valid lower bounds it uses at which level) only spares triangles
that are farther, it never changes the answer."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.bvh import WorldBVH
from core.mesh.points import closest_points
from core.mesh.tritri import point_triangle
from tests.core.mesh_corpus import star, torus


def _brute(points, corners):
    """Least distance of each point over all triangles, with the kernel's own arithmetic."""
    out = np.empty(points.shape[0])
    for i, p in enumerate(points):
        q = point_triangle(np.broadcast_to(p, (corners.shape[0], 3)), corners[:, 0], corners[:, 1], corners[:, 2])
        off = q - p
        out[i] = np.sqrt(off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1] + off[:, 2] * off[:, 2]).min()
    return out


@pytest.mark.parametrize("shape", ["star", "torus"])
def test_hierarchy_distances_equal_the_brute_force_minimum(shape):
    rng = np.random.default_rng(20261127)
    if shape == "star":
        v, t = star(rng, noise=0.3, n=32, rings=16)[:2]
    else:
        v, t = torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    world = WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))
    points = np.concatenate([rng.uniform(-1.6, 1.6, (150, 3)),               # inside, outside, far
                             v[rng.integers(0, len(v), 20)],                    # on vertices (ties)
                             v[t[:20, 0]] * 0.5 + v[t[:20, 1]] * 0.5,           # on edges (ties)
                             [[0.0, 0.0, 0.0], [5.0, -4.0, 3.0]]])
    dist, q = closest_points(points, world)
    assert dist.tobytes() == _brute(points, world.leaf_corners).tobytes()
    off = q - points
    assert np.sqrt(off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1] + off[:, 2] * off[:, 2]).tobytes() == dist.tobytes()
