"""Lock-step EPA: core/epa.py's expansion for many pairs of point clouds at once, in numpy.

`collide_many` (core/batch.py) runs it on the pairs whose lock-step GJK (core/lockstep.py) ended with a solid
tetrahedron around the origin.  Each pair keeps its own polytope in fixed-size arrays (vertices, faces with their
planes, an alive flag, and a directed-edge -> face table standing in for `_Polytope.edge_face`), and every step
works on all the pairs still expanding:

- the closest alive face is the first face of smallest offset (`_Polytope.closest_face`'s heap orders by
  (offset, face index): the same face);
- its support points on A and B come from one padded product per block of clouds of similar size for both
  shapes (as the lock-step GJK's, over vertex rows gathered once and reused: core/lockstep.py `Gathered`); a step
  with at most `_Sides.scalar_rows` pairs left takes the scalar product of each instead (cheaper than setting up
  the blocks, and the scalar query's own answer);
- the visible faces and the horizon are found by the same depth-first walk as `_Polytope._visible_spreading`
  (the same stack order, so the same horizon order and the same new face indices), one face per pair and step;
- the horizon must be one simple loop (`_Polytope._replace`), then the fan is added in horizon order;
- a certified face (support within the gap, or the support point already one of its corners) whose triangle holds
  the origin's projection on its plane (`_settle`'s first case) ends the pair; the pairs with a certified face
  wait, their polytopes untouched, and are closed together a few times a run (see `_run`).

The arithmetic is epa.py's, formula by formula (the same sums in the same order, each product and sum rounded
once), so a pair takes the same steps and ends on the same face with the same bits.  Where the vectorised support
product could round differently from the scalar one (two vertices within 1e-14 x |vertex| of each other along the
direction), that support is taken with the scalar product instead, so the same vertex wins, unless the step
settles whichever of them wins (`_unsettled_ties`: the point is then only compared with EPA's gap).  Every other
case leaves the pair to the scalar engine, which runs EPA again from the same tetrahedron: a tetrahedron that is
not well shaped, a face whose support needs `_settle`'s refinement, a horizon that is not a disc, a sliver, a
non-finite value, or the step budget spent.  tests/core/test_lockstep_epa.py compares every answer with the
scalar engine's, field by field.
"""
from __future__ import annotations

import numpy as np

from .lockstep import TIE, Gathered, _edges, column_products, top_and_ties
from .simplex import TRIANGLE_SIN2_MIN

__all__ = ["lockstep_epa"]

_WELL_SHAPED_TETRA = 1e-6
"""core/epa.py's test of GJK's tetrahedron (6 x volume > this x longest edge^3); pairs within rounding of it go
to the scalar engine."""
_TIE = TIE
"""Two vertices whose products with the direction are closer than this x |vertex| x sum|d_i| may be ordered
differently by the batched and the scalar product (core/lockstep.py `TIE`): such supports are taken with the
scalar product."""
_SETTLE_MARGIN = 2e-14
"""A main-loop step whose certified gap is below EPA's gap by more than this x (|n|_1 x reach + |offset|)
settles whichever of its near-tied support vertices wins, so its ties are left unresolved (`_unsettled_ties`:
ten times the rounding bound)."""
_CLOSE_AFTER = 512
"""Certified pairs gathered before they are closed together (see `_run`)."""
_NEXT_CORNER, _PREVIOUS_CORNER = np.array([1, 2, 0]), np.array([2, 0, 1])
"""Each corner's successor and predecessor around a face (corner k's edge runs to corner _NEXT_CORNER[k]); also
the components k + 1 and k + 2 (mod 3) of a cross product's component k."""
_SEEN, _NOT_SEEN = np.int8(1), np.int8(2)
"""`_add_point`'s marks of a tested face: the new point sees it, or not."""


def _at(array, rows, index):
    """array[rows, index] for an (m, k, ...) C-contiguous array (rows and index broadcast): one take along the
    flattened first two axes, several times faster than numpy's two-array index on rows of vectors."""
    flat = array.reshape((-1,) + array.shape[2:])
    return flat.take(rows * array.shape[1] + index, axis=0)


