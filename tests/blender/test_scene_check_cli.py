"""The command line (`blender --command collision_inspector check ...`), called through its plain entry point
`operators.cli.main(argv, bpy)` on saved .blend files: exit codes 0 (clean), 1 (clashes), 2 (errors) and the
report.  Several files run as separate processes (`--jobs`)."""
import importlib
import json

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import new_collection, settings
from tests.blender.scenes import cube


@pytest.fixture
def cli(addon):
    return importlib.import_module(f"{addon}.operators.cli")


def _save(path, clash: bool, gap=0.5):
    bpy.ops.wm.read_homefile(use_empty=True)
    cube("Left", half=0.5)
    cube("Right", half=0.5, location=(0.9 if clash else 1.0 + gap, 0.0, 0.0))
    cube("Far", half=0.5, location=(10.0, 0.0, 0.0))
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return str(path)


def test_clean_file_exits_0_and_writes_an_empty_report(cli, tmp_path):
    blend = _save(tmp_path / "clean.blend", clash=False)
    report = tmp_path / "clean.json"
    assert cli.main(["check", blend, "--scope", "VISIBLE", "--report", str(report)], bpy) == 0
    data = json.loads(report.read_text())
    assert data["count"] == 0 and data["file"] == blend and data["objects"] == 3


def test_file_with_a_clash_exits_1_and_reports_it(cli, tmp_path):
    blend = _save(tmp_path / "clash.blend", clash=True)
    report = tmp_path / "clash.json"
    assert cli.main(["check", blend, "--report", str(report), "--mode", "HULL"], bpy) == 1
    data = json.loads(report.read_text())
    assert data["count"] == 1 and data["mode"] == "HULL" and data["scope"] == "VISIBLE"
    entry = data["results"][0]
    assert {entry["object_a"], entry["object_b"]} == {"Left", "Right"}
    assert entry["status"] == "INTERSECTING" and entry["distance"] == pytest.approx(-0.1, abs=1e-6)


def test_clearance_argument_turns_a_near_pair_into_a_clash(cli, tmp_path):
    blend = _save(tmp_path / "near.blend", clash=False, gap=0.01)
    assert cli.main(["check", blend, "--clearance", "0.001"], bpy) == 0
    report = tmp_path / "near.csv"
    assert cli.main(["check", blend, "--clearance", "0.02", "--report", str(report)], bpy) == 1
    assert "SEPARATED" in report.read_text()


