"""Where two meshes meet (step 4 of core/mesh/query.py): the crossing curve from the descent's leaf pairs within
the touching band, and the containment of one mesh in the other.

Crossing segments where one closed mesh only touches the other's surface from inside (a box resting on the inner
floor of a bigger box) are contact lines, not crossings; crossings no deeper than the band (faces in contact that
rounding makes cross) are contacts too (`_robust`).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..contact import Containment
from ..rows import row_cross
from .copies import beyond_convex
from .farthest import any_farther
from .inside import (asked_rows, crossing_sample, in_leaf_order, make_probes, parts_inside, steps_off_the_curve,
                     unasked_candidates, upper_from, waiting)
from .pair_frame import Frame, Side
from .parts import is_convex
from .points import winding_numbers
from .tritri import crossing_indexed

__all__ = ["Meeting", "Stepped", "meet", "containment"]

class Stepped(NamedTuple):
    """Points of a mesh X stepped off the crossing curve (`inside.steps_off_the_curve`), their winding numbers in
    the other mesh Y and the Y triangle (3,3) each was stepped from: made once by `meet`, read again by the depth
    probes of core/mesh/inside.py `deepest_inside`."""
    points: np.ndarray
    winding: np.ndarray
    against: np.ndarray


class Meeting:
    """Where the surfaces meet: the leaf pairs' corners `A`, `B` (k,3,3, gathered on first use), the indices of the
    pairs that cross (`crossing_pairs`) with their segments (`crossing_segments`, pair frame), the containment,
    and the reported crossing curve `segments` (the crossing segments, or none when they are the contact lines of
    a contained mesh).  `stepped_a` / `stepped_b`: A's points stepped off the curve with their winding numbers in B,
    and B's in A (`Stepped`), where `meet` made them, else None.  `corners_a` / `corners_b`: what the containment
    test measured of A's part corners against B, and of B's against A (core/mesh/inside.py `PartCorners`), else
    None.  A new meeting holds no crossing and no containment (what `meet` finds on no pairs, before the
    containment test): `meet` fills in what it finds, a caller that knows the rest sets only that."""

    def __init__(self, frame, found):
        self._frame, self._found = frame, found
        self._A = self._B = None
        self.crossing_pairs = np.zeros(0, np.int64)
        self.crossing_segments = self.segments = np.zeros((0, 2, 3))
        self.contained = None
        self.stepped_a = self.stepped_b = None
        self.corners_a = self.corners_b = None
        self.probes_a = self.probes_b = None

    def take_pairs(self, found) -> None:
        """Stand for `meet(frame, found)` on other pairs `found`: valid only when nothing crossed, for the
        meeting then holds no pair (no crossing pairs, the containment of `containment(frame)`)."""
        if self.crossing_segments.shape[0]:
            raise ValueError("a meeting with crossing pairs belongs to its own pairs")
        self._found, self._A, self._B = found, None, None
        self.crossing_pairs = self.crossing_pairs[:0]

    @property
    def A(self):
        if self._A is None:
            self._A = self._frame.sa.world.corners(self._found.ia)
        return self._A

    @property
    def B(self):
        if self._B is None:
            self._B = self._frame.sb.world.corners(self._found.ib)
        return self._B


def meet(frame: Frame, found, crossed=None, probes: bool = False) -> Meeting:
    """The crossing curve and the containment from the descent's leaf pairs within the band.  One home for
    both routes: the general pipeline and the convex one (whose descent keeps only the pairs within the band;
    every crossing pair is among them).  The crossing test runs on columns gathered per pair
    (`tritri.crossing_indexed`: the same numbers as `tritri.crossing` on the pairs' corners).  `crossed`: that
    test's (mask, segments) when the caller ran it already on `found`'s pairs, all within the band.  `probes`:
    when they cross, also make each closed side's depth probes (core/mesh/inside.py `Probes`: `probes_a`,
    `probes_b`), for a caller that runs `deepest_inside` next with this meeting's pairs."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    m = Meeting(frame, found)
    near = np.flatnonzero(found.lb <= band)
    if crossed is not None and near.size == found.lb.size:
        cross_mask, segments = crossed
        crossing_pairs = np.flatnonzero(cross_mask)
    elif near.size == found.lb.size:
        planes_a, ia = sa.world.planes_of(found.ia)
        planes_b, ib = sb.world.planes_of(found.ib)
        cross_mask, segments = crossing_indexed(planes_a, planes_b, ia, ib, band)
        crossing_pairs = np.flatnonzero(cross_mask)
    else:
        planes_a, ia = sa.world.planes_of(found.ia[near])
        planes_b, ib = sb.world.planes_of(found.ib[near])
        cross_mask, segments = crossing_indexed(planes_a, planes_b, ia, ib, band)
        crossing_pairs = near[cross_mask]
    # (k, 3, 3) rows are gathered with np.take along axis 0 (about 3x faster than fancy indexing; single columns
    # the other way round: plain indexing, np.take checks bounds in a slower pass)
    if segments.shape[0] and not np.any(_robust(sa.world.corners(found.ia[crossing_pairs]),
                                                sb.world.corners(found.ib[crossing_pairs]), segments, band)):
        # every crossing is a contact blurred by rounding (faces that touch, far from the origin or under a skew
        # transform): the surfaces touch there, they do not cross
        crossing_pairs = crossing_pairs[:0]
        segments = segments[:0]
    m.crossing_pairs, m.crossing_segments, m.segments = crossing_pairs, segments, segments
    m.contained = None
    # only a closed mesh holds anything, and only where the boxes meet
    holds_b = sb.closed and frame.boxes_meet
    holds_a = sa.closed and frame.boxes_meet
    if segments.shape[0]:
        # Crossing segments where one closed mesh only touches the other's surface from inside (a box resting
        # on the inner floor of a bigger box) are contact lines, not crossings: when no point of X stepped off
        # them lies strictly outside Y and every loose part of X is inside Y, X is contained.
        for holds, sx, sy, swap, verdict in ((holds_b, sa, sb, False, Containment.A_INSIDE_B),
                                             (holds_a, sb, sa, True, Containment.B_INSIDE_A)):
            if not holds:
                continue
            made = None
            if probes:
                X, Y = (m.B, m.A) if swap else (m.A, m.B)
                made = make_probes(sx, found, crossing_pairs, crossing_pairs, X, Y, band, swap, with_parts=False)
            stepped, made = _stepped(sx, sy, found, crossing_pairs, band, scale, swap, segments, made)
            if swap:
                m.stepped_b, m.probes_b = stepped, made
            else:
                m.stepped_a, m.probes_a = stepped, made
            if not _leaves(stepped, sy, band) and parts_inside(sx, sy, band, scale).verdict:
                m.contained = verdict
                m.segments = segments[:0]
                break
    else:
        m.contained = containment(frame, meeting=m)
    return m


