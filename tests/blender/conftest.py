"""Headless Blender tier: the real built extension, installed and enabled in the bpy module.

- Before bpy is imported, Blender's user resources and the XDG cache move to a temporary directory, so a run
  touches no real configuration.  bpy is imported in try/except: without it these tests skip (in fixtures) and
  the core tests still run.
- `addon` (session): builds `dist/collision_inspector-<version>.zip` with scripts/build_extension.py unless the
  zip is newer than every add-on source file, then installs that zip with
  `bpy.ops.extensions.package_install_files(..., enable_on_install=True)`.  Inside a Blender older than 4.2
  (e.g. Debian's 3.4 through tests/run_in_blender.py) the source folder is enabled as a legacy add-on instead.
- `fresh_file` (autouse): `bpy.ops.wm.read_homefile(use_empty=True)` before every test.
- Files named `test_*_pure.py` test the add-on's bpy-free modules (readout, overlay draw data) and run without
  bpy: they override `fresh_file` and are not marked `blender`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADDON_ID = "collision_inspector"
ADDON_SOURCES = ("__init__.py", "blender_manifest.toml", "core", "results", "operators", "panels")

if "bpy" not in sys.modules:
    _TMP = tempfile.mkdtemp(prefix="ci_blender_tests_")
    os.environ["BLENDER_USER_RESOURCES"] = os.path.join(_TMP, "user")
    os.environ["XDG_CACHE_HOME"] = os.path.join(_TMP, "cache")
else:  # running inside a Blender binary: tests/run_in_blender.py isolates the user dir itself
    _TMP = tempfile.mkdtemp(prefix="ci_blender_tests_")

try:
    import bpy
except ImportError:  # no Blender here: the fixtures skip
    bpy = None


def pytest_collection_modifyitems(items):
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here) and not str(item.fspath).endswith("_pure.py"):
            item.add_marker(pytest.mark.blender)


def _zip_path() -> str:
    import tomllib

    with open(os.path.join(ROOT, "blender_manifest.toml"), "rb") as fh:
        manifest = tomllib.load(fh)
    return os.path.join(ROOT, "dist", f"{manifest['id']}-{manifest['version']}.zip")


def _newest_source_mtime() -> float:
    newest = 0.0
    for entry in ADDON_SOURCES:
        path = os.path.join(ROOT, entry)
        if os.path.isfile(path):
            newest = max(newest, os.path.getmtime(path))
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                newest = max(newest, os.path.getmtime(os.path.join(folder, name)))
    return newest


def build_zip() -> str:
    """The built extension zip, rebuilt when any add-on source file is newer."""
    zip_path = _zip_path()
    if os.path.isfile(zip_path) and os.path.getmtime(zip_path) >= _newest_source_mtime():
        return zip_path
    env = dict(os.environ)
    if "BLENDER_EXT_CLI" not in env and bpy is not None:
        env["BLENDER_EXT_CLI"] = os.path.join(
            bpy.utils.system_resource("SCRIPTS"), "addons_core", "bl_pkg", "cli", "blender_ext.py")
    python = sys.executable if os.path.basename(sys.executable).startswith("python") else "python3"
    result = subprocess.run([python, os.path.join(ROOT, "scripts", "build_extension.py")],
                            capture_output=True, text=True, env=env)
    if result.returncode != 0:
        pytest.fail(f"building the extension failed:\n{result.stdout}\n{result.stderr}")
    return zip_path


def _enable_legacy() -> str:
    """Blender < 4.2: the source folder as a legacy add-on named collision_inspector."""
    import addon_utils

    addons = os.path.join(_TMP, "addons")
    os.makedirs(addons, exist_ok=True)
    link = os.path.join(addons, ADDON_ID)
    if not os.path.exists(link):
        os.symlink(ROOT, link)
    if addons not in sys.path:
        sys.path.insert(0, addons)
    addon_utils.enable(ADDON_ID, default_set=True)
    return ADDON_ID


def _install_extension() -> str:
    zip_path = build_zip()
    result = bpy.ops.extensions.package_install_files(
        filepath=zip_path, repo="user_default", enable_on_install=True)
    assert result == {"FINISHED"}, result
    return f"bl_ext.user_default.{ADDON_ID}"


@pytest.fixture(scope="session")
def addon() -> str:
    """The enabled add-on's module name (bl_ext.user_default.collision_inspector in 4.2+)."""
    if bpy is None:
        pytest.skip("bpy is not importable (install the venv: make venv)")
    module = _install_extension() if bpy.app.version >= (4, 2, 0) else _enable_legacy()
    assert module in sys.modules, f"{module} is not loaded after enabling"
    assert hasattr(bpy.types.WindowManager, "collision_inspector")
    return module


@pytest.fixture(autouse=True)
def fresh_file(addon):
    bpy.ops.wm.read_homefile(use_empty=True)
    yield


@pytest.fixture
def addon_modules(addon):
    """The running add-on's submodules (the ones Blender loaded, not copies imported by pytest)."""
    import importlib

    class Modules:
        store = importlib.import_module(f"{addon}.operators.store")
        props = importlib.import_module(f"{addon}.operators.props")
        reading = importlib.import_module(f"{addon}.operators.reading")
        checking = importlib.import_module(f"{addon}.operators.checking")
        overlay = importlib.import_module(f"{addon}.panels.overlay")
        text = importlib.import_module(f"{addon}.results.text")
        record = importlib.import_module(f"{addon}.results.record")
        core = importlib.import_module(f"{addon}.core")

    return Modules
