"""The progress hook of the overlap volume (core/progress.py): `core.overlap(a, b, progress=hook)` calls the hook
between the units of its work, as `Stage.OVERLAP` with a share that only grows; a hook that returns changes no bit
of the answer, and a hook that raises `core.Cancelled` stops the work there (raised on, nothing answered).  Also
`Progress.placed` / `progress.within`, by which a caller gives a query a part of its progress bar."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from core.progress import Progress, Stage, within
from tests.core import overlap_corpus as oc

overlap_module = importlib.import_module("core.mesh.overlap")


def _pair():
    """A chain link sunk in a cup's wall (tests/core/test_overlap_regressions.py's pose, near the origin)."""
    relative = oc.pose(np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]]), (-0.75, 0.75, -1.0))
    return oc.place(oc.torus(0.8, 0.2, stretch=0.5), np.eye(4)), oc.place(oc.cup(), relative)


def _bits(result):
    return (result.volume, result.region.tobytes(), result.exact, result.defect)


def test_a_hook_that_returns_changes_no_bit_and_hears_each_unit():
    a, b = _pair()
    plain = core.overlap(a, b)
    assert plain.volume > 0.0
    reports = []
    heard = core.overlap(*_pair(), progress=reports.append)
    assert _bits(heard) == _bits(plain)
    assert len(reports) >= 5 and all(isinstance(p, Progress) and p.stage is Stage.OVERLAP for p in reports)
    shares = [p.share for p in reports]
    assert shares == sorted(shares) and 0.0 <= shares[0] and shares[-1] <= overlap_module.FIRST_RUN


@pytest.mark.parametrize("at", ["first", "last"])
def test_a_hook_that_raises_cancelled_stops_the_work(at):
    count = []
    core.overlap(*_pair(), progress=count.append)
    stop_at = {"first": 1, "last": len(count)}[at]
    calls = []

    def hook(progress):
        calls.append(progress)
        if len(calls) == stop_at:
            raise core.Cancelled

    with pytest.raises(core.Cancelled):
        core.overlap(*_pair(), progress=hook)
    assert len(calls) == stop_at


def test_a_query_placed_in_part_of_a_task():
    # COVER at half its share is 0.475 of the interval (test_depth_progress); in [0.5, 0.75] that is
    # 0.5 + 0.25 * 0.475, and placed again in [0, 0.5] of a larger task, half of it
    report = Progress(Stage.COVER, 0.5).placed(0.5, 0.75)
    assert report.part == (0.5, 0.75) and report.done == pytest.approx(0.61875, abs=1e-15)
    assert report.placed(0.0, 0.5).done == pytest.approx(0.309375, abs=1e-15)
    heard = []
    hook = within(heard.append, 0.7, 1.0)
    hook(Progress(Stage.OVERLAP, 0.5))
    assert heard[0].done == pytest.approx(0.85, abs=1e-15) and heard[0].stage is Stage.OVERLAP
    assert within(None, 0.0, 0.5) is None
