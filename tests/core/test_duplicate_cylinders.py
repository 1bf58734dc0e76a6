"""Regression (issue 21): a many-sided cylinder against its copy in place, the copy listing its vertices (and
triangles) in another order, or scaled by 1.001 about its centre, or both.  Such a copy was not recognised as
one (its vertex i is not the original's vertex i), so EPA expanded 256 times before the facet path, 2-4 ms each
on a cylinder whose caps it fans again and again, and a raw copy built its own hull; and the mesh route sent a
reordered mesh copy through the general crossing descent, every sliver of one fanned cap against every sliver of
the other.  The answer was right, only slow; it must stay exact.

Oracle (no engine code): for a copy B = c + s (A - c) of a convex A that is centrally symmetric up to rounding
(a regular prism), M = A - B is (1 + s) A up to rounding, whose facet normals are A's.  So the depth is the
minimum over A's facet normals (the side faces' normals from consecutive rim vertices, and +-z) of
h_A(u) + h_B(-u), each evaluated over every vertex with numpy; it is also the closed form (1 + s) cos(pi / n) (the
polygon's inradius; the half height 1 is larger).  Asserted to 1e-12 x scale, far below the suite's 1e-9.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import core
from core.large_pairs import LARGE_PAIRS
from core.mesh import copies as mesh_copies
from core.mesh.pair_frame import Frame
from tests.core.duplicates import cylinder, fan_caps, near_copy

EXACT = 1e-12


def oracle_depth(a: np.ndarray, b: np.ndarray, sides: int) -> float:
    """min over A's facet normals of h_A(u) + h_B(-u), over every vertex (see the module docstring)."""
    rim = a[:sides]
    edge = np.roll(rim, -1, axis=0) - rim
    normals = np.cross(edge, [0.0, 0.0, 1.0])
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    normals = np.vstack([normals, [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]])
    return float(((normals @ a.T).max(axis=1) + (-(normals @ b.T)).max(axis=1)).min())


def copy_of(a: np.ndarray, relation: str, seed: int):
    """(the copy, the shuffle applied: copy row k is the plain copy's row shuffle[k]), and the copy's scale."""
    rng = np.random.default_rng([21, seed, len(relation)])
    scale = 1.001 if "scaled" in relation else 1.0
    plain = near_copy(a, rng, scale=scale) if scale != 1.0 else a.copy()
    shuffle = rng.permutation(len(a)) if "shuffled" in relation else np.arange(len(a))
    return plain[shuffle], shuffle, scale


RELATIONS = ["identical", "shuffled", "scaled 1.001", "scaled 1.001 and shuffled"]


@pytest.mark.parametrize("relation", RELATIONS)
@pytest.mark.parametrize("sides", [256, 1024])
def test_the_oracle_is_the_closed_form(sides, relation):
    a = cylinder(sides)
    b, _, s = copy_of(a, relation, sides)
    assert abs(oracle_depth(a, b, sides) - (1.0 + s) * math.cos(math.pi / sides)) <= EXACT


@pytest.mark.parametrize("given", ["raw vertices", "fanned caps", "fanned caps, copy's own triangles"])
@pytest.mark.parametrize("relation", RELATIONS)
@pytest.mark.parametrize("sides", [256, 1024])
def test_cylinder_copies_are_exact(sides, relation, given):
    a = cylinder(sides)
    b, shuffle, _ = copy_of(a, relation, sides)
    if given == "raw vertices":
        shape_a, shape_b = a, b
    else:
        tris = fan_caps(sides)
        label = np.argsort(shuffle)  # the plain copy's vertex i is b's vertex label[i]
        tris_b = label[tris]
        if given == "fanned caps, copy's own triangles":
            tris_b = tris_b[np.random.default_rng(sides).permutation(len(tris_b))][:, [1, 2, 0]]
        shape_a, shape_b = core.ConvexPolytope(a, tris), core.ConvexPolytope(b, tris_b)
    contact = core.collide(shape_a, shape_b)
    assert contact.status is core.Status.INTERSECTING
    assert contact.converged and contact.epa_outcome is core.EPAOutcome.CONVERGED
    assert abs(-contact.distance - oracle_depth(a, b, sides)) <= EXACT * contact.scale
    n = contact.normal
    assert float((b @ n).min() - (a @ n).max()) >= contact.distance - EXACT * contact.scale


@pytest.mark.parametrize("relation", RELATIONS)
def test_a_reordered_copy_is_a_copy_for_the_policy(relation):
    """The 1,024-sided copies are near copies whatever their order, so EPA hands them to the facet path after
    `near_copy_after` expansions instead of `batch_after`."""
    a = cylinder(1024)
    b, _, _ = copy_of(a, relation, 1024)
    pa, pb = core.PointCloud(a), core.PointCloud(b)
    assert LARGE_PAIRS.near_copies(pa, pb, 2.0 * math.sqrt(2.0))
    assert LARGE_PAIRS.first_try(pa, pb, 2.0 * math.sqrt(2.0)) == LARGE_PAIRS.near_copy_after
    assert core.collide(a, b).epa_iterations <= LARGE_PAIRS.near_copy_after + 64
    far = b + np.array([0.1, 0.0, 0.0])  # 3.5e-2 x scale away: not a copy in place
    assert not LARGE_PAIRS.near_copies(pa, core.PointCloud(far), 2.0 * math.sqrt(2.0))


@pytest.mark.parametrize("relation", RELATIONS)
@pytest.mark.parametrize("sides", [256, 1024])
def test_mesh_copies_answer_as_in_the_same_order(sides, relation):
    """Through the mesh route: the reordered copy (vertices and triangles) gets the same answer as the copy in
    the original order (which core/mesh/copies.py certifies without a descent), and the exact depth."""
    a = cylinder(sides)
    tris = fan_caps(sides)
    b, shuffle, _ = copy_of(a, relation, sides)
    label = np.argsort(shuffle)
    mesh_a, mesh_b = core.TriangleMesh(a, tris), core.TriangleMesh(b, label[tris][::-1])
    assert mesh_copies.cannot_cross(Frame(mesh_a, mesh_b, core.DEFAULT_TOLERANCES))  # no descent
    in_order = core.collide(core.TriangleMesh(a, tris), core.TriangleMesh(b[label], tris))
    reordered = core.collide(mesh_a, mesh_b)
    assert reordered.status is in_order.status is core.Status.INTERSECTING
    assert reordered.containment == in_order.containment
    assert reordered.containment == (core.Containment.A_INSIDE_B if "scaled" in relation else None)
    assert reordered.intersection.shape[0] == in_order.intersection.shape[0] == 0
    assert abs(-reordered.distance - oracle_depth(a, b, sides)) <= EXACT * reordered.scale
