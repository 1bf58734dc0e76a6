"""When the covering (core/mesh/depth_cover.py) raises the lower end of an intersecting answer, the witness points
still follow core/contact.py's convention: point_a a point of A, point_b a point of B, point_a - point_b = depth *
normal, one of them inside the other mesh.  The cases are tests/core/mesh_corpus.py's links crossing and torus
inside a sphere, where the covering's own centre and thinnest direction gave a point_a outside A (distance 1.34 on
chain/3); the judge is tests/core/mesh_judge.py's, on the corpus's exact truth."""
from __future__ import annotations

import pytest

import core
from tests.core.mesh_corpus import make_case
from tests.core.mesh_judge import judge, truth


@pytest.mark.parametrize("family, index", [("chain", 3), ("chain", 11), ("contain", 18), ("contain", 21)])
def test_covering_keeps_the_witness_convention(family, index):
    case = make_case(family, index)
    contact = core.collide(case.a.build(), case.b.build())
    assert contact.status is core.Status.INTERSECTING
    verdict = judge(case, truth(case), contact)
    assert not verdict.fails("witness_pair"), verdict.fails("witness_pair")
