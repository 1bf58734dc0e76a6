# SPDX-License-Identifier: GPL-3.0-or-later
"""The add-on's Blender properties.  Other modules reach the registered groups through `access` (`state()`,
`settings()`), not through this module, which imports the modules its update callbacks call (`store`, `live`,
`scene_ops`).

- `CollisionResult`: the mirror of one `results.record.CheckRecord` for scripts and the UI.  Write-only from the
  add-on's side: `store` fills it with one loop over `results.record.mirror_fields`, nothing reads it back.
  Blender keeps these floats as float32; the exact float64 record lives on the Python side (`store`).
- `CollisionInspectorState` on the WindowManager (transient, never saved): `result` (the active record),
  `results` (every record of the last check, worst first) with `active_index`, and the overlay toggles.
- `CollisionInspectorSettings` on the Scene (saved in the .blend): how to check (mode, groups, clearance,
  touching, live).

Objects are remembered by name plus an identity number, not by ID pointer: a PointerProperty on the WindowManager
is not cleared when the object is deleted (measured in bpy 5.0: it dangles).
"""
from __future__ import annotations

import bpy
from bpy.props import (BoolProperty, CollectionProperty, EnumProperty, FloatProperty, FloatVectorProperty,
                       IntProperty, PointerProperty, StringProperty)

from . import access, live, scene_ops, store
from .scene_check import SCOPE_ITEMS

STATUS_ITEMS = (
    ("NONE", "None", "No check has been run (or the result was cleared)"),
    ("SEPARATED", "Separated", "A gap separates the objects: distance and closest points"),
    ("TOUCHING", "Touching", "The objects touch within the touching tolerance"),
    ("INTERSECTING", "Intersecting", "The objects overlap: penetration depth, normal and witness points"),
)
MODE_ITEMS = (
    ("EXACT", "Exact", "The meshes themselves: triangles, and inside/outside for closed meshes"),
    ("HULL", "Hull", "Each object as its convex hull (fast; a hollow or concave object counts as filled)"),
    ("LOOSE_PARTS", "Loose Parts", "Each loose part of a mesh as its own convex hull; the worst pair of parts"),
)
CONTAINMENT_ITEMS = (
    ("NONE", "None", "Neither object lies wholly inside the other"),
    ("A_INSIDE_B", "A inside B", "A lies wholly inside the closed mesh B, no surfaces cross"),
    ("B_INSIDE_A", "B inside A", "B lies wholly inside the closed mesh A, no surfaces cross"),
)


def _on_display_change(_self, _context):
    store.notify()


def _on_active_index(self, context):
    if store.activate(context.window_manager, self.active_index):
        scene_ops.on_row_chosen(context)  # select the pair (A active) and frame it


