"""The scene check's Overlap Volumes setting (off by default) through the command line's plain entry point on a
saved file: with `--volumes` (or the setting saved in the file) in Exact mode each intersecting pair's report
entry carries its overlap volume (analytic: two half-size cubes 0.1 into each other share 0.1 x 1 x 1), JSON and
CSV; without it, or in Hull mode, the volume is null / empty."""
import csv
import importlib
import json

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import settings
from tests.blender.scenes import cube


@pytest.fixture
def cli(addon):
    return importlib.import_module(f"{addon}.operators.cli")


def _save(path, saved_setting=False):
    bpy.ops.wm.read_homefile(use_empty=True)
    cube("Left", half=0.5)
    cube("Right", half=0.5, location=(0.9, 0.0, 0.0))
    cube("Far", half=0.5, location=(10.0, 0.0, 0.0))
    settings().mode = "EXACT"
    settings().overlap_volumes = saved_setting
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return str(path)


def _entry(report):
    data = json.loads(report.read_text())
    assert data["count"] == 1
    return data["results"][0]


def test_volumes_are_off_by_default_and_on_with_the_flag(cli, tmp_path):
    blend = _save(tmp_path / "clash.blend")
    truth = 1.0 - float(__import__("numpy").float32(0.9))  # the gap Blender stores, times 1 x 1
    report = tmp_path / "off.json"
    assert cli.main(["check", blend, "--report", str(report)], bpy) == 1
    assert _entry(report)["overlap_volume"] is None
    report = tmp_path / "on.json"
    assert cli.main(["check", blend, "--volumes", "--report", str(report)], bpy) == 1
    assert _entry(report)["overlap_volume"] == pytest.approx(truth, rel=1e-9)
    report = tmp_path / "hull.json"
    assert cli.main(["check", blend, "--volumes", "--mode", "HULL", "--report", str(report)], bpy) == 1
    assert _entry(report)["overlap_volume"] is None


def test_the_setting_saved_in_the_file_and_the_csv_column(cli, tmp_path):
    blend = _save(tmp_path / "saved.blend", saved_setting=True)
    truth = 1.0 - float(__import__("numpy").float32(0.9))
    report = tmp_path / "saved.csv"
    assert cli.main(["check", blend, "--report", str(report)], bpy) == 1
    rows = [row for row in csv.reader(report.read_text().splitlines()) if row and not row[0].startswith("#")]
    header, values = rows[0], rows[1]
    assert float(values[header.index("overlap_volume")]) == pytest.approx(truth, rel=1e-9)


def test_the_results_list_sorts_by_overlap_volume(addon):
    """Largest overlap first, pairs without a measured volume (-1 in the mirror) last in their own order."""
    results_list = importlib.import_module(f"{addon}.panels.results_list")
    order = results_list.volume_order([0.5, -1.0, 2.0, 0.0, -1.0, 1.0])
    assert [i for _, i in sorted(zip(order, range(6)))] == [2, 5, 0, 3, 1, 4]
    assert results_list.volume_order([]) == []
