# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Object as plain data (pure: no Blender): one object on its own, for 3D printing.

- `ObjectCheck`: what Check Object found on one object: where its surface crosses itself (the curve, and the
  number of crossing triangle pairs), how many loose parts it has, the clearance used, and how many pairs of parts
  were listed.  `clean` when nothing was found.
- `object_records(check, gaps, ...)`: the rows of the results list, as `CheckRecord`s whose A and B are the same
  object: first the self-intersection row (when the surface crosses itself: its `contact.intersection` is the
  curve), then one row per `core.mesh.PartGap` (parts `part_a`, `part_b`), worst first.  Each row's contact
  follows core/contact.py's conventions: separated or touching, `point_b - point_a = distance x normal`;
  intersecting, `point_a - point_b = depth x normal`.
- `row_names(record)`: what the results list shows for a row; `summary_line(check, units)`: the status-bar line;
  `mirror_fields(check)`: the Blender mirror's values.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core import Contact, Status
from .record import CheckRecord, Mode
from .text import format_length

__all__ = ["ObjectCheck", "object_records", "row_names", "summary_line", "mirror_fields"]


@dataclass(frozen=True)
class ObjectCheck:
    """One Check Object run."""

    object_name: str
    identity: int = 0
    segments: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 3)), compare=False)
    """(k, 2, 3) world float64 segments where the surface crosses itself (one per crossing triangle pair)."""
    parts: int = 1
    """Loose parts of the object."""
    pairs: int = 0
    """Pairs of parts listed (crossing, touching, or no farther apart than the clearance)."""
    clearance: float = 0.0
    """Blender units."""
    scale: float = 0.0
    """The object's world bounding-box diagonal."""
    time_ms: float = 0.0

    @property
    def self_intersections(self) -> int:
        return int(len(self.segments))

    @property
    def clean(self) -> bool:
        return self.self_intersections == 0 and self.pairs == 0


def _unit(v, fallback=(0.0, 0.0, 1.0)):
    n = float(np.linalg.norm(v))
    return np.asarray(v, float) / n if n > 0.0 and math.isfinite(n) else np.asarray(fallback, float)


def _gap_contact(gap, scale: float, band: float) -> Contact:
    """The `core.Contact` of one listed pair of parts (core/contact.py's conventions)."""
    pa, pb = np.asarray(gap.point_a, float), np.asarray(gap.point_b, float)
    status = gap.status
    if status is Status.INTERSECTING:
        normal = _unit(pa - pb)
        distance = min(float(gap.distance), 0.0)
    else:
        normal = _unit(pb - pa)
        distance = float(gap.distance)
    return Contact(status=status, distance=distance + 0.0, normal=normal, point_a=pa, point_b=pb, scale=scale,
                   touching_tolerance=band, fallback_used=status is Status.INTERSECTING and distance == 0.0)


def object_records(check: ObjectCheck, gaps, *, band: float = 0.0, read_ms: float = 0.0) -> list[CheckRecord]:
    """The results-list rows of a Check Object run (module docstring); `gaps`: `core.mesh.PartGap`s, worst
    first; `band`: the touching band of the object (world units)."""
    common = dict(object_a=check.object_name, object_b=check.object_name, mode=Mode.EXACT,
                  identity_a=check.identity, identity_b=check.identity, read_ms=read_ms, time_ms=check.time_ms,
                  clearance=check.clearance)
    rows = []
    if check.self_intersections:
        first = np.asarray(check.segments[0, 0], float)
        curve = Contact(status=Status.INTERSECTING, distance=0.0, normal=np.array([0.0, 0.0, 1.0]), point_a=first,
                        point_b=first, scale=check.scale, touching_tolerance=band, intersection=check.segments,
                        fallback_used=True)
        rows.append(CheckRecord(contact=curve, **common))
    for gap in gaps:
        rows.append(CheckRecord(contact=_gap_contact(gap, check.scale, band), part_a=int(gap.part_a),
                                part_b=int(gap.part_b), **common))
    return rows


def row_names(record: CheckRecord) -> tuple[str, str]:
    """The two names the results list shows for a row: A and B, or for a Check Object row the two parts, or the
    self-intersections and their count."""
    if not record.is_one_object:
        return record.object_a, record.object_b
    if record.is_self_intersection:
        return "Self-intersections", str(len(record.contact.intersection))
    return f"Part {record.part_a}", f"Part {record.part_b}"


def summary_line(check: ObjectCheck, unit_settings=None) -> str:
    """One line for the status bar: what Check Object found on the object."""
    clearance = format_length(check.clearance, unit_settings)
    parts = f"{check.parts} loose part{'s' if check.parts != 1 else ''}"
    if check.clean:
        return (f"'{check.object_name}' is clean: no self-intersections, {parts}, none closer than {clearance}")
    crossings = (f"{check.self_intersections} self-intersection{'s' if check.self_intersections != 1 else ''}"
                 if check.self_intersections else "no self-intersections")
    pairs = f"{check.pairs} pair{'s' if check.pairs != 1 else ''} of parts closer than {clearance}"
    return f"'{check.object_name}': {crossings}; {pairs} ({parts})"


def mirror_fields(check: ObjectCheck | None) -> dict:
    """The values of the Blender mirror (`CollisionObjectCheck`), by property name."""
    if check is None:
        return {"has_result": False, "object_name": "", "self_intersections": 0, "parts": 0, "pairs": 0,
                "clearance": 0.0, "clean": False}
    return {"has_result": True, "object_name": check.object_name, "self_intersections": check.self_intersections,
            "parts": int(check.parts), "pairs": int(check.pairs), "clearance": float(check.clearance),
            "clean": check.clean}
