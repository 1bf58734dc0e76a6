# SPDX-License-Identifier: GPL-3.0-or-later
"""The sweep: one pair checked over a frame range (`collision.sweep`), and `collision.jump_to_frame`.

The search itself is core/motion.py (`MotionSearch`: samples, refinement between them, first contact, deepest
and closest, and what its bounds assume); this module is its Blender side.  `Sweeper.evaluate` puts the scene at
the asked time (`scene.frame_set(frame, subframe=...)`), checks the pair through the one pipeline
(`checking.check_pair`, with `reading.GEOMETRY_CACHE`: an object that only moves is read once) and hands the search
the status, the signed distance and each object's pose (the corners of its local bounding box and its world
matrix).  The samples are every `frame_step`-th frame from `frame_start` to `frame_end` (the end frame always
included), and every time where a vertex path may bend (`key_times`: keys of the actions that drive the pair,
also through NLA strips, drivers' targets, constraints' targets, parents and modifiers' objects); the first
contact is located to within `FRAME_TOLERANCE` frames.  A deforming object (`may_deform`) is followed vertex by
vertex between samples (core/deform.py's split rule and its chord-error assumption, stated in the record), and
each of its samples is checked by `core.deform.SampleChecker` (status and distance as the full check's).

`all_pairs=True` sweeps every pair of the results list (`SweepRun`): the pair that meets first (else comes
closest) is the sweep shown, and every pair's summary is in its `extra["pairs"]` (`results.motion.combined`);
with `leave_out_overlapping` (the default) a pair that intersects on every sampled frame is not picked as the one
shown.

The scene's frame (and subframe) is restored afterwards, also after Esc or an error.  With a window the operator
runs modally from a timer (progress in the status bar, Esc stops it and keeps what was found so far, marked
`cancelled`); headless, `execute` runs straight through.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace

import bpy
from bpy.props import BoolProperty, FloatProperty, IntProperty

from ..core import PairHistory
from ..core.deform import DeformingSplit, MeshPose, SampleChecker
from ..core.motion import TIME_TOLERANCE, MotionSearch, Pose, Sample, box_corners, place
from ..results.motion import combined, summary_line
from ..results.record import Mode, SweepRecord, SweepSample
from . import access, modal_run, reading, store
from .check import check_settings
from .checking import CheckSettings, check_pair
from .reading import GeometryError, SelectionError, object_identity, pick_pair

FRAME_TOLERANCE = TIME_TOLERANCE
"""The first contact is located to within this many frames."""


def _pose(entry) -> Pose:
    """An object's pose from its cache entry: the corners of its local bounding box (kept with the entry) placed
    with its current world matrix."""
    corners = entry.prepared.get("corners")
    if corners is None:
        corners = entry.prepared["corners"] = box_corners(entry.geometry.vertices)
    matrix = entry.geometry.matrix_world
    return Pose(place(corners, matrix), matrix)


def _mesh_pose(entry, surfaces: bool) -> MeshPose:
    """A deforming object's pose: its world vertices (the travel bound follows each of them), its local vertices
    (what says whether its shape changed) and, when the mode compares the surfaces (`surfaces`: Exact), its
    triangles for the continuous test.  Hull and Loose Parts compare convex hulls, which a surface test does not
    see; for them the travel bound alone is conservative (a hull moves no farther than its farthest vertex)."""
    geometry = entry.geometry
    matrix = geometry.matrix_world
    return MeshPose(place(geometry.vertices.astype(float), matrix), matrix, local=geometry.vertices,
                    triangles=geometry.triangles if surfaces else None)


def may_deform(obj) -> bool:
    """Whether the object's evaluated vertices may change over time: shape keys, any modifier (armature, wave,
    displace, a cache, ...), or an armature parent.  The search then compares the vertices themselves."""
    data = getattr(obj, "data", None)
    return (getattr(data, "shape_keys", None) is not None or len(getattr(obj, "modifiers", ())) > 0
            or getattr(obj, "parent_type", "") == "ARMATURE")


def _fcurves(action) -> list:
    """Every F-curve of an action: legacy actions (Blender < 4.4) and layered ones (slots, channel bags)."""
    if not getattr(action, "is_action_layered", False) and hasattr(action, "fcurves"):
        return list(action.fcurves)
    curves = []
    for layer in getattr(action, "layers", ()):
        for strip in layer.strips:
            for bag in getattr(strip, "channelbags", ()):
                curves.extend(bag.fcurves)
    return curves


def _strip_times(strip, times: set) -> None:
    """The scene times of an NLA strip's action keys: each key time mapped into the strip (its action range
    scaled and repeated from the strip's start), and the strip's ends (where the action starts and stops
    acting)."""
    times.update((float(strip.frame_start), float(strip.frame_end)))
    action = getattr(strip, "action", None)
    if action is None or getattr(strip, "mute", False):
        return
    first, last = float(strip.action_frame_start), float(strip.action_frame_end)
    length = (last - first) * float(strip.scale)
    repeats = max(1, math.ceil(float(strip.repeat)))
    keys = {float(point.co[0]) for curve in _fcurves(action) for point in curve.keyframe_points}
    for k in range(repeats):
        offset = float(strip.frame_start) + k * length
        times.update(offset + (t - first) * float(strip.scale) for t in keys if first <= t <= last)


def _driver_sources(animation) -> list:
    """The data blocks the drivers of an `animation_data` read (their variables' targets): their keys bend the
    driven values' paths as their own keys do."""
    sources = []
    for curve in getattr(animation, "drivers", ()):
        for variable in curve.driver.variables:
            sources.extend(target.id for target in variable.targets if target.id is not None)
    return sources


def _constraint_targets(obj) -> list:
    """Objects that an object's constraints, and its pose bones' constraints, follow."""
    constraints = list(getattr(obj, "constraints", ()))
    pose = getattr(obj, "pose", None)
    for bone in getattr(pose, "bones", ()) if pose is not None else ():
        constraints.extend(bone.constraints)
    return [getattr(c, "target", None) for c in constraints if not getattr(c, "mute", False)]


def key_times(objects, start: float, end: float) -> set:
    """The times in [start, end] where a vertex path of the objects may bend: every key of the actions that drive
    them (their own, their data's and shape keys'), of the actions their NLA strips play (mapped into the strips,
    and the strips' ends), and the same for their parents, the objects their modifiers and constraints name (an
    armature, a hook, a Copy Location target) and the data their drivers read.  A driver's own curve and any
    scripted expression may bend elsewhere: those bends are left to the chord-error rule (core/deform.py)."""
    times, seen, stack = set(), set(), list(objects)
    while stack:
        block = stack.pop()
        if not isinstance(block, bpy.types.ID) or block.as_pointer() in seen:
            continue
        seen.add(block.as_pointer())
        data = getattr(block, "data", None) if isinstance(block, bpy.types.Object) else None
        owners = (block, data, getattr(data, "shape_keys", None)) if data is not None else (
            block, getattr(block, "shape_keys", None))
        for owner in owners:
            animation = getattr(owner, "animation_data", None)
            if animation is None:
                continue
            if animation.action is not None:
                for curve in _fcurves(animation.action):
                    times.update(float(point.co[0]) for point in curve.keyframe_points)
            for track in animation.nla_tracks:
                if not track.mute:
                    for strip in track.strips:
                        _strip_times(strip, times)
            stack.extend(_driver_sources(animation))
        if isinstance(block, bpy.types.Object):
            stack.append(block.parent)
            stack.extend(getattr(modifier, "object", None) for modifier in block.modifiers)
            stack.extend(_constraint_targets(block))
    return {t for t in times if start <= t <= end}


class Sweeper:
    """One pair over a frame range: the search (core/motion.py) over the scene evaluated at each asked time."""

    def __init__(self, scene, obj_a, obj_b, settings: CheckSettings, frame_start: int, frame_end: int,
                 frame_step: int = 1, cache=None):
        if frame_step < 1:
            raise ValueError(f"frame_step must be at least 1, not {frame_step}")
        if frame_end < frame_start:
            raise ValueError(f"frame_end ({frame_end}) is before frame_start ({frame_start})")
        self.scene = scene
        self.obj_a, self.obj_b = obj_a, obj_b
        # Exact mode: every (sub-)frame's query starts from the last one's (core.PairHistory; same answers)
        # the samples need the verdict and the signed distance, not the narrowed interval
        self.settings = replace(settings, narrow_depth=False,
                                history=PairHistory() if settings.mode is Mode.EXACT else None)
        self.cache = cache if cache is not None else reading.GEOMETRY_CACHE
        self.frames = list(range(frame_start, frame_end + 1, frame_step))
        if self.frames[-1] != frame_end:
            self.frames.append(frame_end)
        self.times = sorted(set(map(float, self.frames)) | key_times((obj_a, obj_b), frame_start, frame_end))
        self.deforming = (may_deform(obj_a), may_deform(obj_b))
        self.split = DeformingSplit() if any(self.deforming) else None
        # a deforming pair's samples need their status and distance only (core/deform.py `SampleChecker`); the
        # frames the sweep reports are checked in full when they are shown
        self.checker = SampleChecker() if self.split is not None else None
        self.search = MotionSearch(self.evaluate, self.times, tolerance=FRAME_TOLERANCE, split=self.split)
        self.cancelled = False

    def evaluate(self, frame: float) -> Sample:
        """The pair at this (sub-)frame; the check record rides along as the sample's payload."""
        whole = math.floor(frame)
        self.scene.frame_set(int(whole), subframe=frame - whole)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        record = check_pair(self.obj_a, self.obj_b, depsgraph, self.settings, cache=self.cache,
                            mesh_check=self.checker.check if self.checker is not None else None)
        entry_a = self.cache.entry(object_identity(self.obj_a))
        entry_b = self.cache.entry(object_identity(self.obj_b))
        if self.split is not None:  # both followed vertex by vertex: the continuous test needs both meshes
            surfaces = self.settings.mode is Mode.EXACT
            pose_a, pose_b = _mesh_pose(entry_a, surfaces), _mesh_pose(entry_b, surfaces)
        else:
            pose_a, pose_b = _pose(entry_a), _pose(entry_b)
        return Sample(frame, record.status, record.distance, pose_a, pose_b, payload=record)

    def steps(self):
        """Generator: does the work in small steps, yielding the fraction done (0..1)."""
        return self.search.steps()

    def record(self) -> SweepRecord:
        """What was found so far (all of it once `steps` is exhausted)."""
        search = self.search
        samples = tuple(SweepSample(frame=s.time, status=s.status, distance=s.distance) for s in search.samples())
        summary = search.summary
        return SweepRecord(
            object_a=self.obj_a.name, object_b=self.obj_b.name, samples=samples,
            first_contact_frame=summary.first_contact if summary else None,
            deepest_frame=summary.deepest_time if summary else None,
            deepest_depth=summary.deepest_depth if summary else 0.0,
            closest_frame=summary.closest_time if summary else None,
            closest_distance=summary.closest_distance if summary else math.inf,
            cancelled=self.cancelled or summary is None,
            extra={"frame_start": self.frames[0], "frame_end": self.frames[-1],
                   "frame_step": self.frames[1] - self.frames[0] if len(self.frames) > 1 else 1,
                   "sampled_frames": tuple(self.times),
                   "evaluations": len(search.evaluated), "refinement_capped": search.capped,
                   "mode": self.settings.mode.name, "deformation": self._deformation(summary is not None)})

    def _deformation(self, finished: bool) -> dict:
        """What the record says about deformation (results/motion.py words it): the objects whose shape changed
        between two samples, whether every such interval was followed continuously (the vertex paths, not only
        the samples), the largest chord error met, and how many intervals were examined."""
        report = self.split.report if self.split is not None else None
        names = {"A": self.obj_a.name, "B": self.obj_b.name}
        objects = tuple(names[w] for w in sorted(report.objects)) if report is not None else ()
        return {"objects": objects,
                "followed": (bool(objects) and finished and not self.search.capped
                             and not report.topology_changed),
                "intervals": report.deforming_intervals if report is not None else 0,
                "largest_chord_error": report.largest_chord_error if report is not None else 0.0}


class SweepRun:
    """One sweep per pair, one after the other (a single pair, or every pair of the results list)."""

    def __init__(self, sweepers: list, leave_out_overlapping: bool = False):
        self.sweepers = sweepers
        self.leave_out_overlapping = leave_out_overlapping

    def steps(self):
        count = len(self.sweepers)
        for i, sweeper in enumerate(self.sweepers):
            for done in sweeper.steps():
                yield (i + done) / count

    def cancel(self) -> None:
        for sweeper in self.sweepers:
            sweeper.cancelled = True

    def record(self) -> SweepRecord:
        """The one sweep shown (`results.motion.combined`: the only pair's, or the pair that meets first, else
        comes closest, with every pair's summary)."""
        return combined([sweeper.record() for sweeper in self.sweepers], self.leave_out_overlapping)


def sweep_pair(scene, obj_a, obj_b, settings: CheckSettings, frame_start: int, frame_end: int,
               frame_step: int = 1) -> SweepRecord:
    """Run a whole sweep (no UI) and restore the scene's frame; the record."""
    sweeper = Sweeper(scene, obj_a, obj_b, settings, frame_start, frame_end, frame_step)
    frame, subframe = scene.frame_current, scene.frame_subframe
    try:
        for _ in sweeper.steps():
            pass
    finally:
        scene.frame_set(frame, subframe=subframe)
    return sweeper.record()


def sweep_pair_objects(context):
    """(A, B) for a sweep: the shown result's pair, else the selection; SelectionError when there is neither."""
    record = store.active_record()
    if record is not None and not record.is_one_object:  # a Check Object row is no pair of objects
        obj_a, obj_b = store.resolve_object("A", record), store.resolve_object("B", record)
        if obj_a is not None and obj_b is not None:
            return obj_a, obj_b
    return pick_pair(context)


def listed_pairs() -> list:
    """(A, B) of every record of the results list whose objects still exist, each pair once."""
    pairs, seen = [], set()
    for record in store.records():
        if record.is_one_object:
            continue
        key = (record.identity_a, record.identity_b)
        obj_a, obj_b = store.resolve_object("A", record), store.resolve_object("B", record)
        if obj_a is None or obj_b is None or key in seen:
            continue
        seen.add(key)
        pairs.append((obj_a, obj_b))
    if not pairs:
        raise SelectionError("Every Listed Pair needs a results list: run a check first")
    return pairs


class COLLISION_OT_sweep(bpy.types.Operator):
    """Check the shown pair (or the selected one) on every frame of a range: first contact to a thousandth of a \
frame, the deepest and the closest frame"""

    bl_idname = "collision.sweep"
    bl_label = "Sweep Frames"
    bl_options = {"REGISTER"}  # the frame is restored: nothing to undo

    frame_start: IntProperty(name="Start", description="First frame (default: the scene's start frame)")
    frame_end: IntProperty(name="End", description="Last frame (default: the scene's end frame)")
    frame_step: IntProperty(name="Step", default=1, min=1, description="Check every this many frames")
    all_pairs: BoolProperty(name="Every Listed Pair", default=False,
                            description="Sweep every pair of the results list, not only the shown one")
    leave_out_overlapping: BoolProperty(
        name="Leave Out Always Overlapping", default=True,
        description="Every Listed Pair: do not pick a pair that intersects on every frame (e.g. parts built into "
                    "each other) as the one shown")

    _timer = None
    _sweeper = None
    _steps = None
    _restore = None

    @classmethod
    def poll(cls, context):
        if context.scene is None or access.state(context.window_manager) is None:
            cls.poll_message_set("Needs a scene and the registered add-on")
            return False
        return True

    def _prepare(self, context):
        scene = context.scene
        if not self.properties.is_property_set("frame_start"):
            self.frame_start = scene.frame_start
        if not self.properties.is_property_set("frame_end"):
            self.frame_end = scene.frame_end
        try:
            pairs = listed_pairs() if self.all_pairs else [sweep_pair_objects(context)]
            settings = check_settings(context)
            self._sweeper = SweepRun([Sweeper(scene, a, b, settings, self.frame_start, self.frame_end,
                                              self.frame_step) for a, b in pairs],
                                     leave_out_overlapping=self.leave_out_overlapping)
        except (SelectionError, ValueError) as exc:
            self.report({"ERROR"}, str(exc))
            return False
        self._restore = (scene.frame_current, scene.frame_subframe)
        self._steps = self._sweeper.steps()
        return True

    def _finish(self, context, cancelled: bool = False):
        frame, subframe = self._restore
        context.scene.frame_set(frame, subframe=subframe)
        if cancelled:
            self._sweeper.cancel()
        sweep = self._sweeper.record()
        store.set_sweep(context.window_manager, sweep)
        self.report({"WARNING"} if cancelled else {"INFO"}, summary_line(sweep))
        return {"CANCELLED"} if cancelled else {"FINISHED"}

    def _fail(self, context, exc):
        frame, subframe = self._restore
        context.scene.frame_set(frame, subframe=subframe)
        self.report({"ERROR"}, f"Sweep stopped: {exc}")
        return {"CANCELLED"}

    def execute(self, context):
        if not self._prepare(context):
            return {"CANCELLED"}
        try:
            for _ in self._steps:
                pass
        except (GeometryError, ValueError) as exc:
            return self._fail(context, exc)
        except BaseException:
            frame, subframe = self._restore
            context.scene.frame_set(frame, subframe=subframe)
            raise
        return self._finish(context)

    def invoke(self, context, _event):
        if context.window is None:
            return self.execute(context)
        if not self._prepare(context):
            return {"CANCELLED"}
        modal_run.start(self, context, 100, 0.001)
        return {"RUNNING_MODAL"}

    def _end_modal(self, context):
        modal_run.stop(self, context)

    def modal(self, context, event):
        if event.type == "ESC":
            self._end_modal(context)
            return self._finish(context, cancelled=True)
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        deadline = time.perf_counter() + 0.05
        try:
            while time.perf_counter() < deadline:
                done = next(self._steps)
                modal_run.show(context, done, 100)
        except StopIteration:
            self._end_modal(context)
            return self._finish(context)
        except (GeometryError, ValueError) as exc:
            self._end_modal(context)
            return self._fail(context, exc)
        return {"RUNNING_MODAL"}


class COLLISION_OT_jump_to_frame(bpy.types.Operator):
    """Go to this frame (a sub-frame time is kept as the scene's subframe)"""

    bl_idname = "collision.jump_to_frame"
    bl_label = "Jump to Frame"
    bl_options = {"REGISTER"}

    frame: FloatProperty(name="Frame")

    def execute(self, context):
        whole = math.floor(self.frame)
        context.scene.frame_set(int(whole), subframe=self.frame - whole)
        return {"FINISHED"}


CLASSES = (COLLISION_OT_sweep, COLLISION_OT_jump_to_frame)
