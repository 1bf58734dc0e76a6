"""A bounding volume hierarchy in flat numpy arrays, built and traversed level by level (no loop per node).

Build (local coordinates, once per mesh, shared by `TriangleMesh.moved`):
- triangles are sorted along a Hilbert curve through their centroids; level 0 holds one leaf per triangle in that order,
  and node i of level l+1 has the children 2i and 2i+1 of level l (the last node of a level may have one child),
  so node i of level l covers the sorted triangles [i * 2**l, (i + 1) * 2**l);
- every node has an oriented box (centre + three half-axis vectors): a leaf's axes are its triangle's first
  edge, the in-plane perpendicular and the normal, its extents exact (zero along the normal); an internal node's
  axes are its left child's (neighbouring triangles share a frame closely), its extents cover both children's
  boxes.

Per query (`WorldBVH`): the oriented boxes are mapped by the affine transform (a box maps to a parallelepiped,
whose support function is still exact), and exact axis-aligned boxes are refitted from the transformed vertices.

Lower bound of the distance between the contents of two nodes (`pair_lower_bound`): the largest of the
axis-aligned box distance and three separating-axis gaps, along the line between the two box centres and along
each box's normal.  Flat nodes facing each other (parallel panels, a rod in a ring) get bounds that are nearly
exact, which is what keeps near-ties from flooding the candidate lists.
"""
from __future__ import annotations

import numpy as np

from ..rows import add_rows, column_dot, column_extent, row_cross, row_dot
from .tritri import Planes

__all__ = ["LocalBVH", "WorldBVH", "pair_lower_bound", "refit_boxes", "local_boxes"]

SUBSET_PLANES = 8
"""`WorldBVH.planes_of` builds the planes of only the leaves asked for when they number less than 1 / SUBSET_PLANES
of the leaves."""


def _unit(v, fallback):
    n = np.sqrt(row_dot(v, v))
    ok = n > 0.0
    out = np.where(ok[:, None], v / np.where(ok, n, 1.0)[:, None], fallback)
    return out, ok


def _perpendicular(n):
    """A unit vector perpendicular to each unit n."""
    pick = np.where((np.abs(n[:, 0]) < 0.6)[:, None], np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]))
    u = pick - row_dot(pick, n)[:, None] * n
    return u / np.sqrt(row_dot(u, u))[:, None]


def _spread_table() -> np.ndarray:
    """_SPREAD[x] for x < 1024: the bits of x spread out, bit i moved to bit 3i (uint64)."""
    x = np.arange(1024, dtype=np.uint64)
    out = np.zeros(1024, np.uint64)
    for i in range(10):
        out |= ((x >> np.uint64(i)) & np.uint64(1)) << np.uint64(3 * i)
    return out


_SPREAD = _spread_table()


def _column_bounds(points: np.ndarray):
    """(lo, hi) of (n, 3) points, column by column (a reduction along axis 0 of an (n, 3) array runs a 3-long
    inner loop per row, several times slower; the extremes are the same values)."""
    lo = np.array([points[:, x].min() for x in range(3)])
    hi = np.array([points[:, x].max() for x in range(3)])
    return lo, hi


