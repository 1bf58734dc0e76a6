"""Lock-step GJK: the opening iterations of GJK (core/gjk.py) for many pairs of point clouds at once, in numpy.

`collide_many` (core/batch.py) runs it on the pairs its prefilter keeps, before any per-pair work.  Every pair
follows the steps of `gjk.gjk` in its regular cases, vectorised across the pairs that are still running (one
padded product per block of similar clouds and iteration gives every pair's support points on both shapes), and
ends in one of four states:

- ORIGIN: the origin lies inside a solid tetrahedron of support points (all four barycentric weights >= 0, the
  volume well above rounding): the pair's cores overlap, and the tetrahedron is the GJK simplex EPA starts from;
- BEYOND: a support plane certifies a lower bound on the core distance above the pair's threshold (the same
  bound `gjk.gjk` uses to stop early, v.w / |v| with w the support point along -v): the pair is farther apart
  than the clearance;
- SEPARATED: GJK stopped where `gjk.gjk` stops with a positive distance: the gap between |v| and the lower bound
  closed, the new support point is already in the simplex, or the descent stalled (the next closest point is
  no closer): the simplex, weights, v and bound are those `gjk.gjk` returns;
- SCALAR: anything else: a degenerate step (a sliver triangle, a flat tetrahedron, v at the zero tolerance) or the
  iteration budget spent.  These pairs run the scalar engine from scratch.

The arithmetic is `gjk.gjk`'s and `simplex.py`'s, formula by formula (the same sums in the same order), so a pair
normally takes the same steps; the support products are numpy's batched ones, which may round differently in the
last bit, so a near-tie between vertices may resolve to another of them.  Every answer is certified either way:
an ORIGIN tetrahedron is made of true support points and holds the origin, a BEYOND bound comes from a true
support plane.  tests/core/test_lockstep.py compares the outcome with `core.collide` pair by pair.
"""
from __future__ import annotations

import numpy as np

from .rows import row_dot
# core/simplex.py's conditioning thresholds (same meaning): a sliver triangle and a flat tetrahedron go to the
# scalar path
from .simplex import TETRA_VOLUME_MIN, TRIANGLE_SIN2_MIN, signed_volumes

__all__ = ["RUNNING", "ORIGIN", "BEYOND", "SEPARATED", "SCALAR", "TIE", "Gathered", "column_products", "lockstep_gjk",
           "top_and_ties", "trailing_copies"]

RUNNING, ORIGIN, BEYOND, SEPARATED, SCALAR = 0, 1, 2, 3, 4

# The faces of a tetrahedron with the vertex each leaves out, in `simplex._TETRA_FACES`'s order.
_FACES = (((1, 2, 3), 0), ((0, 2, 3), 1), ((0, 1, 3), 2), ((0, 1, 2), 3))


def _segment(p0, p1):
    """`simplex.closest_on_segment` over rows: (q, w0, w1)."""
    d = p1 - p0
    dd = row_dot(d, d)
    t = -row_dot(p0, d) / dd  # inf or nan where dd == 0: those rows take p0
    first = (dd <= 0.0) | (t <= 0.0)
    second = ~first & (t >= 1.0)
    q = np.where(first[:, None], p0, np.where(second[:, None], p1, p0 + t[:, None] * d))
    w1 = np.where(first, 0.0, np.where(second, 1.0, t))
    w0 = np.where(first, 1.0, np.where(second, 0.0, 1.0 - t))
    return q, w0, w1


def _edges(p0, p1, p2):
    """`simplex._closest_on_edges` over rows: (q, weights (m, 3)); the first of equal distances wins."""
    m = len(p0)
    # The three segments (p0 p1, p1 p2, p0 p2) of every row in one call, then compared in that order.
    q, w_start, w_end = _segment(np.concatenate([p0, p1, p0]), np.concatenate([p1, p2, p2]))
    dist2 = row_dot(q, q)
    best_q = q[:m]
    best = dist2[:m]
    weights = np.zeros((m, 3))
    weights[:, 0], weights[:, 1] = w_start[:m], w_end[:m]
    for k, (i, j) in ((1, (1, 2)), (2, (0, 2))):
        part = slice(k * m, (k + 1) * m)
        better = dist2[part] < best
        best = np.where(better, dist2[part], best)
        best_q = np.where(better[:, None], q[part], best_q)
        weights[better] = 0.0
        weights[better, i] = w_start[part][better]
        weights[better, j] = w_end[part][better]
    return best_q, weights


