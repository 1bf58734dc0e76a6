"""The suite's tiers as pytest markers (registered in pytest.ini, which turns on --strict-markers).

- `blender` and `gui` go on every test of tests/blender/ and tests/gui/, by directory, here;
- `corpora` (the whole seeded corpora) and `slow` (single long tests) are set in the test files themselves.

`make check` runs what carries none of them (core units and properties, results, tooling); `make test` runs all.
"""
from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TIER_OF_DIRECTORY = {"blender": pytest.mark.blender, "gui": pytest.mark.gui}


def pytest_collection_modifyitems(items):
    for item in items:
        path = item.path.resolve()
        if path.is_relative_to(HERE) and path.parent != HERE:
            tier = TIER_OF_DIRECTORY.get(path.relative_to(HERE).parts[0])
            if tier is not None:
                item.add_marker(tier)
