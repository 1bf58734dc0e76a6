"""The leaf pairs within the touching band for two meshes with large flat faces cut into many triangles (a
1,024-gon cap fanned from one rim vertex): the pairs the band-only descent keeps (core/mesh/query.py's
`crossing_and_containment`), without the descent's cost on such faces.

Why: a fan's slivers each span the cap, so their boxes overlap nearly all of the other cap's.  Against a copy
turned by 1e-4, the two caps cross along a line and the descent keeps ~200,000 sliver pairs per cap within the
band (their boxes and oriented bounds cannot part slivers that cross the other cap's plane), of which ~1,000
cross; the crossing test then runs on all of them.

How: each mesh's triangles are grouped by plane (`flat_groups`: unit normal and offset rounded, in local
coordinates; groups of at least `GROUP_MIN` triangles).  The pairs that involve a triangle outside every group
come from the descent on hierarchies of those triangles alone: B's against the whole of A, A's against B's
groups.  A group F of A
against a group G of B: in the pair frame every vertex of F lies within t_F of a plane P_F (measured), every
vertex of G within t_G of P_G.  Two triangles a of F and b of G at most r apart have points x of a and y of b
with |x - y| <= r, so x lies within t_G + r of P_G, y within t_F + r of P_F, and their projections on any unit
direction L differ by at most r.  So with I_a the projection on L of the part of a within t_G + r of P_G (and
J_b likewise) the pair has I_a and J_b within r of each other: intervals on a line, paired by sorting
(O(n log n) plus the pairs).  L is along P_F x P_G (the line where the caps cross: the intervals are then short),
any unit direction serves for soundness.  The clipping is computed on a slab wider by the band than needed, so
its rounding (which grows as the edges turn parallel to the slab, as the widening's effect does) never cuts a
point of the narrower slab off.

Every pair `meet` finds crossing lies within the band (the premise of the band-only descent, which keeps no
other pair), so every crossing pair of two groups is a candidate.  Every candidate then gets the descent's own leaf
test on the whole meshes' hierarchies (`box_lower_bound`, then `pair_lower_bound`, kept within the band).  The
candidates reach farther than that test (r = `REACH` x band; the sub-hierarchies' descent at twice the band), so
a rounding difference between the hierarchies never drops a pair.  The pairs kept differ from the descent's only
by pairs that cannot cross (farther apart than r, though their bounds are loose; or parted by a bound of the
descent's upper levels), so `meet` finds the same crossing pairs and segments, listed by leaf index instead of in
the descent's order.
"""
from __future__ import annotations

import math

import numpy as np

from ..rows import row_cross, row_dot
from .bvh import LocalBVH, WorldBVH, box_lower_bound, pair_lower_bound
from .descent import PRUNE, Found, descend

__all__ = ["GROUP_MIN", "flat_groups", "near_pairs"]

GROUP_MIN = 64
"""Triangles in one plane from which they form a group (fewer: the descent parts them well enough)."""

REACH = 4.0
"""How far apart (in bands) two triangles of two groups may be and still be candidates (see the module docstring:
a margin over the band the leaf test keeps, so rounding on either side never drops a pair)."""

_NORMAL_CELL = 1e-7
"""Rounding of the unit normals (and of the offsets, relative to the mesh size) that groups the triangles: a
plane's triangles whose rounding falls on two sides of a cell boundary make two groups (slower, never wrong)."""


def flat_groups(local):
    """(groups, rest) of a mesh's local data: triangle index arrays of each plane holding at least `GROUP_MIN`
    triangles, and the indices of every other triangle (degenerate ones included).  Kept on the local data."""
    def build():
        tris = local.triangles
        v = local.vertices
        a, b, c = v[tris[:, 0]], v[tris[:, 1]], v[tris[:, 2]]
        n = row_cross(b - a, c - a)
        length = np.sqrt(row_dot(n, n))
        ok = length > 0.0
        n = n / np.where(ok, length, 1.0)[:, None]
        used = v[local.used] if local.used.size else np.zeros((1, 3))
        size = float(np.linalg.norm(used.max(axis=0) - used.min(axis=0)))
        if not (size > 0.0 and math.isfinite(size)):
            return [], np.arange(tris.shape[0])
        offset = row_dot(n, a - used.min(axis=0))
        rows = np.flatnonzero(ok)
        key = [np.round(n[rows, x] / _NORMAL_CELL) for x in range(3)]
        key.append(np.round(offset[rows] / (_NORMAL_CELL * size)))
        order = np.lexsort(key[::-1])  # rows of equal keys next to each other, in index order
        change = np.zeros(rows.size, bool)
        change[0:1] = True
        for k in key:
            sorted_k = k[order]
            change[1:] |= sorted_k[1:] != sorted_k[:-1]
        starts = np.flatnonzero(change)
        ends = np.append(starts[1:], rows.size)
        groups = [rows[order[s:e]] for s, e in zip(starts, ends) if e - s >= GROUP_MIN]
        in_group = np.zeros(tris.shape[0], bool)
        for g in groups:
            in_group[g] = True
        return groups, np.flatnonzero(~in_group)
    return local.cached("flat groups", build)


