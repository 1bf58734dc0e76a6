"""collision.export_report writes the scene check's list as JSON and CSV; both are read back and equal the
records (exact float64 values: JSON and the CSV keep repr floats) and the run's settings."""
import csv
import json

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import random_scene, settings


@pytest.fixture
def checked(addon_modules):
    random_scene(7)
    bpy.context.scene.unit_settings.system = "METRIC"
    bpy.context.scene.unit_settings.scale_length = 0.001
    settings().mode = "HULL"
    settings().clearance = 0.25
    assert bpy.ops.collision.check_all(scope="VISIBLE") == {"FINISHED"}
    records = addon_modules.store.records()
    assert len(records) > 3
    return records


def test_json_report_round_trip(checked, tmp_path):
    path = tmp_path / "report.json"
    assert bpy.ops.collision.export_report(filepath=str(path), format="JSON") == {"FINISHED"}
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["version"] == 1
    assert report["scene"] == bpy.context.scene.name and report["file"] == bpy.data.filepath
    assert report["mode"] == "HULL" and report["scope"] == "VISIBLE"
    assert report["clearance"] == settings().clearance
    assert report["units"] == {"system": "METRIC", "scale_length": pytest.approx(0.001), "length_unit":
                               bpy.context.scene.unit_settings.length_unit}
    assert report["date"].startswith("20") and report["count"] == len(checked) == len(report["results"])
    for entry, record in zip(report["results"], checked):
        c = record.contact
        assert (entry["object_a"], entry["object_b"], entry["status"]) == \
            (record.object_a, record.object_b, c.status.name)
        assert entry["distance"] == float(c.distance) and entry["depth"] == float(c.depth)
        assert entry["depth_upper"] == float(record.depth_upper) and entry["separation"] == c.separation.tolist()
        assert entry["point_a"] == c.point_a.tolist() and entry["point_b"] == c.point_b.tolist()
        assert entry["normal"] == c.normal.tolist()
        assert entry["within_clearance"] == record.within_clearance
        assert entry["containment"] is None and entry["stale"] is False
        assert entry["distance_text"].endswith("m")  # scene units (metric, scale 0.001: mm)


def test_csv_report_round_trip(checked, tmp_path):
    path = tmp_path / "report.csv"
    assert bpy.ops.collision.export_report(filepath=str(path), format="CSV") == {"FINISHED"}
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    comments = [r[0] for r in rows if r and r[0].startswith("#")]
    assert any(c.startswith("# clearance: ") for c in comments) and any("METRIC" in c for c in comments)
    table = [r for r in rows if r and not r[0].startswith("#")]
    header, body = table[0], table[1:]
    assert len(body) == len(checked)
    for row, record in zip(body, checked):
        values = dict(zip(header, row))
        assert (values["object_a"], values["object_b"]) == (record.object_a, record.object_b)
        assert float(values["distance"]) == float(record.distance)
        assert [float(values[f"normal_{k}"]) for k in "xyz"] == record.contact.normal.tolist()
        assert values["status"] == record.status.name
        assert float(values["depth_upper"]) == float(record.depth_upper)
        assert [float(values[f"separation_{k}"]) for k in "xyz"] == record.separation.tolist()


def test_report_of_a_clean_scene_has_no_results(addon_modules, tmp_path):
    from tests.blender.scenes import cube

    cube("A")
    cube("B", location=(5.0, 0.0, 0.0))
    assert bpy.ops.collision.check_all(scope="VISIBLE") == {"FINISHED"}
    path = tmp_path / "clean.json"
    assert bpy.ops.collision.export_report(filepath=str(path)) == {"FINISHED"}
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["count"] == 0 and report["results"] == [] and report["objects"] == 2
    assert report["skipped"] == []


def test_report_to_an_unwritable_path_is_a_clear_error(checked, tmp_path):
    with pytest.raises(RuntimeError, match="Cannot write the report"):
        bpy.ops.collision.export_report(filepath=str(tmp_path / "missing" / "dir" / "r.json"))


def test_report_after_a_pair_check_does_not_claim_the_scene_check(checked, tmp_path):
    from tests.blender.scenes import check_pair

    objects = [o for o in bpy.context.view_layer.objects if o.name.startswith("Touch")]
    assert check_pair(objects[0], objects[1]) == {"FINISHED"}
    path = tmp_path / "pair.json"
    bpy.ops.collision.export_report(filepath=str(path))
    data = json.loads(path.read_text())
    assert data["count"] == 1 and data["scope"] == "" and data["objects"] is None
    assert data["clearance"] == settings().clearance  # the scene's setting, not a run's


def test_report_names_the_skipped_objects(addon_modules, tmp_path):
    from tests.blender.scene_builders import empty
    from tests.blender.scenes import cube

    cube("A")
    cube("B", location=(1.0, 0.0, 0.0))
    empty("Marker")
    bpy.ops.collision.check_all(scope="VISIBLE")
    path = tmp_path / "skipped.json"
    bpy.ops.collision.export_report(filepath=str(path))
    assert json.loads(path.read_text())["skipped"] == ["Marker"]
