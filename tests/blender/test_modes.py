"""The three modes pressed through the real operator on real Blender scenes (issue: non-convex meshes).

Exact compares the meshes themselves; Hull their convex hulls; Loose Parts the hulls of their loose parts.  The
expected answers come from an independent reading of the evaluated meshes (a Python loop over `loop_triangles`,
not the add-on's reader) judged by the brute-force mesh oracle of tests/core/mesh_oracle.py, or from geometry
known by construction.
"""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import (CUBE_FACES, check_pair, cube_vertices, evaluated_mesh, mesh_object, result, rows_dict,
                                  select_pair)
from tests.core import mesh_oracle as oracle


def world_soup(obj) -> "oracle.Soup":
    """The evaluated mesh of `obj` as world triangles, read without the add-on."""
    with evaluated_mesh(obj) as (evaluated, mesh):
        mesh.calc_loop_triangles()
        vertices = [tuple(v.co) for v in mesh.vertices]
        triangles = [tuple(t.vertices) for t in mesh.loop_triangles]
    return oracle.soup(np.array(vertices, float), np.array(triangles, int), np.array(evaluated.matrix_world))


def check(a, b, mode):
    bpy.context.scene.collision_inspector.mode = mode
    assert check_pair(a, b) == {"FINISHED"}
    return result()


def exact_contact(addon_modules):
    return addon_modules.store.active_contact()


def torus_and_rod(rod_x=0.0):
    bpy.ops.mesh.primitive_torus_add(major_radius=1.0, minor_radius=0.25, major_segments=48, minor_segments=12)
    torus = bpy.context.active_object
    torus.name = "Torus"
    bpy.ops.mesh.primitive_cylinder_add(radius=0.3, depth=3.0, vertices=32, location=(rod_x, 0.0, 0.0))
    rod = bpy.context.active_object
    rod.name = "Rod"
    return torus, rod


def test_rod_through_the_hole_is_free_only_in_exact_mode(addon_modules):
    torus, rod = torus_and_rod()
    r = check(torus, rod, "EXACT")
    contact = exact_contact(addon_modules)
    expected = oracle.mesh_distance(world_soup(torus), world_soup(rod))
    assert r.status == "SEPARATED" and r.mode == "EXACT"
    assert expected.lower - 1e-9 * contact.scale <= contact.distance <= expected.upper + 1e-9 * contact.scale
    assert 0.3 < contact.distance < 0.45  # the hole's inner rim is at 0.75, the rod's surface at 0.3
    np.testing.assert_allclose(contact.point_b - contact.point_a, contact.distance * contact.normal, atol=1e-9)
    assert check(torus, rod, "HULL").status == "INTERSECTING"
    assert check(torus, rod, "LOOSE_PARTS").status == "INTERSECTING"  # one part, and its hull fills the hole


def test_rod_hitting_the_ring_draws_the_crossing_curve(addon_modules):
    torus, rod = torus_and_rod(rod_x=0.75)
    r = check(torus, rod, "EXACT")
    contact = exact_contact(addon_modules)
    assert r.status == "INTERSECTING" and contact.containment is None
    assert len(contact.intersection) > 8
    ends = contact.intersection.reshape(-1, 3)
    for soup in (world_soup(torus), world_soup(rod)):  # every end lies on both surfaces
        assert oracle.point_distance(soup, ends).max() <= 1e-6
    assert 0.0 < contact.depth <= addon_modules.core.collide(world_soup(torus).used, world_soup(rod).used).depth
    data = addon_modules.overlay.current_draw_data()
    assert len(data.curve) == 2 * len(contact.intersection)
    np.testing.assert_array_equal(np.reshape(data.curve, (-1, 2, 3)), contact.intersection)


def crate(name, outer=2.0, inner=1.5, **placement):
    """A closed hollow box: the outer shell facing out, the inner shell facing into the cavity."""
    vertices = cube_vertices(outer) + cube_vertices(inner)
    faces = list(CUBE_FACES) + [tuple(reversed([i + 8 for i in f])) for f in CUBE_FACES]
    return mesh_object(name, vertices, faces, **placement)


def test_box_in_a_hollow_crate(addon_modules):
    box = mesh_object("Box", cube_vertices(0.5), CUBE_FACES, location=(0.25, 0.0, 0.0))
    hollow = crate("Crate")
    r = check(hollow, box, "EXACT")
    assert r.status == "SEPARATED"
    assert exact_contact(addon_modules).distance == pytest.approx(1.5 - 0.75, abs=1e-9)
    assert check(hollow, box, "HULL").status == "INTERSECTING"


