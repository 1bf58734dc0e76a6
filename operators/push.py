# SPDX-License-Identifier: GPL-3.0-or-later
"""Push Apart and Move to Contact: move B (the selected object that is not active) until it is `gap` from A.

- `collision.push_apart(gap=0)`: an intersecting B moves by the answer's `separation` (`core.Contact`: the world
  move of length depth + gap after which B no longer intersects A) plus `gap` along the same direction, in one
  step, for meshes as for convex shapes; a B closer than `gap` but not intersecting moves out along the normal by
  (gap - distance).
- `collision.move_to_contact(gap=0)`: a separated B moves towards A along the normal by (distance - gap).
For convex shapes (Hull mode) `separation` is the depth along the normal and one move is exact: the penetration
depth is the shortest translation that separates two convex shapes.  Every move is confirmed by re-checking
through the one pipeline; when the re-check finds B farther than `gap` (a mesh's separating move can be longer
than the shortest one), B closes the rest along the new normal, as Move to Contact does: a translation no longer
than the distance cannot make the two overlap.  Up to `MAX_STEPS` re-checks, until |distance - gap| is within the
touching band.  In Exact mode every check of the pair in one run (the first, the re-checks, the nudges) shares one
`core.PairHistory`, as live mode and the sweep do: each re-check starts from what the last one learnt, with the
same answer as a fresh check.

Blender keeps locations in float32, so the band (1e-9 x the pair's size) is not always reachable: each move's
float32 location is rounded towards the safe side (away from A), B is left on that side (distance >= gap, never
overlapping) by at most a few float32 steps, and the report gives the residual.  The move is made in world space:
the translation is turned into a change of `location` through the linear part of (matrix_world @
matrix_basis^-1), which includes any parent and its parent inverse.  B is refused when its location is locked,
driven or moved by a constraint.  Each operator is one undo step.

With a window, a run that is not done within `modal_run.FIRST_S` (meshes in Exact mode: the first check's depth
interval, then each re-check's, can take seconds) goes on as a modal run (`modal_run.ProgressRun`, as Check
Collision's): `place_steps` on a window timer, the progress bar and the engine's stage in the status bar.  Esc
stops it at the engine's next report and puts B back where it was: nothing changes, no undo step, no result
stored.  Without a window (scripts, the redo panel's `execute`) it runs straight through (`place`).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

import bpy
from bpy.props import FloatProperty

from ..core import PairHistory, Status
from ..results import text
from ..results.record import Mode
from . import modal_run, reading, store
from .check import check_settings, failure_message, poll_ready
from .checking import check_pair, check_pair_steps
from .reading import SelectionError, pick_pair

MAX_STEPS = 8
"""Re-checks (and corrections) after the first move."""
MAX_NUDGES = 64
"""float32 steps taken towards the safe side when the band cannot be hit exactly."""

# Constraint types that leave an object's location alone (they rotate or scale it); any other enabled one moves it.
_LOCATION_FREE_CONSTRAINTS = frozenset({
    "COPY_ROTATION", "COPY_SCALE", "LIMIT_ROTATION", "LIMIT_SCALE", "TRACK_TO", "DAMPED_TRACK", "LOCKED_TRACK",
    "MAINTAIN_VOLUME", "STRETCH_TO"})


def location_problem(obj) -> str | None:
    """Why `obj`'s location cannot be changed by the add-on, or None."""
    if any(obj.lock_location):
        return f"'{obj.name}' has a locked location (unlock it in the Transform panel)"
    animation = obj.animation_data
    if animation is not None:
        for driver in animation.drivers:
            if driver.data_path in ("location", "delta_location") and not driver.mute:
                return f"'{obj.name}' has its location driven by a driver"
    for constraint in obj.constraints:
        enabled = constraint.enabled if hasattr(constraint, "enabled") else not constraint.mute
        if enabled and constraint.influence > 0.0 and constraint.type not in _LOCATION_FREE_CONSTRAINTS:
            kind = constraint.type.replace("_", " ").title()
            return (f"'{obj.name}' has a '{constraint.name}' constraint ({kind}) that moves it: "
                    f"disable or apply it first")
    return None


