# SPDX-License-Identifier: GPL-3.0-or-later
"""The scene check: every clash among many objects at once.

1. `Gathering` (or `gather` in one go) turns the scope (selected objects, visible objects, or collections A and
   B) into entries: one per evaluated object, and one per instance of an instanced collection (named after its
   instancer).  Each object's geometry is read once (`reading.read_object`) and its core shape built once
   (`checking.shapes_for`); the instances of one object share its geometry and differ by their world matrix.
2. `candidate_pairs` keeps the pairs whose world bounding boxes come within the clearance (the broad phase,
   `core.candidate_pairs`).
3. `prefilter` drops the pairs a vectorised separating-axis test proves farther apart than the clearance
   (`core.ShapeBatch`, all pairs at once).
4. `SceneRun.step` checks a slice of the rest through `checking.check_geometry` (the pipeline `check_pair` is
   made of) and keeps the pairs `results.scene.is_listed` accepts; `SceneRun.finish` sorts them worst first.
   In slices, a pair of meshes (Exact mode: a depth interval, an overlap volume of seconds) is checked in the
   core's steps (`SceneRun.check_steps`), so a slice may end, and Esc stop it (`SceneRun.cancel`), mid-pair.
The operator runs the reading and checking steps on a timer when it has a window (progress, Esc cancels and keeps
what was found) and straight through otherwise (background mode, scripts, tests, the command line).
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from ..core import DEFAULT_TOLERANCES, Shape, ShapeBatch, TriangleMesh
from ..core import candidate_pairs as core_candidate_pairs
from ..results.record import CheckRecord, Mode
from ..results.scene import is_listed, listed, run_summary
from .checking import CheckSettings, check_geometry, hull, shapes_for
from .modal_run import advance, run_through, stepped
from .reading import GEOMETRY_TYPES, GeometryError, object_identity, read_object

SCOPE_ITEMS = (
    ("SELECTED", "Selected", "Every pair among the selected objects"),
    ("VISIBLE", "Visible", "Every pair among the visible objects with geometry in the view layer"),
    ("GROUPS", "Groups", "Every object of Group A against every object of Group B (no Group B: every pair "
                         "within Group A)"),
)
"""The scopes, as enum items for the scene's setting (`props`) and the Check All operator (`scene_ops`)."""
SCOPES = tuple(identifier for identifier, _name, _description in SCOPE_ITEMS)


class ScopeError(ValueError):
    """The scope cannot be checked (no Group A, no view layer); the message says what to do."""


@dataclass
class Entry:
    """One thing in the world that is checked: an object, or one instance of an instanced object."""

    name: str
    identity: int
    """The identity of the object that owns it (the instancer for an instance): stale marking, selection."""
    geometry: object
    shape: object
    in_a: bool = True
    in_b: bool = False


@dataclass
class Gathered:
    entries: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    """Names of the objects in scope without geometry (empties, cameras, lights, empty meshes)."""
    problems: list = field(default_factory=list)
    """Messages of objects that could not be read (NaN coordinates, ...)."""
    read_ms: float = 0.0
    two_groups: bool = False
    sources: dict = field(default_factory=dict)
    """identity of an instanced object -> identities of the instancers whose entries it makes (stale marking:
    editing the source changes every instance)."""


# --------------------------------------------------------------------------------------------- scope

def _in_view_layer(view_layer, objects) -> list:
    names = view_layer.objects
    return [obj for obj in objects if names.get(obj.name) is not None]


def scope_objects(context, scope: str, settings=None):
    """(objects of set A, objects of set B or None) for `scope`: original objects, in a stable order."""
    view_layer = context.view_layer
    if view_layer is None:
        raise ScopeError("Needs a scene with a view layer")
    if scope == "SELECTED":
        return list(context.selected_objects or ()), None
    if scope == "VISIBLE":
        return [obj for obj in view_layer.objects if obj.visible_get(view_layer=view_layer)], None
    if scope == "GROUPS":
        group_a = getattr(settings, "group_a", None)
        group_b = getattr(settings, "group_b", None)
        if group_a is None:
            raise ScopeError("Set Group A (a collection) for a Groups check")
        objects_a = _in_view_layer(view_layer, group_a.all_objects)
        if group_b is None:
            return objects_a, None
        return objects_a, _in_view_layer(view_layer, group_b.all_objects)
    raise ScopeError(f"Unknown scope {scope!r}: use one of {', '.join(SCOPES)}")


def _instance_name(instancer_name: str, source_name: str, several: bool) -> str:
    return f"{instancer_name}/{source_name}" if several else instancer_name


