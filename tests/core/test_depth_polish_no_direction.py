"""The sweep's `polish` (core/mesh/depth_sweep.py) may find that the origin itself holds every half-space it picked,
within rounding: a zero-length projection with no direction.  It must stop there, not divide by that zero length
(a NaN direction asked of the sweep's depths).  Regression: tests/core/depth_corpus.py's contain/22 (a tiny pair,
one mesh held in the other) reached it and warned "invalid value encountered in divide".  Oracle: numpy's own
floating-point warnings, raised as errors, in both argument orders; the answer is still the narrow interval."""
from __future__ import annotations

import warnings

import core
from tests.core.depth_corpus import make_case


def test_polish_stops_at_a_zero_length_projection():
    case = make_case("contain", 22)
    a, b = case.a.build(), case.b.build()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for contact in (core.collide(a, b), core.collide(b, a)):
            assert contact.status is core.Status.INTERSECTING
            assert contact.gap <= 0.01 * (contact.depth + contact.gap)
