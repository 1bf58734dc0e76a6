"""Which objects a scene check sees: groups A x B, visibility, instances, linked duplicates, too few objects."""
import itertools

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from mathutils import Matrix

from tests.blender.scene_builders import empty, listed, new_collection, reference, settings
from tests.blender.scenes import cube, execute_directly, world_vertices


def _row_of_cubes(prefix, count, y=0.0, step=1.5):
    """Cubes of half-size 1 along x, `step` apart: each overlaps its neighbour (and only it)."""
    return [cube(f"{prefix}{i}", location=(i * step, y, 0.0)) for i in range(count)]


def test_groups_a_against_b_only(addon_modules):
    a = _row_of_cubes("A", 3)
    b = _row_of_cubes("B", 3, y=1.0)  # every B overlaps the A cubes beside it
    new_collection("GA", a)
    new_collection("GB", b)
    settings().group_a = bpy.data.collections["GA"]
    settings().group_b = bpy.data.collections["GB"]
    assert bpy.ops.collision.check_all(scope="GROUPS") == {"FINISHED"}
    pairs = [(x.name, y.name) for x in a for y in b]
    expected = reference(addon_modules.core, a + b, pairs=pairs)
    got = listed(addon_modules.store)
    assert set(got) == set(expected) and expected
    assert all(r.object_a.startswith("A") and r.object_b.startswith("B") for r in addon_modules.store.records())


def test_group_a_alone_checks_every_pair_within_it(addon_modules):
    a = _row_of_cubes("A", 4)
    outsider = cube("Outsider", location=(1.0, 0.5, 0.0))  # overlaps A0 and A1, but is not in the group
    new_collection("GA", a)
    settings().group_a = bpy.data.collections["GA"]
    bpy.ops.collision.check_all(scope="GROUPS")
    expected = reference(addon_modules.core, a)
    assert set(listed(addon_modules.store)) == set(expected) and len(expected) == 3
    assert all(outsider.name not in key for key in listed(addon_modules.store))


def test_object_in_both_groups_is_never_paired_with_itself(addon_modules):
    a = _row_of_cubes("A", 3)
    new_collection("GA", a)
    gb = new_collection("GB")
    gb.objects.link(a[1])  # A1 is in both groups
    settings().group_a = bpy.data.collections["GA"]
    settings().group_b = gb
    bpy.ops.collision.check_all(scope="GROUPS")
    keys = set(listed(addon_modules.store))
    assert keys == {frozenset(("A0", "A1")), frozenset(("A1", "A2"))}
    assert all(len(k) == 2 for k in keys)


def test_groups_without_group_a_is_refused():
    cube("A")
    cube("B")
    returned, reports = execute_directly("COLLISION_OT_check_all", scope="GROUPS")
    assert returned == {"CANCELLED"} and reports[0][0] == {"ERROR"} and "Group A" in reports[0][1]


def test_group_in_an_excluded_child_collection_is_left_out(addon_modules):
    a = _row_of_cubes("A", 3)
    ga = new_collection("GA", a[:2])
    child = new_collection("Child", a[2:], parent=ga)
    bpy.context.view_layer.layer_collection.children["GA"].children["Child"].exclude = True
    settings().group_a = ga
    bpy.ops.collision.check_all(scope="GROUPS")
    assert set(listed(addon_modules.store)) == {frozenset(("A0", "A1"))}
    assert child.objects[0].name == "A2"


def test_visible_leaves_out_hidden_disabled_and_excluded(addon_modules):
    base = cube("Base", half=2.0)
    visible = cube("Visible", location=(1.0, 0.0, 0.0))
    hidden = cube("Hidden", location=(0.0, 1.0, 0.0))
    disabled = cube("Disabled", location=(0.0, -1.0, 0.0))
    excluded = cube("Excluded", location=(-1.0, 0.0, 0.0))
    new_collection("Away", [excluded])
    bpy.context.view_layer.layer_collection.children["Away"].exclude = True
    hidden.hide_set(True)
    disabled.hide_viewport = True
    bpy.ops.collision.check_all(scope="VISIBLE")
    assert set(listed(addon_modules.store)) == {frozenset(("Base", "Visible"))}
    assert base and visible


def test_objects_without_geometry_are_skipped_and_counted(addon_modules):
    cube("A")
    cube("B", location=(1.0, 0.0, 0.0))
    empty("Empty")
    bpy.data.objects.new("NoVerts", bpy.data.meshes.new("NoVerts"))
    bpy.context.scene.collection.objects.link(bpy.data.objects["NoVerts"])
    returned, reports = execute_directly("COLLISION_OT_check_all", scope="VISIBLE")
    assert returned == {"FINISHED"}, reports
    assert "2 without geometry skipped" in reports[-1][1], reports
    assert set(listed(addon_modules.store)) == {frozenset(("A", "B"))}


@pytest.mark.parametrize("count", [0, 1])
def test_too_few_objects_is_a_clear_message_and_changes_nothing(addon_modules, count):
    a, b = cube("P"), cube("Q", location=(1.0, 0.0, 0.0))
    bpy.ops.collision.check_all(scope="VISIBLE")
    before = addon_modules.store.records()
    assert len(before) == 1
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    if count:
        a.select_set(True)
    returned, reports = execute_directly("COLLISION_OT_check_all", scope="SELECTED")
    assert returned == {"CANCELLED"}
    assert reports == [({"WARNING"}, f"Nothing to check: {count} object{'s' if count != 1 else ''} with geometry "
                                     f"selected (need 2)")]
    assert addon_modules.store.records() == before
    assert bpy.ops.collision.check_all(scope="SELECTED") == {"CANCELLED"}
    assert b.name == "Q"


