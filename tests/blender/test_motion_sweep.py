"""The sweep over analytic animations (LINEAR keyframes): first contact matched in closed form to 1e-3 frame,
never-meeting pairs with their known closest frame, a rotating rod, and a thin wall crossed between two frames."""
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, mesh_object, select_pair, uv_sphere

FRAME_TOL = 1e-3


def fcurves(action):
    """Every F-curve of an action: legacy actions (Blender < 4.4) and layered ones (slots, channel bags)."""
    if not getattr(action, "is_action_layered", False) and hasattr(action, "fcurves"):
        return list(action.fcurves)
    curves = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                curves.extend(bag.fcurves)
    return curves


def box(name, half, location=(0.0, 0.0, 0.0)):
    hx, hy, hz = half
    vertices = [(x, y, z) for x in (-hx, hx) for y in (-hy, hy) for z in (-hz, hz)]
    faces = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))
    return mesh_object(name, vertices, faces, location=location)


def key(obj, path, frame, value):
    """A keyframe with LINEAR interpolation (keyframe_insert ignores the preference for new keys)."""
    setattr(obj, path, value)
    obj.keyframe_insert(path, frame=frame)
    for curve in fcurves(obj.animation_data.action):
        for point in curve.keyframe_points:
            point.interpolation = "LINEAR"


def sweep_of(a, b, **frames):
    select_pair(a, b)
    assert bpy.ops.collision.sweep(**frames) == {"FINISHED"}
    return bpy.context.window_manager.collision_inspector.sweep


def test_linear_pass_through(addon_modules):
    """B (half 1) slides along -x at 0.7 per frame through A (half 1): contact at x = 2, i.e. frame 1 + 8/0.7;
    deepest (depth 2) at x = 0, frame 1 + 10/0.7."""
    a = cube("A", 1.0)
    b = cube("B", 1.0)
    key(b, "location", 1, (10.0, 0.0, 0.0))
    key(b, "location", 31, (10.0 - 0.7 * 30, 0.0, 0.0))
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, 30
    scene.frame_set(4)
    mirror = sweep_of(a, b)
    record = addon_modules.store.sweep_record()
    assert scene.frame_current == 4 and scene.frame_subframe == 0.0  # restored
    assert record.first_contact_frame is not None and mirror.meets
    assert abs(record.first_contact_frame - (1 + 8 / 0.7)) <= FRAME_TOL
    assert abs(mirror.first_contact_frame - (1 + 8 / 0.7)) <= FRAME_TOL
    assert abs(record.deepest_frame - (1 + 10 / 0.7)) <= FRAME_TOL
    assert 2.0 - 0.7 * FRAME_TOL <= record.deepest_depth <= 2.0 + 1e-9  # depth 2 - |x|, x moves 0.7 per frame
    assert record.closest_frame == record.first_contact_frame and record.closest_distance == 0.0
    sampled = {s.frame: s for s in record.samples if float(s.frame).is_integer()}
    assert set(range(1, 31)) <= set(sampled)
    for frame in range(1, 31):  # every frame: the analytic signed distance |x| - 2 (depth 2 - |x| inside)
        x = 10.0 - 0.7 * (frame - 1)
        np.testing.assert_allclose(sampled[frame].distance, abs(x) - 2.0, atol=1e-5)
    assert len(mirror.samples) == len(record.samples)


def test_sphere_rolls_past_without_touching(addon_modules):
    """The ball (radius 1) rolls along x (turning about z by -dx / r) on a V-shaped path whose lowest point,
    centre (0.3, 2.3), is at frame 10.5, where its pole vertex points straight down at A's top face (y = 1).  Its
    lowest point is never below centre - 1, and only reaches it there: closest distance 2.3 - 1 - 1 at 10.5."""
    a = cube("A", 1.0)
    b = uv_sphere("Ball", radius=1.0, segments=32, rings=16)
    b.rotation_mode = "XYZ"
    for frame, x, y in ((1, -5.4, 4.0), (10.5, 0.3, 2.3), (20, 6.0, 4.0)):
        key(b, "location", frame, (x, y, 0.0))
        key(b, "rotation_euler", frame, (math.pi / 2, 0.0, -(x - 0.3)))  # rolling; pole down at x = 0.3
    mirror = sweep_of(a, b, frame_start=1, frame_end=20)
    record = addon_modules.store.sweep_record()
    assert record.first_contact_frame is None and not mirror.meets and record.deepest_frame is None
    assert abs(record.closest_frame - 10.5) <= FRAME_TOL
    np.testing.assert_allclose(record.closest_distance, 0.3, atol=1e-5)
    assert all(s.status.name == "SEPARATED" and s.distance >= 0.3 - 1e-6 for s in record.samples)


def rod_contact_angle(h, centre_y, half_width):
    """First angle at which a rod (half width `half_width` across, rotating anticlockwise about z from along x)
    touches a square of half `h` centred at (0, centre_y): the face y' = +half_width reaches a corner first."""
    angles = []
    for cx in (-h, h):
        for cy in (centre_y - h, centre_y + h):
            radius = math.hypot(cx, cy)
            angles.append(math.acos(half_width / radius) - math.atan2(cx, cy))
    return min(a for a in angles if a >= 0.0)


