"""The progress hook of the depth interval (core/progress.py): `core.collide(..., progress=hook)` calls the hook
between the units of an intersecting mesh pair's interval work; a hook that returns changes no bit of the answer,
and a hook that raises `core.Cancelled` stops the work right there.

The stop is checked against a trace of the interval's units of work (the crossing tests of the directional
search, the coverings' radius computations, the batches of cells of the Lipschitz covering), interleaved with the
hook's calls: cancelled at its k-th call, the run has done exactly what the full run did up to that call, and
nothing after it.  The pair runs every stage: a ball sunk in a dirty cup's wall from the depth corpus
(tests/core/depth_corpus.py), whose pieces' covering finds little and leaves the work to the Lipschitz covering."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import core
from core.mesh import depth_cover, depth_interval, depth_lipschitz
from core.progress import Progress, Stage
from tests.core.depth_corpus import make_case

from .test_depth_lipschitz import SIDE, _pair

CASE = ("degenerate", 2)
"""A corpus pair whose interval runs the ball bound, the directions, the pieces' covering, the Lipschitz one and
the verification of its move."""

QUERIES = 6_000
"""The Lipschitz covering's budget in the direct test: a few batches of cells (its bound is then weaker)."""

TRACED = ((depth_interval, "_overlaps"), (depth_cover, "covered_radius"), (depth_lipschitz, "_evaluate"))
"""The units of work the trace records (module, function)."""


def test_the_stages_share_the_bar_in_order():
    spans = [stage.span for stage in Stage if stage is not Stage.OVERLAP]  # the overlap's query has its own bar
    assert spans[0][0] == 0.0 and spans[-1][1] == 1.0
    assert all(end == start for (_, end), (start, _) in zip(spans, spans[1:]))
    assert all(start < end for start, end in spans)
    # 0.3 + (0.65 - 0.3) / 2, by hand; a share outside 0..1 stays in its stage's span
    assert Progress(Stage.COVER, 0.5).done == pytest.approx(0.475, abs=1e-15)
    assert Progress(Stage.COVER, 7.0).done == 0.65 and Progress(Stage.BOUNDS, -1.0).done == 0.0


class _Stop:
    """A hook that logs each report into `trace` and raises core.Cancelled at its `at`-th call (never if None)."""

    def __init__(self, trace, at=None):
        self.trace, self.at, self.calls = trace, at, 0

    def __call__(self, progress):
        assert isinstance(progress, Progress) and isinstance(progress.stage, Stage)
        self.calls += 1
        self.trace.append(("hook", progress.stage, progress.share))
        if self.calls == self.at:
            raise core.Cancelled


def _traced_run(trace, hook, case):
    """collide on fresh meshes of the corpus `case` with the units of TRACED logged into `trace`."""
    with pytest.MonkeyPatch.context() as patch:
        for module, name in TRACED:
            original = getattr(module, name)

            def logged(*args, _original=original, _name=name, **kwargs):
                trace.append(("work", _name))
                return _original(*args, **kwargs)

            patch.setattr(module, name, logged)
        return core.collide(case.a.build(), case.b.build(), progress=hook)


@pytest.fixture(scope="module")
def runs():
    case = make_case(*CASE)
    plain = core.collide(case.a.build(), case.b.build())
    trace = []
    hooked = _traced_run(trace, _Stop(trace), case)
    return case, plain, hooked, trace


def _fields(contact):
    return {f.name: getattr(contact, f.name) for f in dataclasses.fields(contact)}


def test_a_hook_that_returns_changes_no_bit(runs):
    _, plain, hooked, trace = runs
    assert plain.status is core.Status.INTERSECTING
    for name, value in _fields(plain).items():
        other = getattr(hooked, name)
        if isinstance(value, np.ndarray):
            assert value.dtype == other.dtype and np.array_equal(value, other), name
        else:
            assert value == other or (value is None and other is None), name
    reports = [entry for entry in trace if entry[0] == "hook"]
    assert len(reports) >= 20
    assert {Stage.BOUNDS, Stage.DIRECTIONS, Stage.COVER, Stage.MOVES, Stage.VERIFY} <= {s for _, s, _ in reports}
    # every traced unit runs between two reports: none before the first (the query's own work is not traced)
    assert trace[0][0] == "hook" and any(entry[0] == "work" for entry in trace)


@pytest.mark.parametrize("where", ["first", "in the pieces' covering", "in the Lipschitz covering", "last"])
def test_cancelling_stops_at_that_report(runs, where):
    case, _, _, full = runs
    reports = [i for i, entry in enumerate(full) if entry[0] == "hook"]
    stages = [full[i][1] for i in reports]
    k = {"first": 1, "in the pieces' covering": stages.index(Stage.COVER) + 2,
         "in the Lipschitz covering": stages.index(Stage.MOVES) + 2, "last": len(reports)}[where]
    trace = []
    hook = _Stop(trace, at=k)
    with pytest.raises(core.Cancelled):
        _traced_run(trace, hook, case)
    # the same units as the full run up to the k-th report, and not one after it
    assert hook.calls == k
    assert trace == full[: reports[k - 1] + 1]
    assert len(full) > len(trace) or where == "last"


def test_the_lipschitz_covering_stops_between_batches():
    """Directly on two boxes (tests/core/test_depth_lipschitz.py's side-by-side case): a hook that returns gives
    the same bound; one that raises at its second report stops the covering (the first is before the balls)."""
    calls = []
    a_box, b_box, _, upper = SIDE

    def run(hook):
        frame, seeds = _pair(a_box, b_box)
        return depth_lipschitz.lipschitz_bound(frame.sa, frame.sb, seeds, frame.scale, 0.1, upper,
                                               max_queries=QUERIES, finest=5e-3, progress=hook)

    plain = run(None)
    hooked = run(lambda progress: calls.append(progress))
    assert hooked[0] == plain[0] and np.array_equal(hooked[1], plain[1]) and np.array_equal(hooked[2], plain[2])
    assert len(calls) >= 3 and all(p.stage is Stage.MOVES for p in calls)
    shares = [p.share for p in calls]
    assert shares == sorted(shares) and shares[-1] < 1.0
    stopped = []

    def stop(progress):
        stopped.append(progress)
        if len(stopped) == 2:
            raise core.Cancelled

    with pytest.raises(core.Cancelled):
        run(stop)
    assert len(stopped) == 2


def test_a_quick_pair_reports_and_stops():
    """The fast tier's case of the same: a rod through a torus's tube whose interval is done in a few reports (the
    ball bound and its direction suffice); a hook that returns changes no bit, one that raises at its second report
    stops the query."""
    case = make_case("rod_torus", 8)
    plain = core.collide(case.a.build(), case.b.build())
    reports = []
    hooked = core.collide(case.a.build(), case.b.build(), progress=reports.append)
    assert len(reports) >= 3 and reports[0].stage is Stage.BOUNDS
    assert all(isinstance(p, Progress) for p in reports)
    for name, value in _fields(plain).items():
        other = getattr(hooked, name)
        assert np.array_equal(value, other) if isinstance(value, np.ndarray) else value == other, name
    trace = []
    with pytest.raises(core.Cancelled):
        _traced_run(trace, _Stop(trace, at=2), case)
    assert [entry for entry in trace if entry[0] == "hook"] == [("hook", p.stage, p.share) for p in reports[:2]]
    assert trace[-1][0] == "hook"