class Gathering:
    """Reading the scope, in slices: `step()` until `done`, then `result` (a `Gathered`) or `run()`.

    Construction does the cheap part: the scope's objects and the world matrix of every instance (one walk over
    `depsgraph.object_instances`).  Each step reads objects: every object once, its instances sharing the read."""

    def __init__(self, context, scope: str, settings=None, mode: Mode = Mode.HULL, depsgraph=None,
                 check_settings: CheckSettings | None = None, ignore_touching: bool = False):
        self.started = time.perf_counter()
        if context.view_layer is None:
            raise ScopeError("Needs a scene with a view layer")
        # The evaluated depsgraph first: it also brings the view layer's visibility flags up to date (objects
        # made by a script a moment ago would otherwise read as invisible).
        self.depsgraph = depsgraph if depsgraph is not None else context.evaluated_depsgraph_get()
        objects_a, objects_b = scope_objects(context, scope, settings)
        self.mode = mode
        self.check_settings = check_settings if check_settings is not None else CheckSettings(mode=mode)
        self.ignore_touching = ignore_touching
        owners: dict[int, list] = {}  # identity -> [object, in_a, in_b]
        for obj in objects_a:
            owners.setdefault(object_identity(obj), [obj, False, False])[1] = True
        for obj in objects_b or ():
            owners.setdefault(object_identity(obj), [obj, False, False])[2] = True
        self.owners = list(owners.items())
        self.position = 0
        self.result = Gathered(two_groups=objects_b is not None)
        self._geometries: dict[int, object] = {}  # source identity -> (ObjectGeometry, shape) or GeometryError
        self._instances: dict[int, list] = {}  # owner identity -> [(source original, world matrix)]
        if owners:
            seen = set()
            for instance in self.depsgraph.object_instances:
                if not instance.is_instance or instance.parent is None:
                    continue
                owner_id = object_identity(instance.parent.original)
                if owner_id not in owners:
                    continue
                key = (owner_id, tuple(instance.persistent_id))
                if key in seen:
                    continue
                seen.add(key)
                source = instance.instance_object if instance.instance_object is not None else instance.object
                self._instances.setdefault(owner_id, []).append(
                    (source.original, np.array(instance.matrix_world, dtype=np.float64)))

    @property
    def total(self) -> int:
        return len(self.owners)

    @property
    def done(self) -> bool:
        return self.position >= len(self.owners)

    def _read(self, source):
        key = object_identity(source)
        cached = self._geometries.get(key)
        if cached is None:
            try:
                geometry = read_object(source, self.depsgraph, triangles=self.mode is not Mode.HULL)
                cached = (geometry, shapes_for(geometry, self.mode))
            except GeometryError as exc:
                cached = exc
            self._geometries[key] = cached
        return cached

    def _add(self, owner_id: int, obj, in_a: bool, in_b: bool) -> None:
        result = self.result
        own = self._instances.get(owner_id, [])
        if obj.type in GEOMETRY_TYPES:
            got = self._read(obj)
            if isinstance(got, GeometryError):
                message = str(got)
                # Nothing to check (an empty mesh, a curve without splines) is skipped and counted; anything else
                # (NaN coordinates, no faces in a triangle mode) is a problem the run reports.
                if "no vertices" in message or "no geometry" in message:
                    result.skipped.append(obj.name)
                else:
                    result.problems.append(message)
            else:
                result.entries.append(Entry(obj.name, owner_id, got[0], got[1], in_a, in_b))
        elif not own:
            result.skipped.append(obj.name)
        several = len(own) > 1
        used: dict[str, int] = {}
        for source, matrix in own:
            got = self._read(source)
            if isinstance(got, GeometryError):
                continue  # an instanced empty, camera or light: nothing to check
            geometry, shape = got
            result.sources.setdefault(object_identity(source), set()).add(owner_id)
            name = _instance_name(obj.name, source.name, several)
            used[name] = used.get(name, 0) + 1
            if used[name] > 1:  # the same object instanced twice by one instancer
                name = f"{name} #{used[name]}"
            placed = dataclasses.replace(geometry, name=name, matrix_world=matrix)
            try:
                placed_shape = shape.moved(matrix)
            except (AttributeError, ValueError):
                placed_shape = shapes_for(placed, self.mode)
            result.entries.append(Entry(name, owner_id, placed, placed_shape, in_a, in_b))

    def step(self, budget_s: float | None = None) -> None:
        """Read objects until `budget_s` seconds have passed (None: all that are left)."""
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        while self.position < len(self.owners):
            owner_id, (obj, in_a, in_b) = self.owners[self.position]
            self.position += 1
            self._add(owner_id, obj, in_a, in_b)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        if self.done:
            self.result.read_ms = (time.perf_counter() - self.started) * 1e3

    def run(self) -> "SceneRun":
        """The checking run of what was read (the broad phase and the prefilter run here)."""
        return SceneRun(self.result, self.check_settings, ignore_touching=self.ignore_touching)


