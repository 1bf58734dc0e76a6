"""The depth interval [depth, depth + gap] and the separating move in the results layer: the readout, the summary
line, the overlay label, the record's fields, the mirror, the list's order and the report.  Pure, no Blender: the
records are hand-made from `core.Contact`s with known values, and every expected text is worked out by hand
(unit system None: plain numbers; METRIC and IMPERIAL through the fallback formatter, as without bpy)."""
import csv
import io
import json
from types import SimpleNamespace

import numpy as np
import pytest

from tests.addon_package import addon_module

text = addon_module("results.text")
report = addon_module("results.report")
record_module = addon_module("results.record")
scene = addon_module("results.scene")
overlay = addon_module("panels.overlay")
core = addon_module("core")

METRIC = SimpleNamespace(system="METRIC", scale_length=1.0, length_unit="METERS")
IMPERIAL = SimpleNamespace(system="IMPERIAL", scale_length=1.0, length_unit="FEET")


def intersecting(depth, upper, scale=1.0, name="A", separation=None):
    """A's and B's record for an intersecting answer with the interval [depth, upper]; the separating move is
    along the normal +z unless given."""
    move = (0.0, 0.0, upper) if separation is None else separation
    contact = core.Contact(status=core.Status.INTERSECTING, distance=-depth, normal=(0.0, 0.0, 1.0),
                           point_a=(0.0, 0.0, depth), point_b=(0.0, 0.0, 0.0), scale=scale,
                           touching_tolerance=1e-9 * scale, gap=upper - depth, separation=move)
    return record_module.CheckRecord(contact=contact, object_a=name, object_b="B")


def separated(distance, gap=0.0):
    contact = core.Contact(status=core.Status.SEPARATED, distance=distance, normal=(1.0, 0.0, 0.0),
                           point_a=(0.0, 0.0, 0.0), point_b=(distance, 0.0, 0.0), scale=1.0,
                           touching_tolerance=1e-9, gap=gap)
    return record_module.CheckRecord(contact=contact, object_a="A", object_b="B")


def depth_row(record, units=None):
    return {row.label: row.value for row in text.readout_rows(record, units)}["Depth"]


# ------------------------------------------------------------------------------------------------- the words

def test_an_exact_depth_is_one_number():
    assert depth_row(intersecting(0.25, 0.25)) == "0.25"
    assert depth_row(intersecting(0.523, 0.523), METRIC) == "52.3 cm"


def test_a_gap_inside_the_touching_band_is_one_number():
    """Scale 4: the band is 4e-9; a gap of 3e-9 is inside it (the lower end is shown), 5e-9 is not."""
    inside = intersecting(0.25, 0.25 + 3e-9, scale=4.0)
    assert inside.depth_exact and depth_row(inside) == "0.25"
    outside = intersecting(0.25, 0.25 + 5e-9, scale=4.0)
    assert not outside.depth_exact
    # 0.250000005 reads as 0.25 up to 7 digits and as 0.25000001 with 8: the ends get 8, the first count of
    # digits that tells them apart
    assert depth_row(outside) == "0.25 – 0.25000001"


def test_an_interval_in_plain_numbers():
    assert depth_row(intersecting(0.25, 0.26)) == "0.25 – 0.26"


def test_an_interval_writes_a_shared_unit_once():
    assert depth_row(intersecting(0.523, 0.531), METRIC) == "52.3 – 53.1 cm"
    assert depth_row(intersecting(1.5 * 0.3048, 1.75 * 0.3048), IMPERIAL) == "1.5 – 1.75'"


def test_an_interval_across_two_units_keeps_both():
    assert depth_row(intersecting(0.0099, 0.012), METRIC) == "9.9 mm – 1.2 cm"


def test_the_interval_replaces_the_accuracy_row_of_an_intersecting_record():
    labels = [row.label for row in text.readout_rows(intersecting(0.25, 0.26))]
    assert "Accuracy" not in labels
    rows = {row.label: row.value for row in text.readout_rows(separated(1.0, gap=0.01))}
    assert rows["Distance"] == "1" and rows["Accuracy"] == "± 0.01"


def test_summary_line_and_overlay_label_show_the_interval():
    record = intersecting(0.523, 0.531)
    assert text.summary_line(record, METRIC) == "'A' and 'B' intersect: depth 52.3 – 53.1 cm"
    assert overlay.build_draw_data(record, METRIC).labels[0].text == "depth 52.3 – 53.1 cm"
    exact = intersecting(0.25, 0.25)
    assert text.summary_line(exact) == "'A' and 'B' intersect: depth 0.25"
    assert overlay.build_draw_data(exact).labels[0].text == "depth 0.25"


