"""Issue 7 on raw vertex arrays: copies of high-poly shapes answer exactly through the hulls core/hull.py makes.

`core.collide(a, b)` on two (n, 3) arrays (or `PointCloud`s) runs EPA; once it has spent 1.5 expansions per vertex
of the larger cloud (core/large_pairs.py `raw_hull_per_vertex`, at least 256; just 256 from `raw_hull_early`
vertices on) it builds the two hulls (core/hull.py; B first tries A's triangulation on its own vertices), has them
checked, and takes the minimum of h_A(u) + h_B(-u) over the facet normals of A - B (core/facet_depth.py).  The
copies below are run with the switch at 256 expansions (`raw_hull_per_vertex` = 0), so the hull path answers each
of them.  Judged against the
independent oracle of tests/core/duplicates.py (`exact_depth`: every facet normal of A - B from two qhull hulls,
evaluated against every vertex; no engine code), as tests/core/test_polytope_depth.py judges the given-hull path:
- copies (identical, turned 1e-6 and 1e-2 rad, shifted 1e-9 and 1e-3 x size, scaled 1 - 1e-6, inside a 1.001
  copy): INTERSECTING, converged, depth within 1e-9 x scale, h_M along the normal equal to the depth, points on
  their shapes; and the hull path really ran (far fewer EPA iterations than the ~1 per vertex plain EPA needs),
  except on a many-sided prism turned against its copy, where the facet walk gives up and EPA answers;
- a pair placed far from the origin and turned as a whole; a pair whose B is not a copy of A (own hull for B);
- by default, a many-sided cone inside its 1.001 copy (EPA: 4.4 expansions per vertex) takes the hull path, a
  small sphere's copy (EPA: about 1 per vertex) never builds a hull, and a 10,242-vertex one builds it early;
- a pair that converges early never builds a hull; a declined hull leaves the (exact) answer to EPA.
"""
from __future__ import annotations

import zlib
from dataclasses import replace

import numpy as np
import pytest

import core
import core.hull
import core.large_pairs
from core.facet_depth import facet_depth
from core.hull_views import with_hulls
from core.large_pairs import LARGE_PAIRS
from tests.core.duplicates import (COPIES, blob, cone, cylinder, exact_depth, icosphere, near_copy, point_offset,
                                   rounded_box, symmetric_width, uv_sphere)
from tests.core.reporting import TOUCHING

SHAPES = {
    "ico sphere s4 (2,562 v)": lambda: icosphere(4),
    "uv sphere 64x32 float32": lambda: uv_sphere(64, 32).astype(np.float32).astype(np.float64),
    "cylinder 512": lambda: cylinder(512),
    "rounded box 24": lambda: rounded_box(24),
    "blob (ico s4)": lambda: blob(4),
}

RELATIONS = COPIES


def h_m(u, a, b) -> float:
    u = np.asarray(u)
    return float((a @ u).max() + (-(b @ u)).max())


def _problems(contact, a, b, exact) -> list[str]:
    limit = TOUCHING * contact.scale
    bad = []
    if contact.status is not core.Status.INTERSECTING:
        bad.append(f"status {contact.status.name}")
    if abs(-contact.distance - exact) > limit:
        bad.append(f"depth {-contact.distance!r} against {exact!r}")
    if abs(h_m(contact.normal, a, b) - exact) > limit:
        bad.append(f"h_M along the normal {h_m(contact.normal, a, b)!r}")
    if max(point_offset(contact.point_a, a), point_offset(contact.point_b, b)) > limit:
        bad.append("points off their shapes")
    if not contact.converged or contact.iteration_cap_hit or contact.epa_outcome is not core.EPAOutcome.CONVERGED:
        bad.append(f"not converged ({contact.epa_outcome}, {contact.epa_iterations} iterations)")
    return bad


@pytest.fixture
def early_switch(monkeypatch):
    """The hull path after 256 expansions, as for given triangulations."""
    monkeypatch.setattr(core.large_pairs, "LARGE_PAIRS", replace(LARGE_PAIRS, raw_hull_per_vertex=0.0))


@pytest.fixture
def hull_calls(monkeypatch):
    calls = []
    real = core.hull.convex_hull

    def counted(points):
        calls.append(points.shape[0])
        return real(points)

    monkeypatch.setattr(core.hull, "convex_hull", counted)
    return calls


@pytest.mark.parametrize("shape", list(SHAPES))
def test_raw_copies_are_exact_through_the_hull_path(shape, early_switch):
    a = SHAPES[shape]()
    problems = []
    for relation, kwargs in RELATIONS.items():
        rng = np.random.default_rng([721, zlib.crc32(shape.encode()), zlib.crc32(relation.encode())])
        b = near_copy(a, rng, **kwargs) if kwargs else a.copy()
        contact = core.collide(a, b)
        exact, _, _ = exact_depth(a, b)
        bad = _problems(contact, a, b, exact)
        if contact.epa_iterations >= 600:  # plain EPA needs ~1 expansion per hull vertex (>= 1,000 here)
            # allowed only when both hulls were accepted and the facet walk gave up (a many-sided prism turned
            # against its copy, see core/facet_depth.py `_ARC_BUDGET`): EPA's answer is judged above
            views = with_hulls(core.PointCloud(a), core.PointCloud(b))
            if any(v._triangulation() is None for v in views) or facet_depth(*views) is not None:
                bad.append(f"{contact.epa_iterations} EPA iterations: the hull path did not answer")
        if bad:
            problems.append(f"{relation}: " + "; ".join(bad))
    assert not problems, f"{shape}:\n" + "\n".join(problems)


