"""The oracle itself, against closed forms (it must be right before it may judge the engine).

Closed forms: sphere-sphere (|c| - r1 - r2), axis-aligned box-box (gap vector or smallest overlap), point-box,
skew segments, coplanar and parallel squares, and, for the curved bracket, parallel cylinders, an ellipsoid
over a box, a cone's apex under a box and a sphere beside a cylinder.  A KKT certificate (every vertex of the
Minkowski difference lies beyond the plane through the nearest point) checks the outside distance without qhull.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from tests.core.corpus import random_rotation, rigid
from tests.core.oracle import (
    FLAT_REL, ShapeSpec, bracket, distance_to_shape, geometry, minkowski_difference, origin_distance, pair_scale,
    point_shape_bracket, signed_distance, support_separation,
)

RNG_SEED = 7


def _moved(m3, t):
    m = np.eye(4)
    m[:3, :3] = m3
    m[:3, 3] = t
    return m


def _aabb_cloud(lo, hi, lattice=2):
    g = [np.linspace(lo[i], hi[i], lattice) for i in range(3)]
    return np.array(np.meshgrid(*g)).reshape(3, -1).T


def _box_box_closed_form(lo1, hi1, lo2, hi2):
    gap = np.maximum(np.maximum(lo2 - hi1, lo1 - hi2), 0.0)
    if np.any(gap > 0):
        return float(np.linalg.norm(gap))
    overlap = np.minimum(hi1 - lo2, hi2 - lo1)
    return -float(np.min(overlap))


@pytest.mark.parametrize("seed", range(40))
def test_sphere_sphere(seed):
    rng = np.random.default_rng([RNG_SEED, seed])
    r1, r2 = rng.uniform(0.1, 2.0, size=2)
    c1 = rng.normal(size=3)
    c2 = c1 + rng.normal(size=3) * rng.uniform(0.0, 2.0)
    s1 = ShapeSpec("sphere", radius=r1, transform=_moved(random_rotation(rng), c1))
    s2 = ShapeSpec("sphere", radius=r2, transform=_moved(random_rotation(rng), c2))
    d, n = signed_distance(s1, s2)
    gap = np.linalg.norm(c2 - c1)
    np.testing.assert_allclose(d, gap - r1 - r2, atol=1e-14)
    if gap > 1e-12:
        np.testing.assert_allclose(n, (c2 - c1) / gap, atol=1e-12)
    np.testing.assert_allclose(support_separation(s1, s2, n), d, atol=1e-14)


def test_concentric_spheres_have_depth_r1_plus_r2():
    d, n = signed_distance(ShapeSpec("sphere", radius=1.0), ShapeSpec("sphere", radius=0.25))
    assert d == -1.25
    np.testing.assert_allclose(np.linalg.norm(n), 1.0)


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("lattice", [2, 4])
def test_axis_aligned_box_box(seed, lattice):
    """Boxes as clouds (corners only, or 4x4x4 lattices full of coplanar points) and as Box primitives."""
    rng = np.random.default_rng([RNG_SEED, 1, seed])
    lo1 = rng.normal(size=3)
    hi1 = lo1 + rng.uniform(0.1, 2.0, size=3)
    lo2 = lo1 + rng.normal(size=3) * 1.5
    hi2 = lo2 + rng.uniform(0.1, 2.0, size=3)
    expected = _box_box_closed_form(lo1, hi1, lo2, hi2)
    a = ShapeSpec("cloud", vertices=_aabb_cloud(lo1, hi1, lattice))
    b = ShapeSpec("box", half_extents=tuple((hi2 - lo2) / 2), transform=_moved(np.eye(3), (hi2 + lo2) / 2))
    d, n = signed_distance(a, b)
    np.testing.assert_allclose(d, expected, atol=1e-14)
    np.testing.assert_allclose(support_separation(a, b, n), d, atol=1e-14)


@pytest.mark.parametrize("offset", [1e3, 1e4, 1e5, 1e6])
def test_far_boxes_against_reference(offset):
    """Raw arrays 1e3..1e6 from the origin: the geometry is the rounded array, the oracle subtracts `ref`."""
    rng = np.random.default_rng([RNG_SEED, 2, int(math.log10(offset))])
    ref = np.array([offset, -0.7 * offset, 0.3 * offset])
    lo1, hi1 = np.array([0.0, 0.0, 0.0]), np.array([1.0, 0.5, 0.25])
    lo2, hi2 = np.array([1.25, 0.125, 0.0]), np.array([2.0, 1.0, 1.0])
    a = ShapeSpec("cloud", vertices=_aabb_cloud(lo1, hi1) + ref)
    b = ShapeSpec("cloud", vertices=_aabb_cloud(lo2, hi2) + ref)
    # binary fractions: the rounded arrays are exact, so the closed form holds to the last bit
    d, n = signed_distance(a, b, ref=ref)
    assert d == 0.25
    np.testing.assert_allclose(n, [1.0, 0.0, 0.0], atol=1e-15)
    d, _ = signed_distance(a, b.translated([-0.5, 0.0, 0.0]), ref=ref)
    assert d == -0.25
    del rng


@pytest.mark.parametrize("seed", range(30))
def test_point_to_box(seed):
    rng = np.random.default_rng([RNG_SEED, 3, seed])
    half = rng.uniform(0.2, 1.5, size=3)
    rot = random_rotation(rng)
    t = rng.normal(size=3)
    box = ShapeSpec("box", half_extents=tuple(half), transform=_moved(rot, t))
    local = rng.normal(size=3) * 1.5
    q = np.abs(local) - half
    expected = np.linalg.norm(np.maximum(q, 0.0)) + min(q.max(), 0.0)
    world = rot @ local + t
    np.testing.assert_allclose(distance_to_shape(world, box), expected, atol=1e-13)
    lo, hi = point_shape_bracket(world, box)
    assert lo == hi


def test_skew_and_collinear_segments():
    a = ShapeSpec("cloud", vertices=np.array([[-1.0, 0, 0], [1.0, 0, 0]]))
    b = ShapeSpec("cloud", vertices=np.array([[0.0, -1, 0.5], [0.0, 1, 0.5]]))
    d, n = signed_distance(a, b)
    assert d == 0.5
    np.testing.assert_array_equal(np.abs(n), [0.0, 0.0, 1.0])
    # crossing segments: flat difference containing the origin -> touching, depth 0
    d, _ = signed_distance(a, ShapeSpec("cloud", vertices=np.array([[0.0, -1, 0], [0.0, 1, 0]])))
    assert d == 0.0
    # collinear, overlapping and apart
    c = ShapeSpec("cloud", vertices=np.array([[0.5, 0, 0], [0.75, 0, 0], [3.0, 0, 0]]))
    assert signed_distance(a, c)[0] == 0.0
    assert signed_distance(a, c.translated([1.0, 0, 0]))[0] == 0.5
    # single points and duplicates
    p = ShapeSpec("cloud", vertices=np.array([[3.0, 4.0, 0.0]] * 3))
    q = ShapeSpec("sphere", radius=0.0)
    assert signed_distance(p, q)[0] == 5.0
    assert signed_distance(q, q)[0] == 0.0


def test_flat_squares():
    sq = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    a = ShapeSpec("cloud", vertices=sq)
    assert signed_distance(a, a.translated([0.5, 0.25, 0]))[0] == 0.0  # coplanar overlap: depth 0
    assert signed_distance(a, a.translated([1.5, 0, 0]))[0] == 0.5
    np.testing.assert_allclose(signed_distance(a, a.translated([1.5, 0, 0.5]))[0], math.sqrt(0.5), rtol=1e-15)
    d, n = signed_distance(a, a.translated([0.25, 0.5, 0.75]))
    np.testing.assert_allclose(d, 0.75, rtol=1e-15)
    np.testing.assert_allclose(n, [0, 0, 1], atol=1e-15)
    # square pierced by a box: the box's depth is the smaller way out through the square
    box = ShapeSpec("box", half_extents=(0.2, 0.2, 0.3), transform=_moved(np.eye(3), [0.5, 0.5, 0.1]))
    np.testing.assert_allclose(signed_distance(a, box)[0], -0.2, rtol=1e-14)
    # a box squashed flat by a zero scale axis is a rectangle
    squash = np.diag([1.0, 1.0, 0.0, 1.0])
    squash[:3, 3] = [0.5, 0.5, 2.0]
    flat_box = ShapeSpec("box", half_extents=(1.0, 1.0, 1.0), transform=squash)
    np.testing.assert_allclose(signed_distance(a, flat_box)[0], 2.0, rtol=1e-15)


def test_thin_sets_switch_to_their_plane_exactly():
    """Below FLAT_REL the set is flat; just above, qhull gets it and the answer is continuous."""
    sq = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    for thickness in (0.0, 0.1 * FLAT_REL, 10 * FLAT_REL, 1e-9, 1e-6):
        slab = np.vstack([sq, sq + [0, 0, thickness]])
        d, _ = origin_distance(slab - [0.5, 0.5, 0.0])
        assert abs(d) <= thickness / 2 + 1e-15, (thickness, d)  # the origin is on a face of the slab
        d, _ = origin_distance(slab - [0.5, 0.5, -2.0])
        np.testing.assert_allclose(d, 2.0, rtol=1e-14, atol=thickness / 2)


@pytest.mark.parametrize("seed", range(40))
def test_outside_distance_has_a_kkt_certificate(seed):
    """Nearest point v of conv(D) to the origin: every vertex p satisfies p.v >= |v|^2 (no qhull needed)."""
    rng = np.random.default_rng([RNG_SEED, 4, seed])
    pts = rng.normal(size=(int(rng.integers(1, 60)), 3)) * rng.uniform(0.1, 2, size=3)
    if rng.random() < 0.3:
        pts[:, 2] = 0.0  # flat
    pts = pts @ random_rotation(rng).T + rng.normal(size=3) * 4
    d, n = origin_distance(pts)
    if d > 0:
        v = -d * n  # the nearest point
        assert np.min(pts @ (v / d)) >= d - 1e-12 * (1 + d)
    support = np.max(pts @ n)
    np.testing.assert_allclose(-support, d, atol=1e-12 * (1 + abs(d)))


@pytest.mark.parametrize("seed", range(30))
def test_support_separation_is_a_lower_bound(seed):
    rng = np.random.default_rng([RNG_SEED, 5, seed])
    a = ShapeSpec("cloud", vertices=rng.normal(size=(20, 3)))
    b = ShapeSpec("capsule", radius=0.3, half_height=0.7, transform=rigid(rng, 1.0), margin=0.05)
    d, n = signed_distance(a, b)
    for m in rng.normal(size=(50, 3)):
        assert support_separation(a, b, m) <= d + 1e-14
    np.testing.assert_allclose(support_separation(a, b, n), d, atol=1e-13)


# ----------------------------------------------------------------------------------------------- curved bracket

def _check_bracket(a, b, expected, rel_width=1e-7):
    lo, hi, n = bracket(a, b)
    scale = pair_scale(a, b)
    assert lo - 1e-13 * scale <= expected <= hi + 1e-13 * scale, (lo, expected, hi)
    assert hi - lo <= rel_width * scale, (lo, hi)
    return n


@pytest.mark.parametrize("seed", range(12))
def test_parallel_cylinders(seed):
    rng = np.random.default_rng([RNG_SEED, 6, seed])
    r1, r2 = rng.uniform(0.2, 1.0, size=2)
    rot = random_rotation(rng)
    t = rng.normal(size=3)
    lateral = rng.uniform(0.3, 1.5) * (r1 + r2)
    phi = rng.uniform(0, 2 * math.pi)
    c2 = np.array([lateral * math.cos(phi), lateral * math.sin(phi), rng.uniform(-0.2, 0.2)])
    a = ShapeSpec("cylinder", radius=r1, half_height=1.0, transform=_moved(rot, t))
    b = ShapeSpec("cylinder", radius=r2, half_height=1.0, transform=_moved(rot, t + rot @ c2))
    expected = lateral - r1 - r2
    if expected < 0:  # overlapping side by side: the way out is sideways unless along the axis is shorter
        expected = max(expected, -(2.0 - abs(c2[2])))
    _check_bracket(a, b, expected)


@pytest.mark.parametrize("gap", [0.3, 1e-6, 0.0, -1e-6, -0.2])
def test_ellipsoid_over_a_box(gap):
    semi = np.array([0.5, 2.0, 0.75])
    m = np.diag([*semi, 1.0])
    m[:3, 3] = [0.1, -0.2, semi[2] + gap]
    e = ShapeSpec("sphere", radius=1.0, transform=m)
    box = ShapeSpec("box", half_extents=(4.0, 4.0, 1.0), transform=_moved(np.eye(3), [0, 0, -1.0]))
    n = _check_bracket(box, e, gap)
    np.testing.assert_allclose(n, [0, 0, 1], atol=1e-6)


def _rot_x(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _rot_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@pytest.mark.parametrize("tilt", [0.0, 0.6, 1.1])
@pytest.mark.parametrize("gap", [0.5, 0.0, -0.1])
def test_cone_apex_under_a_box(gap, tilt):
    """A cone (radius 0.7, half height 1) whose axis leans `tilt` from +z, under a wide box whose bottom face is
    `gap` above the apex.  The apex stays the cone's highest point while tan(tilt) < 2 x 1 / 0.7 (about 70.7
    degrees): the rim's highest point is at 0.7 sin(tilt) - cos(tilt), the apex at cos(tilt)."""
    h, r = 1.0, 0.7
    rot = _rot_z(0.9) @ _rot_x(tilt) @ _rot_z(0.4)
    cone = ShapeSpec("cone", radius=r, half_height=h, transform=_moved(rot, [0, 0, 0]))
    apex = rot @ [0, 0, h]
    rim_top = max((rot @ [r * math.cos(a), r * math.sin(a), -h])[2] for a in np.linspace(0, 2 * math.pi, 3601))
    assert rim_top <= r * math.sin(tilt) - h * math.cos(tilt) + 1e-12
    assert apex[2] > rim_top + 0.1  # the construction: the apex alone touches the box's bottom face
    box = ShapeSpec("box", half_extents=(3.0, 3.0, 1.0), transform=_moved(np.eye(3), [0, 0, apex[2] + 1.0 + gap]))
    _check_bracket(cone, box, gap)


