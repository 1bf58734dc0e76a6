# SPDX-License-Identifier: GPL-3.0-or-later
"""Live mode: re-check the shown pair (and the results list) when their objects change.  (Being built.)"""
from __future__ import annotations


def set_enabled(context, enabled: bool) -> None:
    """Turn live re-checking on or off."""