class CollisionResult(bpy.types.PropertyGroup):
    """One check's result, for scripts: `bpy.context.window_manager.collision_inspector.result`."""

    status: EnumProperty(name="Status", items=STATUS_ITEMS, default="NONE")
    distance: FloatProperty(
        name="Distance", subtype="DISTANCE", unit="LENGTH", precision=6,
        description="Signed distance in scene units: > 0 separated, < 0 intersecting (depth = -distance)")
    depth: FloatProperty(
        name="Depth", subtype="DISTANCE", unit="LENGTH", precision=6, min=0.0,
        description="Penetration depth (0 unless intersecting): a certified lower bound, no shorter move of B "
                    "separates the objects")
    depth_upper: FloatProperty(
        name="Depth Upper Bound", subtype="DISTANCE", unit="LENGTH", precision=6, min=0.0,
        description="The depth interval's upper end, depth + gap: the length of Separation (0 unless intersecting)")
    separation: FloatVectorProperty(
        name="Separation", size=3, subtype="TRANSLATION", unit="LENGTH",
        description="World move of B, of length Depth Upper Bound, after which B no longer intersects A (what "
                    "Push Apart does); zero unless intersecting")
    normal: FloatVectorProperty(
        name="Normal", size=3, subtype="DIRECTION",
        description="Unit vector from A towards B; intersecting: moving B by depth * normal makes them touch")
    point_a: FloatVectorProperty(
        name="Point on A", size=3, subtype="TRANSLATION", unit="LENGTH",
        description="World point on A: closest point when separated, witness (deepest) point when intersecting")
    point_b: FloatVectorProperty(
        name="Point on B", size=3, subtype="TRANSLATION", unit="LENGTH",
        description="World point on B: closest point when separated, witness (deepest) point when intersecting")
    object_a: StringProperty(name="Object A", description="Name of object A (the active object at check time)")
    object_b: StringProperty(name="Object B", description="Name of object B (the other selected object)")
    mode: EnumProperty(name="Mode", items=MODE_ITEMS, default="HULL", description="What the check compared")
    containment: EnumProperty(name="Containment", items=CONTAINMENT_ITEMS, default="NONE")
    open_a: BoolProperty(name="A Is Open", description="A is not closed: nothing can be inside it")
    open_b: BoolProperty(name="B Is Open", description="B is not closed: nothing can be inside it")
    overlap_volume: FloatProperty(
        name="Overlap Volume", precision=6, default=-1.0,
        description="Volume of the overlap of A and B in cubed scene units (Exact mode pair check); 0 when they do "
                    "not overlap; -1 when not computed or undefined (an open mesh has no inside)")
    overlap_exact: BoolProperty(
        name="Overlap Exact", default=True,
        description="The overlap volume is exact; False: the engine could not certify it (a mesh against a copy of "
                    "itself turned by a hair) and the volume is an estimate")
    gjk_iterations: IntProperty(name="GJK Iterations", min=0)
    epa_iterations: IntProperty(name="EPA Iterations", min=0)
    time_ms: FloatProperty(name="Time (ms)", min=0.0, description="Time spent in the collision query")
    read_ms: FloatProperty(name="Read Time (ms)", min=0.0, description="Time spent reading the evaluated meshes")
    converged: BoolProperty(name="Converged", default=True,
                            description="Every stage met its tolerance: the distance is certified")
    fallback_used: BoolProperty(name="Fallback Used",
                                description="A degenerate configuration was resolved by a fallback")
    iteration_cap_hit: BoolProperty(name="Iteration Cap Hit")
    gap: FloatProperty(name="Accuracy", unit="LENGTH", precision=9, min=0.0,
                       description="Certified bound on the distance's error")
    is_stale: BoolProperty(name="Stale", description="Object A or B changed after the check")
    within_clearance: BoolProperty(name="Within Clearance",
                                   description="Separated, but by less than the scene's clearance")
    scale: FloatProperty(name="Scale", unit="LENGTH", description="Size of the pair (largest bounding-box diagonal)")
    touching_tolerance: FloatProperty(name="Touching Tolerance", unit="LENGTH", precision=9)
    part_a: IntProperty(name="Part A", default=-1, min=-1,
                        description="Check Object: the loose part that is A (-1: not a part pair)")
    part_b: IntProperty(name="Part B", default=-1, min=-1,
                        description="Check Object: the loose part that is B (-1: not a part pair)")


class CollisionObjectCheck(bpy.types.PropertyGroup):
    """The last Check Object (`collision.check_object`), for scripts:
    `bpy.context.window_manager.collision_inspector.object_check`.  Its listed part pairs (and the
    self-intersection row) are the `results` items; written by `store.set_records` only."""

    has_result: BoolProperty(name="Has Result", description="The results list is a Check Object's")
    object_name: StringProperty(name="Object", description="The object checked")
    self_intersections: IntProperty(name="Self-Intersections", min=0,
                                    description="Triangle pairs of the object whose surfaces cross")
    parts: IntProperty(name="Loose Parts", min=0, description="Loose parts of the object")
    pairs: IntProperty(name="Pairs Listed", min=0,
                       description="Pairs of parts that cross, touch, or are no farther apart than the clearance")
    clearance: FloatProperty(name="Clearance", subtype="DISTANCE", unit="LENGTH", precision=6, min=0.0,
                             description="The clearance the parts were checked against (scene units)")
    clean: BoolProperty(name="Clean", description="No self-intersection and no pair of parts listed")


class CollisionSweepSample(bpy.types.PropertyGroup):
    """One evaluated (sub-)frame of a sweep."""

    frame: FloatProperty(name="Frame")
    status: EnumProperty(name="Status", items=STATUS_ITEMS, default="NONE")
    distance: FloatProperty(name="Distance", subtype="DISTANCE", unit="LENGTH", precision=6,
                            description="Signed distance at this frame: > 0 separated, < 0 intersecting")


