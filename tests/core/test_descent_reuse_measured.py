"""The descent's measured triangle pairs, taken again instead of measured again (a level asking for a pair an
earlier level measured; `best_distance`'s first chunk taking the leaf pairs the descent measured), change nothing:
every field of the answer is bit for bit the one of measuring every pair each time it is asked for (the cache
disabled), on seeded separated and crossing mesh pairs."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import descent

from .test_mesh_descent import bumpy_torus, pose, soup


class _Forgetful(dict):
    """A `known` that never holds anything: every pair is measured whenever it is asked for."""

    def __setitem__(self, key, value):
        pass


def _answer(a, ma, b, mb):
    c = core.collide(core.TriangleMesh(*a, ma), core.TriangleMesh(*b, mb), depth_interval=False)
    fields = [c.status, c.containment, c.converged]
    for name in ("distance", "normal", "point_a", "point_b", "gap", "intersection"):
        fields.append(np.ascontiguousarray(np.asarray(getattr(c, name), float)).tobytes())
    return fields


@pytest.mark.parametrize("seed", range(10))
def test_reused_measurements_give_the_answer_of_measuring_again(seed, monkeypatch):
    rng = np.random.default_rng(2100 + seed)
    a = bumpy_torus(seed, 24, 12) if seed % 2 else soup(seed, 200)
    b = soup(seed + 50, 200) if seed % 3 else bumpy_torus(seed + 50, 24, 12)
    ma, mb = pose(rng, 0.2), pose(rng, 1.0 + 0.5 * seed)
    calls = []
    kernel = descent.triangle_triangle
    monkeypatch.setattr(descent, "triangle_triangle", lambda A, B: calls.append(A.shape[0]) or kernel(A, B))
    reused = _answer(a, ma, b, mb)
    with_reuse = sum(calls)
    init = descent._Upper.__init__

    def forgetful_init(self, *args):
        init(self, *args)
        self.known = _Forgetful()

    monkeypatch.setattr(descent._Upper, "__init__", forgetful_init)
    calls.clear()
    assert _answer(a, ma, b, mb) == reused
    assert sum(calls) >= with_reuse
