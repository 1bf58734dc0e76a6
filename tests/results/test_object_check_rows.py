"""Check Object's rows, words, mirror, report entries and draw data (pure, no Blender), on hand-made gaps.

The rows follow core/contact.py's conventions: a separated pair of parts has point_b - point_a = distance x normal;
an intersecting one point_a - point_b = depth x normal; the self-intersection row carries the crossing curve.
"""
from types import SimpleNamespace

import numpy as np

from tests.addon_package import addon_module

object_check = addon_module("results.object_check")
report = addon_module("results.report")
overlay = addon_module("panels.overlay")
record_module = addon_module("results.record")
core = addon_module("core")

METRIC = SimpleNamespace(system="METRIC", scale_length=1.0)


def gap(a, b, distance, pa, pb, status):
    return core.mesh.PartGap(a, b, distance, np.array(pa, float), np.array(pb, float), core.Status[status])


SEGMENTS = np.array([[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], [[1.0, 0.0, 0.0], [1.0, 2.0, 0.0]]])
GAPS = [gap(0, 2, -0.25, [1.0, 1.0, 1.0], [1.0, 1.0, 0.75], "INTERSECTING"),
        gap(1, 3, 0.002, [0.0, 0.0, 0.0], [0.0, 0.002, 0.0], "SEPARATED")]


def check(segments=SEGMENTS, pairs=2):
    return object_check.ObjectCheck(object_name="Hinge", identity=7, segments=segments, parts=4, pairs=pairs,
                                     clearance=0.003, scale=3.0)


def test_rows_self_intersection_first_then_the_pairs():
    rows = object_check.object_records(check(), GAPS, band=3e-9)
    assert [(r.part_a, r.part_b) for r in rows] == [(-1, -1), (0, 2), (1, 3)]
    assert all(r.is_one_object and r.object_a == r.object_b == "Hinge" for r in rows)
    assert rows[0].is_self_intersection and not rows[1].is_self_intersection
    assert rows[0].status is core.Status.INTERSECTING
    np.testing.assert_array_equal(rows[0].contact.intersection, SEGMENTS)
    assert object_check.row_names(rows[0]) == ("Self-intersections", "2")
    assert object_check.row_names(rows[2]) == ("Part 1", "Part 3")


def test_rows_keep_the_contact_conventions():
    _, crossing, apart = object_check.object_records(check(), GAPS, band=3e-9)
    c = apart.contact
    np.testing.assert_allclose(c.point_b - c.point_a, c.distance * np.asarray(c.normal), atol=1e-15)
    np.testing.assert_allclose(c.normal, [0.0, 1.0, 0.0])
    c = crossing.contact
    assert c.distance == -0.25 and c.depth == 0.25
    np.testing.assert_allclose(c.point_a - c.point_b, c.depth * np.asarray(c.normal), atol=1e-15)
    assert apart.within_clearance and not crossing.within_clearance


def test_clean_object():
    clean = check(np.zeros((0, 2, 3)), pairs=0)
    assert clean.clean and object_check.object_records(clean, [], band=0.0) == []
    line = object_check.summary_line(clean, METRIC)
    assert "is clean" in line and "4 loose parts" in line and "3 mm" in line
    fields = object_check.mirror_fields(clean)
    assert fields["clean"] and fields["has_result"] and fields["self_intersections"] == 0


def test_summary_and_mirror_of_findings():
    found = check()
    assert not found.clean
    line = object_check.summary_line(found, METRIC)
    assert "2 self-intersections" in line and "2 pairs of parts closer than 3 mm" in line
    assert object_check.mirror_fields(found) == {"has_result": True, "object_name": "Hinge",
                                                 "self_intersections": 2, "parts": 4, "pairs": 2,
                                                 "clearance": 0.003, "clean": False}
    assert object_check.mirror_fields(None)["has_result"] is False


def test_mirror_and_report_name_the_parts():
    rows = object_check.object_records(check(), GAPS, band=3e-9)
    fields = record_module.mirror_fields(rows[2])
    assert (fields["part_a"], fields["part_b"]) == (1, 3)
    assert record_module.mirror_fields(None)["part_a"] == -1
    entries = [report.record_dict(r, METRIC) for r in rows]
    assert entries[0]["self_intersections"] == 2 and "part_a" not in entries[0]
    assert (entries[2]["part_a"], entries[2]["part_b"]) == (1, 3)
    assert entries[2]["distance_text"] == "2 mm"
    table = report.csv_rows(report.report_dict(rows, file="", scene="Scene", mode="EXACT", clearance=0.003,
                                               date="2026-11-27", unit_settings=METRIC))
    header = table[table.index(list(report.CSV_COLUMNS))]
    body = [dict(zip(header, row)) for row in table[table.index(header) + 1:]]
    assert [(r["part_a"], r["part_b"]) for r in body] == [("", ""), (0, 2), (1, 3)]


def test_readout_names_the_parts():
    text = addon_module("results.text")
    rows = object_check.object_records(check(), GAPS, band=3e-9)
    readout = {row.label: row.value for row in text.readout_rows(rows[2], METRIC)}
    assert (readout["A"], readout["B"]) == ("Hinge (part 1)", "Hinge (part 3)")
    assert readout["Distance"] == "2 mm"


def test_draw_data_of_the_rows():
    rows = object_check.object_records(check(), GAPS, band=3e-9)
    curve = overlay.build_draw_data(rows[0], METRIC)
    assert not curve.lines and not curve.points and curve.labels[0].text == "2 self-intersections"
    np.testing.assert_array_equal(curve.curve, SEGMENTS.reshape(-1, 3))
    pair = overlay.build_draw_data(rows[2], METRIC)
    assert {label.text for label in pair.labels} >= {"part 1", "part 3", "2 mm"}
    # a pair row active: the self-intersection curve stays drawn
    view = record_module.ResultsView(records=tuple(rows), active_index=2, show_overlay=True, units=METRIC)
    drawn = overlay.build_view_draw_data(view)
    np.testing.assert_array_equal(drawn.curve, SEGMENTS.reshape(-1, 3))
