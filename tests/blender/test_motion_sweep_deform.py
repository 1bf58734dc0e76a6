"""The sweep over deforming meshes (shape keys, an armature, a Displace modifier), LINEAR keyframes so every
vertex path is straight between key times (or a uniform arc, for the armature) and the first contact has a closed
form: found to within 1e-3 frame also when it happens only between two sampled frames; a near miss by 1e-3 of the
size never meets; the frame is restored; the record says deformation was followed.  Each also far from the origin
and at 1/100 scale where cheap."""
import importlib
import math

import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import CUBE_FACES, mesh_object, select_pair
from tests.blender.test_motion_sweep import fcurves

FRAME_TOL = 1e-3
WIDTH, DIP = 0.002, 1e-4
PLACEMENTS = [((0.0, 0.0, 0.0), 1.0), ((2.0e4, -1.0e4, 5.0e3), 1.0), ((0.0, 0.0, 0.0), 0.01)]


def linear(owner):
    """Every key of `owner`'s action LINEAR (keyframe_insert ignores the preference for new keys)."""
    for curve in fcurves(owner.animation_data.action):
        for point in curve.keyframe_points:
            point.interpolation = "LINEAR"


def grid(n=4, half=1.0):
    step = 2.0 * half / n
    vertices = [(-half + i * step, -half + j * step, 0.0) for j in range(n + 1) for i in range(n + 1)]
    faces = [(j * (n + 1) + i, j * (n + 1) + i + 1, (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i)
             for j in range(n) for i in range(n)]
    return vertices, faces


SPIKE = 2 * 5 + 1  # the vertex at (-0.5, 0) of the 4 x 4 grid


def spiked_sheet(name, basis_tip, key_tip, values, placement):
    """A sheet whose vertex at (-0.5, 0) is at `basis_tip` in the basis and at `key_tip` in the shape key 'Pull',
    whose value is keyed LINEAR at (frame, value) pairs."""
    vertices, faces = grid()
    vertices[SPIKE] = basis_tip
    sheet = placed(mesh_object(name, vertices, faces), placement)
    sheet.shape_key_add(name="Basis")
    pull = sheet.shape_key_add(name="Pull")
    pull.data[SPIKE].co = key_tip
    for frame, value in values:
        pull.value = value
        pull.keyframe_insert("value", frame=frame)
    linear(sheet.data.shape_keys)
    return sheet


def placed(obj, placement):
    offset, scale = placement
    obj.location = offset
    obj.scale = (scale, scale, scale)
    return obj


def box(name, lo, hi, placement):
    vertices = [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    return placed(mesh_object(name, vertices, CUBE_FACES), placement)


def sweep(a, b, start, end, addon_modules):
    scene = bpy.context.scene
    scene.frame_set(3)
    select_pair(a, b)
    assert bpy.ops.collision.sweep(frame_start=start, frame_end=end) == {"FINISHED"}
    assert scene.frame_current == 3 and scene.frame_subframe == 0.0  # restored
    return addon_modules.store.sweep_record(), bpy.context.window_manager.collision_inspector.sweep


def sampled(record):
    frames = set(record.extra["sampled_frames"])
    return [s for s in record.samples if s.frame in frames]


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_spike_pulled_through_a_slab_between_frames(addon_modules, placement):
    """Keys on whole frames (10 and 11): the spike's tip goes from x = -0.5 to 0.5 through a slab 0.002 thick
    that reaches 1e-4 below it; contact from x = -0.001 (frame 10.499) for about 1/500 of a frame.  No sampled
    frame sees it."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (11, 1.0)], placement)
    block = box("Slab", (-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), placement)
    record, mirror = sweep(block, sheet, 8, 13, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record))
    assert record.first_contact_frame is not None and mirror.meets
    assert abs(record.first_contact_frame - (10.0 + 0.5 - WIDTH / 2)) <= FRAME_TOL
    assert mirror.deformation_followed and mirror.deforming == "Sheet"
    motion = importlib.import_module(addon_modules.store.__name__.replace("operators.store", "results.motion"))
    assert motion.between_samples(record) == {10.0}  # the table marks frame 10: contact only after it


def test_sheet_that_moves_and_deforms(addon_modules):
    """The sheet's location is keyed +0.5 along x between frames 10 and 11 while its spike is pulled +1 relative
    to it: the tip goes from x = -0.5 to 1.0 and meets the slab (x = -0.001) at 10 + 0.499 / 1.5."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (11, 1.0)], PLACEMENTS[0])
    for frame, x in ((10, 0.0), (11, 0.5)):
        sheet.location = (x, 0.0, 0.0)
        sheet.keyframe_insert("location", frame=frame)
    linear(sheet)
    block = box("Slab", (-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), PLACEMENTS[0])
    record, mirror = sweep(block, sheet, 8, 13, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record))
    assert abs(record.first_contact_frame - (10.0 + (0.5 - WIDTH / 2) / 1.5)) <= FRAME_TOL
    assert mirror.deformation_followed


def test_spike_rising_to_a_key_between_frames(addon_modules):
    """Keys at 10, 10.5 (between frames) and 11: the tip rises to 1/500 above a slab at z = 0.5 and falls back:
    contact from 10 + 0.5 x (1 - 1/500), 1/500 of a frame long; frames 10 and 11 show the flat sheet."""
    peak = 0.5 / (1.0 - 1.0 / 500.0)
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 0.0), (-0.5, 0.0, peak), [(10, 0.0), (10.5, 1.0), (11, 0.0)],
                         PLACEMENTS[0])
    block = box("Slab", (-0.7, -0.2, 0.5), (-0.3, 0.2, 0.8), PLACEMENTS[0])
    record, _ = sweep(block, sheet, 8, 13, addon_modules)
    assert 10.5 in record.extra["sampled_frames"]
    assert all(s.status.name == "SEPARATED" for s in sampled(record) if float(s.frame).is_integer())
    assert abs(record.first_contact_frame - (10.0 + 0.5 * 0.5 / peak)) <= FRAME_TOL


