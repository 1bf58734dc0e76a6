"""The lock-step EPA leaves a near tie unresolved only where it cannot change the answer (core/lockstep_epa.py
`_unsettled_ties`): a step that settles whichever tied vertex wins.

The batched support product is swapped for one that moves every value by one ulp up or down at random (within the
error bound of a three-term product, as another BLAS kernel may round), so a tied support's batched vertex is
often not the scalar query's.  On tie-rich scenes (planks with points on their faces, cubes, pipes, at several
sizes and far from the origin), every pair the lock-step EPA finishes must still get exactly the Contact the
scalar `solve` makes from the same GJK tetrahedron, and some ties must really have been left unresolved (the
check is not vacuous).
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import lockstep_epa
from core.batch import ShapeBatch, _finished
from core.convex import Pair, solve
from core.lockstep_epa import _Sides
from tests.core.test_lockstep_epa import CASES, _same, _scene
from tests.core.test_lockstep_supports import _ulp_noise  # a product one ulp off at random


@pytest.mark.parametrize("seed,size,offset", CASES)
def test_unresolved_ties_change_no_answer(seed, size, offset, monkeypatch):
    monkeypatch.setattr(_Sides, "scalar_rows", -1)  # every support from the (noisy) batched products
    monkeypatch.setattr(_Sides, "product", staticmethod(_ulp_noise(seed)))
    left = []
    real = lockstep_epa._unsettled_ties

    def counting(tied, *args):
        redo = real(tied, *args)
        left.append(int((tied[0] | tied[1]).sum()) - len(redo))
        return redo
    monkeypatch.setattr(lockstep_epa, "_unsettled_ties", counting)
    shapes = _scene(seed, size, offset, n=60)
    tolerances = core.DEFAULT_TOLERANCES
    batch = ShapeBatch(shapes)
    i, j = np.triu_indices(len(shapes), 1)
    pairs = np.stack([i, j], axis=1)
    keep = np.flatnonzero(batch.candidates(pairs, 0.0))
    first, second = pairs[keep, 0], pairs[keep, 1]
    scales = np.maximum(batch._scales[first], batch._scales[second]).tolist()
    _, starts, penetration = batch._lockstep_all(first, second, scales, 0.0, tolerances)
    finished = _finished(batch, first, second, scales, tolerances, penetration)
    assert finished
    assert sum(left) > 0, "no tie left unresolved: the check would be vacuous"
    for k, contact in finished.items():
        a, b = int(first[k]), int(second[k])
        pair = Pair.prepared(shapes[a], shapes[b], batch.centre[a],
                             tuple((batch.centre[b] - batch.centre[a]).tolist()), scales[k], tolerances)
        want = solve(pair, 0.0, start=starts(k))
        for name, value in vars(want).items():
            assert _same(value, getattr(contact, name)), (a, b, name, value, getattr(contact, name))
