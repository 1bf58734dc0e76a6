# SPDX-License-Identifier: GPL-3.0-or-later
"""The sweep: one pair checked over a frame range (`collision.sweep`), and `collision.jump_to_frame`.

Every evaluated time goes through the one pipeline (`checking.check_pair`, with `reading.GEOMETRY_CACHE`: an
object that only moves is read once) on the scene evaluated at that time (`scene.frame_set(frame, subframe=...)`).

1. **Samples.** Every `frame_step`-th frame from `frame_start` to `frame_end` (the end frame always included).
2. **Intervals.** Between two neighbouring evaluated times t0 < t1:
   - the state changes (SEPARATED on one side, TOUCHING or INTERSECTING on the other): bisect until the two
     states are less than `FRAME_TOLERANCE / 4` apart; the transition time is their middle;
   - both SEPARATED: a contact may still hide between them (a thin wall crossed in one step).  For each object a
     bound L on how far any of its points travels between t0 and t1 is taken (`_path_bound`: the larger of
     `ARC_FACTOR` x the largest displacement of a corner of its local bounding box, and the displacement of its
     origin + the rotation angle between the two poses x the largest corner radius).  A point that travels at
     most L stays within L/2 of where it was at t0 or at t1, so no contact is possible when the *swept boxes*
     (each object's box around its two world boxes, padded by L/2) do not overlap; nor when conservative
     advancement rules it out: the distance changes at most by L_A + L_B over the interval, at a constant rate,
     so it stays >= (d0 + d1 - L_A - L_B) / 2 > 0 when d0 + d1 > L_A + L_B.  Otherwise the middle time is
     evaluated and both halves are examined again, down to `FRAME_TOLERANCE` (at most `MAX_REFINEMENTS`
     evaluations per sweep; `extra["refinement_capped"]` says when that cap was hit).
   The rule assumes each point moves at a constant speed along its path between two evaluated times: true for
   linear keyframes; `ARC_FACTOR` = pi/2 covers a uniform rotation of up to half a turn per step (an arc is at
   most pi/2 times its chord), the angle term covers rolling (a rotation undone by a translation).  Curved
   F-curves are followed better as the intervals shrink.  Deformation between two samples (modifiers, shape
   keys) is only seen through the samples themselves.
3. **Summary.** First contact: the first SEPARATED -> contact transition (or `frame_start` when the pair already
   touches there).  Deepest: the sample with the smallest signed distance among the intersecting ones, then a
   golden-section search in its neighbouring intervals; closest: when the pair never meets, the same on the
   separated samples; when it does, the first contact frame with distance 0.

`all_pairs=True` sweeps every pair of the results list (`SweepRun`): the pair that meets first (else comes
closest) is the sweep shown, and every pair's summary is in its `extra["pairs"]`; with `leave_out_overlapping`
(the default) a pair that intersects on every sampled frame is not picked as the one shown.

The scene's frame (and subframe) is restored afterwards, also after Esc or an error.  With a window the operator
runs modally from a timer (progress in the status bar, Esc stops it and keeps what was found so far, marked
`cancelled`); headless, `execute` runs straight through.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

import bpy
from bpy.props import BoolProperty, FloatProperty, IntProperty

from ..core import Status
from ..results.record import CheckRecord, SweepRecord, SweepSample
from . import props, reading, store
from .check import check_settings
from .checking import CheckSettings, check_pair
from .reading import GeometryError, SelectionError, pick_pair

FRAME_TOLERANCE = 1e-3
"""The first contact is located to within this many frames."""
ARC_FACTOR = math.pi / 2
MAX_REFINEMENTS = 4000
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


@dataclass(eq=False)
class Evaluated:
    """The pair at one (sub-)frame."""

    frame: float
    record: CheckRecord
    corners_a: np.ndarray
    """(8, 3) world positions of the corners of A's local bounding box."""
    corners_b: np.ndarray
    matrix_a: np.ndarray
    """(4, 4) world matrices at this time."""
    matrix_b: np.ndarray

    @property
    def in_contact(self) -> bool:
        return self.record.status is not Status.SEPARATED

    @property
    def distance(self) -> float:
        return self.record.distance


def _local_corners(entry) -> np.ndarray:
    corners = entry.prepared.get("corners")
    if corners is None:
        vertices = entry.geometry.vertices
        lo = vertices.min(axis=0).astype(np.float64)
        hi = vertices.max(axis=0).astype(np.float64)
        corners = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        entry.prepared["corners"] = corners
    return corners


def _world_corners(entry) -> np.ndarray:
    return (_local_corners(entry) @ entry.geometry.matrix_world.T)[:, :3]


