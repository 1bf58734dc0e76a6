"""Broad phase: candidate pairs from world axis-aligned bounding boxes, vectorised in numpy.

`candidate_pairs(lo, hi, clearance)` returns every pair of boxes that come within `clearance` of each other on
every axis: for boxes i and j, in float64,

    lo_i - hi_j <= clearance  and  lo_j - hi_i <= clearance     on x, y and z.

This is the overlap test of the boxes inflated by clearance / 2 on every side; boxes that touch exactly at the
clearance (the difference equal to it) are candidates.  Because float subtraction rounds monotonically, every pair
whose boxes are within the clearance in exact arithmetic passes the float test too; a shape distance <= clearance
therefore always yields a candidate (the shapes lie inside their boxes).

How (a uniform grid hashed in numpy):
1. Boxes are inflated by clearance / 2 (plus a few ulps, so the grid never misses a pair the exact test accepts).
2. The cell size is the median of the boxes' largest inflated extents (with fallbacks for zero-size boxes).  A box
   covering more than `_MAX_CELLS_PER_BOX` cells is *oversize*: it is kept out of this grid.  A few oversize boxes
   are tested against every box directly; many are paired through a coarser grid sized on them (recursively: at
   least half of them fit the next grid), where only pairs holding an oversize box are made.  So one box spanning
   the whole scene costs one vectorised comparison, not millions of cells.
3. Every (cell, box) entry gets a 64-bit cell key: the cell's three integer coordinates packed exactly when they
   fit, else mixed by a multiplicative hash.  Entries are sorted by key; every pair inside a group of equal keys is
   a candidate.  A pair that shares several cells is made only in its *home* cell (the cell of the larger of the
   two lower corners, the first cell both boxes cover), so the pairs are unique before the exact test.
4. Hash collisions put boxes of different cells in one group: the home-cell rule and the exact test above remove
   every spurious pair, and pairs of a box with itself (two of its cells colliding) are dropped explicitly.
5. The exact test filters the pairs; they are returned as (i, j) with i < j, sorted, deduplicated.
"""
from __future__ import annotations

import numpy as np

__all__ = ["candidate_pairs", "brute_force_pairs"]

_MAX_CELLS_PER_BOX = 64
"""A box covering more cells than this is paired through a coarser grid (see the module docstring)."""
_PACK_LIMIT = 1 << 20
"""Cell coordinates below this per axis are packed exactly into 60 bits; larger ones are hashed."""
_HASH = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9))
_EPS = np.finfo(np.float64).eps