def test_rotating_rod(addon_modules):
    """A rod (half 2 x 0.1 x 0.1) turns 10 degrees per frame about z; a small cube sits at (0, 1.5)."""
    rod = box("Rod", (2.0, 0.1, 0.1))
    target = cube("Target", 0.25, location=(0.0, 1.5, 0.0))
    key(rod, "rotation_euler", 1, (0.0, 0.0, 0.0))
    key(rod, "rotation_euler", 19, (0.0, 0.0, math.pi))
    sweep_of(target, rod, frame_start=1, frame_end=19)
    record = addon_modules.store.sweep_record()
    theta = rod_contact_angle(0.25, 1.5, 0.1)
    expected = 1 + math.degrees(theta) / 10.0
    assert abs(record.first_contact_frame - expected) <= FRAME_TOL


def test_thin_wall_crossed_between_frames(addon_modules):
    """A cube (half 0.1) jumps from x = -5 to x = +5 between frames 5 and 6 through a wall 0.02 thick at x = 0:
    no sampled frame sees a contact; the refinement finds it at x = -0.11, frame 5 + 4.89 / 10."""
    wall = box("Wall", (0.01, 2.0, 2.0))
    bullet = cube("Bullet", 0.1)
    key(bullet, "location", 1, (-9.0, 0.0, 0.0))
    key(bullet, "location", 5, (-5.0, 0.0, 0.0))
    key(bullet, "location", 6, (5.0, 0.0, 0.0))
    key(bullet, "location", 10, (9.0, 0.0, 0.0))
    sweep_of(wall, bullet, frame_start=1, frame_end=10)
    record = addon_modules.store.sweep_record()
    sampled = [s for s in record.samples if float(s.frame).is_integer()]
    assert all(s.status.name == "SEPARATED" for s in sampled)  # sampling alone misses it
    assert record.first_contact_frame is not None
    assert abs(record.first_contact_frame - (5 + 4.89 / 10)) <= FRAME_TOL
    assert record.deepest_depth > 0.0


def test_far_pairs_are_not_refined(addon_modules):
    """Swept boxes apart: only the sampled frames are evaluated."""
    a = cube("A", 1.0)
    b = cube("B", 1.0)
    key(b, "location", 1, (5.0, 0.0, 0.0))
    key(b, "location", 11, (5.0, 10.0, 0.0))
    sweep_of(a, b, frame_start=1, frame_end=11)
    record = addon_modules.store.sweep_record()
    assert record.extra["evaluations"] <= 11 + 40  # the closest-frame search adds a golden-section run


def test_step_and_range_defaults(addon_modules):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 3, 8
    mirror = sweep_of(a, b)
    assert (mirror.frame_start, mirror.frame_end) == (3, 8)
    mirror = sweep_of(a, b, frame_start=1, frame_end=10, frame_step=4)
    record = addon_modules.store.sweep_record()
    assert record.extra["sampled_frames"] == (1.0, 5.0, 9.0, 10.0)
    np.testing.assert_allclose(mirror.closest_distance, 1.0, atol=1e-6)


def test_bad_range_is_refused():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    with pytest.raises(RuntimeError, match="before frame_start"):
        bpy.ops.collision.sweep(frame_start=10, frame_end=2)


def test_jump_to_frame():
    assert bpy.ops.collision.jump_to_frame(frame=12.25) == {"FINISHED"}
    scene = bpy.context.scene
    assert scene.frame_current == 12 and abs(scene.frame_subframe - 0.25) < 1e-6


def test_sweep_of_the_shown_pair(addon_modules):
    """With a shown result the sweep uses its pair, whatever the selection."""
    a, b, c = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0)), cube("C", 1.0, location=(0.0, 9.0, 0.0))
    check_pair(a, b)
    select_pair(a, c)
    bpy.ops.collision.sweep(frame_start=1, frame_end=3)
    assert addon_modules.store.sweep_record().object_b == "B"


def test_half_turn_between_two_frames(addon_modules):
    """The rod turns half a turn between frames 1 and 2: it lies along x on both, so both sampled frames and the
    plain boxes around them miss the cube above it; the travel bound pads the boxes and the contact is found."""
    rod = box("Rod", (2.0, 0.1, 0.1))
    target = cube("Target", 0.25, location=(0.0, 1.5, 0.0))
    key(rod, "rotation_euler", 1, (0.0, 0.0, 0.0))
    key(rod, "rotation_euler", 2, (0.0, 0.0, math.pi))
    sweep_of(target, rod, frame_start=1, frame_end=2)
    record = addon_modules.store.sweep_record()
    assert all(s.status.name == "SEPARATED" for s in record.samples if s.frame in (1.0, 2.0))
    expected = 1 + rod_contact_angle(0.25, 1.5, 0.1) / math.pi
    assert record.first_contact_frame is not None
    assert abs(record.first_contact_frame - expected) <= FRAME_TOL