def _plane(a, b, c):
    """`epa._plane` over rows: (normals (m, 3), offsets (m,)); zero-area rows get normal 0 and offset inf.

    Whole rows per call where the scalar code works component by component: each product is rounded once and the
    sums are taken in its order ((x + y) + z), so the bits are its own.  The work runs on coordinate rows (3, m)
    (each a contiguous array: no strided (m, 3, 3) temporaries and no takes along a short axis, several times
    cheaper on the fan of a large step)."""
    m = len(a)
    edges = np.empty((9, m))  # rows 3e + k: coordinate k of edge e (ab, bc, ca)
    at, bt, ct = a.T, b.T, c.T
    np.subtract(bt, at, out=edges[0:3])
    np.subtract(ct, bt, out=edges[3:6])
    np.subtract(at, ct, out=edges[6:9])
    sq = edges * edges
    ab2, bc2, ca2 = (sq[0::3] + sq[1::3]) + sq[2::3]
    # Crossed at the corner facing the longest edge: a (ab x -ca), else b (bc x -ab), else c (ca x -bc).
    pivot = np.where((bc2 >= ab2) & (bc2 >= ca2), 0, np.where(ca2 >= ab2, 1, 2))
    column = np.arange(m) + (np.arange(3) * m)[:, None]  # coordinate k of row i at k * m + i
    flat = edges.reshape(-1)
    p = flat.take(pivot * (3 * m) + column)
    q = flat.take((pivot + 2) % 3 * (3 * m) + column)
    np.negative(q, out=q)
    # p x q, component k = p[k+1] q[k+2] - p[k+2] q[k+1]
    normal = p[_NEXT_CORNER] * q[_PREVIOUS_CORNER]
    normal -= p[_PREVIOUS_CORNER] * q[_NEXT_CORNER]
    sq = normal * normal
    length = np.sqrt((sq[0] + sq[1]) + sq[2])
    normal /= length
    s = (at + bt) + ct
    s *= normal
    offset = ((s[0] + s[1]) + s[2]) / 3.0
    zero = length == 0.0
    if zero.any():
        normal[:, zero] = 0.0
        offset[zero] = np.inf
    return normal.T, offset


def _closest(p0, p1, p2):
    """`simplex.closest_on_triangle` over rows: (q (m, 3), weights (m, 3), sliver); sliver marks the rows where
    the scalar code compares the in-plane and the edge solutions (left to the scalar engine)."""
    x0, y0, z0 = p0[:, 0], p0[:, 1], p0[:, 2]
    x1, y1, z1 = p1[:, 0], p1[:, 1], p1[:, 2]
    x2, y2, z2 = p2[:, 0], p2[:, 1], p2[:, 2]
    ux, uy, uz = x1 - x0, y1 - y0, z1 - z0
    vx, vy, vz = x2 - x0, y2 - y0, z2 - z0
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    nn = nx * nx + ny * ny + nz * nz
    u = (nx * (y1 * z2 - z1 * y2) + ny * (z1 * x2 - x1 * z2) + nz * (x1 * y2 - y1 * x2)) / nn
    v = (nx * (y2 * z0 - z2 * y0) + ny * (z2 * x0 - x2 * z0) + nz * (x2 * y0 - y2 * x0)) / nn
    w = 1.0 - u - v
    wx, wy, wz = x2 - x1, y2 - y1, z2 - z1
    longest2 = np.maximum(np.maximum(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz),
                          wx * wx + wy * wy + wz * wz)
    inside = (nn > 0.0) & (u >= 0.0) & (v >= 0.0) & (w >= 0.0)
    sliver = inside & ~(nn > TRIANGLE_SIN2_MIN * longest2 * longest2)
    # The in-plane point as `closest_on_triangle` sums it (a zero weight adds nothing; the sum starts at +0.0 and
    # never becomes -0.0, so adding +0.0 instead changes no bit).
    q = np.empty((len(p0), 3))
    for axis, (c0, c1, c2) in enumerate(((x0, x1, x2), (y0, y1, y2), (z0, z1, z2))):
        t = 0.0 + np.where(u != 0.0, u * c0, 0.0)
        t = t + np.where(v != 0.0, v * c1, 0.0)
        q[:, axis] = t + np.where(w != 0.0, w * c2, 0.0)
    weights = np.stack([u, v, w], axis=1)
    out = np.flatnonzero(~inside)
    if len(out):
        q[out], weights[out] = _edges(p0[out], p1[out], p2[out])
    return q, weights, sliver


def _miss(q, normal, offset):
    """|q - offset x normal|, as `epa._own_projection` measures it."""
    dx = q[:, 0] - offset * normal[:, 0]
    dy = q[:, 1] - offset * normal[:, 1]
    dz = q[:, 2] - offset * normal[:, 2]
    return np.sqrt(dx * dx + dy * dy + dz * dz)