def gather(context, scope: str, settings=None, mode: Mode = Mode.HULL, depsgraph=None) -> Gathered:
    """The entries of the scope, each object read once; objects without geometry are listed in `skipped`."""
    gathering = Gathering(context, scope, settings, mode, depsgraph)
    gathering.step()
    return gathering.result


# --------------------------------------------------------------------------------------------- broad phase

def _geometry_box(geometry):
    """World box of the geometry's vertices (for shapes without `bounds()`)."""
    matrix = geometry.matrix_world
    world = geometry.vertices.astype(np.float64) @ matrix[:3, :3].T + matrix[:3, 3]
    return world.min(axis=0), world.max(axis=0)


def world_boxes(entries) -> tuple[np.ndarray, np.ndarray]:
    """(n, 3) lower and upper corners of the entries' world bounding boxes (the core shapes' own bounds, which
    every pair query measures too)."""
    lo = np.empty((len(entries), 3))
    hi = np.empty((len(entries), 3))
    for i, entry in enumerate(entries):
        bounds = getattr(entry.shape, "bounds", None)
        box_lo, box_hi = bounds() if bounds is not None else _geometry_box(entry.geometry)
        lo[i], hi[i] = box_lo, box_hi
    return lo, hi


def candidate_pairs(lo, hi, clearance: float, in_a, in_b=None) -> np.ndarray:
    """(k, 2) index pairs (i, j) whose boxes come within the clearance of each other: i in set A; j in set B, or
    in A when `in_b` is None (then i < j).  Each unordered pair once, never an entry with itself.

    The one place the broad phase is chosen: `core.candidate_pairs` (a numpy grid over the boxes).  The clearance
    is widened by the engine's touching band (`Tolerances.touching` x the largest diagonal): a pair a hair apart
    still counts as touching, and its boxes may be that hair apart too."""
    lo = np.asarray(lo, dtype=np.float64)
    hi = np.asarray(hi, dtype=np.float64)
    if len(lo) < 2:
        return np.empty((0, 2), dtype=np.int64)
    band = DEFAULT_TOLERANCES.touching * float(np.linalg.norm(hi - lo, axis=1).max())
    in_a = np.asarray(in_a, dtype=bool)
    if in_b is None:
        return core_candidate_pairs(lo, hi, clearance + band, in_a)
    in_b = np.asarray(in_b, dtype=bool)
    pairs = core_candidate_pairs(lo, hi, clearance + band, in_a, in_b)
    flip = ~(in_a[pairs[:, 0]] & in_b[pairs[:, 1]])  # orient every pair as (A side, B side)
    pairs[flip] = pairs[flip][:, ::-1]
    return pairs


def prefilter(entries, pairs, clearance: float) -> np.ndarray:
    """The pairs a vectorised separating-axis test cannot prove farther apart than the clearance
    (`core.ShapeBatch.candidates`: certified lower bounds over a few dozen axes, for all pairs at once).  The rest
    go through the one pipeline, `checking.check_geometry`."""
    if len(pairs) == 0:
        return pairs
    try:
        # Hulls bound every mode from below (a mesh or its parts lie inside the object's hull), so the hulls'
        # separating axes prove pairs apart for Exact and Loose Parts too.
        batch = ShapeBatch([entry.shape if isinstance(entry.shape, Shape) else hull(entry.geometry)
                            for entry in entries])
    except ValueError:
        return pairs  # shapes the batch cannot take: every pair goes to the full check
    return pairs[batch.candidates(pairs, clearance)]


# --------------------------------------------------------------------------------------------- the run

