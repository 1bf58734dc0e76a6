"""The convex query: two convex shapes (`Shape`s or vertex arrays) to a `Contact`.

1. turns raw (n, 3) arrays into `PointCloud`s and validates everything (ValueError on bad input);
2. measures the pair: scale = the larger world AABB diagonal of the two shapes (margins included), the unit of
   every tolerance;
3. moves to a pair-local frame whose origin is the centre of A's bounding box (objects far from the world origin
   keep their precision: translations are differenced before any vertex is added to them);
4. runs GJK on the cores; if a plane certifies the cores apart, the sphere-swept radii are subtracted
   analytically; if the origin is reached (or GJK stopped a few ulps away with no such plane), EPA measures the
   core penetration and the radii are added; a core distance inside the touching band takes its normal from a
   well-conditioned neighbouring query (`gjk.supporting_direction`);
5. classifies with the touching band and returns a `Contact` in world coordinates.

The public entry points are core/query.py's (`core.collide` and friends route meshes to core/mesh/); the mesh
query and `collide_many` (core/batch.py) call this module directly.
"""
from __future__ import annotations

import math
from dataclasses import MISSING, fields

import numpy as np

from .contact import Contact, Status
from .epa import epa
from .gjk import GJKOutcome, gjk, supporting_direction
from .shapes import as_shape
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = ["collide_convex", "intersects_convex", "Pair", "solve", "diagonal", "as_max_distance", "as_direction"]


class Pair:
    """Both shapes in the pair-local frame, with the pair's scale and the absolute tolerances."""

    def __init__(self, a, b, tolerances: Tolerances):
        if not isinstance(tolerances, Tolerances):
            raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
        shape_a = as_shape(a, "a")
        shape_b = as_shape(b, "b")
        lo_a, hi_a = shape_a.bounds()
        lo_b, hi_b = shape_b.bounds()
        scale = max(diagonal(lo_a, hi_a), diagonal(lo_b, hi_b))
        centre_a = 0.5 * (lo_a + hi_a)
        centre_b = 0.5 * (lo_b + hi_b)
        # Two bare points have scale 0: every tolerance is then 0 and the answer is exact (GJK on points is).
        if not math.isfinite(scale):
            raise ValueError("the shapes are too large to measure in float64 (their extent overflows)")
        self._fill(shape_a, shape_b, centre_a, tuple((centre_b - centre_a).tolist()), scale, tolerances)

    @classmethod
    def prepared(cls, shape_a, shape_b, centre_a, between, scale, tolerances):
        """A pair of validated shapes whose bounding-box centres and scale are known (`collide_many` has them
        for every shape): centre_a = A's box centre, between = B's centre minus A's as a 3-tuple, scale as
        `__init__` computes it."""
        pair = cls.__new__(cls)
        pair._fill(shape_a, shape_b, centre_a, between, scale, tolerances)
        return pair

    def _fill(self, shape_a, shape_b, centre_a, between, scale, tolerances):
        self.origin = centre_a
        self.origin_xyz = tuple(centre_a.tolist())
        self.a = shape_a.shifted(centre_a)
        self.b = shape_b.shifted(centre_a)
        self.sweep_a = shape_a.sweep
        self.sweep_b = shape_b.sweep
        self.radius = self.sweep_a + self.sweep_b
        self.scale = scale
        self.between = between
        self.tol = tolerances
        self.touching = tolerances.touching * scale
        self.epa_max_iterations = tolerances.epa_cap(shape_a.core_vertex_count() + shape_b.core_vertex_count())

    def run_gjk(self, stop_above=None):
        t = self.tol
        return gjk(self.a, self.b, self.between, gap=t.gjk_gap * self.scale, zero=t.zero * self.scale,
                   max_iterations=t.gjk_max_iterations, stop_above=stop_above)


def _contact_defaults() -> dict:
    out = {}
    for f in fields(Contact):
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:
            out[f.name] = f.default_factory()  # read-only (Contact's factories freeze), so one can be shared
    return out


_CONTACT_DEFAULTS = _contact_defaults()


