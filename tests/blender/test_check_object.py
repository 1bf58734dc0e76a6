"""Check Object (`collision.check_object`) on real objects: a print-in-place hinge built with bpy (three knuckles
and a pin, one object of four loose parts) lists exactly the pairs of parts closer than the scene's Clearance, a
self-crossing object (an Array modifier overlapping a cube with its copy: the evaluated state) lists its
self-intersections, and a clean object says so.  The result is mirrored for scripts and exported as a report."""
import json
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import settings
from tests.blender.scenes import make_active

N = 24
RADIAL_GAP = (0.2 - 0.15) * math.cos(math.pi / N)  # pin to bore: the aligned 24-gons' faces, parallel
AXIAL_GAP = 0.05                                    # knuckle to knuckle along the axis


def revolve(profile, n=N):
    """Vertices and quads of the closed surface of revolution of a closed (r, z) polygon (r > 0) about z."""
    angles = 2.0 * np.pi * np.arange(n) / n
    verts, faces, k = [], [], len(profile)
    for r, z in profile:
        verts += [(r * math.cos(a), r * math.sin(a), z) for a in angles]
    for i in range(k):
        j = (i + 1) % k
        for s in range(n):
            t = (s + 1) % n
            faces.append((i * n + s, i * n + t, j * n + t, j * n + s))
    return verts, faces


def hinge_object(name="Hinge"):
    """Knuckles (tubes, bore radius 0.2, outer 0.4, 0.3 long, 0.05 apart along z) on a pin of radius 0.15, one
    mesh: parts 0, 1, 2 are the knuckles from the bottom, part 3 the pin (faces in that order)."""
    pieces = [revolve([(0.2, z), (0.4, z), (0.4, z + 0.3), (0.2, z + 0.3)]) for z in (-0.5, -0.15, 0.2)]
    pin_profile = [(0.15, -0.7), (0.15, 0.7)]
    pv, pf = revolve(pin_profile)
    pf = [f for f in pf if not (f[0] >= N and f[3] < N)]  # the side only: the caps are added as n-gons
    pf += [tuple(range(N - 1, -1, -1)), tuple(range(N, 2 * N))]
    pieces.append((pv, pf))
    verts, faces = [], []
    for v, f in pieces:
        faces += [tuple(i + len(verts) for i in face) for face in f]
        verts += v
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.validate()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def listed_pairs(store):
    return {(r.part_a, r.part_b): r for r in store.records() if not r.is_self_intersection}


@pytest.mark.parametrize("clearance,expected", [
    (RADIAL_GAP - 1e-4, set()),
    (RADIAL_GAP + 1e-4, {(0, 3), (1, 3), (2, 3)}),
    (AXIAL_GAP + 1e-4, {(0, 3), (1, 3), (2, 3), (0, 1), (1, 2)}),
], ids=["below-every-gap", "above-the-pin-gap", "above-the-knuckle-gap"])
def test_hinge_lists_exactly_the_pairs_below_the_clearance(addon_modules, clearance, expected):
    obj = hinge_object()
    obj.location = (1000.0, -3.0, 2.0)  # far from the origin: the check is in world space
    make_active(obj)
    settings().clearance = clearance
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    store = addon_modules.store
    check = store.object_check()
    assert check is not None and check.parts == 4 and check.self_intersections == 0
    got = listed_pairs(store)
    assert set(got) == expected
    for (a, b), record in got.items():
        gap = RADIAL_GAP if b == 3 else AXIAL_GAP
        assert record.status.name == "SEPARATED"
        assert record.distance == pytest.approx(gap, abs=1e-6)  # float32 vertices
        c = record.contact
        np.testing.assert_allclose(np.linalg.norm(c.point_b - c.point_a), record.distance, atol=1e-9)
        assert c.point_a[0] > 999.0 and c.point_b[0] > 999.0
    assert [r.distance for r in store.records()] == sorted(r.distance for r in store.records())  # worst first
    mirror = bpy.context.window_manager.collision_inspector
    assert mirror.object_check.has_result and mirror.object_check.pairs == len(expected)
    assert mirror.object_check.clean == (not expected)
    assert {(item.part_a, item.part_b) for item in mirror.results} == expected
    if expected:
        mirror.active_index = len(expected) - 1  # choosing a row (headless: nothing to frame) keeps the list
        assert len(store.records()) == len(expected)


def test_hinge_report(addon_modules, tmp_path):
    make_active(hinge_object())
    settings().clearance = AXIAL_GAP + 1e-4
    bpy.ops.collision.check_object()
    path = tmp_path / "hinge.json"
    assert bpy.ops.collision.export_report(filepath=str(path), format="JSON") == {"FINISHED"}
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["count"] == 5
    assert {(e["part_a"], e["part_b"]) for e in report["results"]} == {(0, 3), (1, 3), (2, 3), (0, 1), (1, 2)}
    assert all(e["object_a"] == e["object_b"] == "Hinge" for e in report["results"])


def test_self_crossing_object_in_its_evaluated_state(addon_modules):
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    cube = bpy.context.active_object
    array = cube.modifiers.new("Array", "ARRAY")
    array.relative_offset_displace = (0.5, 0.3, 0.2)  # the copy overlaps the cube at a corner
    array.use_merge_vertices = False
    settings().clearance = 0.0
    make_active(cube)
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    store = addon_modules.store
    check = store.object_check()
    assert check.self_intersections > 0 and not check.clean and check.parts == 2
    rows = store.records()
    assert rows[0].is_self_intersection and len(rows[0].contact.intersection) == check.self_intersections
    # the boxes overlap in a box of (1, 1.4, 1.6): their surfaces cross round it, two edges of each length
    seg = rows[0].contact.intersection
    assert np.linalg.norm(seg[:, 1] - seg[:, 0], axis=1).sum() == pytest.approx(8.0, abs=1e-5)
    assert [(r.part_a, r.part_b, r.status.name) for r in rows[1:]] == [(0, 1, "INTERSECTING")]
    assert bpy.context.window_manager.collision_inspector.object_check.self_intersections == check.self_intersections
    cube.modifiers.remove(array)
    bpy.ops.collision.check_object()
    assert store.object_check().clean and store.records() == ()