def test_point_clouds_far_from_the_origin_and_turned(early_switch):
    """Two `PointCloud`s with one 4x4 transform (turned, 1e4 from the origin): the hulls are built in local
    coordinates and used in the pair frame."""
    a = icosphere(4)
    b = near_copy(a, np.random.default_rng(722), angle=1e-4)
    pose = np.eye(4)
    pose[:3, :3] = np.linalg.qr(np.random.default_rng(723).normal(size=(3, 3)))[0]
    pose[:3, 3] = (1e4, -3e3, 7e3)
    contact = core.collide(core.PointCloud(a, pose), core.PointCloud(b, pose))
    world_a, world_b = a @ pose[:3, :3].T + pose[:3, 3], b @ pose[:3, :3].T + pose[:3, 3]
    exact, _, _ = exact_depth(a, b)
    assert not _problems(contact, world_a, world_b, exact), _problems(contact, world_a, world_b, exact)
    assert contact.epa_iterations < 600


def test_a_partner_that_is_not_a_copy_gets_its_own_hull(early_switch, hull_calls):
    """B has other vertices than A (a 2,562-vertex Ico Sphere inside a 2,050-vertex UV Sphere cloud): A's
    triangulation cannot be copied onto B, B's own hull is built, the answer is exact."""
    a = icosphere(4)
    b = uv_sphere(64, 33)[:, [2, 0, 1]] * 1.0005
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    assert sorted(hull_calls) == sorted([a.shape[0], b.shape[0]]), hull_calls
    assert not _problems(contact, a, b, exact), _problems(contact, a, b, exact)


def test_a_copy_reuses_the_first_hull(early_switch, hull_calls):
    """A duplicate in place (same vertex order) builds one hull: B's is A's triangulation, checked on B."""
    a = uv_sphere(48, 24)
    b = near_copy(a, np.random.default_rng(724), angle=1e-3, shift=1e-6)
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    assert len(hull_calls) == 1 and contact.epa_iterations < 600
    assert not _problems(contact, a, b, exact), _problems(contact, a, b, exact)


def test_by_default_only_a_pair_past_epas_pace_builds_hulls(hull_calls):
    """A 1,024-sided cone inside its 1.001 copy needs ~4.4 EPA expansions per vertex: the hull path takes over
    after 1.5 per vertex (one hull, copied onto B).  An Ico Sphere's copy finishes in ~1 per vertex: no hull."""
    a = cone(1024)
    b = near_copy(a, np.random.default_rng(726), scale=1.001)
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    assert not _problems(contact, a, b, exact), _problems(contact, a, b, exact)
    assert len(hull_calls) == 1 and contact.epa_iterations < 2 * a.shape[0], contact.epa_iterations
    a = icosphere(3)
    contact = core.collide(a, near_copy(a, np.random.default_rng(727), angle=1e-4))
    assert len(hull_calls) == 1 and contact.converged


def test_by_default_a_large_pair_builds_hulls_after_256_expansions(hull_calls):
    """From `_RAW_HULL_EARLY` vertices on, raw clouds switch as given triangulations do: a 10,242-vertex Ico Sphere
    and its copy in place take the hull path after ~256 expansions instead of ~10,000 (exact: its smallest width,
    the depth of a centrally symmetric shape against itself)."""
    a = icosphere(5)
    assert a.shape[0] >= LARGE_PAIRS.raw_hull_early
    contact = core.collide(a, a.copy())
    assert len(hull_calls) == 1 and contact.epa_iterations < 600, contact.epa_iterations
    assert contact.converged and abs(contact.depth - symmetric_width(a)) <= 1e-9 * contact.scale


def test_a_pair_that_converges_early_builds_no_hull(early_switch, hull_calls):
    """Small or easy pairs pay nothing: EPA finishes before 256 expansions and never asks for a hull."""
    a = blob(3)
    contact = core.collide(a, a + [0.5, 0.1, 0.0])
    assert contact.status is core.Status.INTERSECTING and contact.epa_iterations <= 256 and not hull_calls


def test_a_declined_hull_leaves_the_answer_to_epa(early_switch, monkeypatch):
    """When the hull builder declines (here: made to), EPA goes on and is exact all the same."""
    a = icosphere(3)
    b = near_copy(a, np.random.default_rng(725), angle=1e-4)
    monkeypatch.setattr(core.hull, "convex_hull", lambda points: None)
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    assert not _problems(contact, a, b, exact), _problems(contact, a, b, exact)
    assert contact.epa_iterations > 600  # EPA's own expansions, no hull


def test_a_hull_that_leaves_a_vertex_out_is_refused(early_switch, monkeypatch):
    """The core's own hull is checked like any other: made to leave one of its vertices out (qhull's hull of the
    others), it is refused for A and, copied, for B; EPA answers, exact."""
    from scipy.spatial import ConvexHull

    def short_by_one(points):
        keep = np.arange(1, points.shape[0])  # vertex 0 of an Ico Sphere is a hull vertex
        tri = keep[ConvexHull(points[keep]).simplices]
        return np.unique(tri), tri

    a = icosphere(3)
    b = near_copy(a, np.random.default_rng(728), angle=1e-4)
    monkeypatch.setattr(core.hull, "convex_hull", short_by_one)
    views = with_hulls(core.PointCloud(a), core.PointCloud(b))
    assert [v._triangulation() for v in views] == [None, None]
    contact = core.collide(a, b)
    exact, _, _ = exact_depth(a, b)
    assert not _problems(contact, a, b, exact), _problems(contact, a, b, exact)
    assert contact.epa_iterations > 600  # EPA's own expansions, no hull
