"""The depth probes whose winding numbers wait (core/mesh/inside.py `ASKED_FIRST`): for a crossing pair `meet`
asks the winding numbers of the probes without an upper bound of their depth, of those counted twice, of the
points stepped off the curve and of the ASKED_FIRST largest bounds; the others are asked by `deepest_inside` only
where their bound reaches the depth found among the rest (`_unknown_deeper`), or all of them when the sample of
MAX_DEPTH_POINTS needs every flag.  Every Contact field, in both argument orders, must be what the query gives
when every probe is asked at once.  Cases: tests/core/mesh_corpus.py's crossing families (rod through torus,
chain links, random, L-shapes) and a torus crossing a sphere at two depths; with nothing asked early (every
bound waits) and with a sample cap small enough that every flag is needed.  The late search itself
(`_unknown_deeper`) must give the search over every inside point: the same row (the lowest of a tie), distance and
surface point, on seeded points about a star and a torus, with the deepest point waiting, asked, or both (a tie)."""
from __future__ import annotations

import numpy as np
import pytest

from types import SimpleNamespace

import core
from core.mesh import inside
from core.mesh.bvh import WorldBVH
from core.mesh.farthest import farthest_from_surface
from core.mesh.points import closest_points, winding_numbers
from core.mesh.tritri import point_triangle
from tests.core.mesh_corpus import star, torus
from tests.core.probe_cases import answers_both_orders, crossing_pairs


@pytest.mark.parametrize("asked_first, cap", [(inside.ASKED_FIRST, inside.MAX_DEPTH_POINTS),
                                              (0, inside.MAX_DEPTH_POINTS), (0, 16)])
def test_waiting_probes_change_no_answer(monkeypatch, asked_first, cap):
    pairs = crossing_pairs()
    monkeypatch.setattr(inside, "MAX_DEPTH_POINTS", cap)
    monkeypatch.setattr(inside, "ASKED_FIRST", 1 << 30)
    want = answers_both_orders(pairs)
    monkeypatch.setattr(inside, "ASKED_FIRST", asked_first)
    late = []
    real = inside._unknown_deeper

    def counted(deepest, *args):
        answer = real(deepest, *args)
        late.append(answer is not deepest)
        return answer

    monkeypatch.setattr(inside, "_unknown_deeper", counted)
    assert answers_both_orders(pairs) == want
    if cap > 16:
        assert late  # some probes waited


def _same(got, want):
    if want is None:
        return got is None
    return (got is not None and got[0] == want[0] and np.float64(got[1]).tobytes() == np.float64(want[1]).tobytes()
            and np.asarray(got[2]).tobytes() == np.asarray(want[2]).tobytes())


def _search(points, rows, world, band):
    """The deepest of points[rows] beyond the band as (row, distance, surface point), or None."""
    found = farthest_from_surface(points[rows], world, band)
    return None if found is None else (int(rows[found[0]]), found[1], found[2])


@pytest.mark.parametrize("shape", ["star", "torus"])
@pytest.mark.parametrize("seed", range(6))
def test_late_search_is_the_search_over_all(shape, seed):
    rng = np.random.default_rng([20261128, 7, seed])
    v, t = star(rng, noise=0.3, n=32, rings=16)[:2] if shape == "star" else torus(1.0, 0.3, 40, 16)
    mesh = core.TriangleMesh(v, t)
    world = WorldBVH(mesh._local.bvh, mesh.vertices, None, np.zeros(3))
    corners = world.leaf_corners
    near = rng.integers(0, corners.shape[0], 300)
    paired = corners[near].mean(axis=1) + rng.normal(size=(300, 3)) * rng.choice([1e-3, 0.05, 0.2], 300)[:, None]
    loose = rng.uniform(-1.0, 1.0, (40, 3)) * 0.6
    points = np.concatenate([loose, paired])
    dist, surface = closest_points(points, world)
    inside_flags = winding_numbers(points, world, 2.0) != 0
    # each point's upper bound: its distance to the triangle it was made next to, or to its nearest surface point
    tri = corners[near]
    q = point_triangle(paired, tri[:, 0], tri[:, 1], tri[:, 2])
    upper = np.concatenate([inside.upper_from(loose, surface[:loose.shape[0]]), inside.upper_from(paired, q)])
    assert np.all(upper >= dist)
    band = 1e-9
    if seed % 3 == 1:  # the deepest inside point waits and is asked too, at a later row: the lower row wins
        deepest = int(np.flatnonzero(inside_flags)[np.argmax(dist[inside_flags])])
        points = np.concatenate([points, points[deepest:deepest + 1]])
        upper = np.concatenate([upper, [np.inf]])
        inside_flags = np.concatenate([inside_flags, [True]])
        unknown = np.zeros(points.shape[0], bool)
        unknown[deepest] = True
        unknown[:-1] |= rng.random(points.shape[0] - 1) < 0.3
    elif seed % 3 == 2:  # every inside point waits: none found before
        unknown = np.ones(points.shape[0], bool)
    else:
        unknown = rng.random(points.shape[0]) < 0.5
    world_side = SimpleNamespace(world=world)
    everything = np.flatnonzero(inside_flags)
    want = _search(points, everything, world, band)
    known = np.flatnonzero(inside_flags & ~unknown)
    before = _search(points, known, world, band) if known.size else None
    got = inside._unknown_deeper(before, points, unknown, upper, world_side, band, 2.0)
    assert _same(got, want)
