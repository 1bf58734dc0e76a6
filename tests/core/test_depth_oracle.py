"""The depth interval's oracles (tests/core/depth_oracle.py) on a pair whose penetration depth is known by hand:
the unit cube A and a box B = [0.7, 1.7] x [0.1, 0.9] x [0.1, 0.9], which must move 0.3 along +x to come free
(along y or z it needs 0.9 or 1.0, and any tilted move more: PD = 0.3), turned and placed at random, near the
origin and 1e5 away.  The oracles are given a wrong answer (moves and normals chosen here), so what they find is
theirs."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tests.core.depth_corpus import DepthCase
from tests.core.depth_oracle import Judge, check_separation, lower_bound_ok, search_moves
from tests.core.mesh_corpus import MeshSpec, affine, box, random_rotation

PD = 0.3


def _pair(offset: float, seed: int):
    rng = np.random.default_rng(seed)
    turn = random_rotation(rng)
    place = affine(turn, rng.uniform(-1, 1, 3) + offset * np.array([0.6, 0.0, 0.8]))
    a = MeshSpec(*box((0, 0, 0), (1, 1, 1))).moved(place, bake=True)
    b = MeshSpec(*box((0.7, 0.1, 0.1), (1.7, 0.9, 0.9))).moved(place, bake=True)
    case = DepthCase("boxes", 0, a, b, a, b, overlap=0.3 * 0.8 * 0.8)
    return case, turn


def _answer(turn, separation, normal, depth=0.0):
    return SimpleNamespace(separation=np.asarray(separation, float), normal=np.asarray(normal, float), depth=depth,
                           touching_tolerance=1e-9 * 2.0)


PLACES = [pytest.param(0.0, 1, id="near the origin"), pytest.param(1e5, 2, id="1e5 away")]


@pytest.mark.parametrize(("offset", "seed"), PLACES)
def test_check_separation_accepts_the_touching_move_and_rejects_a_shorter_one(offset, seed):
    case, turn = _pair(offset, seed)
    judge = Judge(case)
    a, b = case.a.build(), case.b.build()
    x = turn @ [1.0, 0.0, 0.0]
    assert check_separation(judge, a, b, _answer(turn, PD * x, x)).ok
    assert check_separation(judge, a, b, _answer(turn, 0.95 * turn @ [0, 0, 1.0], x)).ok
    short = check_separation(judge, a, b, _answer(turn, 0.29 * x, x))
    assert not short.ok and short.volume > 1e3 * short.tolerance


@pytest.mark.parametrize(("offset", "seed"), PLACES)
def test_search_finds_the_known_depth_from_a_wrong_answer(offset, seed):
    case, turn = _pair(offset, seed)
    a, b = case.a.build(), case.b.build()
    up = turn @ [0.0, 0.0, 1.0]
    found = search_moves(Judge(case), a, b, _answer(turn, 1.0 * up, up))
    assert found.best is not None
    assert PD * (1 - 1e-9) <= found.best <= PD * 1.02, found.best
    assert abs(np.linalg.norm(found.move) - found.best) <= 1e-12 * found.best


def test_a_lower_bound_above_a_found_move_is_caught():
    case, turn = _pair(0.0, 3)
    a, b = case.a.build(), case.b.build()
    up = turn @ [0.0, 0.0, 1.0]
    found = search_moves(Judge(case), a, b, _answer(turn, 1.0 * up, up))
    assert lower_bound_ok(_answer(turn, up, up, depth=PD), found)
    assert not lower_bound_ok(_answer(turn, up, up, depth=found.best * (1 + 1e-6)), found)
