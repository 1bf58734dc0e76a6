"""core.motion.golden_section finds the minimum of a unimodal function to within its tolerance, with the number of
evaluations the golden ratio predicts, and stops when its budget says so."""
import math

import pytest

from core.motion import GOLDEN, golden_section

UNIMODAL = [  # (function, lo, hi, where its minimum is)
    (lambda t: (t - 0.3) ** 2, 0.0, 1.0, 0.3),
    (lambda t: abs(t - 2.7), 0.0, 10.0, 2.7),
    (lambda t: -math.sin(t), 0.0, math.pi, math.pi / 2),
    (lambda t: math.exp(t) + math.exp(-2.0 * t), -3.0, 3.0, math.log(2.0) / 3.0),
    (lambda t: t, 1.0, 4.0, 1.0),  # monotone: the minimum is an end
    (lambda t: -t, 1.0, 4.0, 4.0),
    (lambda t: (t - 0.11) if t > 0.11 else 3.0 * (0.11 - t), -1.0, 1.0, 0.11),  # a lopsided V
]


def _search(function, lo, hi, tolerance, proceed=lambda: True):
    calls = []

    def evaluate(t):
        calls.append(t)
        return t, function(t)

    best = golden_section(evaluate, lambda pair: pair[1], lo, hi, tolerance, proceed)
    return best, calls


def test_the_first_two_points_by_hand():
    _, calls = _search(lambda t: t, 0.0, 1.0, 0.5)
    assert calls[:2] == pytest.approx([1.0 - GOLDEN, GOLDEN])
    assert GOLDEN == pytest.approx(0.6180339887498949)


@pytest.mark.parametrize("case", range(len(UNIMODAL)))
@pytest.mark.parametrize("tolerance", [1e-2, 1e-3, 1e-6])
def test_finds_the_minimum(case, tolerance):
    function, lo, hi, where = UNIMODAL[case]
    (t, value), _ = _search(function, lo, hi, tolerance)
    assert abs(t - where) <= tolerance
    assert value == function(t)


@pytest.mark.parametrize("tolerance", [0.5, 1e-3, 1e-9])
def test_evaluations_follow_the_golden_ratio(tolerance):
    """The bracket shrinks by GOLDEN per evaluation: n more after the first two, n the least with
    GOLDEN^n (hi - lo) <= tolerance (computed by hand here for [0, 1])."""
    _, calls = _search(lambda t: (t - 0.4) ** 2, 0.0, 1.0, tolerance)
    width, steps = 1.0, 0
    while width > tolerance:
        width *= GOLDEN
        steps += 1
    assert len(calls) == 2 + steps


def test_the_budget_stops_it():
    budget = iter([True, True, True, False])
    (t, _), calls = _search(lambda t: (t - 0.3) ** 2, 0.0, 1.0, 1e-9, lambda: next(budget))
    assert len(calls) == 2 + 3
    assert abs(t - 0.3) < 0.3  # a rough answer, still inside the shrunken bracket
