"""Conservative advancement never skips a contact: when core.motion.may_meet says two separated samples cannot
meet in between, they do not (two spheres moving linearly, their distance known in closed form); its lower bound
is never above the true smallest distance; and the whole search (MotionSearch) finds the analytic first contact
to within its tolerance, including a contact that no sample sees."""
import math

import numpy as np
import pytest

from core import Status
from core.motion import TIME_TOLERANCE, MotionSearch, distance_lower_bound, may_meet, path_bound
from tests.core.motion_cases import TwoSpheres


def test_lower_bound_by_hand():
    """d0 = 3, d1 = 1, each object travels at most 1: from the ends, the distance can fall to (3 + 1 - 2) / 2."""
    assert distance_lower_bound(3.0, 1.0, 1.0, 1.0) == 1.0
    assert distance_lower_bound(1.0, 1.0, 3.0, 0.0) == -0.5


def test_still_pair_never_meets_in_between():
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 1.0, (3, 0, 0), (0, 0, 0), 1.0)
    assert not may_meet(pair.sample(0.0), pair.sample(1.0))


def test_far_swept_boxes_never_meet():
    """B slides along y, 5 away along x: its swept box (padded by half its travel) stays clear of A's."""
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 1.0, (5, 0, 0), (0, 1, 0), 1.0)
    s0, s1 = pair.sample(0.0), pair.sample(1.0)
    assert path_bound(s0.pose_b, s1.pose_b) == pytest.approx(math.pi / 2)
    assert not may_meet(s0, s1)


def test_a_pass_through_may_meet():
    """B crosses A between the two samples (separated at both): it must be examined."""
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 1.0, (-5, 0, 0), (10, 0, 0), 1.0)
    s0, s1 = pair.sample(0.0), pair.sample(1.0)
    assert s0.status is Status.SEPARATED and s1.status is Status.SEPARATED
    assert may_meet(s0, s1)


def _random_interval(rng) -> tuple[TwoSpheres, float, float]:
    """A pair and an interval: random linear motions, or (one case in three) B passing A between the two ends at
    an offset of up to twice the sum of the radii (often a contact no end sees)."""
    ra, rb = rng.uniform(0.2, 2.0, size=2)
    spin = rng.choice([0.0, 1.0, math.pi])
    if rng.uniform() < 1.0 / 3.0:
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        side = np.cross(direction, rng.normal(size=3))
        side *= rng.uniform(0.0, 2.0 * (ra + rb)) / np.linalg.norm(side)
        ca0 = rng.normal(size=3) * 4.0
        length = rng.uniform(2.0, 4.0) * (ra + rb)
        pair = TwoSpheres(ca0, (0, 0, 0), ra, ca0 + side - length * direction, 2.0 * length * direction, rb, spin)
        return pair, 0.0, 1.0
    pair = TwoSpheres(rng.normal(size=3) * 4.0, rng.normal(size=3) * rng.choice([0.0, 1.0, 5.0]), ra,
                      rng.normal(size=3) * 4.0, rng.normal(size=3) * rng.choice([0.0, 1.0, 5.0]), rb, spin)
    t0 = float(rng.uniform(0.0, 1.0))
    return pair, t0, t0 + float(rng.choice([0.01, 0.3, 1.0]))


@pytest.mark.parametrize("seed", range(300))
def test_ruled_out_means_apart(seed):
    """may_meet False on an interval of two separated samples -> the analytic distance stays > 0 on it, and the
    lower bound is never above the true smallest distance."""
    pair, t0, t1 = _random_interval(np.random.default_rng(seed))
    s0, s1 = pair.sample(t0), pair.sample(t1)
    if s0.in_contact or s1.in_contact:
        return  # the search bisects such intervals; advancement only judges separated ones
    _, smallest = pair.closest_approach(t0, t1)
    bound = distance_lower_bound(s0.distance, s1.distance, path_bound(s0.pose_a, s1.pose_a),
                                 path_bound(s0.pose_b, s1.pose_b))
    assert bound <= smallest + 1e-9
    if not may_meet(s0, s1):
        assert smallest > 0.0


def test_the_corpus_has_both_answers():
    """The random intervals above include both verdicts, and contacts hidden between separated samples."""
    ruled_out = examined = hidden = 0
    for seed in range(300):
        pair, t0, t1 = _random_interval(np.random.default_rng(seed))
        s0, s1 = pair.sample(t0), pair.sample(t1)
        if s0.in_contact or s1.in_contact:
            continue
        if may_meet(s0, s1):
            examined += 1
            hidden += pair.closest_approach(t0, t1)[1] <= 0.0
        else:
            ruled_out += 1
    assert ruled_out >= 30 and examined >= 30 and hidden >= 20, (ruled_out, examined, hidden)