def _triangle(p0, p1, p2):
    """`simplex.closest_on_triangle` over rows: (q, weights (m, 3), sliver) where sliver marks the rows whose
    in-plane solution would need the scalar comparison with the edges (they go to the scalar path)."""
    u_ = p1 - p0
    v_ = p2 - p0
    ux, uy, uz = u_[:, 0], u_[:, 1], u_[:, 2]
    vx, vy, vz = v_[:, 0], v_[:, 1], v_[:, 2]
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    nn = nx * nx + ny * ny + nz * nz
    x0, y0, z0 = p0[:, 0], p0[:, 1], p0[:, 2]
    x1, y1, z1 = p1[:, 0], p1[:, 1], p1[:, 2]
    x2, y2, z2 = p2[:, 0], p2[:, 1], p2[:, 2]
    u = (nx * (y1 * z2 - z1 * y2) + ny * (z1 * x2 - x1 * z2) + nz * (x1 * y2 - y1 * x2)) / nn
    v = (nx * (y2 * z0 - z2 * y0) + ny * (z2 * x0 - x2 * z0) + nz * (x2 * y0 - y2 * x0)) / nn
    w = 1.0 - u - v
    inside = (nn > 0.0) & (u >= 0.0) & (v >= 0.0) & (w >= 0.0)
    wx, wy, wz = x2 - x1, y2 - y1, z2 - z1
    longest2 = np.maximum(np.maximum(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz),
                          wx * wx + wy * wy + wz * wz)
    sliver = inside & ~(nn > TRIANGLE_SIN2_MIN * longest2 * longest2)
    # The interior point as `simplex._combine` forms it (a zero weight adds nothing: the sign of a zero may differ).
    q_in = (u[:, None] * p0 + v[:, None] * p1) + w[:, None] * p2
    weights = np.stack([u, v, w], axis=1)
    out = np.flatnonzero(~inside)  # the rest: the closest point of the three edges
    if len(out):
        q_in[out], weights[out] = _edges(p0[out], p1[out], p2[out])
    return q_in, weights, sliver


def _tetrahedron(p0, p1, p2, p3):
    """`simplex.closest_on_tetrahedron` over rows: (q, weights (m, 4), inside, bad); bad marks flat ones and
    rows whose face solution is a sliver."""
    m = len(p0)
    d0, d1, d2, d3 = signed_volumes(*p0.T, *p1.T, *p2.T, *p3.T)
    volume = d0 + d1 + d2 + d3
    pts = (p0, p1, p2, p3)
    longest2 = np.zeros(m)
    for i in range(4):
        for j in range(i + 1, 4):
            e = pts[i] - pts[j]
            longest2 = np.maximum(longest2, row_dot(e, e))
    flat = np.abs(volume) <= TETRA_VOLUME_MIN * longest2 * longest2 ** 0.5
    bary = np.stack([d0 / volume, d1 / volume, d2 / volume, d3 / volume], axis=1)
    inside = ~flat & (bary.min(axis=1) >= 0.0)
    best = np.full(m, np.inf)
    q = np.zeros((m, 3))
    weights = np.zeros((m, 4))
    bad = flat.copy()
    # Every row's candidate faces (those whose opposite weight is negative) in one `_triangle` call, then each
    # face's results taken in face order (the first of equal distances wins, as in the scalar loop).
    outside = ~flat & ~inside
    groups = [np.flatnonzero(outside & (bary[:, opposite] < 0.0)) for _, opposite in _FACES]
    if sum(len(g) for g in groups):
        corners = [np.concatenate([pts[face[c]][g] for (face, _), g in zip(_FACES, groups)]) for c in range(3)]
        fq, fw, sliver = _triangle(*corners)
        dist2 = row_dot(fq, fq)
        start = 0
        for ((i, j, k), _), rows in zip(_FACES, groups):
            part = slice(start, start + len(rows))
            start += len(rows)
            if not len(rows):
                continue
            bad[rows[sliver[part]]] = True
            better = dist2[part] < best[rows]
            take = rows[better]
            best[take] = dist2[part][better]
            q[take] = fq[part][better]
            weights[take] = 0.0
            fwp = fw[part][better]
            weights[take, i] = fwp[:, 0]
            weights[take, j] = fwp[:, 1]
            weights[take, k] = fwp[:, 2]
    weights[inside] = bary[inside]
    return q, weights, inside, bad


