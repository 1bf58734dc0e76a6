# SPDX-License-Identifier: GPL-3.0-or-later
"""Words and values for motion results (a `record.SweepRecord`), pure Python: the sidebar's sweep table, the
flat values of the Blender mirror (`wm.collision_inspector.sweep`), the operator's one-line report, and which of
several pairs' sweeps is the one shown (`combined`)."""
from __future__ import annotations

import math
from dataclasses import replace

from ..core import Status
from .record import SweepRecord
from .text import Row, RowKind, format_length

__all__ = ["sweep_mirror_fields", "sweep_rows", "sweep_table", "pair_rows", "MAX_TABLE_ROWS", "always_overlapping",
           "combined", "summary_line", "between_samples", "table_frame_words", "deformation_words"]

MAX_TABLE_ROWS = 40
"""At most this many per-frame rows in the sidebar's table (evenly thinned, key frames always kept)."""


def _or(value, default):
    return default if value is None else float(value)


def sweep_mirror_fields(sweep: SweepRecord | None) -> dict:
    """The scalar values of the mirror by property name ('no sweep' values for None); the samples go separately."""
    if sweep is None:
        return {"has_result": False, "object_a": "", "object_b": "", "meets": False, "first_contact_frame": 0.0,
                "has_deepest": False, "deepest_frame": 0.0, "deepest_depth": 0.0, "closest_frame": 0.0,
                "closest_distance": 0.0, "frame_start": 0, "frame_end": 0, "cancelled": False, "evaluations": 0,
                "deforming": "", "deformation_followed": False}
    closest = sweep.closest_distance
    return {
        "has_result": True,
        "object_a": sweep.object_a,
        "object_b": sweep.object_b,
        "meets": sweep.first_contact_frame is not None,
        "first_contact_frame": _or(sweep.first_contact_frame, 0.0),
        "has_deepest": sweep.deepest_frame is not None,
        "deepest_frame": _or(sweep.deepest_frame, 0.0),
        "deepest_depth": float(sweep.deepest_depth),
        "closest_frame": _or(sweep.closest_frame, 0.0),
        "closest_distance": float(closest) if math.isfinite(closest) else 0.0,
        "frame_start": int(sweep.extra.get("frame_start", 0)),
        "frame_end": int(sweep.extra.get("frame_end", 0)),
        "cancelled": bool(sweep.cancelled),
        "evaluations": int(sweep.extra.get("evaluations", len(sweep.samples))),
        "deforming": ", ".join(_deformation(sweep).get("objects", ())),
        "deformation_followed": bool(_deformation(sweep).get("followed", False)),
    }


def _deformation(sweep: SweepRecord) -> dict:
    return sweep.extra.get("deformation") or {}


def deformation_words(sweep: SweepRecord) -> str | None:
    """How deformation was followed, for the sweep's rows; None when no object changed shape between samples."""
    deformation = _deformation(sweep)
    objects = deformation.get("objects", ())
    if not objects:
        return None
    names = ", ".join(objects)
    if deformation.get("followed"):
        return f"{names}: followed between samples"
    return f"{names}: samples only"


def between_samples(sweep: SweepRecord | None) -> set:
    """The sampled frames f whose pair is separated at f and at the next sampled frame, with a contact found in
    between (a contact no sampled frame shows: the table marks them)."""
    if sweep is None:
        return set()
    sampled = sorted(set(sweep.extra.get("sampled_frames", ())))
    if len(sampled) < 2:
        return set()
    by_frame = {s.frame: s for s in sweep.samples}
    sampled_set = set(sampled)
    refined = [s for s in sweep.samples if s.frame not in sampled_set and s.status is not Status.SEPARATED]
    marked = set()
    for lo, hi in zip(sampled, sampled[1:]):
        ends = (by_frame.get(lo), by_frame.get(hi))
        if any(e is None or e.status is not Status.SEPARATED for e in ends):
            continue
        if any(lo < s.frame < hi for s in refined):
            marked.add(lo)
    return marked


def table_frame_words(frame: float, marked: set) -> str:
    """A table row's frame, with the mark of a contact between it and the next sampled frame."""
    return f"{frame:g} (contact after)" if frame in marked else f"{frame:g}"


def _frame_words(frame: float) -> str:
    return f"{frame:.0f}" if float(frame).is_integer() else f"{frame:.3f}"


def sweep_rows(sweep: SweepRecord | None, unit_settings=None) -> list[Row]:
    """The sweep's summary rows (first contact, deepest, closest), each a frame the panel can jump to."""
    if sweep is None:
        return [Row("Sweep", "not run")]
    rows = [Row("Pair", f"{sweep.object_a} / {sweep.object_b}")]
    if sweep.cancelled:
        rows.append(Row("Stopped", "Esc: partial result", RowKind.WARNING))
    if sweep.first_contact_frame is None:
        rows.append(Row("First contact", "never"))
    else:
        rows.append(Row("First contact", f"frame {_frame_words(sweep.first_contact_frame)}"))
    if sweep.deepest_frame is not None:
        rows.append(Row("Deepest", f"{format_length(sweep.deepest_depth, unit_settings)} at frame "
                                   f"{_frame_words(sweep.deepest_frame)}"))
    if sweep.closest_frame is not None:
        rows.append(Row("Closest", f"{format_length(sweep.closest_distance, unit_settings)} at frame "
                                   f"{_frame_words(sweep.closest_frame)}"))
    deformation = deformation_words(sweep)
    if deformation is not None:
        followed = _deformation(sweep).get("followed")
        rows.append(Row("Deformation", deformation, RowKind.VALUE if followed else RowKind.WARNING))
    return rows


