"""Small-vector helpers on 3-tuples of Python floats, shared by the simplex solver, GJK and EPA.

The solvers work on tuples rather than numpy arrays: for fixed 3-component problems plain float arithmetic is an
order of magnitude faster than numpy's per-call overhead.  Everything here is exact float arithmetic with no
tolerance of its own.
"""
from __future__ import annotations

import math

__all__ = ["dot", "sub", "cross", "norm", "unit_or_none", "perpendicular", "triangle_normal"]


def dot(u, v) -> float:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def sub(u, v) -> tuple:
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def cross(u, v) -> tuple:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def norm(u) -> float:
    return math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2])


def unit_or_none(u):
    """u / |u|, or None when u is the zero vector."""
    length = norm(u)
    return (u[0] / length, u[1] / length, u[2] / length) if length > 0.0 else None


def perpendicular(u):
    """Any unit vector perpendicular to the unit vector u."""
    axis = (1.0, 0.0, 0.0) if abs(u[0]) < 0.9 else (0.0, 1.0, 0.0)
    return unit_or_none(cross(u, axis))


def triangle_normal(a, b, c):
    """Unit normal of triangle a b c (right-handed: (b - a) x (c - a) direction), or None when it has no area.

    The two edges are crossed at the vertex facing the longest edge: that angle is the triangle's largest, so the
    product is well conditioned even on slivers (its direction error is about eps / sin(largest angle), where
    crossing at a sharp corner would give eps / sin(smallest angle))."""
    ab2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2 + (b[2] - a[2]) ** 2
    bc2 = (c[0] - b[0]) ** 2 + (c[1] - b[1]) ** 2 + (c[2] - b[2]) ** 2
    ca2 = (a[0] - c[0]) ** 2 + (a[1] - c[1]) ** 2 + (a[2] - c[2]) ** 2
    if bc2 >= ab2 and bc2 >= ca2:
        p, q, r = a, b, c  # longest edge bc: pivot at a
    elif ca2 >= ab2:
        p, q, r = b, c, a  # longest edge ca: pivot at b
    else:
        p, q, r = c, a, b  # longest edge ab: pivot at c
    ux, uy, uz = q[0] - p[0], q[1] - p[1], q[2] - p[2]
    vx, vy, vz = r[0] - p[0], r[1] - p[1], r[2] - p[2]
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    if length == 0.0:
        return None
    return (nx / length, ny / length, nz / length)
