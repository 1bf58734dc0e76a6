"""The depth interval's checks (tests/core/test_depth_interval_corpus.py) on a handful of the corpus's pairs, for the
edit loop: a box through a crate's inner wall, two hooked L prisms far from the origin, a huge box inside a ball
(B in A), and a dirty sphere inside a box (duplicate vertices, zero-area triangles)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.depth_oracle import ROUNDING, examine_named, lower_bound_ok

PAIRS = ("crate/0", "lshape/1", "contain/3", "degenerate/4")


@pytest.mark.parametrize("name", PAIRS)
def test_the_answer_is_an_interval_with_its_move(name):
    r = examine_named(name)
    assert r.error is None, r.error
    assert r.contact.status is core.Status.INTERSECTING
    assert 0.0 < r.contact.depth <= r.upper
    length = float(np.linalg.norm(r.contact.separation))
    assert abs(length - r.upper) <= 1e-12 * (r.upper + r.contact.scale)


@pytest.mark.parametrize("name", PAIRS)
def test_separation_frees_the_pair(name):
    r = examine_named(name)
    assert r.separation.ok, r.separation


@pytest.mark.parametrize("name", PAIRS)
def test_lower_bound_is_below_every_separating_move_found(name):
    r = examine_named(name)
    assert r.search.best is not None
    assert lower_bound_ok(r.contact, r.search), (r.contact.depth, r.search.best, ROUNDING, r.contact.touching_tolerance)


@pytest.mark.parametrize("name", PAIRS)
def test_gap_is_within_1_percent(name):
    r = examine_named(name)
    assert r.width <= 0.01, (r.contact.depth, r.upper)
