"""The sweep over deforming meshes (shape keys, an armature, a Displace and a Wave modifier), LINEAR keyframes so
every vertex path is straight between key times (or a uniform arc, for the armature; a Gaussian crest in time,
for the Wave) and the first contact has a closed form: found to within 1e-3 frame also when it happens only
between two sampled frames; a near miss by 1e-3 of the size never meets; the frame is restored; the record says
deformation was followed.  Every scene also far from the origin and at 1/100 scale.  Key times reached through
NLA strips, drivers and constraints are sampled."""
import dataclasses
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


def at(placement, point):
    """A point of the unplaced scene where `placed` puts it."""
    offset, scale = placement
    return tuple(o + scale * p for o, p in zip(offset, point))


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


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_sheet_that_moves_and_deforms(addon_modules, placement):
    """The sheet's location is keyed +0.5 along x between frames 10 and 11 while its spike is pulled +1 relative
    to it: the tip goes from x = -0.5 to 1.0 and meets the slab (x = -0.001) at 10 + 0.499 / 1.5."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (11, 1.0)], placement)
    for frame, x in ((10, 0.0), (11, 0.5)):
        sheet.location = at(placement, (x, 0.0, 0.0))
        sheet.keyframe_insert("location", frame=frame)
    linear(sheet)
    block = box("Slab", (-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), placement)
    record, mirror = sweep(block, sheet, 8, 13, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record))
    assert abs(record.first_contact_frame - (10.0 + (0.5 - WIDTH / 2) / 1.5)) <= FRAME_TOL
    assert mirror.deformation_followed


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_spike_rising_to_a_key_between_frames(addon_modules, placement):
    """Keys at 10, 10.5 (between frames) and 11: the tip rises to 1/500 above a slab at z = 0.5 and falls back:
    contact from 10 + 0.5 x (1 - 1/500), 1/500 of a frame long; frames 10 and 11 show the flat sheet."""
    peak = 0.5 / (1.0 - 1.0 / 500.0)
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 0.0), (-0.5, 0.0, peak), [(10, 0.0), (10.5, 1.0), (11, 0.0)],
                         placement)
    block = box("Slab", (-0.7, -0.2, 0.5), (-0.3, 0.2, 0.8), placement)
    record, _ = sweep(block, sheet, 8, 13, addon_modules)
    assert 10.5 in record.extra["sampled_frames"]
    assert all(s.status.name == "SEPARATED" for s in sampled(record) if float(s.frame).is_integer())
    assert abs(record.first_contact_frame - (10.0 + 0.5 * 0.5 / peak)) <= FRAME_TOL


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_contact_lasting_several_frames(addon_modules, placement):
    """The same spike pulled over ten frames (keys 10 and 20): contact from x = -0.001, frame 14.99."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 1.0), (0.5, 0.0, 1.0), [(10, 0.0), (20, 1.0)], placement)
    block = box("Slab", (-0.15, -0.3, 1.0 - DIP), (0.15, 0.3, 1.5), placement)
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


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_rigid_box_falls_onto_a_rising_spike(addon_modules, placement):
    """The tip rises 0.025 per frame from frame 0; a box of half 0.2 falls 0.2 per frame (bottom at
    2.8 - 0.2 t): they meet at t = 2.8 / 0.225."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 0.0), (-0.5, 0.0, 0.5), [(0, 0.0), (20, 1.0)], placement)
    block = box("Box", (-0.2, -0.2, -0.2), (0.2, 0.2, 0.2), placement)
    for frame, z in ((0, 3.0), (20, -1.0)):
        block.location = at(placement, (-0.5, 0.0, z))
        block.keyframe_insert("location", frame=frame)
    linear(block)
    record, mirror = sweep(block, sheet, 0, 20, addon_modules)
    assert abs(record.first_contact_frame - 2.8 / 0.225) <= FRAME_TOL
    assert mirror.deforming == "Sheet"


@pytest.mark.parametrize("mode, placement", [("EXACT", p) for p in PLACEMENTS] + [("HULL", PLACEMENTS[0])])
def test_displace_modifier_lifts_a_sheet_through_a_slab(addon_modules, mode, placement):
    """A Displace modifier (no texture: every vertex moves (1 - midlevel) x strength along its normal) whose
    strength is keyed 0 at frame 1 to 2 at frame 11: the flat sheet rises 0.1 per frame and passes a slab
    0.02 thick at z = 0.55 between frames 6 and 7: contact at 6.5, no sampled frame sees it.  In Hull mode (no
    continuous surface test) the per-vertex travel bound finds it too."""
    bpy.context.scene.collision_inspector.mode = mode
    vertices, faces = grid()
    sheet = placed(mesh_object("Sheet", vertices, faces), placement)
    displace = sheet.modifiers.new("Lift", "DISPLACE")
    for frame, strength in ((1, 0.0), (11, 2.0)):
        displace.strength = strength
        sheet.keyframe_insert('modifiers["Lift"].strength', frame=frame)
    linear(sheet)
    block = box("Slab", (-0.3, -0.3, 0.55), (0.3, 0.3, 0.57), placement)
    record, mirror = sweep(block, sheet, 1, 11, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record))
    assert abs(record.first_contact_frame - 6.5) <= FRAME_TOL
    assert mirror.deformation_followed


WAVE_OFFSET, WAVE_SPEED, WAVE_WIDTH, WAVE_NARROW, WAVE_HEIGHT = 10.3, 0.25, 1.5, 1.5, 0.5


def wave_crest(frame):
    """Height of the Wave modifier's crest at its start point (the sheet's centre vertex) at a time: a Gaussian
    of the distance travelled, 0 beyond the wave's width, minus the Gaussian's value at the width."""
    travelled = (frame - WAVE_OFFSET) * WAVE_SPEED
    if abs(travelled) >= WAVE_WIDTH:
        return 0.0
    floor = math.exp(-(WAVE_WIDTH * WAVE_NARROW) ** 2)
    return WAVE_HEIGHT * (math.exp(-(travelled * WAVE_NARROW) ** 2) - floor)


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_wave_modifier_crest_grazes_a_slab_between_frames(addon_modules, placement):
    """A Wave modifier (not cyclic, no keys: it is animated by the scene time itself) whose crest starts at the
    sheet's centre and peaks there at frame 10.3; a small slab above the centre, its bottom at the crest's height
    at frame 10.2: contact from 10.2 to 10.4, between frames 10 and 11, on a curved vertex path (a Gaussian in
    time).  Around the centre the rest of the sheet is lower: the first contact is the centre vertex's."""
    vertices, faces = grid()
    sheet = placed(mesh_object("Sheet", vertices, faces), placement)
    wave = sheet.modifiers.new("Wave", "WAVE")
    wave.use_cyclic = False
    wave.time_offset, wave.speed, wave.width = WAVE_OFFSET, WAVE_SPEED, WAVE_WIDTH
    wave.narrowness, wave.height = WAVE_NARROW, WAVE_HEIGHT
    bottom = wave_crest(10.2)
    assert wave_crest(10.0) < bottom - 1e-3 and wave_crest(11.0) < bottom - 1e-3 and wave_crest(10.3) > bottom
    block = box("Slab", (-0.1, -0.1, bottom), (0.1, 0.1, bottom + 0.2), placement)
    record, mirror = sweep(block, sheet, 8, 13, addon_modules)
    assert all(s.status.name == "SEPARATED" for s in sampled(record) if s.frame <= 11.0)
    assert abs(record.first_contact_frame - 10.2) <= FRAME_TOL
    assert mirror.deformation_followed and mirror.deforming == "Sheet"


