"""The one staleness rule of `blender_env.is_current(zip)`: a zip is current only if it exists, is at least as new
as every add-on file, and holds exactly `addon_files()`; files the manifest excludes never make it stale.

Each case starts from a zip that is current (asserted) in a small tree of its own, changes one thing, and checks
the verdict.  Zips are written with the standard library here, not by the code under test.
"""
import os
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)

MANIFEST = 'id = "probe"\nversion = "1.0.0"\n\n[build]\npaths_exclude_pattern = ["__pycache__/", ".*", "/tests/"]\n'
SOURCES = ["__init__.py", "core/__init__.py", "core/shapes.py", "panels/__init__.py"]


def write_zip(path, root, names):
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.write(root / name, name)


def age(path, seconds):
    """Set a file's modification time `seconds` into the past."""
    when = time.time() - seconds
    os.utime(path, (when, when))


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "addon"
    for name in SOURCES + ["tests/test_x.py"]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("# source\n")
    (root / "blender_manifest.toml").write_text(MANIFEST)
    for name in SOURCES + ["blender_manifest.toml", "tests/test_x.py"]:
        age(root / name, 100)
    package = tmp_path / "probe-1.0.0.zip"
    write_zip(package, root, ["blender_manifest.toml", *SOURCES])
    age(package, 50)
    assert blender_env.is_current(str(package), str(root))
    return root, package


def test_missing_zip_is_stale(tree):
    root, package = tree
    package.unlink()
    assert not blender_env.is_current(str(package), str(root))


def test_an_edited_source_makes_it_stale(tree):
    root, package = tree
    age(root / "core" / "shapes.py", 10)
    assert not blender_env.is_current(str(package), str(root))


def test_an_edited_manifest_makes_it_stale(tree):
    root, package = tree
    age(root / "blender_manifest.toml", 10)
    assert not blender_env.is_current(str(package), str(root))


def test_a_new_package_makes_it_stale_even_with_an_old_time(tree):
    root, package = tree
    (root / "results").mkdir()
    (root / "results" / "__init__.py").write_text("# new\n")
    age(root / "results" / "__init__.py", 100)  # e.g. restored with its old time
    assert not blender_env.is_current(str(package), str(root))


def test_a_removed_source_makes_it_stale(tree):
    root, package = tree
    (root / "core" / "shapes.py").unlink()
    assert not blender_env.is_current(str(package), str(root))


def test_excluded_files_do_not(tree):
    root, package = tree
    age(root / "tests" / "test_x.py", 1)
    (root / "core" / "__pycache__").mkdir()
    (root / "core" / "__pycache__" / "shapes.cpython-311.pyc").write_bytes(b"\0")
    (root / ".notes").write_text("scratch\n")
    assert blender_env.is_current(str(package), str(root))


def test_a_broken_zip_is_stale(tree):
    root, package = tree
    package.write_bytes(b"not a zip")
    age(package, 1)
    assert not blender_env.is_current(str(package), str(root))