class _Sides:
    """The support queries of one side (A: largest product, B: smallest) over the pairs' cloud blocks.

    blocks: core/batch.py's lock-step blocks (padded by repeating a vertex); radii: per block, each row's
    largest vertex norm; bucket, local: each pair's block and row; offset: (m, 3) added to the vertex; world[k]:
    pair k's vertex array as the scalar support query reads it (`PointCloud._world_core_vertices`); columns,
    copies: the blocks as `Gathered` takes them (made from blocks when not given)."""

    product = staticmethod(column_products)
    """The batched product (core/lockstep.py `column_products`; a test swaps in one that rounds differently, within
    the error bound)."""
    scalar_rows = 64
    """Calls with at most this many rows take every support with the scalar product (the blocks' set-up costs
    more; a test sets it to -1 to check the batched products alone)."""

    def __init__(self, blocks, radii, bucket, local, offset, world, largest, columns=None, copies=None):
        self.blocks, self.radii, self.columns, self.copies = blocks, radii, columns, copies
        self.bucket, self.local, self.offset, self.world, self.largest = bucket, local, offset, world, largest

    def gathered(self, sides):
        """The `Gathered` vertex rows of `sides` (this one first; slots k*m + pair for side k), made on first use."""
        key = tuple(map(id, sides))
        cache = self.__dict__.setdefault("_gathered", {})
        if key not in cache or any(a is not b for a, b in zip(cache[key][0], sides)):
            cache[key] = (sides, Gathered(self.blocks, np.concatenate([side.bucket for side in sides]),
                                          np.concatenate([side.local for side in sides]), self.columns, self.radii,
                                          self.copies))
        return cache[key][1]

    def reach(self):
        """(m,) a bound on |support point|_inf of each pair's side: its row's largest vertex norm plus its offset's
        largest component."""
        radius = np.zeros(len(self.bucket))
        for b in np.unique(self.bucket).tolist():
            mine = np.flatnonzero(self.bucket == b)
            radius[mine] = self.radii[b][self.local[mine]]
        return radius + np.abs(self.offset).max(axis=1)

    def __call__(self, rows, d):
        """Support vertex (plus offset) of each pair in `rows` along the rows of d (m, 3)."""
        return _supports((self,), rows, d)[0]


def _supports(sides, rows, d, defer=False, scalar_rows=None):
    """Each of `sides`' (`_Sides` over the same blocks) support vertices (plus offset) for the pairs in `rows`
    along the rows of d: one list of (m, 3) arrays, the sides' batched products taken together (one product per
    block for both of a pair's shapes).

    defer=True leaves the near ties unresolved (the batched product's vertex stands) and returns (supports,
    tied): tied[k] (m,) marks the rows whose side-k support is such a vertex (None: no batched product); the
    caller takes the scalar query's vertex where it matters (`_unsettled_ties`).  scalar_rows: the number of rows
    up to which every support takes the scalar product (default `_Sides.scalar_rows`)."""
    m = len(rows)
    count = len(sides)
    first = sides[0]
    if m <= (first.scalar_rows if scalar_rows is None else scalar_rows):  # the blocks' set-up costs more
        found = [_scalar(side, rows, d, np.arange(m)) for side in sides]
        return (found, None) if defer else found
    tied = np.zeros(count * m, bool) if defer else None
    out = np.empty((count * m, 3))
    gathered = first.gathered(sides)
    slots = np.concatenate([rows + k * len(first.bucket) for k in range(count)])
    which = gathered.bucket[slots]
    local = gathered.local[slots]
    # B's smallest product is the largest along -d: negating d negates every product exactly.
    along = np.concatenate([d if side.largest else -d for side in sides])
    tie = np.tile(_TIE * np.abs(d).sum(axis=1), count)
    radii, product = first.radii, first.product
    for b in np.unique(which).tolist():
        sel = np.flatnonzero(which == b)
        r = local[sel]
        p, row = gathered.products(b, slots[sel], along[sel], product)
        # A padding vertex repeats a row's last one: when that one wins, its copies are not ties (the same point).
        top, near = top_and_ties(p, tie[sel] * radii[b][r], gathered.copies[b][r])
        near = np.flatnonzero(near)
        if len(near) and defer:
            tied[sel[near]] = True
        elif len(near):
            # The scalar query's own vertex (its index in the block row is its index in the vertex array).
            ties = sel[near]  # (slots: side k's rows at k * m + row)
            side_of = ties // m
            for k, side in enumerate(sides):
                mine = np.flatnonzero(side_of == k)
                if len(mine):
                    pair = ties[mine] - k * m
                    world, pick = side.world, np.ndarray.argmax if side.largest else np.ndarray.argmin
                    top[near[mine]] = np.array(
                        [pick(world[row].dot(dk)) for row, dk in zip(rows[pair].tolist(), d[pair])], dtype=np.intp)
        out[sel] = gathered.vertices(b, row, top)
    found = [out[k * m:(k + 1) * m] + side.offset[rows] for k, side in enumerate(sides)]
    return (found, [tied[k * m:(k + 1) * m] for k in range(count)]) if defer else found


