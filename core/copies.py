"""Which vertex of one cloud is which vertex of its copy, whatever order the copy lists them in.

A duplicate in place keeps its vertex order (Shift+D), but the same shape reaches the engine in another order
just as often: exported and imported again, rebuilt by a modifier, or two arrays a script made.  Such a copy is
as cheap for the facet path (core/facet_depth.py) as one in the same order once its vertices are paired with
the partner's: EPA tries that path early on copies (core/large_pairs.py), and a raw cloud takes its partner's
hull triangulation instead of building its own (core/hull_views.py).  The pairing is only a hint to both: the
facet path and every triangulation are checked as before, so a wrong pairing costs time, never an answer.

`paired_order(a, b, tol)` sorts both clouds along one fixed direction and pairs each vertex of A with the
nearest vertex of B among the few at about its rank there.  Scaling about a point or shifting keeps that order
(projection is monotone under both), a small turn moves a vertex by a rank or two; the pairing must be one to
one and every pair within `tol` per coordinate.  O(n log n) and a few (n, 3) arrays.
"""
from __future__ import annotations

import numpy as np

__all__ = ["paired_order"]

# The sort direction: not along an axis or a diagonal, so the vertices of a shape built on a grid or round an
# axis (cylinders, spheres, boxes) project to distinct values instead of ties.
_DIRECTION = np.array([0.5406408174555976, 0.3714135112468005, 0.7548776662466927])
# Ranks looked at on either side of a vertex's own rank in the partner's order.
_WINDOW = 4


def paired_order(a: np.ndarray, b: np.ndarray, tol: float) -> np.ndarray | None:
    """perm such that b[perm] is a's copy: perm is a permutation and |a[i] - b[perm[i]]| <= tol in every
    coordinate for every i; or None when no such pairing was found (different counts, a different shape, or a
    copy turned or moved too far for the window)."""
    n = a.shape[0]
    if b.shape != a.shape or n == 0 or not tol >= 0.0:
        return None
    # the boxes of a copy agree within tol (every vertex of each is within tol of one of the other's): most
    # pairs that are no copies are told here, before any sort
    for k in range(3):
        ca, cb = a[:, k], b[:, k]
        if abs(float(ca.min()) - float(cb.min())) > tol or abs(float(ca.max()) - float(cb.max())) > tol:
            return None
    ia = np.argsort(a @ _DIRECTION, kind="stable")
    ib = np.argsort(b @ _DIRECTION, kind="stable")
    sa = [np.take(a[:, k], ia) for k in range(3)]  # coordinate columns in sorted order
    sb = [np.take(b[:, k], ib) for k in range(3)]

    def apart(lo: int, hi: int, step: int) -> np.ndarray:
        """max over coordinates of |A's rank r - B's rank r + step| for r in lo..hi-1"""
        d = np.abs(sa[0][lo:hi] - sb[0][lo + step:hi + step])
        for k in (1, 2):
            np.maximum(d, np.abs(sa[k][lo:hi] - sb[k][lo + step:hi + step]), out=d)
        return d

    best = apart(0, n, 0)  # the same rank first: it wins every tie (repeated points)
    if float(best.max()) <= tol:
        perm = np.empty(n, np.int64)
        perm[ia] = ib
        return perm
    match = np.arange(n)
    for step in range(1, _WINDOW + 1):
        if step >= n:
            break
        for lo, hi, shift in ((step, n, -step), (0, n - step, step)):
            d = apart(lo, hi, shift)
            view_best, view_match = best[lo:hi], match[lo:hi]
            closer = d < view_best
            view_best[closer] = d[closer]
            view_match[closer] = np.arange(lo + shift, hi + shift)[closer]
    if float(best.max()) > tol:
        return None
    if np.bincount(match, minlength=n).max() != 1:
        return None
    perm = np.empty(n, np.int64)
    perm[ia] = ib[match]
    return perm
