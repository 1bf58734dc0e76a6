"""collide_many's lock-step EPA (core/lockstep_epa.py) gives the scalar engine's answers, bit for bit.

On seeded scenes of point clouds (the shapes it runs on): random clouds of 1 to 256 vertices, box-like planks with
points on their faces and rotated cubes (support ties on every face: the batched and the scalar products must pick
the same vertex), ring-built pipes, flat clouds (a flat M goes to the scalar engine), deep overlaps (a cloud and a
copy moved by a few percent), identical copies, touching and nearly touching cubes, at several sizes and far from
the origin:
- every pair the lock-step EPA finishes gets exactly the Contact the scalar `solve` makes from the same GJK
  tetrahedron (core/convex.py, core/epa.py), and every pair whose lock-step GJK converged apart the one `solve`
  makes from that GJK result: every field, floats and arrays compared by their bytes;
- `collide_many`'s list equals `core.collide` pair by pair (same pairs, status and scale; distance within the gap:
  the lock-step GJK may start EPA from another tetrahedron than the scalar GJK, see core/lockstep.py);
- the lock-step EPA really decides most of the intersecting pairs (the comparison is not vacuous), in one block of
  pairs with every support from the batched products, or in several blocks small enough for the scalar ones,
  closing its certified pairs at every step or once nothing else expands.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.batch import ShapeBatch, _finished, _separated
from core.convex import Pair, solve
from core.lockstep import ORIGIN
from core.lockstep_epa import _Sides
from tests.core.support import CUBE, uniform_rotation


def _cloud(rng, kind):
    n = int(rng.integers(1, 257))
    if kind == "blob":
        return rng.normal(size=(n, 3)) * rng.uniform(0.2, 0.8, 3)
    if kind == "plank":  # a box with random points on its faces: many ties along its face normals
        half = rng.uniform([0.4, 0.1, 0.03], [0.8, 0.3, 0.1])
        v = rng.uniform(-1.0, 1.0, (max(n, 8), 3))
        axis = rng.integers(0, 3, len(v))
        v[np.arange(len(v)), axis] = np.sign(v[np.arange(len(v)), axis])
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        return np.r_[corners, v][:max(n, 8)] * half
    if kind == "pipe":  # rings of a cylinder
        t = np.linspace(0.0, 2.0 * np.pi, int(rng.integers(3, 24)), endpoint=False)
        z = np.linspace(-1.0, 1.0, int(rng.integers(2, 8)))
        r = rng.uniform(0.1, 0.4)
        return np.array([[r * np.cos(a), r * np.sin(a), 0.8 * h] for h in z for a in t])
    if kind == "flat":  # coplanar points
        v = rng.normal(size=(max(n, 3), 3)) * 0.5
        v[:, 2] = 0.0
        return v
    return (CUBE - 0.5) * rng.uniform(0.3, 1.0)  # a cube


def _scene(seed, size, offset, n=40):
    rng = np.random.default_rng(seed)
    kinds = ("blob", "plank", "pipe", "flat", "cube")
    shapes = []
    for _ in range(n):
        m = np.eye(4)
        m[:3, :3] = uniform_rotation(rng) * size
        m[:3, 3] = offset + rng.uniform(0.0, 2.5, 3) * size
        shapes.append(core.PointCloud(_cloud(rng, kinds[int(rng.integers(len(kinds)))]), m))
    for k in range(0, 8, 2):  # deep overlaps: a copy moved by a few percent of its size
        m = shapes[k].transform.copy()
        m[:3, 3] += rng.normal(size=3) * 0.03 * size
        shapes.append(core.PointCloud(shapes[k].vertices, m))
    shapes.append(core.PointCloud(shapes[9].vertices, shapes[9].transform))  # an identical copy
    shapes.append(shapes[10])  # the same object twice
    cube = CUBE * size + offset
    shapes += [core.PointCloud(cube), core.PointCloud(cube + [size, 0.0, 0.0]),  # touching faces
               core.PointCloud(cube + [0.0, size * (1.0 - 2.0 ** -40), 0.0]),  # overlapping by a hair
               core.PointCloud(cube + [0.0, 0.0, size * 0.5])]  # half way in
    return shapes


CASES = [(0, 1.0, 0.0), (1, 1e-6, 0.0), (2, 1e4, 0.0), (3, 1.0, 1e6), (4, 1e-3, -3e4), (5, 50.0, 2e7)]


def _same(x, y) -> bool:
    if isinstance(x, (float, np.ndarray)) or isinstance(y, (float, np.ndarray)):
        return np.asarray(x, dtype=np.float64).tobytes() == np.asarray(y, dtype=np.float64).tobytes()
    return x == y and type(x) is type(y)


@pytest.mark.parametrize("clearance_factor", [0.0, 0.2])
@pytest.mark.parametrize("seed,size,offset", CASES)
def test_lockstep_epa_gives_the_scalar_answers(seed, size, offset, clearance_factor, monkeypatch):
    if seed % 2:
        monkeypatch.setattr(core.batch, "_CHUNK", 16)  # the lock-step EPA in several blocks of pairs
    else:  # these scenes' few pairs would take the scalar products: the batched ones must agree too
        monkeypatch.setattr(_Sides, "scalar_rows", -1)
    if seed % 3 == 0:  # certified pairs closed at every step, while the others still expand (else at the end)
        monkeypatch.setattr(core.lockstep_epa, "_CLOSE_AFTER", 1)
    shapes = _scene(seed, size, offset)
    clearance = clearance_factor * size
    tolerances = core.DEFAULT_TOLERANCES
    batch = ShapeBatch(shapes)
    i, j = np.triu_indices(len(shapes), 1)
    pairs = np.stack([i, j], axis=1)
    keep = np.flatnonzero(batch.candidates(pairs, clearance))
    first, second = pairs[keep, 0], pairs[keep, 1]
    scales = np.maximum(batch._scales[first], batch._scales[second]).tolist()
    state, starts, penetration = batch._lockstep_all(first, second, scales, clearance, tolerances)
    finished = _finished(batch, first, second, scales, tolerances, penetration)
    origin = int((state == ORIGIN).sum())
    assert origin and len(finished) >= 0.8 * origin, (len(finished), origin)
    # The pairs whose lock-step GJK converged apart get their Contacts in one pass too: the same comparison.
    separated = _separated(batch, first, second, scales, tolerances, state, starts)
    assert not set(separated) & set(finished)
    assert separated or not clearance, "no separated pair within the clearance: the check would be vacuous"
    finished.update(separated)
    for k, contact in finished.items():
        a, b = int(first[k]), int(second[k])
        pair = Pair.prepared(shapes[a], shapes[b], batch.centre[a],
                             tuple((batch.centre[b] - batch.centre[a]).tolist()), scales[k], tolerances)
        want = solve(pair, clearance, start=starts(k))
        for name, value in vars(want).items():
            assert _same(value, getattr(contact, name)), (a, b, name, value, getattr(contact, name))

    # The whole list against core.collide pair by pair.
    got = {(a, b): c for a, b, c in core.collide_many(batch, pairs, clearance)}
    for a, b in pairs.tolist():
        c = core.collide(shapes[a], shapes[b])
        listed = c.status is not core.Status.SEPARATED or c.distance - c.gap <= clearance
        near = abs(c.distance - clearance) <= 4e-12 * c.scale
        if (a, b) not in got:
            assert not listed or near, (a, b, c.status, c.distance)
            continue
        g = got[(a, b)]
        assert listed or near, (a, b, c.status, c.distance)
        assert g.status is c.status and g.scale == c.scale, (a, b)
        assert abs(g.distance - c.distance) <= max(g.gap, c.gap) + 1e-12 * c.scale, (a, b, g.distance, c.distance)
