"""The band-only descent first (core/mesh/query.py `_near_first`): a pair that crosses is answered from the pairs
within the band alone (no distance descent), a contained pair that crosses nothing from those pairs' exact
distances (no distance descent, no best-first stage), and any other pair by the full descent, with the meeting of
the band-only one.  Each answer must be the full route's (`near_first=False`), every Contact field, both argument
orders.

Cases: tests/core/mesh_corpus.py's chain, rod_torus and contain families (linked, threaded, one inside another,
free), a box resting on the floor inside a bigger box (contained and touching: the contained route with pairs
within the band), and a non-convex mesh against its copy in place (the band holds nearly every pair: the band-only
descent gives up at its cap)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import query
from core.tolerances import DEFAULT_TOLERANCES
from tests.core.mesh_corpus import FAMILIES, box, make_case, torus
from tests.core.answers import contact_fields


def _answer(a, b, near_first):
    return contact_fields(query._mesh_collide(a, b, DEFAULT_TOLERANCES, None, narrow=False, near_first=near_first))


def _corpus_pairs(family, count=None):
    out = []
    for index in range(FAMILIES[family] * 3 if count is None else count):
        case = make_case(family, index)
        out.append((case.name, case.a.build(), case.b.build()))
    return out


def _resting_inside():
    """A box resting on the floor inside a bigger box (faces on each other from inside: contained, touching)."""
    big, tb = box((0.0, 0.0, 0.0), (2.0, 2.0, 2.0))
    small, ts = box((0.5, 0.5, 0.0), (1.5, 1.5, 1.0))
    return core.TriangleMesh(big, tb), core.TriangleMesh(small, ts)


def _routes(monkeypatch):
    """Spy on the routes: which pairs `_near_first` settled, and how (crossing or contained)."""
    taken = []
    real = query._near_first

    def spied(frame):
        found, meeting = real(frame)
        if found is None:
            taken.append("full" if meeting is not None else "gave up")
        else:
            taken.append("crossing" if meeting.crossing_segments.shape[0] else
                         "contained, touching" if np.any(found.lb <= frame.band) else "contained")
        return found, meeting

    monkeypatch.setattr(query, "_near_first", spied)
    return taken


@pytest.mark.parametrize("family, count, routes", [  # count: the family's first cases (None: all)
    ("chain", None, ("crossing", "full")),
    ("contain first", 3, ("contained",)),
    ("rod_torus", None, ("crossing", "full")),
    ("contain", None, ("contained",)),
])
def test_near_first_routes_give_the_full_routes_answers(monkeypatch, family, count, routes):
    taken = _routes(monkeypatch)
    for name, a, b in _corpus_pairs(family.split()[0], count):
        for x, y in ((a, b), (b, a)):
            assert _answer(x, y, True) == _answer(x, y, False), name
    for route in routes:
        assert route in taken, route  # the routes are taken on these cases


def test_contained_and_touching_gives_the_full_routes_answer(monkeypatch):
    taken = _routes(monkeypatch)
    a, b = _resting_inside()
    for x, y in ((a, b), (b, a)):
        assert _answer(x, y, True) == _answer(x, y, False)
    assert taken[0] == "contained, touching"


def test_contained_route_needs_no_distance_descent(monkeypatch, descend_calls):
    """The contained pairs are answered without the best-first stage and without the full descent."""
    a, b = _resting_inside()

    def no_best_distance(*args, **kwargs):
        raise AssertionError("the contained route ran the best-first stage")

    monkeypatch.setattr(query, "best_distance", no_best_distance)
    contact = query._mesh_collide(a, b, DEFAULT_TOLERANCES, None, narrow=False)
    assert contact.status is core.Status.INTERSECTING
    assert contact.containment is core.Containment.B_INSIDE_A
    assert descend_calls == [True]


def test_crossing_route_needs_no_distance_descent(descend_calls):
    case = next(make_case("chain", i) for i in range(FAMILIES["chain"] * 3) if make_case("chain", i).volume)
    contact = query._mesh_collide(case.a.build(), case.b.build(), DEFAULT_TOLERANCES, None, narrow=False)
    assert contact.status is core.Status.INTERSECTING and len(contact.intersection)
    assert descend_calls == [True]


def test_copy_in_place_gives_up_at_the_cap(monkeypatch):
    """A non-convex mesh against its copy in place: the band holds nearly every pair, the band-only descent stops
    at its cap and the full descent answers (the same answer)."""
    taken = _routes(monkeypatch)
    v, t = torus(1.0, 0.3, n=40, m=16)
    a, b = core.TriangleMesh(v, t), core.TriangleMesh(v.copy(), t.copy())
    assert _answer(a, b, True) == _answer(a, b, False)
    assert taken == ["gave up"]


def test_take_pairs_refuses_a_meeting_with_crossings():
    case = next(make_case("chain", i) for i in range(FAMILIES["chain"] * 3) if make_case("chain", i).volume)
    frame = query.Frame(case.a.build(), case.b.build(), DEFAULT_TOLERANCES)
    found, meeting = query._near_first(frame)
    assert meeting.crossing_segments.shape[0]
    with pytest.raises(ValueError):
        meeting.take_pairs(found)