def test_contact_lasting_several_frames(addon_modules):
    """The same spike pulled over ten frames (keys 10 and 20): contact from x = -0.001, frame 14.99."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (20, 1.0)], PLACEMENTS[0])
    block = box("Slab", (-0.15, -0.3, 1.0 - DIP), (0.15, 0.3, 1.5), PLACEMENTS[0])
    record, _ = sweep(block, sheet, 8, 22, addon_modules)
    assert abs(record.first_contact_frame - (10.0 + 10.0 * (0.5 - 0.15))) <= FRAME_TOL


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_near_miss_by_a_thousandth(addon_modules, placement):
    """The slab's bottom 1e-3 above the tip's way: never meets; closest 1e-3 (x scale) with the tip under the
    slab (frames 10.499 to 10.501)."""
    scale = placement[1]
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (11, 1.0)], placement)
    block = box("Slab", (-WIDTH / 2, -0.3, 1.0 + 1e-3), (WIDTH / 2, 0.3, 1.5), placement)
    record, mirror = sweep(block, sheet, 8, 13, addon_modules)
    assert record.first_contact_frame is None and not mirror.meets
    assert abs(record.closest_distance - 1e-3 * scale) <= 1e-6 * scale
    assert abs(record.closest_frame - 10.5) <= WIDTH / 2 + FRAME_TOL


def test_rigid_box_falls_onto_a_rising_spike(addon_modules):
    """The tip rises 0.025 per frame from frame 0; a box of half 0.2 falls 0.2 per frame (bottom at
    2.8 - 0.2 t): they meet at t = 2.8 / 0.225."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 0.0), (-0.5, 0.0, 0.5), [(0, 0.0), (20, 1.0)], PLACEMENTS[0])
    block = box("Box", (-0.2, -0.2, -0.2), (0.2, 0.2, 0.2), PLACEMENTS[0])
    for frame, z in ((0, 3.0), (20, -1.0)):
        block.location = (-0.5, 0.0, z)
        block.keyframe_insert("location", frame=frame)
    linear(block)
    record, mirror = sweep(block, sheet, 0, 20, addon_modules)
    assert abs(record.first_contact_frame - 2.8 / 0.225) <= FRAME_TOL
    assert mirror.deforming == "Sheet"


