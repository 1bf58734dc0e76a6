"""Issue 7, raw arrays: B's copy of A's hull triangulation is shared with A only when it is A's input bit for bit.

`core.hull_views.with_hulls` gives B first A's triangulation on B's own vertices of the same indices (`_copied_maker`).
When B is an exact copy of A that input is A's input bit for bit, so every check of it would repeat A's
(`Triangulation(..., like=...)` shares A's answer instead).  Any other copy (one coordinate one ulp off, shifted,
turned) must get its own triangulation, checked on its own points; only its topology (the same triangles, see
tests/core/test_polytope_copy_topology.py) is A's.  Either way the depth is judged against the
independent oracle of tests/core/duplicates.py (`exact_depth`: every facet normal of A - B from two qhull hulls,
evaluated over every vertex; no engine code).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import core
import core.large_pairs
from core.hull_views import with_hulls
from core.large_pairs import LARGE_PAIRS
from core.triangulation import Triangulation
from tests.core.duplicates import exact_depth, icosphere, near_copy, point_offset
from tests.core.reporting import TOUCHING


def _one_ulp_off(a: np.ndarray) -> np.ndarray:
    b = a.copy()
    b[7, 1] = np.nextafter(b[7, 1], np.inf)
    return b


COPIES = {
    "exact copy": (lambda a: a.copy(), True),
    "one coordinate one ulp off": (_one_ulp_off, False),
    "shifted 1e-9": (lambda a: near_copy(a, np.random.default_rng(4101), shift=1e-9), False),
    "turned 1e-6": (lambda a: near_copy(a, np.random.default_rng(4102), angle=1e-6), False),
}


@pytest.mark.parametrize("name", list(COPIES))
def test_a_copied_triangulation_is_shared_only_when_bit_for_bit_equal(name):
    make, shared = COPIES[name]
    a = icosphere(3)
    b = make(a)
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    hull_a, hull_b = (v._triangulation() for v in views)
    assert hull_a is not None and hull_b is not None
    assert (hull_b.points is hull_a.points) is shared
    # the topology (a function of the triangles alone) is A's either way: the copies keep A's triangles
    assert hull_b.graph is hull_a.graph
    # B's triangulation holds B's own points, whichever way it was made
    assert np.array_equal(np.unique(hull_b.points, axis=0), np.unique(b, axis=0))


@pytest.mark.parametrize("name", list(COPIES))
def test_copies_answer_exactly_with_or_without_sharing(name, monkeypatch):
    # the hull path after 256 expansions
    monkeypatch.setattr(core.large_pairs, "LARGE_PAIRS", replace(LARGE_PAIRS, raw_hull_per_vertex=0.0))
    a = icosphere(3)
    b = COPIES[name][0](a)
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    limit = TOUCHING * contact.scale
    assert contact.status is core.Status.INTERSECTING and contact.converged
    assert abs(-contact.distance - exact) <= limit, (contact.distance, exact)
    assert max(point_offset(contact.point_a, a), point_offset(contact.point_b, b)) <= limit
    assert contact.epa_iterations < 400  # the facet path answered (plain EPA needs ~1 expansion per vertex)


def test_a_less_strictly_checked_triangulation_is_not_shared():
    """A triangulation taken without the convexity test (`checked=True`) is never handed on to one that needs
    it: the second is checked in full, and a non-convex one is refused."""
    a = icosphere(2)
    from scipy.spatial import ConvexHull
    triangles = ConvexHull(a).simplices
    dented = a.copy()
    dented[0] *= 0.9  # pushed in: the surface is no longer convex (qhull would leave that vertex out)
    assert 0 not in ConvexHull(dented).vertices
    unchecked = Triangulation(dented, triangles, checked=True)
    unchecked.source = (dented, triangles, True)
    with pytest.raises(ValueError, match="convex"):
        Triangulation(dented, triangles, checked=False, like=unchecked)
    fine = Triangulation(a, triangles, checked=False)
    fine.source = (a, triangles, False)
    assert Triangulation(a.copy(), triangles.copy(), checked=False, like=fine).graph is fine.graph
    with pytest.raises(ValueError, match="convex"):  # other points than the checked ones: checked in full
        Triangulation(dented, triangles, checked=False, like=fine)
