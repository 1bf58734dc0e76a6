"""`Contact.separation`: moving B by it ends the intersection, its length is `depth + gap`, and it is the zero
vector for answers that do not intersect (the convention is written on `core.Contact.separation`)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import Status

from .meshes import ball, box, cup, l_shape, mesh, torus, translate
from .support import uniform_rotation


def _moved(shape, offset):
    if isinstance(shape, core.TriangleMesh):
        transform = np.eye(4)
        transform[:3, 3] = offset
        return shape.moved(transform @ np.asarray(shape.transform))
    return np.asarray(shape) + offset


def _convex_pairs():
    rng = np.random.default_rng(19)
    for _ in range(30):
        a = rng.normal(size=(rng.integers(4, 40), 3))
        b = rng.normal(size=(rng.integers(4, 40), 3)) @ uniform_rotation(rng) + rng.normal(scale=0.6, size=3)
        yield a, b


def _mesh_pairs():
    yield mesh(torus()), mesh(translate(box((-0.1, -0.1, -2.0), (0.1, 0.1, 2.0)), (1.0, 0.0, 0.0)))
    yield mesh(cup()), mesh(translate(ball(0.3), (0.95, 0.0, 0.8)))
    yield mesh(l_shape()), mesh(translate(l_shape(), (0.5, 0.5, 0.3)))
    yield mesh(box((0, 0, 0), (3, 3, 3))), mesh(box((1, 1, 1), (2, 2, 2)))


@pytest.mark.parametrize("pair", list(_convex_pairs()) + list(_mesh_pairs()))
def test_separation_ends_the_intersection(pair):
    a, b = pair
    answer = core.collide(a, b)
    if answer.status is not Status.INTERSECTING:
        assert not np.any(answer.separation)
        return
    length = float(np.linalg.norm(answer.separation))
    assert length == pytest.approx(answer.depth + answer.gap, rel=1e-12, abs=1e-12 * answer.scale)
    assert length >= answer.depth - 1e-12 * answer.scale
    moved = core.collide(a, _moved(b, answer.separation))
    assert moved.status is not Status.INTERSECTING, (answer, moved)


def test_separation_of_swapped_answer_moves_the_other_way():
    a, b = mesh(torus()), mesh(translate(box((-0.1, -0.1, -2.0), (0.1, 0.1, 2.0)), (1.0, 0.0, 0.0)))
    answer = core.collide(a, b)
    assert answer.status is Status.INTERSECTING
    assert np.array_equal(answer.swapped().separation, -answer.separation)


def test_no_move_for_apart_or_touching():
    apart = core.collide(np.asarray(box()[0]), np.asarray(box()[0]) + (3.0, 0.0, 0.0))
    touching = core.collide(np.asarray(box()[0]), np.asarray(box()[0]) + (1.0, 0.0, 0.0))
    assert apart.status is Status.SEPARATED and touching.status is Status.TOUCHING
    assert not np.any(apart.separation) and not np.any(touching.separation)
