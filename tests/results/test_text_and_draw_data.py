"""The panel text and the overlay draw data are pure functions of a record: tested here without Blender.

`results.text` and `panels.overlay` import no bpy at module level; `tests.addon_package` imports them as parts of
the add-on package.  Records are hand-made from `core.Contact`s with known values.
"""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from tests.addon_package import addon_module

readout = addon_module("results.text")
overlay = addon_module("panels.overlay")
record_module = addon_module("results.record")
status_module = addon_module("results.status")
core = addon_module("core")
STATUS_COLORS = {status.name: s.color for status, s in status_module.STYLES.items()}


def make_view(status, distance, normal=(1.0, 0.0, 0.0), point_a=(1.0, 0.0, 0.0), point_b=(2.0, 0.0, 0.0),
              scale=4.0, is_stale=False, time_ms=1.25, **contact_fields):
    """A CheckRecord of 'Cube' (A) and 'Ball' (B) with these values."""
    fields = dict(status=core.Status[status], distance=distance, normal=normal, point_a=point_a, point_b=point_b,
                  scale=scale, touching_tolerance=1e-9 * scale, gjk_iterations=7, epa_iterations=12)
    fields.update(contact_fields)
    return record_module.CheckRecord(contact=core.Contact(**fields), object_a="Cube", object_b="Ball",
                                     time_ms=time_ms, is_stale=is_stale)


def rows(view):
    return {row.label: row.value for row in readout.readout_rows(view)}


def same(p, q):
    return np.allclose(p, q, rtol=0.0, atol=1e-13)


METRIC = SimpleNamespace(system="METRIC", scale_length=1.0)


def test_no_result():
    assert readout.readout_rows(None) == [readout.Row("Status", "No result", readout.RowKind.STATUS)]
    assert overlay.build_draw_data(None).is_empty
    assert overlay.build_view_draw_data(record_module.ResultsView()).is_empty


def test_separated_lines():
    view = make_view("SEPARATED", 1.0)
    lines = rows(view)
    assert [row.label for row in readout.readout_rows(view)] == [
        "A", "B", "Status", "Mode", "Distance", "Normal", "Closest on A", "Closest on B", "Iterations", "Time",
        "Quality"]
    assert lines["A"] == "Cube" and lines["B"] == "Ball" and lines["Status"] == "Separated"
    assert lines["Distance"] == "1"
    assert lines["Normal"] == "(1.0000, 0.0000, 0.0000)"
    assert lines["Closest on B"] == "(2, 0, 0)"
    assert lines["Iterations"] == "GJK 7, EPA 12" and lines["Time"] == "1.25 ms" and lines["Quality"] == "converged"


def test_intersecting_lines_show_depth_and_flags():
    view = make_view("INTERSECTING", -0.25, point_a=(1.0, 0, 0), point_b=(0.75, 0, 0), converged=False,
                     fallback_used=True, is_stale=True)
    lines = rows(view)
    assert lines["Depth"] == "0.25" and "Distance" not in lines
    assert lines["Witness on A"] == "(1, 0, 0)" and lines["Witness on B"] == "(0.75, 0, 0)"
    assert lines["Quality"] == "not converged, fallback used"
    assert lines["Stale"] == "A or B changed since the check"
    assert readout.summary_line(view) == "'Cube' and 'Ball' intersect: depth 0.25"


def test_touching_shows_one_contact_point():
    view = make_view("TOUCHING", 0.0, point_a=(1.0, 2.0, 3.0), point_b=(1.0, 2.0, 3.0))
    lines = rows(view)
    assert lines["Contact"] == "(1, 2, 3)" and lines["Distance"] == "0"


def test_fallback_formatting_without_bpy():
    # without bpy.utils.units the fallback picks a readable unit; tiny lengths never collapse to 0
    assert readout._fallback("METRIC", 0.25, 5) == "25 cm"
    assert readout._fallback("METRIC", 3e-7, 5) == "0.3 µm"
    assert readout._fallback("METRIC", 1234.5, 5) == "1.2345 km"
    assert readout._fallback("IMPERIAL", 0.0254, 5) == '1"'
    assert readout._fallback("IMPERIAL", 0.9144, 5) == "3'"
    assert readout.format_length(-0.0) == "0"
    assert readout.format_length(float("nan"), METRIC) == "nan"


def test_separated_draw_data():
    view = make_view("SEPARATED", 1.0, point_a=(1.0, 0.5, 0.0), point_b=(2.0, 0.5, 0.0))
    data = overlay.build_draw_data(view)
    assert data.status == "SEPARATED"
    assert len(data.lines) == 1
    np.testing.assert_allclose([data.lines[0].start, data.lines[0].end], [view.contact.point_a, view.contact.point_b])
    np.testing.assert_allclose([p.location for p in data.points], [view.contact.point_a, view.contact.point_b])
    assert [label.text for label in data.labels] == ["1", "A", "B"]
    np.testing.assert_allclose(data.labels[0].anchor, (1.5, 0.5, 0.0))
    np.testing.assert_allclose([data.labels[1].anchor, data.labels[2].anchor], [view.contact.point_a, view.contact.point_b])
    assert {p.color for p in data.points} == {STATUS_COLORS["SEPARATED"]}


