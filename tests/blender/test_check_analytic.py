"""collision.check on real scenes against analytic answers and an independent computation.

Analytic: axis-aligned cubes placed at known positions (face contact: the separation/penetration is the gap
along the axis), a cube rotated 45 degrees (its corner reaches half*sqrt(2)), spheres (centre distance minus
radii, up to the tessellation's sagitta).  Independent: `core.collide` on world vertices that this file
reads and transforms itself with numpy (not through the add-on's reader), compared with the stored result.
"""
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, mesh_object, result, uv_sphere, world_vertices


pytestmark = pytest.mark.usefixtures("hull_mode")  # judged against the convex hulls of the vertices

CONVENTION_TOL = 1e-9


def assert_conventions(view_or_contact, status):
    c = view_or_contact
    n = np.asarray(c.normal, float)
    np.testing.assert_allclose(np.linalg.norm(n), 1.0, atol=1e-9)
    pa, pb = np.asarray(c.point_a, float), np.asarray(c.point_b, float)
    if status == "SEPARATED":
        np.testing.assert_allclose(pb - pa, c.distance * n, atol=1e-9 * max(1.0, abs(c.distance)))
    elif status == "INTERSECTING":
        np.testing.assert_allclose(pa - pb, c.depth * n, atol=1e-9 * max(1.0, c.depth))


def independent(addon_modules, a, b):
    core = addon_modules.core
    return core.collide(world_vertices(a), world_vertices(b))


@pytest.mark.parametrize("offset, expected_status, expected_distance, axis", [
    ((2.5, 0.3, -0.2), "SEPARATED", 0.5, 0),
    ((0.0, -3.25, 0.4), "SEPARATED", 1.25, 1),
    ((1.5, 0.2, 0.1), "INTERSECTING", -0.5, 0),
    ((0.3, 0.2, -1.9), "INTERSECTING", -0.1, 2),
    ((2.0, 0.5, 0.5), "TOUCHING", 0.0, 0),
])
def test_axis_aligned_cubes(addon_modules, offset, expected_status, expected_distance, axis):
    a = cube("A", 1.0)
    b = cube("B", 1.0, location=offset)
    assert check_pair(a, b) == {"FINISHED"}
    r = result()
    assert r.status == expected_status
    contact = addon_modules.store.active_contact()
    assert contact.status.name == expected_status
    # analytic: the face gap along the axis, from the float32 location Blender actually stores
    exact = abs(float(np.float32(offset[axis]))) - 2.0
    assert exact == pytest.approx(expected_distance, abs=1e-6)
    np.testing.assert_allclose(contact.distance, exact, atol=1e-9)
    expected_normal = np.zeros(3)
    expected_normal[axis] = math.copysign(1.0, offset[axis])
    if expected_status != "TOUCHING":
        np.testing.assert_allclose(contact.normal, expected_normal, atol=1e-9)
    assert_conventions(contact, expected_status)
    # the property group holds the same answer in float32
    np.testing.assert_allclose(r.distance, expected_distance, atol=1e-6)
    np.testing.assert_allclose(r.depth, max(0.0, -expected_distance) if expected_status == "INTERSECTING" else 0.0,
                               atol=1e-6)
    np.testing.assert_allclose(tuple(r.point_a), contact.point_a, atol=1e-6)
    np.testing.assert_allclose(tuple(r.point_b), contact.point_b, atol=1e-6)
    np.testing.assert_allclose(tuple(r.normal), contact.normal, atol=1e-6)
    assert (r.object_a, r.object_b) == ("A", "B")
    assert r.gjk_iterations >= 1 and r.time_ms > 0 and r.converged and not r.is_stale
    # the closest points of separated boxes lie on the facing faces
    if expected_status == "SEPARATED":
        assert contact.point_a[axis] == pytest.approx(math.copysign(1.0, offset[axis]), abs=1e-9)
        face_b = float(np.float32(offset[axis])) - math.copysign(1.0, offset[axis])
        assert contact.point_b[axis] == pytest.approx(face_b, abs=1e-9)


