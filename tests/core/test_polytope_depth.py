"""Issue 7: the facet-normal depth of two convex polytopes with known hull triangulations is exact.

`core.facet_depth.facet_depth` takes the minimum of h_A(u) + h_B(-u) over the facet normals of M = A - B that it finds
by climbing supports and walking Gauss arcs; EPA hands large pairs of `ConvexPolytope`s to it.  Judged against the
independent oracle of tests/core/duplicates.py (`exact_depth`: every facet normal of A - B from two qhull hulls,
each evaluated against every vertex; no engine code):
- copies of high-poly shapes (identical, turned, shifted, scaled, inside a 1.001 copy): depth within 1e-9 x scale,
  and h_M along the returned normal equal to the depth (a many-sided prism turned against its copy has a number
  of facets that grows as the product of the sides: the walk gives up, and EPA's answer is judged instead);
- pairs turned by large angles (edge-edge facets of A - B decide the depth);
- `core.collide` on two `ConvexPolytope`s: the facet path really runs on a large pair, exact, points on shapes;
- Blender's float32 UV Spheres (64 x 32, 128 x 64; folded quads) and their copies placed by an object transform,
  as Hull mode passes them (one shape offering its own faces): exact, converged, on the facet path; the walk
  leaves no arc to its last pass; the climbs reach the support over every vertex;
- `ConvexPolytope` answers like `PointCloud` on a seeded corpus of small pairs (same status, same distance);
- a triangulation that is open, dented, degenerate or leaves a vertex out is refused with a ValueError.
Hull triangulations come from scipy's qhull (test-only), oriented by the class itself.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import core
import core.facet_depth as facet_depth_mod
import core.supports as supports_mod
import core.triangulation as triangulation_mod
from core.facet_depth import facet_depth
from core.polytope import ConvexPolytope
from tests.core.duplicates import (COPIES, blender_uv_sphere, blob, cone, cylinder, exact_depth, icosphere, near_copy,
                                   placement, point_offset, rounded_box, uv_sphere)
from tests.core.reporting import TOUCHING

SHAPES = {
    "ico sphere s3 (642 v)": lambda: icosphere(3),
    "uv sphere 48x24": lambda: uv_sphere(48, 24),
    "cylinder 128 sides": lambda: cylinder(128),
    "cone 256 sides": lambda: cone(256),
    "rounded box grid 12": lambda: rounded_box(12),
    "blob (ico s3)": lambda: blob(3),
}

RELATIONS = COPIES


def hull_polytope(points: np.ndarray, transform=None) -> ConvexPolytope:
    hull = ConvexHull(points)
    return ConvexPolytope(points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices), transform)


def h_m(u, a, b) -> float:
    """h_A(u) + h_B(-u) over every vertex (the support function of M = A - B)."""
    u = np.asarray(u)
    return float((a @ u).max() + (-(b @ u)).max())


def _scale(a, b) -> float:
    return max(float(np.linalg.norm(p.max(axis=0) - p.min(axis=0))) for p in (a, b))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_facet_depth_is_exact_on_copies(shape):
    problems = []
    for relation, kwargs in RELATIONS.items():
        a = SHAPES[shape]()
        rng = np.random.default_rng([709, zlib.crc32(shape.encode()), zlib.crc32(relation.encode())])
        b = near_copy(a, rng, **kwargs) if kwargs else a.copy()
        pa, pb = hull_polytope(a), hull_polytope(b)
        found = facet_depth(pa, pb)
        limit = TOUCHING * _scale(a, b)
        exact, _, _ = exact_depth(a, b)
        if found is None:  # a many-sided prism turned against its copy: EPA goes on, and must be exact
            contact = core.collide(pa, pb)
            if abs(-contact.distance - exact) > limit or contact.epa_outcome is not core.EPAOutcome.CONVERGED:
                problems.append(f"{relation}: gave up, then EPA answered {-contact.distance!r} against {exact!r}")
            continue
        depth, u, _ = found
        if abs(depth - exact) > limit:
            problems.append(f"{relation}: depth {depth!r} against {exact!r}")
        if abs(np.linalg.norm(u) - 1.0) > 1e-12 or abs(h_m(u, a, b) - depth) > limit:
            problems.append(f"{relation}: h_M along the normal {h_m(u, a, b)!r} is not the depth {depth!r}")
    assert not problems, f"{shape}:\n" + "\n".join(problems)


@pytest.mark.parametrize("seed", range(16))
def test_facet_depth_is_exact_on_turned_pairs(seed):
    """Pairs turned by 0.05 to 1.5 rad and shifted: edge-edge facets of A - B exist and often decide the depth.
    A pair of many-sided prisms tilted against each other may make the walk give up (None): EPA then answers."""
    rng = np.random.default_rng([710, seed])
    a = [icosphere(2), cone(24), blob(2), rounded_box(4), cylinder(32), uv_sphere(16, 8)][seed % 6]
    a = a @ np.linalg.qr(rng.normal(size=(3, 3)))[0].T
    b = near_copy(a, rng, angle=float(rng.uniform(0.05, 1.5)), shift=float(rng.uniform(0.0, 0.2)))
    found = facet_depth(hull_polytope(a), hull_polytope(b))
    if found is None:
        return
    exact, _, _ = exact_depth(a, b)
    assert abs(found[0] - exact) <= TOUCHING * _scale(a, b), (found[0], exact)


@pytest.mark.parametrize("relation", ["identical", "rotated 1e-4", "inside a 1.001 copy"])
def test_collide_takes_the_facet_path_on_a_large_pair(relation):
    """Two 2,562-vertex Ico Spheres as ConvexPolytopes (moved far from the origin and turned as a whole): EPA hands
    over after 256 expansions (plain EPA needs ~2,600), and the answer is exact with points on the shapes."""
    a = icosphere(4)
    b = near_copy(a, np.random.default_rng(711), **{"identical": {}, "rotated 1e-4": {"angle": 1e-4},
                                                    "inside a 1.001 copy": {"scale": 1.001}}[relation])
    pose = np.eye(4)
    pose[:3, :3] = np.linalg.qr(np.random.default_rng(712).normal(size=(3, 3)))[0]
    pose[:3, 3] = (1e3, -2e3, 5e2)
    contact = core.collide(hull_polytope(a, pose), hull_polytope(b, pose))
    world_a = a @ pose[:3, :3].T + pose[:3, 3]
    world_b = b @ pose[:3, :3].T + pose[:3, 3]
    exact, _, _ = exact_depth(a, b)  # depth is invariant under the common rigid motion
    limit = TOUCHING * contact.scale
    assert contact.status is core.Status.INTERSECTING
    assert contact.epa_outcome is core.EPAOutcome.CONVERGED and contact.converged
    assert contact.epa_iterations < 600, contact.epa_iterations
    assert abs(-contact.distance - exact) <= limit, (contact.distance, exact)
    assert abs(h_m(contact.normal, world_a, world_b) - exact) <= limit
    assert point_offset(contact.point_a, world_a) <= limit and point_offset(contact.point_b, world_b) <= limit
    assert np.linalg.norm(contact.point_a - contact.point_b + contact.distance * contact.normal) <= limit


@pytest.mark.parametrize("seed", range(40))
def test_polytopes_answer_like_point_clouds(seed):
    """Small seeded pairs (apart, touching-close, overlapping; tiny, huge, far from the origin): the
    triangulation changes nothing where EPA finishes on its own."""
    rng = np.random.default_rng([713, seed])
    size = float(10.0 ** rng.uniform(-3, 3))
    far = float(10.0 ** rng.uniform(0, 5)) * (seed % 3 == 0)
    shapes = []
    for _ in range(2):
        v = rng.normal(size=(int(rng.integers(8, 60)), 3)) * rng.uniform(0.3, 1.0, 3) * size
        shapes.append(v + far)
    shapes[1] = shapes[1] + rng.normal(size=3) * size * rng.uniform(0.0, 1.5)
    by_cloud = core.collide(core.PointCloud(shapes[0]), core.PointCloud(shapes[1]))
    by_hull = core.collide(hull_polytope(shapes[0]), hull_polytope(shapes[1]))
    assert by_hull.status is by_cloud.status
    assert abs(by_hull.distance - by_cloud.distance) <= TOUCHING * by_cloud.scale


def _octahedron():
    v = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    t = np.array([[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]])
    return v, t


def test_octahedron_is_accepted_in_either_orientation():
    v, t = _octahedron()
    for tris in (t, t[:, [0, 2, 1]], np.vstack([t[:4], t[4:, [0, 2, 1]]])):
        found = facet_depth(ConvexPolytope(v, tris), ConvexPolytope(v, tris))
        assert abs(found[0] - 2.0 / np.sqrt(3.0)) <= 1e-15  # width of the octahedron across opposite faces


@pytest.mark.parametrize("case", ["open", "dented", "zero-area triangle", "unused vertex", "bad index", "too few"])
def test_bad_triangulations_are_refused(case):
    v, t = _octahedron()
    if case == "open":
        t = t[:-1]
    elif case == "dented":
        v = v.copy()
        v[4] = (0.0, 0.0, -0.2)  # the top apex pushed through the middle: a closed surface, not convex
    elif case == "zero-area triangle":
        v = np.vstack([v, [0.5, 0.5, 0.0]])  # the midpoint of edge 0-2, fanned into a flat sliver
        t = np.vstack([t[1:], [[0, 6, 4], [6, 2, 4], [0, 2, 6]]])
    elif case == "unused vertex":
        v = np.vstack([v, [0.0, 0.0, 0.0]])
    elif case == "bad index":
        t = t.copy()
        t[0, 0] = 17
    else:
        t = t[:3]
    with pytest.raises(ValueError):
        ConvexPolytope(v, t)


def _hull_of(points):
    hull = ConvexHull(points)
    return points[hull.vertices], np.searchsorted(hull.vertices, hull.simplices)


@pytest.mark.parametrize("source", ["right hull", "hull of a subset", "raises", "garbage"])
def test_a_triangulation_made_later_is_used_only_when_it_is_right(source):
    """The add-on passes Blender's Convex Hull as a function called on first need.  A right one takes the facet
    path; one that misses part of the shape (here the hull of 90 % of the vertices), raises or returns garbage
    is not used, and EPA's answer stands: exact in every case."""
    a = icosphere(4)
    b = near_copy(a, np.random.default_rng(714), angle=1e-4)
    calls = []

    def later(points):
        def make():
            calls.append(1)
            if source == "right hull":
                return _hull_of(points)
            if source == "hull of a subset":
                return _hull_of(points[np.random.default_rng(715).random(points.shape[0]) < 0.9])
            if source == "raises":
                raise RuntimeError("no hull here")
            return np.zeros((3, 3)), np.array([[0, 1, 2]] * 4)
        return make

    contact = core.collide(ConvexPolytope(a, later(a)), ConvexPolytope(b, later(b)))
    exact, _, _ = exact_depth(a, b)
    assert calls, "the triangulation was never asked for"
    assert abs(-contact.distance - exact) <= TOUCHING * contact.scale, (contact.distance, exact)
    assert contact.epa_outcome is core.EPAOutcome.CONVERGED
    if source == "right hull":
        assert contact.epa_iterations < 600  # the facet path, not ~2,600 expansions
    else:
        assert contact.epa_iterations > 1000  # EPA went on


