"""Which readout rows the sidebar lays out wide (label on one line, value on the next): the values too long to
share a line with their label at the sidebar's default width, as the overlap row "0.18465 m³, 8.9 % of B" was cut
to "0.18465 m³, 8.9…" in `make demo`'s screenshot.  Hand-made records, no Blender."""
from tests.addon_package import addon_module

text = addon_module("results.text")
record_module = addon_module("results.record")
core = addon_module("core")


def intersecting(depth, upper, overlap=None):
    contact = core.Contact(status=core.Status.INTERSECTING, distance=-depth, normal=(0.0, 0.0, 1.0),
                           point_a=(0.0, 0.0, depth), point_b=(0.0, 0.0, 0.0), scale=1.0,
                           touching_tolerance=1e-9, gap=upper - depth, separation=(0.0, 0.0, upper))
    return record_module.CheckRecord(contact=contact, object_a="A", object_b="B", mode=record_module.Mode.EXACT,
                                     overlap_volume=overlap, volume_a=2.0 if overlap else None,
                                     volume_b=2.0 if overlap else None)


def kinds(record):
    return {row.label: row.kind for row in text.readout_rows(record)}


def test_overlap_row_is_wide():
    assert kinds(intersecting(0.3, 0.3, overlap=0.18465))["Overlap"] is text.RowKind.WIDE


def test_depth_interval_is_wide_and_one_depth_is_not():
    assert kinds(intersecting(0.25, 0.3))["Depth"] is text.RowKind.WIDE
    assert kinds(intersecting(0.25, 0.25))["Depth"] is text.RowKind.VALUE


def test_points_and_directions_stay_wide():
    found = kinds(intersecting(0.25, 0.25))
    assert all(found[label] is text.RowKind.WIDE for label in ("Normal", "Witness on A", "Witness on B"))
