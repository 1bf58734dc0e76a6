"""The descent's node bounds on gathered columns (`bvh.box_lower_bound`, `bvh.pair_lower_bound`,
`descent._boxes_meet`) give bit for bit the numbers of their row form (written out here from the formulas of
core/mesh/bvh.py's docstring), under a rotation, a skew and no transform, so the descent keeps the same pairs.
That the bounds are lower bounds of the exact distances is tests/core/test_mesh_bounds.py's concern.

Issue 7 (Exact mode on a duplicate in place): the columns are the faster gather.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import bvh
from core.mesh import descent
from core.mesh.pair_frame import Frame
from tests.core.duplicates import hull_triangles, icosphere, rotation


def _rows_box(wa, na, wb, nb):
    gap = np.maximum(np.maximum(wb.lo[nb] - wa.hi[na], wa.lo[na] - wb.hi[nb]), 0.0)
    return np.sqrt(gap[:, 0] * gap[:, 0] + gap[:, 1] * gap[:, 1] + gap[:, 2] * gap[:, 2])


def _dot(u, v):
    return u[:, 0] * v[:, 0] + u[:, 1] * v[:, 1] + u[:, 2] * v[:, 2]


def _extent(H, u):
    return np.abs(_dot(H[0], u)) + np.abs(_dot(H[1], u)) + np.abs(_dot(H[2], u))


def _rows_pair(wa, na, wb, nb):
    bound = _rows_box(wa, na, wb, nb)
    ha, hb = [h[na] for h in wa.half], [h[nb] for h in wb.half]
    d = wb.centre[nb] - wa.centre[na]
    dist = np.sqrt(_dot(d, d))
    ok = dist > 0.0
    u = d / np.where(ok, dist, 1.0)[:, None]
    bound = np.maximum(bound, np.where(ok, dist - (_extent(ha, u) + _extent(hb, u)), 0.0))
    for axis, okn in ((wa.normal[na], wa.normal_ok[na]), (wb.normal[nb], wb.normal_ok[nb])):
        ext = _extent(ha, axis) + _extent(hb, axis)
        bound = np.maximum(bound, np.where(okn, np.abs(_dot(d, axis)) - ext, 0.0))
    return bound


def _bits(x):
    return np.asarray(x, np.float64).view(np.uint64)


@pytest.mark.parametrize("placing", ["none", "rotated", "skewed"])
def test_columns_equal_rows(placing):
    p = icosphere(3)
    t = hull_triangles(p)
    pose = np.eye(4)
    if placing == "rotated":
        pose[:3, :3] = rotation(0.3, [1.0, 2.0, 3.0])
    elif placing == "skewed":
        pose[:3, :3] = [[1.0, 0.4, 0.0], [0.0, 0.7, 0.2], [0.1, 0.0, 1.3]]
    pose[:3, 3] = [0.5, -0.2, 0.1]
    a, b = core.TriangleMesh(p, t), core.TriangleMesh(p, t, pose if placing != "none" else None)
    frame = Frame(a, b, core.Tolerances())
    wa, wb = frame.sa.world, frame.sb.world
    rng = np.random.default_rng(11)
    na = rng.integers(0, wa.lo.shape[0], size=20000)
    nb = rng.integers(0, wb.lo.shape[0], size=20000)
    assert np.array_equal(_bits(bvh.box_lower_bound(wa, na, wb, nb)), _bits(_rows_box(wa, na, wb, nb)))
    pair = bvh.pair_lower_bound(wa, na, wb, nb)
    assert np.array_equal(_bits(pair), _bits(_rows_pair(wa, na, wb, nb)))
    assert np.any(pair > 0.0) and np.any(pair == 0.0)
    for band in (0.0, 1e-3, 0.1):
        rows = np.all((wb.lo[nb] - wa.hi[na] <= band) & (wa.lo[na] - wb.hi[nb] <= band), axis=1)
        assert np.array_equal(descent._boxes_meet(wa, na, wb, nb, band), rows)