def _hilbert_level(state: int, octant: int):
    """One bit level of Skilling's transposed Hilbert index as a finite-state transducer: the bit levels are
    taken from the top, and what the levels above did to the lower bits (per level: invert x0's lower bits, or
    exchange x0's lower bits with x_i's) is a signed permutation of the three coordinates (`perm`, `flips`); the
    Gray decode's running flip is one parity bit.  `state` = (perm index x 8 + flips) x 2 + parity, `octant` the
    level's bits of (x0, x1, x2) as x0 << 2 | x1 << 1 | x2.  Returns (the level's three key bits, next state)."""
    perm, parity = list(_PERMUTATIONS[state // 16]), state & 1
    flips = [((state // 2) >> (2 - j)) & 1 for j in range(3)]
    bits = [((octant >> (2 - perm[j])) & 1) ^ flips[j] for j in range(3)]  # this level's bits, as transformed
    for i in range(3):
        if bits[i]:
            flips[0] ^= 1  # x0's lower bits inverted
        elif i:
            perm[0], perm[i] = perm[i], perm[0]  # x0's and x_i's lower bits exchanged
            flips[0], flips[i] = flips[i], flips[0]
    g0, g1 = bits[0], bits[1] ^ bits[0]
    g2 = bits[2] ^ g1
    digit = ((g0 ^ parity) << 2) | ((g1 ^ parity) << 1) | (g2 ^ parity)
    flip_bits = (flips[0] << 2) | (flips[1] << 1) | flips[2]
    return digit, (_PERMUTATIONS.index(tuple(perm)) * 8 + flip_bits) * 2 + (parity ^ g2)


_PERMUTATIONS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
_STATES = 96


def _hilbert_tables(levels: int):
    """(digits, next state) of `levels` bit levels at once, indexed by state x 8**levels + the levels' octants
    (top level first, 3 bits each): the one-level table composed `levels` times."""
    one = [_hilbert_level(state, octant) for state in range(_STATES) for octant in range(8)]
    digit1 = np.array([d for d, _ in one], np.int64)
    next1 = np.array([n for _, n in one], np.int64)
    words = 8 ** levels
    state = np.repeat(np.arange(_STATES), words)
    word = np.tile(np.arange(words), _STATES)
    digits = np.zeros(state.size, np.int64)
    for k in range(levels - 1, -1, -1):
        row = state * 8 + ((word >> (3 * k)) & 7)
        digits = (digits << 3) | digit1[row]
        state = next1[row]
    return digits.astype(np.uint64), state.astype(np.int64)


_HILBERT_CHUNKS = (3, 3, 3, 1)  # bit levels per table look-up, from the top (10 in all)
_HILBERT = {}  # levels -> the tables (built on first use: about 0.8 MB, a few ms)


def hilbert_keys(points: np.ndarray) -> np.ndarray:
    """30-bit Hilbert-curve keys of points quantised on a 1024^3 grid over their bounding box.

    Consecutive cells along a Hilbert curve are always face neighbours (a Morton order jumps), so runs of
    consecutive triangles, which become the nodes of the hierarchy, stay compact.  The key is Skilling's
    transposed index (per bit level from the top, invert or exchange the lower bits, then a Gray decode) with its
    bits interleaved, computed as a finite-state transducer over the bit levels (`_hilbert_level`): the grid
    coordinates' bits are interleaved first (a table look-up per coordinate), then 3, 3, 3 and 1 levels at a
    time go through tables of the transducer (tests/core/test_mesh_hilbert_tables.py compares the keys with the
    bitwise steps written out)."""
    lo, hi = _column_bounds(points)
    extent = float((hi - lo).max())
    if not extent > 0.0:
        return np.zeros(points.shape[0], np.uint64)
    q = np.minimum(((points - lo) * (1023.0 / extent)).astype(np.int64), 1023)
    morton = (_SPREAD[q[:, 0]] << np.uint64(2)) | (_SPREAD[q[:, 1]] << np.uint64(1)) | _SPREAD[q[:, 2]]
    morton = morton.astype(np.int64)
    keys = np.zeros(points.shape[0], np.uint64)
    state = np.zeros(points.shape[0], np.int64)
    shift = 30
    for levels in _HILBERT_CHUNKS:
        if levels not in _HILBERT:
            _HILBERT[levels] = _hilbert_tables(levels)
        digits, following = _HILBERT[levels]
        shift -= 3 * levels
        row = state * 8 ** levels + ((morton >> shift) & (8 ** levels - 1))
        keys |= digits[row] << np.uint64(shift)
        state = following[row]
    return keys


def _pairs(array, axis=0):
    """(left, right) halves of a level's array (nodes along `axis`, 0 or 1) for the next level up; an odd last
    node pairs with itself."""
    if axis == 1:
        if array.shape[1] % 2:
            array = np.concatenate([array, array[:, -1:]], axis=1)
        return array[:, 0::2], array[:, 1::2]
    if array.shape[0] % 2:
        array = np.concatenate([array, array[-1:]])
    return array[0::2], array[1::2]


def refit_boxes(corners: np.ndarray, levels: int):
    """(lo, hi): the axis-aligned box of every node, (nodes, 3) each in the flat node order, from the (m, 3, 3)
    corners of the leaves: a leaf's box around its three corners, each parent's around its children's."""
    lo = [np.minimum(np.minimum(corners[:, 0], corners[:, 1]), corners[:, 2])]
    hi = [np.maximum(np.maximum(corners[:, 0], corners[:, 1]), corners[:, 2])]
    for _ in range(1, levels):
        l0, l1 = _pairs(lo[-1])
        h0, h1 = _pairs(hi[-1])
        lo.append(np.minimum(l0, l1))
        hi.append(np.maximum(h0, h1))
    return np.concatenate(lo), np.concatenate(hi)


def local_boxes(bvh: "LocalBVH", vertices: np.ndarray):
    """`refit_boxes` of a hierarchy on the local `vertices` it holds (for `WorldBVH`'s `boxes`)."""
    return refit_boxes(np.take(vertices, bvh.leaf_triangles, axis=0), bvh.levels)


def _leaf_boxes(a, b, c):
    """The leaves' exact boxes in each triangle's own frame (first edge, in-plane perpendicular, normal), from the
    (m, 3) corners: (centres (m, 3), half-lengths (m, 3) along the three axes, axes (3, m, 3)).  With the first
    corner at 0 the second is at (|ab|, 0, 0) and the third at (ac.u, ac.v, 0) in that frame."""
    ab, ac = b - a, c - a
    length = np.sqrt(row_dot(ab, ab))
    ok_u = length > 0.0
    u = ab / np.where(ok_u, length, 1.0)[:, None]
    if not np.all(ok_u):
        bc = c - b
        u = np.where(ok_u[:, None], u, _unit(bc, np.array([1.0, 0.0, 0.0]))[0])
        length = np.where(ok_u, length, 0.0)
    normal = row_cross(ab, ac)
    n, ok = _unit(normal, np.zeros(3))
    if not np.all(ok):
        n = np.where(ok[:, None], n, _perpendicular(u))
    v = row_cross(n, u)
    cu, cv, cn = row_dot(ac, u), row_dot(ac, v), row_dot(ac, n)
    bu = row_dot(ab, u)
    lo_u, hi_u = np.minimum(np.minimum(bu, cu), 0.0), np.maximum(np.maximum(bu, cu), 0.0)
    lo_v, hi_v = np.minimum(cv, 0.0), np.maximum(cv, 0.0)
    lo_n, hi_n = np.minimum(cn, 0.0), np.maximum(cn, 0.0)
    centre = (a + (0.5 * (lo_u + hi_u))[:, None] * u + (0.5 * (lo_v + hi_v))[:, None] * v
              + (0.5 * (lo_n + hi_n))[:, None] * n)
    lengths = np.stack([0.5 * (hi_u - lo_u), 0.5 * (hi_v - lo_v), 0.5 * (hi_n - lo_n)], axis=1)
    return centre, lengths, np.stack([u, v, n])


def _leaf_columns(a, b, c):
    """`_leaf_boxes` in the coordinate-major layout of `_upper_levels` (centres (3, m), half-lengths (3, m), axes
    (3 axes, 3 coordinates, m)), each number the product or sum `_leaf_boxes` computes, in the same order, from
    the corners' columns; None when a triangle has a zero first edge or a zero normal (`_leaf_boxes` handles
    those)."""
    ax, ay, az = a[:, 0], a[:, 1], a[:, 2]
    abx, aby, abz = b[:, 0] - ax, b[:, 1] - ay, b[:, 2] - az
    acx, acy, acz = c[:, 0] - ax, c[:, 1] - ay, c[:, 2] - az
    length = np.sqrt(abx * abx + aby * aby + abz * abz)
    if not np.all(length > 0.0):
        return None
    ux, uy, uz = abx / length, aby / length, abz / length
    nx, ny, nz = aby * acz - abz * acy, abz * acx - abx * acz, abx * acy - aby * acx  # row_cross(ab, ac)
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    if not np.all(norm > 0.0):
        return None
    nx, ny, nz = nx / norm, ny / norm, nz / norm
    vx, vy, vz = ny * uz - nz * uy, nz * ux - nx * uz, nx * uy - ny * ux  # row_cross(n, u)
    cu = acx * ux + acy * uy + acz * uz
    cv = acx * vx + acy * vy + acz * vz
    cn = acx * nx + acy * ny + acz * nz
    bu = abx * ux + aby * uy + abz * uz
    lo_u, hi_u = np.minimum(np.minimum(bu, cu), 0.0), np.maximum(np.maximum(bu, cu), 0.0)
    lo_v, hi_v = np.minimum(cv, 0.0), np.maximum(cv, 0.0)
    lo_n, hi_n = np.minimum(cn, 0.0), np.maximum(cn, 0.0)
    mid_u, mid_v, mid_n = 0.5 * (lo_u + hi_u), 0.5 * (lo_v + hi_v), 0.5 * (lo_n + hi_n)
    m = a.shape[0]
    centre = np.empty((3, m))
    for k, (x, u, v, n) in enumerate(((ax, ux, vx, nx), (ay, uy, vy, ny), (az, uz, vz, nz))):
        centre[k] = x + mid_u * u + mid_v * v + mid_n * n
    lengths = np.empty((3, m))
    lengths[0], lengths[1], lengths[2] = 0.5 * (hi_u - lo_u), 0.5 * (hi_v - lo_v), 0.5 * (hi_n - lo_n)
    axes = np.empty((3, 3, m))
    axes[0, 0], axes[0, 1], axes[0, 2] = ux, uy, uz
    axes[1, 0], axes[1, 1], axes[1, 2] = vx, vy, vz
    axes[2, 0], axes[2, 1], axes[2, 2] = nx, ny, nz
    return centre, lengths, axes


def _upper_levels(centre, lengths, axes, count):
    """Levels 0 .. count - 1 of the boxes from the leaves' (`_leaf_boxes`, row form): lists of each level's centres
    (3 coordinates, n), half-lengths (3 axes, n) and axes (3 axes, 3 coordinates, n).  A parent takes its left
    child's frame and covers both children's boxes.

    The levels run on coordinate-major arrays (contiguous rows per coordinate instead of strided (n, 3) rows,
    every level's three axes at once); each number is the product or sum the row form computes, in the same order,
    so the boxes are the same bits (tests/core/test_bvh_build_columns.py has the row form)."""
    return _upper_columns(np.ascontiguousarray(centre.T), np.ascontiguousarray(lengths.T),
                          np.ascontiguousarray(axes.transpose(0, 2, 1)), count)


def _upper_columns(centre, lengths, axes, count):
    """`_upper_levels` from the leaves' coordinate-major arrays (`_leaf_columns`)."""
    centres, length_levels, axes_levels = [centre], [lengths], [axes]
    for _ in range(1, count):
        # node i of this level has the children 2i and 2i + 1 below; an odd last child pairs with itself
        # (the parent's axes copied whole: the level's arithmetic then runs on contiguous rows, not ever more
        # strided views of the leaves' axes)
        cl, ll, axes = centre[:, 0::2], lengths[:, 0::2], np.ascontiguousarray(axes[:, :, 0::2])  # the parent takes
        cr, lr, right = centre[:, 1::2], lengths[:, 1::2], axes_levels[-1][:, :, 1::2]  # its left child's frame ...
        if centre.shape[1] % 2:
            cr = np.concatenate([cr, centre[:, -1:]], axis=1)
            lr = np.concatenate([lr, lengths[:, -1:]], axis=1)
            right = np.concatenate([right, axes_levels[-1][:, :, -1:]], axis=2)
        # ... in which the left box is [c.axis_i - l_i, c.axis_i + l_i]; the right box spans
        # c.axis_i +- sum_j |axis_i . right_axis_j| l_j  (the three axes i at once: (3, nodes) arrays)
        pl = cl[0] * axes[:, 0] + cl[1] * axes[:, 1] + cl[2] * axes[:, 2]
        pr = cr[0] * axes[:, 0] + cr[1] * axes[:, 1] + cr[2] * axes[:, 2]
        dots = np.abs(axes[:, None, 0] * right[None, :, 0] + axes[:, None, 1] * right[None, :, 1]
                      + axes[:, None, 2] * right[None, :, 2])  # [i, j, node]
        sr = dots[:, 0] * lr[0] + dots[:, 1] * lr[1] + dots[:, 2] * lr[2]
        lo = np.minimum(pl - ll, pr - sr)
        hi = np.maximum(pl + ll, pr + sr)
        mid = 0.5 * (lo + hi)
        # the centre summed from zero, axis by axis (0 + x turns a -0 into +0, as the row form's sum did)
        centre = 0.0 + mid[0] * axes[0]
        centre += mid[1] * axes[1]
        centre += mid[2] * axes[2]
        lengths = 0.5 * (hi - lo)
        centres.append(centre)
        length_levels.append(lengths)
        axes_levels.append(axes)
    return centres, length_levels, axes_levels


class LocalBVH:
    """The hierarchy of one mesh in its local coordinates.  Flat arrays; level l occupies [offset[l], offset[l+1])."""

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray):
        m = triangles.shape[0]
        # boxes are built relative to the centre of the mesh's own box, so that a mesh whose local coordinates
        # are far from zero keeps small, precise box centres (WorldBVH adds the centre back in the pair frame)
        # (rows gathered with np.take along axis 0: the same values, several times faster than indexing)
        a0, b0, c0 = (np.take(vertices, triangles[:, i], axis=0) for i in range(3))
        (lo_a, hi_a), (lo_b, hi_b), (lo_c, hi_c) = _column_bounds(a0), _column_bounds(b0), _column_bounds(c0)
        lo = np.minimum(np.minimum(lo_a, lo_b), lo_c)
        hi = np.maximum(np.maximum(hi_a, hi_b), hi_c)
        self.origin = 0.5 * (lo + hi)
        a0, b0, c0 = a0 - self.origin, b0 - self.origin, c0 - self.origin
        order = np.argsort(hilbert_keys((a0 + b0 + c0) / 3.0), kind="stable")
        self.order = order
        self.leaf_triangles = np.take(triangles, order, axis=0)
        a, b, c = (np.take(x, order, axis=0) for x in (a0, b0, c0))
        sizes = [m]
        while sizes[-1] > 1:
            sizes.append((sizes[-1] + 1) // 2)
        self.sizes = sizes
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])

        leaves = _leaf_columns(a, b, c)
        if leaves is None:  # a degenerate triangle: the row form, which has its fallbacks
            centres, length_levels, axes_levels = _upper_levels(*_leaf_boxes(a, b, c), len(sizes))
        else:
            centres, length_levels, axes_levels = _upper_columns(*leaves, len(sizes))
        # (nodes, 3) arrays from the levels' coordinate-major columns joined in the flat node order: the centres,
        # the three half-axis vectors of every box (length x unit axis, one product each) and the unit normal axis
        lengths = np.concatenate(length_levels, axis=1)
        axes = np.concatenate(axes_levels, axis=2)
        self.centre = np.ascontiguousarray(np.concatenate(centres, axis=1).T)
        self.half = [np.ascontiguousarray((lengths[i] * axes[i]).T) for i in range(3)]
        self.normal = np.ascontiguousarray(axes[2].T)
        first = [np.arange(m)]
        for _ in range(1, len(sizes)):
            first.append(first[-1][0::2])  # the parent's first leaf is its left child's
        self.first_leaf = np.concatenate(first)

    @property
    def levels(self) -> int:
        return len(self.sizes)


class WorldBVH:
    """A LocalBVH under one placement (pair-local frame): node boxes, refitted AABBs, leaf corners.

    `boxes`: the axis-aligned boxes of every node in the mesh's local coordinates (`local_boxes`), for a placement
    without a linear part: each world coordinate is then the local one plus the offset in one rounding, which is
    monotone, so each refitted box is its local box plus the offset, bit for bit, and neither the leaf corners nor
    the refit are needed (the leaf corners are then gathered on first use)."""

    def __init__(self, local: LocalBVH, world_vertices: np.ndarray, linear, offset, boxes=None):
        self.local = local
        self.vertices = world_vertices
        self._linear, self._offset = linear, offset
        self._leaf_corners = None
        self._rep = None
        # the oriented boxes (centre, half, normal) are placed on first use: some queries read only corners, or
        # only the axis-aligned boxes
        self._centre = self._half = self._normal = self._normal_ok = None
        if linear is None and boxes is not None:
            self._lo, self._hi = add_rows(boxes[0], offset), add_rows(boxes[1], offset)
        else:
            self._lo = self._hi = None  # refitted on first use: some queries ask only for corners and planes
        self._planes = None
        self._columns = None

    @property
    def centre(self) -> np.ndarray:
        """(nodes, 3) centres of every node's oriented box, in the flat node order."""
        if self._centre is None:
            local, linear = self.local, self._linear
            if linear is None:
                self._centre = add_rows(local.centre, local.origin + self._offset)
            else:
                self._centre = local.centre @ linear.T + (linear @ local.origin + self._offset)
        return self._centre

    @centre.setter
    def centre(self, value) -> None:
        self._centre = value

    @property
    def half(self) -> list:
        """Three (nodes, 3) arrays: the half-axis vectors of every node's oriented box."""
        if self._half is None:
            local, linear = self.local, self._linear
            self._half = local.half if linear is None else [h @ linear.T for h in local.half]
        return self._half

    @half.setter
    def half(self, value) -> None:
        self._half = value

    def _place_normals(self) -> None:
        # the box's normal axis in this frame: the inverse transpose maps normals (a singular map: none)
        local, linear = self.local, self._linear
        if linear is None:
            self._normal = local.normal
            self._normal_ok = np.ones(local.normal.shape[0], bool)
        else:
            det = float(np.linalg.det(linear))
            if det != 0.0 and np.isfinite(det):
                normal = local.normal @ np.linalg.inv(linear)
                length = np.sqrt(row_dot(normal, normal))
                self._normal_ok = length > 0.0
                self._normal = normal / np.where(self._normal_ok, length, 1.0)[:, None]
            else:
                self._normal = local.normal
                self._normal_ok = np.zeros(local.normal.shape[0], bool)

    @property
    def normal(self) -> np.ndarray:
        """(nodes, 3) unit normal axis of every node's oriented box (where `normal_ok`)."""
        if self._normal is None:
            self._place_normals()
        return self._normal

    @normal.setter
    def normal(self, value) -> None:
        self._normal = value

    @property
    def normal_ok(self) -> np.ndarray:
        """(nodes,) whether each node's `normal` is one (a singular map has none)."""
        if self._normal_ok is None:
            self._place_normals()
        return self._normal_ok

    @normal_ok.setter
    def normal_ok(self, value) -> None:
        self._normal_ok = value

    @property
    def lo(self) -> np.ndarray:
        """(nodes, 3) low corners of every node's axis-aligned box, in the flat node order."""
        if self._lo is None:
            self._lo, self._hi = refit_boxes(self.leaf_corners, self.local.levels)
        return self._lo

    @property
    def hi(self) -> np.ndarray:
        """(nodes, 3) high corners, as `lo`."""
        if self._hi is None:
            self._lo, self._hi = refit_boxes(self.leaf_corners, self.local.levels)
        return self._hi

    @lo.setter
    def lo(self, value) -> None:
        self._lo = value

    @hi.setter
    def hi(self, value) -> None:
        self._hi = value

    @property
    def leaf_corners(self) -> np.ndarray:
        """(m, 3, 3) corners of every leaf's triangle, in leaf order."""
        if self._leaf_corners is None:
            self._leaf_corners = np.take(self.vertices, self.local.leaf_triangles, axis=0)
        return self._leaf_corners

    def corners(self, leaves) -> np.ndarray:
        """(k, 3, 3) corners of leaves `leaves`: rows of `leaf_corners`, gathered from the vertices when those are
        not all gathered yet (the same numbers)."""
        if self._leaf_corners is not None:
            return np.take(self._leaf_corners, leaves, axis=0)
        return np.take(self.vertices, self.local.leaf_triangles[leaves], axis=0)

    @leaf_corners.setter
    def leaf_corners(self, value) -> None:
        self._leaf_corners = value

    @property
    def rep(self) -> np.ndarray:
        """A surface point of each node: the first corner of its first leaf."""
        if self._rep is None:
            self._rep = np.take(self.vertices, self.local.leaf_triangles[self.local.first_leaf, 0], axis=0)
        return self._rep

    @rep.setter
    def rep(self, value) -> None:
        self._rep = value

    @property
    def columns(self):
        """The node data as columns: lo, hi, centre, normal as three (n,) views each, half as three such triples
        (views, no copy: gathering from a strided column is as fast as from a contiguous one, and several times
        faster than gathering rows of the (n, 3) arrays)."""
        if self._columns is None:
            self._columns = _Columns(self)
        return self._columns

    @property
    def planes(self):
        """The leaves' triangles as columns for `tritri.crossing_indexed` (built on first use)."""
        if self._planes is None:
            self._planes = Planes(self.leaf_corners)
        return self._planes

    def planes_of(self, leaves):
        """(`Planes` holding the given leaves, their rows in it): `planes` of every leaf when built already or when
        `leaves` (with repeats) number at least 1 / SUBSET_PLANES of the leaves, else the planes of only the leaves
        used (the same numbers row by row), so that a band of a large mesh (a drag's crossing curve) does not pay
        for the planes of all of them."""
        if self._planes is not None or SUBSET_PLANES * leaves.size >= self.local.sizes[0]:
            return self.planes, leaves
        used, rows = np.unique(leaves, return_inverse=True)
        return Planes(self.corners(used)), rows

    def node(self, level: int, index):
        return self.local.offsets[level] + index

    def children(self, level: int, index):
        """Children (level - 1 indices) of nodes `index` at `level`: (left, right, has_right)."""
        left = 2 * index
        right = left + 1
        return left, right, right < self.local.sizes[level - 1]


class _Columns(dict):
    """`WorldBVH.columns`: each entry split into columns on first use (the box distances read only lo and hi, and
    need no oriented boxes placed)."""

    def __init__(self, world: WorldBVH):
        super().__init__()
        self._world = world

    def __missing__(self, key):
        def split(a):
            return [a[:, x] for x in range(3)]
        world = self._world
        if key == "half":
            value = [split(h) for h in world.half]
        elif key in ("lo", "hi", "centre", "normal"):
            value = split(getattr(world, key))
        elif key == "normals_all_ok":
            value = bool(np.all(world.normal_ok))  # then no pair of `pair_lower_bound` needs `normal_ok`
        else:
            raise KeyError(key)
        self[key] = value
        return value


def box_lower_bound(wa: WorldBVH, na, wb: WorldBVH, nb):
    """Distance between the axis-aligned boxes of flat nodes na (of wa) and nb (of wb): the cheap first test."""
    # the boxes' rows gathered whole (four gathers, not twelve), the gaps of the three axes in one (k, 3) array; the
    # squares summed x, y, z in that order, as the column form sums them
    gap = np.maximum(np.maximum(np.take(wb.lo, nb, axis=0) - np.take(wa.hi, na, axis=0),
                                np.take(wa.lo, na, axis=0) - np.take(wb.hi, nb, axis=0)), 0.0)
    gap *= gap
    return np.sqrt(gap[:, 0] + gap[:, 1] + gap[:, 2])


STACKED_PAIRS = 512
"""`pair_lower_bound` runs at most this many pairs on stacked arrays (few numpy calls: the cost of a small call is
their count) and more on columns (the stacked products' temporaries cost more per pair than the calls save)."""


def pair_lower_bound(wa: WorldBVH, na, wb: WorldBVH, nb, bound=None):
    """Lower bound of the distance between the contents of flat nodes na (of wa) and nb (of wb); `bound` is
    their box_lower_bound when already known: the largest of it and the separating-axis gaps along the line
    between the two box centres and along each box's normal.

    Both forms (`_pair_bound` on stacked arrays, `_pair_bound_columns`) compute each number as the row form does,
    the same operands in the same order (which NaN a result keeps), so the bounds are the same bits whichever runs
    (tests/core/test_mesh_bound_columns.py and test_bvh_pair_bound_nonfinite.py have the row form)."""
    if bound is None:
        bound = box_lower_bound(wa, na, wb, nb)
    if na.size <= STACKED_PAIRS:
        return _pair_bound(wa, na, wb, nb, bound)
    return _pair_bound_columns(wa, na, wb, nb, bound)


def _pair_bound_columns(wa: WorldBVH, na, wb: WorldBVH, nb, bound):
    """`pair_lower_bound` on gathered (pairs,) columns."""
    ka, kb = wa.columns, wb.columns
    ha = [[h[x][na] for x in range(3)] for h in ka["half"]]
    hb = [[h[x][nb] for x in range(3)] for h in kb["half"]]
    d = [kb["centre"][x][nb] - ka["centre"][x][na] for x in range(3)]
    dist = np.sqrt(column_dot(d, d))
    ok = dist > 0.0
    safe = np.where(ok, dist, 1.0)
    u = [d[x] / safe for x in range(3)]
    ext = column_extent(ha, u) + column_extent(hb, u)
    bound = np.maximum(bound, np.where(ok, dist - ext, 0.0))
    for k, side, nodes in ((ka, wa, na), (kb, wb, nb)):
        axis = [k["normal"][x][nodes] for x in range(3)]
        okn = side.normal_ok[nodes]
        sep = np.abs(column_dot(d, axis))
        ext = column_extent(ha, axis) + column_extent(hb, axis)
        bound = np.maximum(bound, np.where(okn, sep - ext, 0.0))
    return bound


def _pair_bound(wa: WorldBVH, na, wb: WorldBVH, nb, bound):
    """`pair_lower_bound` of a few pairs: the rows of both boxes gathered into one array and the three axes into
    another, one product for all the dot products (the node data are gathered as they are, rows of 3: a
    coordinate-major copy of them would cost each placement of a large mesh more than its calls save)."""
    k = na.size
    g = np.empty((2, 4, k, 3))  # [side, (centre, half 0, half 1, half 2), pair, coordinate]
    axes = np.empty((3, k, 3))  # the line between the centres, a's normal, b's normal
    for side, world, nodes in ((0, wa, na), (1, wb, nb)):
        # (the nodes are in range: "clip" clips nothing, and lets `take` write into `out` unbuffered)
        np.take(world.centre, nodes, axis=0, out=g[side, 0], mode="clip")
        for i, h in enumerate(world.half):
            np.take(h, nodes, axis=0, out=g[side, 1 + i], mode="clip")
        np.take(world.normal, nodes, axis=0, out=axes[1 + side], mode="clip")
    d = g[1, 0] - g[0, 0]
    sq = d * d
    dist = np.sqrt(sq[:, 0] + sq[:, 1] + sq[:, 2])
    ok = dist > 0.0
    np.divide(d, np.where(ok, dist, 1.0)[:, None], out=axes[0])
    # |half_i . axis| summed over a box's three half-axes: its extent along the axis
    p = g[None, :, 1:] * axes[:, None, None]  # [axis, side, half, pair, coordinate]
    s = p[..., 0] + p[..., 1]
    s += p[..., 2]
    np.abs(s, out=s)
    e = s[:, :, 0] + s[:, :, 1]
    e += s[:, :, 2]
    ext = e[:, 0] + e[:, 1]  # [axis, pair]: a's extent plus b's
    q = d * axes[1:]
    sep = q[..., 0] + q[..., 1]
    sep += q[..., 2]
    np.abs(sep, out=sep)
    sep -= ext[1:]
    bound = np.maximum(bound, np.where(ok, dist - ext[0], 0.0))
    all_a, all_b = wa.columns["normals_all_ok"], wb.columns["normals_all_ok"]
    bound = np.maximum(bound, sep[0] if all_a else np.where(wa.normal_ok[na], sep[0], 0.0))
    return np.maximum(bound, sep[1] if all_b else np.where(wb.normal_ok[nb], sep[1], 0.0))