def _vector(values) -> np.ndarray:
    if type(values) is np.ndarray and values.dtype == np.float64 and not values.flags.writeable:
        return values  # already what __post_init__ makes (`collide_many` hands over rows of frozen arrays)
    array = np.array(values, dtype=np.float64)
    array.setflags(write=False)
    return array


def _contact(status, distance: float, normal, point_a, point_b, **rest) -> Contact:
    """`Contact(...)` for the solver's own answers, built without `Contact.__init__`'s conversions: it hands
    over exactly what `__post_init__` would make of them (read-only float64 3-vectors, a float distance), and the
    default of every field not given.  A Contact costs several microseconds otherwise, a sizeable part of a
    batch pair (tests/core/test_solver_contact.py checks the two agree field by field)."""
    contact = object.__new__(Contact)
    state = contact.__dict__
    state.update(_CONTACT_DEFAULTS)
    state.update(rest)
    state["status"] = status
    state["distance"] = float(distance)
    state["normal"] = _vector(normal)
    state["point_a"] = _vector(point_a)
    state["point_b"] = _vector(point_b)
    return contact


def diagonal(lo, hi) -> float:
    """Length of a box's diagonal from its corners (the pair's scale is the larger of the two); one formula
    shared by every query path, so that they agree on the scale to the bit."""
    dx, dy, dz = (hi - lo).tolist()
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def as_max_distance(max_distance) -> float | None:
    if max_distance is None:
        return None
    try:
        value = float(max_distance)
    except (TypeError, ValueError):
        raise ValueError(f"max_distance must be a number or None, got {max_distance!r}") from None
    if math.isnan(value) or value < 0.0:
        raise ValueError(f"max_distance must be >= 0 (or None), got {value!r}")
    return None if value == math.inf else value


def as_direction(direction):
    if direction is None:
        return None
    try:
        d = np.asarray(direction, dtype=np.float64).reshape(3)
    except (TypeError, ValueError):
        raise ValueError(f"direction must be a 3-vector of numbers or None, got {direction!r}") from None
    if not np.all(np.isfinite(d)):
        raise ValueError(f"direction must be finite, got {d.tolist()}")
    return tuple(d.tolist()) if np.any(d) else None


def collide_convex(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES, *, max_distance=None, direction=None) -> Contact:
    """`core.collide` for two convex shapes: `a`, `b` are `core.Shape`s or (n, 3) vertex arrays, and every argument
    and field of the answer means what core/query.py's `collide` says.  ValueError on invalid input."""
    limit = as_max_distance(max_distance)
    guess = as_direction(direction)
    pair = Pair(a, b, tolerances)
    if guess is not None:
        pair.between = guess
    return solve(pair, limit)


