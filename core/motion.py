"""A pair in motion between sampled times: how far an object can travel, when no contact can hide between two
samples, and the search for the first contact, the deepest and the closest time.  Pure numpy, no Blender.

The caller says what the pair looks like at a time: `MotionSearch(evaluate, times)` calls `evaluate(t)`, which
returns a `Sample` (the status and signed distance of the pair at t, and each object's `Pose`).  The add-on's sweep
(operators/sweep.py) sets the scene's frame and runs its check there; a test hands in an analytic motion.  Times
are plain floats (the sweep's are frames).

1. **Samples.** `evaluate` at every given time.
2. **Intervals.** Between two neighbouring evaluated times t0 < t1:
   - the state changes (SEPARATED on one side, TOUCHING or INTERSECTING on the other): bisect until the two
     states are less than `tolerance / 4` apart; the transition time is their middle;
   - both SEPARATED: a contact may still hide between them (a thin wall crossed in one step).  `may_meet` rules
     it out when the swept boxes of the two objects do not overlap, or when conservative advancement does (see
     `path_bound` and `distance_lower_bound`); otherwise the middle time is evaluated and both halves are examined
     again, down to `tolerance` (at most `max_refinements` evaluations in all; `capped` says when that cap was
     hit).  Which time to evaluate next (or none: the pair is proved apart) is the search's `split` rule,
     `middle_split` unless the caller gives another (core/deform.py: deforming meshes, which may name the
     earliest time a contact can happen instead of the middle).
3. **Summary** (`Summary`).  First contact: the first SEPARATED -> contact transition (or the first time when the
   pair already touches there).  Deepest: the sample with the smallest signed distance among the intersecting
   ones, then a golden-section search (`golden_section`) between its neighbouring samples; closest: when the pair
   never meets, the same on the separated samples; when it does, the first contact with distance 0.

What the bounds assume: between two evaluated times each point of an object moves at a constant speed along its
path, and the motion is rigid (the object's shape in its own frame does not change).  Linear keyframes of
location, and of rotation about one axis, give exactly that; `ARC_FACTOR` = pi/2 covers a uniform rotation of up
to half a turn between two evaluated times (an arc of at most half a turn is at most pi/2 times its chord), the
angle term of `path_bound` covers rolling (a rotation undone by a translation).  Curved F-curves are followed
better as the intervals shrink.  A deforming object needs a bound of its own (how far its vertices move): its
`Pose` holds points that move with it (core/deform.py: `MeshPose`, every vertex) and the search takes
core/deform.py's split rule, which follows each vertex between samples.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .contact import Status

TIME_TOLERANCE = 1e-3
"""The first contact is located to within this much time (the sweep's unit: frames)."""
ARC_FACTOR = math.pi / 2
"""Path length over chord length of a uniform rotation of at most half a turn (a half circle: pi r / 2r)."""
MAX_REFINEMENTS = 4000
"""Evaluations a search may add to its samples (bisection, advancement, golden-section) before it stops refining."""
GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
"""The golden-section ratio: each step keeps this fraction of the bracket."""


@dataclass(frozen=True, eq=False)
class Pose:
    """Where one object is at one time."""

    corners: np.ndarray
    """(k, 3) world points whose convex hull holds the object, the same points of the object at every time (the
    sweep: the 8 corners of its local bounding box, placed with `place`)."""
    matrix: np.ndarray
    """(4, 4) object-to-world matrix (rotation, scale, translation)."""


@dataclass(eq=False)
class Sample:
    """The pair at one time, as `evaluate` reports it."""

    time: float
    status: Status
    distance: float
    """Signed distance: > 0 separated, < 0 intersecting (the convention of `core.Contact`)."""
    pose_a: Pose
    pose_b: Pose
    payload: object = None
    """Whatever the caller wants back with the sample (the sweep: its check record)."""

    @property
    def in_contact(self) -> bool:
        return self.status is not Status.SEPARATED

    @property
    def depth(self) -> float:
        """Penetration depth (>= 0), 0 unless intersecting (as `core.Contact.depth`)."""
        return max(0.0, -self.distance) if self.status is Status.INTERSECTING else 0.0


@dataclass(frozen=True)
class Summary:
    """What a finished search found.  Times are None when there is no such time."""

    first_contact: float | None
    """Earliest time at which the pair touches or intersects (to within the tolerance)."""
    deepest_time: float | None
    """Time of the largest penetration depth (None when the pair never intersects)."""
    deepest_depth: float
    closest_time: float | None
    """Time of the smallest distance: the first contact when the pair meets."""
    closest_distance: float
    """0 when the pair meets, else the smallest distance found."""


# --------------------------------------------------------------------------------------------- geometry

def box_corners(points: np.ndarray) -> np.ndarray:
    """(8, 3) float64 corners of the axis-aligned box around (n, 3) points (x slowest, z fastest)."""
    lo = points.min(axis=0).astype(np.float64)
    hi = points.max(axis=0).astype(np.float64)
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def place(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """(k, 3) local points through a (4, 4) affine matrix, as the homogeneous product [p, 1] @ matrix.T."""
    homogeneous = np.hstack((points, np.ones((len(points), 1))))
    return (homogeneous @ matrix.T)[:, :3]


def rotation_angle(m0: np.ndarray, m1: np.ndarray) -> float:
    """Angle in [0, pi] (radians) of the rotation between the rotation parts of two 4x4 matrices (the nearest
    rotations of their 3x3 parts: scale and shear removed)."""
    def orthonormal(m):
        u, _, vt = np.linalg.svd(m[:3, :3])
        return u @ vt

    relative = orthonormal(m1) @ orthonormal(m0).T
    return math.acos(min(1.0, max(-1.0, (float(np.trace(relative)) - 1.0) / 2.0)))


def path_bound(p0: Pose, p1: Pose, arc_factor: float = ARC_FACTOR) -> float:
    """A bound L on how far any point of an object travels between two poses: the larger of
    - `arc_factor` x the largest displacement of a corner (a uniform rotation of up to half a turn), and
    - the displacement of the origin + the rotation angle x the largest distance of a corner from the origin
      (a translation and a rotation about one axis at constant speeds, e.g. rolling).
    0 when no corner moved (then nothing moved: the motion is rigid)."""
    c0, c1, m0, m1 = p0.corners, p1.corners, p0.matrix, p1.matrix
    chord = float(np.linalg.norm(c1 - c0, axis=1).max())
    if chord == 0.0:
        return 0.0
    radius = max(float(np.linalg.norm(c0 - m0[:3, 3], axis=1).max()),
                 float(np.linalg.norm(c1 - m1[:3, 3], axis=1).max()))
    swing = float(np.linalg.norm(m1[:3, 3] - m0[:3, 3])) + rotation_angle(m0, m1) * radius
    return max(arc_factor * chord, swing)


def swept_box(p0: Pose, p1: Pose, pad: float) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of the box around both poses' corners, padded by `pad`.  A point that travels at most L between the
    two times stays within L/2 of where it was at one end or the other, so pad = L/2 holds the object all along."""
    both = np.vstack((p0.corners, p1.corners))
    return both.min(axis=0) - pad, both.max(axis=0) + pad


def boxes_overlap(first: tuple, second: tuple) -> bool:
    """Two (lo, hi) boxes overlap (touching counts)."""
    (lo_a, hi_a), (lo_b, hi_b) = first, second
    return bool(np.all(lo_a <= hi_b) and np.all(lo_b <= hi_a))


def distance_lower_bound(d0: float, d1: float, travel_a: float, travel_b: float) -> float:
    """Conservative advancement: the distance between two objects never drops below this between two times at
    which it is d0 and d1, when A travels at most `travel_a` and B at most `travel_b` in between at constant
    speeds.  The distance changes at most at the rate (travel_a + travel_b) / duration, so from both ends it is
    at least min over s of max(d0 - s, d1 - (L - s)) = (d0 + d1 - L) / 2 with L = travel_a + travel_b."""
    return 0.5 * (d0 + d1 - travel_a - travel_b)


def may_meet(s0: Sample, s1: Sample) -> bool:
    """False when no contact can hide between two separated samples: neither object moved, their swept boxes
    (`swept_box` padded by half of `path_bound`) do not overlap, or `distance_lower_bound` stays above 0."""
    travel_a = path_bound(s0.pose_a, s1.pose_a)
    travel_b = path_bound(s0.pose_b, s1.pose_b)
    if travel_a == 0.0 and travel_b == 0.0:
        return False  # neither moved: the distance is the same all along
    swept_a = swept_box(s0.pose_a, s1.pose_a, 0.5 * travel_a)
    swept_b = swept_box(s0.pose_b, s1.pose_b, 0.5 * travel_b)
    if not boxes_overlap(swept_a, swept_b):
        return False
    return s0.distance + s1.distance <= travel_a + travel_b  # i.e. distance_lower_bound(...) <= 0


def middle_split(search: "MotionSearch", s0: Sample, s1: Sample) -> float | None:
    """The split rule for rigid motion: the middle time when `may_meet`, else None (no contact in between)."""
    return 0.5 * (s0.time + s1.time) if may_meet(s0, s1) else None


def golden_section(evaluate: Callable, key: Callable, lo: float, hi: float, tolerance: float,
                   proceed: Callable[[], bool] = lambda: True):
    """Golden-section search for the smallest `key(evaluate(t))` on [lo, hi]; the better of the last two
    evaluations.  Exact for a unimodal key (decreasing, then increasing) to within `tolerance`; on any other it
    finds a local minimum.  `proceed()` is asked before each further evaluation (a budget): False stops early."""
    a, b = lo, hi
    c = b - GOLDEN * (b - a)
    d = a + GOLDEN * (b - a)
    fc, fd = evaluate(c), evaluate(d)
    while b - a > tolerance and proceed():
        if key(fc) < key(fd):
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = evaluate(c)
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = evaluate(d)
    return fc if key(fc) < key(fd) else fd


# --------------------------------------------------------------------------------------------- the search

class MotionSearch:
    """The steps of the module docstring over `evaluate`, as a generator of progress values (`steps`).

    evaluate: time -> `Sample`, called at most once per time (the samples are kept in `evaluated`).
    times: the sample times, increasing.
    split: (search, s0, s1) -> the time to evaluate next between two separated samples, or None when no contact
    can happen between them (`middle_split` by default).  The time is kept a quarter of the tolerance inside the
    interval; the rule may evaluate times of its own through `probe`."""

    def __init__(self, evaluate: Callable[[float], Sample], times, tolerance: float = TIME_TOLERANCE,
                 max_refinements: int = MAX_REFINEMENTS, split: Callable | None = None):
        self._evaluate = evaluate
        self.split = middle_split if split is None else split
        self.times = [float(t) for t in times]
        if not self.times:
            raise ValueError("a motion search needs at least one time")
        self.tolerance = tolerance
        self.max_refinements = max_refinements
        self.evaluated: dict[float, Sample] = {}
        self.transitions: list[tuple[float, float]] = []
        """(lo, hi) bracketing each change of state: lo and hi have different states, hi - lo < tolerance/4."""
        self.refinements = 0
        self.capped = False
        self.sampled: list[Sample] = []
        self.summary: Summary | None = None
        """Set once `steps` is exhausted."""

    def evaluate(self, time: float) -> Sample:
        time = float(time)
        known = self.evaluated.get(time)
        if known is not None:
            return known
        sample = self._evaluate(time)
        self.evaluated[time] = sample
        return sample

    def probe(self, time: float) -> Sample | None:
        """`evaluate` for a split rule, counted in the refinement budget: None once the budget is spent."""
        known = self.evaluated.get(float(time))
        if known is not None:
            return known
        return self.evaluate(time) if self._refine_budget() else None

    def samples(self) -> list[Sample]:
        """Every evaluated sample, in time order."""
        return sorted(self.evaluated.values(), key=lambda s: s.time)

    def _refine_budget(self) -> bool:
        if self.refinements >= self.max_refinements:
            self.capped = True
            return False
        self.refinements += 1
        return True

    # ----------------------------------------------------------------------------------- intervals

    def _bisect(self, lo: Sample, hi: Sample) -> None:
        while hi.time - lo.time > self.tolerance / 4 and self._refine_budget():
            middle = self.evaluate(0.5 * (lo.time + hi.time))
            if middle.in_contact == lo.in_contact:
                lo = middle
            else:
                hi = middle
        self.transitions.append((lo.time, hi.time))

    def refine(self, s0: Sample, s1: Sample) -> None:
        """Examine the interval between two evaluated times (step 2 of the module docstring)."""
        stack = [(s0, s1)]
        while stack:
            s0, s1 = stack.pop()
            if s0.in_contact != s1.in_contact:
                self._bisect(s0, s1)
                continue
            if s0.in_contact or s1.time - s0.time <= self.tolerance:
                continue
            time = self.split(self, s0, s1)
            if time is None:
                continue
            if not self._refine_budget():
                return
            quarter = 0.25 * self.tolerance
            middle = self.evaluate(min(max(time, s0.time + quarter), s1.time - quarter))
            stack.append((middle, s1))  # the earlier half is examined first
            stack.append((s0, middle))

    def _best_near(self, sampled: list, best: Sample, accept) -> Sample:
        """Refine a sampled minimum of the signed distance between its neighbouring samples."""
        index = next(i for i, s in enumerate(sampled) if s is best)
        lo = sampled[max(index - 1, 0)].time
        hi = sampled[min(index + 1, len(sampled) - 1)].time
        if hi - lo <= self.tolerance:
            return best
        found = golden_section(self.evaluate, lambda s: s.distance, lo, hi, self.tolerance, self._refine_budget)
        return found if accept(found) and found.distance < best.distance else best

    # ----------------------------------------------------------------------------------- the run

    def steps(self):
        """Generator: does the work in small steps, yielding the fraction done (0..1)."""
        sampled = []
        total = len(self.times)
        for i, time in enumerate(self.times):
            sampled.append(self.evaluate(time))
            yield 0.6 * (i + 1) / total
        for i in range(len(sampled) - 1):
            self.refine(sampled[i], sampled[i + 1])
            yield 0.6 + 0.3 * (i + 1) / max(1, len(sampled) - 1)
        self.sampled = sampled
        self.summary = self._summarise(sampled)
        yield 1.0

    def run(self) -> Summary:
        """All the steps at once; the summary."""
        for _ in self.steps():
            pass
        return self.summary

    def _summarise(self, sampled: list) -> Summary:
        first = None
        if sampled[0].in_contact:
            first = sampled[0].time
        else:
            entering = [(lo, hi) for lo, hi in self.transitions
                        if not self.evaluated[lo].in_contact and self.evaluated[hi].in_contact]
            if entering:
                lo, hi = min(entering)
                first = 0.5 * (lo + hi)
        deepest_time, deepest_depth = None, 0.0
        intersecting = [s for s in self.samples() if s.status is Status.INTERSECTING]
        if intersecting:
            deepest = min(intersecting, key=lambda s: s.distance)
            if any(deepest is s for s in sampled):
                deepest = self._best_near(sampled, deepest, lambda s: s.status is Status.INTERSECTING)
            deepest_time, deepest_depth = deepest.time, deepest.depth
        if first is not None:
            closest_time, closest_distance = first, 0.0
        else:
            closest = min(sampled, key=lambda s: s.distance)
            closest = self._best_near(sampled, closest, lambda s: not s.in_contact)
            closest_time, closest_distance = closest.time, closest.distance
        return Summary(first_contact=first, deepest_time=deepest_time, deepest_depth=deepest_depth,
                       closest_time=closest_time, closest_distance=closest_distance)
