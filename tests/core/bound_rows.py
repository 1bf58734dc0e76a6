"""The node-pair bounds of core/mesh/bvh.py in row form, written out from that module's docstring: the box
distance, then the gaps along the line between the two box centres and along each box's normal, each dot product
summed x, y, z with the same operands in the same order as the engine's.  The oracle of the tests that hold
`bvh.box_lower_bound` and `bvh.pair_lower_bound` to those numbers bit for bit."""
from __future__ import annotations

import numpy as np


def rows_box(wa, na, wb, nb):
    gap = np.maximum(np.maximum(wb.lo[nb] - wa.hi[na], wa.lo[na] - wb.hi[nb]), 0.0)
    return np.sqrt(gap[:, 0] * gap[:, 0] + gap[:, 1] * gap[:, 1] + gap[:, 2] * gap[:, 2])


def _dot(u, v):
    return u[:, 0] * v[:, 0] + u[:, 1] * v[:, 1] + u[:, 2] * v[:, 2]


def _extent(H, u):
    return np.abs(_dot(H[0], u)) + np.abs(_dot(H[1], u)) + np.abs(_dot(H[2], u))


def rows_pair(wa, na, wb, nb, bound):
    """The bound of node pairs (na, nb), raised from `bound` by the three separating-axis gaps."""
    ha, hb = [h[na] for h in wa.half], [h[nb] for h in wb.half]
    d = wb.centre[nb] - wa.centre[na]
    dist = np.sqrt(_dot(d, d))
    ok = dist > 0.0
    u = d / np.where(ok, dist, 1.0)[:, None]
    bound = np.maximum(bound, np.where(ok, dist - (_extent(ha, u) + _extent(hb, u)), 0.0))
    for axis, okn in ((wa.normal[na], wa.normal_ok[na]), (wb.normal[nb], wb.normal_ok[nb])):
        ext = _extent(ha, axis) + _extent(hb, axis)
        bound = np.maximum(bound, np.where(okn, np.abs(_dot(d, axis)) - ext, 0.0))
    return bound
