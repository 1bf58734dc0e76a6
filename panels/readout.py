# SPDX-License-Identifier: GPL-3.0-or-later
"""The text of a result, as the sidebar shows it: pure functions, no Blender needed.

`readout_lines(view, unit_settings)` gives the (label, value) rows of the panel; the demo prints them, the copy
operator and the overlay label reuse the same formatting.  `view` is any object with the fields of
`operators.state.ResultView`; `unit_settings` is the scene's `UnitSettings` or anything with `system` and
`scale_length` (None: plain numbers).  Lengths are shown like Blender shows them: `bpy.utils.units.to_string`
on value x unit scale when bpy is there, with a fallback that also keeps tiny lengths (which `to_string`
rounds to 0) readable.
"""
from __future__ import annotations

import math
import re

__all__ = ["format_length", "format_vector", "readout_lines", "summary_line", "result_text", "STATUS_LABELS"]

STATUS_LABELS = {
    "NONE": "No result",
    "SEPARATED": "Separated",
    "TOUCHING": "Touching",
    "INTERSECTING": "Intersecting",
}

PRECISION = 5
"""Significant digits of a displayed length (Blender's `to_string` precision)."""

_LEADING_NUMBER = re.compile(r"^\s*-?(\d+\.?\d*|\.\d+)")


def _unit_system(unit_settings) -> tuple[str, float]:
    if unit_settings is None:
        return "NONE", 1.0
    system = str(getattr(unit_settings, "system", "NONE"))
    scale = float(getattr(unit_settings, "scale_length", 1.0) or 1.0)
    return system, scale


def _blender_to_string(system: str, value: float, precision: int) -> str | None:
    try:
        from bpy.utils import units  # noqa: PLC0415  (optional: not there outside Blender)
    except ImportError:
        return None
    try:
        return units.to_string(system, "LENGTH", value, precision=precision)
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


def _status(view) -> str:
    status = getattr(view, "status", "NONE")
    return str(getattr(status, "name", status))


def readout_lines(view, unit_settings=None) -> list[tuple[str, str]]:
    """The panel's rows for a result, as (label, value) pairs; [("Status", "No result")] when there is none."""
    status = _status(view) if view is not None else "NONE"
    if status == "NONE":
        return [("Status", STATUS_LABELS["NONE"])]
    lines = [
        ("A", view.object_a),
        ("B", view.object_b),
        ("Status", STATUS_LABELS.get(status, status.title())),
    ]
    if status == "INTERSECTING":
        lines.append(("Depth", format_length(view.depth, unit_settings)))
    else:
        lines.append(("Distance", format_length(view.distance, unit_settings)))
    lines.append(("Normal", format_direction(view.normal)))
    if status == "INTERSECTING":
        lines.append(("Witness on A", format_vector(view.point_a, unit_settings)))
        lines.append(("Witness on B", format_vector(view.point_b, unit_settings)))
    elif status == "SEPARATED":
        lines.append(("Closest on A", format_vector(view.point_a, unit_settings)))
        lines.append(("Closest on B", format_vector(view.point_b, unit_settings)))
    else:
        contact = tuple(0.5 * (float(p) + float(q)) for p, q in zip(view.point_a, view.point_b))
        lines.append(("Contact", format_vector(contact, unit_settings)))
    lines.append(("Iterations", f"GJK {int(view.gjk_iterations)}, EPA {int(view.epa_iterations)}"))
    lines.append(("Time", f"{float(view.time_ms):.3g} ms"))
    flags = []
    if not getattr(view, "converged", True):
        flags.append("not converged")
    if getattr(view, "iteration_cap_hit", False):
        flags.append("iteration cap hit")
    if getattr(view, "fallback_used", False):
        flags.append("fallback used")
    lines.append(("Quality", ", ".join(flags) if flags else "converged"))
    if getattr(view, "is_stale", False):
        lines.append(("Stale", "A or B changed since the check"))
    return lines


def summary_line(view, unit_settings=None) -> str:
    """One line for the operator's report."""
    status = _status(view) if view is not None else "NONE"
    if status == "NONE":
        return "No collision result"
    pair = f"'{view.object_a}' and '{view.object_b}'"
    if status == "INTERSECTING":
        return f"{pair} intersect: depth {format_length(view.depth, unit_settings)}"
    if status == "TOUCHING":
        return f"{pair} touch (distance {format_length(view.distance, unit_settings)})"
    return f"{pair} are separated by {format_length(view.distance, unit_settings)}"


def result_text(view, unit_settings=None) -> str:
    """The clipboard text: the panel's rows, then the exact values (world space, Blender units, repr floats)."""
    rows = [f"{label}: {value}" for label, value in readout_lines(view, unit_settings)]
    if view is None or _status(view) == "NONE":
        return "\n".join(rows) + "\n"
    exact = [
        "",
        "# exact values (Blender units, world space)",
        f"status = {_status(view)}",
        f"distance = {float(view.distance)!r}",
        f"depth = {float(view.depth)!r}",
        f"normal = {tuple(float(c) + 0.0 for c in view.normal)!r}",
        f"point_a = {tuple(float(c) + 0.0 for c in view.point_a)!r}",
        f"point_b = {tuple(float(c) + 0.0 for c in view.point_b)!r}",
    ]
    return "\n".join(rows + exact) + "\n"