def test_label_colours_are_distinct_from_the_geometry_and_each_other():
    """The value label and the A/B tags each have their own colour, none of them a status colour (the
    real-window test finds each label by its colour)."""
    view = make_view("INTERSECTING", -0.5, point_a=(1.0, 0.0, 0.0), point_b=(0.5, 0.0, 0.0))
    colours = [label.color for label in overlay.build_draw_data(view).labels]
    assert len(set(colours)) == len(colours) == 3
    assert not set(colours) & set(STATUS_COLORS.values())


@pytest.mark.parametrize("depth, scale", [(0.5, 2.0), (0.01, 2.0), (1e-9, 100.0)])
def test_intersecting_arrow(depth, scale):
    n = np.array([0.0, 0.6, 0.8])
    pb = np.array([1.0, 1.0, 1.0])
    pa = pb + depth * n
    view = make_view("INTERSECTING", -depth, normal=tuple(n), point_a=tuple(pa), point_b=tuple(pb), scale=scale)
    data = overlay.build_draw_data(view)
    midpoint = 0.5 * (pa + pb)
    length = max(depth, overlay.MIN_ARROW_FRACTION * scale)
    shafts = [line for line in data.lines if same(line.start, midpoint)]
    assert len(shafts) == 1
    np.testing.assert_allclose(np.subtract(shafts[0].end, shafts[0].start), length * n, atol=1e-12)
    tip = midpoint + length * n
    barbs = [line for line in data.lines if same(line.start, tip)]
    assert len(barbs) == 4
    for barb in barbs:  # each barb points back towards the base
        assert np.dot(np.subtract(barb.end, barb.start), n) < 0
    witness = [line for line in data.lines if same(line.start, pa) and same(line.end, pb)]
    assert len(witness) == 1
    np.testing.assert_allclose([p.location for p in data.points], [pa, pb])
    assert data.labels[0].text.startswith("depth ")
    np.testing.assert_allclose(data.labels[0].anchor, tip)
    assert [label.text for label in data.labels[1:]] == ["A", "B"]
    np.testing.assert_allclose([data.labels[1].anchor, data.labels[2].anchor], [pa, pb])
    assert all(line.color == STATUS_COLORS["INTERSECTING"] for line in data.lines)


def test_touching_draw_data_and_distinct_colours():
    view = make_view("TOUCHING", 0.0, point_a=(0.0, 0.0, 1.0), point_b=(0.0, 0.0, 1.0))
    data = overlay.build_draw_data(view)
    assert len(data.points) == 1
    np.testing.assert_allclose(data.points[0].location, (0.0, 0.0, 1.0))
    assert data.labels[0].text == "touching"
    colours = list(STATUS_COLORS.values())
    assert len(set(colours)) == 3
    for colour in colours:  # readable on the dark default viewport: bright, opaque
        assert max(colour[:3]) >= 0.9 and colour[3] == 1.0


def test_crossing_curve_is_the_contacts_segments_in_order():
    """Each segment of the contact's crossing curve, ends in order, in `DrawData.curve` (drawn in the crossing
    colour as GPU lines); none for a pair that does not cross; kept when other listed pairs are drawn faintly."""
    segments = np.array([[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], [[1.0, 0.0, 0.0], [1.0, 2.0, 0.5]],
                         [[-1e6, 3.25, 7.0], [-1e6, 3.25, 7.125]]])
    record = make_view("INTERSECTING", -0.25, intersection=segments)
    data = overlay.build_draw_data(record)
    np.testing.assert_array_equal(data.curve, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 2.0, 0.5],
                                               [-1e6, 3.25, 7.0], [-1e6, 3.25, 7.125]])
    assert all(line.color != overlay.CROSSING_COLOR for line in data.lines)
    none = overlay.build_draw_data(make_view("INTERSECTING", -0.25))
    assert len(none.curve) == 0 and not none.is_empty
    both = record_module.ResultsView(records=(make_view("SEPARATED", 1.0), record), active_index=1)
    np.testing.assert_array_equal(overlay.build_view_draw_data(both).curve, data.curve)


def test_stale_label():
    data = overlay.build_draw_data(make_view("SEPARATED", 1.0, is_stale=True))
    assert data.labels[0].text.endswith("(stale)")


def test_overlay_module_has_no_gpu_import_at_top():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(overlay))
    top_imports = {alias.name.split(".")[0] for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
                   for alias in node.names}
    top_from = {node.module.split(".")[0] for node in tree.body if isinstance(node, ast.ImportFrom) and node.module}
    assert not ({"bpy", "gpu", "blf", "bgl", "gpu_extras"} & (top_imports | top_from))
    assert "bgl" not in inspect.getsource(overlay).replace("# ", "")
    assert "POINT_UNIFORM_COLOR'" not in inspect.getsource(overlay) and '"POINT_UNIFORM_COLOR"' not in inspect.getsource(overlay)
    assert math.isclose(overlay.arrow_length(0.0, 10.0), overlay.MIN_ARROW_FRACTION * 10.0)


def test_vector_noise_is_shown_as_zero():
    assert readout.format_vector((1.0, 1.7e-7, 0.35)) == "(1, 0, 0.35)"
    assert readout.format_vector((1e-7, 2e-7, 0.0)) == "(1e-07, 2e-07, 0)"  # small but not noise: kept


def test_iterations_are_shown_only_when_the_convex_solvers_ran():
    """A mesh query reports no GJK/EPA iterations: the row would only say 'GJK 0, EPA 0'."""
    assert "Iterations" in rows(make_view("SEPARATED", 1.0))
    assert "Iterations" not in rows(make_view("SEPARATED", 1.0, gjk_iterations=0, epa_iterations=0))
