"""The sweep's check of a deforming pair (`core.deform.SampleChecker`: refitted hierarchies, no inner-body proof
for a separated pair, no hulls for an intersecting pair's `gap`) gives the status and the signed distance of a
fresh `core.collide` on every sample: the status the same, the distance within a few ulps of the pair's scale.
Seeded deformations checked one after the other with one checker (so its hierarchies are refitted from the
previous sample's): jitter, bulges, the shapes of bench/deform.py, Blender's float32 spheres deep in each other
(the nearly-convex route), far from the origin and at 1/100 scale, and the keyed cases of the deforming sweep.

Issue 22: the sweep's samples need only the verdict and the signed distance.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from core.deform import GROW, SampleChecker
from core.mesh.bvh import LocalBVH
from core.mesh.parts import is_convex
from core.mesh.refit import NotConvex, Refit
from core.mesh.query import sample_meshes
from tests.core.deform_cases import Keyed, box, bulge, deformed_pair, grid, slab, spiked_sheet, translated
from tests.core.duplicates import blender_uv_sphere, uv_sphere, uv_sphere_triangles

ULPS = 8


def _agree(fresh, sampled, scale):
    assert sampled.status is fresh.status
    assert abs(sampled.distance - fresh.distance) <= ULPS * np.finfo(float).eps * scale, (fresh.distance,
                                                                                         sampled.distance)


def _dented(directions, scale=1.0):
    """A sphere with one vertex pushed in halfway: not convex, so the general pipeline builds hierarchies."""
    dented = directions * scale
    dented[len(dented) // 2] *= 0.5
    return dented


def _sequence(kind: str, rng, count: int = 8):
    """(triangles, [(vertices_a, vertices_b, transform_b)]): `count` frames of one seeded deformation, B close
    to A (some frames apart, some in contact)."""
    frames = []
    if kind == "bench shapes":  # bench/deform.py at a lower resolution
        d, t = uv_sphere(40, 20), uv_sphere_triangles(40, 20)
        for frame in np.sort(rng.uniform(100.0, 150.0, count)):
            axis = [math.sin(frame / 20.0), 0.0, math.cos(frame / 20.0)]
            a = bulge(d, axis, 0.15) * (1.0 + 0.05 * math.sin(frame / 9.0))
            b = d * (1.0 + 0.05 * math.cos(frame / 7.0))
            frames.append((a, b, translated((rng.uniform(-1.0, 1.0), 0.0, rng.uniform(1.9, 2.3)))))
        return t, frames
    v, t = blender_uv_sphere(32, 16)
    v = np.asarray(v, np.float64)
    if kind == "float32 spheres":  # nearly convex (core/mesh/inner.py), breathing, deep in or near each other
        for k in range(count):
            a = np.asarray(np.float32(v * (1.0 + 0.05 * math.sin(k))), np.float64)
            b = np.asarray(np.float32(v * (1.0 + 0.05 * math.cos(k))), np.float64)
            frames.append((a, b, translated(rng.normal(size=3) * rng.choice([0.1, 0.5, 1.0, 2.1]))))
        return t, frames
    for _ in range(count):
        a, b = deformed_pair(kind, v, rng)
        frames.append((a, b, translated(rng.normal(size=3) * rng.choice([0.5, 1.0, 1.9, 2.2, 3.0]))))
    return t, frames


KINDS = ["jitter 1e-6", "jitter 1e-3", "bulge 0.02", "bulge 0.3", "bench shapes", "float32 spheres"]
PLACES = {"near the origin": (np.zeros(3), 1.0), "far from the origin": (np.array([3e4, -2e4, 1e4]), 1.0),
          "at 1/100 scale": (np.zeros(3), 0.01)}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("kind", KINDS)
def test_samples_answer_as_a_fresh_check(kind, place):
    rng = np.random.default_rng(10 * KINDS.index(kind) + list(PLACES).index(place))
    t, frames = _sequence(kind, rng)
    offset, scale = PLACES[place]
    checker = SampleChecker()
    statuses = set()
    for a, b, pose in frames:
        place_a = translated(offset, scale)
        place_b = translated(offset + scale * pose[:3, 3], scale)
        fresh = core.collide(core.TriangleMesh(a, t, place_a), core.TriangleMesh(b, t, place_b), depth_interval=False)
        sampled = checker.check(core.TriangleMesh(a, t, place_a), core.TriangleMesh(b, t, place_b))
        _agree(fresh, sampled, fresh.scale)
        statuses.add(fresh.status)
    if kind in ("jitter 1e-6", "jitter 1e-3", "bulge 0.02"):
        assert checker.refits > 0  # small motions: the hierarchies were refitted, not rebuilt
    if kind in ("bulge 0.3", "bench shapes", "float32 spheres"):
        assert core.Status.INTERSECTING in statuses and core.Status.SEPARATED in statuses


def test_the_keyed_cases_answer_as_a_fresh_check():
    """The deforming sweep's cases (tests/core/deform_cases.py): a spike through a slab, a bulging sheet under a
    falling box, sampled densely in time with one checker."""
    spike = spiked_sheet([0.0, 1.0, 2.0], [[-0.5, 0.0, 0.0], [-0.5, 0.0, 0.6], [-0.5, 0.0, 0.0]])
    above = slab([-0.8, -0.3, 0.25], [0.2, 0.3, 0.5])
    vertices, triangles = grid(12)
    bulged = vertices.copy()
    bulged[:, 2] = 0.3 * np.exp(-8.0 * (vertices[:, 0] ** 2 + vertices[:, 1] ** 2))
    sheet = Keyed(triangles, [0.0, 2.0], [vertices, bulged])
    cube, faces = box([-0.2, -0.2, 0.0], [0.2, 0.2, 0.2])
    falling = Keyed(faces, [0.0, 2.0], [cube, cube], [translated((0.0, 0.0, 0.8)), translated((0.0, 0.0, 0.1))])
    for a, b in ((spike, above), (sheet, falling)):
        checker = SampleChecker()
        statuses = set()
        for time in np.linspace(0.0, 2.0, 41):
            fresh = core.collide(a.mesh(time), b.mesh(time), depth_interval=False)
            _agree(fresh, checker.check(a.mesh(time), b.mesh(time)), fresh.scale)
            statuses.add(fresh.status)
        assert core.Status.SEPARATED in statuses and core.Status.INTERSECTING in statuses


def test_a_hierarchy_is_built_afresh_once_its_vertices_moved_far():
    t = uv_sphere_triangles(16, 8)
    d = uv_sphere(16, 8)
    checker = SampleChecker()
    steps = 40
    for k in range(steps):  # the dented sphere grows by 1% of its size per sample; B only moves
        a = core.TriangleMesh(_dented(d, 1.0 + 0.01 * k * math.sqrt(3.0)), t)
        checker.check(a, core.TriangleMesh(d, t, translated((0.5 + 0.01 * k, 0.0, 2.5 + 0.03 * k))))
    # A: refitted while no vertex moved more than GROW x its size since its last build, then built afresh;
    # B: built once, then refitted every time
    assert 2 <= checker.builds - 1 <= steps * 0.01 / GROW + 2
    assert checker.refits == 2 * steps - checker.builds


@pytest.mark.parametrize("kind", ["jitter 1e-3", "bulge 0.3", "bench shapes"])
def test_grown_boxes_hold_the_new_triangles(kind):
    """Every box of a refitted hierarchy holds every corner of the triangles under it (along its three axes)."""
    t, frames = _sequence(kind, np.random.default_rng(3), count=4)
    built = LocalBVH(frames[0][0], t)
    refit = Refit(built, frames[0][0])
    for a, _, _ in frames[1:]:
        grown, moved = refit.grown(a)
        assert moved > 0.0
        m = t.shape[0]
        corners = a[grown.leaf_triangles].reshape(m, 3, 3)
        for level in range(grown.levels):
            span = 2 ** level
            for node in range(grown.sizes[level]):
                flat = grown.offsets[level] + node
                points = corners[node * span:(node + 1) * span].reshape(-1, 3) - (grown.centre[flat]
                                                                                   + grown.origin)
                for h in grown.half:
                    length = float(np.linalg.norm(h[flat]))
                    axis = h[flat] / length
                    assert np.all(np.abs(points @ axis) <= length * (1.0 + 1e-12))


def test_the_witness_of_non_convexity_agrees_with_the_full_test():
    """Every frame the kept edges call not convex, the exact test calls not convex; a frame made convex again
    (the bump flattened) is left to the full test."""
    d, t = uv_sphere(24, 12), uv_sphere_triangles(24, 12)
    rng = np.random.default_rng(9)
    first = core.TriangleMesh(bulge(d, [0.0, 0.0, 1.0], 0.3), t)
    assert not is_convex(first)
    witness = NotConvex.find(first._local)
    assert witness is not None
    told = 0
    for height in list(rng.uniform(0.0, 0.4, 12)) + [1e-9, 0.0]:
        mesh = core.TriangleMesh(bulge(d, rng.normal(scale=0.1, size=3) + [0.0, 0.0, 1.0], height), t)
        holds = witness.holds(mesh._local)
        fresh = is_convex(core.TriangleMesh(mesh.vertices.copy(), t))
        assert not (holds and fresh)
        told += holds
    assert told > 0 and not witness.holds(core.TriangleMesh(d, t)._local) and is_convex(core.TriangleMesh(d, t))


def test_other_triangles_are_not_refitted():
    """A mesh whose triangles differ from its side's previous sample (a modifier that changes the topology)
    gets its own hierarchy."""
    d, t = uv_sphere(16, 8), uv_sphere_triangles(16, 8)
    checker = SampleChecker()
    b = core.TriangleMesh(d, t, translated((0.0, 0.0, 2.5)))
    checker.check(core.TriangleMesh(_dented(d), t), b)
    flipped = core.TriangleMesh(_dented(d), t[:, [0, 2, 1]])
    fresh = core.collide(flipped, b, depth_interval=False)
    _agree(fresh, checker.check(flipped, core.TriangleMesh(d, t, translated((0.0, 0.0, 2.5)))), fresh.scale)
    assert checker.refits == 1  # B only


def test_an_intersecting_sample_of_non_convex_meshes_skips_only_the_upper_end():
    t, frames = _sequence("bulge 0.3", np.random.default_rng(5), count=16)
    seen = 0
    for a, b, pose in frames:
        fresh = core.collide(core.TriangleMesh(a, t), core.TriangleMesh(b, t, pose), depth_interval=False)
        sampled = sample_meshes(core.TriangleMesh(a, t), core.TriangleMesh(b, t, pose))
        _agree(fresh, sampled, fresh.scale)
        if fresh.status is core.Status.INTERSECTING:
            seen += 1
            assert sampled.gap == math.inf and not sampled.converged and not np.any(sampled.separation)
            assert fresh.gap >= 0.0 and np.any(fresh.separation)
            assert np.array_equal(sampled.point_a, fresh.point_a) and np.array_equal(sampled.normal, fresh.normal)
    assert seen


def test_bad_arguments_are_refused():
    d, t = uv_sphere(8, 4), uv_sphere_triangles(8, 4)
    with pytest.raises(ValueError):
        sample_meshes(core.TriangleMesh(d, t), d)
    with pytest.raises(ValueError):
        SampleChecker(tolerances=1e-9)


def test_a_flattened_triangle_witnesses_nothing():
    """The exact test sets flat triangles aside, so an edge of a triangle made flat (its third corner a hair off
    the middle of the edge, its plane then turned towards the neighbour's far corner) is no witness, however far
    that corner stands in front of the plane."""
    d, t = uv_sphere(24, 12), uv_sphere_triangles(24, 12)
    bumped = bulge(d, [0.0, 0.0, 1.0], 0.3)
    mesh = core.TriangleMesh(bumped, t)
    witness = NotConvex.find(mesh._local)
    row = int(witness.rows[0])
    a, b, c = t[row // 3]
    assert NotConvex(witness.rows[:1]).holds(mesh._local)
    twin = mesh._local.topology.raw_pairing[3][row]
    far = bumped[t.reshape(-1)[twin - twin % 3 + (twin + 2) % 3]]
    # the witness row is the edge from corner row % 3 to the next one of its triangle
    first, second, third = [(a, b, c), (b, c, a), (c, a, b)][row % 3]
    edge = bumped[second] - bumped[first]
    offset = (far - bumped[first]) - edge * ((far - bumped[first]) @ edge) / (edge @ edge)
    turn = np.cross(offset, edge)
    for sign in (1.0, -1.0):  # whichever way the mesh turns, one of them faces the far corner
        flattened = bumped.copy()
        flattened[third] = (0.5 * (bumped[first] + bumped[second])
                            + sign * 1e-10 * np.linalg.norm(edge) * turn / np.linalg.norm(turn))
        assert not NotConvex(witness.rows[:1]).holds(core.TriangleMesh(flattened, t)._local)