def _as_boxes(lo, hi):
    try:
        lo = np.asarray(lo, dtype=np.float64)
        hi = np.asarray(hi, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("lo and hi must be (n, 3) arrays of numbers") from None
    if lo.ndim != 2 or lo.shape[1:] != (3,) or hi.shape != lo.shape:
        raise ValueError(f"lo and hi must both have shape (n, 3), got {lo.shape} and {hi.shape}")
    if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
        raise ValueError("lo and hi must be finite (NaN or infinite bounds found)")
    if np.any(lo > hi):
        bad = int(np.count_nonzero(np.any(lo > hi, axis=1)))
        raise ValueError(f"every box needs lo <= hi on each axis ({bad} boxes have lo > hi)")
    with np.errstate(over="ignore"):
        overflow = lo.size and not np.all(np.isfinite(hi - lo))
    if overflow:
        raise ValueError("a box is too large to measure in float64 (its extent overflows)")
    return np.ascontiguousarray(lo), np.ascontiguousarray(hi)


def as_clearance(clearance) -> float:
    """A clearance as a float, or ValueError unless it is a finite number >= 0 (shared by core/batch.py)."""
    try:
        value = float(clearance)
    except (TypeError, ValueError):
        raise ValueError(f"clearance must be a number, got {clearance!r}") from None
    if not (np.isfinite(value) and value >= 0.0):
        raise ValueError(f"clearance must be finite and >= 0, got {value!r}")
    return value


def _as_members(ids, n: int, name: str) -> np.ndarray:
    """A boolean mask over the n boxes from an index list (or a boolean mask)."""
    array = np.asarray(ids)
    if array.dtype == bool:
        if array.shape != (n,):
            raise ValueError(f"{name} as a boolean mask must have shape ({n},), got {array.shape}")
        return array.copy()
    if array.size == 0:
        return np.zeros(n, dtype=bool)
    if array.ndim != 1 or array.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a 1-d array of integer indices or a boolean mask")
    if array.min() < 0 or array.max() >= n:
        raise ValueError(f"{name} holds an index outside [0, {n})")
    mask = np.zeros(n, dtype=bool)
    mask[array] = True
    return mask


def _exact_test(lo, hi, i, j, clearance):
    """The pairs of index arrays i, j that pass the documented candidate test (one axis at a time, each on the
    survivors of the previous one: 1-d gathers on shrinking arrays)."""
    for axis in range(3):
        low = np.ascontiguousarray(lo[:, axis])
        high = np.ascontiguousarray(hi[:, axis])
        keep = (low[i] - high[j] <= clearance) & (low[j] - high[i] <= clearance)
        i, j = i[keep], j[keep]
    return i, j


def _hash_keys(cells: np.ndarray) -> np.ndarray:
    """64-bit hash keys of integer cell coordinates (k, 3) too large to pack (a multiplicative mix)."""
    u = cells.astype(np.uint64)
    with np.errstate(over="ignore"):
        h = u[:, 0] * _HASH[0] ^ u[:, 1] * _HASH[1] ^ u[:, 2] * _HASH[2]
        h ^= h >> np.uint64(29)
    return h.view(np.int64)


def _grid(glo, ghi, ids, big, cell, key_bits=None):
    """Pairs (positions into ids) of boxes sharing a cell; when `big` is given, only pairs holding a big one.

    glo, ghi: inflated boxes of the boxes in play; cell: edge length (> 0).  Returns two int arrays (p, q)."""
    origin = glo.min(axis=0)
    clo = np.floor((glo - origin) / cell).astype(np.int64)  # >= 0: origin is the smallest corner
    chi = np.floor((ghi - origin) / cell).astype(np.int64)
    span = chi - clo + 1
    counts = span[:, 0] * span[:, 1] * span[:, 2]
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(ids)), counts)
    # The k-th cell of a box, as (dx, dy, dz) offsets from its lower cell.
    local = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    sz = span[:, 2][owner]
    dz = local % sz
    local //= sz
    sy = span[:, 1][owner]
    dy = local % sy
    dx = local // sy
    # Bit k set when the entry's cell is its box's lowest cell on axis k (see the home-cell rule below).
    lowest = ((dx == 0).astype(np.uint8) | ((dy == 0).astype(np.uint8) << 1) | ((dz == 0).astype(np.uint8) << 2))
    if int(chi.max()) < _PACK_LIMIT:
        # Exact packing, 20 bits per axis: the key of a cell is its box's lower-cell key plus the packed offset.
        base = (clo[:, 0] << 40) | (clo[:, 1] << 20) | clo[:, 2]
        keys = base[owner] + ((dx << 40) | (dy << 20) | dz)
    else:
        keys = _hash_keys(clo[owner] + np.stack([dx, dy, dz], axis=1))
    if key_bits is not None:  # tests force hash collisions with a tiny key space
        keys = keys & ((1 << key_bits) - 1)
    if big is None:
        order = np.argsort(keys)
    else:
        order = np.lexsort((~big[owner], keys))  # big entries first within each cell
    keys = keys[order]
    owner = owner[order]
    lowest = lowest[order]
    position = np.arange(total)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], total]
    group_end = np.repeat(ends, ends - starts)
    partners = group_end - position - 1
    if big is not None:
        partners = np.where(big[owner], partners, 0)
    k = int(partners.sum())
    if k == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    first = np.repeat(position, partners)
    second = first + 1 + (np.arange(k) - np.repeat(np.cumsum(partners) - partners, partners))
    p = owner[first]
    q = owner[second]
    # Home cell: make the pair only in the first cell both boxes cover, max(lower cell of p, of q) per axis.  A
    # shared cell C is that cell exactly when, on every axis, C is the lowest cell of p or of q (C is >= both).
    home = ((lowest[first] | lowest[second]) == 7) & (p != q)
    return p[home], q[home]


def _pairs(glo, ghi, ids, want=None, depth=0, key_bits=None):
    """Candidate pairs (positions into ids) among the inflated boxes glo, ghi that hold at least one `want` box
    (a boolean mask; None: all pairs).  A grid sized on the wanted boxes, then the oversize ones recursively."""
    n = len(ids)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    extent = (ghi - glo).max(axis=1)
    sized = extent if want is None else extent[want]
    scene = float((ghi.max(axis=0) - glo.min(axis=0)).max())
    cell = float(np.median(sized))
    if cell <= 0.0:
        positive = sized[sized > 0.0]
        cell = float(np.median(positive)) if positive.size else 0.0
    if cell <= 0.0:
        cell = scene / max(1.0, float(np.cbrt(n))) if scene > 0.0 else 1.0
    # Keep cell coordinates well inside int64 (and the cell above the coordinates' ulp).
    cell = max(cell, scene * 2.0 ** -40, 1e-300)
    origin = glo.min(axis=0)
    span = np.floor((ghi - origin) / cell) - np.floor((glo - origin) / cell) + 1.0
    oversize = span[:, 0] * span[:, 1] * span[:, 2] > _MAX_CELLS_PER_BOX
    wanted = np.ones(n, dtype=bool) if want is None else want
    if oversize.any() and (depth >= 60 or int(oversize.sum()) * n <= 1_000_000):
        # Few oversize boxes (or a pathological nesting): test each of them against every box directly.
        p, q = _direct(glo, ghi, oversize, wanted)
        normal = ~oversize
        p1, q1 = _grid_subset(glo, ghi, ids, normal, None if want is None else want, cell, key_bits)
        return np.r_[p1, p], np.r_[q1, q]
    normal = ~oversize
    p1, q1 = _grid_subset(glo, ghi, ids, normal, None if want is None else want, cell, key_bits)
    if not oversize.any():
        return p1, q1
    # Pairs holding an oversize box: a coarser grid sized on the oversize boxes (at least half of them fit it,
    # so the recursion halves them each level), then keep the pairs that also hold a wanted box.
    p2, q2 = _pairs(glo, ghi, ids, oversize, depth + 1, key_bits)
    keep = wanted[p2] | wanted[q2]
    return np.r_[p1, p2[keep]], np.r_[q1, q2[keep]]


