"""The depth of two meshes from their exactly convex loose parts (depth (2) of core/mesh/__init__.py): the
convex engine's EPA depth of the deepest intersecting pair of convex parts that stand alone in their mesh.
"""
from __future__ import annotations

import numpy as np

from ..contact import Status
from ..convex import collide_convex
from ..shapes import PointCloud
from .pair_frame import Side

__all__ = ["convex_part_depth"]

MAX_CONVEX_PAIRS = 64
"""Cap on pairs of exactly convex loose parts measured by the convex engine for the depth."""


def _part_boxes(side: Side, ids):
    """Pair-frame boxes (lo, hi) of the loose parts `ids` of one side."""
    parts = side.local.parts
    corners = side.vertices[side.local.triangles]
    lo = np.full((parts.count, 3), np.inf)
    hi = np.full((parts.count, 3), -np.inf)
    for axis in range(3):
        np.minimum.at(lo[:, axis], parts.label, corners[:, :, axis].min(axis=1))
        np.maximum.at(hi[:, axis], parts.label, corners[:, :, axis].max(axis=1))
    return lo[ids], hi[ids]


def _alone(side: Side, conv, rows) -> np.ndarray:
    """(conv.size,) bool, set for the rows of `conv` (indices into it) whose part's box meets no other loose part's
    box of the same mesh with a positive volume (then nothing of the mesh lies inside the part or crosses it)."""
    ok = np.zeros(conv.size, bool)
    count = side.local.parts.count
    if count == 1:
        ok[rows] = True
        return ok
    lo, hi = _part_boxes(side, np.arange(count))
    ids = conv[rows]
    overlap = np.minimum(hi[ids][:, None], hi[None]) - np.maximum(lo[ids][:, None], lo[None])  # (r, count, 3)
    meets = np.all(overlap > 0.0, axis=2)
    meets[np.arange(ids.size), ids] = False
    ok[rows] = ~np.any(meets, axis=1)
    return ok


def convex_part_depth(sa: Side, sb: Side, tolerances):
    """Deepest EPA depth among intersecting pairs of exactly convex loose parts (world points), or None.

    Candidates are the pairs of convex parts whose boxes overlap, largest overlap first, at most
    MAX_CONVEX_PAIRS of them."""
    pa, pb = sa.local.parts, sb.local.parts
    conv_a = np.flatnonzero(pa.convex)
    conv_b = np.flatnonzero(pb.convex)
    if conv_a.size == 0 or conv_b.size == 0 or conv_a.size * conv_b.size > 4_000_000:
        return None
    lo_a, hi_a = _part_boxes(sa, conv_a)
    lo_b, hi_b = _part_boxes(sb, conv_b)
    overlap = np.minimum(hi_a[:, None], hi_b[None]) - np.maximum(lo_a[:, None], lo_b[None])  # (na, nb, 3)
    meets = np.all(overlap >= 0.0, axis=2)
    ia, ib = np.nonzero(meets)
    if ia.size == 0:
        return None
    size = np.prod(np.maximum(overlap[ia, ib], 0.0), axis=1) + np.linalg.norm(overlap[ia, ib], axis=1)
    first = np.argsort(-size, kind="stable")[:MAX_CONVEX_PAIRS]

    def cloud(side, parts, k):
        mesh = side.mesh
        return PointCloud(mesh.vertices[np.unique(mesh.triangles[parts.label == k])], mesh.transform)

    ia, ib = ia[first], ib[first]
    # a convex part is a convex solid of its mesh only when no other part of the same mesh reaches into its box
    # (a crate's cavity shell inside its outer shell makes the solid the shell minus the cavity)
    ok_a = _alone(sa, conv_a, np.unique(ia))
    ok_b = _alone(sb, conv_b, np.unique(ib))
    keep = ok_a[ia] & ok_b[ib]
    best = None
    for i, j in zip(ia[keep], ib[keep]):
        c = collide_convex(cloud(sa, pa, conv_a[i]), cloud(sb, pb, conv_b[j]), tolerances)
        if c.status is Status.INTERSECTING and (best is None or c.depth > best[0]):
            best = (c.depth, np.array(c.point_a), np.array(c.point_b))
    return best
