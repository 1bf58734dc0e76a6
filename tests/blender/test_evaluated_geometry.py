"""The check sees what the viewport shows: modifiers, shape keys, transforms, parents, far coordinates and
non-mesh objects.  Expected values are analytic where the geometry is known, else `core.collide` on world
vertices read and transformed independently (tests/blender/scenes.py:world_vertices)."""
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, mesh_object, result, select_pair, world_vertices


pytestmark = pytest.mark.usefixtures("hull_mode")  # judged against the convex hulls of the vertices


def contact_of(addon_modules):
    contact = addon_modules.store.active_contact()
    assert contact is not None
    return contact


def assert_matches_independent(addon_modules, a, b):
    contact = contact_of(addon_modules)
    other = addon_modules.core.collide(world_vertices(a), world_vertices(b))
    assert contact.status == other.status
    np.testing.assert_allclose(contact.distance, other.distance, atol=1e-9 * max(1.0, other.scale))
    return contact


# ----------------------------------------------------------------------------------------------- modifiers

def test_subdivision_modifier_shrinks_the_hull(addon_modules):
    """Catmull-Clark pulls a cube's corners in: a probe at the base cube's face is separated from the result."""
    a = cube("Smooth", 1.0)
    modifier = a.modifiers.new("Subdiv", "SUBSURF")
    modifier.levels = 2
    b = cube("Probe", 0.5, location=(1.5, 0.0, 0.0))  # touches the *base* cube's face x = 1
    check_pair(a, b)
    contact = assert_matches_independent(addon_modules, a, b)
    assert contact.status.name == "SEPARATED"
    depsgraph = bpy.context.evaluated_depsgraph_get()
    assert addon_modules.store.active_record().vertex_count_a == len(a.evaluated_get(depsgraph).data.vertices) > 8
    # the subdivided cube's face centre stays at x = 5/6 for level 2? not analytic: bound it instead
    assert 0.0 < contact.distance < 0.25


def test_array_modifier(addon_modules):
    """Three cubes of half 1 at relative offset 1 span x in [-1, 5]."""
    a = cube("Row", 1.0)
    modifier = a.modifiers.new("Array", "ARRAY")
    modifier.count = 3
    b = cube("Probe", 0.5, location=(6.5, 0.0, 0.0))
    check_pair(a, b)
    contact = assert_matches_independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.distance, 1.0, atol=1e-9)
    np.testing.assert_allclose(contact.normal, [1.0, 0.0, 0.0], atol=1e-9)


def test_solidify_modifier(addon_modules):
    """A plane at z = 0 solidified by 0.5 downwards (offset -1) spans z in [-0.5, 0]."""
    plane = mesh_object("Sheet", [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)], [(0, 1, 2, 3)])
    modifier = plane.modifiers.new("Solidify", "SOLIDIFY")
    modifier.thickness = 0.5
    modifier.offset = -1.0
    b = cube("Probe", 0.25, location=(0.0, 0.0, -1.0))  # spans z in [-1.25, -0.75]
    check_pair(plane, b)
    contact = assert_matches_independent(addon_modules, plane, b)
    np.testing.assert_allclose(contact.distance, 0.25, atol=1e-6)
    np.testing.assert_allclose(contact.normal, [0.0, 0.0, -1.0], atol=1e-9)


def test_shape_key(addon_modules):
    """A shape key moving every vertex up by 3 (value 1) puts the cube at z in [2, 4]."""
    a = cube("Keyed", 1.0)
    a.shape_key_add(name="Basis")
    key = a.shape_key_add(name="Up")
    for point in key.data:
        point.co.z += 3.0
    key.value = 1.0
    b = cube("Probe", 0.5, location=(0.0, 0.0, 5.0))
    check_pair(a, b)
    contact = assert_matches_independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.distance, 0.5, atol=1e-6)
    key.value = 0.0
    check_pair(a, b)
    np.testing.assert_allclose(contact_of(addon_modules).distance, 3.5, atol=1e-6)


# ----------------------------------------------------------------------------------------------- transforms

def test_non_uniform_scale(addon_modules):
    a = cube("Long", 1.0, scale=(3.0, 1.0, 0.5))  # x in [-3, 3], z in [-0.5, 0.5]
    b = cube("Probe", 0.5, location=(4.0, 0.0, 0.0))
    check_pair(a, b)
    np.testing.assert_allclose(contact_of(addon_modules).distance, 0.5, atol=1e-6)
    b.location = (0.0, 0.0, 1.5)
    check_pair(a, b)
    contact = assert_matches_independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.distance, 0.5, atol=1e-6)
    np.testing.assert_allclose(contact.normal, [0.0, 0.0, 1.0], atol=1e-6)