def test_active_object_is_a(addon_modules):
    """Swapping which object is active swaps A and B: the normal flips, the points swap."""
    a = cube("Left", 1.0)
    b = cube("Right", 0.5, location=(3.0, 0.0, 0.0))
    check_pair(a, b)
    first = addon_modules.store.active_contact()
    check_pair(b, a)
    second = addon_modules.store.active_contact()
    assert (result().object_a, result().object_b) == ("Right", "Left")
    np.testing.assert_allclose(first.distance, 1.5, atol=1e-9)
    np.testing.assert_allclose(second.distance, first.distance, atol=1e-12)
    np.testing.assert_allclose(second.normal, -first.normal, atol=1e-12)
    np.testing.assert_allclose(second.point_a, first.point_b, atol=1e-9)


def test_rotated_cube_corner(addon_modules):
    """A cube rotated 45 degrees about z reaches x = sqrt(2) with its edge; a probe cube at known x."""
    a = cube("Diamond", 1.0, rotation=(0.0, 0.0, math.radians(45.0)))
    b = cube("Probe", 0.5, location=(3.0, 0.0, 0.0))
    check_pair(a, b)
    contact = addon_modules.store.active_contact()
    expected = 2.5 - math.sqrt(2.0)
    np.testing.assert_allclose(contact.distance, expected, atol=1e-6)  # float32 rotation matrix
    np.testing.assert_allclose(contact.normal, [1.0, 0.0, 0.0], atol=1e-6)
    other = independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.distance, other.distance, atol=1e-9)


@pytest.mark.parametrize("gap", [0.4, -0.3])
def test_spheres(addon_modules, gap):
    """Two UV spheres of radius 1 and 0.5: distance = |c2 - c1| - 1.5 up to the tessellation."""
    centre_b = np.array([1.0, 2.0, -0.5])
    direction = centre_b / np.linalg.norm(centre_b)
    a = uv_sphere("Big", 1.0, location=(0.0, 0.0, 0.0))
    b = uv_sphere("Small", 0.5, location=tuple(direction * (1.5 + gap)))
    assert check_pair(a, b) == {"FINISHED"}
    contact = addon_modules.store.active_contact()
    sagitta = 1.5 * (1.0 - math.cos(math.pi / 32))  # inscribed polyhedron lies inside the sphere by at most this
    assert contact.distance == pytest.approx(gap, abs=2 * sagitta)
    assert contact.distance >= gap - 1e-9  # inscribed hulls can only be further apart / shallower
    np.testing.assert_allclose(contact.normal, direction, atol=0.08)
    other = independent(addon_modules, a, b)
    assert other.status == contact.status
    np.testing.assert_allclose(contact.distance, other.distance, atol=1e-9)
    np.testing.assert_allclose(contact.normal, other.normal, atol=1e-6)


def test_cube_inside_sphere_is_deep(addon_modules):
    """Containment (which triangle-overlap tests miss) is an intersection with the depth of the hulls."""
    a = uv_sphere("Shell", 2.0)
    b = cube("Core", 0.25, location=(0.5, 0.0, 0.0))
    check_pair(a, b)
    contact = addon_modules.store.active_contact()
    assert contact.status.name == "INTERSECTING"
    # B must move out of the shell: at least radius - 0.5 + 0.25 along +x minus tessellation slack
    assert contact.depth > 1.5
    other = independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.depth, other.depth, rtol=1e-9, atol=1e-9)


def test_point_and_open_geometry(addon_modules):
    """A single vertex is a point; a lone edge is a segment: both are valid convex shapes."""
    point = mesh_object("Point", [(3.0, 0.0, 0.0)])
    box = cube("Box", 1.0)
    check_pair(box, point)
    np.testing.assert_allclose(addon_modules.store.active_contact().distance, 2.0, atol=1e-9)
    segment = mesh_object("Segment", [(0.0, 0.0, 5.0), (0.0, 0.0, -5.0)], location=(1.5, 0.0, 0.0))
    segment_edges = segment.data
    check_pair(box, segment)
    contact = addon_modules.store.active_contact()
    np.testing.assert_allclose(contact.distance, 0.5, atol=1e-9)
    np.testing.assert_allclose(contact.normal, [1.0, 0.0, 0.0], atol=1e-9)
    assert len(segment_edges.vertices) == 2
    assert bpy.context.window_manager.collision_inspector.result.status == "SEPARATED"
