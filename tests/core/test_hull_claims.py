"""core/hull.py `_claimed_regions` and `_convex_neighbours`: which proposals of a round go in together.

On an Ico Sphere split twice (162 vertices, 320 faces) with seeded proposal points above some of its faces (at
varied heights, so that regions of one to a dozen faces overlap and touch), the kept proposals are judged
against an independent oracle: each proposal's visible region by a plain breadth-first search in Python (np.dot
on np.cross normals), the convexity of a shared edge by exact rational arithmetic (Python's fractions).
- every kept proposal's pairs are exactly its visible region, and kept regions are disjoint;
- two kept regions that share an edge meet convexly there (neither point above the other's new face on it);
- the highest proposal is always kept (each round makes progress);
- a proposal left out has a reason: a higher proposal's region overlaps its own, or shares an edge with it where
  the two new faces would meet concavely;
- the claims are handed back as found (every entry -1), ready for the next round.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from core import hull
from core.sphere_cells import icosphere

EPS = 1e-12


def _mesh():
    v, tri = icosphere(2)
    return v, tri


def _setup(seed: int):
    v, tri = _mesh()
    rng = np.random.default_rng([961, seed])
    k = tri.shape[0]
    chosen = rng.choice(k, size=60, replace=False)
    centroid = v[tri[chosen]].mean(axis=1)
    lift = rng.uniform(1.0, 1.25, size=60)  # low points see their own face only; high ones a dozen
    apex = centroid / np.linalg.norm(centroid, axis=1)[:, None] * lift[:, None]
    points = np.vstack([v, apex])
    P = np.ascontiguousarray(points.T)
    faces = hull._Faces(4 * k)
    plane, ok = hull._planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
    assert ok.all()
    nb, back = hull._neighbours(tri, points.shape[0], slots=True)
    faces.start(tri, nb, back, plane)
    # candidates by rising priority: as `_build` numbers them (by height above their face)
    cand = v.shape[0] + np.arange(60)
    h = np.array([_height(points, tri[f], points[c]) for f, c in zip(chosen, cand)])
    order = np.argsort(h, kind="stable")
    return points, tri, nb, P, faces, cand[order], chosen[order]


def _height(points, corners, q):
    a, b, c = points[corners]
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n)
    return float(np.dot(n, q - a))


def _region(points, tri, nb, start, q):
    seen, todo = {int(start)}, [int(start)]
    while todo:
        f = todo.pop()
        for g in nb[f]:
            g = int(g)
            if g not in seen and _height(points, tri[g], q) > EPS:
                seen.add(g)
                todo.append(g)
    return seen


def _concave(points, a, b, p, q) -> bool:
    """Whether q lies above the plane of (a, b, p) or p above (b, a, q): the sign of the triple product."""
    a, b, p, q = ([Fraction(float(x)) for x in w] for w in (points[a], points[b], points[p], points[q]))
    u = [b[i] - a[i] for i in range(3)]
    v = [p[i] - a[i] for i in range(3)]
    w = [q[i] - a[i] for i in range(3)]
    uv = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    return uv[0] * w[0] + uv[1] * w[1] + uv[2] * w[2] > 0


def _meetings(tri, nb, region_a, region_b):
    """Edges (a, b) of faces of region_a whose face across is in region_b."""
    out = []
    for f in region_a:
        for s in range(3):
            if int(nb[f, s]) in region_b:
                out.append((int(tri[f, s]), int(tri[f, (s + 1) % 3])))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_kept_proposals_are_independent_and_the_rest_have_a_reason(seed):
    points, tri, nb, P, faces, cand, cand_face = _setup(seed)
    pc, pf, claimed, dead = hull._claimed_regions(P, faces, cand, cand_face, EPS)
    pc, pf = hull._convex_neighbours(P, faces, cand, pc, pf, claimed, dead, EPS)
    regions = [_region(points, tri, nb, f, points[c]) for c, f in zip(cand, cand_face)]
    kept = sorted(set(pc.tolist()))
    assert cand.size - 1 in kept  # the highest goes in
    for i in kept:
        assert set(pf[pc == i].tolist()) == regions[i]
        assert np.count_nonzero(pc == i) == len(regions[i])  # one pair per face
    for x in kept:
        for y in kept:
            if x < y:
                assert not regions[x] & regions[y]
                for a, b in _meetings(tri, nb, regions[x], regions[y]):
                    assert not _concave(points, a, b, cand[x], cand[y]), (x, y)
    reasons = 0
    for i in sorted(set(range(cand.size)) - set(kept)):
        overlap = any(regions[i] & regions[j] for j in range(i + 1, cand.size))
        concave = any(_concave(points, a, b, cand[i], cand[j])
                      for j in range(i + 1, cand.size) for a, b in _meetings(tri, nb, regions[i], regions[j]))
        assert overlap or concave, i
        reasons += 1
    assert reasons > 0 and len(kept) > 1  # the scenario has both
    assert np.all(faces.scratch("claim") == -1)
    assert np.all(faces.scratch("last") == -1)


def test_the_scenarios_have_overlaps_and_touching_regions():
    """The seeds above are not trivial: regions of several faces that overlap, and kept ones that touch."""
    overlaps = touching = large = 0
    for seed in range(6):
        points, tri, nb, P, faces, cand, cand_face = _setup(seed)
        regions = [_region(points, tri, nb, f, points[c]) for c, f in zip(cand, cand_face)]
        large += sum(len(r) >= 4 for r in regions)
        overlaps += sum(bool(regions[i] & regions[j]) for i in range(60) for j in range(i + 1, 60))
        touching += sum(bool(_meetings(tri, nb, regions[i], regions[j])) and not regions[i] & regions[j]
                        for i in range(60) for j in range(i + 1, 60))
    assert large > 20 and overlaps > 20 and touching > 20, (large, overlaps, touching)