def test_settings_saved_in_the_file_are_used(cli, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    a = [cube("A0", half=0.5), cube("A1", half=0.5, location=(0.9, 0.0, 0.0))]
    cube("B0", half=0.5, location=(-0.9, 0.0, 0.0))  # clashes with A0, but is not in the group
    new_collection("GA", a)
    settings().scope = "GROUPS"
    settings().group_a = bpy.data.collections["GA"]
    path = str(tmp_path / "groups.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    report = tmp_path / "groups.json"
    assert cli.main(["check", path, "--report", str(report)], bpy) == 1
    data = json.loads(report.read_text())
    assert data["scope"] == "GROUPS" and [(r["object_a"], r["object_b"]) for r in data["results"]] == \
        [("A0", "A1")]
    assert cli.main(["check", path, "--group-a", "Missing"], bpy) == 2


@pytest.mark.parametrize("argv", [[], ["check"], ["frobnicate", "x.blend"], ["check", "x.blend", "--mode", "NOPE"],
                                  ["check", "x.blend", "--clearance", "-1"], ["check", "x.blend", "--jobs", "0"]])
def test_usage_errors_exit_2(cli, tmp_path, argv, capsys):
    blend = _save(tmp_path / "x.blend", clash=True)
    argv = [blend if a == "x.blend" else a for a in argv]
    assert cli.main(argv, bpy) == 2
    assert "error" in capsys.readouterr().err


def test_missing_file_exits_2(cli, tmp_path, capsys):
    missing = str(tmp_path / "nope.blend")
    assert cli.main(["check", missing], bpy) == 2
    assert f"error: no such file: {missing}" in capsys.readouterr().err


def _damaged(folder, damage: str) -> str:
    """A file that is not a readable .blend: text, nothing, or the first half of a saved file."""
    whole = folder / "whole.blend"
    _save(whole, clash=True)
    bpy.ops.wm.save_as_mainfile(filepath=str(whole), compress=damage == "truncated compressed")
    data = whole.read_bytes()
    blob = {"garbage": b"not a blend file\n" * 64, "empty": b""}.get(damage, data[:len(data) // 2])
    path = folder / "damaged.blend"
    path.write_bytes(blob)
    return str(path)


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "truncated compressed"])
def test_unreadable_file_exits_2_with_blenders_reason(cli, tmp_path, damage, capsys):
    path = _damaged(tmp_path, damage)
    assert cli.main(["check", path], bpy) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"collision_inspector: error: cannot open {path}: ") and "Traceback" not in err
    assert len(err) > len(f"collision_inspector: error: cannot open {path}: ")  # Blender's reason follows


def test_unreadable_file_among_several_exits_2(cli, tmp_path, capsys):
    clean = _save(tmp_path / "clean.blend", clash=False)
    garbage = _damaged(tmp_path, "garbage")
    assert cli.main(["check", clean, garbage, "--jobs", "2"], bpy) == 2
    captured = capsys.readouterr()
    assert f"error: cannot open {garbage}: " in captured.err and "clean.blend: No clashes" in captured.out


def test_several_files_run_as_separate_processes(cli, tmp_path):
    clean = _save(tmp_path / "one.blend", clash=False)
    clash = _save(tmp_path / "two.blend", clash=True)
    report = tmp_path / "out.json"
    assert cli.main(["check", clean, clash, "--jobs", "2", "--report", str(report)], bpy) == 1
    assert json.loads((tmp_path / "out-one.json").read_text())["count"] == 0
    assert json.loads((tmp_path / "out-two.json").read_text())["count"] == 1
    assert cli.main(["check", clean, clean, "--jobs", "2"], bpy) == 0
    other = tmp_path / "again"
    other.mkdir()
    same_name = _save(other / "two.blend", clash=False)
    assert cli.main(["check", clash, same_name, "--report", str(report)], bpy) == 1
    assert json.loads((tmp_path / "out-two.json").read_text())["count"] == 1
    assert json.loads((tmp_path / "out-two-2.json").read_text())["count"] == 0
    assert cli.main(["check", clean, str(tmp_path / "nope.blend")], bpy) == 2


MAKE_FILE = """
import bpy, sys
bpy.ops.wm.read_homefile(use_empty=True)
for name, x in (("L", 0.0), ("R", float(sys.argv[-1]))):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(x, 0.0, 0.0))
    bpy.context.active_object.name = name
bpy.ops.wm.save_as_mainfile(filepath=sys.argv[-2])
"""


def test_runner_in_a_blender_binary(tmp_path):
    """The per-file runner inside a real Blender binary (the one the several-files path starts when it runs in
    Blender), on files that Blender saved itself; skipped when no `blender` is on PATH."""
    import os
    import shutil
    import subprocess

    blender = shutil.which("blender")
    if blender is None:
        pytest.skip("no blender binary on PATH")
    make = tmp_path / "make.py"
    make.write_text(MAKE_FILE)
    for name, x in (("clash", "0.9"), ("clean", "3.0")):
        subprocess.run([blender, "-b", "--factory-startup", "--python", str(make), "--", str(tmp_path / f"{name}.blend"),
                        x], capture_output=True, check=True, timeout=300)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runner = os.path.join(root, "operators", "cli_runner.py")

    def run(*args):
        return subprocess.run([blender, "-b", "--factory-startup", "--python", runner, "--", "check", *args],
                              capture_output=True, text=True, timeout=300)

    report = tmp_path / "out.json"
    done = run(str(tmp_path / "clash.blend"), "--report", str(report))
    assert done.returncode == 1, done.stdout + done.stderr
    assert json.loads(report.read_text())["results"][0]["status"] == "INTERSECTING"
    assert run(str(tmp_path / "clean.blend")).returncode == 0
    assert run(str(tmp_path / "missing.blend")).returncode == 2
    done = run(str(tmp_path / "clash.blend"), str(tmp_path / "clean.blend"), "--jobs", "2")
    assert done.returncode == 1 and "clean.blend: No clashes" in done.stdout
