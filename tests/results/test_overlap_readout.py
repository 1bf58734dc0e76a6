"""The Overlap row of the readout and the `overlap_volume` mirror, from hand-made records (no Blender): volumes in
the scene's units (the unit scale cubed), the share of the smaller object, why an open mesh has none, and -1 in
the mirror when nothing was measured."""
from types import SimpleNamespace

import pytest

from tests.addon_package import addon_module

text = addon_module("results.text")
record_module = addon_module("results.record")
core = addon_module("core")


def make_record(mode="EXACT", overlap=None, volume_a=None, volume_b=None, open_a=False, open_b=False, exact=True):
    contact = core.Contact(status=core.Status.INTERSECTING, distance=-0.1, normal=(1.0, 0.0, 0.0),
                           point_a=(0.0, 0.0, 0.0), point_b=(-0.1, 0.0, 0.0), scale=2.0, touching_tolerance=2e-9,
                           open_a=open_a, open_b=open_b)
    return record_module.CheckRecord(contact=contact, object_a="Wall", object_b="Duct",
                                     mode=record_module.Mode[mode], overlap_volume=overlap, volume_a=volume_a,
                                     volume_b=volume_b, overlap_exact=exact)


def rows(record, units=None):
    return {row.label: row.value for row in text.readout_rows(record, units)}


METRIC = SimpleNamespace(system="METRIC", scale_length=1.0)
CENTIMETRES = SimpleNamespace(system="METRIC", scale_length=0.01)
IMPERIAL = SimpleNamespace(system="IMPERIAL", scale_length=1.0)


@pytest.mark.parametrize("value, units, expected", [
    (0.5, None, "0.5"),
    (2.0, METRIC, "2 m³"),
    (0.184655, METRIC, "0.18466 m³"),
    (1.23e-5, METRIC, "12.3 cm³"),
    (4e-9, METRIC, "4 mm³"),
    (0.0, METRIC, "0 m³"),
    (12.3, CENTIMETRES, "12.3 cm³"),  # 12.3 Blender units³ of 1 cm each
    (0.3048 ** 3 * 2, IMPERIAL, "2 ft³"),
    (0.0254 ** 3 * 5, IMPERIAL, "5 in³"),
    (0.0254 ** 3 * 5e-3, IMPERIAL, "0.005 in³"),
])
def test_volumes_in_scene_units(value, units, expected):
    assert text.format_volume(value, units) == expected


def test_overlap_row_gives_the_share_of_the_smaller_object():
    record = make_record(overlap=1.23e-5, volume_a=2.0, volume_b=3.075e-4)
    assert rows(record, METRIC)["Overlap"] == "12.3 cm³, 4 % of B"
    record = make_record(overlap=0.5, volume_a=1.0, volume_b=8.0)
    assert rows(record)["Overlap"] == "0.5, 50 % of A"


def test_no_overlap_reads_zero_without_a_share():
    assert rows(make_record(overlap=0.0, volume_a=1.0, volume_b=1.0), METRIC)["Overlap"] == "0 m³"


def test_an_open_mesh_says_why_there_is_no_overlap():
    assert rows(make_record(open_b=True))["Overlap"] == "none: Duct is open (no inside)"
    assert "Overlap" not in rows(make_record(mode="HULL", open_b=True))
    assert "Overlap" not in rows(make_record())  # not measured: no row


def test_mirror_carries_the_volume_or_minus_one():
    assert record_module.mirror_fields(make_record(overlap=0.25, volume_a=1.0, volume_b=1.0))["overlap_volume"] == 0.25
    assert record_module.mirror_fields(make_record())["overlap_volume"] == -1.0
    assert record_module.mirror_fields(None)["overlap_volume"] == -1.0


def test_a_volume_core_could_not_certify_reads_as_an_estimate():
    record = make_record(overlap=0.5, volume_a=1.0, volume_b=2.0, exact=False)
    assert text.overlap_words(record, METRIC) == "about 0.5 m³, 50 % of A (not exact)"
    assert text.overlap_words(make_record(overlap=0.5, volume_a=1.0, volume_b=2.0), METRIC) == "0.5 m³, 50 % of A"


def test_an_estimate_stays_marked_in_the_mirror_and_the_reports():
    """A volume the engine could not certify is never passed on as a plain number: the mirror, the JSON record
    and the CSV row carry `overlap_exact` False (True for a certified volume and when nothing was measured)."""
    report = addon_module("results.report")
    estimate, certified = make_record(overlap=0.5, volume_a=1.0, volume_b=1.0, exact=False), make_record(overlap=0.5)
    assert record_module.mirror_fields(estimate)["overlap_exact"] is False
    assert record_module.mirror_fields(certified)["overlap_exact"] is True
    assert record_module.mirror_fields(None)["overlap_exact"] is True
    assert report.record_dict(estimate)["overlap_exact"] is False
    assert report.record_dict(certified)["overlap_exact"] is True
    whole = report.report_dict([estimate, certified], file="f.blend", scene="Scene", mode="EXACT", clearance=0.0,
                               scope="VISIBLE", unit_settings=None, date="2026-11-27T00:00:00+00:00", objects=2,
                               pairs_checked=1, skipped=[])
    rows = report.csv_rows(whole)
    header = next(row for row in rows if row and row[0] == "object_a")
    column = header.index("overlap_exact")
    values = [row[column] for row in rows[rows.index(header) + 1:]]
    assert sorted(values) == [0, 1]


def test_the_list_row_volume_says_about_for_an_estimate():
    """The results list shows the same volume words as the readout, without the share: 'about' only for an
    estimate."""
    assert text.volume_text(make_record(overlap=0.5), METRIC) == "0.5 m³"
    assert text.volume_text(make_record(overlap=0.5, exact=False), METRIC) == "about 0.5 m³"
