"""results.scene (what a scene check lists, in which order) and results.report (the report as data): pure, no
Blender.  Records are hand-made from core.Contacts with known values."""
import csv
import io
import json
from types import SimpleNamespace

import numpy as np

from tests.addon_package import addon_module

scene = addon_module("results.scene")
report = addon_module("results.report")
record_module = addon_module("results.record")
core = addon_module("core")


def make(status, distance, clearance=0.0, a="A", b="B", beyond=False):
    contact = core.Contact(status=core.Status[status], distance=distance, normal=np.array([0.0, 0.0, 1.0]),
                           point_a=np.array([1.0, 2.0, 3.0]), point_b=np.array([1.0, 2.0, 3.0 + distance]),
                           scale=2.0, touching_tolerance=2e-9, beyond_max_distance=beyond)
    return record_module.CheckRecord(contact=contact, object_a=a, object_b=b, clearance=clearance)


def test_listed_statuses_and_the_clearance_boundary():
    assert scene.is_listed(make("INTERSECTING", -0.1))
    assert scene.is_listed(make("TOUCHING", 1e-10)) and not scene.is_listed(make("TOUCHING", 0.0), True)
    assert scene.is_listed(make("SEPARATED", 0.25, clearance=0.25))  # exactly at the clearance
    assert not scene.is_listed(make("SEPARATED", np.nextafter(0.25, 1.0), clearance=0.25))
    assert not scene.is_listed(make("SEPARATED", 0.5, clearance=0.0))
    assert not scene.is_listed(make("SEPARATED", 0.3, clearance=0.5, beyond=True))  # a lower bound only


def test_listed_is_worst_first():
    records = [make("SEPARATED", 0.2, 0.5, "s2"), make("INTERSECTING", -0.1, 0.5, "i1"),
               make("TOUCHING", 0.0, 0.5, "t"), make("INTERSECTING", -0.3, 0.5, "i3"),
               make("SEPARATED", 0.1, 0.5, "s1"), make("SEPARATED", 0.7, 0.5, "out")]
    assert [r.object_a for r in scene.listed(records)] == ["i3", "i1", "t", "s1", "s2"]


def test_summary_line():
    line = scene.run_summary(3, 10, 5, 5, skipped=2, box_pairs=9)
    assert line == "3 clashes among 10 objects (9 pairs with close boxes, 5 checked exactly; 2 without geometry " \
                   "skipped)"
    assert scene.run_summary(0, 2, 1, 4, cancelled=True).startswith("Cancelled: no clashes among 2 objects (1 of 4")


def _report():
    records = [make("INTERSECTING", -0.125, 0.5, "Pipe", "Wall"), make("SEPARATED", 0.375, 0.5, "Duct", "Beam")]
    units = SimpleNamespace(system="METRIC", scale_length=1.0, length_unit="METERS")
    return records, report.report_dict(records, file="/x/scene.blend", scene="Scene", mode="HULL", clearance=0.5,
                                       date="2026-01-01T00:00:00+00:00", scope="VISIBLE", unit_settings=units,
                                       objects=7, pairs_checked=4)


def test_report_dict_is_json_and_complete():
    records, data = _report()
    again = json.loads(json.dumps(data))
    assert again == data
    assert (data["file"], data["scene"], data["mode"], data["clearance"], data["scope"]) == \
        ("/x/scene.blend", "Scene", "HULL", 0.5, "VISIBLE")
    assert data["units"] == {"system": "METRIC", "scale_length": 1.0, "length_unit": "METERS"}
    assert data["count"] == 2 and data["objects"] == 7
    first, second = data["results"]
    assert (first["object_a"], first["status"], first["distance"], first["depth"]) == \
        ("Pipe", "INTERSECTING", -0.125, 0.125)
    assert first["point_b"] == [1.0, 2.0, 2.875] and first["normal"] == [0.0, 0.0, 1.0]
    assert second["within_clearance"] is True and first["within_clearance"] is False
    assert first["containment"] is None


def test_csv_rows_read_back():
    _, data = _report()
    text = io.StringIO()
    csv.writer(text).writerows(report.csv_rows(data))
    rows = [r for r in csv.reader(io.StringIO(text.getvalue())) if r and not r[0].startswith("#")]
    assert tuple(rows[0]) == report.CSV_COLUMNS
    values = dict(zip(rows[0], rows[2]))
    assert values["object_a"] == "Duct" and float(values["distance"]) == 0.375
    assert values["within_clearance"] == "1" and float(values["point_b_z"]) == 3.375


def test_summary_line_singular():
    assert scene.run_summary(1, 2, 1, 1, box_pairs=1) == "1 clash among 2 objects (1 pair with close boxes, 1 checked " \
                                                         "exactly)"


def test_scripts_trusted_only_when_the_caller_says():
    """The command line says whether the file's Python was allowed to run; a check in Blender's window does not."""
    records, untold = _report()
    assert "scripts_trusted" not in untold
    assert not any(row[0].startswith("# scripts_trusted") for row in report.csv_rows(untold))
    for trusted in (False, True):
        data = report.report_dict(records, file="/x/scene.blend", scene="Scene", mode="HULL", clearance=0.5,
                                  date="2026-01-01T00:00:00+00:00", scripts_trusted=trusted)
        assert json.loads(json.dumps(data))["scripts_trusted"] is trusted
        assert [f"# scripts_trusted: {trusted}"] in report.csv_rows(data)
