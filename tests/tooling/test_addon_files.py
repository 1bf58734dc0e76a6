"""`blender_env.addon_files()` lists exactly the files Blender's extension builder packs.

The oracle is the builder itself: `PathPatternMatch` and `scandir_recursive` from Blender's `blender_ext.py` (the
tool scripts/build_extension.py runs), loaded from the bpy wheel.  They decide, folder by folder, what the build
walks into and keeps; our own reading of the manifest's rules must agree on the real repository and on a tree
built to trip a matcher (anchored and unanchored patterns, nested look-alikes, globs, dot-files, links).
"""
import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import blender_env  # noqa: E402  (scripts/blender_env.py)


@pytest.fixture(scope="module")
def blender_ext():
    try:
        path = blender_env.extension_cli()
    except blender_env.BlenderEnvError as exc:
        pytest.skip(str(exc))
    spec = importlib.util.spec_from_file_location("blender_ext_oracle", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def packed_by_blender(blender_ext, root, patterns):
    """What the builder's own walk keeps under `root` with these exclude patterns (plus the manifest)."""
    matcher = blender_ext.PathPatternMatch(list(patterns))

    def keep(path, is_dir):
        path = path.replace(os.sep, "/")
        return not matcher.test_path(path + "/" if is_dir else path)

    kept = {rel.replace(os.sep, "/") for _, rel in blender_ext.scandir_recursive(str(root), filter_fn=keep)}
    return sorted(kept | {"blender_manifest.toml"})


def write_tree(root, manifest_patterns, files, links=()):
    lines = ",\n".join(f"  {p!r}".replace("'", '"') for p in manifest_patterns)
    (root / "blender_manifest.toml").write_text(
        f'id = "probe"\nversion = "1.0.0"\n\n[build]\npaths_exclude_pattern = [\n{lines},\n]\n')
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# probe\n")
    for name, target in links:
        (root / name).symlink_to(root / target)


def test_the_repository(blender_ext):
    patterns = blender_env.manifest()["build"]["paths_exclude_pattern"]
    assert blender_env.addon_files() == packed_by_blender(blender_ext, blender_env.ROOT, patterns)


TRICKY_FILES = [
    "__init__.py", "core/__init__.py", "core/__pycache__/x.cpython-311.pyc", "core/.hidden.py", "core/.cache/y.py",
    "core/tests/inner.py", "tests/t.py", "results/__init__.py", "results/notes.zip", "top.zip", "Makefile",
    "sub/Makefile", "requirements.txt", "requirements-np2.txt", "sub/requirements.txt", "docs/a.md",
    "panels/docs/b.md", "scene.blend1", "panels/scene.blend", "a/b/c.py", "x/a/b/d.py", "x/ab/e.py", "q.txt",
    "qq.txt", "sub/q.txt", "apple.py", "banana.py", "cherry.py", ".venv-np2/lib/z.py", "bench/run.py",
]
TRICKY_PATTERNS = [
    "__pycache__/", ".*", "/*.zip", "/tests/", "/Makefile", "/requirements*.txt", "/docs/", "*.blend[1-9]",
    "a/b/", "?.txt", "[ab]*.py", "/bench/",
]


def test_a_tree_built_to_trip_a_matcher(blender_ext, tmp_path):
    write_tree(tmp_path, TRICKY_PATTERNS, TRICKY_FILES, links=[("linked", "core"), ("linked.py", "q.txt")])
    expected = packed_by_blender(blender_ext, tmp_path, TRICKY_PATTERNS)
    # the oracle really tells these apart (else the comparison below would prove little)
    assert "core/tests/inner.py" in expected and "tests/t.py" not in expected
    assert "results/notes.zip" in expected and "top.zip" not in expected
    assert "x/ab/e.py" in expected and "x/a/b/d.py" not in expected
    assert blender_env.addon_files(str(tmp_path)) == expected


def test_unsupported_patterns_are_refused(tmp_path):
    for pattern in ("!core/keep.py", "core/**/x.py"):
        write_tree(tmp_path, ["/tests/", pattern], ["__init__.py"])
        with pytest.raises(ValueError, match="not supported"):
            blender_env.addon_files(str(tmp_path))
