"""The command line never runs code stored in the files it checks, whatever Blender's "Auto Run Python Scripts"
preference says, in this process and in the `--jobs` worker processes; `--trust-scripts` is the one way to let it.

The hostile file: two overlapping cubes, a text block registered to run on load and a driver with a Python
expression, each writing its own marker file when run.  Each test first shows, with an unprotected load, that the
file's code does run where auto-run is allowed, so a missing marker means the check held it back."""
import importlib
import json
import os
import subprocess
import sys

import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scenes import cube

# Imported by the bpy-module worker processes (through PYTHONPATH) before the runner: allows auto-run there.
ALLOW_AUTO_RUN = """
import bpy
bpy.context.preferences.filepaths.use_scripts_auto_execute = True
"""


@pytest.fixture
def cli(addon):
    return importlib.import_module(f"{addon}.operators.cli")


@pytest.fixture
def auto_run_allowed():
    prefs = bpy.context.preferences.filepaths
    before = prefs.use_scripts_auto_execute
    prefs.use_scripts_auto_execute = True
    yield
    prefs.use_scripts_auto_execute = before
    bpy.ops.wm.read_homefile(use_empty=True)  # Blender's process-wide flag follows the preference again


def _hostile(folder):
    """Save the hostile file in `folder`; its path and the two markers its code writes."""
    text_marker, driver_marker = folder / "text-ran", folder / "driver-ran"
    bpy.ops.wm.read_homefile(use_empty=True)
    cube("Left", half=0.5)
    right = cube("Right", half=0.5, location=(0.9, 0.0, 0.0))
    text = bpy.data.texts.new("on_load.py")
    text.write(f"open({str(text_marker)!r}, 'w').write('ran')\n")
    text.use_module = True
    right["driven"] = 0.0
    driver = right.driver_add('["driven"]').driver
    driver.type = "SCRIPTED"
    driver.expression = f"open({str(driver_marker)!r}, 'w').write('ran') * 0"
    assert not driver.is_simple_expression  # one Blender can only evaluate with Python
    path = folder / "hostile.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    _clear(text_marker, driver_marker)
    return str(path), text_marker, driver_marker


def _clear(*markers):
    for marker in markers:
        if marker.exists():
            marker.unlink()


def _clean(folder):
    bpy.ops.wm.read_homefile(use_empty=True)
    cube("Left", half=0.5)
    cube("Right", half=0.5, location=(3.0, 0.0, 0.0))
    path = folder / "clean.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    return str(path)


def _runs_when_unprotected(blend, *markers):
    """The hostile file's code runs on an ordinary load here (how the command line used to open files)."""
    bpy.ops.wm.open_mainfile(filepath=blend, load_ui=False)
    bpy.context.evaluated_depsgraph_get().update()
    assert all(m.exists() for m in markers), "the hostile file's code did not run on an unprotected load"
    _clear(*markers)
    bpy.ops.wm.read_homefile(use_empty=True)


def _listed(report):
    data = json.loads(report.read_text())
    return data, [(r["object_a"], r["object_b"], r["status"]) for r in data["results"]]


def test_auto_run_allowed_the_file_runs_nothing_and_the_clash_is_listed(cli, tmp_path, auto_run_allowed, capsys):
    blend, text_marker, driver_marker = _hostile(tmp_path)
    _runs_when_unprotected(blend, text_marker, driver_marker)
    report = tmp_path / "out.json"
    assert cli.main(["check", blend, "--report", str(report)], bpy) == 1
    assert not text_marker.exists() and not driver_marker.exists()
    data, listed = _listed(report)
    assert data["scripts_trusted"] is False
    assert listed == [("Left", "Right", "INTERSECTING")]
    summary = capsys.readouterr().out
    assert "hostile.blend: 1 clash" in summary
    assert "Python in the file was not run: Driver 'open(" in summary and "(--trust-scripts runs it)" in summary
    csv_report = tmp_path / "out.csv"
    assert cli.main(["check", blend, "--report", str(csv_report)], bpy) == 1
    assert not text_marker.exists() and not driver_marker.exists()
    assert "# scripts_trusted: False" in csv_report.read_text().splitlines()