def test_clipboard_text_has_the_upper_end_and_the_move():
    lines = text.result_text(intersecting(0.25, 0.5, separation=(0.3, 0.0, 0.4))).splitlines()
    assert "depth = 0.25" in lines and "depth_upper = 0.5" in lines
    assert "separation = (0.3, 0.0, 0.4)" in lines


# ------------------------------------------------------------------------------------------------- the record

def test_record_carries_the_upper_end_and_the_move():
    record = intersecting(0.25, 0.5, separation=(0.3, 0.0, 0.4))  # |(0.3, 0, 0.4)| = 0.5 = the upper end
    assert record.depth == 0.25 and record.depth_upper == 0.5
    assert record.separation.tolist() == [0.3, 0.0, 0.4]
    apart = separated(1.0, gap=0.01)
    assert apart.depth_upper == 0.0 and apart.separation.tolist() == [0.0, 0.0, 0.0] and apart.depth_exact


def test_mirror_fields_carry_the_upper_end_and_the_move():
    fields = record_module.mirror_fields(intersecting(0.25, 0.5, separation=(0.3, 0.0, 0.4)))
    assert fields["depth"] == 0.25 and fields["depth_upper"] == 0.5
    assert fields["separation"] == (0.3, 0.0, 0.4)
    empty = record_module.mirror_fields(None)
    assert empty["depth_upper"] == 0.0 and empty["separation"] == (0.0, 0.0, 0.0)


def test_the_list_sorts_by_the_certified_depth_then_the_upper_end():
    """(lower, upper): the larger lower end first whatever the upper ends; equal lower ends, the larger upper
    end first; then touching, then separated."""
    records = [intersecting(0.2, 0.9, name="wide"), intersecting(0.3, 0.3, name="deep"),
               intersecting(0.2, 0.4, name="narrow"), separated(0.0 + 1e-3), intersecting(0.2, 0.2, name="exact")]
    records[3] = record_module.CheckRecord(contact=records[3].contact, object_a="apart", object_b="B",
                                           clearance=0.01)
    assert [r.object_a for r in scene.listed(records)] == ["deep", "wide", "narrow", "exact", "apart"]


# ------------------------------------------------------------------------------------------------- the report

def _report(records):
    return report.report_dict(records, file="/x/scene.blend", scene="Scene", mode="EXACT", clearance=0.0,
                              date="2026-01-01T00:00:00+00:00", unit_settings=METRIC)


def test_json_report_has_the_upper_end_and_the_move():
    data = json.loads(json.dumps(_report([intersecting(0.25, 0.5, separation=(0.3, 0.0, 0.4))])))
    entry = data["results"][0]
    assert (entry["depth"], entry["depth_upper"], entry["separation"]) == (0.25, 0.5, [0.3, 0.0, 0.4])


def test_csv_report_has_the_upper_end_and_the_move_as_its_last_columns():
    assert report.CSV_COLUMNS[-4:] == ("depth_upper", "separation_x", "separation_y", "separation_z")
    data = _report([intersecting(0.25, 0.5, separation=(0.3, 0.0, 0.4)), separated(0.5)])
    buffer = io.StringIO()
    csv.writer(buffer).writerows(report.csv_rows(data))
    table = [row for row in csv.reader(io.StringIO(buffer.getvalue())) if row and not row[0].startswith("#")]
    assert tuple(table[0]) == report.CSV_COLUMNS
    deep, apart = (dict(zip(table[0], row)) for row in table[1:])
    assert [float(deep[k]) for k in ("depth", "depth_upper", "separation_x", "separation_y", "separation_z")] == \
        [0.25, 0.5, 0.3, 0.0, 0.4]
    assert [float(apart[k]) for k in ("depth_upper", "separation_x", "separation_y", "separation_z")] == [0.0] * 4


@pytest.mark.parametrize("depth, upper", [(0.25, 0.26), (1e-7, 1.2)])
def test_interval_text_reads_back_to_its_ends(depth, upper):
    """Each end, read back from the plain-number text, is the value to the digits shown."""
    low, high = depth_row(intersecting(depth, upper)).split(" – ")
    assert float(low) == pytest.approx(depth, rel=1e-4) and float(high) == pytest.approx(upper, rel=1e-4)
    assert np.isfinite(float(low)) and float(low) <= float(high)