def test_negative_scale(addon_modules):
    """A mirrored (negatively scaled) object: same hull, same distance; normals and points stay consistent."""
    a = mesh_object("Wedge", [(0, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1)], [(0, 1, 2), (0, 3, 1), (0, 2, 3), (1, 3, 2)],
                    scale=(-1.0, 1.0, 1.0))  # occupies x in [-2, 0]
    b = cube("Probe", 0.5, location=(-3.0, 0.25, 0.25))
    check_pair(a, b)
    contact = assert_matches_independent(addon_modules, a, b)
    np.testing.assert_allclose(contact.distance, 0.5, atol=1e-6)
    np.testing.assert_allclose(contact.normal, [-1.0, 0.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(contact.point_a[0], -2.0, atol=1e-6)


def test_parented_object(addon_modules):
    parent = cube("Parent", 0.1, location=(10.0, 0.0, 0.0), rotation=(0.0, 0.0, math.radians(90.0)))
    child = cube("Child", 1.0, location=(2.0, 0.0, 0.0))
    child.parent = parent  # world: parent's rotation maps local x to world y -> centre (10, 2, 0)
    bpy.context.view_layer.update()
    b = cube("Probe", 1.0, location=(10.0, 5.0, 0.0))
    check_pair(child, b)
    contact = assert_matches_independent(addon_modules, child, b)
    np.testing.assert_allclose(contact.distance, 1.0, atol=1e-5)
    np.testing.assert_allclose(contact.normal, [0.0, 1.0, 0.0], atol=1e-5)


@pytest.mark.parametrize("far", [1e4, 1e5])
@pytest.mark.parametrize("gap", [0.5, -0.25, 1e-3])
def test_far_from_origin(addon_modules, far, gap):
    """Two unit cubes near (far, far, 0).  The expected gap comes from the float32 location Blender stores (at 1e5
    a 1 mm gap rounds to 0: touching); the answer keeps full precision (pair-local frame in the engine)."""
    a = cube("FarA", 1.0, location=(far, far, 0.0))
    b = cube("FarB", 1.0, location=(far + 2.0 + gap, far, 0.0))
    check_pair(a, b)
    contact = contact_of(addon_modules)
    exact = float(np.float32(far + 2.0 + gap)) - far - 2.0
    np.testing.assert_allclose(contact.distance, exact, atol=1e-9)
    np.testing.assert_allclose(contact.normal, [1.0, 0.0, 0.0], atol=1e-9)
    expected = "INTERSECTING" if exact < 0 else "SEPARATED" if exact > 0 else "TOUCHING"
    assert contact.status.name == expected


# ----------------------------------------------------------------------------------------------- non-mesh objects

def test_poly_curve(addon_modules):
    """A poly curve without bevel evaluates to its points: the segment (0,0,3)-(0,0,-3) at x = 2."""
    curve = bpy.data.curves.new("Rail", "CURVE")
    curve.dimensions = "3D"
    spline = curve.splines.new("POLY")
    spline.points.add(1)
    spline.points[0].co = (2.0, 0.0, 3.0, 1.0)
    spline.points[1].co = (2.0, 0.0, -3.0, 1.0)
    rail = bpy.data.objects.new("Rail", curve)
    bpy.context.scene.collection.objects.link(rail)
    box = cube("Box", 1.0)
    check_pair(box, rail)
    contact = assert_matches_independent(addon_modules, box, rail)
    np.testing.assert_allclose(contact.distance, 1.0, atol=1e-6)
    np.testing.assert_allclose(contact.normal, [1.0, 0.0, 0.0], atol=1e-6)


def test_bevelled_bezier_curve(addon_modules):
    bpy.ops.curve.primitive_bezier_circle_add(radius=1.0, location=(0.0, 0.0, 0.0))
    ring = bpy.context.active_object
    ring.data.bevel_depth = 0.2
    b = cube("Probe", 0.5, location=(0.0, 0.0, 1.0))
    check_pair(ring, b)
    contact = assert_matches_independent(addon_modules, ring, b)
    # the tube's top is at z = 0.2 (up to the bevel's tessellation)
    assert contact.distance == pytest.approx(0.3, abs=0.02)


def test_text_object(addon_modules):
    bpy.ops.object.text_add(location=(0.0, 0.0, 0.0))
    text = bpy.context.active_object
    text.data.body = "Hi"
    text.data.extrude = 0.1
    b = cube("Probe", 0.5, location=(0.3, 0.3, 2.0))
    check_pair(text, b)
    contact = assert_matches_independent(addon_modules, text, b)
    assert contact.status.name == "SEPARATED"
    np.testing.assert_allclose(contact.distance, 1.4, atol=1e-5)  # extruded glyphs reach z = 0.1


def test_metaball(addon_modules):
    bpy.ops.object.metaball_add(type="BALL", radius=2.0, location=(0.0, 0.0, 0.0))
    ball = bpy.context.active_object
    b = cube("Probe", 0.5, location=(5.0, 0.0, 0.0))
    check_pair(ball, b)
    contact = assert_matches_independent(addon_modules, ball, b)
    assert contact.status.name == "SEPARATED"
    assert 0.0 < contact.distance < 4.5


def test_nurbs_surface(addon_modules):
    bpy.ops.surface.primitive_nurbs_surface_sphere_add(radius=1.0, location=(0.0, 0.0, 0.0))
    sphere = bpy.context.active_object
    b = cube("Probe", 0.5, location=(0.0, 3.0, 0.0))
    check_pair(sphere, b)
    contact = assert_matches_independent(addon_modules, sphere, b)
    assert contact.distance == pytest.approx(1.5, abs=0.05)
    select_pair(sphere, b)
    assert result().status == "SEPARATED"


def test_edit_mode_object_uses_its_edit_mesh(addon_modules):
    """In Edit Mode the evaluated object reflects the edit mesh (not the last saved mesh data)."""
    a = cube("Edited", 1.0)
    b = cube("Probe", 0.5, location=(3.0, 0.0, 0.0))
    for obj in (a, b):
        obj.select_set(obj == a)
    bpy.context.view_layer.objects.active = a
    bpy.ops.object.mode_set(mode="EDIT")  # only A in Edit Mode
    try:
        bpy.ops.mesh.select_all(action="SELECT")
        bpy.ops.transform.translate(value=(1.0, 0.0, 0.0))
        assert check_pair(a, b) == {"FINISHED"}
        np.testing.assert_allclose(contact_of(addon_modules).distance, 0.5, atol=1e-6)
    finally:
        bpy.ops.object.mode_set(mode="OBJECT")
