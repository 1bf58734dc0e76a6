"""core/facet_depth.py `_smallest_first` (the facet path's candidate order without a full sort) against numpy's
stable argsort as the oracle: the rows it returns are a prefix of np.argsort(values, kind="stable"), at least
`count` long (all of them when count >= size), on seeded values with many ties, negative zeros and huge ranges."""
from __future__ import annotations

import numpy as np
import pytest

from core.facet_depth import _smallest_first


@pytest.mark.parametrize("seed", range(6))
def test_a_prefix_of_the_stable_sort(seed):
    rng = np.random.default_rng([4501, seed])
    for _ in range(300):
        n = int(rng.integers(1, 500))
        kind = seed % 3
        if kind == 0:  # few distinct values: ties everywhere, also across the count-th one
            values = rng.integers(0, int(rng.integers(1, 20)), n).astype(float)
        elif kind == 1:
            values = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300)
        else:
            values = np.where(rng.random(n) < 0.5, -0.0, 0.0) + rng.integers(0, 3, n)
        count = int(rng.integers(1, 600))
        full = np.argsort(values, kind="stable")
        part = _smallest_first(values, count)
        assert part.size >= min(count, n)
        assert np.array_equal(part, full[:part.size])