def test_solid_containment_is_named_in_words(addon_modules):
    big = mesh_object("Big", cube_vertices(2.0), CUBE_FACES)
    small = mesh_object("Small", cube_vertices(0.5), CUBE_FACES, location=(0.3, -0.2, 0.1))
    r = check(big, small, "EXACT")
    contact = exact_contact(addon_modules)
    assert r.status == "INTERSECTING" and r.containment == "B_INSIDE_A"
    assert contact.containment is addon_modules.core.Containment.B_INSIDE_A
    assert len(contact.intersection) == 0
    rows = rows_dict(addon_modules.text.readout_rows(addon_modules.store.active_record()))
    assert rows["Inside"] == "B is inside A" and rows["Mode"] == "Exact (triangles)"
    winding = oracle.winding_number(world_soup(big), contact.point_b[None, :])  # B's witness lies inside A
    assert abs(winding[0]) == pytest.approx(1.0, abs=1e-6)
    r = check(small, big, "EXACT")  # the other way round
    assert r.containment == "A_INSIDE_B"


def test_open_plane_above_a_box_is_flagged_open(addon_modules):
    box = mesh_object("Box", cube_vertices(1.0), CUBE_FACES)
    plane = mesh_object("Sheet", [(-2, -2, 0), (2, -2, 0), (2, 2, 0), (-2, 2, 0)], [(0, 1, 2, 3)],
                        location=(0.0, 0.0, 1.5))
    r = check(box, plane, "EXACT")
    assert r.status == "SEPARATED" and r.open_b and not r.open_a
    assert exact_contact(addon_modules).distance == pytest.approx(0.5, abs=1e-9)
    rows = rows_dict(addon_modules.text.readout_rows(addon_modules.store.active_record()))
    assert rows["Open mesh"].startswith("Sheet")


def test_loose_parts_see_the_gap_between_parts(addon_modules):
    """A is two cubes 4 apart (one object, two loose parts); B sits between them, 0.5 from each."""
    left = [(x - 2.0, y, z) for x, y, z in cube_vertices(1.0)]
    right = [(x + 2.0, y, z) for x, y, z in cube_vertices(1.0)]
    faces = list(CUBE_FACES) + [tuple(i + 8 for i in f) for f in CUBE_FACES]
    pair = mesh_object("Pair", left + right, faces)
    middle = mesh_object("Middle", cube_vertices(0.5), CUBE_FACES)
    assert check(pair, middle, "HULL").status == "INTERSECTING"
    r = check(pair, middle, "LOOSE_PARTS")
    assert r.status == "SEPARATED" and r.distance == pytest.approx(0.5, abs=1e-6)
    assert exact_contact(addon_modules).distance == pytest.approx(0.5, abs=1e-9)
    assert check(pair, middle, "EXACT").status == "SEPARATED"
    assert exact_contact(addon_modules).distance == pytest.approx(0.5, abs=1e-9)


def test_ball_in_a_solidified_cup(addon_modules):
    bpy.ops.mesh.primitive_cylinder_add(radius=1.0, depth=2.0, vertices=48, end_fill_type="NGON")
    cup = bpy.context.active_object
    cup.name = "Cup"
    import bmesh

    bm = bmesh.new()  # an open-top tube with a floor: remove the top cap, then give it thickness
    bm.from_mesh(cup.data)
    bmesh.ops.delete(bm, geom=[f for f in bm.faces if len(f.verts) > 4 and f.calc_center_median().z > 0.0],
                     context="FACES_ONLY")
    bm.to_mesh(cup.data)
    bm.free()
    solidify = cup.modifiers.new("Solidify", "SOLIDIFY")
    solidify.thickness = 0.1
    solidify.offset = 1.0  # outwards: the inside stays at radius 1
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0.1, 0.0, -0.2), segments=32, ring_count=16)
    ball = bpy.context.active_object
    ball.name = "Ball"
    r = check(cup, ball, "EXACT")
    contact = exact_contact(addon_modules)
    expected = oracle.mesh_distance(world_soup(cup), world_soup(ball))
    assert r.status == "SEPARATED"
    assert expected.lower - 1e-9 * contact.scale <= contact.distance <= expected.upper + 1e-9 * contact.scale
    assert check(cup, ball, "HULL").status == "INTERSECTING"


def test_a_curve_without_faces_is_refused_in_exact_mode_and_works_as_a_hull(addon_modules):
    box = mesh_object("Box", cube_vertices(1.0), CUBE_FACES)
    wire = mesh_object("Wire", [(3.0, 0.0, 0.0), (4.0, 1.0, 0.0)], [], )
    wire.data.edges.add(1)
    wire.data.edges[0].vertices = (0, 1)
    assert check(box, wire, "HULL").status == "SEPARATED"
    bpy.context.scene.collision_inspector.mode = "EXACT"
    select_pair(box, wire)
    with pytest.raises(RuntimeError, match="has no faces"):
        bpy.ops.collision.check()
    assert result().mode == "HULL"  # the previous result is kept
