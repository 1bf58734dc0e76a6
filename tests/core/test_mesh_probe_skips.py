"""Probes a one-shot mesh query leaves out when their answer is implied or known, and the answers they must not
change (every Contact field, both argument orders), against the same query with the probes forced back on:

- `query._wholly_outside`: a mesh that is one loose part, neither crossing the other nor within the band of it,
  lies wholly on one side of it, so `deepest_inside` finds none of its surface points inside the other unless
  `meet` found it contained;
- `inside._beyond_box`: a loose part with a corner outside the other mesh's box by more than the band is not
  inside it, so `parts_inside` is False without winding numbers or distances;
- the points `deepest_inside` steps off the crossing curve, and their winding numbers, are `meet`'s (the same
  pairs, the same points) instead of being made and counted again; so are, for a crossing pair, its other probes
  and their winding numbers (`inside.Probes`, counted in the stepped points' pass).

Cases: tests/core/mesh_corpus.py's contain, chain, random and lshape families (contained, linked, apart, one inside
another, touching), and a seeded apart pair of one- and two-part meshes."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import inside, query
from tests.core.mesh_corpus import FAMILIES, make_case, sphere, torus
from tests.core.answers import contact_fields


def _answers(a, b, interval):
    return [contact_fields(core.collide(x, y, depth_interval=interval)) for x, y in ((a, b), (b, a))]


def _apart_pairs():
    rng = np.random.default_rng(20261127)
    v, t = torus(1.0, 0.3, n=20, m=10)
    s, st = sphere(0.4, n=16, rings=8)
    two = (np.concatenate([s, s + [3.0, 0.0, 0.0]]), np.concatenate([st, st + len(s)]))  # two loose parts
    out = []
    for k in range(4):
        shift = rng.uniform(-1.0, 1.0, 3)
        shift *= (1.8 + 0.5 * k) / np.linalg.norm(shift)
        out.append((core.TriangleMesh(v, t), core.TriangleMesh(s + shift, st)))
        out.append((core.TriangleMesh(v, t), core.TriangleMesh(two[0] + shift, two[1])))
    out.append((core.TriangleMesh(v, t), core.TriangleMesh(s, st)))  # the ball in the torus's hole
    return out


def _corpus_pairs():
    out = []
    for family in ("contain", "chain", "random", "lshape"):
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out.append((case.a.build(), case.b.build()))
    return out


@pytest.mark.parametrize("interval", [False, True])
def test_skipped_probes_change_no_answer(monkeypatch, interval):
    # the narrowed interval (seconds per intersecting pair) on the apart pairs and two contained ones only
    pairs = _apart_pairs() + (_corpus_pairs() if not interval else _corpus_pairs()[:2])
    skipped = []
    real_outside, real_beyond = query._wholly_outside, inside._beyond_box

    def outside_counted(*args):
        answer = real_outside(*args)
        skipped.append(answer)
        return answer

    def beyond_counted(*args):
        answer = real_beyond(*args)
        skipped.append(answer)
        return answer

    monkeypatch.setattr(query, "_wholly_outside", outside_counted)
    monkeypatch.setattr(inside, "_beyond_box", beyond_counted)
    fast = [_answers(a, b, interval) for a, b in pairs]
    assert any(skipped)  # the shortcuts are taken on these cases
    monkeypatch.setattr(query, "_wholly_outside", lambda *args: False)
    monkeypatch.setattr(inside, "_beyond_box", lambda *args: False)
    real_deepest = query.deepest_inside
    monkeypatch.setattr(query, "deepest_inside",
                        lambda *args, stepped=None, probes=None, **kw: real_deepest(*args, **kw))
    full = [_answers(a, b, interval) for a, b in pairs]
    assert fast == full