@pytest.mark.parametrize("mode", ["EXACT", "HULL"])
def test_displace_modifier_lifts_a_sheet_through_a_slab(addon_modules, mode):
    """A Displace modifier (no texture: every vertex moves (1 - midlevel) x strength along its normal) whose
    strength is keyed 0 at frame 1 to 2 at frame 11: the flat sheet rises 0.1 per frame and passes a slab
    0.02 thick at z = 0.55 between frames 6 and 7: contact at 6.5, no sampled frame sees it.  In Hull mode (no
    continuous surface test) the per-vertex travel bound finds it too."""
    bpy.context.scene.collision_inspector.mode = mode
    vertices, faces = grid()
    sheet = mesh_object("Sheet", vertices, faces)
    displace = sheet.modifiers.new("Lift", "DISPLACE")
    for frame, strength in ((1, 0.0), (11, 2.0)):
        displace.strength = strength
        sheet.keyframe_insert('modifiers["Lift"].strength', frame=frame)
    linear(sheet)
    block = box("Slab", (-0.3, -0.3, 0.55), (0.3, 0.3, 0.57), PLACEMENTS[0])
    record, mirror = sweep(block, sheet, 1, 11, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record))
    assert abs(record.first_contact_frame - 6.5) <= FRAME_TOL
    assert mirror.deformation_followed


def bar_contact_angle(half_width, corners):
    """First angle (radians, anticlockwise about z) at which the leading face y' = half_width of a bar along +x
    from the pivot reaches one of the corners (x, y)."""
    return min(math.acos(half_width / math.hypot(x, y)) - math.atan2(x, y) for x, y in corners)


def test_armature_swings_a_bar_into_a_pillar(addon_modules):
    """A bar (x from 0 to 2, half 0.1 across) deformed by one bone at the origin (every vertex weighted to it)
    that turns 10 degrees per frame about z: its vertices follow arcs; a pillar of half 0.25 at (0, 1.5)."""
    arm_data = bpy.data.armatures.new("Rig")
    rig = bpy.data.objects.new("Rig", arm_data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    bone = arm_data.edit_bones.new("Swing")
    bone.head, bone.tail = (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    bpy.ops.object.mode_set(mode="OBJECT")
    vertices = [(x, y, z) for x in (0.0, 2.0) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
    bar = mesh_object("Bar", vertices, CUBE_FACES)
    group = bar.vertex_groups.new(name="Swing")
    group.add(list(range(8)), 1.0, "REPLACE")
    modifier = bar.modifiers.new("Rig", "ARMATURE")
    modifier.object = rig
    pose_bone = rig.pose.bones["Swing"]
    pose_bone.rotation_mode = "XYZ"
    for frame, angle in ((1, 0.0), (10, math.pi / 2)):
        pose_bone.rotation_euler = (0.0, angle, 0.0)  # about the bone's y axis: world z
        pose_bone.keyframe_insert("rotation_euler", frame=frame)
    linear(rig)
    pillar = box("Pillar", (-0.25, 1.25, -0.25), (0.25, 1.75, 0.25), PLACEMENTS[0])
    record, mirror = sweep(pillar, bar, 1, 10, addon_modules)
    theta = bar_contact_angle(0.1, [(x, y) for x in (-0.25, 0.25) for y in (1.25, 1.75)])
    assert abs(record.first_contact_frame - (1.0 + math.degrees(theta) / 10.0)) <= FRAME_TOL
    assert mirror.deforming == "Bar"


def test_every_listed_pair_with_a_deforming_one(addon_modules):
    """A listed rigid pair that meets at frame 12 and the spike pulled through the slab (hidden contact at
    10.499): the deforming pair meets first and is the one shown, its deformation followed."""
    from tests.blender.scenes import cube
    from tests.blender.test_motion_sweep import key

    store, checking = addon_modules.store, addon_modules.checking
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (11, 1.0)], PLACEMENTS[0])
    block = box("Slab", (-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), PLACEMENTS[0])
    a, b = cube("A", 1.0, location=(10.0, 0.0, 0.0)), cube("B", 1.0)
    key(b, "location", 8, (20.0, 0.0, 0.0))
    key(b, "location", 13, (10.0, 0.0, 0.0))  # x = 20 - 2 (t - 8): touches A (x = 12) at t = 12
    depsgraph = bpy.context.evaluated_depsgraph_get()
    store.set_records(bpy.context.window_manager,
                      [checking.check_pair(a, b, depsgraph), checking.check_pair(block, sheet, depsgraph)], 0)
    assert bpy.ops.collision.sweep(frame_start=8, frame_end=13, all_pairs=True) == {"FINISHED"}
    shown = store.sweep_record()
    assert shown.object_b == "Sheet"
    assert abs(shown.first_contact_frame - (10.0 + 0.5 - WIDTH / 2)) <= FRAME_TOL
    assert shown.extra["deformation"]["followed"]
    pairs = {p["object_b"]: p for p in shown.extra["pairs"]}
    assert abs(pairs["B"]["first_contact_frame"] - 12.0) <= FRAME_TOL
