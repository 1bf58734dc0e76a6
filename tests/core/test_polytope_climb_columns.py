"""Issue 7: the climbs of core/supports.py's `Supports` on the column layout of the neighbour table.

A climb step gathers its rows' neighbour points as (rows, 3, width) and takes their dot products with one
`einsum` (`_values`); the start's value is `row_dot`'s (x dx + y dy) + z dz.  The two must round alike, or a row whose
padding (the vertex itself) comes out an ulp higher than its own start value moves "to itself" and is climbed
again.  Judged against supports over every vertex computed here, in that column formula, with no engine code:
- `_values` gives the column formula's bits, on seeded points of mixed sizes and signs;
- a climb started at each direction's support over every vertex (the first largest) moves no row: the same
  vertex, the same value bit for bit (on the padded table, on the wide vertices' table, and pair by pair);
- climbs from the start table, and from seeded vertices where every vertex is a corner of the hull, reach the
  support: within a few ulps of the largest value
  over every vertex (the folds' slack below it on the float32 UV Sphere), each value its vertex's own value (bit
  for bit but for rows that finish with a product over every vertex).
Shapes: qhull's hulls (ico sphere, a cone with a wide apex, a cylinder with fan caps: a hub of hundreds of
neighbours), a subdivided cube (flat faces, exact ties along the axes and diagonals), Blender's float32 UV Sphere
(folded quads, poles), a sphere far from the origin and a tiny one (object transforms).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import core.rows as rows_mod
import core.supports as supports_mod
import core.triangulation as triangulation_mod
from core.polytope import ConvexPolytope
from tests.core.duplicates import blender_uv_sphere, cone, cylinder, icosphere, rotation, subdivided_cube


def _hull(points: np.ndarray, transform=None) -> ConvexPolytope:
    hull = ConvexHull(points)
    return ConvexPolytope(points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices), transform)


def _pose(offset: float, scale: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = scale * rotation(0.7, [1.0, 2.0, 3.0])
    m[:3, 3] = offset * np.array([1.0, -0.6, 0.3])
    return m


SHAPES = {
    "ico sphere s3": lambda: _hull(icosphere(3)),
    "cone 256 (apex of degree 256)": lambda: _hull(cone(256)),
    "cylinder 400 (qhull fan caps)": lambda: _hull(cylinder(400)),
    "subdivided cube 12 (flat faces)": lambda: ConvexPolytope(*subdivided_cube(12)),
    "float32 uv sphere 64x32": lambda: ConvexPolytope(*blender_uv_sphere(64, 32)),
    "ico sphere s3 at 1e6": lambda: _hull(icosphere(3), _pose(1e6, 1.0)),
    "ico sphere s3 of size 1e-6": lambda: _hull(icosphere(3), _pose(3e-6, 1e-6)),
}


# The shapes with vertices of more neighbours than the padded table holds: the pair-by-pair path has rows there.
WIDE = ["cone 256 (apex of degree 256)", "cylinder 400 (qhull fan caps)", "float32 uv sphere 64x32"]
CASES = [(name, "tables") for name in SHAPES] + [(name, "pair by pair") for name in WIDE]


def _columns_dot(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """(x dx + y dy) + z dz for every (point, direction): (directions, points)."""
    return (np.outer(d[:, 0], p[:, 0]) + np.outer(d[:, 1], p[:, 1])) + np.outer(d[:, 2], p[:, 2])


def _directions(rng, count: int) -> np.ndarray:
    """Seeded unit directions, with the axes and the face and corner diagonals among them (exact ties on flat
    faces), some of them scaled (the climbs take any nonzero direction)."""
    special = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 1], [1, -1, 0]]
    special = np.array(special + [[-c for c in s] for s in special], dtype=float)
    d = rng.normal(size=(count, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    d[: count // 8] *= rng.uniform(1e-3, 1e3, size=(count // 8, 1))
    return np.vstack([special, d])


def _supports(name: str, monkeypatch, wide: str):
    monkeypatch.setattr(supports_mod, "_BRUTE_FORCE", 0)  # climb even where a product over every vertex is cheap
    monkeypatch.setattr(supports_mod, "_BRUTE_FORCE_STARTED", 0)
    poly = SHAPES[name]()
    hull = poly._triangulation()
    graph = hull.graph
    if wide == "pair by pair":
        assert graph.wide.any(), "no wide vertex: the pair-by-pair path would not run"
        monkeypatch.setattr(graph, "wide_table", None)
    assert np.any(graph.table == np.arange(graph.table.shape[0])[:, None]), "no padded row: nothing to test"
    return supports_mod.Supports(poly, hull)


def test_values_are_the_column_formula():
    rng = np.random.default_rng(7301)
    for width in (1, 2, 3, 6, 9, 11, 16, 257):
        rows = 2000
        scale = 10.0 ** rng.integers(-8, 9, size=(rows, 3, 1))
        points = np.ascontiguousarray(rng.normal(size=(rows, 3, width)) * scale + rng.choice([0.0, 1e6], (rows, 1, 1)))
        d = rng.normal(size=(rows, 3)) * 10.0 ** rng.integers(-3, 4, size=(rows, 1))
        expect = (points[:, 0] * d[:, 0, None] + points[:, 1] * d[:, 1, None]) + points[:, 2] * d[:, 2, None]
        got = supports_mod._values(points, d)
        assert got.shape == (rows, width)
        assert np.array_equal(got, expect), int(np.sum(got != expect))
        # and `row_dot`, the start values' formula, on one column
        assert np.array_equal(rows_mod.row_dot(points[:, :, 0], d), expect[:, 0])


@pytest.mark.parametrize("name, wide", CASES)
def test_a_climb_from_the_support_moves_no_row(name, wide, monkeypatch):
    sup = _supports(name, monkeypatch, wide)
    moved = []
    step, table_step = supports_mod.Supports._step, supports_mod.Supports._table_step

    def spy_step(self, rows, cand, directions, current, value, out, *rest):
        before = len(out)
        step(self, rows, cand, directions, current, value, out, *rest)
        moved.extend(r.size for r in out[before:])

    def spy_table(self, rows, directions, current, value, out):
        before = len(out)
        table_step(self, rows, directions, current, value, out)
        moved.extend(r.size for r in out[before:])
    monkeypatch.setattr(supports_mod.Supports, "_step", spy_step)
    monkeypatch.setattr(supports_mod.Supports, "_table_step", spy_table)
    d = _directions(np.random.default_rng(7302), 3000)
    every = _columns_dot(sup.points, d)
    top = every.argmax(axis=1)
    index, value = sup(d, top)
    assert np.array_equal(index, top)
    assert np.array_equal(value, every[np.arange(d.shape[0]), top])
    assert sum(moved) == 0


@pytest.mark.parametrize("name, wide", CASES)
def test_climbs_reach_the_support(name, wide, monkeypatch):
    sup = _supports(name, monkeypatch, wide)
    rng = np.random.default_rng(7303)
    d = _directions(rng, 3000)
    every = _columns_dot(sup.points, d)
    best = every.max(axis=1)
    lo, hi = sup.points.min(axis=0), sup.points.max(axis=0)
    size = float(np.linalg.norm(hi - lo))
    reach = float(np.abs(sup.points).max()) * np.linalg.norm(d, axis=1)
    # folds left in the float32 UV Sphere's faces after the flips (core/triangulation.py's `_HULL_SLACK`)
    slack = triangulation_mod._HULL_SLACK * size if name.startswith("float32") else 0.0
    ulps = 8.0 * np.finfo(float).eps * reach
    starts = [None]
    if ConvexHull(sup.points).vertices.size == sup.points.shape[0]:
        # from any vertex only when every vertex is a corner of the hull: a climb that starts inside a flat face
        # facing away from its direction (the subdivided cube's faces) has only equal neighbours and stays there
        starts.append(rng.integers(0, sup.points.shape[0], size=d.shape[0]))
    for start in starts:
        index, value = sup(d, start)
        # the value of the vertex reached: bit for bit, but for rows that climbed past `_CLIMB_STEPS` (round a
        # many-sided rim) and took the support over every vertex (a matrix product, rounded another way)
        own = every[np.arange(d.shape[0]), index]
        assert np.all(np.abs(value - own) <= ulps)
        assert np.mean(value == own) > 0.9
        assert np.all(value <= best + ulps)
        assert np.all(best - value <= slack * np.linalg.norm(d, axis=1) + ulps), float(((best - value) / reach).max())
