"""Row-wise and column-wise 3-vector arithmetic on numpy arrays, shared by the mesh query, the hull checks and the
facet path, and a spread of unit directions (`fibonacci_directions`).

Two layouts: *rows*, (k, 3) arrays (`row_dot`, `row_cross`, `row_extent`, `unit_rows`), and *columns*, three
(k,) arrays for x, y and z (`column_dot`, `column_extent`).  Every function adds the three coordinate products in
x, y, z order, each product and sum rounded once, so the rows and the columns forms give the same bits, and
callers that must agree to the bit (a value reached by two paths) can rely on it.  Column arithmetic is used
instead of `np.einsum` / `np.cross` because it is several times faster on 3 columns and its order of sums is
fixed.  No tolerance of its own.
"""
from __future__ import annotations

import numpy as np

__all__ = ["row_dot", "row_cross", "row_extent", "unit_rows", "column_dot", "column_extent",
           "fibonacci_directions", "add_rows"]


def row_dot(u, v):
    """Row-wise dot product of (..., 3) arrays."""
    return u[..., 0] * v[..., 0] + u[..., 1] * v[..., 1] + u[..., 2] * v[..., 2]


def row_extent(H, u):
    """Half-width along u (k, 3) of parallelepipeds with half-axis vectors H (three (k, 3) arrays):
    sum_i |H_i . u|."""
    return np.abs(row_dot(H[0], u)) + np.abs(row_dot(H[1], u)) + np.abs(row_dot(H[2], u))


def row_cross(u, v):
    """Cross products of (..., 3) arrays (broadcast), one coordinate at a time (4x faster than np.cross on (k, 3)
    rows)."""
    out = np.empty(np.broadcast_shapes(u.shape, v.shape))
    out[..., 0] = u[..., 1] * v[..., 2] - u[..., 2] * v[..., 1]
    out[..., 1] = u[..., 2] * v[..., 0] - u[..., 0] * v[..., 2]
    out[..., 2] = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    return out


def unit_rows(v: np.ndarray) -> np.ndarray:
    """(k, 3) rows scaled to unit length; zero rows stay zero."""
    length = np.sqrt(np.einsum("ij,ij->i", v, v))
    length[length == 0.0] = 1.0
    out = np.empty(v.shape)
    for k in range(3):  # column by column: a (k, 3) / (k, 1) division runs one 3-long loop per row
        np.divide(v[:, k], length, out=out[:, k])
    return out


def column_dot(u, v):
    """a . b of three coordinate columns each (`row_dot`'s order of sums)."""
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def column_extent(H, u):
    """`row_extent` on columns: H three triples of (k,) arrays, u a triple."""
    return np.abs(column_dot(H[0], u)) + np.abs(column_dot(H[1], u)) + np.abs(column_dot(H[2], u))


def fibonacci_directions(count: int) -> np.ndarray:
    """`count` unit directions spread evenly over the sphere (a Fibonacci lattice)."""
    i = np.arange(count) + 0.5
    z = 1.0 - 2.0 * i / count
    r = np.sqrt(np.maximum(0.0, 1.0 - z * z))
    phi = i * (np.pi * (3.0 - np.sqrt(5.0)))
    return np.column_stack([r * np.cos(phi), r * np.sin(phi), z])


def add_rows(rows: np.ndarray, offset: np.ndarray, block: int = 64) -> np.ndarray:
    """rows + offset for (n, 3) rows and a 3-vector, the same numbers, faster: numpy's broadcast over a 3-long last
    axis runs a 3-long inner loop per row, so whole blocks of rows go through as rows of 3 x `block` numbers."""
    n = rows.shape[0]
    whole = n - n % block
    out = np.empty(rows.shape)
    np.add(rows[:whole].reshape(-1, 3 * block), np.tile(offset, block), out=out[:whole].reshape(-1, 3 * block))
    np.add(rows[whole:], offset, out=out[whole:])
    return out