def test_a_pair_that_never_reaches_the_large_regime_never_asks_for_the_triangulation():
    a = blob(3)
    calls = []

    def make():
        calls.append(1)
        return _hull_of(a)

    contact = core.collide(ConvexPolytope(a, make), ConvexPolytope(a + 0.5, make))
    assert contact.status is core.Status.INTERSECTING and not calls


def _fold(triangles: np.ndarray, count: int, seed: int) -> np.ndarray:
    """The triangulation with `count` edges (no two on one triangle) flipped to the other diagonal of their quad,
    which on points in convex position folds them inwards."""
    t = triangles.copy()
    owner = {}
    for f, (i, j, k) in enumerate(t.tolist()):
        owner[(i, j)], owner[(j, k)], owner[(k, i)] = (f, k), (f, i), (f, j)
    taken, done = set(), 0
    for (i, j) in sorted(owner, key=lambda e: zlib.crc32(repr((e, seed)).encode())):
        (f, k), (g, l) = owner[(i, j)], owner[(j, i)]
        if done == count or f in taken or g in taken:
            continue
        t[f], t[g] = (i, l, k), (l, j, k)
        taken |= {f, g}
        done += 1
    return t


def test_a_hull_with_folded_edges_is_mended_by_flips():
    """Blender's Convex Hull of a 10,242-vertex Ico Sphere leaves 28 quads split along the wrong diagonal: such a
    triangulation is repaired by edge flips, then used (facet path, exact)."""
    a = icosphere(3)
    points, triangles = _hull_of(a)
    outward = np.einsum("ij,ij->i", points[triangles[:, 0]],
                        np.cross(points[triangles[:, 1]] - points[triangles[:, 0]],
                                 points[triangles[:, 2]] - points[triangles[:, 0]])) < 0.0
    triangles[outward] = triangles[outward][:, [0, 2, 1]]
    folded = _fold(triangles, 40, seed=1)
    saved = triangulation_mod._flip_folds
    # without the repair (the triangles passed on as they are, with their pairing) the folds are refused
    triangulation_mod._flip_folds = lambda points, topo, twins=None: (
        topo, triangulation_mod.edge_pairing(topo, points.shape[0]))
    try:
        with pytest.raises(ValueError, match="convex body"):
            ConvexPolytope(points, folded)
    finally:
        triangulation_mod._flip_folds = saved
    b = near_copy(a, np.random.default_rng(716), angle=1e-4)
    found = facet_depth(ConvexPolytope(points, folded), hull_polytope(b))
    exact, _, _ = exact_depth(a, b)
    assert found is not None and abs(found[0] - exact) <= TOUCHING * _scale(a, b)