def _conditioned(q, qq, points, count):
    """`gjk._conditioned` over rows: points (m, 3, 3) holds the kept simplex (count 1 to 3 rows used)."""
    v = q.copy()
    vv = qq.copy()
    two = np.flatnonzero(count == 2)
    if len(two):
        a, b = points[two, 0], points[two, 1]
        e = b - a
        ee = row_dot(e, e)
        ok = ee != 0.0
        rows, e, ee = two[ok], e[ok], ee[ok]
        qv = v[rows]
        along = row_dot(qv, e) / ee
        nv = qv - along[:, None] * e
        v[rows] = nv
        vv[rows] = row_dot(nv, nv)
    three = np.flatnonzero(count == 3)
    if len(three):
        a, b, c = points[three, 0], points[three, 1], points[three, 2]
        ab, bc, ca = b - a, c - b, a - c
        ab2, bc2, ca2 = row_dot(ab, ab), row_dot(bc, bc), row_dot(ca, ca)
        pivot_a = (bc2 >= ab2) & (bc2 >= ca2)
        pivot_b = ~pivot_a & (ca2 >= ab2)
        # `vec3.triangle_normal`: the two edges leaving the vertex opposite the longest edge.
        u = np.where(pivot_a[:, None], ab, np.where(pivot_b[:, None], bc, ca))
        w = np.where(pivot_a[:, None], -ca, np.where(pivot_b[:, None], -ab, -bc))
        n = np.stack([u[:, 1] * w[:, 2] - u[:, 2] * w[:, 1], u[:, 2] * w[:, 0] - u[:, 0] * w[:, 2],
                      u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]], axis=1)
        length = np.sqrt(row_dot(n, n))
        ok = length != 0.0
        rows = three[ok]
        n = n[ok] / length[ok][:, None]
        offset = ((row_dot(n, a[ok]) + row_dot(n, b[ok])) + row_dot(n, c[ok])) / 3.0
        v[rows] = offset[:, None] * n
        vv[rows] = offset * offset
    return v, vv


TIE = 4e-15
"""Two vertices whose products with the direction are closer than this x |vertex| x sum|d_i| may be ordered
differently by two ways of computing the product (each errs by at most ~3.3e-16 of that, whatever the order of
the sums or a fused multiply-add, so two computations can disagree only within 4 x 3.3e-16)."""


def column_products(columns, along):
    """(r, w) products of each row's vertices, columns (r, 3, w) contiguous, with the rows of along (r, 3).

    The sums run along the width, each of the three products rounded once and added in coordinate order: several
    times faster than the stacked matrix product over (r, w, 3) rows (one small BLAS call per row), and within
    `TIE`'s bound of it (not always its bits: that one may fuse a multiply and an add)."""
    return np.einsum("rkw,rk->rw", columns, along)


