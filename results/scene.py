# SPDX-License-Identifier: GPL-3.0-or-later
"""What a scene check lists and how it says it (pure: no Blender).

A pair is listed when it intersects, touches (unless touching is ignored) or is separated by no more than the
clearance; the list is sorted worst first (`record.sort_key`).
"""
from __future__ import annotations

from ..core import Status
from .record import CheckRecord, sort_key

__all__ = ["is_listed", "listed", "run_summary"]


def is_listed(record: CheckRecord, ignore_touching: bool = False) -> bool:
    """True when the pair belongs in a scene check's list (its clearance is `record.clearance`)."""
    status = record.status
    if status is Status.INTERSECTING:
        return True
    if status is Status.TOUCHING:
        return not ignore_touching
    if record.contact.beyond_max_distance:
        return False  # the query stopped early: the pair is farther than the clearance
    return record.distance <= record.clearance


def listed(records, ignore_touching: bool = False) -> list[CheckRecord]:
    """The records a scene check keeps, worst first (a stable sort: equal keys keep the pair order)."""
    return sorted((r for r in records if is_listed(r, ignore_touching)), key=sort_key)


def run_summary(found: int, objects: int, pairs_checked: int, pairs_total: int, skipped: int = 0,
                failed: int = 0, cancelled: bool = False, box_pairs: int | None = None) -> str:
    """The one line a scene check reports.  `box_pairs`: pairs whose bounding boxes came within the clearance;
    `pairs_total` of them needed the exact check, `pairs_checked` got it."""
    clashes = "no clashes" if found == 0 else f"{found} clash{'es' if found != 1 else ''}"
    boxes = f"{box_pairs} pair{'s' if box_pairs != 1 else ''} with close boxes, " if box_pairs is not None else ""
    checked = f"{pairs_checked} of {pairs_total}" if pairs_checked != pairs_total else f"{pairs_total}"
    text = f"{clashes} among {objects} objects ({boxes}{checked} checked exactly"
    if skipped:
        text += f"; {skipped} without geometry skipped"
    if failed:
        text += f"; {failed} pairs could not be checked"
    text += ")"
    if cancelled:
        text = "Cancelled: " + text
    return text[0].upper() + text[1:]