def test_clean_object_says_so(addon_modules):
    bpy.ops.mesh.primitive_uv_sphere_add(segments=32, ring_count=16)
    settings().clearance = 0.1
    assert bpy.ops.collision.check_object() == {"FINISHED"}
    check = addon_modules.store.object_check()
    assert check.clean and check.parts == 1 and addon_modules.store.records() == ()
    mirror = bpy.context.window_manager.collision_inspector.object_check
    assert mirror.has_result and mirror.clean and mirror.self_intersections == 0


def test_a_pair_check_afterwards_drops_the_object_check(addon_modules):
    hinge = hinge_object()
    make_active(hinge)
    settings().clearance = 0.1
    bpy.ops.collision.check_object()
    assert addon_modules.store.object_check() is not None
    bpy.ops.mesh.primitive_cube_add(location=(3.0, 0.0, 0.0))
    hinge.select_set(True)
    assert bpy.ops.collision.check() == {"FINISHED"}
    assert addon_modules.store.object_check() is None
    assert not bpy.context.window_manager.collision_inspector.object_check.has_result


def test_refused_without_geometry(addon_modules):
    bpy.ops.object.empty_add()
    assert not bpy.ops.collision.check_object.poll()
    bpy.context.view_layer.objects.active = None
    assert not bpy.ops.collision.check_object.poll()


class _Layout:
    """A recording layout with `template_list` (Check Object's panel draws the list)."""

    def __new__(cls, log):
        from tests.blender.scenes import RecordingLayout

        class Layout(RecordingLayout):
            def _child(self, *_args, **_kwargs):
                return Layout(self.log)

            row = column = box = split = _child

            def template_list(self, *args, **_kwargs):
                self.log.append(("list",) + args[:1])

        return Layout(log)


def _draw(panel_class):
    log = []
    panel = type("FakePanel", (), {"layout": _Layout(log)})()
    panel_class.draw(panel, bpy.context)
    return log


def test_panel_says_clean_and_lists_rows(addon_modules):
    panel = bpy.types.VIEW3D_PT_collision_object_check
    bpy.ops.mesh.primitive_uv_sphere_add()
    settings().clearance = 0.001
    log = _draw(panel)
    assert ("operator", "collision.check_object", "Check Object") in [entry[:3] for entry in log]
    bpy.ops.collision.check_object()
    labels = [entry[1] for entry in _draw(panel) if entry[0] == "label"]
    assert "'Sphere' is clean" in labels and not any(entry[0] == "list" for entry in _draw(panel))
    make_active(hinge_object())
    settings().clearance = 0.0497
    bpy.ops.collision.check_object()
    log = _draw(panel)
    assert ("list", "COLLISION_UL_results") in log
    labels = [entry[1] for entry in log if entry[0] == "label"]
    assert "Self-intersections: 0" in labels
    # the list's rows name the parts and the distance in scene units
    ul = bpy.types.COLLISION_UL_results
    rows = []
    for index, item in enumerate(bpy.context.window_manager.collision_inspector.results):
        row_log = []
        ul.draw_item(object(), bpy.context, _Layout(row_log), None, item, 0, None, "", index)
        rows.append([entry[1] for entry in row_log if entry[0] == "label"])
    assert sorted(r[:2] for r in rows) == [["Part 0", "Part 3"], ["Part 1", "Part 3"], ["Part 2", "Part 3"]]
    assert all(r[2] == "4.9572 cm" for r in rows), rows  # (0.2 - 0.15) cos(pi / 24) = 0.049572...


def test_object_without_faces_is_reported_and_changes_nothing(addon_modules):
    make_active(hinge_object())
    settings().clearance = 0.1
    bpy.ops.collision.check_object()
    before = addon_modules.store.records()
    bpy.ops.curve.primitive_bezier_curve_add()  # no bevel: edges only
    with pytest.raises(RuntimeError, match="no faces"):
        bpy.ops.collision.check_object()
    assert addon_modules.store.records() == before


def test_live_mode_marks_check_object_rows_stale(addon, addon_modules):
    """Live mode re-checks pairs of objects; Check Object's rows (one object) go stale instead of being
    re-checked as a pair of the object with itself, and the sweep does not take them as its pair."""
    import importlib

    live = importlib.import_module(f"{addon}.operators.live")
    sweep = importlib.import_module(f"{addon}.operators.sweep")
    hinge = hinge_object()
    make_active(hinge)
    settings().clearance = 0.0497
    bpy.ops.collision.check_object()
    rows = addon_modules.store.records()
    assert len(rows) == 3
    try:
        settings().live = True
        hinge.location.x = 0.5
        bpy.context.view_layer.update()
        live.tick()
        after = addon_modules.store.records()
        assert [(r.part_a, r.part_b, r.distance) for r in after] == [(r.part_a, r.part_b, r.distance) for r in rows]
        assert all(r.is_stale for r in after)
    finally:
        settings().live = False
        live.disable()
    with pytest.raises(ValueError):
        sweep.listed_pairs()
