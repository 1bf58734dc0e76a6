"""The worst pair among two sets of convex pieces: the answer for objects made of several convex parts.

`collide_worst(parts_a, parts_b)` checks every piece of A against every piece of B and returns the `Contact` of the
worst pair: the deepest intersection, else a touching pair, else the closest separated pair.  The pair's answer in
Loose Parts mode (each loose part of a mesh as its own convex hull) is that contact.

Pairs are visited in order of a lower bound of their distance, the gap between their world bounding boxes: once
no pair intersects or touches and the next bound exceeds the best distance found, no later pair can be closer, and
the rest are skipped.  Pairs whose boxes overlap are always checked (any of them may be the deepest).
"""
from __future__ import annotations

import numpy as np

from .contact import Contact, Status
from .query import collide
from .shapes import as_shape
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = ["collide_worst", "worse"]

_RANK = {Status.INTERSECTING: 0, Status.TOUCHING: 1, Status.SEPARATED: 2}


def worse(first: Contact, second: Contact) -> bool:
    """True when `first` is a worse clash than `second`: by status (intersecting, touching, separated), then by
    signed distance (deeper, or closer)."""
    return (_RANK[first.status], first.distance) < (_RANK[second.status], second.distance)


def _box_gaps(lo_a, hi_a, lo_b, hi_b) -> np.ndarray:
    """(n, m) Euclidean gaps between the world boxes of A's and B's pieces (0 where they overlap)."""
    gap = np.maximum(lo_b[None, :, :] - hi_a[:, None, :], lo_a[:, None, :] - hi_b[None, :, :])
    return np.sqrt(np.square(np.maximum(gap, 0.0)).sum(axis=2))


def collide_worst(parts_a, parts_b, tolerances: Tolerances = DEFAULT_TOLERANCES) -> tuple[Contact, int, int]:
    """(contact, i, j): the worst pair of `parts_a[i]` and `parts_b[j]` (Shapes or (n, 3) vertex arrays).

    ValueError when either list is empty or holds invalid input."""
    shapes_a = [as_shape(p, f"part {i} of a") for i, p in enumerate(parts_a)]
    shapes_b = [as_shape(p, f"part {j} of b") for j, p in enumerate(parts_b)]
    if not shapes_a or not shapes_b:
        raise ValueError("each side needs at least one part")
    bounds_a = [s.bounds() for s in shapes_a]
    bounds_b = [s.bounds() for s in shapes_b]
    gaps = _box_gaps(np.array([lo for lo, _ in bounds_a]), np.array([hi for _, hi in bounds_a]),
                     np.array([lo for lo, _ in bounds_b]), np.array([hi for _, hi in bounds_b]))
    order = np.argsort(gaps, axis=None, kind="stable")
    best = None
    for flat in order:
        i, j = divmod(int(flat), len(shapes_b))
        if best is not None and best[0].status is Status.SEPARATED and gaps[i, j] > best[0].distance:
            break  # every remaining pair is at least this far apart
        contact = collide(shapes_a[i], shapes_b[j], tolerances)
        if best is None or worse(contact, best[0]):
            best = (contact, i, j)
    return best
