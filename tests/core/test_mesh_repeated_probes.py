"""`deepest_inside` counts and searches once the probes it makes twice for a crossing pair (its contact pairs are
its crossing pairs: the same corners and centroids; core/mesh/inside.py `_repeated`): every Contact field, in both
argument orders, must be what the query gives when both copies are counted and searched.  Cases:
tests/core/mesh_corpus.py's crossing families (rod through torus, chain links, random, L-shapes) and a torus
crossing a sphere at two depths."""
from __future__ import annotations

from core.mesh import inside
from tests.core.probe_cases import answers_both_orders, crossing_pairs


def test_repeated_probes_change_no_answer(monkeypatch):
    pairs = crossing_pairs()
    seen = []
    real = inside._repeated

    def counted(*args):
        answer = real(*args)
        seen.append(answer)
        return answer

    monkeypatch.setattr(inside, "_repeated", counted)
    fast = answers_both_orders(pairs)
    assert any(seen)
    monkeypatch.setattr(inside, "_repeated", lambda *args: False)
    assert answers_both_orders(pairs) == fast
