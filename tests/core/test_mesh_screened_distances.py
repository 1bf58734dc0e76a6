"""The first batch of the best-first stage measured with screening (core/mesh/screened.py) gives what measuring
every pair gives, for everything `best_distance` takes from it: the first pair at the least distance (when that is
below the best known), its distance and points bit for bit, and the same pairs within the band; every pair it
does measure has the exact kernel's numbers."""
from __future__ import annotations

import numpy as np
import pytest

from core.mesh.screened import SCREEN_ABOVE, screened_distances
from core.mesh.tritri import triangle_triangle


def _batch(rng, k):
    """k triangle pairs around a shell (many at similar distances, a few touching or crossing, some repeated so
    that the least distance is tied), in lower-bound-like order (by the distance of their centroids)."""
    centre_a = rng.normal(size=(k, 3))
    centre_a /= np.linalg.norm(centre_a, axis=1)[:, None]
    centre_b = centre_a * rng.uniform(1.0, 1.3, (k, 1))
    A = centre_a[:, None] + 0.05 * rng.normal(size=(k, 3, 3))
    B = centre_b[:, None] + 0.05 * rng.normal(size=(k, 3, 3))
    repeat = rng.integers(0, k, k // 10)
    A[k - repeat.size:], B[k - repeat.size:] = A[repeat], B[repeat]
    order = np.argsort(np.linalg.norm(A.mean(axis=1) - B.mean(axis=1), axis=1), kind="stable")
    return A[order], B[order]


@pytest.mark.parametrize("seed", range(8))
def test_screened_batch_answers_as_the_full_batch(seed):
    rng = np.random.default_rng([20261127, seed])
    # odd seeds: batches that are screened; even seeds: small ones, measured whole
    size = rng.integers(SCREEN_ABOVE + 1, 3 * SCREEN_ABOVE) if seed % 2 else rng.integers(1, SCREEN_ABOVE)
    A, B = _batch(rng, int(size))
    full_d, full_a, full_b = triangle_triangle(A, B)
    for best in (np.inf, float(np.quantile(full_d, 0.3)), float(full_d.min()), 0.0):
        for band in (0.0, 1e-9, float(np.quantile(full_d, 0.05)), float(np.quantile(full_d, 0.5))):
            d, xa, xb = screened_distances(A, B, best, band, 1e-12)
            j, full_j = int(np.argmin(d)), int(np.argmin(full_d))
            if full_d[full_j] < best:
                assert j == full_j
                assert d[j].tobytes() == full_d[j].tobytes()
                assert xa[j].tobytes() == full_a[j].tobytes() and xb[j].tobytes() == full_b[j].tobytes()
            else:
                assert not d[j] < best
            assert np.array_equal(d <= band, full_d <= band)
            measured = np.isfinite(d)
            assert d[measured].tobytes() == full_d[measured].tobytes()
            assert xa[measured].tobytes() == full_a[measured].tobytes()