@pytest.mark.parametrize("seed", range(8))
def test_sphere_beside_a_cylinder(seed):
    rng = np.random.default_rng([RNG_SEED, 8, seed])
    rot, t = random_rotation(rng), rng.normal(size=3)
    cyl = ShapeSpec("cylinder", radius=1.0, half_height=2.0, transform=_moved(rot, t))
    rho, z = rng.uniform(1.05, 2.5), rng.uniform(-1.5, 1.5)
    centre = t + rot @ [rho, 0, z]
    r = rng.uniform(0.1, 1.0)
    ball = ShapeSpec("sphere", radius=r, transform=_moved(np.eye(3), centre))
    expected = rho - 1.0 - r
    if expected < 0:
        expected = max(expected, -(2.0 - abs(z) + r))
    _check_bracket(cyl, ball, expected)


def test_point_bracket_on_a_cylinder():
    rot = random_rotation(np.random.default_rng([RNG_SEED, 9]))
    cyl = ShapeSpec("cylinder", radius=1.0, half_height=2.0, transform=_moved(rot, [1, 2, 3]), margin=0.1)
    for local, expected in (([2.0, 0, 0], 0.9), ([0.0, 0, 0], -1.1), ([0.5, 0, 1.9], -0.2), ([0, 0, 3], 0.9),
                            ([2.0, 0, 3.0], math.sqrt(2) - 0.1)):
        lo, hi = point_shape_bracket(rot @ local + [1, 2, 3], cyl)
        np.testing.assert_allclose([lo, hi], [expected, expected], atol=1e-14)
    # a non-uniform scale turns the exact value into a bracket [sigma_min s, sigma_max s]
    m = np.diag([1.0, 3.0, 1.0, 1.0])
    lo, hi = point_shape_bracket([2.0, 0, 0], ShapeSpec("cylinder", radius=1.0, half_height=1.0, transform=m))
    assert lo <= 1.0 <= hi and lo >= 0.0


def test_geometry_treats_similar_spheres_as_points_and_scaled_ones_as_curved():
    assert geometry(ShapeSpec("sphere", radius=1.0, transform=np.diag([-2.0, -2.0, -2.0, 1.0]))).polytope
    assert geometry(ShapeSpec("sphere", radius=1.0, transform=np.diag([-2.0, -2.0, -2.0, 1.0]))).sweep == 2.0
    assert not geometry(ShapeSpec("sphere", radius=1.0, transform=np.diag([1.0, 2.0, 1.0, 1.0]))).polytope
    assert geometry(ShapeSpec("capsule", radius=0.5, half_height=1.0, transform=rigid(np.random.default_rng(1)))).polytope


def test_minkowski_difference_shape():
    a, b = np.zeros((3, 3)), np.ones((4, 3))
    assert minkowski_difference(a, b).shape == (12, 3)