def world_to_location(obj, translation) -> np.ndarray:
    """The change of `obj.location` that moves it by the world vector `translation`."""
    world = np.array(obj.matrix_world, dtype=np.float64)
    basis = np.array(obj.matrix_basis, dtype=np.float64)
    above = world @ np.linalg.inv(basis)  # parent, parent inverse (identity without a parent)
    return np.linalg.solve(above[:3, :3], np.asarray(translation, dtype=np.float64))


def _move(obj, translation, safe=None) -> bool:
    """Move by a world translation; False, with the location left as it was, when float32 storage cannot make
    the move (the location would not get half way along it: a move below the location's float32 step).
    `safe`: a world direction away from A; each coordinate that float32 rounded short of its target along it is
    stepped once more that way, so that rounding never leaves B closer to A than the move meant."""
    before = tuple(obj.location)
    step = world_to_location(obj, translation)
    outward = world_to_location(obj, safe) if safe is not None else None  # before matrix_basis changes
    target = np.array(before, dtype=np.float64) + step
    obj.location = tuple(target.tolist())
    if outward is not None:
        location = np.array(obj.location, dtype=np.float32)
        for i in range(3):
            if outward[i] != 0.0 and (float(location[i]) - target[i]) * outward[i] < 0.0:
                location[i] = np.nextafter(location[i], np.float32(np.inf if outward[i] > 0.0 else -np.inf))
        obj.location = tuple(float(v) for v in location)
    made = np.array(obj.location, dtype=np.float64) - np.array(before, dtype=np.float64)
    if float(np.dot(made, step)) < 0.5 * float(np.dot(step, step)):
        obj.location = before
        return False
    return True


def separating_move(contact, gap: float) -> np.ndarray | None:
    """Push Apart's move of an intersecting B: `contact.separation` plus `gap` along it; None when the answer
    carries no separating move (a zero or non-finite vector), and then B moves along the normal instead."""
    move = np.asarray(contact.separation, dtype=np.float64)
    length = float(np.linalg.norm(move))
    if not (np.isfinite(length) and length > 0.0):
        return None
    return move * ((length + gap) / length)


def _nudge(obj, direction, sign: float) -> None:
    """One float32 step of the location in the direction of sign * direction (world), per significant axis."""
    local = world_to_location(obj, direction)
    scale = np.max(np.abs(local))
    location = np.array(obj.location, dtype=np.float32)
    for i in range(3):
        if abs(local[i]) >= 0.25 * scale:
            toward = np.float32(np.inf if sign * local[i] > 0 else -np.inf)
            location[i] = np.nextafter(location[i], toward)
    obj.location = tuple(float(v) for v in location)


def pair_settings(settings):
    """The settings for every check of one pair in one run: in Exact mode with a `core.PairHistory` of its own
    (unless the caller gave one), so each re-check starts from the last; the answers are a fresh check's."""
    if settings.mode is Mode.EXACT and settings.history is None:
        return replace(settings, history=PairHistory())
    return settings


def _span(k: int) -> tuple[float, float]:
    """The part of the progress bar given to a run's check `k` (0: the first): half of what is left each time,
    since how many re-checks a move needs is known only at the end."""
    return 1.0 - 0.5 ** k, 1.0 - 0.5 ** (k + 1)


def _checker(stepwise: bool):
    """How `place_steps` checks the pair: `checking.check_pair_steps` (the core's reports yielded, the pair's
    check stoppable) or, straight, `checking.check_pair` as a generator that yields nothing (no thread)."""
    if stepwise:
        return check_pair_steps

    def straight(obj_a, obj_b, depsgraph, settings, cache=None, part=None):
        return check_pair(obj_a, obj_b, depsgraph, settings, cache=cache)
        yield  # a generator: nothing to report

    return straight


