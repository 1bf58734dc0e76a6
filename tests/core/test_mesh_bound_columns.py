"""The descent's node bounds on gathered columns (`bvh.box_lower_bound`, `bvh.pair_lower_bound`,
`descent._boxes_meet`) give bit for bit the numbers of their row form (tests/core/bound_rows.py, from the formulas of
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
from tests.core.bound_rows import rows_box, rows_pair
from tests.core.duplicates import hull_triangles, icosphere, rotation


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
    assert np.array_equal(_bits(bvh.box_lower_bound(wa, na, wb, nb)), _bits(rows_box(wa, na, wb, nb)))
    pair = bvh.pair_lower_bound(wa, na, wb, nb)
    assert np.array_equal(_bits(pair), _bits(rows_pair(wa, na, wb, nb, rows_box(wa, na, wb, nb))))
    assert np.any(pair > 0.0) and np.any(pair == 0.0)
    for band in (0.0, 1e-3, 0.1):
        rows = np.all((wb.lo[nb] - wa.hi[na] <= band) & (wa.lo[na] - wb.hi[nb] <= band), axis=1)
        assert np.array_equal(descent._boxes_meet(wa, na, wb, nb, band), rows)
