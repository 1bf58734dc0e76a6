"""core/ is pure Python + numpy: no Blender module, nothing from the add-on, importable on its own.

1. An AST scan of every .py file under core/ rejects imports of Blender's modules (bpy, mathutils, bmesh, gpu,
   gpu_extras, bpy_extras, blf, addon_utils, ...) and any relative import that leaves the package
   (`from .. import x`, `from ..operators import y`); absolute imports must be the standard library or numpy.
2. A subprocess (`python -s -c`, PYTHONPATH removed) copies core/ alone into a temporary directory and imports it there with `python -c` (the
   repository is not on sys.path, the working directory is the temp dir), runs one query, and checks that
   sys.modules holds no Blender module afterwards.
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core"
BLENDER_MODULES = {"bpy", "mathutils", "bmesh", "gpu", "gpu_extras", "bpy_extras", "blf", "addon_utils",
                   "bgl", "bl_ui", "bl_operators", "idprop", "aud", "freestyle", "imbuf", "rna_prop_ui"}
ALLOWED_TOP_LEVEL = {"numpy"} | set(sys.stdlib_module_names)

FILES = sorted(CORE.rglob("*.py"))


def test_core_has_files():
    assert (CORE / "__init__.py").is_file()
    assert len(FILES) >= 4


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    depth = len(path.relative_to(CORE).parts) - 1  # packages below core/ (core/x.py: 0)
    bad = []

    def absolute(lineno, module):
        top = module.split(".")[0]
        if top in BLENDER_MODULES:
            bad.append(f"line {lineno}: imports Blender module {module!r}")
        elif top != "core" and top not in ALLOWED_TOP_LEVEL:
            bad.append(f"line {lineno}: imports {module!r} (core may use only the standard library and numpy)")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                absolute(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                absolute(node.lineno, node.module or "")
            elif node.level - 1 > depth:
                bad.append(f"line {node.lineno}: relative import leaves core/ "
                           f"(from {'.' * node.level}{node.module or ''} import ...)")
        elif isinstance(node, ast.Call):  # __import__("bpy"), importlib.import_module("bpy")
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("__import__", "import_module") and node.args:
                arg = node.args[0]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    bad.append(f"line {node.lineno}: dynamic import of a computed name")
                elif arg.value.split(".")[0] in BLENDER_MODULES:
                    bad.append(f"line {node.lineno}: dynamic import of Blender module {arg.value!r}")
    return bad


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORE)) for p in FILES])
def test_no_blender_or_outside_imports(path):
    bad = _problems(path)
    assert not bad, f"{path.relative_to(CORE.parent)}:\n  " + "\n  ".join(bad)


def test_the_scan_catches_what_it_must(tmp_path):
    """The scanner itself: each forbidden form is reported, the allowed ones are not."""
    global CORE
    fake = tmp_path / "core"
    (fake / "sub").mkdir(parents=True)
    cases = {
        "import bpy\n": True, "from mathutils import Vector\n": True, "import gpu_extras.batch\n": True,
        "from .. import operators\n": True, "from ..panels import x\n": True, "import scipy\n": True,
        "__import__('bmesh')\n": True, "import importlib\nimportlib.import_module('blf')\n": True,
        "import numpy as np\n": False, "from . import shapes\n": False, "import math, dataclasses\n": False,
        "from .contact import Contact\n": False,
    }
    saved, CORE = CORE, fake
    try:
        for source, flagged in cases.items():
            f = fake / "mod.py"
            f.write_text(source)
            assert bool(_problems(f)) is flagged, source
        g = fake / "sub" / "deep.py"
        g.write_text("from .. import shapes\n")  # core/sub/deep.py -> core: still inside
        assert not _problems(g)
        g.write_text("from ... import operators\n")
        assert _problems(g)
    finally:
        CORE = saved


def test_core_imports_alone_in_a_clean_interpreter(tmp_path):
    shutil.copytree(CORE, tmp_path / "core", ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import json, sys\n"
        "import core\n"
        "c = core.collide([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [[2, 0, 0], [3, 0, 0], [2, 1, 0], [2, 0, 1]])\n"
        f"blender = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(BLENDER_MODULES)!r})\n"
        "print(json.dumps({'file': core.__file__, 'status': c.status.name, 'distance': c.distance,"
        " 'blender': blender, 'path': sys.path}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    out = subprocess.run([sys.executable, "-s", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(report["file"]).resolve().is_relative_to(tmp_path.resolve()), report["file"]
    repo = str(CORE.parent)
    assert all(not p or Path(p).resolve() != Path(repo).resolve() for p in report["path"]), report["path"]
    assert report["blender"] == []
    assert report["status"] == "SEPARATED" and abs(report["distance"] - 1.0) < 1e-12