def place_steps(context, obj_a, obj_b, gap: float, settings, cache=None, separate: bool = False, record=None,
                stepwise: bool = True):
    """`place` in steps, for a run that shows progress and may be stopped: a generator that yields the core's
    `core.Progress` reports of each check (each placed in its part of the bar, `_span`) and returns what `place`
    returns.  B is moved between the checks (on the caller's thread): a run stopped part way leaves B where
    the last move put it, and the caller puts it back.  `stepwise=False`: no report, no thread (`place`)."""
    cache = reading.GEOMETRY_CACHE if cache is None else cache
    check = _checker(stepwise)
    checks = 0
    before = 0 if record is None else 1  # the caller's check was the run's first

    def measure():
        return (yield from check(obj_a, obj_b, context.evaluated_depsgraph_get(), settings, cache=cache,
                                 part=_span(before + checks)))

    if record is None:
        record = yield from measure()
        checks = 1
    rounded_out = separate  # Push Apart rounds each move's float32 location away from A; Move to Contact does not
    for _ in range(MAX_STEPS):
        contact = record.contact
        normal = np.asarray(contact.normal)
        move = separating_move(contact, gap) if separate and contact.intersecting else None
        if move is not None:
            safe = move
        else:
            separate = False  # apart once (or no separating move known): the rest is along the normal
            residual = contact.distance - gap
            if abs(residual) <= contact.touching_tolerance:
                break
            move, safe = -residual * normal, normal
        if not _move(obj_b, move, safe if rounded_out else None):
            break
        record = yield from measure()
        checks += 1
    normal = np.asarray(record.contact.normal)
    for _ in range(MAX_NUDGES):  # float32 left it closer than asked: step out to the safe side
        contact = record.contact
        if contact.distance - gap >= -contact.touching_tolerance:
            break
        _nudge(obj_b, normal, +1.0)
        record = yield from measure()
        checks += 1
    return record, checks


def place(context, obj_a, obj_b, gap: float, settings, cache=None, separate: bool = False, record=None):
    """Move B until |distance - gap| is within the band, re-checking after every move; never left closer than
    `gap` by float32 rounding.  `separate` (Push Apart): while the pair intersects and has not been apart yet, B
    moves by the answer's separating move (`separating_move`) instead of along the normal.  `settings`: as
    `pair_settings` gives them (one history for all the checks).  `record`: the pair's check where it stands
    now, made with these settings, when the caller has it (else it is made here).  The final record and the
    number of checks made here.  All of `place_steps` in one go."""
    return modal_run.run_through(place_steps(context, obj_a, obj_b, gap, settings, cache, separate, record,
                                             stepwise=False))


def move_steps(context, obj_a, obj_b, gap: float, settings, separate: bool, refuse, stepwise: bool = True):
    """An operator's whole run in steps (`place_steps`): the pair's first check, then, unless `refuse(record)`
    gives a reason not to move, B placed.  Returns (the last record, the refusal or None)."""
    first = _checker(stepwise)(obj_a, obj_b, context.evaluated_depsgraph_get(), settings,
                               cache=reading.GEOMETRY_CACHE, part=_span(0))
    record = yield from first
    refusal = refuse(record)
    if refusal:
        return record, refusal
    record, _checks = yield from place_steps(context, obj_a, obj_b, gap, settings, separate=separate,
                                             record=record, stepwise=stepwise)
    return record, None


