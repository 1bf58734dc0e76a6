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


ANY_ALONE_PARTS = 256
"""Meshes of up to this many loose parts are first asked whether any part stands alone (`_any_alone`)."""


def _all_part_boxes(side: Side):
    """Pair-frame boxes (lo, hi), (count, 3) each, of every loose part of one side: the extremes of its
    triangles' corners (gathered part by part, each part's extremes taken in one reduction: the same values)."""
    parts = side.local.parts
    corners = side.vertices[side.local.triangles]
    if parts.count == 1:
        flat = corners.reshape(-1, 3)
        return (np.array([[flat[:, x].min() for x in range(3)]]), np.array([[flat[:, x].max() for x in range(3)]]))
    order = np.argsort(parts.label, kind="stable")
    starts = np.concatenate([[0], np.cumsum(parts.triangle_count)[:-1]])
    lo = np.empty((parts.count, 3))
    hi = np.empty((parts.count, 3))
    for axis in range(3):
        column = corners[:, :, axis][order]
        lo[:, axis] = np.minimum.reduceat(column.min(axis=1), starts)
        hi[:, axis] = np.maximum.reduceat(column.max(axis=1), starts)
    return lo, hi


def _alone_mask(lo, hi, ids) -> np.ndarray:
    """For the parts `ids`: their box meets no other part's box (of all parts' boxes lo, hi) with a positive
    volume."""
    overlap = np.minimum(hi[ids][:, None], hi[None]) - np.maximum(lo[ids][:, None], lo[None])  # (r, count, 3)
    meets = np.all(overlap > 0.0, axis=2)
    meets[np.arange(ids.size), ids] = False
    return ~np.any(meets, axis=1)


def _any_alone(side: Side, boxes) -> bool:
    """Does some loose part of the side (of several, `boxes` their `_all_part_boxes`) stand alone (`_alone`)?  When
    none does, no pair of parts can be measured, whichever parts are convex."""
    return bool(np.any(_alone_mask(*boxes, np.arange(side.local.parts.count))))


def _alone(side: Side, conv, rows, boxes) -> np.ndarray:
    """(conv.size,) bool, set for the rows of `conv` (indices into it) whose part's box meets no other loose part's
    box of the same mesh with a positive volume (then nothing of the mesh lies inside the part or crosses it).
    `boxes`: the side's `_all_part_boxes`."""
    ok = np.zeros(conv.size, bool)
    count = side.local.parts.count
    if count == 1:
        ok[rows] = True
        return ok
    ok[rows] = _alone_mask(*boxes, conv[rows])
    return ok


def convex_part_depth(sa: Side, sb: Side, tolerances):
    """Deepest EPA depth among intersecting pairs of exactly convex loose parts (world points), or None.

    Candidates are the pairs of convex parts whose boxes overlap, largest overlap first, at most
    MAX_CONVEX_PAIRS of them."""
    pa, pb = sa.local.parts, sb.local.parts
    boxes_a = boxes_b = None
    # a side of several parts none of which stands alone: nothing to measure, and the parts' convexity, when not
    # worked out yet, is not asked for (a single part's is known already: the whole mesh's)
    if 1 < pa.count <= ANY_ALONE_PARTS and not pa.convex_known:
        boxes_a = _all_part_boxes(sa)
        if not _any_alone(sa, boxes_a):
            return None
    if 1 < pb.count <= ANY_ALONE_PARTS and not pb.convex_known:
        boxes_b = _all_part_boxes(sb)
        if not _any_alone(sb, boxes_b):
            return None
    conv_a = np.flatnonzero(pa.convex)
    conv_b = np.flatnonzero(pb.convex)
    if conv_a.size == 0 or conv_b.size == 0 or conv_a.size * conv_b.size > 4_000_000:
        return None
    boxes_a = _all_part_boxes(sa) if boxes_a is None else boxes_a
    boxes_b = _all_part_boxes(sb) if boxes_b is None else boxes_b
    lo_a, hi_a = boxes_a[0][conv_a], boxes_a[1][conv_a]
    lo_b, hi_b = boxes_b[0][conv_b], boxes_b[1][conv_b]
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
    ok_a = _alone(sa, conv_a, np.unique(ia), boxes_a)
    ok_b = _alone(sb, conv_b, np.unique(ib), boxes_b)
    keep = ok_a[ia] & ok_b[ib]
    best = None
    for i, j in zip(ia[keep], ib[keep]):
        c = collide_convex(cloud(sa, pa, conv_a[i]), cloud(sb, pb, conv_b[j]), tolerances)
        if c.status is Status.INTERSECTING and (best is None or c.depth > best[0]):
            best = (c.depth, np.array(c.point_a), np.array(c.point_b))
    return best
