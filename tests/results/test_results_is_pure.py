"""results/ is pure: it imports no Blender module (at module level or inside a function), only the standard
library, numpy and the add-on's own `core`, so every word and record it makes is testable without Blender."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.core.test_core_is_pure import BLENDER_MODULES

RESULTS = Path(__file__).resolve().parents[2] / "results"
ALLOWED = {"numpy"} | set(sys.stdlib_module_names)


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level


def test_results_imports_nothing_from_blender():
    files = sorted(RESULTS.rglob("*.py"))
    assert len(files) >= 4
    bad = []
    for path in files:
        for lineno, module, level in _imports(path):
            top = module.split(".")[0]
            if level == 0 and (top in BLENDER_MODULES or top not in ALLOWED):
                bad.append(f"{path.name}:{lineno} imports {module}")
            if level >= 2 and top not in ("core", "results"):
                bad.append(f"{path.name}:{lineno} imports ..{module} (results may use only core)")
    assert not bad, bad


def test_results_import_without_blender():
    from tests.addon_package import addon_module

    text = addon_module("results.text")
    assert text.format_length(0.25) == "0.25"
