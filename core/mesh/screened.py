"""The exact distances of the first batch of leaf candidates (`descent.best_distance`'s first chunk), with the
pairs that can matter to it measured and the others only bounded.

Of a batch of triangle pairs (sorted by their lower bounds) the best-first stage keeps the first pair at the
least distance (it replaces the best known distance only if strictly smaller) and every pair within the touching
band.  So the pairs that matter are those at most max(min(m, best), band) apart, m being the least distance of
any pair of the batch: the first HEAD pairs are measured exactly, which gives an m; the others get the
separating-axis bound (`tritri.separation_bound`, several times cheaper) and only those whose bound is within
that limit plus `prune` are measured too.  A pair left out is farther than the limit (the bound's rounding is
orders of magnitude below `prune`, 1e-12 of the scale): it can neither be the first nearest nor within the band,
so the batch's answer is the one measuring every pair gives, bit for bit (each pair's distance is its own row of
the kernel)."""
from __future__ import annotations

import numpy as np

from .tritri import separation_bound, triangle_triangle

__all__ = ["screened_distances", "HEAD", "SCREEN_ABOVE"]

HEAD = 64
"""Pairs measured before the others are screened (the most promising ones: the batch is in lower-bound order)."""

SCREEN_ABOVE = 4 * HEAD
"""Smaller batches are measured whole: two kernel calls and the bound cost more than the pairs screening spares
(the kernel's cost per call is that of about 60 pairs; the bound costs about a tenth of the kernel per pair)."""


def screened_distances(X, Y, best: float, band: float, prune: float):
    """(d, xa, xb) as `triangle_triangle(X, Y)` gives them for every pair that can be the first nearest one
    (when nearer than `best`) or lie within `band`; d is inf (and xa, xb zero) for the pairs certainly farther."""
    k = X.shape[0]
    if k <= SCREEN_ABOVE:
        return triangle_triangle(X, Y)
    d = np.full(k, np.inf)
    xa = np.zeros((k, 3))
    xb = np.zeros((k, 3))
    d[:HEAD], xa[:HEAD], xb[:HEAD] = triangle_triangle(X[:HEAD], Y[:HEAD])
    limit = max(min(float(d[:HEAD].min()), best), band) + prune
    rest = HEAD + np.flatnonzero(separation_bound(X[HEAD:], Y[HEAD:]) <= limit)
    if rest.size:
        d[rest], xa[rest], xb[rest] = triangle_triangle(X[rest], Y[rest])
    return d, xa, xb
