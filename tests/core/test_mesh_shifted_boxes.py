"""A hierarchy placed without a linear part takes its boxes from the local ones (`WorldBVH`'s `boxes`, which
core/mesh/pair_frame.py passes for such a placement): every box, centre, surface point and leaf corner is bit for bit
what the refit from the placed corners gives.  And `meeting.meet` measures the planes of only the leaves its pairs
use (`WorldBVH.planes_of`): row by row the same numbers as the planes of every leaf.

Issue 21 (a 20k-triangle pair re-checked in live mode): a drag moves a mesh without turning it, and the refit of
every box of both hierarchies was most of a step.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.bvh import WorldBVH, local_boxes
from core.rows import add_rows
from core.mesh.pair_frame import Frame
from core.mesh.tritri import Planes
from tests.core.duplicates import blender_uv_sphere
from tests.core.answers import float_bits


def _same(x, y) -> bool:
    return x.shape == y.shape and np.array_equal(float_bits(x), float_bits(y))


def _meshes():
    rng = np.random.default_rng(21)
    v, t = blender_uv_sphere(24, 12)
    yield "float32 sphere", v.astype(np.float64), t
    # a noisy blob far from the origin, with coordinates of every sign and magnitude
    w = v.astype(np.float64) * (1.0 + 0.05 * rng.standard_normal((v.shape[0], 1))) + [1e5, -3.0, 0.25]
    yield "far noisy sphere", w, t
    # a flat sheet (zero extent along z: boxes with lo == hi) with negative zeros among its coordinates
    g = np.stack(np.meshgrid(np.linspace(-1, 1, 9), np.linspace(-1, 1, 9)), -1).reshape(-1, 2)
    sheet = np.column_stack([g, np.where(np.arange(g.shape[0]) % 2, 0.0, -0.0)])
    idx = np.arange(81).reshape(9, 9)
    quads = np.stack([idx[:-1, :-1], idx[1:, :-1], idx[1:, 1:], idx[:-1, 1:]], -1).reshape(-1, 4)
    yield "sheet", sheet, np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])


TRANSLATIONS = [(0.0, 0.0, 0.0), (0.3, -0.7, 1e-9), (-1e5, 2e5, -3.5e4), (1.0 / 3.0, 2.0 / 7.0, -5.0 / 11.0),
                (-0.0, 0.0, -0.0)]


def _translation(t):
    m = np.eye(4)
    m[:3, 3] = t
    return m


@pytest.mark.parametrize("name,v,t", list(_meshes()), ids=lambda x: x if isinstance(x, str) else "")
def test_shifted_local_boxes_equal_the_refit_ones(name, v, t):
    a = core.TriangleMesh(v, t)
    for i, shift in enumerate(TRANSLATIONS):
        other = core.TriangleMesh(v[::-1] * 0.5, t[:, ::-1] % v.shape[0], _translation((0.1, 0.2, -0.3 * i)))
        frame = Frame(a.moved(_translation(shift)), other, core.Tolerances())
        side = frame.sa
        assert side.mesh._linear is None
        shifted = side.world  # through the local boxes
        refit = WorldBVH(side.local.bvh, side.vertices, None, side.offset)  # the refit from the placed corners
        assert shifted.lo.shape == (side.local.bvh.offsets[-1], 3)
        leaves = np.array([0, side.local.bvh.sizes[0] - 1, 3, 3, 1], np.int64)
        assert _same(shifted.corners(leaves), refit.leaf_corners[leaves])  # gathered from the vertices
        for field in ("lo", "hi", "centre", "rep", "leaf_corners"):
            assert _same(getattr(shifted, field), getattr(refit, field)), (name, shift, field)
        assert _same(shifted.corners(leaves), refit.leaf_corners[leaves])  # rows of the gathered corners


def test_a_turned_placement_is_refitted():
    v, t = blender_uv_sphere(16, 8)
    c, s = np.cos(0.3), np.sin(0.3)
    pose = np.array([[c, -s, 0, 0.5], [s, c, 0, 0.0], [0, 0, 1, 0.1], [0, 0, 0, 1.0]])
    a = core.TriangleMesh(v.astype(np.float64), t, pose)
    frame = Frame(a, core.TriangleMesh(v.astype(np.float64), t), core.Tolerances())
    side = frame.sa
    refit = WorldBVH(side.local.bvh, side.vertices, side.mesh._linear, side.offset)
    for field in ("lo", "hi", "centre", "rep"):
        assert _same(getattr(side.world, field), getattr(refit, field)), field
    # the local boxes shifted are not the turned ones: the pair frame must not take them here
    lo, _ = local_boxes(side.local.bvh, side.local.vertices)
    assert not _same(lo + side.offset, refit.lo)


def test_planes_of_a_few_leaves_are_the_planes_of_all():
    v, t = blender_uv_sphere(64, 32)
    a = core.TriangleMesh(v.astype(np.float64), t)
    world = Frame(a, a.moved(_translation((0.5, 0.0, 0.0))), core.Tolerances()).sa.world
    leaves = np.array([5, 3, 3, 400, 17, 5, 1000, 2], np.int64)
    planes, rows = world.planes_of(leaves)
    assert world._planes is None  # a few leaves: not the planes of all of them
    full = Planes(world.leaf_corners)
    for i in range(3):
        for x in range(3):
            assert _same(planes.corner[i][x][rows], full.corner[i][x][leaves])
    for x in range(3):
        assert _same(planes.normal[x][rows], full.normal[x][leaves])
    assert _same(planes.length[rows], full.length[leaves])
    assert _same(planes.edge[rows], full.edge[leaves])
    # many leaves: the hierarchy's own planes, indexed as given
    many = np.arange(world.local.sizes[0])
    planes, rows = world.planes_of(many)
    assert planes is world.planes and rows is many


@pytest.mark.parametrize("count", [0, 1, 63, 64, 65, 1000, 4099])
def test_add_rows_is_the_broadcast_sum(count):
    rng = np.random.default_rng(count)
    rows = rng.standard_normal((count, 3)) * 10.0 ** rng.integers(-8, 8, (count, 1))
    offset = np.array([1.0 / 3.0, -2e7, 5e-9])
    assert _same(add_rows(rows, offset), rows + offset)
    assert _same(add_rows(rows.astype(np.float32), offset), rows.astype(np.float32) + offset)
