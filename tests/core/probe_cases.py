"""The crossing pairs on which the depth probes' shortcuts (core/mesh/inside.py) are held to the query that asks
and searches every probe: tests/core/mesh_corpus.py's crossing families (rod through torus, chain links, random,
L-shapes) and a torus crossing a sphere at two depths; and their answers in both argument orders, as exact bits."""
from __future__ import annotations

import core
from tests.core.answers import contact_fields
from tests.core.mesh_corpus import FAMILIES, make_case, sphere, torus


def crossing_pairs() -> list:
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


def answers_both_orders(pairs) -> list:
    """`contact_fields` of each pair's loose-interval answer, (a, b) then (b, a)."""
    return [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))] for a, b in pairs]
