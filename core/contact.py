"""The answer of a query: `Status` and the frozen `Contact` record.

Conventions (pinned by tests/core/test_conventions.py):
- every vector and point is in the caller's world frame, float64;
- `normal` is a unit vector pointing from A towards B;
- `distance` is signed: > 0 separated, < 0 intersecting (penetration depth = -distance);
- separated:    point_b - point_a == distance * normal   (closest points, one on each shape);
- intersecting: point_a - point_b == depth * normal      (witness points: the point of A deepest inside B and
  the point of B deepest inside A); translating B by depth * normal makes the shapes touch;
- touching:     |distance| <= touching tolerance; point_a and point_b are (nearly) the same contact point.

Non-convex meshes (`core.TriangleMesh`) keep the same conventions and add `containment`, `intersection` and the
open-mesh flags; a query with `max_distance` may stop early (`beyond_max_distance`).  Each field says below what it
means for which kind of query.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .epa import EPAOutcome

__all__ = ["Status", "Containment", "Contact"]


class Status(enum.Enum):
    """How two shapes relate, judged on the signed distance and the pair's touching band."""

    SEPARATED = "SEPARATED"
    """distance > touching tolerance: `point_a`, `point_b` are the closest points."""
    TOUCHING = "TOUCHING"
    """|distance| <= touching tolerance: the shapes share a boundary point (`point_a` ~ `point_b`)."""
    INTERSECTING = "INTERSECTING"
    """distance < -touching tolerance: `point_a`, `point_b` are the witness points of the penetration."""


class Containment(enum.Enum):
    """One closed mesh wholly inside another with no crossing surface (only meshes report it)."""

    A_INSIDE_B = "A_INSIDE_B"
    """Every point of A lies inside B (A's surface does not cross B's)."""
    B_INSIDE_A = "B_INSIDE_A"
    """Every point of B lies inside A."""

    def swapped(self) -> "Containment":
        return Containment.B_INSIDE_A if self is Containment.A_INSIDE_B else Containment.A_INSIDE_B


def _no_segments() -> np.ndarray:
    return _frozen_segments(np.zeros((0, 2, 3)))


def _frozen_segments(value) -> np.ndarray:
    array = np.array(value, dtype=np.float64).reshape(-1, 2, 3)
    array.setflags(write=False)
    return array


def _no_move() -> np.ndarray:
    return _frozen_vector((0.0, 0.0, 0.0))


def _frozen_vector(value) -> np.ndarray:
    array = np.array(value, dtype=np.float64).reshape(3)
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Contact:
    """Full answer of `core.collide(a, b)`. All fields are in world space (the frame the shapes were given in)."""

    status: Status
    """SEPARATED, TOUCHING or INTERSECTING (see `Status`)."""
    distance: float
    """Signed distance in world units: > 0 separation, < 0 penetration (depth = -distance)."""
    normal: np.ndarray
    """(3,) unit vector from A towards B. Intersecting: moving B by depth * normal separates them."""
    point_a: np.ndarray
    """(3,) point on A: closest point when separated, deepest point of A inside B when intersecting."""
    point_b: np.ndarray
    """(3,) point on B: closest point when separated, deepest point of B inside A when intersecting."""
    scale: float
    """The pair's scale (world units) that the relative tolerances multiply."""
    touching_tolerance: float
    """Half-width of the TOUCHING band, in world units (= Tolerances.touching * scale)."""
    gjk_iterations: int = 0
    """Support queries made by GJK."""
    epa_iterations: int = 0
    """Polytope expansions made by EPA (0 when EPA did not run)."""
    converged: bool = True
    """True when every stage met its gap tolerance (the distance is certified to it)."""
    iteration_cap_hit: bool = False
    """True when GJK or EPA stopped at its iteration cap; the answer is the best bound found."""
    fallback_used: bool = False
    """True when a degenerate configuration was resolved by a fallback (flat Minkowski difference, a normal
    chosen among equals, a simplex blown up to a tetrahedron before EPA)."""
    gap: float = 0.0
    """Certified bound on |distance error| in world units (duality gap of the final stage)."""
    containment: Containment | None = None
    """Meshes only: `A_INSIDE_B` or `B_INSIDE_A` when one closed mesh lies wholly inside the other with no
    crossing (status INTERSECTING); None otherwise, and always None for convex shapes."""
    intersection: np.ndarray = field(default_factory=_no_segments)
    """Meshes only: (k, 2, 3) world-space segments where the two surfaces cross (empty when they do not)."""
    open_a: bool = False
    """Meshes only: A is not closed (watertight), so nothing can be inside it; containment in A is not decided."""
    open_b: bool = False
    """Meshes only: B is not closed, as `open_a`."""
    beyond_max_distance: bool = False
    """True when the query was given `max_distance` and stopped as soon as the pair was proven farther apart than
    that: status SEPARATED, `distance` is then a certified *lower bound* (> max_distance) rather than the exact
    distance, and `point_a`, `point_b`, `normal` are the best found so far."""
    separation: np.ndarray = field(default_factory=_no_move)
    """(3,) world translation of B, of length `depth + gap`, after which B no longer intersects A (a re-check
    answers TOUCHING or SEPARATED): the move that the interval's upper end stands for.  Convex shapes: `depth + gap`
    along `normal`.  Meshes: the shortest move found and re-checked along a few directions, not necessarily along
    `normal`, or the convex hulls' move; for a mesh inside another it moves the inner one out; for an open sheet
    crossing a solid (nothing is inside a sheet) it is the hulls' move, which parts them.  The zero vector for
    SEPARATED and TOUCHING answers."""
    epa_outcome: "EPAOutcome | None" = None
    """Why EPA stopped (`core.EPAOutcome`: CONVERGED, SETTLE_STUCK, FLAT, CAP_HIT, INCONSISTENT_HORIZON), or
    None when EPA did not run (separated pairs, and GJK answers that EPA did not overturn).  `converged`,
    `iteration_cap_hit` and `fallback_used` summarise it together with GJK's state."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "normal", _frozen_vector(self.normal))
        object.__setattr__(self, "point_a", _frozen_vector(self.point_a))
        object.__setattr__(self, "point_b", _frozen_vector(self.point_b))
        object.__setattr__(self, "separation", _frozen_vector(self.separation))
        object.__setattr__(self, "distance", float(self.distance))
        object.__setattr__(self, "intersection", _frozen_segments(self.intersection))

    @property
    def depth(self) -> float:
        """Penetration depth (>= 0) in world units; 0 unless intersecting."""
        return max(0.0, -self.distance) if self.status is Status.INTERSECTING else 0.0

    @property
    def intersecting(self) -> bool:
        return self.status is Status.INTERSECTING

    def swapped(self) -> "Contact":
        """The same answer with A and B exchanged: the normal flips, the points, containment and open flags swap."""
        return replace(
            self, normal=-self.normal, point_a=self.point_b, point_b=self.point_a,
            containment=None if self.containment is None else self.containment.swapped(),
            open_a=self.open_b, open_b=self.open_a, separation=-self.separation)
