# SPDX-License-Identifier: GPL-3.0-or-later
"""The words of a result: pure functions, no Blender needed.

`readout_rows(record, unit_settings)` gives the sidebar's typed rows (`Row(label, value, kind)`); the demo prints
them, the copy operator and the overlay label reuse the same formatting.  `record` is a `results.record.CheckRecord`
(or None: no result); `unit_settings` is the scene's `UnitSettings` or anything with `system` and `scale_length`
(None: plain numbers).  Lengths are shown like Blender shows them: `bpy.utils.units.to_string` on value x unit
scale when bpy is there, with a fallback that also keeps tiny lengths (which `to_string` rounds to 0) readable.
"""
from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass

from ..core import Containment, Status
from .status import style

__all__ = ["RowKind", "Row", "format_length", "format_interval", "depth_text", "format_volume", "format_vector", "format_direction", "readout_rows",
           "summary_line", "result_text", "containment_words", "overlap_words", "use_blender_units"]


class RowKind(enum.Enum):
    """How the sidebar lays a row out."""

    STATUS = "status"
    """The status word with its icon."""
    VALUE = "value"
    """Label and value side by side."""
    WIDE = "wide"
    """A value too wide to share a line with its label (a point, a direction, a depth interval, the overlap with
    its share): the label on one line, the value on the next."""
    WARNING = "warning"
    """Something the user must know to trust the numbers (stale, an open mesh): shown with a warning icon."""


@dataclass(frozen=True)
class Row:
    label: str
    value: str
    kind: RowKind = RowKind.VALUE

PRECISION = 5
"""Significant digits of a displayed length (Blender's `to_string` precision)."""

_LEADING_NUMBER = re.compile(r"^\s*-?(\d+\.?\d*|\.\d+)")


def _unit_system(unit_settings) -> tuple[str, float]:
    if unit_settings is None:
        return "NONE", 1.0
    system = str(getattr(unit_settings, "system", "NONE"))
    scale = float(getattr(unit_settings, "scale_length", 1.0) or 1.0)
    return system, scale


_to_string = None
"""Blender's `bpy.utils.units.to_string`, handed over by the add-on at registration (`use_blender_units`); this
module never imports Blender, and without it lengths use the fallback below."""


def use_blender_units(to_string) -> None:
    """Format lengths with Blender's own unit formatter (None: the fallback only)."""
    global _to_string
    _to_string = to_string


def _blender_to_string(system: str, value: float, precision: int) -> str | None:
    if _to_string is None:
        return None
    try:
        return _to_string(system, "LENGTH", value, precision=precision)
    except (TypeError, ValueError, RuntimeError):
        return None


def _reads_as_zero(text: str) -> bool:
    match = _LEADING_NUMBER.match(text)
    return match is not None and float(match.group(0)) == 0.0


def _fallback(system: str, value: float, precision: int) -> str:
    magnitude = abs(value)
    if system == "METRIC":
        for factor, suffix in ((1e3, "km"), (1.0, "m"), (1e-2, "cm"), (1e-3, "mm"), (1e-6, "µm")):
            if magnitude >= factor:
                return f"{value / factor:.{precision}g} {suffix}"
        return f"{value / 1e-6:.{precision}g} µm"
    if system == "IMPERIAL":
        if magnitude >= 0.3048:
            return f"{value / 0.3048:.{precision}g}'"
        return f'{value / 0.0254:.{precision}g}"'
    return f"{value:.{precision}g}"


def format_length(value: float, unit_settings=None, precision: int = PRECISION) -> str:
    """A length in the scene's unit system and unit scale, e.g. '25 cm', '1.6404\\'', '0.25'."""
    value = float(value) + 0.0  # + 0.0 turns -0.0 into 0.0
    if not math.isfinite(value):
        return str(value)
    system, scale = _unit_system(unit_settings)
    if system not in ("METRIC", "IMPERIAL"):
        return f"{value:.{precision}g}"  # unit system None: Blender units, no unit scale
    scaled = value * scale
    text = _blender_to_string(system, scaled, precision)
    if text is None or (scaled != 0.0 and _reads_as_zero(text)):
        return _fallback(system, scaled, precision)
    return text.strip()


MAX_INTERVAL_PRECISION = 12
"""Significant digits an interval's two ends may grow to so that they read differently (a narrow interval,
above the touching band, far from zero)."""

_NUMBER_THEN_UNIT = re.compile(r"^(.*\d)(\s*[^\d\s.][^\d]*)$")
"""A length that reads as one number and a unit ('52.3 cm', '3\''): the unit is the second group."""


