# SPDX-License-Identifier: GPL-3.0-or-later
"""The records of what checks found: the Python side is the one source of truth (exact float64).

- `CheckRecord`: one pair, checked once: the `core.Contact` (world space, float64) plus what the check saw (names,
  identities, the mode, counts, times) and whether A or B has changed since (`is_stale`).  Frozen: a change
  (stale, a rename) is a new record made with `dataclasses.replace`.
- `ResultsView`: what the sidebar, the results list and the overlay show: the records (one for a pair check,
  many for a scene check, worst first), the active one, and the display toggles.
- `mirror_fields(record)`: the flat values that the Blender property group mirrors for scripts, one entry per
  property, so the writer fills the mirror with one loop and a new field is one edit here.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..core import Contact, Status

__all__ = ["Mode", "CheckRecord", "ResultsView", "SweepRecord", "SweepSample", "mirror_fields", "sort_key"]


class Mode(enum.Enum):
    """What a check compares (the sidebar's Mode)."""

    EXACT = "EXACT"
    """The meshes themselves: their triangles, and inside/outside for closed meshes."""
    HULL = "HULL"
    """Each object's convex hull (the smallest convex shape around its vertices)."""
    LOOSE_PARTS = "LOOSE_PARTS"
    """Each loose part of a mesh as its own convex hull; the pair's answer is its worst pair of parts."""


@dataclass(frozen=True)
class CheckRecord:
    """The exact outcome of one check of the pair (A, B)."""

    contact: Contact
    """What `core.collide` answered (world space, float64)."""
    object_a: str
    object_b: str
    mode: Mode = Mode.HULL
    identity_a: int = 0
    """A number that follows A through renames (`session_uid` in Blender 4.x); 0 when unknown."""
    identity_b: int = 0
    vertex_count_a: int = 0
    vertex_count_b: int = 0
    triangle_count_a: int = 0
    triangle_count_b: int = 0
    read_ms: float = 0.0
    """Time spent reading the evaluated objects, in milliseconds."""
    time_ms: float = 0.0
    """Time spent in the query, in milliseconds."""
    clearance: float = 0.0
    """The clearance the pair was checked against (scene check), in Blender units; 0 for a pair check."""
    is_stale: bool = False
    """A or B moved, changed shape, was renamed or deleted after the check."""
    preview: bool = False
    """A fast answer shown while dragging (live mode) where the exact one is too slow; replaced when it ends."""
    part_a: int = -1
    """Check Object (A and B are one object): the loose part that is A, numbered as `core.mesh.loose_parts`
    orders them; -1 otherwise, and on the object's self-intersection row (see `is_self_intersection`)."""
    part_b: int = -1

    overlap_volume: float | None = None
    """Volume of A ∩ B in world units³ (`core.overlap`), computed by the pair check in Exact mode: 0.0 when the
    solids do not overlap; None when not computed (other modes and checks) or undefined (an open mesh has no
    inside: `contact.open_a` / `open_b` say which)."""
    volume_a: float | None = None
    """A's enclosed volume in world units³ when the overlap was computed, else None (for the share of the
    smaller object)."""
    volume_b: float | None = None
    overlap_region: object = field(default=None, compare=False, repr=False)
    """The surface bounding A ∩ B (`core.Overlap.region`: a read-only (k, 3, 3) array of world triangles,
    outward), when the overlap was measured; None otherwise."""
    overlap_exact: bool = True
    """False when `core.overlap` could not certify its volume (`core.Overlap.exact`: the overlap surface did not
    close): `overlap_volume` is then an estimate and the readout says so."""

    @property
    def is_one_object(self) -> bool:
        """A row of Check Object: A and B are the same object (two of its parts, or the object crossing
        itself)."""
        return self.object_a == self.object_b and self.identity_a == self.identity_b

    @property
    def is_self_intersection(self) -> bool:
        """Check Object's row for where the object's surface crosses itself: `contact.intersection` holds the
        crossing curve, one segment per crossing triangle pair."""
        return self.is_one_object and self.part_a < 0

    # The answer's fields, read through so that a record reads like a result.
    @property
    def status(self) -> Status:
        return self.contact.status

    @property
    def distance(self) -> float:
        return self.contact.distance

    @property
    def depth(self) -> float:
        return self.contact.depth

    @property
    def depth_upper(self) -> float:
        """The depth interval's upper end U = depth + gap (world units): `separation` has this length, and no
        move shorter than `depth` separates the pair; 0 unless intersecting."""
        c = self.contact
        return c.depth + max(0.0, float(c.gap)) if c.status is Status.INTERSECTING else 0.0

    @property
    def depth_exact(self) -> bool:
        """The depth is one number: the interval [depth, depth_upper] is no wider than the touching band (always
        True unless intersecting)."""
        c = self.contact
        return c.status is not Status.INTERSECTING or float(c.gap) <= c.touching_tolerance

    @property
    def separation(self):
        """(3,) world translation of B, of length `depth_upper`, after which B no longer intersects A
        (`core.Contact.separation`); the zero vector unless intersecting."""
        return self.contact.separation

    @property
    def within_clearance(self) -> bool:
        """Separated, but by no more than the clearance (a soft clash)."""
        return self.contact.status is Status.SEPARATED and self.contact.distance <= self.clearance


@dataclass(frozen=True)
class ResultsView:
    """Everything the user interface shows about results, built once by the store when something changes."""

    records: tuple = ()
    """CheckRecords, worst first."""
    active_index: int = -1
    show_overlay: bool = True
    draw_through: bool = True
    units: object = None
    """The scene's unit settings (anything with `system` and `scale_length`), or None for plain numbers."""
    sweep: "SweepRecord | None" = None

    @property
    def active(self) -> CheckRecord | None:
        if 0 <= self.active_index < len(self.records):
            return self.records[self.active_index]
        return None


@dataclass(frozen=True)
class SweepSample:
    frame: float
    status: Status
    distance: float


@dataclass(frozen=True)
class SweepRecord:
    """A pair checked over a frame range: the per-frame answers and what they say together."""

    object_a: str
    object_b: str
    samples: tuple = ()
    """SweepSamples in frame order (the frames sampled, plus the refined ones)."""
    first_contact_frame: float | None = None
    """The earliest (sub-)frame at which the pair touches or intersects; None when it never does."""
    deepest_frame: float | None = None
    deepest_depth: float = 0.0
    closest_frame: float | None = None
    closest_distance: float = float("inf")
    cancelled: bool = False
    extra: dict = field(default_factory=dict)


def sort_key(record: CheckRecord):
    """Worst first: intersecting pairs by their depth, the interval's certified lower end (the number the readout
    shows first), deepest first, equal depths by the upper end, deepest first; then touching; then separated pairs,
    the smallest distance first."""
    status = record.status
    if status is Status.INTERSECTING:
        return (0, -record.depth, -record.depth_upper)
    if status is Status.TOUCHING:
        return (1, 0.0, 0.0)
    return (2, record.distance, 0.0)


def mirror_fields(record: CheckRecord | None) -> dict:
    """The values of the Blender mirror (`CollisionResult`), by property name; the 'no result' values for None."""
    if record is None:
        return {"status": "NONE", "object_a": "", "object_b": "", "is_stale": False, "containment": "NONE",
                "within_clearance": False, "part_a": -1, "part_b": -1, "overlap_volume": -1.0,
                "overlap_exact": True, "depth_upper": 0.0, "separation": (0.0, 0.0, 0.0)}
    c = record.contact
    return {
        "status": c.status.name,
        "distance": c.distance,
        "depth": c.depth,
        "depth_upper": float(record.depth_upper),
        "separation": tuple(map(float, c.separation)),
        "normal": tuple(map(float, c.normal)),
        "point_a": tuple(map(float, c.point_a)),
        "point_b": tuple(map(float, c.point_b)),
        "object_a": record.object_a,
        "object_b": record.object_b,
        "mode": record.mode.name,
        "containment": c.containment.name if c.containment is not None else "NONE",
        "open_a": bool(c.open_a),
        "open_b": bool(c.open_b),
        "gjk_iterations": int(c.gjk_iterations),
        "epa_iterations": int(c.epa_iterations),
        "time_ms": float(record.time_ms),
        "read_ms": float(record.read_ms),
        "converged": bool(c.converged),
        "fallback_used": bool(c.fallback_used),
        "iteration_cap_hit": bool(c.iteration_cap_hit),
        "gap": float(c.gap),
        "is_stale": bool(record.is_stale),
        "within_clearance": record.within_clearance,
        "scale": float(c.scale),
        "touching_tolerance": float(c.touching_tolerance),
        "part_a": int(record.part_a),
        "part_b": int(record.part_b),
        # -1: not computed or undefined (a volume is never negative)
        "overlap_volume": -1.0 if record.overlap_volume is None else float(record.overlap_volume),
        "overlap_exact": bool(record.overlap_exact),
    }