def _part(side, rows, key):
    """(the hierarchy of the triangles `rows` of a side's mesh placed in the pair frame, each of its leaves' leaf
    in the whole mesh's hierarchy); None when `rows` is empty.  The local hierarchy is kept on the local data
    under `key` (one key per set of rows)."""
    if rows.size == 0:
        return None
    local = side.local
    sub = local.cached(key, lambda: LocalBVH(local.vertices, local.triangles[rows]))
    world = WorldBVH(sub, side.vertices, side.mesh._linear, side.offset)
    return world, _leaf_of_triangle(local)[rows[sub.order]]


def _leaf_of_triangle(local):
    """Per triangle, its leaf in the mesh's own hierarchy."""
    def build():
        order = local.bvh.order
        leaf = np.empty_like(order)
        leaf[order] = np.arange(order.size)
        return leaf
    return local.cached("leaf of triangle", build)


def _plane(vertices: np.ndarray, triangles: np.ndarray):
    """(unit normal, offset, thickness) of a group in the pair frame: every vertex of the group lies within
    `thickness` of the plane {x: normal . x = offset} (measured, plus a rounding allowance); None when the group's
    area vector vanishes."""
    a, b, c = (vertices[triangles[:, i]] for i in range(3))
    n = row_cross(b - a, c - a).sum(axis=0)
    length = float(np.linalg.norm(n))
    if not (length > 0.0 and math.isfinite(length)):
        return None
    n = n / length
    corners = vertices[np.unique(triangles)]
    h = corners @ n
    offset = 0.5 * (float(h.min()) + float(h.max()))
    reach = float(np.abs(corners).max())
    thickness = float(np.abs(h - offset).max()) + 64.0 * np.finfo(float).eps * (reach + abs(offset))
    return n, offset, thickness


def _intervals(corners, normal, offset, half, along):
    """Per triangle (corners: three (k, 3) arrays), the range of `along` . x over the part of the triangle within
    `half` of the plane {normal . x = offset}: (lo, hi), lo = +inf where the triangle misses that slab."""
    h = [c @ normal - offset for c in corners]
    p = [c @ along for c in corners]
    lo = np.full(h[0].shape, np.inf)
    hi = np.full(h[0].shape, -np.inf)
    for hk, pk in zip(h, p):  # corners inside the slab
        inside = np.abs(hk) <= half
        np.minimum(lo, np.where(inside, pk, np.inf), out=lo)
        np.maximum(hi, np.where(inside, pk, -np.inf), out=hi)
    for i, j in ((0, 1), (1, 2), (2, 0)):  # where the edges cross the slab's two faces
        hi_, hj = h[i], h[j]
        for level in (-half, half):
            cut = (hi_ - level) * (hj - level) < 0.0
            t = np.clip((level - hi_) / np.where(cut, hj - hi_, 1.0), 0.0, 1.0)
            q = p[i] + t * (p[j] - p[i])
            np.minimum(lo, np.where(cut, q, np.inf), out=lo)
            np.maximum(hi, np.where(cut, q, -np.inf), out=hi)
    return lo, hi


def _overlapping(lo_a, hi_a, lo_b, hi_b):
    """All (i, j) whose closed intervals [lo_a[i], hi_a[i]] and [lo_b[j], hi_b[j]] meet (empty ones, lo = inf,
    meet nothing), in two disjoint sets: lo_b[j] in [lo_a[i], hi_a[i]], and lo_a[i] in (lo_b[j], hi_b[j]]."""
    ia, ja = _starts_within(lo_a, hi_a, lo_b, "left")
    jb, ib = _starts_within(lo_b, hi_b, lo_a, "right")
    return np.concatenate([ia, ib]), np.concatenate([ja, jb])


def _starts_within(lo, hi, starts, side):
    """All (i, j) with starts[j] in [lo[i], hi[i]] (side "left") or in (lo[i], hi[i]] (side "right")."""
    rows = np.flatnonzero(np.isfinite(lo))
    cols = np.flatnonzero(np.isfinite(starts))
    order = cols[np.argsort(starts[cols], kind="stable")]
    sorted_starts = starts[order]
    first = np.searchsorted(sorted_starts, lo[rows], side=side)
    last = np.searchsorted(sorted_starts, hi[rows], side="right")
    return _expand(rows, first, last, order)


