"""Core tier fixtures: a report section in pytest's terminal summary (shown with or without `-s`), and a record
of the mesh query's hierarchy descents.

Tests add lines with the `core_report` fixture (`core_report("title", [lines])`); `pytest_terminal_summary`
prints every section after the run.  Nothing is cached on disk: the corpus results live for one session.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.core.reporting import REPORT_KEY


def pytest_report_header(config):
    import scipy

    return f"core tier: numpy {np.__version__}, scipy {scipy.__version__} (oracle only)"


@pytest.fixture(scope="session")
def core_report(request):
    sections = request.config.stash.setdefault(REPORT_KEY, [])

    def add(title: str, lines: list[str]) -> None:
        sections.append((title, list(lines)))

    return add


@pytest.fixture
def descend_calls(monkeypatch):
    """The list, filled as the test runs, of every `descend` core/mesh/query.py makes: its `near_only` flag (True: the
    band-only descent, False: the full distance descent)."""
    from core.mesh import query

    calls = []
    real = query.descend

    def recorded(*args, **kwargs):
        calls.append(kwargs.get("near_only", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(query, "descend", recorded)
    return calls


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    sections = config.stash.get(REPORT_KEY, [])
    for title, lines in sections:
        terminalreporter.write_sep("-", title)
        for line in lines:
            terminalreporter.write_line(line)
