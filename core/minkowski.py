"""Points of the Minkowski difference M = A_core - B_core, shared by GJK and EPA.

A `SupportPoint` keeps, with each point w of M, the point a of A and b of B it came from (w = a - b), so that a
combination of support points with barycentric weights gives the matching points on A and on B
(`weighted_points`).  `minkowski_support` is the one way the solvers query the shapes.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["SupportPoint", "minkowski_support", "minkowski_supports", "weighted_points"]


class SupportPoint(NamedTuple):
    """One vertex of the Minkowski difference with its origin: w = a - b (all 3-tuples of floats).

    A named tuple (immutable, hashable, compared by value): the solvers make one per support query, and a tuple
    is several times cheaper to build than a frozen dataclass."""

    w: tuple
    a: tuple
    b: tuple


def minkowski_support(shape_a, shape_b, direction) -> SupportPoint:
    """Support point of A_core - B_core along `direction` (any nonzero 3-vector: tuple, list or array)."""
    data_a = shape_a._support_data
    data_b = shape_b._support_data
    if data_a is None or data_b is None:
        a = shape_a.support_max(direction)
        b = shape_b.support_min(direction)
        return SupportPoint((a[0] - b[0], a[1] - b[1], a[2] - b[2]), a, b)
    # Both are point clouds with their support data ready: `PointCloud.support_max` / `support_min` inlined.
    world, rows, ox, oy, oz = data_a
    x, y, z = rows[world.dot(direction).argmax()]
    a = (x + ox, y + oy, z + oz)
    world, rows, ox, oy, oz = data_b
    x, y, z = rows[world.dot(direction).argmin()]
    b = (x + ox, y + oy, z + oz)
    return SupportPoint((a[0] - b[0], a[1] - b[1], a[2] - b[2]), a, b)


def minkowski_supports(shape_a, shape_b, directions) -> list:
    """`minkowski_support` along each row of the (k, 3) array `directions`, one batched query per shape when
    both shapes offer `core_supports` (point clouds do), else one query per direction.  Each is a support point
    along its direction (the batched product may round differently in the last bit, so a tie between vertices of
    one support face may resolve to another of them)."""
    many_a = getattr(shape_a, "core_supports", None)
    many_b = getattr(shape_b, "core_supports", None)
    if many_a is None or many_b is None:
        return [minkowski_support(shape_a, shape_b, d) for d in directions]
    d = np.asarray(directions, dtype=np.float64)
    a_all = many_a(d).tolist()
    b_all = many_b(-d).tolist()
    return [SupportPoint((a[0] - b[0], a[1] - b[1], a[2] - b[2]), tuple(a), tuple(b)) for a, b in zip(a_all, b_all)]


def weighted_points(points, weights):
    """(sum w_i a_i, sum w_i b_i): the points on A and B of the Minkowski point sum w_i (a_i - b_i)."""
    ax = ay = az = bx = by = bz = 0.0
    for p, lam in zip(points, weights):
        ax += lam * p.a[0]
        ay += lam * p.a[1]
        az += lam * p.a[2]
        bx += lam * p.b[0]
        by += lam * p.b[1]
        bz += lam * p.b[2]
    return (ax, ay, az), (bx, by, bz)