def _rotation_angle(m0: np.ndarray, m1: np.ndarray) -> float:
    """Angle (radians) of the rotation between the rotation parts of two 4x4 matrices (scale and shear removed)."""
    def orthonormal(m):
        u, _, vt = np.linalg.svd(m[:3, :3])
        return u @ vt

    relative = orthonormal(m1) @ orthonormal(m0).T
    return math.acos(min(1.0, max(-1.0, (float(np.trace(relative)) - 1.0) / 2.0)))


def _path_bound(c0: np.ndarray, c1: np.ndarray, m0: np.ndarray, m1: np.ndarray) -> float:
    """How far any point of an object may travel between two poses (see the module docstring)."""
    chord = float(np.linalg.norm(c1 - c0, axis=1).max())
    if chord == 0.0:
        return 0.0
    radius = max(float(np.linalg.norm(c0 - m0[:3, 3], axis=1).max()),
                 float(np.linalg.norm(c1 - m1[:3, 3], axis=1).max()))
    swing = float(np.linalg.norm(m1[:3, 3] - m0[:3, 3])) + _rotation_angle(m0, m1) * radius
    return max(ARC_FACTOR * chord, swing)


def _boxes_overlap(first: tuple, second: tuple) -> bool:
    (lo_a, hi_a), (lo_b, hi_b) = first, second
    return bool(np.all(lo_a <= hi_b) and np.all(lo_b <= hi_a))


def _swept_box(c0: np.ndarray, c1: np.ndarray, pad: float) -> tuple:
    both = np.vstack((c0, c1))
    return both.min(axis=0) - pad, both.max(axis=0) + pad