@pytest.mark.parametrize("relation", ["identical", "rotated 1e-4"])
def test_convex_meshes_in_exact_mode_take_the_facet_path(relation):
    """Two closed convex `TriangleMesh`es (a 2,562-vertex Ico Sphere and its copy): the mesh query hands the
    convex engine their own triangles, so the depth comes from the facet normals, exact."""
    a = icosphere(4)
    b = a.copy() if relation == "identical" else near_copy(a, np.random.default_rng(717), angle=1e-4)
    points, triangles = _hull_of(a)
    centre = points.mean(axis=0)
    inward = np.einsum("ij,ij->i", points[triangles[:, 0]] - centre,
                       np.cross(points[triangles[:, 1]] - points[triangles[:, 0]],
                                points[triangles[:, 2]] - points[triangles[:, 0]])) < 0.0
    triangles[inward] = triangles[inward][:, [0, 2, 1]]  # a mesh's faces are consistently oriented
    order = ConvexHull(a).vertices  # the same triangles on the copy's matching vertices
    contact = core.collide(core.TriangleMesh(points, triangles), core.TriangleMesh(b[order], triangles))
    exact, _, _ = exact_depth(a, b)
    assert contact.status is core.Status.INTERSECTING
    assert abs(-contact.distance - exact) <= TOUCHING * contact.scale, (contact.distance, exact)
    assert contact.epa_iterations < 600, contact.epa_iterations


