"""The answer of a query: `Status` and the frozen `Contact` record.

Conventions (pinned by tests/core/test_conventions.py):
- every vector and point is in the caller's world frame, float64;
- `normal` is a unit vector pointing from A towards B;
- `distance` is signed: > 0 separated, < 0 intersecting (penetration depth = -distance);
- separated:    point_b - point_a == distance * normal   (closest points, one on each shape);
- intersecting: point_a - point_b == depth * normal      (witness points: the point of A deepest inside B and
  the point of B deepest inside A); translating B by depth * normal makes the shapes touch;
- touching:     |distance| <= touching tolerance; point_a and point_b are (nearly) the same contact point.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

__all__ = ["Status", "Contact"]


class Status(enum.Enum):
    """How two shapes relate, judged on the signed distance and the pair's touching band."""

    SEPARATED = "SEPARATED"
    """distance > touching tolerance: `point_a`, `point_b` are the closest points."""
    TOUCHING = "TOUCHING"
    """|distance| <= touching tolerance: the shapes share a boundary point (`point_a` ~ `point_b`)."""
    INTERSECTING = "INTERSECTING"
    """distance < -touching tolerance: `point_a`, `point_b` are the witness points of the penetration."""


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "normal", _frozen_vector(self.normal))
        object.__setattr__(self, "point_a", _frozen_vector(self.point_a))
        object.__setattr__(self, "point_b", _frozen_vector(self.point_b))
        object.__setattr__(self, "distance", float(self.distance))

    @property
    def depth(self) -> float:
        """Penetration depth (>= 0) in world units; 0 unless intersecting."""
        return max(0.0, -self.distance) if self.status is Status.INTERSECTING else 0.0

    @property
    def intersecting(self) -> bool:
        return self.status is Status.INTERSECTING

    def swapped(self) -> "Contact":
        """The same answer with A and B exchanged: the normal flips and the points swap."""
        return Contact(
            status=self.status, distance=self.distance, normal=-self.normal,
            point_a=self.point_b, point_b=self.point_a, scale=self.scale,
            touching_tolerance=self.touching_tolerance, gjk_iterations=self.gjk_iterations,
            epa_iterations=self.epa_iterations, converged=self.converged,
            iteration_cap_hit=self.iteration_cap_hit, fallback_used=self.fallback_used, gap=self.gap,
        )
