# SPDX-License-Identifier: GPL-3.0-or-later
"""Scene-check reports as plain data (pure: no Blender): one dict per record, the whole report, and CSV rows.

Lengths are in Blender units, the units of the objects' coordinates and of the scene's clearance; the report's
`units` block says how the scene shows them (`scale_length` x value = metres for a metric or imperial scene).  The
layout is described in docs/scene-check.md, section "Reports".
"""
from __future__ import annotations

import csv
import json

from .record import CheckRecord
from .text import format_length

__all__ = ["REPORT_VERSION", "record_dict", "report_dict", "CSV_COLUMNS", "csv_rows", "write_json", "write_csv",
           "read_json"]

REPORT_VERSION = 1


def _vector(values) -> list:
    return [float(v) + 0.0 for v in values]


def record_dict(record: CheckRecord, unit_settings=None) -> dict:
    """One result as JSON-ready values."""
    c = record.contact
    return {
        "object_a": record.object_a,
        "object_b": record.object_b,
        "status": c.status.name,
        "distance": float(c.distance) + 0.0,
        "depth": float(c.depth) + 0.0,
        # the depth interval's upper end: `separation` (B's world move that frees it) has this length
        "depth_upper": float(record.depth_upper) + 0.0,
        "separation": _vector(c.separation),
        "distance_text": format_length(c.distance, unit_settings),
        "within_clearance": bool(record.within_clearance),
        "point_a": _vector(c.point_a),
        "point_b": _vector(c.point_b),
        "normal": _vector(c.normal),
        "containment": c.containment.name if c.containment is not None else None,
        "mode": record.mode.name,
        "stale": bool(record.is_stale),
        "converged": bool(c.converged),
        # world units³; null when not measured (the setting off, not Exact mode) or undefined (an open mesh)
        "overlap_volume": None if record.overlap_volume is None else float(record.overlap_volume),
        # false when the volume is an estimate the engine could not certify (see core.Overlap.exact)
        "overlap_exact": bool(record.overlap_exact),
    } | _one_object(record)


def _one_object(record: CheckRecord) -> dict:
    """Check Object rows: which parts (part_a, part_b, as `core.mesh.loose_parts` numbers them), or for the
    self-intersection row the number of crossing triangle pairs; nothing for a pair of objects."""
    if not record.is_one_object:
        return {}
    if record.is_self_intersection:
        return {"self_intersections": len(record.contact.intersection)}
    return {"part_a": int(record.part_a), "part_b": int(record.part_b)}


def _units(unit_settings) -> dict:
    if unit_settings is None:
        return {"system": "NONE", "scale_length": 1.0, "length_unit": ""}
    return {"system": str(getattr(unit_settings, "system", "NONE")),
            "scale_length": float(getattr(unit_settings, "scale_length", 1.0) or 1.0),
            "length_unit": str(getattr(unit_settings, "length_unit", ""))}


def report_dict(records, *, file: str, scene: str, mode: str, clearance: float, date: str, scope: str = "",
                unit_settings=None, objects: int | None = None, pairs_checked: int | None = None,
                cancelled: bool = False, skipped=(), scripts_trusted: bool | None = None) -> dict:
    """The whole report: where and how the check ran, then one entry per listed pair (worst first).
    `scripts_trusted`: whether the file was opened with its Python allowed to run (the command line says; a
    check inside Blender's window leaves it out)."""
    records = list(records)
    return {
        "version": REPORT_VERSION,
        "file": file,
        "scene": scene,
        "date": date,
        "scope": scope,
        "mode": mode,
        "clearance": float(clearance),
        "units": _units(unit_settings),
        "objects": objects,
        "pairs_checked": pairs_checked,
        "cancelled": bool(cancelled),
        "skipped": list(skipped),
        **({} if scripts_trusted is None else {"scripts_trusted": bool(scripts_trusted)}),
        "count": len(records),
        "results": [record_dict(r, unit_settings) for r in records],
    }


CSV_COLUMNS = ("object_a", "object_b", "status", "distance", "depth", "within_clearance",
               "point_a_x", "point_a_y", "point_a_z", "point_b_x", "point_b_y", "point_b_z",
               "normal_x", "normal_y", "normal_z", "containment", "mode", "stale", "part_a", "part_b",
               "overlap_volume", "overlap_exact", "depth_upper", "separation_x", "separation_y", "separation_z")
"""New columns go at the end, so that a reader of an older report's columns by position still reads them."""
_HEADER_KEYS = ("file", "scene", "date", "scope", "mode", "clearance", "scripts_trusted")


def csv_rows(report: dict) -> list[list]:
    """The report as CSV rows: '# key: value' comment lines for the header, the column names, one row per pair."""
    rows = [[f"# {key}: {report[key]!s}"] for key in _HEADER_KEYS if key in report]
    units = report["units"]
    rows.append([f"# units: {units['system']} scale_length={units['scale_length']!r} {units['length_unit']}"])
    rows.append(list(CSV_COLUMNS))
    for r in report["results"]:
        rows.append([r["object_a"], r["object_b"], r["status"], repr(r["distance"]), repr(r["depth"]),
                     int(r["within_clearance"]), *map(repr, r["point_a"]), *map(repr, r["point_b"]),
                     *map(repr, r["normal"]), r["containment"] or "", r["mode"], int(r["stale"]),
                     r.get("part_a", ""), r.get("part_b", ""),
                     "" if r.get("overlap_volume") is None else repr(r["overlap_volume"]),
                     int(r.get("overlap_exact", True)),
                     repr(r.get("depth_upper", r["depth"])), *map(repr, r.get("separation", (0.0, 0.0, 0.0)))])
    return rows


def write_json(path: str, report: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2)
        fh.write("\n")


def read_json(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def write_csv(path: str, report: dict) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(csv_rows(report))