def sweep_table(sweep: SweepRecord | None, max_rows: int = MAX_TABLE_ROWS) -> list:
    """(frame, status, distance) of the sampled frames, thinned evenly to `max_rows`, always keeping the frames
    where the state changes and the first and last one."""
    if sweep is None:
        return []
    wanted = set(sweep.extra.get("sampled_frames", ()))
    samples = [s for s in sweep.samples if not wanted or s.frame in wanted]
    if len(samples) <= max_rows:
        return [(s.frame, s.status, s.distance) for s in samples]
    keep = {0, len(samples) - 1}
    keep.update(i for i in range(1, len(samples)) if samples[i].status is not samples[i - 1].status)
    marked = between_samples(sweep)
    keep.update(i for i, s in enumerate(samples) if s.frame in marked)
    stride = max(1, math.ceil(len(samples) / max(1, max_rows - len(keep))))
    keep.update(range(0, len(samples), stride))
    return [(samples[i].frame, samples[i].status, samples[i].distance) for i in sorted(keep)]


def pair_rows(sweep: SweepRecord | None, unit_settings=None) -> list:
    """Every-listed-pair sweeps: (pair words, what happened, frame to jump to or None), in `extra["pairs"]` order."""
    if sweep is None:
        return []
    rows = []
    for pair in sweep.extra.get("pairs", ()):
        names = f"{pair['object_a']} / {pair['object_b']}"
        if pair.get("cancelled"):
            rows.append((names, "not finished", None))
        elif pair["always_overlapping"]:
            words = "overlap on every frame" + (" (left out)" if pair["left_out"] else "")
            rows.append((names, words, pair["deepest_frame"]))
        elif pair["first_contact_frame"] is not None:
            rows.append((names, f"meet at frame {_frame_words(pair['first_contact_frame'])}",
                         pair["first_contact_frame"]))
        else:
            closest = pair["closest_distance"]
            words = "never meet" if pair["closest_frame"] is None else (
                f"never meet, closest {format_length(closest, unit_settings)}")
            rows.append((names, words, pair["closest_frame"]))
    return rows



def always_overlapping(sweep: SweepRecord) -> bool:
    """Every sampled frame INTERSECTING (a finished sweep only)."""
    sampled = set(sweep.extra.get("sampled_frames", ()))
    statuses = [s.status for s in sweep.samples if s.frame in sampled]
    return not sweep.cancelled and bool(statuses) and all(status is Status.INTERSECTING for status in statuses)


def _pair_summary(sweep: SweepRecord, left_out: bool) -> dict:
    return {"object_a": sweep.object_a, "object_b": sweep.object_b,
            "first_contact_frame": sweep.first_contact_frame, "deepest_frame": sweep.deepest_frame,
            "deepest_depth": sweep.deepest_depth, "closest_frame": sweep.closest_frame,
            "closest_distance": sweep.closest_distance, "always_overlapping": always_overlapping(sweep),
            "left_out": left_out, "cancelled": sweep.cancelled}


def _meeting_order(first_contact_frame, closest_distance) -> tuple:
    """Pairs that meet, earliest first, then the others, closest first."""
    if first_contact_frame is not None:
        return (0, first_contact_frame, 0.0)
    return (1, 0.0, closest_distance)


def combined(records: list, leave_out_overlapping: bool = False) -> SweepRecord:
    """The one sweep shown: the only pair's, or (several pairs) the pair that meets first (else comes closest),
    with every pair's summary in `extra["pairs"]` (earliest first contact first, then the closest; pairs that
    overlap on every sampled frame are left out of the choice when asked, and listed with `left_out`) and their
    count in `extra["left_out"]`; cancelled when any pair's sweep was."""
    if len(records) == 1:
        return records[0]
    left_out = [leave_out_overlapping and always_overlapping(r) for r in records]
    candidates = [r for r, out in zip(records, left_out) if not out and not r.cancelled] or records

    shown = min(candidates, key=lambda r: _meeting_order(r.first_contact_frame, r.closest_distance))
    pairs = sorted((_pair_summary(r, out) for r, out in zip(records, left_out)),
                   key=lambda p: (p["left_out"],) + _meeting_order(p["first_contact_frame"], p["closest_distance"]))
    extra = dict(shown.extra)
    extra["pairs"] = tuple(pairs)
    extra["left_out"] = sum(left_out)
    return replace(shown, extra=extra, cancelled=any(r.cancelled for r in records))


def summary_line(sweep: SweepRecord) -> str:
    """The sweep operator's one-line report."""
    head = "Sweep stopped early: " if sweep.cancelled else ""
    pairs = sweep.extra.get("pairs")
    if pairs:
        meeting = sum(1 for p in pairs if p["first_contact_frame"] is not None)
        head += f"{len(pairs)} pairs, {meeting} meet; shown: "
    if sweep.first_contact_frame is None:
        closest = "" if sweep.closest_frame is None else (
            f", closest {sweep.closest_distance:.6g} at frame {sweep.closest_frame:.3f}")
        return f"{head}'{sweep.object_a}' and '{sweep.object_b}' never meet{closest}"
    deepest = "" if sweep.deepest_frame is None else (
        f", deepest {sweep.deepest_depth:.6g} at frame {sweep.deepest_frame:.3f}")
    pair = f"'{sweep.object_a}' and '{sweep.object_b}'"
    return f"{head}{pair} first meet at frame {sweep.first_contact_frame:.3f}{deepest}"