def _instance_world(instancer, source):
    collection = instancer.instance_collection
    offset = Matrix.Translation(-collection.instance_offset)
    matrix = np.array(instancer.matrix_world @ offset @ source.matrix_world, dtype=np.float64)
    local = np.array([tuple(v.co) for v in source.data.vertices], dtype=np.float64)
    return local @ matrix[:3, :3].T + matrix[:3, 3]


def test_collection_instances_are_entries_named_after_their_instancer(addon_modules):
    core = addon_modules.core
    src_a = cube("PartA", half=0.5)
    src_b = cube("PartB", half=0.5, location=(3.0, 0.0, 0.0))
    source = new_collection("Assembly", [src_a, src_b])
    bpy.context.view_layer.layer_collection.children["Assembly"].exclude = True
    single = new_collection("Single", [cube("Lone", half=0.5)])
    bpy.context.view_layer.layer_collection.children["Single"].exclude = True
    instancers = []
    for name, location, collection in (("Inst1", (0.0, 0.0, 0.0), source), ("Inst2", (0.6, 0.3, 0.0), source),
                                       ("Inst3", (3.4, 0.0, 0.2), single)):
        obj = empty(name, location)
        obj.instance_type = "COLLECTION"
        obj.instance_collection = collection
        instancers.append(obj)
    wall = cube("Wall", half=0.5, location=(3.0, 2.0, 0.0))  # touches no instance ... yet
    wall.location = (3.0, 0.9, 0.0)  # now overlaps Inst1/PartB and Inst2/PartB
    bpy.context.view_layer.update()
    bpy.ops.collision.check_all(scope="VISIBLE")
    world = {"Wall": world_vertices(wall)}
    for inst in instancers[:2]:
        for part in (src_a, src_b):
            world[f"{inst.name}/{part.name}"] = _instance_world(inst, part)
    world["Inst3"] = _instance_world(instancers[2], single.objects[0])
    expected = set()
    for x, y in itertools.combinations(world, 2):
        if core.collide(world[x], world[y]).status.name != "SEPARATED":
            expected.add(frozenset((x, y)))
    got = listed(addon_modules.store)
    assert set(got) == expected
    assert frozenset(("Inst1/PartB", "Wall")) in expected and frozenset(("Inst3", "Inst2/PartB")) in expected
    record = got[frozenset(("Inst1/PartB", "Wall"))]
    identities = {record.identity_a, record.identity_b}
    assert addon_modules.reading.object_identity(instancers[0]) in identities  # follows the instancer


def test_linked_duplicates_are_separate_entries(addon_modules):
    a = cube("Orig")
    dup = a.copy()  # shares the mesh datablock
    dup.name = "Dup"
    dup.location = (1.0, 0.5, 0.0)
    bpy.context.scene.collection.objects.link(dup)
    far = a.copy()
    far.name = "Far"
    far.location = (10.0, 0.0, 0.0)
    bpy.context.scene.collection.objects.link(far)
    assert dup.data == a.data
    bpy.ops.collision.check_all(scope="VISIBLE")
    expected = reference(addon_modules.core, [a, dup, far])
    assert set(listed(addon_modules.store)) == set(expected) == {frozenset(("Orig", "Dup"))}


def test_groups_include_hidden_members_visible_does_not(addon_modules):
    """Groups name their objects explicitly: a member hidden in the viewport (eye icon) is still checked; the
    Visible scope leaves it out."""
    a = _row_of_cubes("A", 3)
    a[1].hide_set(True)
    new_collection("GA", a)
    settings().group_a = bpy.data.collections["GA"]
    bpy.ops.collision.check_all(scope="GROUPS")
    assert set(listed(addon_modules.store)) == {frozenset(("A0", "A1")), frozenset(("A1", "A2"))}
    assert bpy.ops.collision.check_all(scope="VISIBLE") == {"FINISHED"}
    assert addon_modules.store.records() == ()  # A0 and A2 are 1 apart; A1 is hidden


def test_selected_instancer_brings_its_instances(addon_modules):
    part = cube("Part", half=0.5)
    source = new_collection("Src", [part])
    bpy.context.view_layer.layer_collection.children["Src"].exclude = True
    instancer = empty("Inst", (0.0, 0.0, 0.0))
    instancer.instance_type = "COLLECTION"
    instancer.instance_collection = source
    wall = cube("Wall", half=0.5, location=(0.9, 0.0, 0.0))
    cube("Other", half=0.5, location=(-0.9, 0.0, 0.0))  # clashes with the instance, but is not selected
    bpy.context.view_layer.update()
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj in (instancer, wall))
    bpy.ops.collision.check_all(scope="SELECTED")
    assert set(listed(addon_modules.store)) == {frozenset(("Inst", "Wall"))}


def test_an_object_instanced_twice_by_one_instancer_gets_two_names(addon_modules):
    part = cube("Part", half=0.5)
    inner = new_collection("Inner", [part])
    outer = new_collection("Outer")
    for name, x in (("Sub1", 0.0), ("Sub2", 0.6)):  # two instances of Inner inside Outer, overlapping
        sub = empty(name, (x, 0.0, 0.0))
        sub.instance_type = "COLLECTION"
        sub.instance_collection = inner
        for owner in list(sub.users_collection):
            owner.objects.unlink(sub)
        outer.objects.link(sub)
    for name in ("Inner", "Outer"):
        bpy.context.view_layer.layer_collection.children[name].exclude = True
    top = empty("Top", (10.0, 0.0, 0.0))
    top.instance_type = "COLLECTION"
    top.instance_collection = outer
    bpy.context.view_layer.update()
    bpy.ops.collision.check_all(scope="VISIBLE")
    names = {name for key in listed(addon_modules.store) for name in key}
    assert names == {"Top/Part", "Top/Part #2"}