class Sweeper:
    """Evaluates the pair at any time of the scene and runs the steps above as a generator of progress values."""

    def __init__(self, scene, obj_a, obj_b, settings: CheckSettings, frame_start: int, frame_end: int,
                 frame_step: int = 1, cache=None):
        if frame_step < 1:
            raise ValueError(f"frame_step must be at least 1, not {frame_step}")
        if frame_end < frame_start:
            raise ValueError(f"frame_end ({frame_end}) is before frame_start ({frame_start})")
        self.scene = scene
        self.obj_a, self.obj_b = obj_a, obj_b
        self.settings = settings
        self.cache = cache if cache is not None else reading.GEOMETRY_CACHE
        self.frames = list(range(frame_start, frame_end + 1, frame_step))
        if self.frames[-1] != frame_end:
            self.frames.append(frame_end)
        self.evaluated: dict[float, Evaluated] = {}
        self.transitions: list[tuple[float, float]] = []
        """(lo, hi) bracketing each change of state: lo and hi have different states, hi - lo < tolerance/4."""
        self.refinements = 0
        self.capped = False
        self.cancelled = False

    # ----------------------------------------------------------------------------------- evaluation

    def evaluate(self, frame: float) -> Evaluated:
        frame = float(frame)
        known = self.evaluated.get(frame)
        if known is not None:
            return known
        whole = math.floor(frame)
        self.scene.frame_set(int(whole), subframe=frame - whole)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        record = check_pair(self.obj_a, self.obj_b, depsgraph, self.settings, cache=self.cache)
        entry_a = self.cache.entry(store.object_identity(self.obj_a))
        entry_b = self.cache.entry(store.object_identity(self.obj_b))
        state = Evaluated(frame, record, _world_corners(entry_a), _world_corners(entry_b),
                          entry_a.geometry.matrix_world, entry_b.geometry.matrix_world)
        self.evaluated[frame] = state
        return state

    def _refine_budget(self) -> bool:
        if self.refinements >= MAX_REFINEMENTS:
            self.capped = True
            return False
        self.refinements += 1
        return True

    # ----------------------------------------------------------------------------------- intervals

    def _bisect(self, lo: Evaluated, hi: Evaluated) -> None:
        while hi.frame - lo.frame > FRAME_TOLERANCE / 4 and self._refine_budget():
            middle = self.evaluate(0.5 * (lo.frame + hi.frame))
            if middle.in_contact == lo.in_contact:
                lo = middle
            else:
                hi = middle
        self.transitions.append((lo.frame, hi.frame))

    def _may_meet(self, s0: Evaluated, s1: Evaluated) -> bool:
        """False when no contact can hide between two separated states (swept boxes, conservative advancement)."""
        travel_a = _path_bound(s0.corners_a, s1.corners_a, s0.matrix_a, s1.matrix_a)
        travel_b = _path_bound(s0.corners_b, s1.corners_b, s0.matrix_b, s1.matrix_b)
        if travel_a == 0.0 and travel_b == 0.0:
            return False  # neither moved: the distance is the same all along
        swept_a = _swept_box(s0.corners_a, s1.corners_a, 0.5 * travel_a)
        swept_b = _swept_box(s0.corners_b, s1.corners_b, 0.5 * travel_b)
        if not _boxes_overlap(swept_a, swept_b):
            return False
        return s0.distance + s1.distance <= travel_a + travel_b

    def refine(self, s0: Evaluated, s1: Evaluated) -> None:
        """Examine the interval between two evaluated times (see the module docstring)."""
        stack = [(s0, s1)]
        while stack:
            s0, s1 = stack.pop()
            if s0.in_contact != s1.in_contact:
                self._bisect(s0, s1)
                continue
            if s0.in_contact or s1.frame - s0.frame <= FRAME_TOLERANCE or not self._may_meet(s0, s1):
                continue
            if not self._refine_budget():
                return
            middle = self.evaluate(0.5 * (s0.frame + s1.frame))
            stack.append((middle, s1))  # the earlier half is examined first
            stack.append((s0, middle))

    def _golden(self, lo: float, hi: float, sign: float) -> Evaluated:
        """Golden-section search for the smallest sign * distance on [lo, hi] (to FRAME_TOLERANCE)."""
        def value(state):
            return sign * state.distance

        a, b = lo, hi
        c = b - _GOLDEN * (b - a)
        d = a + _GOLDEN * (b - a)
        sc, sd = self.evaluate(c), self.evaluate(d)
        while b - a > FRAME_TOLERANCE and self._refine_budget():
            if value(sc) < value(sd):
                b, d, sd = d, c, sc
                c = b - _GOLDEN * (b - a)
                sc = self.evaluate(c)
            else:
                a, c, sc = c, d, sd
                d = a + _GOLDEN * (b - a)
                sd = self.evaluate(d)
        return sc if value(sc) < value(sd) else sd

    def _best_near(self, sampled: list, best: Evaluated, accept) -> Evaluated:
        """Refine a sampled minimum of the signed distance between its neighbouring samples."""
        index = next(i for i, s in enumerate(sampled) if s is best)
        lo = sampled[max(index - 1, 0)].frame
        hi = sampled[min(index + 1, len(sampled) - 1)].frame
        if hi - lo <= FRAME_TOLERANCE:
            return best
        found = self._golden(lo, hi, 1.0)
        return found if accept(found) and found.distance < best.distance else best

    # ----------------------------------------------------------------------------------- the run

    def steps(self):
        """Generator: does the work in small steps, yielding the fraction done (0..1)."""
        sampled = []
        total = len(self.frames)
        for i, frame in enumerate(self.frames):
            sampled.append(self.evaluate(frame))
            yield 0.6 * (i + 1) / total
        for i in range(len(sampled) - 1):
            self.refine(sampled[i], sampled[i + 1])
            yield 0.6 + 0.3 * (i + 1) / max(1, len(sampled) - 1)
        self.sampled = sampled
        self.summary = self._summarise(sampled)
        yield 1.0

    def _summarise(self, sampled: list) -> dict:
        first = None
        if sampled[0].in_contact:
            first = sampled[0].frame
        else:
            entering = [(lo, hi) for lo, hi in self.transitions
                        if not self.evaluated[lo].in_contact and self.evaluated[hi].in_contact]
            if entering:
                lo, hi = min(entering)
                first = 0.5 * (lo + hi)
        summary = {"first_contact_frame": first, "deepest_frame": None, "deepest_depth": 0.0,
                   "closest_frame": None, "closest_distance": math.inf}
        states = sorted(self.evaluated.values(), key=lambda s: s.frame)
        intersecting = [s for s in states if s.record.status is Status.INTERSECTING]
        if intersecting:
            deepest = min(intersecting, key=lambda s: s.distance)
            if any(deepest is s for s in sampled):
                deepest = self._best_near(sampled, deepest, lambda s: s.record.status is Status.INTERSECTING)
            summary["deepest_frame"] = deepest.frame
            summary["deepest_depth"] = deepest.record.depth
        if first is not None:
            summary["closest_frame"], summary["closest_distance"] = first, 0.0
        else:
            closest = min(sampled, key=lambda s: s.distance)
            closest = self._best_near(sampled, closest, lambda s: not s.in_contact)
            summary["closest_frame"], summary["closest_distance"] = closest.frame, closest.distance
        return summary

    def record(self) -> SweepRecord:
        """What was found so far (all of it once `steps` is exhausted)."""
        states = sorted(self.evaluated.values(), key=lambda s: s.frame)
        samples = tuple(SweepSample(frame=s.frame, status=s.record.status, distance=s.distance) for s in states)
        summary = getattr(self, "summary", None) or {}
        return SweepRecord(
            object_a=self.obj_a.name, object_b=self.obj_b.name, samples=samples,
            first_contact_frame=summary.get("first_contact_frame"),
            deepest_frame=summary.get("deepest_frame"), deepest_depth=summary.get("deepest_depth", 0.0),
            closest_frame=summary.get("closest_frame"),
            closest_distance=summary.get("closest_distance", math.inf),
            cancelled=self.cancelled or not summary,
            extra={"frame_start": self.frames[0], "frame_end": self.frames[-1],
                   "frame_step": self.frames[1] - self.frames[0] if len(self.frames) > 1 else 1,
                   "sampled_frames": tuple(float(f) for f in self.frames),
                   "evaluations": len(self.evaluated), "refinement_capped": self.capped,
                   "mode": self.settings.mode.name})


