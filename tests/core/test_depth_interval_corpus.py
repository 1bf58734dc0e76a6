"""The depth interval of issue 19 on the seeded corpus of certainly overlapping mesh pairs (tests/core/depth_corpus.py),
judged by the independent oracles of tests/core/depth_oracle.py.

For every pair `core.collide(a, b)` must answer INTERSECTING with an interval [L, U] = [depth, depth + gap] and a
move `separation` of length U; then, one rule per test:
- (a) B moved by `separation` is free: manifold3d's overlap volume within `Judge.tolerance` and the exact mesh
  query TOUCHING or SEPARATED;
- (b) L is not above any separating move the brute-force directional search finds (confirmed by both judges);
- tightness: gap <= 1 % of U on at least 90 % of the pairs, <= 5 % on at least 98 %.
The per-family table (pairs, shares within 1 % and 5 %, median gap / U, median brute-force best / U, times) goes to
pytest's terminal summary.  `MESH_CORPUS_FRACTION` (default 1) scales every family, as for the mesh corpus.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import core
from tests.core.depth_corpus import cases
from tests.core.depth_oracle import ROUNDING, examine, lower_bound_ok, tightness_table

FRACTION = float(os.environ.get("MESH_CORPUS_FRACTION", "1"))


@pytest.fixture(scope="module")
def records(core_report):
    out = [examine(case) for case in cases(FRACTION)]
    core_report(f"depth interval corpus (issue 19), {len(out)} pairs, MESH_CORPUS_FRACTION={FRACTION:g}",
                tightness_table(out))
    return out


def test_every_pair_answers_intersecting(records):
    bad = [(r.case.name, r.error or r.contact.status.name) for r in records
           if r.error is not None or r.contact.status is not core.Status.INTERSECTING]
    assert not bad, bad


def _answered(records):
    return [r for r in records if r.error is None and r.contact.status is core.Status.INTERSECTING]


def test_separation_is_as_long_as_the_upper_end(records):
    bad = [(r.case.name, float(np.linalg.norm(r.contact.separation)), r.upper) for r in _answered(records)
           if not abs(float(np.linalg.norm(r.contact.separation)) - r.upper) <= 1e-12 * (r.upper + r.contact.scale)]
    assert not bad, bad


def test_separation_frees_the_pair(records):
    """(a): B moved by `separation`: no overlap volume beyond the tolerance, and the mesh query not INTERSECTING."""
    bad = [(r.case.name, r.case.note, r.separation) for r in _answered(records) if not r.separation.ok]
    assert not bad, bad


def test_lower_bound_is_below_every_separating_move_found(records):
    """(b): L <= the shortest move the directional search confirms (up to a relative ROUNDING)."""
    answered = _answered(records)
    unconfirmed = [r.case.name for r in answered if r.search.best is None]
    assert not unconfirmed, f"the search confirmed no separating move: {unconfirmed}"
    bad = [(r.case.name, r.case.note, r.contact.depth, r.search.best, r.search.move.tolist())
           for r in answered if not lower_bound_ok(r.contact, r.search)]
    assert not bad, f"L above a separating move (allowing {ROUNDING:g} of it and the touching band): {bad}"


def _share_within(records, width: float) -> float:
    answered = _answered(records)
    return sum(r.width <= width for r in answered) / max(1, len(answered))


def test_gap_is_within_1_percent_on_90_percent_of_the_pairs(records):
    assert _share_within(records, 0.01) >= 0.90


def test_gap_is_within_5_percent_on_98_percent_of_the_pairs(records):
    assert _share_within(records, 0.05) >= 0.98
