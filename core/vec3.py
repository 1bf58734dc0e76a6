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
    ax, ay, az = a
    bx, by, bz = b
    cx, cy, cz = c
    abx, aby, abz = bx - ax, by - ay, bz - az
    bcx, bcy, bcz = cx - bx, cy - by, cz - bz
    cax, cay, caz = ax - cx, ay - cy, az - cz
    ab2 = abx * abx + aby * aby + abz * abz
    bc2 = bcx * bcx + bcy * bcy + bcz * bcz
    ca2 = cax * cax + cay * cay + caz * caz
    # The two edges leaving the pivot, as differences formed exactly as (q - p, r - p) would be.
    if bc2 >= ab2 and bc2 >= ca2:
        ux, uy, uz = abx, aby, abz  # longest edge bc: pivot at a, edges b - a and c - a
        vx, vy, vz = -cax, -cay, -caz
    elif ca2 >= ab2:
        ux, uy, uz = bcx, bcy, bcz  # longest edge ca: pivot at b, edges c - b and a - b
        vx, vy, vz = -abx, -aby, -abz
    else:
        ux, uy, uz = cax, cay, caz  # longest edge ab: pivot at c, edges a - c and b - c
        vx, vy, vz = -bcx, -bcy, -bcz
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    if length == 0.0:
        return None
    return (nx / length, ny / length, nz / length)