def solve(pair: Pair, limit, early=None, start=None) -> Contact:
    """`collide`'s answer for a prepared pair (limit: max_distance or None).  A pair proven farther than the
    limit gets `_beyond`'s answer, or `early` instead when given (`collide_many` drops those pairs).
    start: None, or the GJK result already found for the pair in its frame (`collide_many`'s lock-step GJK hands
    over the tetrahedron around the origin, or the converged closest point, it found); GJK is not run again."""
    t = pair.tol
    if start is not None:
        result = start
    elif limit is not None:
        result = pair.run_gjk(stop_above=max(limit, pair.touching) + pair.radius)
        if result.outcome is GJKOutcome.EARLY_SEPARATED:
            return _beyond(pair, result) if early is None else early
    else:
        result = pair.run_gjk()
    fallback = False
    epa_iterations = 0
    pen = None
    if result.outcome is not GJKOutcome.SEPARATED or result.lower_bound <= 0.0:
        # The origin is in M, or GJK stopped a few ulps from it without a plane that certifies it outside
        # (rounding stalls the descent there): EPA decides from a polytope inside M.
        pen = epa(pair.a, pair.b, result.simplex, result.weights, pair.between, scale=pair.scale,
                  gap=t.epa_gap * pair.scale, flat=t.flat * pair.scale, max_iterations=pair.epa_max_iterations)
        if result.outcome is GJKOutcome.SEPARATED and not pen.depth > 0.0:
            pen = None  # the polytope does not hold the origin: GJK's closest point stands
    if pen is None:
        v = result.v
        core_distance = result.distance
        normal = (-v[0] / core_distance, -v[1] / core_distance, -v[2] / core_distance)
        if core_distance <= pair.touching:
            # v is a few ulps long: its direction is noise. Ask a well-conditioned neighbour query instead.
            u = supporting_direction(pair.a, pair.b, v, t.normal_standoff * pair.scale,
                                     gap=t.gjk_gap * pair.scale, max_iterations=t.gjk_max_iterations)
            if u is not None:
                normal = (-u[0], -u[1], -u[2])
                fallback = True
        point_a, point_b = result.closest_points()
        signed_core = core_distance
        converged, cap_hit = result.converged, result.cap_hit
        gap = core_distance - result.lower_bound
    else:
        normal = pen.normal
        point_a, point_b = pen.point_a, pen.point_b
        signed_core = -pen.depth
        converged, cap_hit = pen.converged and result.converged, pen.cap_hit
        epa_iterations = pen.iterations
        fallback = pen.dimension < 3 or len(result.simplex) < 4
        gap = pen.gap

    # Back to world coordinates and out to the round parts, in Python floats (the same IEEE operations, in the
    # same order, as numpy's: (point + origin) + sweep * normal).
    nx, ny, nz = normal
    ox, oy, oz = pair.origin_xyz
    sa, sb = pair.sweep_a, pair.sweep_b
    n = (nx, ny, nz)
    point_a = ((point_a[0] + ox) + sa * nx, (point_a[1] + oy) + sa * ny, (point_a[2] + oz) + sa * nz)
    point_b = ((point_b[0] + ox) - sb * nx, (point_b[1] + oy) - sb * ny, (point_b[2] + oz) - sb * nz)
    signed = signed_core - pair.radius + 0.0  # + 0.0 turns -0.0 into 0.0
    if signed > pair.touching:
        status = Status.SEPARATED
    elif signed < -pair.touching:
        status = Status.INTERSECTING
    else:
        status = Status.TOUCHING
    extra = {}
    if status is Status.INTERSECTING:
        # the support of the pair's difference along n: B moved that far along n touches A
        reach = gap - signed
        extra["separation"] = _vector((reach * nx, reach * ny, reach * nz))
    return _contact(status, signed, n, point_a, point_b, scale=pair.scale, touching_tolerance=pair.touching, **extra,
                    gjk_iterations=result.iterations, epa_iterations=epa_iterations, converged=converged,
                    iteration_cap_hit=cap_hit, fallback_used=fallback, gap=gap,
                    epa_outcome=None if pen is None else pen.outcome)


def _beyond(pair: Pair, result) -> Contact:
    """The early answer of a pair proven farther apart than the query's max_distance (GJK stopped early)."""
    v = result.v
    n = np.array((-v[0], -v[1], -v[2])) / result.distance
    point_a, point_b = result.closest_points()
    point_a = np.array(point_a) + pair.origin + pair.sweep_a * n
    point_b = np.array(point_b) + pair.origin - pair.sweep_b * n
    bound = result.lower_bound - pair.radius
    return _contact(Status.SEPARATED, bound, n, point_a, point_b, scale=pair.scale,
                    touching_tolerance=pair.touching, gjk_iterations=result.iterations, converged=False,
                    gap=max(0.0, result.distance - result.lower_bound), beyond_max_distance=True)


def intersects_convex(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """`core.intersects` for two convex shapes: the boolean GJK, which stops as soon as a separating plane farther
    than the touching band is found."""
    pair = Pair(a, b, tolerances)
    result = pair.run_gjk(stop_above=pair.radius + pair.touching)
    if result.outcome is GJKOutcome.EARLY_SEPARATED:
        return False
    if result.outcome is GJKOutcome.ORIGIN:
        return True
    return result.distance - pair.radius <= pair.touching