def top_and_ties(p, margin, copies=None):
    """(index of each row's largest value in p (r, w), first among equals; rows whose runner-up is within
    margin (r,) of it, or not comparable).  p is overwritten.

    copies (r,): an index after which each row holds only copies of its vertex there (a block row's padding
    repeats its last vertex): a winner there has only its own copies after it, which give the same point
    whichever wins, so they are not its runners-up."""
    top = p.argmax(axis=1)
    flat = p.reshape(-1)
    width = p.shape[1]
    here = np.arange(0, p.size, width) + top
    best = flat[here]
    flat[here] = -np.inf
    if copies is not None:
        last = np.flatnonzero((top == copies) & (copies < width - 1))
        if len(last):
            p[last] = np.where(np.arange(width) > top[last][:, None], -np.inf, p[last])
    return top, ~(best - p.max(axis=1) > margin)


def trailing_copies(blocks):
    """Per block (s_b, k_b, 3), the index (s_b,) where each row's trailing run of copies of its last vertex starts
    (its padding, and any repeats of that vertex just before it)."""
    out = []
    for block in blocks:
        same = (block == block[:, -1:]).all(axis=2)  # (s_b, k_b): equal to the row's last vertex
        # The run's start: one past the last vertex that differs (0 when none does).
        differs = ~same
        last = block.shape[1] - 1 - differs[:, ::-1].argmax(axis=1)
        out.append(np.where(differs.any(axis=1), last + 1, 0))
    return out


class Gathered:
    """The vertex rows of a fixed set of slots (a shape of a pair each: bucket and row in the lock-step blocks),
    gathered from the blocks once and reused while the running slots are most of them.

    blocks: the (s_b, k_b, 3) vertex blocks; columns: the same as (s_b, 3, k_b) (coordinate columns, contiguous:
    `column_products`' layout); radii: per block, each row's largest vertex norm; copies: per block, where each
    row's trailing copies of its last vertex start (`trailing_copies`; any index after which a row holds only
    copies of its vertex there will do); each made from blocks when not given.  A product over a gathered block costs less than gathering its rows again (a copy of
    every vertex), so a call asking for at least half of a bucket's cached rows takes the product over all of
    them and keeps the rows asked for; fewer rows, or a slot not cached, gather the rows asked for anew (and cache
    them).  A row's product does not depend on the other rows of the call (`column_products` is one per row), so
    the answers are those of a fresh gather."""

    def __init__(self, blocks, bucket, local, columns=None, radii=None, copies=None):
        if columns is None:
            columns = [np.ascontiguousarray(block.transpose(0, 2, 1)) for block in blocks]
        if radii is None:
            radii = [np.sqrt((block * block).sum(axis=2)).max(axis=1) for block in blocks]
        if copies is None:
            copies = trailing_copies(blocks)
        self.blocks, self.columns, self.radii, self.bucket, self.local = blocks, columns, radii, bucket, local
        self.copies = copies
        self.position = np.full(len(bucket), -1)  # each slot's row in its bucket's cached columns, or -1
        self.cache = {}  # bucket -> (its cached slots, their gathered columns)

    def products(self, b, slots, along, product=column_products):
        """(p, rows): the products (len(slots), width) of the slots (all in bucket b) with the rows of along
        (len(slots), 3), and each slot's row in blocks[b]."""
        rows = self.local[slots]
        cached = self.cache.get(b)
        if cached is not None:
            kept, columns = cached
            at = self.position[slots]
            if 2 * len(slots) >= len(kept) and (at >= 0).all():
                full = np.zeros((len(columns), 3))
                full[at] = along
                return product(columns, full).take(at, axis=0), rows
            self.position[kept] = -1
        columns = self.columns[b].take(rows, axis=0)
        self.position[slots] = np.arange(len(slots))
        self.cache[b] = (slots, columns)
        return product(columns, along), rows

    def vertices(self, b, rows, index):
        """The vertices index (r,) of the rows (r,) of blocks[b]."""
        block = self.blocks[b]
        return block.reshape(-1, 3).take(rows * block.shape[1] + index, axis=0)