def format_interval(low: float, high: float, unit_settings=None) -> str:
    """[low, high] in scene units: '52.3 – 53.1 cm', the unit written once when both ends share it ('9.9 mm – 1.2 cm'
    when they do not).  The ends get more digits than `PRECISION` when needed to read differently, so that an
    interval never looks like one number."""
    for precision in range(PRECISION, MAX_INTERVAL_PRECISION + 1):
        first, second = format_length(low, unit_settings, precision), format_length(high, unit_settings, precision)
        if first != second:
            break
    first_parts, second_parts = _NUMBER_THEN_UNIT.match(first), _NUMBER_THEN_UNIT.match(second)
    if first_parts and second_parts and first_parts.group(2).strip() == second_parts.group(2).strip():
        first = first_parts.group(1)
    return f"{first} – {second}"


def depth_text(record, unit_settings=None) -> str:
    """An intersecting record's depth: one length when the interval [depth, depth_upper] is within the touching
    band (`record.depth_exact`), else the interval, e.g. '52.3 – 53.1 cm'."""
    if record.depth_exact:
        return format_length(record.depth, unit_settings)
    return format_interval(record.depth, record.depth_upper, unit_settings)


_VOLUME_UNITS = {"METRIC": ((1e-2, 1.0, "m³"), (1e-8, 1e-6, "cm³"), (0.0, 1e-9, "mm³")),
                 "IMPERIAL": ((1e-2 * 0.3048 ** 3, 0.3048 ** 3, "ft³"), (0.0, 0.0254 ** 3, "in³"))}
"""(from, size, name) per unit system: a volume takes the first unit it reaches `from` in (0.18 m³ rather than
Blender's own choice, 184655 cm³)."""


def format_volume(value: float, unit_settings=None, precision: int = PRECISION) -> str:
    """A volume in the scene's unit system, the unit scale cubed, e.g. '12.3 cm³', '0.18466 m³', '0.5'."""
    value = float(value) + 0.0
    if not math.isfinite(value):
        return str(value)
    system, scale = _unit_system(unit_settings)
    if system not in _VOLUME_UNITS:
        return f"{value:.{precision}g}"  # unit system None: Blender units cubed, no unit scale
    scaled = value * scale ** 3
    units = _VOLUME_UNITS[system]
    _, factor, suffix = units[0] if scaled == 0.0 else next(u for u in units if abs(scaled) >= u[0])
    return f"{scaled / factor:.{precision}g} {suffix}"


def volume_text(record, unit_settings=None) -> str:
    """The measured overlap volume in scene units, 'about ...' when core.overlap could not certify it."""
    text = format_volume(record.overlap_volume, unit_settings)
    return text if record.overlap_exact else f"about {text}"


def overlap_words(record, unit_settings=None) -> str | None:
    """The Overlap row's text: '12.3 cm³, 4 % of B' (the share of the smaller object's volume), 'about ... (not
    exact)' when core.overlap could not certify it, why there is none for an open mesh, or None when it was not
    measured."""
    c = record.contact
    if record.overlap_volume is None:
        open_names = [name for name, is_open in ((record.object_a, c.open_a), (record.object_b, c.open_b))
                      if is_open]
        if record.mode.name == "EXACT" and open_names:
            return f"none: {', '.join(open_names)} is open (no inside)"
        return None
    text = volume_text(record, unit_settings)
    sizes = [(v, "A") for v in (record.volume_a,) if v] + [(v, "B") for v in (record.volume_b,) if v]
    if record.overlap_volume > 0.0 and sizes:
        smaller, which = min(sizes)
        text += f", {100.0 * record.overlap_volume / smaller:.3g} % of {which}"
    if not record.overlap_exact:  # an estimate is never shown as an exact number
        text += " (not exact)"
    return text


def format_vector(vector, unit_settings=None) -> str:
    """A world point as '(x, y, z)' in scene units.  Components below 1e-6 of the largest one are float32 noise
    of the vertex data (e.g. 1.7e-7 on a sphere's equator) and are shown as 0."""
    values = [float(c) for c in vector]
    largest = max((abs(c) for c in values if math.isfinite(c)), default=0.0)
    values = [0.0 if abs(c) < 1e-6 * largest else c for c in values]
    return "(" + ", ".join(format_length(c, unit_settings) for c in values) + ")"


def format_direction(vector) -> str:
    """A unit vector (dimensionless)."""
    return "(" + ", ".join(f"{round(float(c), 4) + 0.0:.4f}" for c in vector) + ")"


def containment_words(containment: Containment | None) -> str | None:
    """'B is inside A' / 'A is inside B', or None."""
    if containment is Containment.B_INSIDE_A:
        return "B is inside A"
    if containment is Containment.A_INSIDE_B:
        return "A is inside B"
    return None


_MODE_WORDS = {"EXACT": "Exact (triangles)", "HULL": "Convex hulls", "LOOSE_PARTS": "Loose parts (hulls)"}


