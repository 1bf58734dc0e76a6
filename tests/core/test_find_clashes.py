"""core.find_clashes (broad + narrow phase over a scene) equals a pairwise reference, worst first.

The reference runs `core.collide` on every pair of the scene (no broad phase, no prefilter) and lists a pair when
it is INTERSECTING, TOUCHING or SEPARATED with distance - gap <= clearance; pairs within GJK's gap tolerance of the
clearance may fall either way.  Checked: the same pairs, A x B orientation (i in A, j in B), the order (signed
distance ascending: deepest first, then touching, then the nearest), groups that overlap, 0 and 1 object.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.support import CUBE


def scene(seed, n=24):
    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(n):
        m = np.eye(4)
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        m[:3, :3] = q
        m[:3, 3] = rng.uniform(0.0, 4.0, 3)
        shapes.append(core.PointCloud(rng.normal(size=(int(rng.integers(4, 60)), 3)) * 0.5, m))
    shapes.append(core.PointCloud(CUBE, None))  # exact touching / clearance partners below
    shapes.append(core.PointCloud(CUBE + [1.0, 0.0, 0.0]))
    shapes.append(core.PointCloud(CUBE + [0.0, 1.25, 0.0]))
    return shapes


def reference(shapes, clearance, set_a=None, set_b=None):
    n = len(shapes)
    a = set(range(n)) if set_a is None else set(set_a)
    b = a if set_b is None else set(set_b)
    listed, near = {}, set()
    for i in range(n):
        for j in range(i + 1, n):
            if (i in a and j in b) or (i in b and j in a):
                key = (i, j) if (set_b is None or (i in a and j in b)) else (j, i)
                c = core.collide(shapes[key[0]], shapes[key[1]])
                if c.status is not core.Status.SEPARATED or c.distance - c.gap <= clearance:
                    listed[key] = c
                if abs(c.distance - clearance) <= 4e-12 * c.scale:
                    near.add(key)
    return listed, near


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("clearance", [0.0, 0.25])
@pytest.mark.parametrize("groups", ["all", "within", "a_x_b"])
def test_equals_pairwise_reference(seed, clearance, groups):
    shapes = scene(seed)
    n = len(shapes)
    rng = np.random.default_rng(100 + seed)
    set_a = set_b = None
    if groups != "all":
        set_a = sorted(rng.choice(n, 15, replace=False).tolist() + [n - 3, n - 2])
    if groups == "a_x_b":
        set_b = sorted(set(rng.choice(n, 12, replace=False).tolist() + set_a[:4] + [n - 1]))
    got = core.find_clashes(shapes, clearance, set_a, set_b)
    want, near = reference(shapes, clearance, set_a, set_b)
    keys = [(i, j) for i, j, _ in got]
    assert len(keys) == len(set(keys))
    assert set(keys) - near == set(want) - near
    for i, j, c in got:
        if set_b is not None and not (i in set_a and j in set_b):
            # Only a pair of two objects in both sets may keep another orientation, and then i < j.
            assert i in set_b and j in set_a and i in set_a and j in set_b
        ref = want.get((i, j))
        if ref is not None:
            assert c.status is ref.status and abs(c.distance - ref.distance) <= max(c.gap, ref.gap) + 1e-12
    distances = [c.distance for _, _, c in got]
    assert distances == sorted(distances)
    rank = {core.Status.INTERSECTING: 0, core.Status.TOUCHING: 1, core.Status.SEPARATED: 2}
    assert [rank[c.status] for _, _, c in got] == sorted(rank[c.status] for _, _, c in got)


def test_touching_and_clearance_partners():
    shapes = scene(5)
    n = len(shapes)
    got = {(i, j): c for i, j, c in core.find_clashes(shapes, 0.25, [n - 3], [n - 2, n - 1])}
    assert got[(n - 3, n - 2)].status is core.Status.TOUCHING
    assert got[(n - 3, n - 1)].status is core.Status.SEPARATED and got[(n - 3, n - 1)].distance == 0.25
    # A x B orientation: the B object listed second even though its index is smaller.
    got = core.find_clashes(shapes, 0.0, [n - 2], [n - 3])
    assert [(i, j) for i, j, _ in got] == [(n - 2, n - 3)]
    assert np.allclose(got[0][2].normal, [-1.0, 0.0, 0.0])  # A towards B


def test_no_or_one_object():
    assert core.find_clashes([]) == []
    assert core.find_clashes([CUBE]) == []
    assert core.find_clashes([CUBE, CUBE + 0.5], 0.0, [0], [0]) == []


def test_touching_boxes_a_hair_apart_are_found():
    """Regression (found by the scene check): two unit cubes 5e-10 apart touch (the band is 1e-9 x scale), so the
    broad phase must widen the clearance by the band or it drops the pair before the exact check."""
    found = core.find_clashes([CUBE, CUBE + [1.0 + 5e-10, 0.0, 0.0]])
    assert [(i, j, c.status) for i, j, c in found] == [(0, 1, core.Status.TOUCHING)]
    assert core.collide(CUBE, CUBE + [1.0 + 5e-10, 0.0, 0.0]).status is core.Status.TOUCHING
