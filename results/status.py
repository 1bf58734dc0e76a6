# SPDX-License-Identifier: GPL-3.0-or-later
"""One table for how a status looks: its word, its Blender icon and its overlay colour.

`None` stands for "no result" (nothing checked yet, or the result was cleared); it is not a status of the engine,
so it has its own entry, `NO_RESULT`, and never travels as a fake status value.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Status

__all__ = ["StatusStyle", "STYLES", "NO_RESULT", "style"]


@dataclass(frozen=True)
class StatusStyle:
    word: str
    """What the readout says ("Intersecting")."""
    icon: str
    """Blender icon name shown beside the word (valid in Blender 3.4 to 5.0, tests/blender checks it)."""
    color: tuple
    """(r, g, b, a) of the overlay's lines and points, readable on the default dark theme."""


STYLES = {
    Status.SEPARATED: StatusStyle("Separated", "CHECKMARK", (0.25, 0.9, 0.35, 1.0)),       # green
    Status.TOUCHING: StatusStyle("Touching", "SNAP_ON", (1.0, 0.72, 0.1, 1.0)),            # amber
    Status.INTERSECTING: StatusStyle("Intersecting", "ERROR", (1.0, 0.22, 0.16, 1.0)),     # red
}
NO_RESULT = StatusStyle("No result", "INFO", (0.6, 0.6, 0.6, 1.0))


def style(status: Status | None) -> StatusStyle:
    """The style of a status; `NO_RESULT` for None."""
    return NO_RESULT if status is None else STYLES[status]
