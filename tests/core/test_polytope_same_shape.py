"""Issue 7, raw arrays: an exact copy at the same pose climbs its facets once (core/facet_depth.py `_same_shape`).

When B's triangulation is A's (shared, tests/core/test_polytope_shared.py) and B's world points are A's bit for
bit, the facets of -B are those of A turned round, so `_facet_depth` reuses A's two facet climbs for them.  The
answer must be the one the four climbs give, bit for bit (the shortcut switched off), and the exact depth of the
independent oracle of tests/core/duplicates.py (`exact_depth`: qhull's facet normals of A - B over every vertex).
A copy one ulp off, or the same vertices under another transform, must not take it.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import core
import core.facet_depth
import core.large_pairs
from core.large_pairs import LARGE_PAIRS
from tests.core.duplicates import cone, cylinder, exact_depth, icosphere, point_offset, uv_sphere
from tests.core.reporting import TOUCHING

SHAPES = {
    "ico sphere s3": lambda: icosphere(3),
    "uv sphere 32x16 float32": lambda: uv_sphere(32, 16).astype(np.float32).astype(np.float64),
    "cylinder 256": lambda: cylinder(256),
    "cone 512": lambda: cone(512),
}


@pytest.fixture
def hull_path(monkeypatch):
    # the hull path after 256 expansions
    monkeypatch.setattr(core.large_pairs, "LARGE_PAIRS", replace(LARGE_PAIRS, raw_hull_per_vertex=0.0))
    taken = []
    real = core.facet_depth._same_shape

    def spy(sup_a, sup_b):
        answer = real(sup_a, sup_b)
        taken.append(answer)
        return answer
    monkeypatch.setattr(core.facet_depth, "_same_shape", spy)
    return taken


@pytest.mark.parametrize("name", list(SHAPES))
def test_an_exact_copy_climbs_once_and_answers_as_four_climbs_do(name, hull_path, monkeypatch):
    a = SHAPES[name]()
    b = a.copy()
    contact = core.collide(a, b)
    assert hull_path == [True]
    monkeypatch.setattr(core.facet_depth, "_same_shape", lambda sup_a, sup_b: False)
    plain = core.collide(a, b.copy())
    assert contact.distance == plain.distance and np.array_equal(contact.normal, plain.normal)
    exact, _, _ = exact_depth(a, b)
    limit = TOUCHING * contact.scale
    assert contact.converged and abs(-contact.distance - exact) <= limit
    assert max(point_offset(contact.point_a, a), point_offset(contact.point_b, b)) <= limit


def test_other_copies_climb_on_their_own(hull_path):
    a = icosphere(3)
    b = a.copy()
    b[5, 2] = np.nextafter(b[5, 2], -np.inf)
    core.collide(a, b)
    assert hull_path == [False]
    hull_path.clear()
    # the same vertices, B under a transform that moves them by a rounding error only: other world points
    turn = np.eye(4)
    turn[:3, :3] = [[1.0, 1e-17, 0.0], [-1e-17, 1.0, 0.0], [0.0, 0.0, 1.0]]
    turn[0, 3] = 1e-15
    contact = core.collide(core.PointCloud(a), core.PointCloud(a, transform=turn))
    assert hull_path == [False]
    exact, _, _ = exact_depth(a, a @ turn[:3, :3].T + turn[:3, 3])
    assert contact.converged and abs(-contact.distance - exact) <= TOUCHING * contact.scale
