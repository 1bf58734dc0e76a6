"""A caller's hook into the engine's long work: where it has got to, and a way to stop it.

A query that may run for seconds (an intersecting mesh pair's depth interval, core/mesh/depth_interval.py and the
coverings it calls) takes `progress`: None, or a callable that it calls with a `Progress` between units of its work
(a stage, a batch of cells, a piece).  The hook may raise `Cancelled`: the query then stops there and raises it on,
answering nothing.  A hook that returns lets the work go on exactly as without it: the units are counted, never
timed, so an answer that completes is the same, bit for bit, with or without a hook.

The overlap volume (core/mesh/overlap.py) reports the same way, as one stage of its own.  A caller that runs
several queries as one task (a pair check that measures the overlap too, Push Apart's checks) gives each a part
of its progress bar with `within`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable

__all__ = ["Cancelled", "Progress", "Stage", "report", "within"]


class Cancelled(Exception):
    """Raised by a progress hook to stop the query that called it (and raised on by the query)."""


class Stage(Enum):
    """The depth interval's stages in the order they run (a pair skips those it does not need), each with what a
    status line says of it and the span of the whole interval's work it is given on a progress bar; then the
    overlap volume's, a query of its own (all of its span)."""

    BOUNDS = ("bounding the depth", 0.0, 0.15)
    DIRECTIONS = ("searching the separating directions", 0.15, 0.3)
    COVER = ("covering the overlap with pieces", 0.3, 0.65)
    EXIT = ("bounding how far the held mesh must travel", 0.65, 0.7)
    MOVES = ("covering the short moves", 0.7, 0.95)
    VERIFY = ("verifying the separating move", 0.95, 1.0)
    OVERLAP = ("measuring the overlap volume", 0.0, 1.0)

    @property
    def text(self) -> str:
        return self.value[0]

    @property
    def span(self) -> tuple[float, float]:
        return self.value[1], self.value[2]


@dataclass(frozen=True)
class Progress:
    """One report: the stage that runs and the share of it done (0 to 1; an estimate from counted work).
    `part`: the span of the caller's task given to the query that reports (all of it unless `within` says)."""

    stage: Stage
    share: float = 0.0
    part: tuple[float, float] = (0.0, 1.0)

    @property
    def done(self) -> float:
        """The share of the caller's task done (0 to 1), for a progress bar."""
        start, end = self.stage.span
        query = start + (end - start) * min(1.0, max(0.0, self.share))
        return self.part[0] + (self.part[1] - self.part[0]) * query

    def placed(self, start: float, end: float) -> "Progress":
        """This report with its query's part moved into [start, end] of a larger task."""
        low, high = self.part
        return Progress(self.stage, self.share, (start + (end - start) * low, start + (end - start) * high))


Hook = Callable[[Progress], None]


def report(hook: Hook | None, stage: Stage, share: float = 0.0) -> None:
    """Call `hook` (when there is one) with the stage and the share of it done; it may raise `Cancelled`."""
    if hook is not None:
        hook(Progress(stage, float(share)))


def within(hook: Hook | None, start: float, end: float) -> Hook | None:
    """`hook` for a query given the span [start, end] of the caller's task: each report is `placed` there."""
    if hook is None:
        return None
    return lambda progress: hook(progress.placed(start, end))
