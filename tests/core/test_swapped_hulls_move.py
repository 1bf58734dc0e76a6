"""collide(b, a) starts from exactly the mirrored hulls' answer (core/mesh/query.py `_hulls`, worked out in the
pair's canonical order), so the depth interval, whose stages depend on the last bits of the hulls' move, reads
the same interval with A and B exchanged.

Regression: on chain/9 of the mesh corpus (two links crossing) the convex engine's answer for (hull B, hull A)
differed from (hull A, hull B) swapped in the last bits of its move; the aimed pieces of the covering
(core/mesh/depth_cover.py) then certified 2.37970 one way and 2.37859 the other, outside the corpus's swap
tolerance.  Oracle: the same query with the arguments exchanged, compared bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.query import _hulls
from core.tolerances import Tolerances

from .mesh_corpus import make_case


def _bits(x):
    return np.asarray(x, np.float64).tobytes()


@pytest.mark.parametrize("family, index", [("chain", 9), ("rod_torus", 0), ("cup", 3)])
def test_hulls_answer_is_mirrored_bit_for_bit(family, index):
    case = make_case(family, index)
    a, b = case.a.build(), case.b.build()
    tolerances = Tolerances()
    one, other = _hulls(a, b, tolerances), _hulls(b, a, tolerances).swapped()
    assert one.status is other.status
    for name in ("distance", "normal", "point_a", "point_b", "separation"):
        assert _bits(getattr(one, name)) == _bits(getattr(other, name)), name


def test_crossing_links_read_the_same_interval_swapped():
    case = make_case("chain", 9)
    one = core.collide(case.a.build(), case.b.build())
    other = core.collide(case.b.build(), case.a.build()).swapped()
    assert one.status is core.Status.INTERSECTING
    assert _bits(one.distance) == _bits(other.distance)
    assert _bits(one.gap) == _bits(other.gap)
    assert _bits(one.separation) == _bits(other.separation)