def _scalar(side, rows, d, which):
    """The support vertices (plus offset) of the pairs rows[which] along d[which], each by the scalar product
    `PointCloud.support_max` / `support_min` makes, on the same vertex array (a contiguous float64 row of d
    holds the same three numbers as the tuple the scalar query converts)."""
    worlds, pick = side.world, np.ndarray.argmax if side.largest else np.ndarray.argmin
    picked = np.empty((len(which), 3))  # filled row by row (a list of rows made into an array costs more)
    for k, (row, dk) in enumerate(zip(rows[which].tolist(), d[which])):
        world = worlds[row]
        picked[k] = world[pick(world.dot(dk))]
    return picked + side.offset[rows[which]]


def _step(a, b, n, offset, cw, gap):
    """A step's support point w = a - b, the certified gap of the popped face (offset, normal n) and whether the
    step settles (gap reached, or w already a corner of the face: cw (r, 3, 3)), as `epa` computes them."""
    w = a - b
    cg = ((n[:, 0] * w[:, 0] + n[:, 1] * w[:, 1]) + n[:, 2] * w[:, 2]) - offset
    repeat = (cw == w[:, None, :]).all(axis=2).any(axis=1)
    return w, cg, (cg <= gap) | repeat


def _unsettled_ties(tied, rows, n, offset, cg, gap, reach):
    """The rows (indices into `rows`) whose deferred near ties (`_supports(defer=True)`) must take the scalar
    query's vertex: all but those whose step settles whichever tied vertex wins.

    A settling step uses its support point only through the settle test and the sign of cg (`close` keeps
    min(cg, 0), then max(., 0): +0.0 for any finite cg but -0.0).  Another tied vertex moves the true n.w by at
    most twice a product's rounding, and each computed cg errs by a few roundings of |n|_1 x (|a| + |b|) and of
    |offset|: together under 2e-15 x (|n|_1 x reach + |offset|), a tenth of `_SETTLE_MARGIN`'s.  So cg + margin
    <= gap settles with either vertex, and cg can be -0.0 only if the face's offset is +0.0 (x - y is -0.0 only
    for x = -0.0, y = +0.0): those rows are resolved too."""
    either = tied[0] | tied[1]
    size = (np.abs(n).sum(axis=1) * reach[rows] + np.abs(offset)) * _SETTLE_MARGIN
    plus_zero = (offset == 0.0) & ~np.signbit(offset)
    safe = (cg + size <= gap[rows]) & ~plus_zero
    return np.flatnonzero(either & ~safe)


