"""Issue 7: a large point cloud against its copy goes to the facet path at once.

core/large_pairs.py's `LARGE_PAIRS.near_copies` says whether two point clouds are copies of each other vertex by
vertex: the same vertex count (at least `raw_hull_early`), every world vertex within `near_copy` x the pair's size
of its partner's vertex of the same index, or of the partner core/copies.py pairs it with (a copy in another order).
When the copies are round (h_M over spread directions within `round_spread` of its smallest value) the pair is
handed to core/facet_depth.py at EPA's first expansion instead of after `batch_after` (256), so the answer comes
with a handful of EPA iterations; other copies after `near_copy_after` (128), so that those EPA finishes sooner
build no hull (`LARGE_PAIRS.first_try`).  Pinned here:
- the issue's copies of a 2,562-vertex Ico Sphere (raw arrays, and B as a `PointCloud` whose transform makes the
  copy) switch at once and answer exactly (`exact_depth` of tests/core/duplicates.py, independent of the engine);
- copies of a rounded box and a lumpy blob are not round: EPA finishes them before `near_copy_after` and no hull is
  built; a 1,024-vertex cylinder's copies are not round either and take the facet path after `near_copy_after`;
- what is not a copy keeps the old switch: moved by 5e-2 of its size, one vertex short, turned 0.3 rad and in a
  different order, under `raw_hull_early` vertices, or the same local vertices placed apart by the transform (the
  same points in a different order are a copy);
- a hull declined at that first expansion leaves the answer to EPA, exact all the same.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
import core.hull
from core.large_pairs import LARGE_PAIRS
from tests.core.duplicates import (COPIES, blob, cylinder, exact_depth, icosphere, near_copy, placement, point_offset,
                                   rounded_box)
from tests.core.reporting import TOUCHING


@pytest.fixture(scope="module")
def sphere() -> np.ndarray:
    return icosphere(4)  # 2,562 vertices


def _check_exact(contact, a, b) -> list[str]:
    exact, _, _ = exact_depth(a, b)
    limit = TOUCHING * contact.scale
    bad = []
    if contact.status is not core.Status.INTERSECTING or not contact.converged:
        bad.append(f"{contact.status.name}, converged {contact.converged}")
    if abs(contact.depth - exact) > limit:
        bad.append(f"depth {contact.depth!r} against {exact!r}")
    if max(point_offset(contact.point_a, a), point_offset(contact.point_b, b)) > limit:
        bad.append("a witness point off its shape")
    return bad


def _pair(a, b):
    shape_a, shape_b = (s if isinstance(s, core.PointCloud) else core.PointCloud(s) for s in (a, b))
    scale = max(float(np.linalg.norm(np.ptp(s._world_core_vertices(), axis=0))) for s in (shape_a, shape_b))
    return shape_a, shape_b, scale


def _near(a, b) -> bool:
    return LARGE_PAIRS.near_copies(*_pair(a, b))


@pytest.mark.parametrize("relation", sorted(COPIES))
def test_copies_switch_at_once_and_are_exact(sphere, relation):
    b = near_copy(sphere, np.random.default_rng([77, len(relation)]), **COPIES[relation])
    assert _near(sphere, b) and LARGE_PAIRS.first_try(*_pair(sphere, b)) == 0  # round
    contact = core.collide(sphere, b)
    assert not _check_exact(contact, sphere, b), _check_exact(contact, sphere, b)
    assert contact.epa_iterations < LARGE_PAIRS.near_copy_after, contact.epa_iterations


@pytest.mark.parametrize("make", [lambda: rounded_box(16), lambda: blob(4)], ids=["rounded box 16", "blob (ico s4)"])
def test_copies_epa_finishes_early_build_no_hull(make, monkeypatch):
    a = make()
    b = near_copy(a, np.random.default_rng(82), angle=1e-4)
    assert a.shape[0] >= LARGE_PAIRS.raw_hull_early and _near(a, b)
    assert LARGE_PAIRS.first_try(*_pair(a, b)) == LARGE_PAIRS.near_copy_after  # not round
    calls = []
    real = core.hull.convex_hull
    monkeypatch.setattr(core.hull, "convex_hull", lambda points: calls.append(1) or real(points))
    contact = core.collide(a, b)
    assert not _check_exact(contact, a, b), _check_exact(contact, a, b)
    assert contact.epa_iterations <= LARGE_PAIRS.near_copy_after and not calls, (contact.epa_iterations, calls)


def test_copies_of_a_cylinder_switch_after_near_copy_after():
    a = cylinder(512)  # 1,024 vertices: as wide as tall, not round
    for relation in ("identical", "rotated 1e-2", "inside a 1.001 copy"):
        b = near_copy(a, np.random.default_rng([83, len(relation)]), **COPIES[relation])
        assert LARGE_PAIRS.first_try(*_pair(a, b)) == LARGE_PAIRS.near_copy_after
        contact = core.collide(a, b)
        assert not _check_exact(contact, a, b), (relation, _check_exact(contact, a, b))
        assert LARGE_PAIRS.near_copy_after < contact.epa_iterations < LARGE_PAIRS.batch_after, contact.epa_iterations


def test_a_copy_made_by_the_transform_is_compared_in_the_world(sphere):
    """B keeps A's local vertices and is turned by its transform (an object duplicated and rotated a hair): a copy
    in the world, so it switches at once."""
    pose = placement(sphere, np.random.default_rng(78), angle=1e-4)
    b = core.PointCloud(sphere, transform=pose)
    assert _near(sphere, b)
    contact = core.collide(sphere, b)
    world_b = sphere @ pose[:3, :3].T + pose[:3, 3]
    assert not _check_exact(contact, sphere, world_b), _check_exact(contact, sphere, world_b)
    assert contact.epa_iterations < LARGE_PAIRS.batch_after, contact.epa_iterations


def test_what_is_not_a_copy_keeps_the_old_switch(sphere):
    rng = np.random.default_rng(79)
    size = float(np.linalg.norm(np.ptp(sphere, axis=0)))
    assert not _near(sphere, near_copy(sphere, rng, shift=5e-2))  # moved by more than `_NEAR_COPY` x size
    assert not _near(sphere, sphere[1:].copy())  # one vertex short
    assert _near(sphere, sphere[rng.permutation(sphere.shape[0])])  # the same points in another order: a copy
    turned_far = near_copy(sphere, rng, angle=0.3)[rng.permutation(sphere.shape[0])]  # in another order, turned
    assert not _near(sphere, turned_far)
    small = icosphere(3)  # 642 vertices: EPA alone is as fast there
    assert small.shape[0] < LARGE_PAIRS.raw_hull_early and not _near(small, small.copy())
    pose = np.eye(4)
    pose[:3, 3] = [0.5 * size, 0.0, 0.0]  # the same local vertices, placed apart
    assert not _near(core.PointCloud(sphere), core.PointCloud(sphere, transform=pose))
    assert _near(sphere, near_copy(sphere, rng, shift=5e-3))  # a control: within `_NEAR_COPY`


def test_a_pair_moved_further_is_exact_on_the_old_path(sphere):
    b = near_copy(sphere, np.random.default_rng(80), shift=5e-2)
    contact = core.collide(sphere, b)
    assert not _check_exact(contact, sphere, b), _check_exact(contact, sphere, b)


def test_a_declined_hull_at_the_first_expansion_leaves_the_answer_to_epa(sphere, monkeypatch):
    b = near_copy(sphere, np.random.default_rng(81), angle=1e-4)
    calls = []

    def declined(points):
        calls.append(points.shape[0])
        return None

    monkeypatch.setattr(core.hull, "convex_hull", declined)
    contact = core.collide(sphere, b)
    assert calls, "the hull was never asked for"
    assert not _check_exact(contact, sphere, b), _check_exact(contact, sphere, b)
    assert contact.epa_iterations > LARGE_PAIRS.batch_after  # EPA's own expansions
