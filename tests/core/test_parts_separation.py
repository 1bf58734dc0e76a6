"""Loose Parts (`core.collide_worst`): the worst pair's depth is the objects' depth, and `separation` moves B clear of
every piece of A, not only of the worst pair's (a bar pinched between two boxes from below and above)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import Status

from .support import CUBE


def _box(lo, hi):
    return np.asarray(lo, float) + CUBE * (np.asarray(hi, float) - np.asarray(lo, float))


BAR = _box((0.0, 0.0, 0.0), (4.0, 1.0, 1.0))
BELOW = _box((0.5, 0.2, -1.0), (1.5, 0.8, 0.2))  # 0.2 into the bar from below
ABOVE = _box((2.5, 0.2, 0.9), (3.5, 0.8, 2.0))  # 0.1 into the bar from above


def _pieces_meet(parts_a, parts_b, move):
    return any(core.collide(a, b + move).status is Status.INTERSECTING for a in parts_a for b in parts_b)


@pytest.mark.parametrize("parts_a, parts_b", [([BELOW, ABOVE], [BAR]), ([BAR], [BELOW, ABOVE])],
                         ids=["boxes-vs-bar", "bar-vs-boxes"])
def test_separation_clears_every_piece(parts_a, parts_b):
    answer, _, _ = core.collide_worst(parts_a, parts_b)
    assert answer.status is Status.INTERSECTING
    assert answer.depth == pytest.approx(0.2, abs=1e-12)
    move = np.asarray(answer.separation)
    assert np.linalg.norm(move) == pytest.approx(answer.depth + answer.gap, rel=1e-12)
    assert not _pieces_meet(parts_a, parts_b, move)
    # the worst pair's own move (0.2 along z) would push the bar into the other box; sliding 0.8 along y clears both
    assert answer.depth + answer.gap == pytest.approx(0.8, abs=1e-12)


def test_one_pair_keeps_its_own_move():
    answer, _, _ = core.collide_worst([BAR], [BELOW])
    direct = core.collide(BAR, BELOW)
    assert np.array_equal(answer.separation, direct.separation) and answer.gap == direct.gap