def lockstep_epa(start_w, start_a, start_b, side_a, side_b, gap, flat, budget):
    """EPA from GJK's tetrahedra for m pairs at once.

    start_w, start_a, start_b: (m, 4, 3) the tetrahedra's support points (w = a - b, in the pairs' frames);
    side_a, side_b: `_Sides` of the pairs' A and B (index rows 0..m-1);
    gap, flat: (m,) EPA's absolute tolerances; budget: expansions per pair before it goes to the scalar engine.
    Returns (done (m,) bool, depth (m,), normal (m, 3), point_a (m, 3), point_b (m, 3), iterations (m,),
    certified gap (m,)): the EPAResult fields of the pairs it finished with `EPAOutcome.CONVERGED`."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _run(start_w, start_a, start_b, side_a, side_b, gap, flat, budget)


def _run(start_w, start_a, start_b, side_a, side_b, gap, flat, budget):
    m = len(start_w)
    nv_cap = 4 + budget
    nf_cap = 4 + 5 * budget
    W = np.zeros((m, nv_cap, 3))
    A = np.zeros((m, nv_cap, 3))
    B = np.zeros((m, nv_cap, 3))
    W[:, :4], A[:, :4], B[:, :4] = start_w, start_a, start_b
    nv = np.full(m, 4)
    # Vertex and face indices in one byte while they fit (the arrays are faulted in afresh on every call: a
    # third less memory to touch); read back, they widen before any arithmetic (`_add_point`).
    index = np.int8 if max(nv_cap, nf_cap) <= np.iinfo(np.int8).max else np.int32
    faces = np.zeros((m, nf_cap, 3), index)
    normals = np.zeros((m, nf_cap, 3))
    offsets = np.full((m, nf_cap), np.inf)
    alive = np.zeros((m, nf_cap), bool)
    edge = np.full((m, nv_cap, nv_cap), -1, index)
    nf = np.full(m, 4)
    iterations = np.zeros(m, np.int64)
    done = np.zeros(m, bool)
    running = np.ones(m, bool)
    depth = np.zeros(m)
    normal_out = np.zeros((m, 3))
    point_a = np.zeros((m, 3))
    point_b = np.zeros((m, 3))
    certified = np.zeros(m)
    every = np.arange(m)
    reach = side_a.reach() + side_b.reach()  # bounds |support point| on both sides: `_unsettled_ties`' margin

    # `epa`'s test of the tetrahedron: 6 x volume against the longest edge cubed, as vec3's dot/cross/norm form them.
    p = [start_w[:, k] for k in range(4)]
    e1, e2, e3 = p[1] - p[0], p[2] - p[0], p[3] - p[0]
    cx = e2[:, 1] * e3[:, 2] - e2[:, 2] * e3[:, 1]
    cy = e2[:, 2] * e3[:, 0] - e2[:, 0] * e3[:, 2]
    cz = e2[:, 0] * e3[:, 1] - e2[:, 1] * e3[:, 0]
    volume = np.abs(e1[:, 0] * cx + e1[:, 1] * cy + e1[:, 2] * cz)
    longest = np.zeros(m)
    for i in range(4):
        for j in range(i + 1, 4):
            e = p[i] - p[j]
            longest = np.maximum(longest, np.sqrt(e[:, 0] * e[:, 0] + e[:, 1] * e[:, 1] + e[:, 2] * e[:, 2]))
    threshold = _WELL_SHAPED_TETRA * np.power(longest, 3.0)
    running &= volume > threshold * (1.0 + 1e-9)
    running &= np.isfinite(start_w).all(axis=(1, 2))

    # `_build_tetrahedron`: faces 0..3 in its order, each turned to face away from the fourth corner.
    for f, ((i, j, k), opposite) in enumerate((((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0))):
        u, v, o = p[j] - p[i], p[k] - p[i], p[opposite] - p[i]
        n = np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1], u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                      u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], axis=1)
        flip = (n[:, 0] * o[:, 0] + n[:, 1] * o[:, 1] + n[:, 2] * o[:, 2]) > 0.0
        jj = np.where(flip, k, j)
        kk = np.where(flip, j, k)
        faces[:, f, 0], faces[:, f, 1], faces[:, f, 2] = i, jj, kk
        normals[:, f], offsets[:, f] = _plane(p[i], W[every, jj], W[every, kk])
        alive[:, f] = True
        edge[every, i, jj] = f
        edge[every, jj, kk] = f
        edge[every, kk, i] = f

    def finish(r, face, lam, certified_gap):
        """The pairs r end on `face` with the triangle weights lam: `epa`'s EPAResult fields."""
        done[r] = True
        depth[r] = offsets[r, face]
        normal_out[r] = _at(normals, r, face)
        corners = _at(faces, r, face)
        ca = _at(A, r[:, None], corners)
        cb = _at(B, r[:, None], corners)
        # `weighted_points`: each sum starts at 0.0 and adds the three weighted corners in order.
        point_a[r] = ((0.0 + lam[:, 0:1] * ca[:, 0]) + lam[:, 1:2] * ca[:, 1]) + lam[:, 2:3] * ca[:, 2]
        point_b[r] = ((0.0 + lam[:, 0:1] * cb[:, 0]) + lam[:, 1:2] * cb[:, 1]) + lam[:, 2:3] * cb[:, 2]
        certified[r] = np.where(0.0 > certified_gap, 0.0, certified_gap)  # max(certified_gap, 0.0)

    def close(r, face, offset, cg):
        """`_settle`'s first case for the pairs r, whose popped face `face` (its offset, the support's certified
        gap cg) is certified: the pair ends there, or on a tied face, or goes on refining."""
        n = _at(normals, r, face)
        cw = _at(W, r[:, None], _at(faces, r, face))  # (r, 3, 3)
        q, lam, sliver = _closest(cw[:, 0], cw[:, 1], cw[:, 2])
        miss = _miss(q, n, offset)
        mine = ~sliver & (miss <= flat[r])
        c = np.where(0.0 < cg[mine], 0.0, cg[mine])  # min(certified_gap, 0.0)
        finish(r[mine], face[mine], lam[mine], c)
        tie = ~sliver & ~mine
        if tie.any():
            _settle_ties(r[tie], face[tie], offset[tie], miss[tie], gap, flat, faces, normals, offsets, alive, nf, W,
                         A, B, nv, edge, side_a, side_b, finish, running, nv_cap, nf_cap)

    # A pair is independent of the others, so a pair whose popped face is certified waits (its polytope stays as
    # it is) until _CLOSE_AFTER of them have gathered or nothing else runs: then they are closed together (the
    # fixed cost of those steps' calls paid a few times instead of once a step).  A pair expands at most
    # `budget` times, as in the scalar engine's count; a pair still running after that goes to the scalar engine.
    pending = []
    waiting = 0
    while True:
        rows = np.flatnonzero(running & (iterations < budget))
        if waiting and (waiting >= _CLOSE_AFTER or not len(rows)):
            close(*(np.concatenate(column) for column in zip(*pending)))
            pending, waiting = [], 0
            rows = np.flatnonzero(running & (iterations < budget))  # a refinement sends a pair on
        if not len(rows):
            break
        # Dead faces hold offset inf and a NaN never gets in (see `_add_point`): the first smallest offset is
        # the face the scalar heap pops, unless every face is at inf (then the scalar engine decides).
        width = int(nf[rows].max())
        live = offsets[rows, :width]
        face = live.argmin(axis=1)
        offset = live.reshape(-1).take(np.arange(0, len(rows) * width, width) + face)
        bad = ~np.isfinite(offset)
        running[rows[bad]] = False
        rows, face, offset = rows[~bad], face[~bad], offset[~bad]
        if not len(rows):
            continue
        iterations[rows] += 1
        n = _at(normals, rows, face)
        (a, b), tied = _supports((side_a, side_b), rows, n, defer=True)
        corners = _at(faces, rows, face)  # (r, 3)
        cw = _at(W, rows[:, None], corners)  # (r, 3, 3)
        w, cg, settle = _step(a, b, n, offset, cw, gap[rows])
        if tied is not None and (tied[0].any() or tied[1].any()):
            redo = _unsettled_ties(tied, rows, n, offset, cg, gap, reach)
            if len(redo):
                for side, points, mine in ((side_a, a, tied[0]), (side_b, b, tied[1])):
                    fix = redo[mine[redo]]
                    points[fix] = _scalar(side, rows, n, fix)
                w[redo], cg[redo], settle[redo] = _step(a[redo], b[redo], n[redo], offset[redo], cw[redo],
                                                       gap[rows[redo]])
        if settle.any():
            s = np.flatnonzero(settle)
            running[rows[s]] = False  # unless a refinement in `close` sends them on
            pending.append((rows[s], face[s], offset[s], cg[s]))
            waiting += len(s)
        grow = ~settle
        rows, face, w, a, b = rows[grow], face[grow], w[grow], a[grow], b[grow]
        if not len(rows):
            continue
        ok = _add_point(rows, face, w, a, b, W, A, B, nv, faces, normals, offsets, alive, edge, nf, flat, nv_cap,
                        nf_cap)
        running[rows[~ok]] = False
    return done, depth, normal_out, point_a, point_b, iterations, certified


