"""Marks every collected test with its tiers (blender, gui, corpora, slow) from the table in tests/tiers.py.

pytest.ini registers the markers and turns on --strict-markers; `make check` runs the tests that carry none.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.tiers import tiers_of

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    for item in items:
        path = item.path.resolve()
        if not path.is_relative_to(HERE):
            continue
        test_id = "::".join([path.relative_to(HERE).as_posix(), *item.nodeid.split("::")[1:]])
        for marker in sorted(tiers_of(test_id)):
            item.add_marker(getattr(pytest.mark, marker))
