"""The contained route's way back (core/mesh/query.py `_mesh_collide`): a pair that `_near_first` settles as
contained, crossing nothing, has no closest pair, only the depth probes' witnesses.  Should no probe be found
inside the other mesh (not expected: a contained mesh always has one deeper than the band), the full route answers
instead.  Forced here with stand-ins that find no witness (`deepest_inside` finds no probe inside, the convex parts'
and the nearly convex depths none): the answer must be the full route's under the same stand-ins, every Contact
field, with the contained route taken first and the full one after it."""
from __future__ import annotations

import pytest

from core.mesh import query
from core.mesh.inside import Inside
from core.tolerances import DEFAULT_TOLERANCES
from tests.core.answers import assert_same_answer
from tests.core.mesh_corpus import make_case


@pytest.mark.parametrize("index", [0, 1, 4, 5])  # the contain family: either argument order, two scales
def test_contained_route_without_witness_gives_the_full_routes_answer(monkeypatch, index):
    case = make_case("contain", index)
    a, b = case.a.build(), case.b.build()
    monkeypatch.setattr(query, "deepest_inside", lambda *args, **kwargs: Inside())
    monkeypatch.setattr(query, "convex_part_depth", lambda *args, **kwargs: None)
    monkeypatch.setattr(query, "_nearly_convex_depth", lambda *args, **kwargs: None)
    routes = []
    real_near_first, real_collide = query._near_first, query._mesh_collide

    def near_first(frame):
        found, meeting = real_near_first(frame)
        routes.append("contained" if found is not None and meeting.crossing_segments.shape[0] == 0 else "other")
        return found, meeting

    def collide(*args, **kwargs):
        routes.append("near first" if kwargs.get("near_first", True) else "full")
        return real_collide(*args, **kwargs)

    monkeypatch.setattr(query, "_near_first", near_first)
    monkeypatch.setattr(query, "_mesh_collide", collide)
    got = query._mesh_collide(a, b, DEFAULT_TOLERANCES, None, narrow=False)
    assert routes == ["near first", "contained", "full"]
    want = real_collide(a, b, DEFAULT_TOLERANCES, None, narrow=False, near_first=False)
    assert_same_answer(got, want, case.name)
    assert got.status.name == "INTERSECTING" and got.fallback_used and got.containment is not None