def containment(frame: Frame, measure=None, meeting: Meeting | None = None):
    """The containment of two meshes that do not cross: A_INSIDE_B when every loose part of A is inside closed B
    (`parts_inside`), else B_INSIDE_A when every part of B is inside closed A, else None.  `measure` as for
    `parts_inside`.  `meeting`: a `Meeting` whose `corners_a` / `corners_b` receive what was measured of each
    mesh's part corners (the depth probes read them again)."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    verdict = corners_a = corners_b = None
    if sb.closed and frame.boxes_meet:
        a_in_b = parts_inside(sa, sb, band, scale, measure)
        corners_a = a_in_b.corners
        if a_in_b.verdict:
            verdict = Containment.A_INSIDE_B
    if verdict is None and sa.closed and frame.boxes_meet:
        b_in_a = parts_inside(sb, sa, band, scale, measure)
        corners_b = b_in_a.corners
        if b_in_a.verdict:
            verdict = Containment.B_INSIDE_A
    if meeting is not None:
        meeting.corners_a, meeting.corners_b = corners_a, corners_b
    return verdict


def _stepped(sx: Side, sy: Side, found, crossing_pairs, band, scale, swap, segments, probes=None):
    """(X's points stepped off the curve of a sample of the crossing pairs with their winding numbers in Y
    (`Stepped`), `probes` with their inside flags or None).  `swap`: X is the descent's second mesh.  `segments`:
    the crossing segments of `crossing_pairs` (A's triangle first: `crossing` on the pairs; the steps of A's
    points start from them).  `probes`: X's depth probes (`Probes`), whose winding numbers are taken in the same
    pass."""
    pick = crossing_sample(in_leaf_order(found, crossing_pairs, swap))
    x_leaf, y_leaf = (found.ib, found.ia) if swap else (found.ia, found.ib)
    Y = sy.world.leaf_corners[y_leaf[pick]]
    # A's steps start from the segments `meet` has (`crossing(A, B)` on the pair, row by row); B's from
    # `crossing(B, A)`, measured on the pick (its segment may start from the other triangle's point on a tie)
    crossed = None if swap else (np.ones(pick.size, bool), segments[np.searchsorted(crossing_pairs, pick)])
    X = sx.world.leaf_corners[x_leaf[pick]]
    if probes is None:
        points, rows = steps_off_the_curve(X, Y, band, rows=True, crossed=crossed)
        return Stepped(points, winding_numbers(points, sy.world, scale), Y[rows]), None
    # The probes made against a Y triangle (no repeated ones) have an upper bound of their depth: their distance
    # to it, worked out in the steps' `point_triangle` call.  Only the ASKED_FIRST largest bounds are asked here
    # with the other probes; the rest wait for the depth found (core/mesh/inside.py `_unknown_deeper`).
    cand, triangles = unasked_candidates(probes)
    near = probes.points[cand]
    points, rows, closest = steps_off_the_curve(X, Y, band, rows=True, crossed=crossed, extra=(near, triangles))
    bound = upper_from(near, closest)
    wait = waiting(probes, cand, bound)
    count = wait.size
    upper = np.full(count, np.inf)
    upper[cand] = bound
    asked = asked_rows(probes, 0)
    asked = asked[~wait[asked]]
    winding = winding_numbers(np.concatenate([probes.points[asked], points]), sy.world, scale)
    inside = np.zeros(count, bool)
    inside[asked] = winding[:asked.size] != 0
    repeat, repeated = probes.repeat, probes.repeated
    if repeat:  # a repeated row's flag is its first copy's
        inside[repeated:repeated + repeat] = inside[repeated - repeat:repeated]
    made = probes._replace(inside=inside, unknown=wait if np.any(wait) else None, upper=upper)
    return Stepped(points, winding[asked.size:], Y[rows]), made


def _leaves(stepped: Stepped, sy: Side, band) -> bool:
    """Does X really leave closed Y where they cross?  Some point of X stepped off the curve strictly outside Y
    (off Y's surface by more than the band) says so; if none is, X only touches Y's surface from inside there."""
    out = stepped.points[stepped.winding == 0]
    if out.shape[0] and is_convex(sy.mesh) and beyond_convex(out, sy, band):
        return True  # a face plane of convex Y already puts a point beyond the band: no closest-point search
    return bool(out.shape[0]) and any_farther(out, sy.world, band)


def _robust(X, Y, segments, band) -> np.ndarray:
    """Which crossing triangle pairs (k,3,3) x (k,3,3) with their segments (k,2,3) cross by more than the band:
    the segment is longer than the band, and each triangle reaches beyond the band on both sides of the other's
    plane (else moving one of them by at most the band along that plane's normal parts them: a contact)."""
    length = np.sqrt(((segments[:, 1] - segments[:, 0]) ** 2).sum(axis=1))
    deep = length > band
    for P, Q in ((X, Y), (Y, X)):
        n = row_cross(Q[:, 1] - Q[:, 0], Q[:, 2] - Q[:, 0])
        size = np.sqrt((n * n).sum(axis=1))
        n = n / np.where(size > 0.0, size, 1.0)[:, None]
        h = np.einsum("kij,kj->ki", P - Q[:, :1], n)
        deep &= np.minimum(h.max(axis=1), -h.min(axis=1)) > band
    return deep
