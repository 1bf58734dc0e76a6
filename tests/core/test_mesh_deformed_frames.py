"""The frames of a deforming mesh (new vertices on the same triangles, a fresh `TriangleMesh` each) are checked
with the work that depends on the triangles alone shared between them (core/mesh/trimesh.py `_Topology`: the
referenced vertices, closedness, the pairing of edges), and a plainly non-convex frame is told not nearly convex
from a sample of its planes (core/mesh/inner.py `_clearly_beyond`).  Neither may change an answer: every field of
the Contact is the same, bit for bit, as the one of a check that shares nothing and runs the nearly-convex proof's
full passes, on seeded deformations (vertex jitter, bulges, the shapes of bench/deform.py, far from the origin).

Issue 22: the sweep over deforming meshes checks a fresh pair of 20k-triangle meshes at every sample.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from core.mesh import inner, trimesh
from tests.core.deform_cases import bulge, deformed_pair
from tests.core.duplicates import blender_uv_sphere, uv_sphere, uv_sphere_triangles


def _same(c1, c2):
    assert c1.status is c2.status
    assert c1.containment == c2.containment
    for name in ("distance", "gap", "depth", "normal", "point_a", "point_b", "intersection"):
        assert np.array_equal(np.asarray(getattr(c1, name)), np.asarray(getattr(c2, name))), name
    assert (c1.converged, c1.iteration_cap_hit, c1.fallback_used) == (c2.converged, c2.iteration_cap_hit,
                                                                       c2.fallback_used)


def _alone(monkeypatch, check):
    """`check()` with nothing shared between meshes and the proof's full passes (the reference)."""
    with monkeypatch.context() as m:
        m.setattr(trimesh, "_topology", lambda triangles: trimesh._Topology(triangles))
        m.setattr(inner, "_clearly_beyond", lambda *args: False)
        return check()


def _frames(kind: str, rng):
    """(triangles, [(vertices_a, vertices_b, transform_b)]) of a few seeded frames of one deformation."""
    if kind == "bench shapes":  # bench/deform.py at a lower resolution: a breathing sphere with a travelling bump
        d = uv_sphere(40, 20)
        t = uv_sphere_triangles(40, 20)
        frames = []
        for frame in rng.uniform(0.0, 250.0, 4):
            axis = [math.sin(frame / 20.0), 0.0, math.cos(frame / 20.0)]
            a = bulge(d, axis, 0.15) * (1.0 + 0.05 * math.sin(frame / 9.0))
            b = d * (1.0 + 0.05 * math.cos(frame / 7.0))
            pose = np.eye(4)
            pose[:3, 3] = (rng.uniform(-1.0, 1.0), 0.0, rng.uniform(1.9, 2.3))
            frames.append((a, b, pose))
        return t, frames
    v, t = blender_uv_sphere(32, 16)
    v = np.asarray(v, np.float64)
    frames = []
    for _ in range(4):
        a, b = deformed_pair(kind, v, rng)
        pose = np.eye(4)
        pose[:3, 3] = rng.normal(size=3) * rng.choice([0.5, 1.0, 1.9, 3.0])
        frames.append((a, b, pose))
    return t, frames


KINDS = ["jitter 1e-9", "jitter 1e-6", "jitter 1e-3", "bulge 1e-6", "bulge 0.02", "bulge 0.3", "bench shapes"]


@pytest.mark.parametrize("far", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_frames_answer_as_a_fresh_check(kind, far, monkeypatch):
    rng = np.random.default_rng(100 * KINDS.index(kind) + 22 * far)
    t, frames = _frames(kind, rng)
    offset = np.array([3e4, -2e4, 1e4]) if far else np.zeros(3)
    # the depth interval (core/mesh/depth_interval.py) runs after everything shared between frames; one kind
    # narrows it (near and far), the others compare the loose interval and skip its cost
    narrow = kind == "bulge 0.02"
    for a, b, pose in frames:
        a, b = a + offset, b + offset  # far from the origin in local coordinates, brought near by the transforms
        place_a = np.eye(4)
        place_a[:3, 3] = -offset
        place_b = pose.copy()
        place_b[:3, 3] -= offset
        shared = core.collide(core.TriangleMesh(a, t, place_a), core.TriangleMesh(b, t, place_b),
                              depth_interval=narrow)
        alone = _alone(monkeypatch, lambda: core.collide(core.TriangleMesh(a, t, place_a),
                                                         core.TriangleMesh(b, t, place_b), depth_interval=narrow))
        _same(shared, alone)


def test_frames_share_their_topology():
    v, t = blender_uv_sphere(16, 8)
    first = core.TriangleMesh(v, t)
    later = core.TriangleMesh(np.asarray(v, np.float64) * 1.5, t.copy())
    other = core.TriangleMesh(v, t[:, [0, 2, 1]])
    assert first._local.topology is later._local.topology
    assert other._local.topology is not first._local.topology
    assert not later._local.topology.raw_pairing[3].flags.writeable


def test_the_shared_topologies_are_few(monkeypatch):
    monkeypatch.setattr(trimesh, "_TOPOLOGIES", type(trimesh._TOPOLOGIES)())
    v, t = blender_uv_sphere(16, 8)
    for shift in range(12):  # twelve different triangle sets: only the newest eight stay
        core.TriangleMesh(v, np.roll(t, shift, axis=1) if shift < 3 else t[shift:])
    assert len(trimesh._TOPOLOGIES) == trimesh._KEEP
    monkeypatch.setattr(trimesh, "_KEEP_TRIANGLES", 10)  # past the triangle budget only the newest one stays
    core.TriangleMesh(v, t[:-1])
    assert len(trimesh._TOPOLOGIES) == 1


@pytest.mark.parametrize("kind", ["jitter 1e-9", "jitter 1e-3", "bulge 1e-6", "bulge 0.02", "bench shapes"])
def test_the_sample_decides_only_what_the_full_passes_decide(kind, monkeypatch):
    rng = np.random.default_rng(7)
    t, frames = _frames(kind, rng)
    decided = []
    original = inner._clearly_beyond

    def spy(*args):
        decided.append(original(*args))
        return decided[-1]

    monkeypatch.setattr(inner, "_clearly_beyond", spy)
    for a, b, _ in frames:
        for v in (a, b):
            fast = inner.inner_body(core.TriangleMesh(v, t)._local)
            full = _alone(monkeypatch, lambda: inner.inner_body(core.TriangleMesh(v, t)._local))
            assert (fast is None) == (full is None)
            if fast is not None:
                assert fast.shrink == full.shrink and np.array_equal(fast.centre, full.centre)
    if kind in ("bulge 0.02", "bench shapes"):
        assert any(decided)  # plainly non-convex frames are decided by the sample
    if kind in ("jitter 1e-9", "bulge 1e-6"):
        assert not any(decided)  # nearly convex ones never are
