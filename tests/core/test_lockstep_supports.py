"""The lock-step EPA's support queries (core/lockstep_epa.py `_Sides`) pick the vertex the scalar query picks.

`PointCloud.support_max` / `support_min` take the first vertex of largest / smallest product; the batched product
(core/lockstep.py `column_products`) may round differently (another summation order, no fused multiply-add).  `_Sides` must still pick the scalar
query's vertex, so that the lock-step EPA stays bit for bit the scalar one: a near tie goes to the scalar
product.  Checked on tie-rich clouds (cubes, planks with points on their faces, duplicated vertices) along their
face normals, edge and corner directions and random ones, with numpy's product and with a product that moves
every value by one ulp up or down at random (within the error bound of a three-term product).
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.lockstep import column_products
from core.lockstep_epa import _Sides
from tests.core.support import CUBE, uniform_rotation


def _clouds(rng):
    out = []
    for _ in range(12):
        m = np.eye(4)
        m[:3, :3] = uniform_rotation(rng) * rng.uniform(0.5, 2.0)
        m[:3, 3] = rng.uniform(-5.0, 5.0, 3)
        out.append(core.PointCloud(CUBE - 0.5, m))
        face = rng.uniform(-1.0, 1.0, (int(rng.integers(8, 200)), 3))
        axis = rng.integers(0, 3, len(face))
        face[np.arange(len(face)), axis] = np.sign(face[np.arange(len(face)), axis])
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        out.append(core.PointCloud(np.r_[corners, face] * [0.8, 0.2, 0.05], m))
        blob = rng.normal(size=(int(rng.integers(1, 60)), 3))
        out.append(core.PointCloud(np.r_[blob, blob[:3]], m))  # repeated vertices
    return out


def _directions(rng, shape):
    """Unit directions: the cloud's own face normals and edge/corner directions (as the rotated frame gives
    them, so products tie up to rounding), and random ones."""
    linear = shape.transform[:3, :3]
    frame = linear / np.linalg.norm(linear, axis=0)
    dirs = [frame[:, k] * s for k in range(3) for s in (1.0, -1.0)]
    dirs += [(frame @ np.array(c)) / np.sqrt(np.count_nonzero(c)) for c in
             ((1, 1, 0), (1, -1, 0), (0, 1, 1), (1, 1, 1), (1, -1, 1))]
    dirs += list(rng.normal(size=(6, 3)))
    return np.array([d / np.linalg.norm(d) for d in dirs])


def _ulp_noise(seed):
    rng = np.random.default_rng(seed)

    def product(x, y):
        p = column_products(x, y)
        up = rng.random(p.shape) < 0.5
        return np.where(up, np.nextafter(p, np.inf), np.nextafter(p, -np.inf))
    return product


@pytest.mark.parametrize("noisy", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lockstep_supports_pick_the_scalar_vertex(seed, noisy, monkeypatch):
    rng = np.random.default_rng(seed)
    shapes = _clouds(rng)
    batch = core.ShapeBatch(shapes)
    bucket, local, blocks, _, _ = batch._lockstep_data()
    radii = batch._lockstep_extent()
    if noisy:
        monkeypatch.setattr(_Sides, "product", staticmethod(_ulp_noise(seed)))
    monkeypatch.setattr(_Sides, "scalar_rows", -1)  # the batched products on every call, however few rows
    which, directions = [], []
    for k, shape in enumerate(shapes):
        d = _directions(rng, shape)
        which += [k] * len(d)
        directions.append(d)
    which = np.array(which)
    d = np.concatenate(directions)
    offset = np.array([shapes[k]._offset for k in which.tolist()])
    world = [shapes[k]._world_core_vertices() for k in which.tolist()]
    rows = np.arange(len(which))
    for largest in (True, False):
        sides = _Sides(blocks, radii, bucket[which], local[which], offset, world, largest)
        got = sides(rows, d)
        for k, (shape_index, u) in enumerate(zip(which.tolist(), d)):
            shape = shapes[shape_index]
            want = (shape.support_max(tuple(u.tolist())) if largest else shape.support_min(tuple(u.tolist())))
            assert tuple(got[k].tolist()) == want, (shape_index, u, largest)