# ------------------------------------------------------------------ issue 7: Blender's float32 UV Spheres (Hull mode)

UV_FLOAT32 = [(64, 32, relation) for relation in RELATIONS] + [
    (128, 64, "identical"), (128, 64, "rotated 1e-4"), (128, 64, "inside a 1.001 copy")]
UV_RELATIONS = dict(RELATIONS, **{"rotated 1e-4": {"angle": 1e-4}})


@pytest.mark.parametrize("segments, rings, relation", UV_FLOAT32)
def test_float32_uv_sphere_copies_are_exact_in_hull_mode(segments, rings, relation):
    """Hull mode on a UV Sphere and its copy (Shift+D, then turned, shifted or scaled by its object transform):
    one shape of the float32 local vertices offering its own faces (made on first need), placed twice.  The
    folds are flipped, the facet path answers (not ~8,000 EPA expansions), exact with points on the shapes."""
    vertices, triangles = blender_uv_sphere(segments, rings)
    shape = ConvexPolytope(vertices, lambda: (vertices, triangles))
    local = vertices.astype(np.float64)
    rng = np.random.default_rng([718, segments, zlib.crc32(relation.encode())])
    pose = placement(local, rng, **UV_RELATIONS[relation])
    contact = core.collide(shape.moved(None), shape.moved(pose))
    world_b = local @ pose[:3, :3].T + pose[:3, 3]
    exact, _, _ = exact_depth(local, world_b)
    limit = TOUCHING * contact.scale
    assert contact.status is core.Status.INTERSECTING
    assert contact.epa_outcome is core.EPAOutcome.CONVERGED and contact.converged
    assert contact.epa_iterations < 600, contact.epa_iterations  # the facet path took it
    assert abs(-contact.distance - exact) <= limit, (contact.distance, exact)
    assert abs(h_m(contact.normal, local, world_b) - exact) <= limit
    assert point_offset(contact.point_a, local) <= limit and point_offset(contact.point_b, world_b) <= limit


