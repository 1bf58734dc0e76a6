"""A pair of deforming meshes in motion: the split rule of `core.motion.MotionSearch` that follows every vertex
between two sampled times, so a contact between samples is found even when it leaves the objects' boxes alone
(a shape key's bulge that rises and falls between two frames).  Pure numpy, no Blender.

A deforming object's `MeshPose` carries its world vertices as the pose's points (`Pose.corners`, the same vertices
at every time), so `core.motion.path_bound` bounds each vertex's travel instead of a box's corners, and its
triangles.  `DeformingSplit` is the rule for one pair; between two separated samples s0 and s1:

1. Neither object changed shape (the same local vertices at both ends): the rigid rule (`middle_split`).
2. `may_meet` (swept boxes and conservative advancement over the per-vertex travel bound) proves them apart:
   no contact in between.
3. Otherwise the middle time is evaluated (`MotionSearch.probe`) and each object's *chord error* measured: how far
   its vertices there lie from the straight line between their two ends, `e = max |x(mid) - (x0 + x1) / 2|`.
   Then the continuous test of core/mesh/ccd.py (`first_contact`) runs on the straight vertex paths with the
   pair's touching band widened by e_A + e_B (a point that strays at most e from its chord changes every distance
   by at most e): no contact -> the pair is apart in between.  Else, when e is at most `STRAIGHT` x the pair's
   size (straight paths up to float32 rounding), the earliest possible contact time is the next time the search
   evaluates (the search then brackets the contact there, or examines both sides again); when the paths are
   curved more than that, the middle time is the next one: halving an interval divides a smooth path's chord
   error by about four, so near a contact the intervals shrink until the chord is trusted or the search's
   tolerance is reached.

What this assumes, stated in the result (`Report`): between two evaluated times each vertex strays from its chord
at most as far as it does at the middle time (exact for straight paths, e = 0: linear shape-key and location
keys; true for uniform motion along a circular arc and for any path of degree two in time).  Keys split the
paths: the caller samples every key time.  Only meshes with triangles are followed this way (`mesh_a` /
`mesh_b`); without them the rule keeps step 2 and otherwise evaluates the middle (conservative advancement on
the per-vertex travel bound, down to the search's tolerance).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .contact import Contact
from .mesh.ccd import SweptMesh, first_contact
from .mesh.query import sample_meshes
from .mesh.refit import NotConvex, Refit
from .mesh.trimesh import TriangleMesh
from .motion import MotionSearch, Pose, Sample, may_meet, middle_split
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = ["MeshPose", "DeformingSplit", "Report", "SampleChecker", "chord_error", "changed_shape", "STRAIGHT",
           "GROW"]

STRAIGHT = 1e-6
"""Vertex paths whose chord error is at most this x the pair's size are taken as straight (see the docstring)."""
GROW = 0.05
"""`SampleChecker` refits a mesh's hierarchy (grown boxes) while no vertex has moved more than this x the mesh's
size since the hierarchy was built; then it builds it afresh."""


@dataclass(frozen=True, eq=False)
class MeshPose(Pose):
    """A pose whose points (`corners`) are all of the object's world vertices, in the same order at every time."""

    local: np.ndarray | None = None
    """(n, 3) the vertices in the object's own frame (what says whether its shape changed)."""
    triangles: np.ndarray | None = None
    """(m, 3) vertex indices, or None when the object has no faces to follow."""


def changed_shape(p0: Pose, p1: Pose) -> bool:
    """True when an object's shape in its own frame differs between two poses (only `MeshPose`s can say so)."""
    if not (isinstance(p0, MeshPose) and isinstance(p1, MeshPose)):
        return False
    if p0.local is p1.local:
        return False
    if p0.local is None or p1.local is None or p0.local.shape != p1.local.shape:
        return True
    return not np.array_equal(p0.local, p1.local)


def chord_error(p0: Pose, middle: Pose, p1: Pose) -> float:
    """The largest distance of a point at the middle time from the middle of its chord."""
    return float(np.linalg.norm(middle.corners - 0.5 * (p0.corners + p1.corners), axis=1).max())


