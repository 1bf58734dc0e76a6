"""Nearly convex meshes (issue 7, Exact mode): a float32 mesh of a convex shape and its copy in place get the depth
of their hulls, minus a certified shortfall, instead of the general pipeline's point samples.

Blender's UV Sphere, a cylinder or a subdivided box in float32 fold by ~1e-8 to ~1e-7 of their size where four
corners were coplanar, so the exact convexity test (core/topology.py) rejects them.  core/mesh/inner.py proves a
body c + s (H - c) (H: the hull of the vertices) inside such a mesh; the depth is then the hulls' depth minus each
mesh's shortfall (1 - s) R, with `gap` up to the hulls' depth.  Checked here, independently of the engine:
- the proved body is inside the mesh: its corners by the oracle's winding numbers, and no triangle crosses its
  surface (the oracle's crossing test against scipy's hull of the body); s is never worse than the plain kernel
  certificate a brute force finds (every vertex behind every triangle's own plane);
- the reported depth lies at or below the exact depth of the two proved bodies (tests/core/duplicates.py's exact
  oracle on their corners): a true lower bound, since the bodies are inside the solids; depth + gap reaches the
  exact depth of the hulls (an upper bound: moving B by it separates the hulls); the gap is within 1e-6 x scale
  for the UV Spheres near the origin;
- meshes that are not nearly convex get no body; separated and touching pairs keep the general pipeline's answer.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import inner, is_convex
from tests.core import mesh_oracle as oracle
from tests.core.duplicates import (blender_uv_sphere, exact_depth, float32, hull_triangles, placement, rotation,
                                   subdivided_cube, uv_sphere, uv_sphere_triangles)
from tests.core.meshes import crate, torus

SHAPES = {
    "uv sphere 32x16": lambda: _float64(*blender_uv_sphere(32, 16)),
    "uv sphere 64x32": lambda: _float64(*blender_uv_sphere(64, 32)),
    "subdivided cube 8, turned in float32": lambda: _turned(*subdivided_cube(8), 0.3),
    "uv sphere 48x24 far from the origin": lambda: (float32(uv_sphere(48, 24) * 0.5 + [300.0, -20.0, 7.0]),
                                                    uv_sphere_triangles(48, 24)),
    "tiny uv sphere 32x16": lambda: (float32(uv_sphere(32, 16) * 1e-4), uv_sphere_triangles(32, 16)),
}


def _float64(vertices, triangles):
    return vertices.astype(np.float64), triangles


def _turned(vertices, triangles, angle):
    """The mesh turned in its own coordinates and stored in float32 (Blender's Apply Rotation): flat faces then
    fold a hair either way."""
    return float32(vertices @ rotation(angle, [1.0, 2.0, 0.5]).T), triangles


def _shape(name):
    vertices, triangles = SHAPES[name]()
    return vertices, triangles


def _brute_shrink(vertices, triangles, centre):
    """1 - s* for the best s* = min over triangles of r_t / (r_t + e_t) (see core/mesh/inner.py), over every
    (triangle, vertex) pair, without the engine's chunks and bounds (measured from the centre, like the engine:
    far from the origin the heights keep their precision)."""
    vertices = vertices - centre
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n = n / np.linalg.norm(n, axis=1)[:, None]
    r = np.einsum("ij,ij->i", n, a)
    e = np.maximum((vertices @ n.T - np.einsum("ij,ij->i", n, a)).max(axis=0), 0.0)
    return float(np.max(e / (r + e)))


@pytest.mark.parametrize("name", SHAPES)
def test_the_shapes_are_only_nearly_convex(name):
    """The family is what it claims: closed, rejected by the exact convexity test, folded by a float32 hair
    (Blender's own: 6e-7 x its reach for the default UV Sphere, 8e-7 for a cube under Simple subdivision)."""
    vertices, triangles = _shape(name)
    mesh = core.TriangleMesh(vertices, triangles)
    assert mesh.is_closed and not is_convex(mesh)
    assert 0.0 < _brute_shrink(vertices, triangles, 0.5 * (vertices.min(0) + vertices.max(0))) < inner.NEARLY


@pytest.mark.parametrize("name", SHAPES)
def test_the_proved_body_is_inside_the_mesh(name):
    vertices, triangles = _shape(name)
    body = inner.inner_body(core.TriangleMesh(vertices, triangles)._local)
    assert body is not None
    s = 1.0 - body.shrink
    vertices = vertices - body.centre  # (scipy's hull of points 300 units out is only good to ~1e-13 x 300)
    corners = s * vertices
    # inside: its corners by the oracle's winding numbers, and no triangle of the mesh crosses its surface
    mesh = oracle.soup(vertices, triangles)
    assert np.all(np.round(oracle.winding_number(mesh, corners)) == 1)
    assert oracle.crossings(mesh, oracle.soup(corners, hull_triangles(corners))).shape[0] == 0
    # never worse than the plain kernel certificate (every vertex behind every triangle's own plane)
    assert body.shrink <= _brute_shrink(vertices, triangles, np.zeros(3)) + 1e-12


def test_the_hull_itself_is_not_inside_a_folded_mesh():
    """The check above can fail: the unshrunk hull of a UV Sphere is crossed by its folded-in quads."""
    vertices, triangles = _shape("uv sphere 32x16")
    crossed = oracle.crossings(oracle.soup(vertices, triangles), oracle.soup(vertices, hull_triangles(vertices)))
    assert crossed.shape[0] > 0


POSES = {
    "identical": dict(),
    "turned 1e-4": dict(angle=1e-4),
    "turned 1e-2": dict(angle=1e-2),
    "shifted 1e-6": dict(shift=1e-6),
    "scaled 1.001 around it": dict(scale=1.001),
    "half across": dict(shift=0.3),
}


def _pose(vertices, pose, seed):
    """(4x4 transform, world vertices) of a copy moved as `near_copy` moves it (`placement`)."""
    transform = placement(vertices, np.random.default_rng(seed), **POSES[pose])
    return transform, vertices @ transform[:3, :3].T + transform[:3, 3]


@pytest.mark.parametrize("pose", POSES)
@pytest.mark.parametrize("name", SHAPES)
def test_the_depth_is_certified_by_the_proved_bodies_and_the_hulls(name, pose):
    vertices, triangles = _shape(name)
    transform, world = _pose(vertices, pose, seed=len(name) + len(pose))
    a = core.TriangleMesh(vertices, triangles)
    b = core.TriangleMesh(vertices, triangles, transform)
    contact = core.collide(a, b)
    assert contact.status is core.Status.INTERSECTING
    scale = contact.scale
    centre = vertices.mean(axis=0)
    hulls, _, _ = exact_depth(vertices - centre, world - centre)
    body_a, body_b = inner.inner_body(a._local), inner.inner_body(b._local)
    inner_a = body_a.centre + (1.0 - body_a.shrink) * (vertices - body_a.centre)
    inner_b = (body_b.centre + (1.0 - body_b.shrink) * (vertices - body_b.centre)) @ transform[:3, :3].T
    inner_b += transform[:3, 3]
    bodies, _, _ = exact_depth(inner_a - centre, inner_b - centre)
    depth = -contact.distance
    assert depth <= bodies + 1e-9 * scale, (depth, bodies)  # a lower bound of the solids' depth
    assert depth + contact.gap >= hulls - 1e-9 * scale, (depth, contact.gap, hulls)  # reaches the hulls' depth
    # the interval is no wider than twice the best shortfalls a brute force proves (the margin's slack), and
    # within the 1e-6 x scale for the UV Spheres near the origin
    reach = np.linalg.norm(vertices - body_a.centre, axis=1).max()
    best = _brute_shrink(vertices, triangles, body_a.centre) * reach
    assert contact.gap <= 4.0 * best + 1e-9 * scale, (contact.gap, best)
    if name in ("uv sphere 32x16", "uv sphere 64x32"):
        assert contact.gap <= 1e-6 * scale, contact.gap
    assert np.allclose(np.asarray(contact.point_a) - contact.point_b, depth * np.asarray(contact.normal),
                       atol=1e-12 * scale)
    # the other order: the same depth (the normal of a symmetric pair is one of several equally deep ones)
    assert core.collide(b, a).distance == pytest.approx(contact.distance, abs=1e-12 * scale)


def test_uv_sphere_duplicate_in_place_regression():
    """Blender's default UV Sphere (32 x 16) and its Shift+D copy in Exact mode read a depth of 0.94 m (the
    general pipeline's samples, gap 1.04 m) against the hulls' 1.98 m; now within 1e-7 m of it."""
    vertices, triangles = _shape("uv sphere 32x16")
    contact = core.collide(core.TriangleMesh(vertices, triangles), core.TriangleMesh(vertices, triangles))
    hulls, _, _ = exact_depth(vertices, vertices)
    assert contact.status is core.Status.INTERSECTING and contact.converged
    assert hulls - 1e-6 * contact.scale <= -contact.distance <= hulls
    assert contact.intersection.shape[0] == 0  # coincident surfaces do not cross


def _dented(vertices, triangles, depth):
    """The mesh with its first ring vertex pushed towards the centre by `depth`."""
    v = vertices.copy()
    v[1] *= 1.0 - depth
    return v, triangles


NOT_NEARLY = {
    "torus": lambda: torus(),
    "crate (a cavity)": lambda: crate(),
    "a sphere dented by 1e-3": lambda: _dented(*_shape("uv sphere 32x16"), 1e-3),
    "two spheres in one mesh": lambda: (np.vstack([_shape("uv sphere 32x16")[0], _shape("uv sphere 32x16")[0] + 3]),
                                        np.vstack([_shape("uv sphere 32x16")[1],
                                                   _shape("uv sphere 32x16")[1] + len(_shape("uv sphere 32x16")[0])])),
    "an open sphere": lambda: (_shape("uv sphere 32x16")[0], _shape("uv sphere 32x16")[1][1:]),
}


@pytest.mark.parametrize("name", NOT_NEARLY)
def test_meshes_that_are_not_nearly_convex_get_no_body(name):
    vertices, triangles = NOT_NEARLY[name]()
    assert inner.inner_body(core.TriangleMesh(vertices, triangles)._local) is None


@pytest.mark.parametrize("offset, status", [(2.0 + 1e-3, core.Status.SEPARATED), (2.0, core.Status.TOUCHING)])
def test_separated_and_touching_copies_keep_the_exact_distance(offset, status):
    """Poles apart or pole on pole: the hulls do not overlap, so the general pipeline answers, exactly."""
    vertices, triangles = _shape("uv sphere 32x16")
    transform = np.eye(4)
    transform[2, 3] = offset
    contact = core.collide(core.TriangleMesh(vertices, triangles), core.TriangleMesh(vertices, triangles, transform))
    truth = oracle.mesh_distance(oracle.soup(vertices, triangles), oracle.soup(vertices, triangles, transform))
    assert contact.status is status
    assert abs(contact.distance - truth.distance) <= 1e-9 * contact.scale
