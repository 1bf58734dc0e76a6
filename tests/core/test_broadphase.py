"""core.candidate_pairs equals an independent all-pairs reference on seeded scenes.

The reference below loops over every pair in plain Python (no numpy grid, no shared helper from core): a pair is a
candidate when, on every axis, lo_i - hi_j <= clearance and lo_j - hi_i <= clearance (float64).  A second reference
in exact rational arithmetic checks the promise behind it: every pair within the clearance exactly is reported.
Scenes: uniform, clustered, heavy-tailed sizes, zero-size boxes, duplicates, one box spanning everything, far from
the origin, groups A x B that overlap; hash collisions forced with a tiny key space never pair a box with itself.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import core


def reference(lo, hi, clearance, set_a=None, set_b=None):
    n = len(lo)
    a = set(range(n)) if set_a is None else set(int(x) for x in set_a)
    b = a if set_b is None else set(int(x) for x in set_b)
    lo = lo.tolist()
    hi = hi.tolist()
    out = []
    for i, j in itertools.combinations(range(n), 2):
        if not ((i in a and j in b) or (i in b and j in a)):
            continue
        if all(lo[i][k] - hi[j][k] <= clearance and lo[j][k] - hi[i][k] <= clearance for k in range(3)):
            out.append((i, j))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def scene(kind: str, n: int, seed: int):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(0.0, 10.0, (n, 3))
    half = rng.uniform(0.05, 0.8, (n, 3))
    if kind == "clustered":
        centre = rng.normal(0.0, 0.5, (5, 3))[rng.integers(0, 5, n)] + rng.normal(0.0, 0.3, (n, 3))
    elif kind == "heavy":
        half = np.exp(rng.normal(-2.0, 1.5, (n, 3)))
    elif kind == "points":
        half[:] = 0.0
        centre = np.round(centre)  # many duplicates
    elif kind == "flat":
        half[:, rng.integers(0, 3)] = 0.0
    elif kind == "duplicates":
        centre = centre[rng.integers(0, max(1, n // 10), n)]
        half = half[rng.integers(0, max(1, n // 10), n)]
    elif kind == "huge":
        half[0] = 1e3  # spans the whole scene
        half[1:4] = 40.0
    elif kind == "far":
        centre += 1e9
    elif kind == "spread":
        centre *= 1e8  # tiny boxes over a huge range: the cell coordinates are hashed, not packed
    return centre - half, centre + half


KINDS = ["uniform", "clustered", "heavy", "points", "flat", "duplicates", "huge", "far", "spread"]


def check_format(pairs, n):
    assert pairs.dtype == np.int64 and pairs.ndim == 2 and pairs.shape[1] == 2
    if len(pairs):
        assert np.all(pairs[:, 0] < pairs[:, 1]), "rows must be (i, j) with i < j (never an object with itself)"
        assert pairs.min() >= 0 and pairs.max() < n
        packed = pairs[:, 0] * n + pairs[:, 1]
        assert np.all(np.diff(packed) > 0), "rows must be sorted and unique"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("clearance", [0.0, 0.25])
def test_all_pairs_equal_reference(kind, clearance):
    for seed in range(3):
        lo, hi = scene(kind, 250, seed)
        got = core.candidate_pairs(lo, hi, clearance)
        check_format(got, len(lo))
        np.testing.assert_array_equal(got, reference(lo, hi, clearance), err_msg=f"{kind} seed {seed}")


@pytest.mark.parametrize("kind", ["uniform", "clustered", "huge", "points"])
def test_groups_equal_reference(kind):
    rng = np.random.default_rng(7)
    for seed in range(3):
        lo, hi = scene(kind, 240, seed)
        set_a = rng.choice(240, 90, replace=False)
        set_b = np.r_[set_a[:30], rng.choice(240, 80, replace=False)]  # overlapping sets, a repeated index
        for clearance in (0.0, 0.3):
            got = core.candidate_pairs(lo, hi, clearance, set_a, set_b)
            check_format(got, len(lo))
            np.testing.assert_array_equal(got, reference(lo, hi, clearance, set_a, set_b))
            within = core.candidate_pairs(lo, hi, clearance, set_a)
            np.testing.assert_array_equal(within, reference(lo, hi, clearance, set_a))
            mask = np.zeros(240, bool)
            mask[set_a] = True
            np.testing.assert_array_equal(core.candidate_pairs(lo, hi, clearance, mask, set_b), got)


def test_same_set_twice_is_all_pairs_within():
    lo, hi = scene("clustered", 200, 3)
    ids = np.arange(0, 200, 2)
    np.testing.assert_array_equal(core.candidate_pairs(lo, hi, 0.1, ids, ids), core.candidate_pairs(lo, hi, 0.1, ids))


@pytest.mark.parametrize("bits", [0, 1, 2, 5])
def test_hash_collisions_never_pair_an_object_with_itself(bits):
    # Every cell key squeezed into 2**bits values: boxes of different cells share groups, a box's own cells collide.
    for kind in ("uniform", "huge", "heavy"):
        lo, hi = scene(kind, 150, 11)
        got = core.candidate_pairs(lo, hi, 0.2, _key_bits=bits)
        check_format(got, len(lo))
        np.testing.assert_array_equal(got, reference(lo, hi, 0.2))


def test_boxes_exactly_at_the_clearance_are_candidates():
    # Dyadic coordinates: every difference is exact.
    lo = np.array([[0.0, 0.0, 0.0], [1.5, 0.0, 0.0], [0.0, 1.25, 0.0], [1.5, 1.25, 0.5]])
    hi = lo + 1.0
    assert core.candidate_pairs(lo, hi, 0.5).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert core.candidate_pairs(lo, hi, 0.25).tolist() == [[0, 2], [1, 3]]
    assert core.candidate_pairs(lo, hi, np.nextafter(0.25, 0.0)).tolist() == []
    # Touching faces with no clearance, and a zero-size box on another's face.
    lo = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.5, 0.5]])
    hi = np.array([[1.0, 1.0, 1.0], [2.0, 1.0, 1.0], [2.0, 0.5, 0.5]])
    assert core.candidate_pairs(lo, hi, 0.0).tolist() == [[0, 1], [1, 2]]


def test_every_pair_within_the_clearance_in_exact_arithmetic_is_reported():
    rng = np.random.default_rng(5)
    for seed in range(4):
        centre = rng.uniform(-1.0, 1.0, (60, 3)) * 10.0 ** rng.integers(-3, 7)
        half = rng.uniform(0.0, 0.3, (60, 3)) * np.abs(centre).max() * 0.1
        lo, hi = centre - half, centre + half
        clearance = float(rng.uniform(0.0, 0.2)) * float(np.abs(centre).max())
        got = set(map(tuple, core.candidate_pairs(lo, hi, clearance).tolist()))
        c = Fraction(clearance)
        flo = [[Fraction(x) for x in row] for row in lo.tolist()]
        fhi = [[Fraction(x) for x in row] for row in hi.tolist()]
        for i, j in itertools.combinations(range(60), 2):
            if all(flo[i][k] - fhi[j][k] <= c and flo[j][k] - fhi[i][k] <= c for k in range(3)):
                assert (i, j) in got, (seed, i, j)


def test_one_box_spanning_everything_pairs_with_all():
    lo, hi = scene("uniform", 3000, 2)
    lo[17] = -1e6
    hi[17] = 1e6
    got = core.candidate_pairs(lo, hi, 0.0)
    with_big = got[(got[:, 0] == 17) | (got[:, 1] == 17)]
    assert len(with_big) == 2999
    # The rest is unchanged by the big box.
    rest = got[(got[:, 0] != 17) & (got[:, 1] != 17)]
    lo2, hi2 = np.delete(lo, 17, 0), np.delete(hi, 17, 0)
    ref = core.candidate_pairs(lo2, hi2, 0.0)
    ref = ref + (ref >= 17)
    np.testing.assert_array_equal(rest, ref)


def test_small_and_empty_inputs():
    assert core.candidate_pairs(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 2)
    assert core.candidate_pairs(np.zeros((1, 3)), np.ones((1, 3))).shape == (0, 2)
    same = core.candidate_pairs(np.zeros((5, 3)), np.zeros((5, 3)))
    assert same.tolist() == [list(p) for p in itertools.combinations(range(5), 2)]
    assert core.candidate_pairs(np.zeros((5, 3)), np.ones((5, 3)), 0.0, [0, 1], []).shape == (0, 2)
    assert core.candidate_pairs(np.zeros((5, 3)), np.ones((5, 3)), 0.0, [3], [3]).shape == (0, 2)


@pytest.mark.parametrize("lo, hi, clearance, words", [
    (np.zeros((3, 2)), np.zeros((3, 2)), 0.0, "shape"),
    (np.zeros((3, 3)), np.zeros((2, 3)), 0.0, "shape"),
    ([[0, 0, np.nan]], [[1, 1, 1]], 0.0, "finite"),
    ([[0, 0, 0]], [[1, 1, np.inf]], 0.0, "finite"),
    ([[0, 0, 2]], [[1, 1, 1]], 0.0, "lo <= hi"),
    ([[-1e308, 0, 0]], [[1e308, 1, 1]], 0.0, "overflow"),
    ([["a", 0, 0]], [[1, 1, 1]], 0.0, "number"),
    (np.zeros((2, 3)), np.ones((2, 3)), -1.0, ">= 0"),
    (np.zeros((2, 3)), np.ones((2, 3)), np.nan, "finite"),
    (np.zeros((2, 3)), np.ones((2, 3)), "x", "number"),
])
def test_bad_input(lo, hi, clearance, words):
    with pytest.raises(ValueError) as info:
        core.candidate_pairs(lo, hi, clearance)
    assert words in str(info.value), str(info.value)


@pytest.mark.parametrize("set_a, set_b, words", [
    ([0, 5], None, "outside"),
    ([-1], None, "outside"),
    ([0.5], None, "integer"),
    (np.ones(3, bool), None, "shape"),
    (None, [0], "set_b needs set_a"),
])
def test_bad_sets(set_a, set_b, words):
    with pytest.raises(ValueError) as info:
        core.candidate_pairs(np.zeros((4, 3)), np.ones((4, 3)), 0.0, set_a, set_b)
    assert words in str(info.value), str(info.value)
