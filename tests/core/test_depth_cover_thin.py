"""Pieces aimed at where the covering is thinnest (core/mesh/depth_cover.py `_thin_pieces`, `cells_held`), on a
case worked out by hand and on the corpus pair that needed them.

- The cells redone from an earlier answer: slabs A1 = [-4, 4] x [-.5, .5] x [-4, 4], B1 = [-1, 1] x [-.5, .5] x
  [-1, 1] give M1 = [-5, 5] x [-1, 1] x [-5, 5], which alone holds radius 1 (its faces y = +-1); M2, the same
  turned a quarter about z, = [-1, 1] x [-5, 5] x [-5, 5].  Together they hold sqrt 2 (least along
  (+-1, +-1, 0) / sqrt 2, where both reach sqrt 2).  Starting from M1's cells and redoing only those held below
  U = 3 with M2 added must reach sqrt 2 as a fresh covering does (cells held by M1 alone at 3 or more keep their
  values, still held); redoing none (limit 0) keeps M1's radius 1.
- rod_torus/5 of tests/core/depth_corpus.py: a 6-sided rod of radius
  0.10 through a torus's tube (tube 0.30): the pieces grown around the medial centres leave the covering at 0.90
  of U (the rod leaves the torus slabs built while it still overlaps their neighbours); the aimed pieces find a
  point inside both past where the chain stops and grow the neighbouring slab there, lifting L to within 1 % of
  U.  Without them (THIN_ROUNDS = 0) the covering leaves L more than 3 % below U.  (The Lipschitz covering that
  runs after a wide covering also closes this pair; it is switched off to see the covering alone.)
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import depth_cover, depth_interval
from core.mesh.depth_cover import cells_held, covered_radius, held_radius

from .depth_corpus import make_case
from .test_depth_cover import _slabs  # the crossed slabs M1, M2 worked there


def test_cells_redone_below_the_limit_reach_the_fresh_covering():
    m1, m2 = _slabs()
    first = cells_held([m1])
    assert held_radius(first)[0] == pytest.approx(1.0, rel=2e-3)
    redone = held_radius(cells_held([m1, m2], start=first, limit=3.0))
    fresh = covered_radius([m1, m2])
    assert np.sqrt(2) * (1 - 3e-3) <= redone[0] <= np.sqrt(2)
    assert redone[0] == pytest.approx(fresh[0], rel=3e-3)
    kept = held_radius(cells_held([m1, m2], start=first, limit=0.0))
    assert kept[0] == pytest.approx(1.0, rel=2e-3) and kept[0] <= 1.0


def _interval(case):
    contact = core.collide(case.a.build(), case.b.build())
    assert contact.status is core.Status.INTERSECTING
    return contact.depth, contact.depth + contact.gap


def test_six_sided_rod_through_torus(monkeypatch):
    case = make_case("rod_torus", 5)
    assert "6 sides" in case.note
    lower, upper = _interval(case)
    assert upper * 0.99 <= lower <= upper
    monkeypatch.setattr(depth_interval, "LIPSCHITZ_WIDER", 2.0)  # never wider than twice U: the covering alone
    alone, _ = _interval(case)
    assert upper * 0.99 <= alone <= lower
    monkeypatch.setattr(depth_cover, "THIN_ROUNDS", 0)
    without, upper0 = _interval(case)
    assert upper0 == pytest.approx(upper, rel=1e-9)
    assert without < 0.97 * upper
