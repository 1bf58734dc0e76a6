"""The worst pair among two sets of convex pieces: the answer for objects made of several convex parts.

`collide_worst(parts_a, parts_b)` checks every piece of A against every piece of B and returns the `Contact` of the
worst pair: the deepest intersection, else a touching pair, else the closest separated pair.  The pair's answer in
Loose Parts mode (each loose part of a mesh as its own convex hull) is that contact.

When the worst pair intersects, its depth is the objects' depth (any move that separates the objects separates
that pair), but its move may push B into another piece: the answer's `separation` is the shortest of the
intersecting pairs' moves that every pair re-checks clear of (else the shortest move that clears every piece along
one of a few directions), and `gap` its length minus the depth.

Pairs are visited in order of a lower bound of their distance, the gap between their world bounding boxes: once
no pair intersects or touches and the next bound exceeds the best distance found, no later pair can be closer, and
the rest are skipped.  Pairs whose boxes overlap are always checked (any of them may be the deepest).
"""
from __future__ import annotations

from dataclasses import replace

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
    crossing = []
    for flat in order:
        i, j = divmod(int(flat), len(shapes_b))
        if best is not None and best[0].status is Status.SEPARATED and gaps[i, j] > best[0].distance:
            break  # every remaining pair is at least this far apart
        contact = collide(shapes_a[i], shapes_b[j], tolerances)
        if contact.status is Status.INTERSECTING:
            crossing.append(contact)
        if best is None or worse(contact, best[0]):
            best = (contact, i, j)
    if len(shapes_a) * len(shapes_b) > 1 and best[0].status is Status.INTERSECTING:
        move = _move_clearing_all(shapes_a, shapes_b, crossing, tolerances)
        worst = best[0]
        best = (replace(worst, separation=move, gap=max(0.0, float(np.linalg.norm(move)) - worst.depth)),
                best[1], best[2])
    return best


def _moved_by(shape, offset):
    transform = np.array(shape.transform, dtype=np.float64)
    transform[:3, 3] += offset
    return shape.moved(transform)


def _clears(shapes_a, shapes_b, move, tolerances) -> bool:
    """True when no piece of B moved by `move` intersects a piece of A (pairs whose boxes do not meet cannot)."""
    moved = [_moved_by(s, move) for s in shapes_b]
    bounds_a = [s.bounds() for s in shapes_a]
    for b in moved:
        lo_b, hi_b = b.bounds()
        for a, (lo_a, hi_a) in zip(shapes_a, bounds_a):
            if np.all(lo_a <= hi_b) and np.all(lo_b <= hi_a) \
                    and collide(a, b, tolerances).status is Status.INTERSECTING:
                return False
    return True


def _clearing_along(shapes_a, shapes_b, direction) -> np.ndarray:
    """The move along the unit `direction` after which every piece of B lies beyond a plane that every piece of A
    lies behind: B's lowest support along it brought up to A's highest (so no pair's interiors can meet)."""
    top_a = max(float(s.support(direction) @ direction) for s in shapes_a)
    bottom_b = min(float(s.support(-direction) @ direction) for s in shapes_b)
    return max(0.0, top_a - bottom_b) * direction


def _move_clearing_all(shapes_a, shapes_b, crossing, tolerances) -> np.ndarray:
    """The shortest candidate move of B that leaves no pair of pieces intersecting: each intersecting pair's own
    move, checked against every pair, else the shortest clearing move (valid by construction) along their directions
    and normals and the world axes."""
    moves = sorted((np.asarray(c.separation) for c in crossing), key=lambda m: float(np.linalg.norm(m)))
    for move in moves:
        if _clears(shapes_a, shapes_b, move, tolerances):
            return move
    directions = [m / np.linalg.norm(m) for m in moves if np.any(m)] + [np.asarray(c.normal) for c in crossing]
    directions += list(np.vstack([np.eye(3), -np.eye(3)]))  # the world axes: a bar pinched along z may slide along y
    clearing = [_clearing_along(shapes_a, shapes_b, d) for d in directions]
    return min(clearing, key=lambda m: float(np.linalg.norm(m)))
