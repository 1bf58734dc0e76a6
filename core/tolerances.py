"""Every user-facing tolerance and iteration cap of the engine, in one place, with its meaning and unit.

Lengths are never absolute: each one is a factor of the pair's *scale* (the larger of the two shapes'
axis-aligned bounding-box diagonals, margins included), so the same settings work for a 1 mm screw and a
100 m building.  The engine computes in float64 in a pair-local frame, where rounding is about 1e-16 x scale,
so every factor below sits several orders of magnitude above rounding and below what a user could see.

Not here, on purpose: the dimensionless *conditioning* thresholds that decide which formula a solver uses (they
are properties of the formulas, not accuracy knobs, and stay next to the code they guard):
- simplex.py `TRIANGLE_SIN2_MIN` (1e-14): a triangle's in-plane solution is trusted alone above this |n|^2 /
  (longest edge)^4; `TETRA_VOLUME_MIN` (1e-10): a tetrahedron is solved by signed volumes above this
  6 x volume / (longest edge)^3, else face by face;
- epa.py `_WELL_SHAPED_TETRA` (1e-6): GJK's final tetrahedron seeds EPA as is above this 6 x volume /
  (longest edge)^3, else it is grown from support points; `_DECOMPOSE_MAX_ITERATIONS` (64): GJK steps for the
  witness points' last resort;
- shapes.py `_SIMILARITY_REL` (1e-12): a transform counts as a similarity (round parts stay separable).
Nor EPA's large-pair policy (core/large_pairs.py: when it batches supports, adds points locally and hands over to
the facet path): performance only, the same certificate.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Tolerances", "DEFAULT_TOLERANCES"]


@dataclass(frozen=True)
class Tolerances:
    """Knobs of one query.  Every length factor is dimensionless and multiplies the pair's scale."""

    touching: float = 1e-9
    """Half-width of the TOUCHING band: |signed distance| <= touching x scale is reported as TOUCHING.
    (dimensionless)"""

    gjk_gap: float = 1e-12
    """GJK stops when its duality gap (upper bound |v| minus the lower bound v.w/|v|) is at most this x scale.
    The reported separation is then within this of the true one. (dimensionless)"""

    epa_gap: float = 1e-12
    """EPA stops when the support along the closest face's normal lies at most this x scale beyond that face.
    The reported depth is then within this of the true one. (dimensionless)"""

    zero: float = 1e-14
    """A Minkowski-difference point closer to the origin than this x scale is the origin itself: GJK stops
    searching for a separating direction and hands over to EPA. (dimensionless)"""

    flat: float = 1e-12
    """A Minkowski difference thinner than this x scale in some direction is flat (coplanar, collinear or a point
    contact): its penetration depth is 0. Also the slack of EPA's visibility test. (dimensionless)"""

    normal_standoff: float = 1e-6
    """When the cores are closer than the touching band, the direction of GJK's closest point is rounding noise;
    the contact normal is then taken from a second GJK query from a point this x scale further out. (dimensionless)"""

    gjk_max_iterations: int = 256
    """Cap on GJK support queries. Polytopes finish far sooner (finite convergence); curved shapes
    (cylinder, cone, ellipsoid) converge asymptotically and may reach it. (count)"""

    epa_max_iterations: int = 1024
    """Cap on EPA expansions for small shapes; see `epa_iterations_per_vertex` for large ones. (count)"""

    epa_iterations_per_vertex: int = 4
    """EPA's cap grows with the shapes: it is the larger of `epa_max_iterations` and this times the number of
    polytope-core vertices of A and B together.  EPA adds about one vertex of M = A - B per expansion, and two
    identical high-poly shapes at one pose have every vertex of M within a fraction of a percent of the depth,
    so all of them are needed (1.0 to 1.3 expansions per vertex of A and B on such pairs). (count)"""

    def epa_cap(self, vertex_count: int) -> int:
        """EPA's iteration cap for a pair whose polytope cores have `vertex_count` vertices together."""
        return max(self.epa_max_iterations, self.epa_iterations_per_vertex * int(vertex_count))

    def __post_init__(self) -> None:
        for name in ("touching", "gjk_gap", "epa_gap", "zero", "flat", "normal_standoff"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0.0 <= value < 1.0):
                raise ValueError(f"tolerance {name!r} must be a number in [0, 1), got {value!r}")
        for name in ("gjk_max_iterations", "epa_max_iterations", "epa_iterations_per_vertex"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise ValueError(f"{name!r} must be a positive integer, got {value!r}")


DEFAULT_TOLERANCES = Tolerances()