class FakeSweepOperator:
    """Stands in for the operator instance to drive its modal() headless (no window, so no real modal run):
    the properties, report() and the attributes modal() keeps."""

    def __init__(self, **values):
        self.reports = []
        self._set = set(values)
        self.frame_start, self.frame_end, self.frame_step = 0, 0, 1
        self.all_pairs, self.leave_out_overlapping = False, True
        self.__dict__.update(values)
        self.properties = self
        self._timer = None

    def is_property_set(self, name):
        return name in self._set

    def report(self, kind, message):
        self.reports.append((set(kind), message))


def drive_modal(operator, events):
    cls = bpy.types.COLLISION_OT_sweep
    for name in ("_prepare", "_finish", "_fail", "_end_modal"):
        setattr(operator, name, getattr(cls, name).__get__(operator))
    assert operator._prepare(bpy.context)
    for event_type in events:
        returned = cls.modal(operator, bpy.context, type("Event", (), {"type": event_type})())
        if returned not in ({"RUNNING_MODAL"}, {"PASS_THROUGH"}):
            return returned
    return returned


def moving_pair():
    a, b = cube("A", 1.0), cube("B", 1.0)
    key(b, "location", 1, (10.0, 0.0, 0.0))
    key(b, "location", 31, (10.0 - 0.7 * 30, 0.0, 0.0))
    select_pair(a, b)
    bpy.context.scene.frame_set(7)
    return a, b


def test_modal_run_matches_execute(addon_modules):
    moving_pair()
    operator = FakeSweepOperator(frame_start=1, frame_end=30)
    assert drive_modal(operator, ["MOUSEMOVE"] + ["TIMER"] * 10_000) == {"FINISHED"}
    record = addon_modules.store.sweep_record()
    assert not record.cancelled
    assert abs(record.first_contact_frame - (1 + 8 / 0.7)) <= FRAME_TOL
    assert bpy.context.scene.frame_current == 7


def test_esc_stops_keeps_what_was_found_and_restores_the_frame(addon_modules):
    moving_pair()
    operator = FakeSweepOperator(frame_start=1, frame_end=30)
    assert drive_modal(operator, ["TIMER", "ESC"]) == {"CANCELLED"}
    record = addon_modules.store.sweep_record()
    assert record.cancelled and len(record.samples) >= 1
    assert bpy.context.window_manager.collision_inspector.sweep.cancelled
    assert bpy.context.scene.frame_current == 7 and bpy.context.scene.frame_subframe == 0.0
    assert any("stopped early" in message for _, message in operator.reports)


def test_every_listed_pair(addon_modules):
    """Three records (what a scene check stores): B meets A at frame 1 + 8/0.7, C never meets A (closest 1 at
    frames 4 to 8), D is built into A (overlaps on every frame: left out of the choice, listed as such)."""
    store, checking = addon_modules.store, addon_modules.checking
    a, b = cube("A", 1.0), cube("B", 1.0)
    key(b, "location", 1, (10.0, 0.0, 0.0))
    key(b, "location", 31, (10.0 - 0.7 * 30, 0.0, 0.0))
    c = cube("C", 1.0)
    key(c, "location", 1, (-5.0, 3.0, 0.0))
    key(c, "location", 11, (5.0, 3.0, 0.0))
    d = cube("D", 0.5, location=(0.5, 0.0, 0.0))
    depsgraph = bpy.context.evaluated_depsgraph_get()
    store.set_records(bpy.context.window_manager,
                      [checking.check_pair(a, d, depsgraph), checking.check_pair(a, b, depsgraph),
                       checking.check_pair(a, c, depsgraph)], 0)
    assert bpy.ops.collision.sweep(frame_start=1, frame_end=20, all_pairs=True) == {"FINISHED"}
    shown = store.sweep_record()
    assert shown.object_b == "B"  # meets first; D (always overlapping) is left out of the choice
    assert abs(shown.first_contact_frame - (1 + 8 / 0.7)) <= FRAME_TOL
    pairs = {p["object_b"]: p for p in shown.extra["pairs"]}
    assert pairs["D"]["always_overlapping"] and pairs["D"]["left_out"]
    assert pairs["C"]["first_contact_frame"] is None
    assert 4.0 <= pairs["C"]["closest_frame"] <= 8.0  # face to face (distance 1) while |x| <= 2
    assert abs(pairs["C"]["closest_distance"] - 1.0) < 1e-6
    assert [p["object_b"] for p in shown.extra["pairs"]] == ["B", "C", "D"]
    rows = addon_modules.store.sweep_record().extra["pairs"]
    assert len(rows) == 3
    assert bpy.ops.collision.sweep(frame_start=1, frame_end=20, all_pairs=True,
                                   leave_out_overlapping=False) == {"FINISHED"}
    assert store.sweep_record().object_b == "D"  # overlapping from frame 1: meets first


def test_every_listed_pair_needs_a_list():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    with pytest.raises(RuntimeError, match="results list"):
        bpy.ops.collision.sweep(frame_start=1, frame_end=3, all_pairs=True)
