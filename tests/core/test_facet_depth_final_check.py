"""The facet path's final check (core/facet_depth.py): it verifies the candidate directions against every vertex in
the order of a full stable sort of their climbed values, and reuses the values of h_M that `_upper_bound` computed
when its first block is the same rows in the same order, and only then.  Neither shortcut may change the answer.

- the candidate order (`_smallest_first`, which avoids sorting all candidates) is a prefix of numpy's stable
  argsort, the oracle, on seeded values with many ties, negative zeros and huge ranges;
- the answer (depth, normal, candidates checked) is the one computed with a full sort and without the reused
  values, bit for bit, and exact against the independent oracle of tests/core/duplicates.py (`exact_depth`:
  qhull's facet normals of A - B, each over every vertex); the pairs are chosen so that the reuse happens on some
  and not on others (a turned copy has crossing candidates among its smallest).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import core.facet_depth as facet_depth_mod
from core.facet_depth import facet_depth
from core.polytope import ConvexPolytope
from tests.core.duplicates import exact_depth, icosphere, near_copy, uv_sphere
from tests.core.reporting import TOUCHING


def _hull(points: np.ndarray) -> ConvexPolytope:
    hull = ConvexHull(points)
    return ConvexPolytope(points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices))


PAIRS = {
    "ico sphere s4 identical": lambda: (icosphere(4), icosphere(4)),
    "ico sphere s4 shifted 1e-6": lambda: (icosphere(4), near_copy(icosphere(4), np.random.default_rng(7311), shift=1e-6)),
    "ico sphere s4 turned 1e-4": lambda: (icosphere(4), near_copy(icosphere(4), np.random.default_rng(7312), angle=1e-4)),
    "uv sphere 64x32 inside 1.001": lambda: (uv_sphere(64, 32), uv_sphere(64, 32) * 1.001),
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_the_final_check_reuses_the_bounds_values_only_for_the_same_rows(name, monkeypatch):
    a, b = PAIRS[name]()
    kept_lists = []
    real = facet_depth_mod._upper_bound

    def spy(*args, kept=None, **kw):
        kept_lists.append(kept)
        return real(*args, kept=kept, **kw)
    monkeypatch.setattr(facet_depth_mod, "_upper_bound", spy)
    found = facet_depth(_hull(a), _hull(b))
    assert found is not None and len(kept_lists) == 1 and len(kept_lists[0]) == 1

    monkeypatch.setattr(facet_depth_mod, "_upper_bound", lambda *args, kept=None, **kw: real(*args, **kw))
    plain = facet_depth(_hull(a), _hull(b))
    assert found == plain  # depth, normal and count bit for bit
    # and with every candidate sorted in full (the order `_smallest_first` stands for)
    monkeypatch.setattr(facet_depth_mod, "_smallest_first", lambda values, count: np.argsort(values, kind="stable"))
    assert facet_depth(_hull(a), _hull(b)) == plain

    exact, _, _ = exact_depth(a, b)
    size = max(float(np.linalg.norm(p.max(axis=0) - p.min(axis=0))) for p in (a, b))
    assert abs(found[0] - exact) <= TOUCHING * size, (found[0], exact)


def test_the_reuse_happens_and_is_skipped(monkeypatch):
    """Both branches are taken on the pairs above (else the test above proves little): the identical pair's
    smallest candidates are all facets, the turned pair has crossings among them."""
    outcomes = {}
    real = facet_depth_mod._kept_values
    for name, make in PAIRS.items():
        a, b = make()
        seen = []
        monkeypatch.setattr(facet_depth_mod, "_kept_values",
                            lambda kept, rows: seen.append(real(kept, rows)) or seen[-1])
        assert facet_depth(_hull(a), _hull(b)) is not None
        assert len(seen) == 1
        outcomes[name] = seen[0] is not None
    assert outcomes["ico sphere s4 identical"] and not outcomes["ico sphere s4 turned 1e-4"], outcomes


@pytest.mark.parametrize("seed", range(6))
def test_the_candidate_order_is_a_prefix_of_the_stable_sort(seed):
    rng = np.random.default_rng([4501, seed])
    for _ in range(300):
        n = int(rng.integers(1, 500))
        kind = seed % 3
        if kind == 0:  # few distinct values: ties everywhere, also across the count-th one
            values = rng.integers(0, int(rng.integers(1, 20)), n).astype(float)
        elif kind == 1:
            values = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300)
        else:
            values = np.where(rng.random(n) < 0.5, -0.0, 0.0) + rng.integers(0, 3, n)
        count = int(rng.integers(1, 600))
        full = np.argsort(values, kind="stable")
        part = facet_depth_mod._smallest_first(values, count)
        assert part.size >= min(count, n)
        assert np.array_equal(part, full[:part.size])
