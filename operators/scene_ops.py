# SPDX-License-Identifier: GPL-3.0-or-later
"""The scene operators: `collision.check_all` (every clash in a scope) and `collision.export_report`.

`check_all` runs `scene_check` in slices on a window timer when it has a window (progress bar, a count in the
status bar, Esc cancels and keeps what was found) and straight through in `execute()` otherwise.  The list goes to
the one writer (`store.set_records`).  Like the pair check it changes nothing in the scene: no undo step.
Choosing a row of the results list selects its pair (A active) and frames it (`on_row_chosen`).
"""
from __future__ import annotations

import datetime
import os

import bpy
from bpy.props import EnumProperty, StringProperty

from ..results import report as report_data
from . import access, changes, modal_run, object_check, scene_check, store
from .check import poll_ready

SCOPE_ITEMS = scene_check.SCOPE_ITEMS
STEP_S = 0.08
"""Time spent reading objects or checking pairs per timer tick of the interactive run (the rest goes to
redrawing)."""
PROGRESS_STEPS = 1000
READ_SHARE = 0.3
"""The share of the progress bar given to reading the objects (the checks get the rest)."""

_last_run: dict = {}
"""How the list in the store was made (scope, mode, clearance, counts, date): the report's header."""

_instance_sources: dict = {}
"""identity of an instanced object -> identities of its instancers in the last run (see `_on_objects_changed`)."""


def _on_objects_changed(changed: set) -> None:
    """Depsgraph listener: an instanced object changed, so every instance of it did: mark its instancers' rows
    stale (the rows of an instance carry the instancer's identity)."""
    owners = set()
    for uid in changed:
        owners |= _instance_sources.get(uid, set())
    if owners:
        store.mark_stale(None, owners)


def last_run() -> dict:
    """How the last scene check ran: scope, mode, clearance, objects, pairs_checked, cancelled, scene, date, and
    the pairs it listed (to tell whether the store still holds its list)."""
    return dict(_last_run)


def _pairs_of(records) -> tuple:
    return tuple((r.identity_a, r.identity_b, r.object_a, r.object_b) for r in records)


def _remember(context, run: scene_check.SceneRun, scope: str, records) -> None:
    _last_run.clear()
    _last_run.update(
        pairs=_pairs_of(records),
        scope=scope, mode=run.settings.mode.name, clearance=run.settings.clearance,
        objects=len(run.gathered.entries), pairs_checked=run.position, cancelled=run.cancelled,
        skipped=list(run.gathered.skipped),
        scene=context.scene.name if context.scene else "",
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))


def _publish(operator, context, run: scene_check.SceneRun, scope: str) -> None:
    records = run.finish()
    _remember(context, run, scope, records)
    _instance_sources.clear()
    _instance_sources.update(run.gathered.sources)
    if _instance_sources:
        changes.add_depsgraph_listener(_on_objects_changed)
    store.set_records(context.window_manager, records, 0)
    for problem in run.gathered.problems[:5] + run.failed[:5]:
        operator.report({"WARNING"}, problem)
    operator.report({"INFO"}, run.summary())


def begin_run(operator, context, scope: str):
    """Start reading the scope; None (and an ERROR report) when it cannot be checked."""
    try:
        return scene_check.begin(context, scope, access.settings(context.scene))
    except scene_check.ScopeError as exc:
        operator.report({"ERROR"}, str(exc))
        return None


def ready_run(operator, gathering, scope: str):
    """The checking run once everything is read; None (and a WARNING report) when there is nothing to check.
    Nothing in the store changes then."""
    run = gathering.run()
    message = scene_check.too_few(run, scope)
    if message:
        operator.report({"WARNING"}, message)
        return None
    return run


def start_run(operator, context, scope: str):
    """Read the scope and find its candidate pairs in one go (see `begin_run`, `ready_run`)."""
    gathering = begin_run(operator, context, scope)
    if gathering is None:
        return None
    gathering.step()
    return ready_run(operator, gathering, scope)