def readout_rows(record, unit_settings=None) -> list[Row]:
    """The sidebar's rows for a record; one STATUS row "No result" when there is none."""
    if record is None:
        return [Row("Status", style(None).word, RowKind.STATUS)]
    c = record.contact
    status = c.status
    parts = record.part_a >= 0  # Check Object: two loose parts of one object
    rows = [
        Row("A", record.object_a + (f" (part {record.part_a})" if parts else "")),
        Row("B", record.object_b + (f" (part {record.part_b})" if parts else "")),
        Row("Status", style(status).word + (" (preview)" if record.preview else ""), RowKind.STATUS),
        Row("Mode", _MODE_WORDS.get(record.mode.name, record.mode.name.title())),
    ]
    inside = containment_words(c.containment)
    if inside:
        rows.append(Row("Inside", inside))
    if status is Status.INTERSECTING:
        rows.append(Row("Depth", depth_text(record, unit_settings),
                        RowKind.VALUE if record.depth_exact else RowKind.WIDE))
    else:
        rows.append(Row("Distance", format_length(c.distance, unit_settings)))
    shared = overlap_words(record, unit_settings)
    if shared is not None:
        rows.append(Row("Overlap", shared, RowKind.WIDE))
    rows.append(Row("Normal", format_direction(c.normal), RowKind.WIDE))
    if status is Status.INTERSECTING:
        rows.append(Row("Witness on A", format_vector(c.point_a, unit_settings), RowKind.WIDE))
        rows.append(Row("Witness on B", format_vector(c.point_b, unit_settings), RowKind.WIDE))
    elif status is Status.SEPARATED:
        rows.append(Row("Closest on A", format_vector(c.point_a, unit_settings), RowKind.WIDE))
        rows.append(Row("Closest on B", format_vector(c.point_b, unit_settings), RowKind.WIDE))
    else:
        contact = tuple(0.5 * (float(p) + float(q)) for p, q in zip(c.point_a, c.point_b))
        rows.append(Row("Contact", format_vector(contact, unit_settings), RowKind.WIDE))
    if len(c.intersection):
        rows.append(Row("Crossing", f"{len(c.intersection)} segments"))
    if c.gjk_iterations or c.epa_iterations:  # the convex solvers ran (a mesh query reports none)
        rows.append(Row("Iterations", f"GJK {int(c.gjk_iterations)}, EPA {int(c.epa_iterations)}"))
    rows.append(Row("Time", f"{float(record.time_ms):.3g} ms"))
    flags = []
    if not c.converged:
        flags.append("not converged")
    if c.iteration_cap_hit:
        flags.append("iteration cap hit")
    if c.fallback_used:
        flags.append("fallback used")
    if c.beyond_max_distance:
        flags.append("stopped beyond the clearance")
    rows.append(Row("Quality", ", ".join(flags) if flags else "converged"))
    if c.gap > c.touching_tolerance and not c.beyond_max_distance and status is not Status.INTERSECTING:
        # an intersecting record's uncertainty is its depth interval, in the Depth row
        rows.append(Row("Accuracy", f"± {format_length(c.gap, unit_settings)}", RowKind.WARNING))
    open_names = [name for name, is_open in ((record.object_a, c.open_a), (record.object_b, c.open_b)) if is_open]
    if open_names:
        rows.append(Row("Open mesh", f"{', '.join(open_names)}: inside/outside not decided", RowKind.WARNING))
    if record.is_stale:
        rows.append(Row("Stale", "A or B changed since the check", RowKind.WARNING))
    return rows


def summary_line(record, unit_settings=None) -> str:
    """One line for the operator's report."""
    if record is None:
        return "No collision result"
    c = record.contact
    pair = f"'{record.object_a}' and '{record.object_b}'"
    if c.status is Status.INTERSECTING:
        inside = containment_words(c.containment)
        extra = f" ({inside})" if inside else ""
        return f"{pair} intersect: depth {depth_text(record, unit_settings)}{extra}"
    if c.status is Status.TOUCHING:
        return f"{pair} touch (distance {format_length(c.distance, unit_settings)})"
    return f"{pair} are separated by {format_length(c.distance, unit_settings)}"


def result_text(record, unit_settings=None) -> str:
    """The clipboard text: the panel's rows, then the exact values (world space, Blender units, repr floats)."""
    rows = [f"{row.label}: {row.value}" for row in readout_rows(record, unit_settings)]
    if record is None:
        return "\n".join(rows) + "\n"
    c = record.contact
    exact = [
        "",
        "# exact values (Blender units, world space)",
        f"status = {c.status.name}",
        f"distance = {float(c.distance)!r}",
        f"depth = {float(c.depth)!r}",
        f"depth_upper = {float(record.depth_upper)!r}",
        f"separation = {tuple(float(x) + 0.0 for x in c.separation)!r}",
        f"normal = {tuple(float(x) + 0.0 for x in c.normal)!r}",
        f"point_a = {tuple(float(x) + 0.0 for x in c.point_a)!r}",
        f"point_b = {tuple(float(x) + 0.0 for x in c.point_b)!r}",
    ]
    if c.containment is not None:
        exact.append(f"containment = {c.containment.name}")
    return "\n".join(rows + exact) + "\n"
