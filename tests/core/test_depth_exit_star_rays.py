"""core/mesh/depth_exit.py's bound on a noisy star held inside another never passes the first exits a ray cast finds.

For any direction u, a move t u of B separates the solids only if every point of B inside A has left A, so t is at
least the longest first exit along u over B's points (and over A's points inside B along -u).  The bound is a
least over directions of such exits for the points it uses (the inner mesh's vertices and points of the faces
around them), so it can be no larger than the longest first exit over those points along any one direction.  The
oracle casts the rays itself (Moller-Trumbore against every triangle of the outer mesh) from the inner mesh's
vertices and a grid of points on each of its faces, along 300 spread directions, and takes the least over them of
the longest exit.  The screen that skips triangles out of a cell's reach, the cones' relaxation and the face
points must all keep the bound below it; and the bound must come within 10 % of it (it is not vacuous).  Both
orders of the pair (the inner star is B or A).  The same per point and direction, sharper: for 200 small cells
(first cells split three times), each point's bound over the cell is at most its cast exit along the cell's axis,
where a screen that skipped a triangle the ray meets would overshoot."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core import sphere_cells
from core.mesh.depth_exit import REFINE_GRID, ROOT_LEVEL, _caps, _Rays, exit_bound
from core.mesh.pair_frame import Frame

from .depth_oracle import fibonacci_sphere
from .mesh_corpus import star
from .meshes import mesh


def _first_exits(x, u, corners):
    """The distance along unit u from each point of x to the first triangle it meets (inf if none)."""
    e1, e2 = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
    p = np.cross(u, e2)
    det = np.einsum("tj,tj->t", e1, p)
    ok = np.abs(det) > 1e-300
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    out = np.full(x.shape[0], np.inf)
    tv = x[:, None, :] - corners[None, :, 0]
    bu = np.einsum("ptj,tj->pt", tv, p) * inv
    q = np.cross(tv, e1[None])
    bv = (q @ u) * inv
    t = np.einsum("ptj,tj->pt", q, e2) * inv
    hit = ok & (bu >= 0.0) & (bv >= 0.0) & (bu + bv <= 1.0) & (t > 0.0)
    out[:] = np.where(hit, t, np.inf).min(axis=1)
    return out


def _surface_points(v, tri, steps):
    w = np.array([(steps - i - j, i, j) for i in range(steps + 1) for j in range(steps + 1 - i)], float) / steps
    return np.concatenate([v[np.unique(tri)], np.einsum("wk,fkj->fwj", w, v[tri]).reshape(-1, 3)])


def _frame(inner_is_b):
    rng = np.random.default_rng(1905)
    outer = star(rng, 1.0, 0.2, n=16, rings=8)
    inner = star(rng, 0.3, 0.2, n=12, rings=6)
    outer_m = mesh(outer[:2])
    inner_m = mesh((inner[0] + [0.05, -0.04, 0.03], inner[1]))
    pair = (outer_m, inner_m) if inner_is_b else (inner_m, outer_m)
    return Frame(*pair, core.DEFAULT_TOLERANCES)


@pytest.mark.parametrize("inner_is_b", [True, False])
def test_bound_stays_below_the_cast_rays(inner_is_b):
    frame = _frame(inner_is_b)
    sa, sb = frame.sa, frame.sb
    inner, outer, sign = (sb, sa, 1.0) if inner_is_b else (sa, sb, -1.0)
    x = _surface_points(inner.vertices, inner.local.triangles, REFINE_GRID)
    corners = outer.vertices[outer.local.triangles]
    longest = np.array([_first_exits(x, sign * u, corners).max() for u in fibonacci_sphere(300)])
    assert np.all(np.isfinite(longest))      # every point is inside the outer star
    oracle = float(longest.min())
    found = exit_bound(sa, sb, frame.scale, 0.0, 2.0 * oracle)
    assert found is not None
    assert found[0] <= oracle * (1.0 + 1e-9)
    assert found[0] >= 0.9 * oracle


@pytest.mark.parametrize("inner_is_b", [True, False])
def test_each_point_stays_below_its_cast_ray(inner_is_b):
    frame = _frame(inner_is_b)
    sa, sb = frame.sa, frame.sb
    inner, outer, sign = (sb, sa, 1.0) if inner_is_b else (sa, sb, -1.0)
    rays = _Rays(inner, outer, frame.scale, 2.0, 10 ** 7)
    rays.sign = sign
    roots = sphere_cells.cells(ROOT_LEVEL)
    rays.screen(roots)
    cells, first = roots, np.arange(roots.shape[0])
    for _ in range(3):   # split lists the four children of every cell in four blocks
        cells, first = sphere_cells.split(cells), np.tile(first, 4)
    pick = np.random.default_rng(7).choice(cells.shape[0], 200, replace=False)
    a, s, c = _caps(cells[pick])
    bounds, _ = rays.exits(np.arange(rays.count), sign * a, s, c, first[pick], 0.0)
    corners = outer.vertices[outer.local.triangles]
    cast = np.array([_first_exits(rays.x, sign * u, corners) for u in a])     # (cells, points)
    assert np.all(np.isfinite(cast))
    assert np.all(bounds <= cast * (1.0 + 1e-9))
    assert np.median(bounds / cast) > 0.5