def test_regression_float32_copy_arcs_end_within_the_passes(monkeypatch):
    """Regression (issue 7, Hull mode's UV Sphere 128 x 64 duplicate taking 0.34-1.07 s): on a float32 copy each
    edge of A is nearly parallel to one of B (sine ~1e-7), their crossing is found only to ~1e-9 rad, so ~700
    arcs were halved through all 48 passes and then handed every neighbour of their supports (15,000 more
    candidates, each climbed far).  Arcs now stop at `_SHORT_ARC`: no arc is left after the passes."""

    def left_over(*args):
        raise AssertionError(f"{args[3].size} arcs still walked after every pass")

    monkeypatch.setattr(facet_depth_mod, "_undecided_arcs", left_over)
    vertices, triangles = blender_uv_sphere(64, 32)
    shape = ConvexPolytope(vertices, triangles)
    local = vertices.astype(np.float64)
    for pose in (None, placement(local, np.random.default_rng(719), scale=1.001)):
        b = shape.moved(pose)
        found = facet_depth(shape, b)
        world_b = local if pose is None else local @ pose[:3, :3].T + pose[:3, 3]
        exact, _, _ = exact_depth(local, world_b)
        assert found is not None and abs(found[0] - exact) <= TOUCHING * _scale(local, world_b), (found, exact)


@pytest.mark.parametrize("shape", ["cone 256 sides (apex of degree 256)", "float32 uv sphere 64x32 (poles)",
                                   "ico sphere s3"])
def test_climbs_reach_the_support_over_every_vertex(shape, monkeypatch):
    """The climbs (padded table, and the wide vertices' whole lists: as one padded table, or pair by pair) give
    the support value over every vertex, for seeded directions; exactly on an exactly convex hull (qhull's), and
    within the folds left after the flips (core/triangulation.py's `_HULL_SLACK`) on the float32 UV Sphere."""
    monkeypatch.setattr(supports_mod, "_BRUTE_FORCE", 0)  # climb even where a product over every vertex is cheap
    monkeypatch.setattr(supports_mod, "_BRUTE_FORCE_STARTED", 0)
    if shape.startswith("float32"):
        vertices, triangles = blender_uv_sphere(64, 32)
        poly, slack = ConvexPolytope(vertices, triangles), triangulation_mod._HULL_SLACK
    else:
        poly, slack = hull_polytope(cone(256) if shape.startswith("cone") else icosphere(3)), 0.0
    hull = poly._triangulation()
    directions = np.random.default_rng(720).normal(size=(4000, 3))
    _, every = supports_mod.Supports._every(directions, hull.points)
    tables = [hull.graph.wide_table]
    if hull.graph.wide_table is not None:
        tables.append(None)  # the pair-by-pair path too
    else:
        assert not shape.startswith(("cone", "float32")), "the wide vertices should have a padded table"
    for table in tables:
        monkeypatch.setattr(hull.graph, "wide_table", table)
        monkeypatch.setattr(hull.graph, "cube", None)
        climbed = supports_mod.Supports(poly, hull)
        starts = np.random.default_rng(721).integers(0, hull.points.shape[0], size=directions.shape[0])
        for start in (None, starts):
            _, value = climbed(directions, start)
            size = float(np.linalg.norm(hull.points.max(axis=0) - hull.points.min(axis=0)))
            assert np.all(value <= every + 1e-15 * size)
            assert np.all(value >= every - slack * size - 1e-15 * size), float((every - value).max())


def test_regression_an_edge_used_four_times_is_not_a_closed_surface():
    """The edge twins come from one sort of the undirected edges (each must be there exactly twice, once either
    way): a tetrahedron's triangles given twice (every edge used four times) must still be refused."""
    v = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    t = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]])
    with pytest.raises(ValueError):
        ConvexPolytope(v, np.vstack([t, t]))
    with pytest.raises(ValueError):
        ConvexPolytope(v, np.vstack([t, t[:, [0, 2, 1]]]))  # and once either way twice
    ConvexPolytope(v, t)  # the tetrahedron itself is fine


@pytest.mark.parametrize("seed", range(4))
def test_weld_agrees_with_numpy_unique(seed):
    """`weld` (one lexsort of the columns) gives np.unique(axis=0, return_inverse=True)'s rows and labels: seeded
    rows with repeats, signed zeros (welded: -0.0 == 0.0), huge and tiny coordinates."""
    from core.topology import weld
    rng = np.random.default_rng([723, seed])
    rows = np.round(rng.normal(size=(300, 3)), 1) * 10.0 ** rng.integers(-8, 8, size=(300, 1))
    rows = np.vstack([rows, rows[rng.integers(0, 300, size=100)], [[0.0, -0.0, 1.0], [-0.0, 0.0, 1.0]]])
    unique, inverse = weld(rows)
    expected, expected_inverse = np.unique(rows, axis=0, return_inverse=True)
    assert np.array_equal(unique, expected) and np.array_equal(inverse, expected_inverse.reshape(-1))
    assert np.array_equal(unique[inverse], rows)
