"""The add-on's pure layers (`core`, `results`, the draw-data half of `panels.overlay`) imported without Blender.

They import each other relatively (`from ..core import Status`), which needs the repository root to be imported as
a package.  The checkout folder's name differs between machines, so the root is loaded here under the add-on's
own id, `collision_inspector`, from its path; its `__init__.py` imports nothing at module level.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "collision_inspector"


def addon_module(dotted: str):
    """`addon_module("results.text")` -> the module collision_inspector.results.text (no Blender needed)."""
    if NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(NAME, os.path.join(ROOT, "__init__.py"),
                                                      submodule_search_locations=[ROOT])
        package = importlib.util.module_from_spec(spec)
        sys.modules[NAME] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{NAME}.{dotted}")
