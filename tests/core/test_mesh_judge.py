"""The mesh judge (tests/core/mesh_judge.py) catches wrong answers: hand-made `Contact`s, right and wrong, on corpus
cases whose truth is known by construction.  Nothing here calls the engine (runs before it exists)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import core
from tests.core.mesh_corpus import make_case
from tests.core.mesh_judge import judge, truth


def rules(case, t, contact, hull=None) -> set[str]:
    return {rule for rule, _ in judge(case, t, contact, hull).broken}


@pytest.fixture(scope="module")
def plane_below_sphere():
    """plane/15: an open grid 0.75 below a closed UV sphere's south pole, under a random rotation."""
    case = make_case("plane", 15)
    assert case.note.endswith("below_far") and case.distance == 0.75
    t = truth(case)
    tri = t.a.tris[0]
    n = np.cross(tri[1] - tri[0], tri[2] - tri[0])
    n /= np.linalg.norm(n)
    if np.dot(t.b.used.mean(axis=0) - tri[0], n) < 0:
        n = -n                                             # from the grid (A) towards the sphere (B)
    pole = t.b.used[np.argmin(t.b.used @ n)]
    right = core.Contact(core.Status.SEPARATED, 0.75, n, pole - 0.75 * n, pole, t.scale, 1e-9 * t.scale,
                         open_a=True, open_b=False)
    return case, t, right


def test_a_right_answer_breaks_no_rule(plane_below_sphere):
    case, t, right = plane_below_sphere
    assert rules(case, t, right) == set()


@pytest.mark.parametrize("change, rule", [
    (lambda c: replace(c, distance=c.distance + 1e-6), "distance"),
    (lambda c: replace(c, point_b=c.point_b + 1e-6 * c.normal), "points"),
    (lambda c: replace(c, point_a=c.point_a + [1e-3, 0, 0], point_b=c.point_b + [1e-3, 0, 0]), "points"),
    (lambda c: replace(c, status=core.Status.TOUCHING), "verdict"),
    (lambda c: replace(c, open_a=False), "open"),
    (lambda c: replace(c, open_b=True), "open"),
    (lambda c: replace(c, scale=c.scale * 1.001), "scale"),
    (lambda c: replace(c, containment=core.Containment.B_INSIDE_A), "containment"),
    (lambda c: replace(c, normal=-c.normal), "normal"),
])
def test_each_wrong_answer_breaks_its_rule(plane_below_sphere, change, rule):
    case, t, right = plane_below_sphere
    assert rule in rules(case, t, change(right))


def _intersecting(case, t, depth, containment=None, open_a=False, open_b=False):
    """An INTERSECTING answer of the given depth whose witness pair is a vertex of A and the same point moved."""
    p = t.a.used[0]
    n = np.array([0.0, 0.0, 1.0])
    return core.Contact(core.Status.INTERSECTING, -depth, n, p, p - depth * n, t.scale, 1e-9 * t.scale,
                        containment=containment, open_a=open_a, open_b=open_b)


def test_depth_above_a_known_separating_translation_is_caught():
    """crate/6: a box through the crate's inner wall; moving the crate by `escape` puts the box in the cavity."""
    case = make_case("crate", 6)
    t = truth(case)
    escape = float(np.linalg.norm(case.escape))
    assert "depth_escape" not in rules(case, t, _intersecting(case, t, 0.9 * escape))
    assert "depth_escape" in rules(case, t, _intersecting(case, t, 1.1 * escape))


def test_depth_above_the_hulls_is_caught():
    case = make_case("crate", 6)
    t = truth(case)
    hull = core.collide(t.a.used, t.b.used)
    depth = -hull.distance
    assert "depth_hull" not in rules(case, t, _intersecting(case, t, 0.5 * depth), hull)
    assert "depth_hull" in rules(case, t, _intersecting(case, t, 1.01 * depth), hull)


def test_zero_depth_for_an_overlap_with_volume_is_caught():
    case = make_case("crate", 6)
    t = truth(case)
    assert case.volume and "depth_volume" in rules(case, t, _intersecting(case, t, 0.0))


def test_missed_containment_and_a_wrong_verdict_are_caught():
    """contain/0: a sphere wholly inside a box."""
    case = make_case("contain", 0)
    t = truth(case)
    assert case.containment == "A_INSIDE_B"
    found = rules(case, t, _intersecting(case, t, 0.1))
    assert "containment" in found and "verdict" not in found
    assert "containment" not in rules(case, t, _intersecting(case, t, 0.1, core.Containment.A_INSIDE_B))
    far = core.Contact(core.Status.SEPARATED, 0.5, [1, 0, 0], t.a.used[0], t.a.used[0] + [0.5, 0, 0], t.scale,
                       1e-9 * t.scale)
    assert {"verdict", "containment"} <= rules(case, t, far)


def test_witness_points_outside_the_other_mesh_are_caught():
    """contain/0: point_a (a vertex of the inner sphere) is inside the box; a point_b on the box's surface is not
    inside the sphere (the issue's wording) though the pair follows core/contact.py's convention."""
    case = make_case("contain", 0)
    t = truth(case)
    p = t.a.used[0]
    far_corner = t.b.used[np.argmax(np.linalg.norm(t.b.used - p, axis=1))]
    n = (p - far_corner) / np.linalg.norm(p - far_corner)
    depth = float(np.linalg.norm(p - far_corner))
    c = core.Contact(core.Status.INTERSECTING, -depth, n, p, far_corner, t.scale, 1e-9 * t.scale,
                     containment=core.Containment.A_INSIDE_B)
    found = rules(case, t, c)
    assert "witness" in found and "witness_pair" not in found
    outside = core.Contact(core.Status.INTERSECTING, -depth, n, p + 10.0 * n * t.scale, far_corner, t.scale,
                           1e-9 * t.scale, containment=core.Containment.A_INSIDE_B)
    assert "witness_pair" in rules(case, t, outside)