def test_trust_scripts_runs_the_files_code(cli, tmp_path, capsys):
    """The opt-in alone lets the file's code run, with Blender's default preference (auto-run off)."""
    assert not bpy.context.preferences.filepaths.use_scripts_auto_execute
    blend, text_marker, driver_marker = _hostile(tmp_path)
    report = tmp_path / "out.csv"
    assert cli.main(["check", blend, "--trust-scripts", "--report", str(report)], bpy) == 1
    assert text_marker.exists() and driver_marker.exists()
    assert "# scripts_trusted: True" in report.read_text().splitlines()
    assert "not run" not in capsys.readouterr().out


def test_jobs_workers_run_nothing_with_auto_run_allowed(cli, tmp_path, monkeypatch, capsys):
    """Several files: each is checked by a worker process whose preferences allow auto-run."""
    blend, text_marker, driver_marker = _hostile(tmp_path)
    clean = _clean(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(ALLOW_AUTO_RUN)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p))
    unprotected = f"import bpy; bpy.ops.wm.open_mainfile(filepath={blend!r}, load_ui=False)"
    subprocess.run([sys.executable, "-c", unprotected], capture_output=True, check=True, timeout=300)
    assert text_marker.exists() and driver_marker.exists(), "a worker's preferences do not allow auto-run"
    _clear(text_marker, driver_marker)

    report = tmp_path / "out.json"
    assert cli.main(["check", blend, clean, "--jobs", "2", "--report", str(report)], bpy) == 1
    assert not text_marker.exists() and not driver_marker.exists()
    data, listed = _listed(tmp_path / "out-hostile.json")
    assert data["scripts_trusted"] is False and listed == [("Left", "Right", "INTERSECTING")]
    assert json.loads((tmp_path / "out-clean.json").read_text())["scripts_trusted"] is False
    assert "Python in the file was not run" in capsys.readouterr().out

    assert cli.main(["check", blend, clean, "--jobs", "2", "--trust-scripts", "--report", str(report)], bpy) == 1
    assert text_marker.exists() and driver_marker.exists()
    assert _listed(tmp_path / "out-hostile.json")[0]["scripts_trusted"] is True


MAKE_HOSTILE = """
import bpy, sys
folder = sys.argv[-1]
bpy.ops.wm.read_homefile(use_empty=True)
for name, x in (("Left", 0.0), ("Right", 0.9)):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(x, 0.0, 0.0))
    bpy.context.active_object.name = name
text = bpy.data.texts.new("on_load.py")
text.write("open(%r, 'w').write('ran')\\n" % (folder + "/text-ran"))
text.use_module = True
right = bpy.data.objects["Right"]
right["driven"] = 0.0
driver = right.driver_add('["driven"]').driver
driver.expression = "open(%r, 'w').write('ran') * 0" % (folder + "/driver-ran")
bpy.ops.wm.save_as_mainfile(filepath=folder + "/hostile.blend")
"""


def test_runner_in_a_blender_binary_with_auto_run_forced_on(tmp_path):
    """The per-file runner inside a real Blender binary started with `--enable-autoexec` (auto-run forced on), on
    a hostile file that Blender saved itself; skipped when no `blender` is on PATH."""
    import shutil

    blender = shutil.which("blender")
    if blender is None:
        pytest.skip("no blender binary on PATH")
    make = tmp_path / "make.py"
    make.write_text(MAKE_HOSTILE)
    subprocess.run([blender, "-b", "--factory-startup", "--python", str(make), "--", str(tmp_path)],
                   capture_output=True, check=True, timeout=300)
    blend = str(tmp_path / "hostile.blend")
    text_marker, driver_marker = tmp_path / "text-ran", tmp_path / "driver-ran"
    _clear(text_marker, driver_marker)
    subprocess.run([blender, "-b", "--factory-startup", "--enable-autoexec", blend], capture_output=True, check=True,
                   timeout=300)
    assert text_marker.exists() and driver_marker.exists(), "the hostile file's code did not run with auto-run on"
    _clear(text_marker, driver_marker)

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    runner = os.path.join(root, "operators", "cli_runner.py")

    def run(*args):
        return subprocess.run([blender, "-b", "--factory-startup", "--enable-autoexec", "--python", runner, "--",
                               "check", *args], capture_output=True, text=True, timeout=300)

    done = run(blend)
    assert done.returncode == 1, done.stdout + done.stderr
    assert not text_marker.exists() and not driver_marker.exists()
    assert "Python in the file was not run" in done.stdout
    done = run(blend, "--trust-scripts")
    assert done.returncode == 1, done.stdout + done.stderr
    assert text_marker.exists() and driver_marker.exists()