def _both(gathered, rows, along):
    """Each row's support vertices (no offset) on A (largest product along `along`) and B (smallest): one
    product per bucket of vertex counts for both shapes of the pairs (`gathered`: slots 0..m-1 the pairs' A,
    m..2m-1 their B).

    The vertex is the one the stacked matrix product over the row's (k_b, 3) block picks (its first largest
    value): `column_products` decides every row whose winner leads by more than `TIE`'s bound, the matrix product
    the rest (near ties other than the winner's own trailing copies, which are the same point: `top_and_ties`)."""
    m = len(rows)
    total = len(gathered.bucket) // 2
    slots = np.concatenate([rows, rows + total])
    which = gathered.bucket[slots]
    # B's smallest product is the largest along -along (negating a direction negates every product exactly).
    direction = np.concatenate([along, -along])
    margin = TIE * np.abs(along).sum(axis=1)
    margin = np.concatenate([margin, margin])
    out = np.empty((2 * m, 3))
    for b in np.unique(which).tolist():
        sel = np.flatnonzero(which == b)
        p, block_rows = gathered.products(b, slots[sel], direction[sel])
        index, near = top_and_ties(p, margin[sel] * gathered.radii[b].take(block_rows),
                                   gathered.copies[b].take(block_rows))
        near = np.flatnonzero(near)
        if len(near):
            tied = gathered.blocks[b].take(block_rows[near], axis=0)
            index[near] = np.matmul(tied, direction[sel[near]][:, :, None])[:, :, 0].argmax(axis=1)
        out[sel] = gathered.vertices(b, block_rows, index)
    return out[:m], out[m:]


def lockstep_gjk(blocks, index_a, index_b, offset_a, offset_b, direction, stop_above, gap, zero, max_iterations,
                 columns=None, radii=None, copies=None):
    """GJK's opening for m pairs at once.

    blocks: a list of (s_b, k_b, 3) arrays, the shapes' core vertices with the linear part of the transform
      applied and no translation, grouped by vertex count (padded by repeating a vertex);
    index_a, index_b: (bucket (m,), row in that bucket (m,)) of each pair's A and B;
    offset_a, offset_b: (m, 3) translation minus the pair's frame origin (a support point is vertex + offset, as
      `PointCloud.support_max` forms it);
    direction: (m, 3) initial directions (A towards B; a zero row means (1, 0, 0));
    stop_above, gap, zero: (m,) the thresholds `gjk.gjk` takes, in the pair's units;
    max_iterations: support queries per pair before the rest goes to the scalar path;
    columns, radii, copies: the blocks as `Gathered` takes them (made from blocks when not given).
    Returns a dict of arrays: state (m,) of ORIGIN/BEYOND/SEPARATED/SCALAR; w, a, b (m, 4, 3) the simplex points
    (the first `count` (m,) of them; 4 for ORIGIN) and weights (m, 4); v (m, 3), vv (m,), lower (m,) GJK's closest
    point, its squared length and the lower bound (SEPARATED rows); iterations (m,)."""
    # Degenerate rows divide by zero (their results are masked out, as the scalar code branches around them).
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _lockstep(blocks, index_a, index_b, offset_a, offset_b, direction, stop_above, gap, zero,
                         max_iterations, columns, radii, copies)


