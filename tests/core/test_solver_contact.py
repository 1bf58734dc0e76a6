"""The solver's fast Contact construction (core/convex.py `_contact`) equals `core.Contact(...)` field by field.

`_contact` fills a Contact without running `Contact.__init__`; this checks, on seeded values, that every field it
sets (and every default it leaves) is what the regular constructor makes of the same arguments: same values,
same types, read-only float64 (3,) vectors, and a read-only empty (0, 2, 3) intersection."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import core
from core.contact import Contact
from core.convex import _contact


def _values(rng):
    normal = rng.normal(size=3)
    normal = tuple((normal / np.linalg.norm(normal)).tolist())
    return dict(status=core.Status(rng.choice([s.value for s in core.Status])),
                distance=float(rng.normal()) * 10.0 ** int(rng.integers(-12, 6)),
                normal=normal,
                point_a=tuple(rng.normal(size=3).tolist()),
                point_b=tuple((rng.normal(size=3) * 1e7).tolist()))


def _same(x, y):
    if isinstance(x, np.ndarray):
        return (isinstance(y, np.ndarray) and x.dtype == y.dtype == np.float64 and x.shape == y.shape
                and np.array_equal(x, y) and not x.flags.writeable and not y.flags.writeable)
    return type(x) is type(y) and x == y


@pytest.mark.parametrize("seed", range(20))
def test_fast_contact_equals_the_constructor(seed):
    rng = np.random.default_rng(seed)
    head = _values(rng)
    rest = dict(scale=float(rng.uniform(0.1, 10.0)), touching_tolerance=1e-9, gjk_iterations=int(rng.integers(1, 9)),
                epa_iterations=int(rng.integers(0, 30)), converged=bool(rng.integers(2)),
                iteration_cap_hit=bool(rng.integers(2)), fallback_used=bool(rng.integers(2)),
                gap=float(rng.uniform(0.0, 1e-9)))
    if seed % 2:
        rest["epa_outcome"] = core.EPAOutcome.CONVERGED
    if seed % 3 == 0:
        rest["beyond_max_distance"] = True
    fast = _contact(head["status"], head["distance"], head["normal"], head["point_a"], head["point_b"], **rest)
    slow = Contact(**head, **rest)
    assert type(fast) is Contact
    for f in dataclasses.fields(Contact):
        assert _same(getattr(fast, f.name), getattr(slow, f.name)), f.name
    assert fast.intersection.shape == (0, 2, 3)
    swapped = fast.swapped()  # the usual API works on it
    assert np.array_equal(swapped.normal, -slow.normal) and np.array_equal(swapped.point_a, slow.point_b)
