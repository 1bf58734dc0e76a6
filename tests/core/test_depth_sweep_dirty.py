"""core/mesh/depth_sweep.py's directional depths are unchanged by dirt (a named regression: tests/core/depth_corpus.py
`make_case("degenerate", 5)`, two hooked L prisms with duplicate vertices, zero-area triangles (i, i, j), (i, j, i)
and a doubled collinear sliver).  With the dirty triangles' pairs in the sweep its union of intervals covered the
whole reach and no direction had a candidate, so the interval's upper end stayed 5 % above the clean pair's;
`pairs_within` leaves triangles without area out.  The dirty pair's depths along spread directions and along the
clean pair's separation are the clean pair's own."""
from __future__ import annotations

import numpy as np

import core
from core.mesh.depth_sweep import Sweep, pairs_within
from core.mesh.pair_frame import Frame
from core.rows import fibonacci_directions

from .depth_corpus import make_case


def _sweep(a, b, lower, upper):
    frame = Frame(a.build(), b.build(), core.DEFAULT_TOLERANCES)
    ca, cb = pairs_within(frame, lower, upper)
    return Sweep(ca, cb, frame.scale)


def test_dirty_l_prisms_sweep_like_the_clean_ones():
    case = make_case("degenerate", 5)
    clean = core.collide(case.solid_a.build(), case.solid_b.build())
    lower, upper = clean.depth, 1.4 * (clean.depth + clean.gap)
    d = np.asarray(clean.separation, float)
    directions = np.concatenate([d[None, :] / np.linalg.norm(d), fibonacci_directions(24)])
    want = _sweep(case.solid_a, case.solid_b, lower, upper).depths(directions, lower, upper)[:, 0]
    got = _sweep(case.a, case.b, lower, upper).depths(directions, lower, upper)[:, 0]
    assert np.isfinite(want[0])
    np.testing.assert_allclose(got, want, rtol=1e-9)
