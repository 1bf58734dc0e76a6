"""The pairing of directed edges with their reverses (core/topology.py `edge_twins`, and core/triangulation.py
`edge_pairing` on top of it) agrees with a dictionary built edge by edge, on closed, open and non-manifold triangle
sets, for vertex counts on either side of 2^16 (below it the rows are ordered by two 16-bit radix sorts, above it
by one sort of a combined key).

The pairing is shared by the convexity test, the fold flips and the climbing graph of every hull triangulation,
so an error here would reach every convex query of more than a few hundred vertices."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core.topology import edge_twins, ordered
from core.triangulation import edge_pairing


def oracle(topo: np.ndarray):
    """(ok, twin row) per directed edge row 3 t + i (corner i to corner i + 1), from a dict of edge -> rows."""
    rows: dict[tuple[int, int], list[int]] = {}
    for t, tri in enumerate(topo.tolist()):
        for i in range(3):
            rows.setdefault((tri[i], tri[(i + 1) % 3]), []).append(3 * t + i)
    ok = np.zeros(topo.size, bool)
    twin = np.full(topo.size, -1)
    for (u, v), mine in rows.items():
        back = rows.get((v, u), [])
        if len(mine) == 1 and len(back) == 1:
            ok[mine[0]] = True
            twin[mine[0]] = back[0]
    return ok, twin


def closed_surface(count: int, seed: int) -> np.ndarray:
    """qhull's triangles of points on a sphere, each turned to face outwards (qhull leaves them either way)."""
    v = np.random.default_rng(seed).normal(size=(count, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    tri = ConvexHull(v).simplices.astype(np.int64)
    a, b, c = v[tri[:, 0]], v[tri[:, 1]], v[tri[:, 2]]
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a) < 0.0
    tri[inward] = tri[inward][:, ::-1]
    return tri


def shuffled(topo: np.ndarray, n: int, offset: int, seed: int) -> np.ndarray:
    """The same surface with its vertices renumbered at random within [offset, offset + n)."""
    perm = np.random.default_rng(seed).permutation(n) + offset
    return perm[topo]


CASES = {
    "closed": lambda t: t,
    "open (one triangle gone)": lambda t: t[1:],
    "a triangle twice": lambda t: np.vstack([t, t[:1]]),
    "a triangle reversed twice": lambda t: np.vstack([t, t[:1, ::-1], t[:1, ::-1]]),
    "one triangle turned round": lambda t: np.vstack([t[:1, ::-1], t[1:]]),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("offset", [0, 70_000], ids=["radix", "combined key"])
def test_pairing_agrees_with_a_dictionary(case, offset):
    base = closed_surface(400, seed=len(case))
    n = 400 + offset
    topo = CASES[case](shuffled(base, 400, offset, seed=7))
    eu, ev, owner, twin, ok = edge_twins(topo, n)
    want_ok, want_twin = oracle(topo)
    assert np.array_equal(eu, topo.reshape(-1)) and np.array_equal(ev, topo[:, [1, 2, 0]].reshape(-1))
    assert np.array_equal(owner, np.repeat(np.arange(topo.shape[0]), 3))
    assert np.array_equal(ok, want_ok), case
    assert np.array_equal(twin[ok], want_twin[ok]), case
    closed = edge_pairing(topo, n)[3]
    assert (closed is not None) == (case == "closed")
    if closed is not None:
        assert np.array_equal(closed, want_twin)


@pytest.mark.parametrize("n", [5, 1 << 16, (1 << 16) + 1, 1 << 20])
def test_ordered_is_the_lexicographic_order(n):
    rng = np.random.default_rng(n)
    major, minor = rng.integers(0, n, 5000), rng.integers(0, n, 5000)
    major[:100] = major[100:200]  # ties in the major key, so the minor key and stability matter
    assert np.array_equal(ordered(major, minor, n), np.lexsort((minor, major)))