@dataclass
class SceneRun:
    """One scene check, run in slices: `step()` until `done`, then `finish()`."""

    gathered: Gathered
    settings: CheckSettings
    ignore_touching: bool = False
    pairs: np.ndarray = None
    position: int = 0
    found: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    cancelled: bool = False
    started: float = field(default_factory=time.perf_counter)

    broad_pairs: int = 0
    """Pairs the broad phase kept (before the separating-axis prefilter)."""
    _current: object = None
    """The steps of the pair under way (`check_steps`), when a slice ended in its middle."""
    working: str = ""
    """The engine's stage in the pair under way (its last `core.Progress`), for the status line; "" between pairs."""

    def __post_init__(self):
        entries = self.gathered.entries
        lo, hi = world_boxes(entries)
        in_a = [e.in_a for e in entries]
        in_b = [e.in_b for e in entries] if self.gathered.two_groups else None
        pairs = candidate_pairs(lo, hi, self.settings.clearance, in_a, in_b)
        self.broad_pairs = len(pairs)
        self.pairs = prefilter(entries, pairs, self.settings.clearance)

    @property
    def total(self) -> int:
        return len(self.pairs)

    @property
    def done(self) -> bool:
        return self.cancelled or self.position >= len(self.pairs)

    def check(self, i: int, j: int) -> CheckRecord | None:
        return run_through(self.check_steps(i, j, stepwise=False))

    def check_steps(self, i: int, j: int, stepwise: bool = True):
        """The check of entries i and j as a generator: for two meshes (`stepwise`) it yields the core's
        `core.Progress` reports (`modal_run.stepped`: closing it stops the engine there); returns the record, or
        None when the pair cannot be checked (its message kept in `failed`)."""
        a, b = self.gathered.entries[i], self.gathered.entries[j]

        def work(hook):
            return check_geometry(a.geometry, b.geometry, self.settings, identity_a=a.identity,
                                  identity_b=b.identity, shape_a=a.shape, shape_b=b.shape, progress=hook)

        try:
            if stepwise and isinstance(a.shape, TriangleMesh) and isinstance(b.shape, TriangleMesh):
                return (yield from stepped(work))
            return work(None)
        except ValueError as exc:
            self.failed.append(f"'{a.name}' and '{b.name}': {exc}")
            return None

    def step(self, budget_s: float | None = None) -> None:
        """Check pairs until `budget_s` seconds have passed (None: all that are left, each straight through).
        With a budget, a pair of meshes is checked in steps (`check_steps`) and may be left part way when the
        time is up (`position` counts the pairs done; `cancel` stops the one under way)."""
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        pairs = self.pairs
        while self.position < len(pairs):
            i, j = int(pairs[self.position][0]), int(pairs[self.position][1])
            if deadline is None:
                record = self.check(i, j)
            else:
                if self._current is None:
                    self._current = self.check_steps(i, j)
                finished, record = advance(self._current, max(0.0, deadline - time.perf_counter()),
                                           lambda progress: setattr(self, "working", progress.stage.text))
                if not finished:
                    return
                self._current, self.working = None, ""
            self.position += 1
            if record is not None and is_listed(record, self.ignore_touching):
                self.found.append(record)
            if deadline is not None and time.perf_counter() >= deadline:
                break

    def cancel(self) -> None:
        """Esc: stop here, the pair under way dropped (its engine work stopped); what was found stays."""
        self.cancelled = True
        if self._current is not None:
            self._current.close()
            self._current, self.working = None, ""

    def finish(self) -> list[CheckRecord]:
        """The listed records, worst first."""
        return listed(self.found, self.ignore_touching)

    def summary(self) -> str:
        return run_summary(len(self.found), len(self.gathered.entries), self.position, self.total,
                           skipped=len(self.gathered.skipped), failed=len(self.failed), cancelled=self.cancelled,
                           box_pairs=self.broad_pairs)


def begin(context, scope: str, scene_settings=None, depsgraph=None) -> Gathering:
    """Start reading the scope with the scene's settings (mode, clearance, ignore touching); ScopeError when the
    scope cannot be checked."""
    mode = Mode[scene_settings.mode] if scene_settings is not None else Mode.HULL
    clearance = float(scene_settings.clearance) if scene_settings is not None else 0.0
    ignore = bool(scene_settings.ignore_touching) if scene_settings is not None else False
    volumes = bool(getattr(scene_settings, "overlap_volumes", False))
    settings = CheckSettings(mode=mode, clearance=clearance, stop_beyond_clearance=True, overlap_volume=volumes)
    return Gathering(context, scope, scene_settings, mode, depsgraph, check_settings=settings,
                     ignore_touching=ignore)


def start(context, scope: str, scene_settings=None, depsgraph=None) -> SceneRun:
    """Read the scope and find the candidate pairs in one go; ScopeError when the scope cannot be checked."""
    gathering = begin(context, scope, scene_settings, depsgraph)
    gathering.step()
    return gathering.run()


def too_few(run: SceneRun, scope: str) -> str | None:
    """The message when the scope holds fewer than two checkable things, else None."""
    count = len(run.gathered.entries)
    if run.gathered.two_groups:
        a = sum(e.in_a for e in run.gathered.entries)
        b = sum(e.in_b for e in run.gathered.entries)
        if a and b and count >= 2:
            return None
        return (f"Nothing to check: Group A has {a} and Group B has {b} objects with geometry "
                f"(each needs at least one)")
    if count >= 2:
        return None
    where = {"SELECTED": "selected", "VISIBLE": "visible", "GROUPS": "in Group A"}.get(scope, scope)
    skipped = len(run.gathered.skipped)
    extra = f"; {skipped} without geometry skipped" if skipped else ""
    return f"Nothing to check: {count} object{'s' if count != 1 else ''} with geometry {where} (need 2){extra}"