class CollisionSweep(bpy.types.PropertyGroup):
    """The last sweep (`collision.sweep`), for scripts: `bpy.context.window_manager.collision_inspector.sweep`.
    Written by `store.set_sweep` only; the exact record is `store.sweep_record()`."""

    has_result: BoolProperty(name="Has Result", description="A sweep has been run")
    object_a: StringProperty(name="Object A")
    object_b: StringProperty(name="Object B")
    meets: BoolProperty(name="Meets", description="A and B touch or intersect at some time of the range")
    first_contact_frame: FloatProperty(name="First Contact Frame", precision=4,
                                       description="Earliest (sub-)frame at which they touch (valid when Meets)")
    has_deepest: BoolProperty(name="Has Deepest", description="They intersect at some time of the range")
    deepest_frame: FloatProperty(name="Deepest Frame", precision=4)
    deepest_depth: FloatProperty(name="Deepest Depth", subtype="DISTANCE", unit="LENGTH", precision=6, min=0.0)
    closest_frame: FloatProperty(name="Closest Frame", precision=4,
                                 description="Frame of the smallest distance (the first contact when they meet)")
    closest_distance: FloatProperty(name="Closest Distance", subtype="DISTANCE", unit="LENGTH", precision=6)
    frame_start: IntProperty(name="Start")
    frame_end: IntProperty(name="End")
    cancelled: BoolProperty(name="Cancelled", description="Stopped with Esc: partial result")
    evaluations: IntProperty(name="Evaluations", description="Times the pair was checked (samples + refinement)")
    deforming: StringProperty(name="Deforming",
                              description="The objects whose shape changed between two sampled frames (names)")
    deformation_followed: BoolProperty(
        name="Deformation Followed",
        description="Every deforming object's vertices were followed between the sampled frames (not only the "
                    "samples): see docs/motion.md for what that assumes")
    samples: CollectionProperty(type=CollisionSweepSample)


class CollisionInspectorState(bpy.types.PropertyGroup):
    """Transient add-on state on the WindowManager: the results and the overlay settings."""

    result: PointerProperty(type=CollisionResult)
    results: CollectionProperty(type=CollisionResult)
    active_index: IntProperty(name="Active Result", default=-1, min=-1, update=_on_active_index)
    show_overlay: BoolProperty(
        name="Show Overlay", default=True, update=_on_display_change,
        description="Draw the normal, witness or closest points and the distance in the 3D viewport")
    draw_through: BoolProperty(
        name="Draw Through Geometry", default=True, update=_on_display_change,
        description="Draw the overlay on top of the objects (X-ray) instead of hiding it behind them")
    sweep: PointerProperty(type=CollisionSweep)
    object_check: PointerProperty(type=CollisionObjectCheck)


def _on_live(self, context):
    live.set_enabled(context, self.live)


class CollisionInspectorSettings(bpy.types.PropertyGroup):
    """How to check, saved with the scene: `bpy.context.scene.collision_inspector`."""

    mode: EnumProperty(name="Mode", items=MODE_ITEMS, default="EXACT",
                       description="What to compare: the meshes themselves, their convex hulls, or the hulls of "
                                   "their loose parts")
    group_a: PointerProperty(name="Group A", type=bpy.types.Collection,
                             description="Scene check: every object of this collection (and its children)")
    group_b: PointerProperty(name="Group B", type=bpy.types.Collection,
                             description="Scene check: checked against every object of Group A; empty: every pair "
                                         "within Group A")
    clearance: FloatProperty(name="Clearance", subtype="DISTANCE", unit="LENGTH", min=0.0, default=0.0,
                             precision=4,
                             description="Scene check: also list pairs separated by less than this distance; "
                                         "Check Object: list the pairs of loose parts closer than this (the "
                                         "printer's gap for print-in-place models)")
    scope: EnumProperty(name="Scope", items=SCOPE_ITEMS, default="VISIBLE",
                        description="Scene check: which objects Check All checks")
    ignore_touching: BoolProperty(name="Ignore Touching", default=False,
                                  description="Scene check: leave out pairs that only touch")
    overlap_volumes: BoolProperty(name="Overlap Volumes", default=False,
                                  description="Scene check in Exact mode: also measure how much each intersecting "
                                              "pair overlaps (its volume; takes about as long again)")
    live: BoolProperty(name="Live", default=False, update=_on_live,
                       description="Re-check the shown pair (and the results list) whenever its objects change")


CLASSES = (CollisionResult, CollisionSweepSample, CollisionSweep, CollisionObjectCheck, CollisionInspectorState,
           CollisionInspectorSettings)


def register_properties() -> None:
    """Hang the groups where `access.state` and `access.settings` look for them."""
    setattr(bpy.types.WindowManager, access.GROUP, PointerProperty(type=CollisionInspectorState))
    setattr(bpy.types.Scene, access.GROUP, PointerProperty(type=CollisionInspectorSettings))


def unregister_properties() -> None:
    for owner in (bpy.types.Scene, bpy.types.WindowManager):
        try:
            delattr(owner, access.GROUP)
        except AttributeError:
            pass