def _settle_ties(rows, face, offset, miss, gap, flat, faces, normals, offsets, alive, nf, W, A, B, nv, edge,
                 side_a, side_b, finish, running, nv_cap, nf_cap):
    """`epa._settle`'s first case for pairs whose certified face misses its own projection: the tied face (offset
    within gap + flat) of smallest miss, first in face order, unless none misses less than the popped face; if
    it misses by at most flat, its support either certifies it (the pair ends there) or refines the polytope
    (the pair goes on).  Every other case (no such face, a sliver among the candidates) is left to the scalar
    engine."""
    width = int(nf[rows].max())
    local = np.arange(len(rows))
    limit = (offset + gap[rows]) + flat[rows]
    candidate = alive[rows, :width] & (offsets[rows, :width] <= limit[:, None])
    candidate[local, face] = False
    cr, cf = np.nonzero(candidate)
    tri = _at(faces, rows[cr], cf)
    wr = rows[cr]
    q, lam, sliver = _closest(_at(W, wr, tri[:, 0]), _at(W, wr, tri[:, 1]), _at(W, wr, tri[:, 2]))
    m = _miss(q, _at(normals, rows[cr], cf), offsets[rows[cr], cf])
    table = np.full((len(rows), width), np.inf)
    table[cr, cf] = m
    broken = np.zeros(len(rows), bool)
    broken[cr[sliver | np.isnan(m)]] = True
    best = table.argmin(axis=1)
    best_miss = table[local, best]
    chosen = ~broken & (best_miss < miss) & (best_miss <= flat[rows])
    if not chosen.any():
        return
    rows, best = rows[chosen], best[chosen]
    weights = np.zeros((len(rows), 3))
    slot = np.full((len(local), width), -1)
    slot[cr, cf] = np.arange(len(cr))
    weights[:] = lam[slot[np.flatnonzero(chosen), best]]
    n = _at(normals, rows, best)
    # A few hundred rows at most, spread over the buckets: the scalar products cost less than gathering their rows
    # (which would also replace the gathered rows the main loop's next step reuses).
    a, b = _supports((side_a, side_b), rows, n, scalar_rows=4 * side_a.scalar_rows)
    w = a - b
    g = ((n[:, 0] * w[:, 0] + n[:, 1] * w[:, 1]) + n[:, 2] * w[:, 2]) - offsets[rows, best]
    certify = g <= gap[rows]
    finish(rows[certify], best[certify], weights[certify], g[certify])
    grow = ~certify
    if grow.any():
        r = rows[grow]
        ok = _add_point(r, best[grow], w[grow], a[grow], b[grow], W, A, B, nv, faces, normals, offsets, alive, edge,
                        nf, flat, nv_cap, nf_cap)
        running[r[ok]] = True