@dataclass
class Report:
    """What the rule did over a search (for the result)."""

    deforming_intervals: int = 0
    """Intervals between separated samples over which an object changed shape."""
    continuous: int = 0
    """Of those, the ones settled by the continuous test or by conservative advancement on vertex travel."""
    largest_chord_error: float = 0.0
    """The largest chord error measured (see the module docstring), in the samples' length unit."""
    topology_changed: bool = False
    """Some object's vertex count changed between two samples (its vertices cannot be followed)."""
    ccd_calls: int = 0
    ccd_seconds: float = 0.0
    objects: set = field(default_factory=set)
    """'A' and/or 'B': which objects changed shape in some interval."""


class DeformingSplit:
    """The split rule of the module docstring for one pair (meshes built on first need, then shared).

    band: the touching band in the samples' length unit (None: `DEFAULT_TOLERANCES.touching` x the pair's size,
    the larger diagonal of the two objects' world boxes at the first interval examined)."""

    def __init__(self, band: float | None = None):
        self.band = band
        self.size = None
        self.report = Report()
        self._meshes: dict = {}

    def _mesh(self, which: str, pose: MeshPose) -> SweptMesh | None:
        if pose.triangles is None or len(pose.triangles) == 0:
            return None
        mesh = self._meshes.get(which)
        if mesh is None or mesh[0] is not pose.triangles and not np.array_equal(mesh[0], pose.triangles):
            mesh = self._meshes[which] = (pose.triangles, SweptMesh(pose.triangles, pose.corners))
        return mesh[1]

    def _size(self, s0: Sample) -> float:
        if self.size is None:
            self.size = max(float(np.linalg.norm(np.ptp(p.corners, axis=0))) for p in (s0.pose_a, s0.pose_b))
            if self.band is None:
                self.band = DEFAULT_TOLERANCES.touching * self.size
        return self.size

    def __call__(self, search: MotionSearch, s0: Sample, s1: Sample) -> float | None:
        deform_a = changed_shape(s0.pose_a, s1.pose_a)
        deform_b = changed_shape(s0.pose_b, s1.pose_b)
        if not (deform_a or deform_b):
            return middle_split(search, s0, s1)
        report = self.report
        report.deforming_intervals += 1
        report.objects.update(w for w, d in (("A", deform_a), ("B", deform_b)) if d)
        if any(p0.corners.shape != p1.corners.shape for p0, p1 in ((s0.pose_a, s1.pose_a), (s0.pose_b, s1.pose_b))):
            report.topology_changed = True  # no vertex to follow: the samples alone, halved to the tolerance
            return 0.5 * (s0.time + s1.time)
        if not may_meet(s0, s1):
            report.continuous += 1
            return None
        middle_time = 0.5 * (s0.time + s1.time)
        size = self._size(s0)
        mesh_a = self._mesh("A", s0.pose_a) if isinstance(s0.pose_a, MeshPose) else None
        mesh_b = self._mesh("B", s0.pose_b) if isinstance(s0.pose_b, MeshPose) else None
        if mesh_a is None or mesh_b is None:
            return middle_time  # conservative advancement alone, down to the tolerance
        middle = search.probe(middle_time)
        if middle is None:
            return middle_time  # the budget is spent: the search stops refining
        error = (chord_error(s0.pose_a, middle.pose_a, s1.pose_a) + chord_error(s0.pose_b, middle.pose_b,
                                                                                    s1.pose_b))
        report.largest_chord_error = max(report.largest_chord_error, error)
        corners = (s0.pose_a.corners, s1.pose_a.corners, s0.pose_b.corners, s1.pose_b.corners)
        origin = 0.5 * (np.min([c.min(axis=0) for c in corners], axis=0)
                        + np.max([c.max(axis=0) for c in corners], axis=0))
        duration = s1.time - s0.time
        started = time.perf_counter()
        found = first_contact(mesh_a, corners[0] - origin, corners[1] - origin, mesh_b, corners[2] - origin,
                              corners[3] - origin, self.band + error,
                              time_tolerance=search.tolerance / (16.0 * duration))
        report.ccd_calls += 1
        report.ccd_seconds += time.perf_counter() - started
        report.continuous += 1
        if found is None and not middle.in_contact:
            return None
        if found is None or error > STRAIGHT * size:
            return middle_time  # curved paths (or e underestimated the strays): halve the interval
        return min(s0.time + found * duration, middle_time) if middle.in_contact else s0.time + found * duration


