"""Issue 7: high-poly convex shapes against identical and near-identical copies of themselves, judged exactly.

Shapes and oracle live in tests/core/duplicates.py (the oracle: min of h_A(u) + h_B(-u) over every facet normal of
A - B, enumerated from the two hulls; no engine code).  Each shape family meets its copy:
- identical (same vertices, same pose: the Shift+D case), and A against a copy of itself scaled by 1.001 about
  its centroid (A inside);
- rotated by 1e-6, 1e-4, 1e-2 rad about a random axis through the centroid; shifted by 1e-9, 1e-6, 1e-3 x size;
  scaled by 1 +- 1e-6.
Asserted on every pair (the core corpus asks 1e-9 x scale at the median; here every single pair must meet it):
INTERSECTING, |distance error| <= 1e-9 x scale, the support separation along the returned normal within 1e-9 x
scale of the true distance, both points on their shapes within 1e-9 x scale, converged, no iteration cap, EPA's
outcome CONVERGED.  The pairs are seeded (numpy default_rng from the shape and relation names).
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import core
from tests.core.duplicates import (COPIES, blob, cone, cylinder, exact_depth, icosphere, near_copy, point_offset,
                                   rounded_box, uv_sphere)
from tests.core.oracle import signed_distance
from tests.core.reporting import TOUCHING

SHAPES = {
    "ico sphere s3 (642 v)": lambda: icosphere(3),
    "ico sphere s4 (2562 v)": lambda: icosphere(4),
    "uv sphere 48x24": lambda: uv_sphere(48, 24),
    "cylinder 256 sides": lambda: cylinder(256),
    "cone 512 sides": lambda: cone(512),
    "rounded box grid 20 (728 hull v)": lambda: rounded_box(20),
    "blob (ico s3, 614 hull v)": lambda: blob(3),
}

RELATIONS = dict(COPIES, **{"rotated 1e-4": {"angle": 1e-4}, "shifted 1e-6": {"shift": 1e-6},
                           "scaled 1+1e-6": {"scale": 1.0 + 1e-6}})


def _pair(shape: str, relation: str):
    a = SHAPES[shape]()
    kwargs = RELATIONS[relation]
    rng = np.random.default_rng([707, zlib.crc32(shape.encode()), zlib.crc32(relation.encode())])
    b = near_copy(a, rng, **kwargs) if kwargs else a.copy()
    return a, b


@pytest.mark.parametrize("shape", list(SHAPES))
def test_near_identical_copies_are_exact(shape):
    problems = []
    for relation in RELATIONS:
        a, b = _pair(shape, relation)
        contact = core.collide(a, b)
        depth, _, _ = exact_depth(a, b)
        scale = contact.scale
        limit = TOUCHING * scale
        error = abs(-contact.distance - depth)
        n = contact.normal
        separation = float((b @ n).min() - (a @ n).max())  # support separation along the normal (<= -depth)
        off_a, off_b = point_offset(contact.point_a, a), point_offset(contact.point_b, b)
        bad = []
        if contact.status is not core.Status.INTERSECTING:
            bad.append(f"status {contact.status.name}")
        if error > limit:
            bad.append(f"distance error {error / scale:.2e} x scale")
        if -depth - separation > limit:
            bad.append(f"normal's separation {(-depth - separation) / scale:.2e} x scale below the distance")
        if max(off_a, off_b) > limit:
            bad.append(f"points off their shapes by {off_a / scale:.1e}, {off_b / scale:.1e} x scale")
        if not contact.converged or contact.iteration_cap_hit or contact.epa_outcome is not core.EPAOutcome.CONVERGED:
            bad.append(f"converged={contact.converged}, cap hit={contact.iteration_cap_hit}, "
                       f"EPA {contact.epa_outcome} after {contact.epa_iterations} iterations")
        if bad:
            problems.append(f"{relation}: " + "; ".join(bad))
    assert not problems, f"{shape} ({len(SHAPES[shape]())} vertices):\n" + "\n".join(problems)


@pytest.mark.parametrize("seed", range(12))
def test_oracle_agrees_with_the_minkowski_hull(seed):
    """The facet-normal oracle against the corpus oracle (qhull of all n_a x n_b vertex differences) on small
    seeded pairs, rotated far enough that edge-edge facets of A - B exist."""
    rng = np.random.default_rng([708, seed])
    a = [icosphere(1), cone(9), blob(1), rounded_box(2), cylinder(7)][seed % 5]
    a = a @ np.linalg.qr(rng.normal(size=(3, 3)))[0].T
    b = near_copy(a, rng, angle=float(rng.uniform(0.05, 1.5)), shift=float(rng.uniform(0.0, 0.2)))
    d, _ = signed_distance(a, b)
    depth, _, _ = exact_depth(a, b)
    assert abs(d + depth) <= 1e-14 * 4.0, (d, -depth)


def test_oracle_needs_its_edge_edge_candidates():
    """Without the edge-edge directions the oracle would overstate the depth of a cone against its rotated copy
    (the deepest facet of A - B is an edge-edge one): the candidates that make it exact are really used."""
    from tests.core import duplicates

    a = cone(9)
    b = near_copy(a, np.random.default_rng(3), angle=0.7)
    exact, _, _ = exact_depth(a, b)
    saved = duplicates._edge_pair_normals
    duplicates._edge_pair_normals = lambda ha, hb: np.zeros((0, 3))
    try:
        faces_only, _, _ = exact_depth(a, b)
    finally:
        duplicates._edge_pair_normals = saved
    d, _ = signed_distance(a, b)
    assert abs(exact + d) <= 1e-14
    assert faces_only > exact + 1e-6