def _add_point(rows, face, w, a, b, W, A, B, nv, faces, normals, offsets, alive, edge, nf, flat, nv_cap, nf_cap):
    """`_Polytope.add_point(point, face)` (the spreading rule) for each row; False where the scalar code returns
    False or the arrays are full (those pairs go to the scalar engine)."""
    count = len(rows)
    ok = np.ones(count, bool)
    width = int(nf[rows].max())
    tested = np.zeros((count, width), np.int8)  # 0 untested, 1 seen, 2 not seen
    tested_flat, offsets_flat, edge_flat = tested.reshape(-1), offsets.reshape(-1), edge.reshape(-1)
    stack = np.empty((count, width), np.int64)
    stack_flat = stack.reshape(-1)
    local = np.arange(count)
    stack[:, 0] = face
    tested[local, face] = 1
    height = np.ones(count, np.int64)  # each active row's stack height (rows in `active`'s order)
    visible = [(local, face)]
    horizon = []  # (rows, i, j) in the order the scalar walk appends them
    slack = -flat[rows]
    # Each row's start in the flattened face arrays and edge table (the polytope arrays are indexed flat: one
    # take instead of numpy's index on two arrays).
    face_base = rows * nf_cap
    edge_base = rows * (nv_cap * nv_cap)
    faces_flat, normals_flat = faces.reshape(-1, 3), normals.reshape(-1, 3)
    active = local
    while len(active):
        # One face per row, its three edges at once (in the scalar walk's order: pushes and horizon edges by
        # edge).  Two edges of a face with the same neighbour would need the one-by-one walk: the scalar
        # engine's case.
        size = height - 1  # the stack after the pop (the popped face sat at this slot)
        base = active * width  # each row's start in the flattened stack and marks
        ii = faces_flat.take(face_base.take(active) + stack_flat.take(base + size), axis=0).astype(np.int64)
        jj = ii.take(_NEXT_CORNER, axis=1)
        nb = edge_flat.take(edge_base.take(active)[:, None] + (jj * nv_cap + ii))  # edge[., jj, ii]
        bad = ((nb < 0) | (nb == nb.take(_NEXT_CORNER, axis=1))).any(axis=1)  # each edge against the next one's
        broken = bad.any()
        if broken:
            ok[active[bad]] = False
            nb = np.maximum(nb, 0)
        cell = base[:, None] + nb  # tested[active[:, None], nb] in the flattened marks
        seen = tested_flat.take(cell)
        fresh = np.flatnonzero(seen == 0)
        if len(fresh):
            fr = fresh // 3
            f_sel, f_nb = active.take(fr), nb.reshape(-1).take(fresh)
            slot = face_base.take(f_sel) + f_nb
            # n.w as `epa` sums it ((n0 w0 + n1 w1) + n2 w2): the three products in one call, each rounded once.
            nw = normals_flat.take(slot, axis=0)
            nw *= w.take(f_sel, axis=0)
            h = ((nw[:, 0] + nw[:, 1]) + nw[:, 2]) - offsets_flat.take(slot)
            up = h > slack.take(f_sel)
            mark = np.where(up, _SEEN, _NOT_SEEN)
            seen.reshape(-1)[fresh] = mark
            tested_flat[cell.reshape(-1).take(fresh)] = mark
            if up.any():
                push_local, pushed = fr[up], f_nb[up]
                counts = np.bincount(push_local, minlength=len(active))
                rank = np.arange(len(push_local)) - (np.cumsum(counts) - counts)[push_local]
                stack_flat[base.take(push_local) + size.take(push_local) + rank] = pushed
                size += counts
                visible.append((active.take(push_local), pushed))
        rim = np.flatnonzero(seen == 2)
        if len(rim):
            horizon.append((active[rim // 3], ii.reshape(-1).take(rim), jj.reshape(-1).take(rim)))
        going = size > 0
        if broken:
            going &= ~bad
        active, height = active[going], size[going]
    if horizon:
        h_row = np.concatenate([h[0] for h in horizon])
        order = np.argsort(h_row, kind="stable")
        h_row = h_row[order]
        h_i = np.concatenate([h[1] for h in horizon])[order]
        h_j = np.concatenate([h[2] for h in horizon])[order]
    else:
        h_row = h_i = h_j = np.zeros(0, np.int64)
    n_horizon = np.bincount(h_row, minlength=count)
    first = np.cumsum(n_horizon) - n_horizon  # each row's first horizon edge in the sorted list
    position = np.arange(len(h_row)) - first[h_row]
    ok &= n_horizon > 0
    ok &= nf[rows] + n_horizon <= nf_cap
    ok &= nv[rows] < nv_cap
    # `_replace`'s check: the horizon is one simple loop.  Each edge's start must map to its own end (a repeated
    # start breaks that or shortens the loop), and the walk from the first edge's start must come back after
    # exactly len(horizon) steps.
    nxt = np.full(count * nv_cap, -1, np.int64)
    start = h_row * nv_cap + h_i
    nxt[start] = h_j
    ok[h_row[nxt.take(start) != h_j]] = False
    origin = h_i[np.minimum(first, max(len(h_i) - 1, 0))] if len(h_i) else np.zeros(count, np.int64)
    # Only the rows still in the running walk: a row stops on its first return, at a missing step, or after
    # its own horizon's length (it can no longer return in exactly that many steps).
    steps = np.zeros(count, np.int64)
    walk = np.flatnonzero(ok)
    current = origin[walk]
    step = 0
    while len(walk):
        step += 1
        current = nxt.take(walk * nv_cap + current)
        arrived = current == origin[walk]
        steps[walk[arrived]] = step
        go = ~arrived & (current >= 0) & (step < n_horizon[walk])
        walk, current = walk[go], current[go]
    ok &= steps == n_horizon
    if not ok.any():
        return ok
    # Replace: the visible faces die and drop their own edges, the new vertex is fanned to the horizon.
    v_row = np.concatenate([v[0] for v in visible])
    v_face = np.concatenate([v[1] for v in visible])
    keep = ok[v_row]
    dead_rows, dead = rows[v_row[keep]], v_face[keep]
    slot = dead_rows * nf_cap + dead
    alive.reshape(-1)[slot] = False
    offsets_flat[slot] = np.inf
    tri = _at(faces, dead_rows, dead).astype(np.int64)
    for e in range(3):
        at = (dead_rows * nv_cap + tri[:, e]) * nv_cap + tri[:, (e + 1) % 3]  # edge[dead_rows, i, j]
        edge_flat[at[edge_flat.take(at) == dead]] = -1
    go = np.flatnonzero(ok)
    g_rows = rows[go]
    new = nv[g_rows]
    at = g_rows * nv_cap + new  # [g_rows, new] in the flattened (m x nv_cap, 3) vertex arrays
    for points, value in ((W, w), (A, a), (B, b)):
        points.reshape(-1, 3)[at] = value.take(go, axis=0)
    nv[g_rows] += 1
    keep = ok[h_row]
    f_rows = rows[h_row[keep]]
    ha, hb, hn = h_i[keep], h_j[keep], nv[f_rows] - 1
    index = nf[f_rows] + position[keep]
    new_normals, new_offsets = _plane(_at(W, f_rows, ha), _at(W, f_rows, hb), _at(W, f_rows, hn))
    slot = f_rows * nf_cap + index
    normals.reshape(-1, 3)[slot] = new_normals
    offsets_flat[slot] = new_offsets
    faces.reshape(-1, 3)[slot] = np.stack([ha, hb, hn], axis=1)
    alive.reshape(-1)[slot] = True
    base = f_rows * nv_cap
    edge_flat[(base + ha) * nv_cap + hb] = index
    edge_flat[(base + hb) * nv_cap + hn] = index
    edge_flat[(base + hn) * nv_cap + ha] = index
    nf[g_rows] += n_horizon[go]
    ok[h_row[keep][np.isnan(new_offsets)]] = False  # the scalar heap cannot order a NaN: the scalar engine decides
    return ok
