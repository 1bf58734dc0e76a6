"""The depth interval's crossing test (core/mesh/depth_interval.py `_overlaps`) on grid-aligned meshes whose
faces and edges lie in each other's face planes: such surfaces meet only in contacts (coplanar faces, an edge
lying on a face), none a crossing beyond the band, yet the solids can share a volume.

Regression.  An L prism ([0,2]x[0,1]x[0,1] united with [0,1]x[1,2]x[0,1]) and the box [0.5,1.5]x[0.8,1.8]x[0,1]:
the translational depth is |(0.5, 0.2, 0)| = sqrt(0.29) = 0.5385 (the box slides into the notch [1,2]x[1,2] and
off the prism's arm at y = 1; lifting it by 1 along z costs more).  The first move the interval tried was the
bound L = 0.5 along +x, which leaves the box at [1,2]x[0.8,1.8]x[0,1] sharing [1,2]x[0.8,1]x[0,1] (volume 0.2)
with the prism while every face of the box lies in a face plane of the prism or crosses it along one of its
edges.  The crossing test called that move free, the full query's re-check refused it, the search along +x
stopped there and nothing shorter than the hulls' move (1.0, along z) was left: depth 0.5, gap 0.5.

Oracle: manifold3d's exact intersection volume (test-only dependency), independent of the engine."""
from __future__ import annotations

import manifold3d
import numpy as np
import pytest

import core
from core.mesh import depth_interval
from core.mesh.pair_frame import Frame

from . import meshes

PRISM_DEPTH = float(np.sqrt(0.5 ** 2 + 0.2 ** 2))
"""The hand-worked translational depth of the regression pair."""

VOLUME = 1e-12
"""Intersection volumes above this (the pairs' volumes are multiples of 1/64) count as overlapping."""


def _solid(pair, move=(0.0, 0.0, 0.0)):
    vertices, triangles = pair
    return manifold3d.Manifold(manifold3d.Mesh64(vert_properties=np.asarray(vertices, float) + np.asarray(move),
                                                 tri_verts=np.asarray(triangles, np.uint64)))


def _shared_volume(a, b, move):
    return (_solid(a) ^ _solid(b, move)).volume()


def _crossing_test(a, b, move) -> bool:
    """`_overlaps` for B moved by `move`, on the pair frame of the unmoved pair (as the interval's search runs
    it)."""
    ma, mb = meshes.mesh(a), meshes.mesh(b)
    return depth_interval._overlaps(Frame(ma, mb, core.DEFAULT_TOLERANCES), mb, np.asarray(move, float))


def test_the_box_left_in_the_prisms_face_planes_is_not_free():
    prism, box = meshes.l_shape(), meshes.box((0.5, 0.8, 0.0), (1.5, 1.8, 1.0))
    move = (0.5, 0.0, 0.0)
    assert _shared_volume(prism, box, move) == pytest.approx(0.2)
    assert _crossing_test(prism, box, move)


def test_regression_the_interval_reaches_the_notch():
    prism, box = meshes.mesh(meshes.l_shape()), meshes.mesh(meshes.box((0.5, 0.8, 0.0), (1.5, 1.8, 1.0)))
    answer = core.collide(prism, box)
    assert answer.status is core.Status.INTERSECTING
    upper = -answer.distance + answer.gap
    assert np.linalg.norm(answer.separation) == pytest.approx(upper)
    assert _shared_volume(meshes.l_shape(), meshes.box((0.5, 0.8, 0.0), (1.5, 1.8, 1.0)), answer.separation) \
        <= VOLUME
    assert -answer.distance <= PRISM_DEPTH * (1.0 + 1e-9)
    # was the hulls' move, 1.0
    assert upper <= PRISM_DEPTH * 1.01


def _grid_pairs(count, seed):
    """Seeded pairs on a half-unit grid around the L prism: boxes (two of three) and L prisms, each with a move
    on the same grid, so faces, edges and corners land in each other's planes."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        if k % 3 == 2:
            other = meshes.translate(meshes.l_shape(), rng.integers(-2, 3, 3) * 0.5)
        else:
            lo = rng.integers(-1, 5, 3) * 0.5
            other = meshes.box(lo, lo + rng.integers(1, 4, 3) * 0.5)
        yield other, rng.integers(-2, 3, 3) * 0.5


def test_the_crossing_test_agrees_with_the_exact_volume_on_a_grid():
    prism = meshes.l_shape()
    wrong, overlapping = [], 0
    for other, move in _grid_pairs(200, seed=1):
        shared = _shared_volume(prism, other, move) > VOLUME
        overlapping += shared
        if _crossing_test(prism, other, move) != shared:
            wrong.append((other[0].min(axis=0), other[0].max(axis=0), move, shared))
    assert 20 <= overlapping <= 180  # both verdicts well represented
    assert not wrong, wrong