def bar_contact_angle(half_width, corners):
    """First angle (radians, anticlockwise about z) at which the leading face y' = half_width of a bar along +x
    from the pivot reaches one of the corners (x, y)."""
    return min(math.acos(half_width / math.hypot(x, y)) - math.atan2(x, y) for x, y in corners)


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_armature_swings_a_bar_into_a_pillar(addon_modules, placement):
    """A bar (x from 0 to 2, half 0.1 across) deformed by one bone at the origin (every vertex weighted to it)
    that turns 10 degrees per frame about z: its vertices follow arcs; a pillar of half 0.25 at (0, 1.5).  The
    rig, the bar and the pillar are placed alike."""
    arm_data = bpy.data.armatures.new("Rig")
    rig = placed(bpy.data.objects.new("Rig", arm_data), placement)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    bone = arm_data.edit_bones.new("Swing")
    bone.head, bone.tail = (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    bpy.ops.object.mode_set(mode="OBJECT")
    vertices = [(x, y, z) for x in (0.0, 2.0) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
    bar = placed(mesh_object("Bar", vertices, CUBE_FACES), placement)
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
    pillar = box("Pillar", (-0.25, 1.25, -0.25), (0.25, 1.75, 0.25), placement)
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


def spike_to_slab(placement=PLACEMENTS[0]):
    """The sheet whose spike rises to 1/500 above a slab at z = 0.5 when its shape key 'Pull' is at 1 (as in
    `test_spike_rising_to_a_key_between_frames`), with no keys yet, and the slab."""
    peak = 0.5 / (1.0 - 1.0 / 500.0)
    vertices, faces = grid()
    vertices[SPIKE] = (-0.5, 0.0, 0.0)
    sheet = placed(mesh_object("Sheet", vertices, faces), placement)
    sheet.shape_key_add(name="Basis")
    pull = sheet.shape_key_add(name="Pull")
    pull.data[SPIKE].co = (-0.5, 0.0, peak)
    block = box("Slab", (-0.7, -0.2, 0.5), (-0.3, 0.2, 0.8), placement)
    return sheet, pull, block, 10.0 + 0.5 * 0.5 / peak


def test_a_key_between_frames_reached_through_an_nla_strip(addon_modules):
    """The shape key's action (keys 0, 0.5, 1: up to the peak and back) is not assigned but played by an NLA
    strip starting at frame 10: its middle key lands at 10.5, between frames, and is sampled."""
    sheet, pull, block, contact = spike_to_slab()
    keys = sheet.data.shape_keys
    for frame, value in ((0, 0.0), (0.5, 1.0), (1, 0.0)):
        pull.value = value
        pull.keyframe_insert("value", frame=frame)
    linear(keys)
    action = keys.animation_data.action
    keys.animation_data.action = None
    track = keys.animation_data.nla_tracks.new()
    strip = track.strips.new("Pull", 10, action)
    assert abs(strip.frame_end - 11.0) < 1e-6
    record, _ = sweep(block, sheet, 8, 13, addon_modules)
    assert 10.5 in record.extra["sampled_frames"]
    assert all(s.status.name == "SEPARATED" for s in sampled(record) if float(s.frame).is_integer())
    assert abs(record.first_contact_frame - contact) <= FRAME_TOL


def test_a_key_between_frames_reached_through_a_driver(addon_modules):
    """The shape key's value is driven (an averaging driver, no Python) by an empty's x location, keyed 0 at 10,
    1 at 10.5 and 0 at 11: the empty's key at 10.5 is sampled."""
    sheet, pull, block, contact = spike_to_slab()
    handle = bpy.data.objects.new("Handle", None)
    bpy.context.scene.collection.objects.link(handle)
    for frame, x in ((10, 0.0), (10.5, 1.0), (11, 0.0)):
        handle.location = (x, 0.0, 0.0)
        handle.keyframe_insert("location", index=0, frame=frame)
    linear(handle)
    driver = pull.driver_add("value").driver
    driver.type = "AVERAGE"
    variable = driver.variables.new()
    variable.type = "TRANSFORMS"
    variable.targets[0].id = handle
    variable.targets[0].transform_type = "LOC_X"
    record, _ = sweep(block, sheet, 8, 13, addon_modules)
    assert 10.5 in record.extra["sampled_frames"]
    assert abs(record.first_contact_frame - contact) <= FRAME_TOL


def test_a_key_between_frames_reached_through_a_constraint(addon_modules):
    """A box copies the location of an empty keyed at 0, 10.5 and 20 (a bend between frames: it falls fast, then
    slowly) onto a still spiked sheet; the empty's key at 10.5 is sampled and the first contact (the box's
    bottom at the tip's height 0.5, on the slow stretch) is where the piecewise-linear fall says."""
    sheet = spiked_sheet("Sheet", (-0.5, 0.0, 0.0), (-0.5, 0.0, 0.5), [(0, 1.0)], PLACEMENTS[0])
    handle = bpy.data.objects.new("Handle", None)
    bpy.context.scene.collection.objects.link(handle)
    for frame, z in ((0, 3.0), (10.5, 0.9), (20, 0.5)):
        handle.location = (-0.5, 0.0, z)
        handle.keyframe_insert("location", frame=frame)
    linear(handle)
    block = box("Box", (-0.2, -0.2, -0.2), (0.2, 0.2, 0.2), PLACEMENTS[0])
    block.constraints.new("COPY_LOCATION").target = handle
    record, _ = sweep(block, sheet, 0, 20, addon_modules)
    assert 10.5 in record.extra["sampled_frames"]
    # bottom = z - 0.2 reaches 0.5 at z = 0.7: on the stretch from (10.5, 0.9) to (20, 0.5)
    assert abs(record.first_contact_frame - (10.5 + 9.5 * (0.9 - 0.7) / 0.4)) <= FRAME_TOL


def test_samples_of_a_deforming_pair_answer_as_a_full_check(addon_modules):
    """The sweep checks a deforming pair's samples with `core.deform.SampleChecker` (refitted hierarchies): at
    every time it evaluated, status and distance are those of a full check of that frame, and the hierarchies
    were refitted.  A bumped sphere (a Displace modifier keyed on a vertex group) grows into a box."""
    sweep_module = importlib.import_module(addon_modules.store.__name__.replace("operators.store",
                                                                                "operators.sweep"))
    bpy.ops.mesh.primitive_uv_sphere_add(segments=32, ring_count=16)
    ball = bpy.context.active_object
    ball.name = "Ball"
    group = ball.vertex_groups.new(name="Cap")
    group.add([v.index for v in ball.data.vertices if v.co.z > 0.7], 1.0, "REPLACE")
    displace = ball.modifiers.new("Bump", "DISPLACE")
    displace.vertex_group = "Cap"
    for frame, strength in ((1, 0.0), (11, 2.0)):
        displace.strength = strength
        ball.keyframe_insert('modifiers["Bump"].strength', frame=frame)
    linear(ball)
    block = box("Lid", (-0.3, -0.3, 1.6), (0.3, 0.3, 1.8), PLACEMENTS[0])
    scene = bpy.context.scene
    settings = addon_modules.checking.CheckSettings(mode=addon_modules.record.Mode.EXACT)
    sweeper = sweep_module.Sweeper(scene, ball, block, settings, 1, 11)
    verdict = dataclasses.replace(settings, narrow_depth=False)  # what the samples need: the loose interval
    for _ in sweeper.steps():
        pass
    assert sweeper.record().first_contact_frame is not None
    assert sweeper.checker.refits > 0
    for time in sorted(sweeper.search.evaluated):
        sample = sweeper.search.evaluated[time]
        whole = math.floor(time)
        scene.frame_set(int(whole), subframe=time - whole)
        full = addon_modules.checking.check_pair(ball, block, bpy.context.evaluated_depsgraph_get(), verdict)
        assert sample.status is full.status
        assert abs(sample.distance - full.distance) <= 8 * 2.2e-16 * full.contact.scale