class _MoveB(modal_run.ProgressRun):
    """Shared body of the two operators.  With a window, a run not done within `modal_run.FIRST_S` (meshes in
    Exact mode) goes on as a modal run with progress; Esc stops it and B goes back where it was (the checks move
    it on the way): nothing changed, no undo step.  Done, the move is one undo step."""

    bl_options = {"REGISTER", "UNDO"}

    gap: FloatProperty(name="Gap", subtype="DISTANCE", unit="LENGTH", min=0.0, default=0.0, precision=4,
                       description="Leave A and B this far apart (0: touching)")

    @classmethod
    def poll(cls, context):
        return poll_ready(cls, context)

    separate = False
    """Push Apart: an intersecting B moves by the answer's separating move (see `place`)."""

    _moved = None
    """B, while a run may have moved it, and its location before (`_restore`)."""

    def refuse(self, record) -> str | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _start(self, context, stepwise: bool):
        """The run's steps (`move_steps`), B and its location remembered; None (and an ERROR report) when the
        pair cannot be moved."""
        try:
            obj_a, obj_b = pick_pair(context)
        except SelectionError as exc:
            self.report({"ERROR"}, str(exc))
            return None
        problem = location_problem(obj_b)
        if problem:
            self.report({"ERROR"}, f"Cannot move B: {problem}")
            return None
        self._names = (obj_a.name, obj_b.name)
        self._moved = (obj_b, tuple(obj_b.location))
        settings = pair_settings(check_settings(context))
        return move_steps(context, obj_a, obj_b, self.gap, settings, self.separate, self.refuse, stepwise)

    def _begin(self, context) -> bool:
        self._steps = self._start(bpy.context, stepwise=True)  # bpy.context: current at every later tick
        return self._steps is not None

    def _restore(self, context):
        """B back at its location before the run (a run cancelled or failed part way)."""
        if self._moved is not None:
            obj_b, before = self._moved
            self._moved = None
            try:
                if tuple(obj_b.location) != before:
                    obj_b.location = before
            except ReferenceError:  # B was removed meanwhile (another file loads): nothing to put back
                pass

    def _failure(self, exc):
        return failure_message(*self._names, exc)

    def execute(self, context):
        steps = self._start(context, stepwise=False)
        if steps is None:
            return {"CANCELLED"}
        try:
            value = modal_run.run_through(steps)
        except Exception as exc:
            self._restore(context)
            self.report({"ERROR"}, self._failure(exc))
            return {"CANCELLED"}
        return self._publish(context, value)

    def _publish(self, context, value):
        record, refusal = value
        obj_b, before = self._moved
        self._moved = None
        store.store(context.window_manager, record)
        if refusal:
            self.report({"INFO"}, refusal)
            return {"CANCELLED"}
        if tuple(obj_b.location) == before:
            self.report({"INFO"}, f"'{obj_b.name}' did not need to move")
            return {"CANCELLED"}
        units = context.scene.unit_settings
        words = text.summary_line(record, units)
        if obj_b.animation_data is not None and obj_b.animation_data.action is not None:
            words += " (B's location is animated: key it, or the next frame change undoes the move)"
        self.report({"INFO"}, f"Moved '{obj_b.name}': {words}")
        return {"FINISHED"}


class COLLISION_OT_push_apart(_MoveB, bpy.types.Operator):
    """Move B (the selected object that is not active) out of A in one move that separates them (for convex \
shapes the shortest, along the contact normal), leaving them touching (or the gap apart)"""

    bl_idname = "collision.push_apart"
    bl_label = "Push Apart"
    bl_options = {"REGISTER", "UNDO"}
    separate = True

    def refuse(self, record):
        if record.status is Status.SEPARATED and record.distance >= self.gap:
            return f"'{record.object_a}' and '{record.object_b}' are already apart: nothing to push"
        return None


class COLLISION_OT_move_to_contact(_MoveB, bpy.types.Operator):
    """Move B (the selected object that is not active) towards A along the contact normal until they touch \
(or are the gap apart)"""

    bl_idname = "collision.move_to_contact"
    bl_label = "Move to Contact"
    bl_options = {"REGISTER", "UNDO"}

    def refuse(self, record):
        if record.status is not Status.SEPARATED:
            return (f"'{record.object_a}' and '{record.object_b}' already touch or intersect: "
                    f"use Push Apart")
        if record.distance <= self.gap:
            return f"'{record.object_a}' and '{record.object_b}' are already within the gap"
        return None


CLASSES = (COLLISION_OT_push_apart, COLLISION_OT_move_to_contact)