class SampleChecker:
    """The pair check at each sample of a sweep over deforming meshes: `check(a, b)` gives the status and signed
    distance of `core.collide(a, b)`, with less work, for fresh meshes at every sample.

    - The hierarchies are refitted, not rebuilt: a mesh with the triangles of its side's last built hierarchy
      (new vertices on the same triangles: a shape key, an armature, a cache) takes that hierarchy with every
      box grown by how far its vertices moved since (core/mesh/refit.py), until some vertex has moved more than
      `GROW` x the mesh's size; then it is built afresh.  Any certified boxes give the same exact distance;
      among several equally close pairs of triangles another one may be reported, so `normal`, `point_a` and
      `point_b` may differ where such ties are (tests/core/test_deform_sample_checker.py holds status and
      distance to those of `core.collide`).
    - A mesh the exact convexity test rejected keeps the edges that showed it (core/mesh/refit.py `NotConvex`);
      a later sample on the same triangles where one of them still does is not tested again.
    - `core.mesh.query.sample_meshes` answers: the route and the numbers of `core.collide`, without proving the
      inner bodies of a separated pair and without an intersecting pair's hulls when only its `gap` and
      `separation` need them (`gap` is then infinite, `separation` zero).
    A sample the sweep reports is checked in full by its caller (the add-on's check of that frame)."""

    def __init__(self, tolerances: Tolerances = DEFAULT_TOLERANCES):
        if not isinstance(tolerances, Tolerances):
            raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
        self.tolerances = tolerances
        self._built: dict = {}
        self._grown: dict = {}
        self._witness: dict = {}
        self.witnessed = 0
        """How many samples were told not convex by a kept witness rather than by the full test."""
        self.refits = 0
        """How many hierarchies were refitted rather than built (for the bench and the tests)."""
        self.builds = 0

    def check(self, a: TriangleMesh, b: TriangleMesh) -> Contact:
        """Status and signed distance as `core.collide(a, b, tolerances)` (see the class docstring)."""
        for side, mesh in (("A", a), ("B", b)):
            self._refit(side, mesh)
        contact = sample_meshes(a, b, self.tolerances)
        for side, mesh in (("A", a), ("B", b)):
            self._keep(side, mesh)
        return contact

    def _refit(self, side: str, mesh: TriangleMesh) -> None:
        local = mesh._local
        witness = self._witness.get(side)
        if (witness is not None and witness[0] is local.topology and witness[1] is not None
                and "convex" not in local._cache):
            if witness[1].holds(local):
                local.cached("convex", lambda: np.bool_(False))
                self.witnessed += 1
        known = self._built.get(side)
        if (known is None or known[0] is not local.topology or known[1].vertices.shape != local.vertices.shape
                or "bvh" in local._cache):
            return
        grown, moved = known[1].grown(local.vertices)
        if not moved <= GROW * known[2]:
            return  # moved too far (or not finite): built afresh when the pipeline asks for it
        local.cached("bvh", lambda: grown)
        self._grown[side] = grown
        self.refits += 1

    def _keep(self, side: str, mesh: TriangleMesh) -> None:
        """Remember a hierarchy built for this sample (a refitted one keeps the one it grew from)."""
        local = mesh._local
        witness = self._witness.get(side)
        if (local._cache.get("convex") is not None and not local._cache["convex"]
                and (witness is None or witness[0] is not local.topology)):
            # None too is kept: a mesh with no clear witness is not measured for one again
            self._witness[side] = (local.topology, NotConvex.find(local))
        bvh = local._cache.get("bvh")
        known = self._built.get(side)
        if bvh is None or bvh is self._grown.get(side) or (known is not None and bvh is known[1].bvh):
            return
        used = local.used
        size = float(np.linalg.norm(np.ptp(local.vertices[used], axis=0)))
        self._built[side] = (local.topology, Refit(bvh, local.vertices), size)
        self.builds += 1
