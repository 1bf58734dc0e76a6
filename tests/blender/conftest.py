"""Headless Blender tier: the real built extension, installed and enabled in the bpy module.

Building, isolating and installing are scripts/blender_env.py's job (shared with `make demo` and the bench):
- before bpy is imported, `blender_env.isolate()` moves Blender's user resources and the XDG cache to a temporary
  folder, so a run touches no real configuration.  Inside a Blender binary (bpy already loaded) the environment
  is left as tests/run_in_blender.py set it, which isolates the process itself.  bpy is imported in try/except:
  without it these tests skip (in fixtures) and the core tests still run.
- `addon` (session): `blender_env.install()` rebuilds `dist/collision_inspector-<version>.zip` if it is out of date
  and installs it with `bpy.ops.extensions.package_install_files(..., enable_on_install=True)`; inside a Blender
  older than 4.2 (e.g. Debian's 3.4 through tests/run_in_blender.py) the source folder is enabled as a legacy
  add-on instead.
- `fresh_file` (autouse): `bpy.ops.wm.read_homefile(use_empty=True)` before every test.
Every test here is marked `blender` (tests/tiers.py); the add-on's bpy-free modules are tested in tests/results/.
"""
from __future__ import annotations

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "scripts") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)

blender_env.isolate("ci_blender_tests_")
try:
    import bpy
except ImportError:  # no Blender here: the fixtures skip
    bpy = None


@pytest.fixture(scope="session")
def addon() -> str:
    """The enabled add-on's module name (bl_ext.user_default.collision_inspector in 4.2+)."""
    if bpy is None:
        pytest.skip("bpy is not importable (install the venv: make venv)")
    try:
        module = blender_env.install()
    except blender_env.BlenderEnvError as exc:
        pytest.fail(str(exc))
    assert hasattr(bpy.types.WindowManager, "collision_inspector")
    return module


@pytest.fixture(autouse=True)
def fresh_file(addon):
    bpy.ops.wm.read_homefile(use_empty=True)
    yield


@pytest.fixture
def hull_mode(fresh_file):
    """Hull mode for the files whose checks are judged against the convex hulls of the objects' vertices (Exact
    mode has its own tests in test_modes.py)."""
    bpy.context.scene.collision_inspector.mode = "HULL"


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