def _grid_subset(glo, ghi, ids, subset, want, cell, key_bits):
    """`_grid` on the boxes of a boolean subset; positions mapped back to the full arrays."""
    pos = np.flatnonzero(subset)
    if len(pos) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    p, q = _grid(glo[pos], ghi[pos], ids[pos], None if want is None else want[pos], cell, key_bits)
    return pos[p], pos[q]


def _direct(glo, ghi, marked, wanted):
    """Pairs holding a marked box, with at least one wanted box, by testing each marked box against all."""
    n = len(glo)
    m = np.flatnonzero(marked)
    p = np.repeat(m, n)
    q = np.tile(np.arange(n), len(m))
    keep = (p != q) & ~(marked[q] & (q < p)) & (wanted[p] | wanted[q])  # marked-marked pairs once
    p, q = p[keep], q[keep]
    hit = np.all(glo[p] <= ghi[q], axis=1) & np.all(glo[q] <= ghi[p], axis=1)
    return p[hit], q[hit]


def candidate_pairs(lo, hi, clearance: float = 0.0, set_a=None, set_b=None, *, _key_bits=None) -> np.ndarray:
    """Candidate pairs of world AABBs within `clearance` of each other (see the module docstring for the test).

    lo, hi: (n, 3) lower and upper corners.  clearance: >= 0, world units.
    set_a, set_b: index arrays (or boolean masks over the n boxes).
      - neither given: every pair among all n boxes;
      - set_a only: every pair among the boxes of set_a;
      - both: every pair of one box of set_a with one box of set_b.  A box may be in both sets: it is never paired
        with itself, and each unordered pair is reported once.
    Returns an (k, 2) int64 array of rows (i, j) with i < j (box indices into lo/hi), sorted lexicographically.
    Raises ValueError on bad input (shapes, NaN/inf, lo > hi, negative clearance, indices out of range)."""
    lo, hi = _as_boxes(lo, hi)
    clearance = as_clearance(clearance)
    n = lo.shape[0]
    if set_b is not None and set_a is None:
        raise ValueError("set_b needs set_a (give set_a alone for pairs within one set)")
    in_a = np.ones(n, dtype=bool) if set_a is None else _as_members(set_a, n, "set_a")
    in_b = None if set_b is None else _as_members(set_b, n, "set_b")
    involved = in_a if in_b is None else (in_a | in_b)
    ids = np.flatnonzero(involved)
    if in_b is not None and not (in_a.any() and in_b.any()):
        return np.zeros((0, 2), np.int64)
    if len(ids) < 2:
        return np.zeros((0, 2), np.int64)
    sub_lo, sub_hi = lo[ids], hi[ids]
    # Inflate for the grid by a hair more than clearance / 2 so that rounding never drops a pair the exact test
    # (below) accepts; the exact test then decides.
    magnitude = float(max(np.abs(sub_lo).max(), np.abs(sub_hi).max()))
    pad = 0.5 * clearance + 8.0 * _EPS * (magnitude + clearance)
    p, q = _pairs(sub_lo - pad, sub_hi + pad, ids, None, 0, _key_bits)
    i, j = ids[p], ids[q]
    i, j = np.minimum(i, j), np.maximum(i, j)
    keep = i != j
    if in_b is not None:
        keep &= (in_a[i] & in_b[j]) | (in_b[i] & in_a[j])
    i, j = _exact_test(lo, hi, i[keep], j[keep], clearance)
    packed = np.unique(i * np.int64(n) + j)
    return np.stack([packed // n, packed % n], axis=1).astype(np.int64)


def brute_force_pairs(lo, hi, clearance: float = 0.0, set_a=None, set_b=None) -> np.ndarray:
    """The same answer as `candidate_pairs` by testing every pair (O(n^2); for checks and tiny scenes)."""
    lo, hi = _as_boxes(lo, hi)
    clearance = as_clearance(clearance)
    n = lo.shape[0]
    in_a = np.ones(n, dtype=bool) if set_a is None else _as_members(set_a, n, "set_a")
    in_b = in_a if set_b is None else _as_members(set_b, n, "set_b")
    i, j = np.triu_indices(n, 1)
    keep = (in_a[i] & in_b[j]) | (in_b[i] & in_a[j])
    i, j = _exact_test(lo, hi, i[keep], j[keep], clearance)
    return np.stack([i, j], axis=1).astype(np.int64)
