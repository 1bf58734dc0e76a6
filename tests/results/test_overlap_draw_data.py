"""The overlay's overlap region is pure draw data: the record's region triangles become `DrawData.region` (their
corners, in order, world coordinates), kept for the active record of a view, absent when nothing was measured."""
import numpy as np

from tests.addon_package import addon_module

overlay = addon_module("panels.overlay")
record_module = addon_module("results.record")
core = addon_module("core")


def make_record(region=None):
    contact = core.Contact(status=core.Status.INTERSECTING, distance=-0.1, normal=(1.0, 0.0, 0.0),
                           point_a=(0.0, 0.0, 0.0), point_b=(-0.1, 0.0, 0.0), scale=2.0, touching_tolerance=2e-9)
    return record_module.CheckRecord(contact=contact, object_a="Wall", object_b="Duct", mode=record_module.Mode.EXACT,
                                     overlap_volume=None if region is None else 1.0, overlap_region=region)


def test_the_region_triangles_are_drawn_as_they_are():
    a, b = core.TriangleMesh(*_cube(0.0)), core.TriangleMesh(*_cube(0.5))
    region = core.overlap(a, b).region
    data = overlay.build_draw_data(make_record(region))
    assert data.region.shape == (3 * region.shape[0], 3)
    assert np.array_equal(data.region.reshape(-1, 3, 3), region)
    assert not data.is_empty


def test_no_region_without_a_measured_overlap():
    assert len(overlay.build_draw_data(make_record()).region) == 0
    assert len(overlay.build_draw_data(make_record(np.zeros((0, 3, 3)))).region) == 0


def test_the_active_record_of_a_view_keeps_its_region():
    region = core.overlap(core.TriangleMesh(*_cube(0.0)), core.TriangleMesh(*_cube(0.25))).region
    active, other = make_record(region), make_record()
    view = record_module.ResultsView(records=(other, active), active_index=1)
    data = overlay.build_view_draw_data(view)
    assert np.array_equal(data.region.reshape(-1, 3, 3), region)


def _cube(shift):
    v = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) + [shift, 0.0, 0.0]
    faces = np.array([(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6),
                      (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)])
    return v, faces
