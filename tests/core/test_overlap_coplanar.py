"""core.overlap where faces lie on faces, triangulated differently on each side (a box whose faces are grids
with random diagonals against a plain box and against another grid box), so that coplanar triangles overlap
partly and are cut into slivers: the volume is still the analytic one, a face pressed against a face from
outside leaves nothing (exactly 0.0), and the region stays closed."""
import zlib

import numpy as np
import pytest

from core.mesh import TriangleMesh
from tests.core.meshes import box
from tests.core.overlap_corpus import assert_volume, pair_size, region_volume, rotation
from tests.core.test_overlap_boxes import CASES, _truth


def grid_box(lo, hi, n, rng):
    """The box [lo, hi] with every face an n x n grid of quads, each split along a random diagonal (outward)."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    axes = [np.linspace(lo[k], hi[k], n + 1) for k in range(3)]
    verts, tris = [], []
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        for value, sign in ((lo[k], -1), (hi[k], 1)):
            base = len(verts)
            for a in axes[i]:
                for b in axes[j]:
                    p = np.empty(3)
                    p[k], p[i], p[j] = value, a, b
                    verts.append(p)
            for a in range(n):
                for b in range(n):
                    q = [base + a * (n + 1) + b, base + (a + 1) * (n + 1) + b,
                         base + (a + 1) * (n + 1) + b + 1, base + a * (n + 1) + b + 1]
                    pair = [[q[0], q[1], q[2]], [q[0], q[2], q[3]]] if rng.random() < 0.5 else \
                        [[q[0], q[1], q[3]], [q[1], q[2], q[3]]]
                    for t in pair:
                        tris.append(t if sign > 0 else t[::-1])
    return np.array(verts), np.array(tris)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("grids", ["a grid", "b grid", "both grids"])
@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (1e-3, 1e3), (1e3, 1e6)])
def test_coplanar_faces_cut_differently(name, grids, scale, offset):
    lo_a, hi_a, lo_b, hi_b = (np.asarray(x, float) for x in CASES[name])
    rng = np.random.default_rng(zlib.crc32(repr((name, grids, scale, offset)).encode()))
    w = np.eye(4)
    w[:3, :3] = scale * rotation(rng)
    w[:3, 3] = offset * rng.normal(size=3)
    mesh_a = grid_box(lo_a, hi_a, 3, rng) if grids != "b grid" else box(lo_a, hi_a)
    mesh_b = grid_box(lo_b, hi_b, 4, rng) if grids != "a grid" else box(lo_b, hi_b)
    a, b = TriangleMesh(*mesh_a, w), TriangleMesh(*mesh_b, w)
    truth = scale ** 3 * _truth(lo_a, hi_a, lo_b, hi_b)
    size = pair_size(a, b)
    for result in assert_volume(a, b, truth):
        assert (result.volume == 0.0) == (truth == 0.0)
        if truth > 0.0:
            about = result.region.reshape(-1, 3).mean(axis=0)
            rounding = 1e3 * np.finfo(float).eps * np.abs(result.region).max() * size ** 2
            assert abs(region_volume(result.region, about + size) - result.volume) <= \
                1e-9 * truth + 1e-12 * size ** 3 + rounding