def _expand(rows, first, last, order):
    """(rows[k] repeated, order[first[k]:last[k]]) for every k, flattened."""
    count = np.maximum(last - first, 0)
    total = int(count.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    rep = np.repeat(np.arange(rows.size), count)
    within = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
    return rows[rep], order[first[rep] + within]


def near_pairs(frame):
    """The leaf pairs within the band that can cross (a `Found` with ia, ib, lb, as `descend(..., near_only=True)`
    gives them; by leaf index) for two meshes that each have a group (`flat_groups`) meeting one of the other's;
    None otherwise (no group on one side, no two groups near each other: the descent parts those well), or when
    the band is too thin against rounding for the slab argument.  The caller then descends."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    groups_a, rest_a = flat_groups(sa.local)
    groups_b, rest_b = flat_groups(sb.local)
    if not groups_a or not groups_b or not band >= 1e-12 * scale:
        return None
    wa, wb = sa.world, sb.world
    leaf_a, leaf_b = _leaf_of_triangle(sa.local), _leaf_of_triangle(sb.local)
    tri_a, tri_b = sa.local.triangles, sb.local.triangles
    found_a, found_b = [], []

    # group against group: intervals along the line where their planes meet
    reach = REACH * band
    for fa in groups_a:
        plane_f = _plane(sa.vertices, tri_a[fa])
        for gb in groups_b:
            plane_g = _plane(sb.vertices, tri_b[gb])
            if plane_f is None or plane_g is None:
                return None
            (nf, df, tf), (ng, dg, tg) = plane_f, plane_g
            along = np.cross(nf, ng)
            length = float(np.linalg.norm(along))
            if length > 0.0:
                along = along / length
            else:  # parallel planes: any unit direction in F's plane
                along = np.cross(nf, np.eye(3)[int(np.argmin(np.abs(nf)))])
                along = along / np.linalg.norm(along)
            corners_f = [sa.vertices[tri_a[fa, k]] for k in range(3)]
            corners_g = [sb.vertices[tri_b[gb, k]] for k in range(3)]
            lo_f, hi_f = _intervals(corners_f, ng, dg, tg + reach + band, along)
            lo_g, hi_g = _intervals(corners_g, nf, df, tf + reach + band, along)
            slack = reach + 64.0 * np.finfo(float).eps * (scale + float(np.abs(sa.vertices).max())
                                                          + float(np.abs(sb.vertices).max()))
            i, j = _overlapping(lo_f - slack, hi_f + slack, lo_g, hi_g)
            found_a.append(leaf_a[fa[i]])
            found_b.append(leaf_b[gb[j]])
    if not any(x.size for x in found_a):
        # no two groups meet (parallel caps apart, a shifted copy): the descent parts such faces well
        return None

    # pairs with a triangle outside every group: B's other triangles against the whole of A, then A's other
    # triangles against B's groups (each pair once)
    part_b = _part(sb, rest_b, "flat rest bvh")
    if part_b is not None:
        got = descend(wa, part_b[0], 2.0 * band, PRUNE * scale, None, near_only=True)
        found_a.append(got.ia)
        found_b.append(part_b[1][got.ib])
    part_a = _part(sa, rest_a, "flat rest bvh")
    if part_a is not None:
        in_groups_b = np.concatenate(groups_b)
        part_g = _part(sb, in_groups_b, "flat groups bvh")
        got = descend(part_a[0], part_g[0], 2.0 * band, PRUNE * scale, None, near_only=True)
        found_a.append(part_a[1][got.ia])
        found_b.append(part_g[1][got.ib])

    ia = np.concatenate(found_a).astype(np.int64)
    ib = np.concatenate(found_b).astype(np.int64)
    # the descent's leaf test on the whole meshes' hierarchies (leaf l is node l at level 0)
    bound = box_lower_bound(wa, ia, wb, ib)
    alive = bound <= band
    ia, ib, bound = ia[alive], ib[alive], bound[alive]
    bound = pair_lower_bound(wa, ia, wb, ib, bound)
    keep = bound <= band
    ia, ib, bound = ia[keep], ib[keep], bound[keep]
    order = np.lexsort((ib, ia))
    found = Found()
    found.beyond = False
    found.ia, found.ib, found.lb = ia[order], ib[order], bound[order]
    found.ub, found.ub_points = -math.inf, (wa.rep[-1], wb.rep[-1])
    found.dropped_lb = math.inf
    return found
