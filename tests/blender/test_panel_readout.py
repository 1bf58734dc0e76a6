"""Panel readout and overlay draw data from real checks, in the scene's unit system and unit scale.

Blender's own `bpy.utils.units.to_string` is the oracle for unit formatting.  The panel's draw() is run with a
recording layout (no UI exists in background mode) to see the text it would show.
"""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from bpy.utils import units
from tests.blender.scenes import check_pair, cube, draw_panel, rows_dict


@pytest.fixture
def intersecting_pair():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.75, 0.5, 0.0))  # depth 0.25 along x
    assert check_pair(a, b) == {"FINISHED"}
    return a, b


@pytest.mark.parametrize("system, scale", [("METRIC", 1.0), ("METRIC", 0.001), ("IMPERIAL", 1.0), ("NONE", 1.0)])
def test_readout_in_scene_units(intersecting_pair, addon_modules, system, scale):
    settings = bpy.context.scene.unit_settings
    settings.system = system
    settings.scale_length = scale
    view = addon_modules.store.active_record()
    lines = rows_dict(addon_modules.text.readout_rows(view, settings))
    if system == "NONE":
        assert lines["Depth"] == "0.25"
    else:
        assert lines["Depth"] == units.to_string(system, "LENGTH", 0.25 * scale, precision=5).strip()
    if (system, scale) == ("METRIC", 1.0):
        assert lines["Depth"] == "25 cm"
    if (system, scale) == ("METRIC", 0.001):
        assert lines["Depth"] == "0.25 mm"
    assert lines["Normal"] == "(1.0000, 0.0000, 0.0000)"
    label = addon_modules.overlay.build_draw_data(view, settings).labels[0].text
    assert label == f"depth {lines['Depth']}"


def test_tiny_depth_stays_readable(addon_modules):
    """Blender's to_string rounds 0.24 µm to '0 m'; the readout falls back to a unit that shows it."""
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.9999997, 0.0, 0.0))
    check_pair(a, b)
    view = addon_modules.store.active_record()
    depth_text = rows_dict(addon_modules.text.readout_rows(view, bpy.context.scene.unit_settings))["Depth"]
    expected_depth = 2.0 - float(np.float32(1.9999997))
    assert units.to_string("METRIC", "LENGTH", expected_depth, precision=5) == "0 m"
    assert view.depth == pytest.approx(expected_depth, abs=1e-12)
    assert depth_text != "0 m" and depth_text.endswith("µm")
    assert float(depth_text.split()[0]) == pytest.approx(expected_depth * 1e6, rel=1e-4)


def test_panel_shows_the_readout(intersecting_pair, addon_modules):
    record = addon_modules.store.active_record()
    log = draw_panel()
    texts = [entry[1] for entry in log if entry[0] == "label"]
    for label, value in rows_dict(addon_modules.text.readout_rows(addon_modules.store.active_record(),
                                                                  bpy.context.scene.unit_settings)).items():
        if label == "Status":
            assert ("label", value, "ERROR") in log  # intersecting: warning icon
        else:
            assert label in texts and value in texts, (label, value)
    operators = {entry[1] for entry in log if entry[0] == "operator"}
    assert {"collision.check", "collision.clear", "collision.select_object", "collision.copy_result"} <= operators
    assert ("prop", "show_overlay") in log and ("prop", "draw_through") in log
    assert addon_modules.store.active_record() is record  # drawing computed nothing new


def test_panel_without_result_and_with_stale(intersecting_pair, addon_modules):
    a, _ = intersecting_pair
    a.location.z += 0.1
    bpy.context.view_layer.update()
    log = draw_panel()
    assert any(e[0] == "label" and e[1].startswith("Stale") and e[2] == "ERROR" for e in log)
    bpy.ops.collision.clear()
    log = draw_panel()
    assert ("label", "No result", "INFO") in log


def test_overlay_draw_data_follows_the_result(intersecting_pair, addon_modules):
    overlay, store = addon_modules.overlay, addon_modules.store
    data = overlay.current_draw_data()
    contact = store.active_contact()
    assert data.status == "INTERSECTING"
    np.testing.assert_allclose([p.location for p in data.points], [contact.point_a, contact.point_b])
    assert not overlay.is_enabled()  # background mode: draw data yes, handlers no
    wm = bpy.context.window_manager
    wm.collision_inspector.show_overlay = False
    wm.collision_inspector.show_overlay = True
    assert overlay.current_draw_data() == data
    a, b = bpy.data.objects["A"], bpy.data.objects["B"]
    b.location = (3.0, 0.0, 0.0)
    check_pair(a, b)
    data = overlay.current_draw_data()
    assert data.status == "SEPARATED"
    np.testing.assert_allclose(data.labels[0].anchor, 0.5 * (store.active_contact().point_a + store.active_contact().point_b))
    assert data.labels[0].text == "1 m"
