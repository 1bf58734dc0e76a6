"""Inside/outside by ray crossings agrees with the generalised winding number summed from solid angles
(Van Oosterom and Strackee's formula, computed here independently of the engine), on closed meshes with a
cavity, a hole and flipped orientation, including points on grid lines through vertices and edges."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh.pair_frame import Side
from core.mesh.points import winding_numbers
from tests.core.meshes import box, crate, flipped, l_shape, torus


def solid_angle_winding(points, vertices, triangles):
    a = vertices[triangles[:, 0]][None] - points[:, None]
    b = vertices[triangles[:, 1]][None] - points[:, None]
    c = vertices[triangles[:, 2]][None] - points[:, None]
    la, lb, lc = (np.linalg.norm(x, axis=2) for x in (a, b, c))
    det = np.einsum("pij,pij->pi", a, np.cross(b, c))
    den = (la * lb * lc + np.einsum("pij,pij->pi", a, b) * lc + np.einsum("pij,pij->pi", b, c) * la
           + np.einsum("pij,pij->pi", c, a) * lb)
    return (2.0 * np.arctan2(det, den)).sum(axis=1) / (4.0 * np.pi)


@pytest.mark.parametrize("name, pair", [("torus", torus(1.0, 0.4, 16, 8)), ("crate", crate()),
                                        ("L", l_shape()), ("flipped L", flipped(l_shape())), ("box", box())])
def test_ray_winding_matches_solid_angles(name, pair):
    rng = np.random.default_rng(len(name))
    v, t = pair
    lo, hi = v.min(axis=0) - 0.3, v.max(axis=0) + 0.3
    random_points = rng.uniform(lo, hi, size=(400, 3))
    grid = np.stack(np.meshgrid(*[np.linspace(lo[i], hi[i], 7) for i in range(3)], indexing="ij"), -1)
    points = np.concatenate([random_points, grid.reshape(-1, 3)])
    m = core.TriangleMesh(v, t)
    side = Side(m, np.zeros(3))
    # points on the surface have no winding number: keep those clearly off it
    off = core.mesh.points.closest_points(points, side.world)[0] > 1e-6
    points = points[off]
    want = np.rint(solid_angle_winding(points, v, t)).astype(int)
    got = winding_numbers(points, side.world, 1.0)
    assert np.array_equal(got, want), f"{np.count_nonzero(got != want)} of {len(points)} differ"


def test_rays_through_vertices_and_edges_are_cast_again():
    v, t = l_shape()
    direction = core.mesh.points._DIRECTIONS[0]
    targets = np.concatenate([v, 0.5 * (v[t[:, 0]] + v[t[:, 1]])])  # every vertex and an edge midpoint per face
    points = np.concatenate([targets - 0.37 * direction, targets - 2.9 * direction])
    side = Side(core.TriangleMesh(v, t), np.zeros(3))
    off = core.mesh.points.closest_points(points, side.world)[0] > 1e-6
    points = points[off]
    want = np.rint(solid_angle_winding(points, v, t)).astype(int)
    assert np.array_equal(winding_numbers(points, side.world, 1.0), want)
