"""The descent's node bounds on a few pairs (core/mesh/bvh.py `SMALL_PAIRS`: each side's nodes gathered as rows of
`WorldBVH.packed`, the coordinates and directions as rows of (3, k) arrays) give bit for bit the numbers of the row
form (tests/core/test_mesh_bound_columns.py's, written out from the formulas), and of the column form the larger
levels take, under no transform, a rotation, a skew and a flattening map (whose normals are unknown: `normal_ok`
False), and on a world copied field by field (core/mesh/depth_interval.py's shifted worlds have no packed rows
until asked)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import bvh
from core.mesh.depth_interval import _shifted
from core.mesh.pair_frame import Frame
from tests.core.duplicates import hull_triangles, icosphere, rotation
from tests.core.test_mesh_bound_columns import _bits, _rows_box, _rows_pair


def _worlds(placing):
    p = icosphere(3)
    t = hull_triangles(p)
    pose = np.eye(4)
    if placing == "rotated":
        pose[:3, :3] = rotation(0.3, [1.0, 2.0, 3.0])
    elif placing == "skewed":
        pose[:3, :3] = [[1.0, 0.4, 0.0], [0.0, 0.7, 0.2], [0.1, 0.0, 1.3]]
    elif placing == "flattened":
        pose[:3, :3] = np.diag([1.0, 1.0, 0.0])
    pose[:3, 3] = [0.5, -0.2, 0.1]
    a, b = core.TriangleMesh(p, t), core.TriangleMesh(p, t, pose if placing != "none" else None)
    frame = Frame(a, b, core.Tolerances())
    return frame.sa.world, frame.sb.world


@pytest.mark.parametrize("placing", ["none", "rotated", "skewed", "flattened"])
def test_small_levels_equal_rows_and_columns(monkeypatch, placing):
    wa, wb = _worlds(placing)
    if placing == "flattened":
        assert not np.any(wb.normal_ok)
    rng = np.random.default_rng(12)
    for size in (1, 2, 7, 64, bvh.SMALL_PAIRS):
        na = rng.integers(0, wa.lo.shape[0], size=size)
        nb = rng.integers(0, wb.lo.shape[0], size=size)
        box = bvh.box_lower_bound(wa, na, wb, nb)
        pair = bvh.pair_lower_bound(wa, na, wb, nb)
        given = bvh.pair_lower_bound(wa, na, wb, nb, box)
        assert np.array_equal(_bits(box), _bits(_rows_box(wa, na, wb, nb)))
        assert np.array_equal(_bits(pair), _bits(_rows_pair(wa, na, wb, nb)))
        assert np.array_equal(_bits(given), _bits(pair))
        with monkeypatch.context() as m:
            m.setattr(bvh, "SMALL_PAIRS", -1)  # the column form
            assert np.array_equal(_bits(bvh.box_lower_bound(wa, na, wb, nb)), _bits(box))
            assert np.array_equal(_bits(bvh.pair_lower_bound(wa, na, wb, nb)), _bits(pair))


def test_a_world_copied_field_by_field_packs_its_own_numbers():
    wa, wb = _worlds("rotated")
    wb.packed  # the original's packed rows exist; the shifted copy must not take them
    moved = _shifted(wb, np.array([0.25, -0.5, 0.125]))
    rng = np.random.default_rng(13)
    na = rng.integers(0, wa.lo.shape[0], size=50)
    nb = rng.integers(0, wb.lo.shape[0], size=50)
    assert np.array_equal(_bits(bvh.pair_lower_bound(wa, na, moved, nb)), _bits(_rows_pair(wa, na, moved, nb)))
    assert not np.array_equal(_bits(bvh.pair_lower_bound(wa, na, moved, nb)),
                              _bits(bvh.pair_lower_bound(wa, na, wb, nb)))