def _lockstep(blocks, index_a, index_b, offset_a, offset_b, direction, stop_above, gap, zero, max_iterations, columns,
              radii, copies):
    m = len(offset_a)
    state = np.full(m, RUNNING)
    sw = np.zeros((m, 4, 3))
    sa = np.zeros((m, 4, 3))
    sb = np.zeros((m, 4, 3))
    weights = np.zeros((m, 4))
    weights[:, 0] = 1.0
    count = np.ones(m, dtype=np.int64)
    iterations = np.ones(m, dtype=np.int64)
    d = np.array(direction, dtype=np.float64)
    d[~d.any(axis=1)] = (1.0, 0.0, 0.0)

    gathered = Gathered(blocks, np.concatenate([index_a[0], index_b[0]]), np.concatenate([index_a[1], index_b[1]]),
                        columns, radii, copies)

    def support(rows, along):
        a, b = _both(gathered, rows, along)
        a += offset_a[rows]
        b += offset_b[rows]
        return a - b, a, b

    every = np.arange(m)
    w, a, b = support(every, d)
    sw[:, 0], sa[:, 0], sb[:, 0] = w, a, b
    v = w.copy()
    vv = row_dot(v, v)
    lower = np.zeros(m)
    state[vv <= zero * zero] = SCALAR
    for _ in range(max_iterations - 1):
        rows = np.flatnonzero(state == RUNNING)
        if not len(rows):
            break
        iterations[rows] += 1
        vr = v[rows]
        w, a, b = support(rows, -vr)
        norm_v = np.sqrt(vv[rows])
        bound = row_dot(vr, w) / norm_v
        low = np.maximum(lower[rows], bound)
        lower[rows] = low
        beyond = low > stop_above[rows]
        state[rows[beyond]] = BEYOND
        done = beyond | (norm_v - low <= gap[rows])
        cnt = count[rows]
        seen = ((sw[rows] == w[:, None, :]).all(axis=2) & (np.arange(4)[None, :] < cnt[:, None])).any(axis=1)
        state[rows[~beyond & (done | seen)]] = SEPARATED  # the current simplex, v and bound stand
        go = ~(done | seen)
        rows, w, a, b, cnt = rows[go], w[go], a[go], b[go], cnt[go]
        if not len(rows):
            continue
        # The candidate simplex: the kept points, then w.
        at = rows * 4 + cnt  # [rows, cnt] in the flattened (m x 4, 3) simplex arrays
        for points, value in ((sw, w), (sa, a), (sb, b)):
            points.reshape(-1, 3)[at] = value
        q = np.zeros((len(rows), 3))
        lam = np.zeros((len(rows), 4))
        bad = np.zeros(len(rows), bool)
        inside = np.zeros(len(rows), bool)
        one = np.flatnonzero(cnt == 1)
        if len(one):
            r = rows[one]
            q[one], lam[one, 0], lam[one, 1] = _segment(sw[r, 0], sw[r, 1])
        two = np.flatnonzero(cnt == 2)
        if len(two):
            r = rows[two]
            q[two], lam[two, :3], bad[two] = _triangle(sw[r, 0], sw[r, 1], sw[r, 2])
        three = np.flatnonzero(cnt == 3)
        if len(three):
            r = rows[three]
            q[three], lam[three], inside[three], bad[three] = _tetrahedron(sw[r, 0], sw[r, 1], sw[r, 2], sw[r, 3])
        state[rows[bad]] = SCALAR
        hit = inside & ~bad
        weights[rows[hit]] = lam[hit]
        state[rows[hit]] = ORIGIN
        qq = row_dot(q, q)
        stalled = ~bad & ~hit & (qq >= vv[rows])
        state[rows[stalled]] = SEPARATED  # the previous simplex, v and bound stand
        go = ~bad & ~hit & ~stalled
        rows, q, qq, lam = rows[go], q[go], qq[go], lam[go]
        if not len(rows):
            continue
        # Keep the points with a positive weight, in order (as `gjk.gjk` does).
        keep = lam > 0.0
        order = np.argsort(~keep, axis=1, kind="stable")
        new_count = keep.sum(axis=1)
        source = rows[:, None] * 4 + order  # each kept point's row in the flattened (m x 4, 3) simplex arrays
        for points in (sw, sa, sb):
            points[rows] = points.reshape(-1, 3).take(source, axis=0)
        count[rows] = new_count
        weights[rows] = np.take_along_axis(lam, order, axis=1)
        nv, nvv = _conditioned(q, qq, sw[rows, :3], new_count)
        v[rows] = nv
        vv[rows] = nvv
        state[rows[nvv <= zero[rows] * zero[rows]]] = SCALAR
    state[state == RUNNING] = SCALAR
    count[state == ORIGIN] = 4
    return dict(state=state, w=sw, a=sa, b=sb, count=count, weights=weights, v=v, vv=vv, lower=lower,
                iterations=iterations)
