"""`deepest_inside` counts and searches once the probes it makes twice for a crossing pair (its contact pairs are
its crossing pairs: the same corners and centroids; core/mesh/inside.py `_repeated`): every Contact field, in both
argument orders, must be what the query gives when both copies are counted and searched.  Cases:
tests/core/mesh_corpus.py's crossing families (rod through torus, chain links, random, L-shapes) and a torus
crossing a sphere at two depths."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import inside
from tests.core.mesh_corpus import FAMILIES, make_case, sphere, torus
from tests.core.answers import contact_fields


def _pairs():
    out = []
    for family in ("rod_torus", "chain", "random", "lshape"):
        for index in range(0, FAMILIES[family] * 3, 9):
            case = make_case(family, index)
            out.append((case.a.build(), case.b.build()))
    v, t = torus(1.0, 0.3, n=40, m=20)
    s, st = sphere(0.5, n=30, rings=15)
    for shift in (0.7, 1.3):
        out.append((core.TriangleMesh(v, t), core.TriangleMesh(s + [shift, 0.1, 0.05], st)))
    return out


def _answers(pairs):
    return [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))] for a, b in pairs]


def test_repeated_probes_change_no_answer(monkeypatch):
    pairs = _pairs()
    seen = []
    real = inside._repeated

    def counted(*args):
        answer = real(*args)
        seen.append(answer)
        return answer

    monkeypatch.setattr(inside, "_repeated", counted)
    fast = _answers(pairs)
    assert any(seen)
    monkeypatch.setattr(inside, "_repeated", lambda *args: False)
    assert _answers(pairs) == fast