class COLLISION_OT_check_all(bpy.types.Operator):
    """Check every pair of objects in the scope: list each pair that intersects, touches or is closer than the \
clearance, worst first"""

    bl_idname = "collision.check_all"
    bl_label = "Check All"
    bl_options = {"REGISTER"}  # read-only: no undo step

    scope: EnumProperty(name="Scope", items=SCOPE_ITEMS, default="VISIBLE")

    _run = None
    _gathering = None
    _timer = None

    @classmethod
    def poll(cls, context):
        return poll_ready(cls, context, pair=False)

    def execute(self, context):
        run = start_run(self, context, self.scope)
        if run is None:
            return {"CANCELLED"}
        wm = context.window_manager
        wm.progress_begin(0, max(1, run.total))
        try:
            run.step()
        finally:
            wm.progress_end()
        _publish(self, context, run, self.scope)
        return {"FINISHED"}

    def invoke(self, context, event):
        if context.window is None:
            return self.execute(context)
        gathering = begin_run(self, context, self.scope)
        if gathering is None:
            return {"CANCELLED"}
        self._gathering, self._run = gathering, None
        modal_run.start(self, context, PROGRESS_STEPS, 0.01)
        self._status(context)
        return {"RUNNING_MODAL"}

    def _status(self, context):
        """The count in the status bar and the progress bar: reading is the first READ_SHARE of it."""
        run, gathering = self._run, self._gathering
        if run is None:
            text = f"Collision check: reading {gathering.position} / {gathering.total} objects (Esc to cancel)"
            done = READ_SHARE * gathering.position / max(1, gathering.total)
        else:
            working = f", pair {run.position + 1}: {run.working}" if run.working else ""
            text = (f"Collision check: {run.position} / {run.total} pairs{working}, {len(run.found)} found "
                    f"(Esc to cancel)")
            done = READ_SHARE + (1.0 - READ_SHARE) * run.position / max(1, run.total)
        modal_run.show(context, done, PROGRESS_STEPS, text)

    def _end(self, context, publish: bool = True):
        modal_run.stop(self, context)
        if publish:
            _publish(self, context, self._run, self.scope)
        self._run = self._gathering = None

    def modal(self, context, event):
        run = self._run
        if event.type == "ESC":
            if run is None:  # still reading: nothing found yet, the list stays as it was
                self._end(context, publish=False)
                self.report({"INFO"}, "Collision check cancelled while reading the objects: nothing changed")
            else:
                run.cancel()
                self._end(context)
            return {"CANCELLED"}
        if event.type == "TIMER":
            if run is None:
                self._gathering.step(STEP_S)
                if self._gathering.done:
                    self._run = ready_run(self, self._gathering, self.scope)
                    if self._run is None:
                        self._end(context, publish=False)
                        return {"CANCELLED"}
            else:
                run.step(STEP_S)
                if run.done:
                    self._end(context)
                    return {"FINISHED"}
            self._status(context)
            return {"RUNNING_MODAL"}
        if event.type in modal_run.NAVIGATION:
            return {"PASS_THROUGH"}  # the view can be moved while the check runs; the scene cannot be edited
        return {"RUNNING_MODAL"}


# --------------------------------------------------------------------------------------------- row choice

def _frame(window_name: str) -> None:
    """Frame the selection in the first 3D viewport of the window (a deferred call: not inside an update)."""
    context = bpy.context
    for window in context.window_manager.windows:
        if window_name and window.screen.name != window_name:
            continue
        for area in window.screen.areas:
            if area.type != "VIEW_3D":
                continue
            region = next((r for r in area.regions if r.type == "WINDOW"), None)
            if region is None:
                continue
            try:
                with context.temp_override(window=window, area=area, region=region):
                    bpy.ops.view3d.view_selected()
            except RuntimeError:
                pass
            return


