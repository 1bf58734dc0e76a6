"""A pair of 1,000,000-vertex objects is checked right through the operator (huge meshes are ordinary input).
Marked slow; deselect with -m "not slow".  How long it takes is a benchmark row (bench/bpy_check.py, `make bench`),
not an assertion here: a shared 2-core machine under load says nothing about the code.

The vertices are random points on spheres, so every vertex is on the convex hull (the hard case for a support
mapping: nothing can be skipped).  The expected distance is analytic up to the sampling (points lie on the
sphere, so the hulls are inscribed and the distance can only be larger than for the true spheres).
"""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import select_pair

N = 1_000_000


def sphere_cloud(name, n, radius, centre, seed):
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(n, 3))
    points *= radius / np.linalg.norm(points, axis=1, keepdims=True)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(n)
    mesh.vertices.foreach_set("co", points.astype(np.float32).ravel())
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    obj.location = centre
    bpy.context.scene.collection.objects.link(obj)
    return obj


@pytest.mark.parametrize("gap", [0.5, -0.4])
def test_million_vertex_pair(addon_modules, gap):
    a = sphere_cloud("CloudA", N, 1.0, (0.0, 0.0, 0.0), seed=1)
    b = sphere_cloud("CloudB", N, 1.0, (2.0 + gap, 0.3, -0.2), seed=2)
    select_pair(a, b)
    bpy.context.view_layer.update()
    bpy.context.scene.collision_inspector.mode = "HULL"
    assert bpy.ops.collision.check() == {"FINISHED"}
    record = addon_modules.store.active_record()
    assert record.vertex_count_a == record.vertex_count_b == N
    centre_distance = float(np.linalg.norm(np.float32([2.0 + gap, 0.3, -0.2]).astype(float)))
    true_gap = centre_distance - 2.0
    contact = record.contact
    assert contact.distance >= true_gap - 1e-9
    assert contact.distance == pytest.approx(true_gap, abs=0.02)
