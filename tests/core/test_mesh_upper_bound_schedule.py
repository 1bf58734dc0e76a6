"""The descent's best known distance (`core.mesh.descent._Upper`) may put off the exact triangle distances of a
level while the pruning cannot depend on them, and run several levels' worth in one kernel call.  That must change
nothing: the same node pairs kept at every level, the same best distance and the same points as taking each level's
distances at once (the eager schedule, here by resolving at every step).  Seeded tori, triangle soups and star
meshes at random poses: apart, near, touching by construction and crossing."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import descent
from core.mesh.pair_frame import Frame
from core.tolerances import DEFAULT_TOLERANCES
from tests.core.test_mesh_descent import bumpy_torus, pose, soup


def _found(a, b, eager: bool, monkeypatch):
    with monkeypatch.context() as m:
        if eager:
            m.setattr(descent._Upper, "settled", lambda self, bound, band, prune: self.resolve())
        frame = Frame(a, b, DEFAULT_TOLERANCES)
        f = descent.descend(frame.sa.world, frame.sb.world, frame.band, descent.PRUNE * frame.scale, None)
    return f


def _bits(x) -> bytes:
    return np.ascontiguousarray(np.asarray(x, float)).tobytes()


CASES = [(kind, seed, spread) for kind in ("torus", "soup") for seed in range(6) for spread in (0.5, 1.5, 3.0)]


@pytest.mark.parametrize("kind,seed,spread", CASES)
def test_put_off_distances_change_nothing(kind, seed, spread, monkeypatch):
    rng = np.random.default_rng([seed, int(spread * 10)])
    va, ta = bumpy_torus(seed) if kind == "torus" else soup(seed)
    vb, tb = bumpy_torus(seed + 100) if kind == "torus" else soup(seed + 100)
    a = core.TriangleMesh(va, ta, transform=pose(rng, spread))
    b = core.TriangleMesh(vb, tb, transform=pose(rng, spread))
    lazy, eager = _found(a, b, False, monkeypatch), _found(a, b, True, monkeypatch)
    assert np.array_equal(lazy.ia, eager.ia) and np.array_equal(lazy.ib, eager.ib)
    assert _bits(lazy.lb) == _bits(eager.lb)
    assert _bits(lazy.ub) == _bits(eager.ub)
    assert _bits(lazy.ub_points[0]) == _bits(eager.ub_points[0])
    assert _bits(lazy.ub_points[1]) == _bits(eager.ub_points[1])


def test_copy_in_place_and_shifted_copies(monkeypatch):
    """Many equally close pairs (a torus and its copy, in place and moved along an axis): the ties are broken as
    the eager schedule breaks them."""
    va, ta = bumpy_torus(7)
    for shift in (0.0, 0.05, 0.3, 0.61, 2.0):
        m = np.eye(4)
        m[0, 3] = shift
        a, b = core.TriangleMesh(va, ta), core.TriangleMesh(va, ta, transform=m)
        lazy, eager = _found(a, b, False, monkeypatch), _found(a, b, True, monkeypatch)
        assert np.array_equal(lazy.ia, eager.ia) and np.array_equal(lazy.ib, eager.ib)
        assert _bits(lazy.ub) == _bits(eager.ub)
        assert _bits(lazy.ub_points[0]) == _bits(eager.ub_points[0])
        assert _bits(lazy.ub_points[1]) == _bits(eager.ub_points[1])