def select_pair(context, record) -> bool:
    """Select A and B of `record` (A active); False when either is gone or not in the view layer."""
    view_layer = context.view_layer
    if view_layer is None or record is None:
        return False
    obj_a = store.resolve_object("A", record)
    obj_b = store.resolve_object("B", record)
    if obj_a is None or obj_b is None:
        return False
    if view_layer.objects.get(obj_a.name) is None or view_layer.objects.get(obj_b.name) is None:
        return False
    for other in list(context.selected_objects or ()):
        other.select_set(False)
    obj_b.select_set(True)
    obj_a.select_set(True)
    view_layer.objects.active = obj_a
    return True


def on_row_chosen(context) -> None:
    """The results list's row changed: select its pair and frame it (framing only with a window)."""
    record = store.active_record()
    if record is not None and record.is_one_object:  # a Check Object row: frame its points, not the object
        object_check.frame_record(context, record)
        return
    try:
        chosen = select_pair(context, record)
    except (RuntimeError, ReferenceError, AttributeError):
        return
    window = getattr(context, "window", None)
    if chosen and window is not None and not bpy.app.background:
        screen = window.screen.name if window.screen else ""
        bpy.app.timers.register(lambda: _frame(screen), first_interval=0.0)


# --------------------------------------------------------------------------------------------- report

def build_report(context) -> dict:
    """The report of the list in the store, with the header of the run that made it."""
    scene = context.scene
    run = last_run()
    if run.get("pairs") != _pairs_of(store.records()):
        run = {}  # the list in the store is not the scene check's (a pair check came after it)
    settings = access.settings(scene) if scene is not None else None
    return report_data.report_dict(
        store.records(),
        file=bpy.data.filepath or "",
        scene=run.get("scene", scene.name if scene else ""),
        mode=run.get("mode", settings.mode if settings is not None else "HULL"),
        clearance=run.get("clearance", float(settings.clearance) if settings is not None else 0.0),
        date=run.get("date", datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")),
        scope=run.get("scope", ""),
        unit_settings=scene.unit_settings if scene is not None else None,
        objects=run.get("objects"), pairs_checked=run.get("pairs_checked"),
        cancelled=run.get("cancelled", False), skipped=run.get("skipped", ()))


def write_report(report: dict, filepath: str, fmt: str) -> None:
    if fmt == "CSV":
        report_data.write_csv(filepath, report)
    else:
        report_data.write_json(filepath, report)


class COLLISION_OT_export_report(bpy.types.Operator):
    """Write the results list (every listed pair, with the check's settings) to a JSON or CSV file"""

    bl_idname = "collision.export_report"
    bl_label = "Export Collision Report"
    bl_options = {"REGISTER"}

    filepath: StringProperty(name="File Path", subtype="FILE_PATH", default="")
    format: EnumProperty(name="Format", items=(("JSON", "JSON", "One JSON document (layout in docs/scene-check.md)"),
                                               ("CSV", "CSV", "One row per pair, '#' header lines")),
                         default="JSON")
    filter_glob: StringProperty(default="*.json;*.csv", options={"HIDDEN"})

    @classmethod
    def poll(cls, context):
        if not store.records() and not _last_run:
            cls.poll_message_set("Run Check All first")
            return False
        return True

    def invoke(self, context, _event):
        if not self.filepath:
            stem = os.path.splitext(os.path.basename(bpy.data.filepath))[0] or "collisions"
            self.filepath = f"{stem}_collisions.{self.format.lower()}"
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        if not self.filepath:
            self.report({"ERROR"}, "Give a file path for the report")
            return {"CANCELLED"}
        path = bpy.path.abspath(self.filepath)
        try:
            write_report(build_report(context), path, self.format)
        except OSError as exc:
            self.report({"ERROR"}, f"Cannot write the report to '{path}': {exc}")
            return {"CANCELLED"}
        self.report({"INFO"}, f"Wrote {len(store.records())} results to '{path}'")
        return {"FINISHED"}


def clear_last_run() -> None:
    """Forget the last scene check (another file was loaded: its header would describe objects no longer here)."""
    _last_run.clear()
    _instance_sources.clear()


CLASSES = (COLLISION_OT_check_all, COLLISION_OT_export_report)
