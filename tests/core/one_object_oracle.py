"""Brute-force references for the one-object checks (test-only, engine-free), built on tests/core/mesh_oracle.py.

- `self_pairs(soup, band)`: every pair (i < j) of the soup's triangles, classified by the corners they share
  (coordinates compared exactly, so equal positions are one corner), and among them those that cross robustly
  (an edge of one passes through the interior of the other by more than `band`: they must be found), those that
  meet at all (their exact distance within `tol`: nothing else may be found), and the edge-sharing pairs folded
  back flat (coplanar within `band`, third corners on the same side of the shared edge, each more than `band`
  from it), each from its own closed forms.
- `part_pairs(parts, band, tol)`: for every pair of parts (soups), the exact surface distance, whether they cross
  robustly, and whether a closed one holds the other (winding number of a vertex).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tests.core import mesh_oracle as mo


def _welded(soup: mo.Soup) -> np.ndarray:
    _, inverse = np.unique(soup.vertices, axis=0, return_inverse=True)
    return inverse.reshape(-1)[soup.triangles]


def _area_ok(tris: np.ndarray) -> np.ndarray:
    n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    return np.linalg.norm(n, axis=1) > 0.0


@dataclass
class SelfPairs:
    robust: set          # pairs that must be reported (crossing by more than the band beyond what they share)
    meeting: set         # pairs that touch or cross anywhere (exact distance within tol): an upper set
    folded: set          # edge-sharing pairs folded back flat
    shared: dict         # pair -> number of shared corners, for every pair in the sets above


def self_pairs(soup: mo.Soup, band: float, tol: float) -> SelfPairs:
    tris = soup.tris
    welded = _welded(soup)
    proper = (welded[:, 0] != welded[:, 1]) & (welded[:, 1] != welded[:, 2]) & (welded[:, 2] != welded[:, 0])
    proper &= _area_ok(tris)
    # only pairs whose boxes come within tol can meet (the oracle's own box test over all pairs)
    i, j, _ = mo._candidate_pairs(tris, tris, tol)
    keep = (i < j) & proper[i] & proper[j]
    i, j = i[keep], j[keep]
    shared = sum((welded[i, a, None] == welded[j]).any(axis=1).astype(int) for a in range(3))
    robust, meeting, folded, count = set(), set(), set(), {}
    for lo in range(0, len(i), 1 << 16):
        ii, jj, sh = i[lo:lo + (1 << 16)], j[lo:lo + (1 << 16)], shared[lo:lo + (1 << 16)]
        d = mo.triangle_pair_distance(tris[ii], tris[jj])
        near = d <= tol
        cross = mo._pair_crosses(tris[ii], tris[jj], band) & (sh <= 1)
        for a, b, s in zip(ii[near], jj[near], sh[near]):
            meeting.add((int(a), int(b)))
            count[(int(a), int(b))] = int(s)
        for a, b in zip(ii[cross], jj[cross]):
            robust.add((int(a), int(b)))
    for a, b in [p for p, s in count.items() if s == 2]:
        if _folded(tris[a], tris[b], welded[a], welded[b], band):
            folded.add((a, b))
    return SelfPairs(robust, meeting, folded, count)


def _folded(x, y, wx, wy, band) -> bool:
    """Two triangles sharing an edge lie in one plane (within band) on the same side of that edge."""
    lone_x = [k for k in range(3) if wx[k] not in wy][0]
    lone_y = [k for k in range(3) if wy[k] not in wx][0]
    u, v = x[(lone_x + 1) % 3], x[(lone_x + 2) % 3]
    cx, cy = x[lone_x], y[lone_y]
    nx = np.cross(v - u, cx - u)
    ny = np.cross(v - u, cy - u)
    # heights of each third corner over the other triangle's plane
    hx = abs(np.dot(cy - u, nx)) / np.linalg.norm(nx)
    hy = abs(np.dot(cx - u, ny)) / np.linalg.norm(ny)
    # the distance of each third corner to the edge's line is |edge x (c - u)| / |edge|
    e = np.linalg.norm(v - u)
    far = np.linalg.norm(nx) / e > band and np.linalg.norm(ny) / e > band
    return hx <= band and hy <= band and far and float(np.dot(nx, ny)) > 0.0


@dataclass
class PartPair:
    distance: float      # exact distance between the two surfaces (0 when they cross or touch)
    error: float         # rounding bound of `distance`
    crosses: bool        # some triangle pair crosses robustly (by more than the band)
    contained: bool      # one part is closed and holds the other (no crossing)
    closed: tuple        # (closed a, closed b)


def part_pairs(parts: list, band_of) -> dict:
    """{(a, b): PartPair} for every pair a < b of part soups; `band_of(sa, sb)` gives the pair's band."""
    out = {}
    for a in range(len(parts)):
        for b in range(a + 1, len(parts)):
            sa, sb = parts[a], parts[b]
            band = band_of(sa, sb)
            dist = mo.mesh_distance(sa, sb)
            crosses = len(mo.crossings(sa, sb, band)) > 0
            closed = (mo.is_closed(sa), mo.is_closed(sb))
            contained = False
            if not crosses and dist.distance > band:
                contained = (closed[1] and abs(mo.winding_number(sb, sa.used[:1])[0]) >= 0.5
                             or closed[0] and abs(mo.winding_number(sa, sb.used[:1])[0]) >= 0.5)
            out[(a, b)] = PartPair(dist.distance, dist.error, crosses, contained, closed)
    return out
