"""core/hull.py `_highest_in_fans`: the points of removed faces go to the highest new face of their insertion.

Each point has a run of consecutive new faces (its insertion's fan); the answer is the highest of them and the
height above it, the first such face where several are equally high.  Two ways are used (all pairs in one
array below `_BY_FAN_SIZE_FROM` points; fan size by fan size from there on); both are judged against a plain
per-point loop (np.dot on each face's plane row, independent of the code under test), on seeded random planes
with fans of 1 to 17 faces, with repeated planes (exact ties) and with every point below all of its faces.
"""
from __future__ import annotations

import numpy as np
import pytest

from core import hull


def _setup(seed: int, points: int, ties: bool):
    rng = np.random.default_rng([951, seed])
    faces = hull._Faces(4096)
    count = rng.integers(1, 18, size=points)
    planes = rng.normal(size=(4, 4096))
    planes[:3] /= np.linalg.norm(planes[:3], axis=0)
    if ties:  # every other face repeats the plane before it: equal heights, the first must win
        planes[:, 1::2] = planes[:, 0::2]
    faces.plane[:] = planes
    start = rng.integers(0, 4096 - 17, size=points)
    P = np.ascontiguousarray(rng.normal(size=(3, 500)))
    q = rng.integers(0, 500, size=points)
    return P, faces, q, start, count


def _oracle(P, faces, q, start, count):
    top, pick = [], []
    for i in range(q.size):
        best, arg = -np.inf, -1
        for f in range(start[i], start[i] + count[i]):
            h = float(np.dot(faces.plane[:3, f], P[:, q[i]]) - faces.plane[3, f])
            if h > best:
                best, arg = h, f
        top.append(best)
        pick.append(arg)
    return np.array(top), np.array(pick)


@pytest.mark.parametrize("points", [5, 300, 1023, 1024, 3000])
@pytest.mark.parametrize("ties", [False, True])
def test_the_highest_fan_face_and_its_height(points, ties):
    P, faces, q, start, count = _setup(points, points, ties)
    top, pick = hull._highest_in_fans(P, faces, q, start, count)
    want_top, want_pick = _oracle(P, faces, q, start, count)
    np.testing.assert_array_equal(pick, want_pick)
    np.testing.assert_allclose(top, want_top, rtol=0, atol=1e-12)


@pytest.mark.parametrize("points", [40, 2000])
def test_both_ways_give_the_same_answer(points, monkeypatch):
    P, faces, q, start, count = _setup(100 + points, points, True)
    monkeypatch.setattr(hull, "_BY_FAN_SIZE_FROM", 1)
    by_size = hull._highest_in_fans(P, faces, q, start, count)
    monkeypatch.setattr(hull, "_BY_FAN_SIZE_FROM", 10 ** 9)
    flat = hull._highest_in_fans(P, faces, q, start, count)
    np.testing.assert_array_equal(by_size[1], flat[1])
    np.testing.assert_array_equal(by_size[0], flat[0])


@pytest.mark.parametrize("points", [50, 1500])
def test_points_below_every_face_get_negative_heights(points):
    P, faces, q, start, count = _setup(200 + points, points, False)
    faces.plane[3] = 100.0  # every plane far above every point
    top, _ = hull._highest_in_fans(P, faces, q, start, count)
    assert np.all(top < -90.0)
