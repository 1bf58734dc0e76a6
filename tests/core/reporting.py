"""Shared helpers of the core tier: the report stash key and tolerance arithmetic used by several test files."""
from __future__ import annotations

import numpy as np
import pytest

REPORT_KEY = pytest.StashKey[list]()

TOUCHING = 1e-9
"""The touching band and the median accuracy target (x scale)."""
WORST = 1e-6
"""The worst-case accuracy target for distances and support separation (x scale)."""


def rounding_floor(scale: float, ref=None, *extra: float) -> float:
    """What float64 can resolve for a pair: 64 ulps of its largest magnitude (world coordinates included).

    A pair 1e6 from the origin is only defined to ~1e-10 in world coordinates, however exact the engine is."""
    magnitude = scale
    if ref is not None:
        magnitude += float(np.max(np.abs(ref)))
    for value in extra:
        magnitude = max(magnitude, abs(float(value)))
    return 64.0 * np.finfo(float).eps * magnitude