def test_thin_wall_crossed_between_two_samples():
    """A sphere (radius 0.1) jumps from x = -5 to x = +5 between times 5 and 6 past a sphere of radius 0.01 at the
    origin: no sample at a whole time sees the contact; the search finds it at x = -0.11, time 5 + 4.89 / 10, and
    the deepest time (the centres together, depth 0.11) at 5.5."""
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 0.01, (-55.0, 0, 0), (10.0, 0, 0), 0.1)
    search = MotionSearch(pair.sample, range(1, 11))
    summary = search.run()
    assert all(not s.in_contact for s in search.sampled)
    assert summary.first_contact == pytest.approx(5 + 4.89 / 10, abs=TIME_TOLERANCE)
    assert summary.deepest_time == pytest.approx(5.5, abs=TIME_TOLERANCE)
    assert summary.deepest_depth == pytest.approx(0.11, abs=10.0 * TIME_TOLERANCE)
    assert summary.closest_time == summary.first_contact and summary.closest_distance == 0.0
    assert not search.capped


def _search_pair(rng) -> TwoSpheres:
    """B aimed past A (at an offset of up to 1.5 x the sum of the radii) over times 0..10, speeds up to several
    radii per time; kept when it misses by > 0.05 or overlaps by > 0.1 at its closest (a contact lasting longer
    than the search's tolerance)."""
    while True:
        ra, rb = rng.uniform(0.3, 1.5, size=2)
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        side = np.cross(direction, rng.normal(size=3))
        side *= rng.uniform(0.0, 1.5 * (ra + rb)) / np.linalg.norm(side)
        length = rng.uniform(3.0, 30.0)
        ca0 = rng.normal(size=3) * 2.0
        pair = TwoSpheres(ca0, rng.normal(size=3) * 0.1, ra, ca0 + side - length * direction,
                          (2.0 * length / 10.0) * direction, rb, spin=rng.choice([0.0, 0.5]))
        _, smallest = pair.closest_approach(0.0, 10.0)
        if smallest > 0.05 or smallest < -0.1:
            return pair


def test_the_search_corpus_is_balanced():
    meets = sum(_search_pair(np.random.default_rng(1000 + seed)).first_contact(0.0, 10.0) is not None
                for seed in range(60))
    assert 15 <= meets <= 45, meets


@pytest.mark.parametrize("seed", range(60))
def test_the_search_finds_the_analytic_first_contact(seed):
    pair = _search_pair(np.random.default_rng(1000 + seed))
    summary = MotionSearch(pair.sample, range(0, 11)).run()
    expected = pair.first_contact(0.0, 10.0)
    if expected is None:
        assert summary.first_contact is None
        closest_time, closest = pair.closest_approach(0.0, 10.0)
        assert summary.closest_distance == pytest.approx(closest, abs=1e-6)
    else:
        assert summary.first_contact is not None
        assert abs(summary.first_contact - expected) <= TIME_TOLERANCE


def test_the_budget_caps_refinement():
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 0.01, (-55.0, 0, 0), (10.0, 0, 0), 0.1)
    search = MotionSearch(pair.sample, range(1, 11), max_refinements=3)
    search.run()
    assert search.capped and search.refinements == 3
    assert pair.calls == 10 + 3  # the samples and the budget (the deepest and closest are no sampled times here)


def test_each_time_is_evaluated_once():
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 1.0, (-5, 0, 0), (1, 0, 0), 1.0)
    search = MotionSearch(pair.sample, [0, 1, 2, 2, 3])
    search.run()
    assert pair.calls == len(search.evaluated)
    assert [s.time for s in search.samples()] == sorted(search.evaluated)


def test_turning_boxes_are_still_sound():
    """Spheres spinning on the spot (their boxes turn, their distance does not): the boxes' corners move, so each
    interval is examined, and a pair 1 apart is never refined into a contact."""
    pair = TwoSpheres((0, 0, 0), (0, 0, 0), 1.0, (3, 0, 0), (0, 0, 0), 1.0, spin=1.0)
    s0, s1 = pair.sample(0.0), pair.sample(1.0)
    assert path_bound(s0.pose_a, s1.pose_a) > 0.0
    summary = MotionSearch(pair.sample, range(0, 4)).run()
    assert summary.first_contact is None and summary.closest_distance == pytest.approx(1.0)