def _always_overlapping(sweep: SweepRecord) -> bool:
    """Every sampled frame INTERSECTING (a finished sweep only)."""
    sampled = set(sweep.extra.get("sampled_frames", ()))
    statuses = [s.status for s in sweep.samples if s.frame in sampled]
    return not sweep.cancelled and bool(statuses) and all(status is Status.INTERSECTING for status in statuses)


def _pair_summary(sweep: SweepRecord, left_out: bool) -> dict:
    return {"object_a": sweep.object_a, "object_b": sweep.object_b,
            "first_contact_frame": sweep.first_contact_frame, "deepest_frame": sweep.deepest_frame,
            "deepest_depth": sweep.deepest_depth, "closest_frame": sweep.closest_frame,
            "closest_distance": sweep.closest_distance, "always_overlapping": _always_overlapping(sweep),
            "left_out": left_out, "cancelled": sweep.cancelled}


def _meeting_order(first_contact_frame, closest_distance) -> tuple:
    """Pairs that meet, earliest first, then the others, closest first."""
    if first_contact_frame is not None:
        return (0, first_contact_frame, 0.0)
    return (1, 0.0, closest_distance)


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
        """The one sweep shown: the only pair's, or (several pairs) the pair that meets first (else comes
        closest), with every pair's summary in `extra["pairs"]` (earliest first contact first, then the
        closest; pairs that overlap on every sampled frame are left out of the choice when asked, and listed
        with `left_out`)."""
        records = [sweeper.record() for sweeper in self.sweepers]
        if len(records) == 1:
            return records[0]
        left_out = [self.leave_out_overlapping and _always_overlapping(r) for r in records]
        candidates = [r for r, out in zip(records, left_out) if not out and not r.cancelled] or records

        shown = min(candidates, key=lambda r: _meeting_order(r.first_contact_frame, r.closest_distance))
        pairs = sorted((_pair_summary(r, out) for r, out in zip(records, left_out)),
                       key=lambda p: (p["left_out"],) + _meeting_order(p["first_contact_frame"],
                                                                        p["closest_distance"]))
        extra = dict(shown.extra)
        extra["pairs"] = tuple(pairs)
        extra["left_out"] = sum(left_out)
        return replace(shown, extra=extra, cancelled=any(r.cancelled for r in records))


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
        if context.scene is None or props.state(context.window_manager) is None:
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
        self.report({"WARNING"} if cancelled else {"INFO"}, _summary_line(sweep))
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
        wm = context.window_manager
        wm.progress_begin(0, 100)
        self._timer = wm.event_timer_add(0.001, window=context.window)
        wm.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def _end_modal(self, context):
        wm = context.window_manager
        if self._timer is not None:
            wm.event_timer_remove(self._timer)
            self._timer = None
        wm.progress_end()

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
                context.window_manager.progress_update(int(100 * done))
        except StopIteration:
            self._end_modal(context)
            return self._finish(context)
        except (GeometryError, ValueError) as exc:
            self._end_modal(context)
            return self._fail(context, exc)
        return {"RUNNING_MODAL"}


def _summary_line(sweep: SweepRecord) -> str:
    head = "Sweep stopped early: " if sweep.cancelled else ""
    pairs = sweep.extra.get("pairs")
    if pairs:
        meeting = sum(1 for p in pairs if p["first_contact_frame"] is not None)
        head += f"{len(pairs)} pairs, {meeting} meet; shown: "
    if sweep.first_contact_frame is None:
        closest = "" if sweep.closest_frame is None else (
            f", closest {sweep.closest_distance:.6g} at frame {sweep.closest_frame:.3f}")
        return f"{head}'{sweep.object_a}' and '{sweep.object_b}' never meet{closest}"
    deepest = "" if sweep.deepest_frame is None else (
        f", deepest {sweep.deepest_depth:.6g} at frame {sweep.deepest_frame:.3f}")
    pair = f"'{sweep.object_a}' and '{sweep.object_b}'"
    return f"{head}{pair} first meet at frame {sweep.first_contact_frame:.3f}{deepest}"


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
