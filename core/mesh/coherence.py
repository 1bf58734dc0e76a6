"""Temporal coherence for a pair of moving meshes: `PairHistory` keeps what the last query of a pair learnt and
starts the next query from it, with the same answer as a fresh query (core/mesh/query.py).

The caller keeps one `PairHistory` per pair and passes it to every query of that pair
(`core.collide(a, b, history=h)`); it holds no geometry, only leaf indices of the two hierarchies, which never
change under a move (the hierarchies live in the meshes' local frames, shared by `TriangleMesh.moved`).  What it
keeps: a few *seed* triangle pairs, the crossing pairs of the last answer when the meshes crossed, else its
closest pair.  The next query places the seeds in the new pose first (a few triangle pairs, no hierarchy):

- a seed still crosses (after a jump, asked only when the seeds' first corners are within the band; past it the
  closest route below finds any crossing), or the last answer was a crossing and the move since is no jump
  (`JUMP`): the answer is most likely a crossing again (the route checks), and for crossing meshes every reported
  number depends only on the leaf pairs within the touching band (the crossing pairs, in the descent's order, which
  pruning by the upper bound never reorders; the depth probes sampled from them in leaf order; the hulls and convex
  parts), and any descent with valid lower bounds keeps every pair that crosses.  So the leaf pairs within the band
  replace the full descent: no upper bound, no exact distances.  They come from a band frontier: the leaf pairs
  within the band plus some slack at an earlier pose (`_reach_descent`), which hold every pair within the band
  while the move since (`displacement`) stays below the smallest bound the descent dropped minus the band; past
  that, a new descent.  Each pose bounds again only the frontier's pairs whose box distance then, less what the move
  since can take off it, is within the band (`_Frontier.near`).  If rounding leaves no crossing after all, the fresh
  query answers.
- no seed crosses and the closest seed is farther apart than the band: its distance bounds the answer from above
  from the start, so a descent of its own (`_closest`: the fresh descent's node bounds without its exact distances
  on the way; it starts from every node pair a few levels down, `_start`, where a level-by-level descent would
  prune little) keeps only the node pairs whose lower bound is within `MARGIN` x scale of the best distance known
  (the seed's, lowered by the surface points of the nodes on the way), plus some slack; above the leaves by their
  box distance alone (the oriented bounds prune little there for their cost), the leaves by the full bound (but
  with no slack, after a jump, by their box distance too: the first exact distances leave only a few pairs within
  the margin, for the screen, where the oriented bounds of every leaf pair would cost more); when
  the larger mesh is turned (a rotation), in that mesh's own frame (`_pruning_frame`: no refit of its turned
  hierarchy, the other mesh placed in it, an allowance for the rounding taken off every bound).  Its leaf pairs
  then go best first by their bounds: exact distances of the CHUNK smallest, then the separating-axis screen and
  exact distances of every other pair whose bound is within the margin of the best.  The answer is taken only when
  it is the fresh query's for certain: the closest pair is farther than the band, every triangle pair within the
  margin of it gives the same distance and points bit for bit (the pairs around a closest corner or edge share it;
  core/mesh/tritri.py takes every edge from its lower end so that they do), and every pair of first corners the
  fresh descent may hold as its best within the margin is that same answer.  The fresh query prunes at `PRUNE` x
  scale, far below the margin, so it reports one of those pairs: the same numbers, from the same arithmetic on the
  same corners.  A near tie (a corner closest to an edge gives distances or points a few ulps apart) is answered
  only when every pair at the least distance gives the same points and the fresh query is sure to measure one of
  them (`_reached`: its bounds of every node pair above it and of the pair itself are below that distance less
  PRUNE); it may meet the others, a few ulps farther, but never keeps them as its best.  Otherwise (pairs at the
  same least distance with other points: which one the fresh query reports depends on the order of its own
  search, its upper bound's picks level by level), and past the work caps, the fresh query answers.  A jump
  takes this route too (the seed is a poor bound, the surface points soon a better one: its first corners'
  distance stands in for its exact one).  After a jump, before it prunes, the descent follows its start's node
  pairs within the band by their boxes down to their leaf pairs on their own (`_band_leaves`, far fewer than those
  within the seed's distance; else its own leaf pairs within the band by their boxes, which are the same pairs);
  when they cross (a jump into the other mesh), they hold every crossing pair and answer as the crossing route
  does, put in the fresh descent's order (`descent.descent_order`), with no oriented bound of the other leaf
  pairs; any other pair within the band sends the query to the crossing route.
- the leaf pairs that descent kept (`_Frontier`) serve the next queries without any descent while a bound of how
  far each mesh moved since (`displacement`) proves every node pair it dropped still farther than the closest
  seed plus the margin: the `Route.FRONTIER` route, the same tests on the answer.  It keeps a lower bound of each
  leaf pair's distance with the history's travel then (the sum of the moves since the history began); the bound
  minus the travel since still holds, so only the pairs that may come within the margin of the seed are measured
  again, and what they measure becomes their new bound.
- apart for certain (`Staged.outside`): when the last answer was SEPARATED at distance d and the move since is
  less than d minus the band, no surface met the other on the straight blend of the two poses, so nothing
  crosses and no point changed sides: the answer is SEPARATED again, no containment test nor inside probe runs
  (they would all find nothing), and the seeds' crossing test is skipped.

- no seed yet (the history's first query, or its first of another pair of meshes) and no `max_distance`: the
  closest route as after a jump, its best distance known from the surface points of its first node pairs alone.

Anything else (a seed within the band: touching, `max_distance` with no seed or no crossing, a route that cannot
prove its answer the fresh one) goes to the fresh query, which then teaches the history its crossing or closest
pairs.  `route` says
which way the last query went.  One difference is left: a fresh query that hits its work caps (`MAX_PAIRS`,
`MAX_EXACT` of core/mesh/descent.py: hundreds of thousands of near-tied pairs) reports a certified interval
(`converged` False), where the closest route, had it been taken, reports the converged answer.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from ..rows import row_dot
from .bvh import WorldBVH, box_lower_bound, local_boxes, pair_lower_bound
from .descent import PRUNE, Found, _split, descent_order
from .meeting import Meeting, containment, meet
from .tritri import crossing, crossing_indexed, separation_bound, triangle_triangle

__all__ = ["PairHistory"]

MARGIN = 1e-9
"""Relative margin (x scale) by which the closest pair must beat every other candidate before `_closest`'s answer
is taken (far above the fresh query's `PRUNE` and the rounding of the node bounds)."""

SEEDS = 32
"""Crossing pairs kept as seeds (evenly spread over the crossing curve)."""

MAX_LIVE = 20_000
"""Node pairs alive at one level of `_closest` beyond which the seed is judged a poor bound (a large move)."""

START = 2048
"""Node pairs `_closest` starts from (all pairs of two levels below the roots: `_start`)."""

CHUNK = 16
"""Leaf pairs of smallest lower bound measured first by `_answer` (the second round measures all the rest still
within reach of the best found).  After a jump, the pairs whose box distance is within the margin of the answer
number 6-14 on most FCL poses, more on some; the exact kernel costs about 30 pairs' worth a call, so a smaller
first call pays for the few poses that need a second one."""

SCREEN_ABOVE = 32
"""`_answer` screens a round's pairs with the separating-axis bound first only when they are more than this: the
screen costs about as much as the exact kernel's fixed cost, repaid only by the pairs it drops (a few microseconds
each)."""

MAX_CANDIDATES = 16384
"""Leaf pairs a closest-route descent may keep, and triangle pairs that may pass its separating-axis screen,
before the pair is left to the fresh query."""

SLACK = 6.0
FLOOR = 1e-3
REACH = 0.02
"""A closest-route descent keeps node pairs up to max(SLACK x the last move, FLOOR x scale) beyond the margin, so
its leaf pairs serve the next few moves without a descent (`_Frontier`), but no farther than the larger of half
the distance and REACH x scale, and none when not even two moves fit there (a move that fast is not worth a
flood of pairs: `_slack`)."""

BAND_REACH = 0.02
"""The crossing route's frontier keeps the leaf pairs within the band plus the same slack as the closest route's,
none when that is beyond BAND_REACH x scale."""

JUMP = 0.05
"""A move since the last query farther than JUMP x scale plus the last seed's distance is a jump: a crossing last time
no longer sends the query to the crossing route (only a seed that still crosses does)."""

LEARN = 256
"""Candidates of a fresh answer searched for its closest triangle pair (the smallest lower bounds)."""


class Staged:
    """What the descent and the meeting stage found (core/mesh/query.py takes it from here): `found`, `meeting`,
    the leaf pairs' corners `A`, `B`, the best distance `d_min` with its points and the touching pairs, and the
    certified lower bound `lower`."""

    def __init__(self, found, meeting, A, B, d_min, pa, pb, touching, lower, outside=False):
        self.found, self.meeting, self.A, self.B = found, meeting, A, B
        self.d_min, self.pa, self.pb, self.touching, self.lower = d_min, pa, pb, touching, lower
        self.outside = outside
        """Proven apart by the last answer and the move since (`PairHistory.answered`): nothing of either mesh
        is inside the other, so the query skips its inside probes (they would all be outside)."""


class Route(enum.Enum):
    """How a query with a `PairHistory` was answered."""

    FRESH = "fresh"
    """The full query (no history yet, touching, a near tie, or a work cap reached)."""
    CROSSING = "crossing"
    """From the crossing seeds: the band pairs stand in for the descent."""
    CLOSEST = "closest"
    """A descent bounded from the start by the closest seed."""
    FRONTIER = "frontier"
    """The last descent's leaf pairs, no descent."""


class PairHistory:
    """What the last query of one pair of `TriangleMesh`es learnt (see the module docstring).  Keep one per pair
    and pass it to each query of that pair, in the same argument order; another pair or other tolerances start it
    afresh.  Not thread-safe (one pair, one caller)."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self._key = None
        self._seeds = None
        self._frontier = None
        self._last = None
        self._band = None
        self._band_moved = 0.0
        self._crossed = False
        self._travel = 0.0
        self._clear = None
        self._start = None
        self.route: Route | None = None
        """How the last query was answered (`Route`), or None before the first."""

    # ------------------------------------------------------------------ the query's side
    def stage(self, frame, tolerances, max_distance) -> Staged | None:
        """The descent and meeting stage from what was learnt, or None for the fresh query."""
        key = (frame.sa.local, frame.sb.local, tolerances)
        if self._key is None or not (key[0] is self._key[0] and key[1] is self._key[1] and key[2] == self._key[2]):
            self.reset()
            self._key = key
        self.route = Route.FRESH
        clear, self._clear = self._clear, None
        # the move since the last query (a bound of how far any point of either surface went); `_travel` sums them,
        # so that it bounds how far the distance of any pair of triangles changed since any earlier query
        last, here = self._last, (_placement(frame.sa.mesh), _placement(frame.sb.mesh))
        step = math.inf if last is None else (displacement(frame.sa.mesh, last[0])
                                              + displacement(frame.sb.mesh, last[1]))
        self._last = here + (0.0,)
        if last is None and max_distance is None:
            # no seed yet: the closest route's descent all the same, its best distance known from the surface
            # points of its first node pairs (as after a jump, where a seed is a poor bound); its answer is the
            # fresh query's or None, and it leaves the seeds and a frontier for the next query
            return self._descend(frame, math.inf, 0.0, False, True)
        if not math.isfinite(step):
            self._frontier = None
            return None
        self._travel += step
        if self._seeds is None:
            return None
        # a jump: a move beyond JUMP x scale plus the last seed distance
        jump = step > JUMP * frame.scale + last[2]
        # apart for certain: the last answer was SEPARATED at distance `clear`, and no point moved far enough since
        # to come within the band; along the straight blend of the two poses no surface met the other, so nothing
        # crosses and no point changed sides (no probe of the fresh query is inside the other mesh)
        outside = clear is not None and clear - step > frame.band
        X, Y = _corners(frame.sa, self._seeds[0]), _corners(frame.sb, self._seeds[1])
        # after a jump the seeds are tested for crossing only when their first corners are within the band: past it,
        # `_closest` finds any crossing itself (its leaf pairs within the band hold every crossing pair)
        late = jump and max_distance is None
        if not outside and not late:
            # (crossing last time and no jump: the band route whatever the seeds say, so they are not tested)
            if (self._crossed and not jump) or np.any(crossing(X, Y, frame.band)[0]):
                # still crossing there, or crossing last time and only a small move since (then most likely
                # crossing somewhere near): the band route, which finds out; nothing crossing after all is left to
                # the fresh query
                staged = self._crossing(frame)
                if staged is not None:
                    self.route = Route.CROSSING
                return staged
        if max_distance is not None:
            return None
        margin = MARGIN * frame.scale
        front = self._frontier
        if outside and front is not None and front.key is not None:
            # no seed needed: the closest pair the frontier measured, moved by the travel since, bounds the distance
            # from above (a little looser than the seed's own distance; the nearest pairs are measured first)
            ub = front.upper + self._travel
            self._last = here + (ub,)
            if front.holds(frame, self._travel, ub, margin):
                return self._from_frontier(frame, ub, outside)
        if jump:
            # the seed is a poor bound after a jump (the descent's surface points soon beat it): the distance of its
            # first corners, a real distance too, serves without the exact kernel
            r = X[:, 0] - Y[:, 0]
            ub = float(np.sqrt(row_dot(r, r)).min())
        else:
            d, _, _ = triangle_triangle(X, Y)
            ub = float(d.min())
        if not ub > frame.band:
            if late and not outside and np.any(crossing(X, Y, frame.band)[0]):
                staged = self._crossing(frame)  # the seeds' test put off above: still crossing, the band route
                if staged is not None:
                    self.route = Route.CROSSING
                return staged
            return None
        self._last = here + (ub,)
        if front is not None and front.holds(frame, self._travel, ub, margin):
            # the answer is among its leaf pairs: a None is a near tie, for the fresh query
            return self._from_frontier(frame, ub, outside)
        # a new frontier, with room for a few more moves like the last one
        return self._descend(frame, ub, _slack(step, frame.scale, max(0.5 * ub, REACH * frame.scale)), outside, jump)

    def _descend(self, frame, ub: float, slack: float, outside: bool, band_first: bool) -> Staged | None:
        """`_closest` from a real distance `ub` (or inf: no seed yet) with a new frontier `slack` beyond the margin
        (`band_first` as there), then the crossing route when it found a pair within the band."""
        if self._start is None:
            local_a, local_b = frame.sa.local.bvh, frame.sb.local.bvh
            self._start = (_start(local_a, local_b), _order_keys(local_a, local_b))
        staged, self._frontier = _closest(frame, ub, slack, self._travel, outside, self._start, band_first)
        if self._frontier is _CROSSED:
            self._frontier = None
            if staged is not None:
                self.route = Route.CROSSING
        elif staged is not None:
            self.route = Route.CLOSEST
        elif self._frontier is _NEAR:
            # within the band somewhere (a jump into the other mesh): the band route finds out
            self._frontier = None
            staged = self._crossing(frame)
            if staged is not None:
                self.route = Route.CROSSING
        return staged

    def _from_frontier(self, frame, ub: float, outside: bool) -> Staged | None:
        """The frontier route's answer; a pair within the band sends the query to the crossing route."""
        staged = self._frontier.answer(frame, self._travel, ub, outside)
        if staged is _NEAR:
            staged = self._crossing(frame)
            if staged is not None:
                self.route = Route.CROSSING
        elif staged is not None:
            self.route = Route.FRONTIER
        return staged

    def answered(self, separated: bool, distance: float) -> None:
        """The status of this query's answer (core/mesh/query.py): SEPARATED at `distance`, or not."""
        self._clear = distance if separated else None

    def _crossing(self, frame) -> Staged | None:
        """The crossing route: the leaf pairs within the band (from the last band frontier while the move since it
        is within its reach, else from a descent that makes a new one), then `meet`; None when nothing crosses
        after all."""
        band = frame.band
        front = self._band
        delta = None
        if front is not None:
            delta = displacement(frame.sa.mesh, front.poses[0]) + displacement(frame.sb.mesh, front.poses[1])
        if front is None or not front.pruned - delta > band:
            step = 0.0 if delta is None else max(delta - self._band_moved, 0.0)
            slack = _slack(step, frame.scale, BAND_REACH * frame.scale)
            front = self._band = _reach_descent(frame, band + slack)
            delta = 0.0
        self._band_moved = delta
        ia, ib = front.ia, front.ib
        if front.box is not None:
            # only the pairs whose box distance may have come within the band since (the others' box bound, and
            # so their bound, is still beyond it: `_Frontier.near`)
            pick = front.near(frame, band, delta)
            ia, ib = ia[pick], ib[pick]
        # the box distances where they are cheapest: in the larger mesh's own frame when it is turned and not yet
        # placed in the pair frame (`_pruning_frame`: its local boxes, only the other mesh placed, less that frame's
        # allowance), where the pair frame would refit all its boxes for this one test
        wa, wb, allowance = _pruning_frame(frame)
        na, nb = wa.node(0, ia), wb.node(0, ib)
        bound = box_lower_bound(wa, na, wb, nb) - allowance
        keep = bound <= band
        ia, ib, na, nb = ia[keep], ib[keep], na[keep], nb[keep]
        bound = bound[keep]
        if frame.sa.mesh._linear is None and frame.sb.mesh._linear is None:  # (then wa, wb are the pair frame's)
            # the oriented bounds drop pairs before the crossing test; for a turned mesh they would first place all
            # its oriented boxes in the pair frame, which costs more than testing the pairs they drop (any valid
            # lower bound keeps every pair within the band, and the answer depends only on the crossing pairs)
            bound = pair_lower_bound(wa, na, wb, nb, bound)
        keep = bound <= band
        found = _Found()
        found.ia, found.ib, found.lb = ia[keep], ib[keep], bound[keep]
        return _met(frame, found)

    def learn(self, frame, found, meeting, d_min) -> None:
        """Keep the seeds of this answer: its crossing pairs, else its closest triangle pair."""
        crossing_pairs = meeting.crossing_pairs
        self._crossed = bool(crossing_pairs.size)
        if crossing_pairs.size:
            pick = crossing_pairs[:: max(1, crossing_pairs.size // SEEDS)][:SEEDS]
            self._seeds = (found.ia[pick], found.ib[pick])
            return
        if found.closest is not None:
            self._seeds = found.closest
            return
        if found.ia.size == 0:
            return
        near = np.flatnonzero(found.lb <= d_min + MARGIN * frame.scale)
        if near.size == 0:
            return
        if near.size > LEARN:
            near = near[np.argpartition(found.lb[near], LEARN - 1)[:LEARN]]
        ia, ib = found.ia[near], found.ib[near]
        d, _, _ = triangle_triangle(_corners(frame.sa, ia), _corners(frame.sb, ib))
        j = int(np.argmin(d))
        self._seeds = (ia[j:j + 1], ib[j:j + 1])


def _corners(side, leaves) -> np.ndarray:
    """(k, 3, 3) corners of leaves `leaves` of a side in the pair frame (the same numbers as its WorldBVH's
    leaf_corners rows, without building it)."""
    return side.vertices[side.local.bvh.leaf_triangles[leaves]]


def _slack(step: float, scale: float, most: float) -> float:
    """How far a new frontier reaches beyond what is needed: SLACK x the last move (at least FLOOR x scale) but at
    most `most`, or 0 when not even two such moves fit (they would outrun it at once: the wider descent does not
    pay)."""
    if max(2.0 * step, FLOOR * scale) > most:
        return 0.0
    return min(max(SLACK * step, FLOOR * scale), most)


def _reach_descent(frame, reach: float) -> "_Frontier":
    """Every leaf pair whose box distance (a lower bound) is within `reach`, in the fresh descent's order (its own
    step down, `_split`; dropping pairs never reorders the rest), with the smallest box distance of all it
    dropped."""
    wa, wb = frame.sa.world, frame.sb.world
    ia, ib, la, lb = _split_start(wa, wb)
    pruned = math.inf
    while True:
        na, nb = wa.node(la, ia), wb.node(lb, ib)
        # the box distance alone: the separating-axis bound (`bvh.pair_lower_bound`) would drop nearly a third of
        # the pairs near the leaves, but costs more than it saves (a pose bounds only what `_Frontier.near` picks)
        box = box_lower_bound(wa, na, wb, nb)
        keep = box <= reach
        pruned = _smallest_dropped(box, keep, pruned)
        ia, ib, box = ia[keep], ib[keep], box[keep]
        if (la == 0 and lb == 0) or ia.size == 0:
            break
        ia, ib, la, lb = _split(wa, wb, ia, ib, la, lb)
    if la or lb:  # nothing within reach
        ia, ib, box = ia[:0], ib[:0], box[:0]
    front = _Frontier(frame, ia, ib, pruned)
    front.box = box
    front.magnitude = _magnitude(frame)
    return front


def _split_start(wa, wb):
    """Every node pair of the deepest levels with at most START pairs, in the order the fresh descent's step down
    (`_split`) puts them, and those levels.  A descent from there keeps a superset of the pairs one from the roots
    keeps (it prunes nothing above), in the same order: every pruned descent's pairs, at any level, are a
    subsequence of the unpruned one's, since a step down keeps the order of the pairs it splits."""
    ia, ib = np.zeros(1, np.int64), np.zeros(1, np.int64)
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    while la or lb:
        down = _split(wa, wb, ia, ib, la, lb)
        if down[0].size > START:
            break
        ia, ib, la, lb = down
    return ia, ib, la, lb


def _magnitude(frame) -> float:
    """A bound of the size of every number a placed vertex of either mesh is formed from, and so the scale of its
    rounding: |L v| + |offset| <= |L|_F (|c| + r) + |offset| with c, r the local bounding sphere (a mesh far from
    its own origin, placed back near the world's, rounds at the size of its local coordinates)."""
    total = 0.0
    for side in (frame.sa, frame.sb):
        centre, radius = _sphere(side.local)
        linear = side.mesh._linear
        size = math.sqrt(3.0) if linear is None else float(np.sqrt((linear * linear).sum()))
        total += size * (float(np.sqrt(centre @ centre)) + radius) + float(np.sqrt(side.offset @ side.offset))
    return total


class _Found(Found):
    """The leaf pairs of a route as core/mesh/query.py reads a descent's result."""


def _closest(frame, ub: float, slack: float, travel: float, outside: bool, start, band_first: bool = True):
    """The closest route's descent from the roots (see the module docstring): `ub` is the distance of a seed pair,
    farther than the band; node pairs are kept up to `slack` beyond the margin, so that the leaf pairs left
    (`_Frontier`) still hold the answer after a move of up to about slack / 2.  `travel`: the history's sum of
    moves at this pose; `outside`: as for `_answer`; `start`: `_start`'s node pairs for this pair of hierarchies
    and their `_order_keys`; `band_first`: the start's node pairs within the band go down on their own first
    (`_band_leaves`: after a jump, when a crossing is likely and the seed's distance a poor bound), else the leaf
    pairs within the band are taken from the descent's.  Returns (Staged or None, _Frontier or None)."""
    sa, sb, scale = frame.sa, frame.sb, frame.scale
    margin = MARGIN * scale
    wa, wb, allowance = _pruning_frame(frame)
    (na, nb, la, lb), keys = start  # flat node indices (`WorldBVH.node`) of every pair of two levels (`_start`)
    pruned = math.inf  # the smallest lower bound of every node pair dropped
    first_a, first_b = _first_corners(sa.local), _first_corners(sb.local)
    missing = None
    first = True
    while True:
        # surface points of the nodes (a corner of each, in the pair frame) lower the best distance known (their
        # distance is a real one)
        r = np.take(sa.vertices, first_a[na], axis=0) - np.take(sb.vertices, first_b[nb], axis=0)
        ub = min(ub, math.sqrt(float(np.min(row_dot(r, r)))))
        if not ub > frame.band:
            return None, _NEAR  # touching or crossing: not for this route
        box = box_lower_bound(wa, na, wb, nb)
        bound = box - allowance
        if missing is not None:
            bound = np.where(missing, np.inf, bound)  # a right child that does not exist (`_children`)
        if first and band_first:
            # the node pairs within the band first, down to their leaf pairs on their own (a jump into the other
            # mesh: far fewer than the pairs within the seed's distance): every pair that crosses is among those
            # leaf pairs (all its ancestors are within the band), so if one crosses they answer as the crossing
            # route does (`_cross_leaves`); else nothing crosses, and the descent goes on for the closest pair
            first = False
            near = np.flatnonzero(bound <= frame.band)
            if near.size:
                ia, ib, near_bound = _band_leaves(wa, wb, na[near], nb[near], la, lb, allowance, frame.band)
                if ia.size:
                    staged = _cross_leaves(frame, wa, wb, ia, ib, near_bound, keys)
                    if staged is not None:
                        return staged, _CROSSED
        keep = bound <= ub + margin + slack
        if slack > 0.0:
            pruned = _smallest_dropped(bound, keep, pruned)
        pick = np.flatnonzero(keep)
        if slack == 0.0 and pick.size < keep.size:
            # (no slack: a frontier that serves only a move smaller than the distance between its pruned pairs and
            # the answer, which the threshold they were dropped at bounds from below well enough)
            pruned = min(pruned, ub + margin)
        na, nb = na[pick], nb[pick]
        leaves = la == 0 and lb == 0
        if leaves:
            bound = bound[pick]
            ia, ib = na - wa.local.offsets[0], nb - wb.local.offsets[0]
            near = np.flatnonzero(bound <= frame.band) if not band_first else ia[:0]
            if near.size:
                # (no band-first descent: the leaf pairs within the band by their boxes hold every crossing pair)
                staged = _cross_leaves(frame, wa, wb, ia[near], ib[near], bound[near], keys)
                if staged is not None:
                    return staged, _CROSSED
            if slack > 0.0 or ia.size > MAX_CANDIDATES:
                # the oriented bounds at the leaves only: above them they drop too few pairs to pay for their cost
                # (a round of some hundred numpy calls per level), and the leaf pairs they keep are what `_answer`
                # measures and what the frontier keeps for the next moves
                bound = pair_lower_bound(wa, na, wb, nb, box[pick]) - allowance
                keep = bound <= ub + margin + slack
                pruned = _smallest_dropped(bound, keep, pruned)
                pick = np.flatnonzero(keep)
                ia, ib, bound = ia[pick], ib[pick], bound[pick]
            # (no slack: a jump or a fast move, whose frontier serves no next move.  The box distances order the
            # leaf pairs well enough for `_answer`'s first measures, whose best distance, most often the answer's,
            # leaves only the few pairs around the closest one within the margin: those its separating-axis screen
            # and exact distances take, where the oriented bounds of every leaf pair cost more)
        if na.size > MAX_LIVE or na.size == 0 or (leaves and ia.size == 0):
            return None, None  # too many (a poor seed), or none left (rounding beyond the margin): fresh
        if leaves:
            break
        na, nb, la, lb, missing = _children(wa, wb, na, nb, la, lb)
    if ia.size > MAX_CANDIDATES:
        return None, None
    staged = _answer(frame, ia, ib, ub, bound, outside, screened=slack > 0.0)  # (tightens the bounds it measures)
    if staged is _NEAR:
        return None, _NEAR
    frontier = _Frontier(frame, ia, ib, pruned, bound, travel)
    frontier.upper = (ub if staged is None else staged.d_min) - travel
    return staged, frontier


def _reached(frame, ia, ib, d: float) -> bool:
    """Whether the fresh query (core/mesh/descent.py) measures at least one of leaf pairs (ia, ib), whose exact
    distance is `d`, the least of any pair.  Its descent steps down from the roots as `_split` does and keeps a
    node pair whose bound (`bvh.pair_lower_bound` in the pair frame, at least the box distance it first prunes
    by) is within its best distance known less PRUNE x scale, and that best is never below d (no candidate is
    closer); its best-first stage then measures every leaf pair whose bound is within that too, unless (past its
    first chunk) the separating-axis bound of the pair drops it.  So a pair is measured when every node pair
    above it and the pair itself have bounds below d - PRUNE x scale, and its separating-axis bound too (the
    same functions on the same numbers; a margin of three more PRUNE x scale covers any rounding)."""
    wa, wb = frame.sa.world, frame.sb.world
    limit = d - 4.0 * PRUNE * frame.scale
    la, lb = wa.local.levels - 1, wb.local.levels - 1
    na, nb = [], []
    while True:
        na.append(wa.local.offsets[la] + (ia >> la))
        nb.append(wb.local.offsets[lb] + (ib >> lb))
        if la == 0 and lb == 0:
            break
        split_a, split_b = la > 0 and la >= lb, lb > 0 and lb >= la
        la, lb = la - split_a, lb - split_b
    bound = pair_lower_bound(wa, np.concatenate(na), wb, np.concatenate(nb)).reshape(len(na), ia.size)
    ok = np.all(bound <= limit, axis=0)
    ok &= separation_bound(_corners(frame.sa, ia), _corners(frame.sb, ib)) <= limit
    return bool(np.any(ok))


def _band_leaves(wa, wb, na, nb, la, lb, allowance: float, band: float):
    """(ia, ib, bound): every leaf pair below node pairs na, nb (levels la, lb) whose box distance less `allowance`
    is within `band` (every ancestor's is then too), with that bound, in `_children`'s order."""
    while la or lb:
        na, nb, la, lb, missing = _children(wa, wb, na, nb, la, lb)
        bound = box_lower_bound(wa, na, wb, nb) - allowance
        keep = bound <= band
        if missing is not None:
            keep &= ~missing
        pick = np.flatnonzero(keep)
        na, nb, bound = na[pick], nb[pick], bound[pick]
    return na - wa.local.offsets[0], nb - wb.local.offsets[0], bound


def _cross_leaves(frame, wa, wb, ia, ib, bound, keys) -> Staged | None:
    """The crossing route's answer from leaf pairs (ia, ib) with their lower bounds, which hold every crossing pair,
    or None when none crosses: put in the fresh descent's order (the answer depends on the crossing pairs alone:
    their segments, in that order, and the probes sampled from them in leaf order), without the oriented bounds of
    the other leaf pairs; the crossing test on their corners is the one `meet` runs (it is passed on).  `keys`:
    `_order_keys` of the two hierarchies."""
    order = np.argsort(np.take(keys[0], ia) | np.take(keys[1], ib), kind="stable")  # (`_order_keys`)
    found = _Found()
    found.ia, found.ib, found.lb = ia[order], ib[order], bound[order]
    # the test `meet` runs, on the triangles' columns (`tritri.crossing_indexed`: the same mask and segments bit for
    # bit as `crossing` on the gathered corners; a jump into the other mesh may bring thousands of pairs, where
    # the columns cost half as much)
    planes_a, ja = frame.sa.world.planes_of(found.ia)
    planes_b, jb = frame.sb.world.planes_of(found.ib)
    crossed = crossing_indexed(planes_a, planes_b, ja, jb, frame.band)
    if np.any(crossed[0]):
        return _met(frame, found, crossed)
    return None


ORTHONORMAL = 1e-9
"""How far from orthonormal (|L^T L - I|, Frobenius) the linear part of a mesh may be for `_closest` to bound its
node pairs in that mesh's own frame (`_pruning_frame`)."""


def _pruning_frame(frame):
    """(wa, wb, allowance): the two hierarchies where `_closest` bounds its node pairs, and what to take off every
    bound so that it holds for the pair frame's surfaces.

    A mesh turned in the pose would be placed in the pair frame by a full refit of its node boxes.  When the larger
    mesh is turned by a rotation (orthonormal within ORTHONORMAL) and not yet placed, the bounds are taken in its
    own frame instead: its hierarchy there is its local one (built once, `local.cached`; its local boxes are often
    tighter than the turned ones too) and only the other mesh is placed in it, by the inverse map
    x -> L^T (x - offset).  Distances there are the pair frame's up to the rounding of the placed vertices and of
    the map (a relative 1e-11 of `_magnitude`, the size of every number involved) and the map's departure from a
    rotation (|L^T L - I| times the distances, at most twice the magnitude): `allowance` covers both.  The rest
    of the route (its surface points, the screen, the exact distances) stays in the pair frame."""
    sa, sb = frame.sa, frame.sb
    big, small = (sa, sb) if sa.local.bvh.sizes[0] >= sb.local.bvh.sizes[0] else (sb, sa)
    linear = big.mesh._linear
    if linear is None or big._world is not None:
        return sa.world, sb.world, 0.0
    skew = float(np.sqrt(np.square(linear.T @ linear - np.eye(3)).sum())) + 1e-15
    if not skew <= ORTHONORMAL:
        return sa.world, sb.world, 0.0
    local = big.local
    boxes = local.cached("local boxes", lambda: local_boxes(local.bvh, local.vertices))  # as pair_frame.Side's
    home = local.cached("own frame hierarchy", lambda: WorldBVH(local.bvh, local.vertices, None, np.zeros(3), boxes))
    inverse = linear.T
    turn = inverse if small.mesh._linear is None else inverse @ small.mesh._linear
    placed = WorldBVH(small.local.bvh, (small.vertices - big.offset) @ linear, turn,
                      inverse @ (small.offset - big.offset))
    allowance = (1e-11 + 4.0 * skew) * _magnitude(frame)
    return (home, placed, allowance) if big is sa else (placed, home, allowance)


def _first_corners(local):
    """The vertex index of each node's surface point (`WorldBVH.rep`: the first corner of its first leaf)."""
    bvh = local.bvh
    return local.cached("first corners", lambda: bvh.leaf_triangles[bvh.first_leaf, 0])


_NEAR = "within the band"
"""`_closest`'s frontier when it found a pair within the band (no answer of its own)."""

_CROSSED = "crossing"
"""`_closest`'s frontier when its leaf pairs within the band cross: its answer is the crossing route's."""


def _met(frame, found, crossed=None) -> Staged | None:
    """The crossing route's stage from `found`'s leaf pairs (in the fresh descent's order): `meet` (given the
    crossing test's `crossed` when run already), then the first crossing segment's start as both points; None when
    nothing crosses."""
    meeting = meet(frame, found, crossed)
    segments = meeting.crossing_segments
    if segments.shape[0] == 0:
        return None
    found.dropped_lb = found.exact_lb = math.inf
    point = segments[0, 0]
    return Staged(found, meeting, meeting.A, meeting.B, 0.0, point, point, meeting.crossing_pairs, 0.0)


def _start(local_a, local_b):
    """Where `_closest` starts: every node pair of the deepest levels (going down as `descent._split` does) with at
    most START pairs, as flat node indices (`WorldBVH.node`), and those levels.  Above them a level-by-level descent
    would prune little and pay a round of numpy calls per level; the closest route's answer does not depend on the
    order of its pairs.  The same for every pose of the two hierarchies (`PairHistory` keeps it; read only)."""
    sizes_a, sizes_b = local_a.sizes, local_b.sizes
    la, lb = len(sizes_a) - 1, len(sizes_b) - 1
    while True:
        na = la - 1 if la > 0 and la >= lb else la
        nb = lb - 1 if lb > 0 and lb >= la else lb
        if (na, nb) == (la, lb) or sizes_a[na] * sizes_b[nb] > START:
            break
        la, lb = na, nb
    ia = np.repeat(np.arange(sizes_a[la], dtype=np.int64), sizes_b[lb]) + local_a.offsets[la]
    ib = np.tile(np.arange(sizes_b[lb], dtype=np.int64), sizes_a[la]) + local_b.offsets[lb]
    for x in (ia, ib):
        x.setflags(write=False)
    return ia, ib, la, lb


def _order_keys(local_a, local_b):
    """(KA, KB): `descent.descent_order`'s key of leaf pairs (ia, ib) is KA[ia] | KB[ib] (each step down takes its
    bit from one side, at a position fixed by the levels), so one table per side, made once per pair of
    hierarchies, gives it in two gathers instead of a round of integer steps per level; read only."""
    ma, mb = local_a.sizes[0], local_b.sizes[0]
    keys = (descent_order(local_a, local_b, np.arange(ma, dtype=np.int64), np.zeros(ma, np.int64)),
            descent_order(local_a, local_b, np.zeros(mb, np.int64), np.arange(mb, dtype=np.int64)))
    for x in keys:
        x.setflags(write=False)
    return keys


def _children(wa, wb, na, nb, la, lb):
    """`_closest`'s step down: what `descent._split` keeps (the deeper side, both when level, replaced by its
    children), on flat node indices and in another order (the pairs' first children, then their second ones..., in
    one arithmetic step per side, no concatenation), with a mask of the pairs whose right child does not exist (the
    last node of a level with an odd count of nodes below it has none), or None when there are none."""
    split_a = la > 0 and la >= lb
    split_b = lb > 0 and lb >= la
    step_a = np.array([0, 1, 0, 1] if split_b else [0, 1]) if split_a else np.zeros(2, np.int64)
    step_b = np.array([0, 0, 1, 1] if split_a else [0, 1]) if split_b else np.zeros(2, np.int64)
    missing = None
    out = []
    for w, n, level, split, step in ((wa, na, la, split_a, step_a), (wb, nb, lb, split_b, step_b)):
        offsets, sizes = w.local.offsets, w.local.sizes
        if split:
            # child j of node i at level l is node 2 i + j at level l - 1: flat offsets[l-1] + 2 (n - offsets[l]) + j
            n = ((step + (offsets[level - 1] - 2 * offsets[level]))[:, None] + 2 * n).ravel()
            level -= 1
            if sizes[level] % 2:
                gone = n == offsets[level] + sizes[level]
                missing = gone if missing is None else missing | gone
        else:
            n = (step[:, None] + n).ravel()
        out += [n, level]
    return out[0], out[2], out[1], out[3], missing


def _smallest_dropped(bound, keep, pruned):
    """The smaller of `pruned` and the least bound of the pairs not kept (one numpy call, no gathered copy)."""
    return min(pruned, float(np.min(bound, initial=np.inf, where=~keep)))


class _Frontier:
    """The leaf pairs a descent left at one pose, the smallest lower bound of all it dropped, and the poses.  After
    a move by at most `delta` (`displacement` of each mesh), every dropped pair is still at least `pruned - delta`
    apart: while that exceeds a seed's distance plus the margin, the answer and every pair within the margin of it
    are among these leaf pairs, and no descent is needed.

    A closest-route frontier also keeps a lower bound of each leaf pair's distance, stored as the bound plus the
    history's travel when it was found (`key`): after more moves, the bound minus the travel since still holds,
    so a pose's answer needs exact distances only for the pairs whose bound comes within the margin of the seed's
    distance (a few around the closest pair), and each pair it measures gets its tighter bound back."""

    def __init__(self, frame, ia, ib, pruned, lower=None, travel=0.0):
        self.ia, self.ib, self.pruned = ia, ib, pruned
        self.poses = (_placement(frame.sa.mesh), _placement(frame.sb.mesh))
        self.travel = travel
        self.key = None if lower is None else lower + travel
        self.box = None
        """A band frontier's box distance of each leaf pair at its pose (`_reach_descent`), for `near`."""
        self.magnitude = 0.0
        self.upper = math.inf
        """A distance measured at some pose minus the travel then: plus the travel now, an upper bound."""

    def still_holds(self, frame, ub: float, margin: float):
        """(whether the answer is among the leaf pairs, the move since this frontier)."""
        delta = displacement(frame.sa.mesh, self.poses[0]) + displacement(frame.sb.mesh, self.poses[1])
        return self.pruned - delta > ub + margin, delta

    def near(self, frame, band: float, delta: float) -> np.ndarray:
        """The leaf pairs (indices, in order) whose box distance (`bvh.box_lower_bound`) may be within `band` at this
        pose, `delta` (`displacement`) after this frontier's: every other one's is still beyond it.  A point moved
        by at most delta, so each coordinate of a node's box by at most delta, and the box distance of a pair by
        at most sqrt(3) delta, or by delta when neither mesh turned since (both boxes then move as wholes); the
        rounding of the placed corners and of the boxes' distance is covered by a relative 1e-12 of the numbers
        they are formed from (`_magnitude`, at both poses) and of the bound."""
        same = all(np.array_equal(_placement(side.mesh)[0], pose[0])
                   for side, pose in ((frame.sa, self.poses[0]), (frame.sb, self.poses[1])))
        move = delta if same else math.sqrt(3.0) * delta
        rounding = 1e-12 * (self.magnitude + _magnitude(frame))
        return np.flatnonzero(self.box * (1.0 - 1e-12) <= band * (1.0 + 1e-12) + move * (1.0 + 1e-9) + rounding)

    def holds(self, frame, travel: float, ub: float, margin: float) -> bool:
        """Whether the answer is among the leaf pairs (the move since bounded by the travel since, or directly)."""
        if self.pruned - (travel - self.travel) > ub + margin:
            return True
        return self.still_holds(frame, ub, margin)[0]

    def answer(self, frame, travel: float, ub: float, outside: bool):
        """`_answer` on the leaf pairs whose bound may still be within the margin of `ub`; their bounds tightened
        (`_NEAR`: a pair is within the band)."""
        lower = self.key - travel
        pick = np.flatnonzero(lower <= ub + MARGIN * frame.scale)
        bounds = lower[pick]
        staged = _answer(frame, self.ia[pick], self.ib[pick], ub, bounds, outside, screened=True)
        self.key[pick] = bounds + travel
        if staged is not None and staged is not _NEAR:
            self.upper = min(self.upper, staged.d_min - travel)
        return staged


_IDENTITY = np.eye(3)
_IDENTITY.setflags(write=False)


def _placement(mesh):
    return (_IDENTITY if mesh._linear is None else mesh._linear, np.asarray(mesh._translation, float))


def _sphere(local):
    """(centre, radius) of a ball around the used local vertices: the centre of their box, the farthest from it."""
    def sphere():
        centre = local.bvh.origin
        v = local.vertices[local.used] - centre
        return centre, float(np.sqrt(row_dot(v, v).max()))
    return local.cached("bounding sphere", sphere)


def displacement(mesh, placement) -> float:
    """An upper bound of how far any point of the mesh's surface moved from `placement` (linear, translation) to
    its pose: |(L1 - L0)(v - c) + (L1 - L0) c + t1 - t0| <= |L1 - L0|_F r + |(L1 - L0) c + t1 - t0|, with c the
    centre of its local box and r the largest distance of a vertex from it (a relative 1e-12 added for rounding)."""
    centre, radius = _sphere(mesh._local)
    linear, translation = _placement(mesh)
    change = linear - placement[0]
    shift = change @ centre + (translation - placement[1])
    move = float(np.sqrt((change * change).sum())) * radius + float(np.sqrt(shift @ shift))
    return move * (1.0 + 1e-12)


def _answer(frame, ia, ib, ub: float, bounds, outside: bool = False, first: int = CHUNK, screened: bool = False):
    """The closest pair among leaf pairs (ia, ib), which hold every pair within the margin of `ub` (a real
    distance), best first: `bounds` are lower bounds of the pairs' distances (raised in place to what is
    screened or measured); the `first` pairs of smallest bound get their exact distance, then every other pair
    whose bound is still within the margin of the best distance found is screened with the separating-axis bound
    and measured.  None unless the answer is certainly the fresh query's (see the module docstring); `_NEAR` when
    a pair is within the band (touching or crossing: the crossing route finds out).  `outside`: the pair is proven
    apart (`Staged.outside`), so the containment is None without a test.  `screened`: `ub` is already about the
    answer (a seed moved a little), so every pair within its margin is screened first and measured in one call
    (when they are more than `first`).  Neither the bounds given nor the order of measuring change the answer:
    every pair within the margin of the final best is measured either way."""
    sa, sb, band, scale = frame.sa, frame.sb, frame.band, frame.scale
    margin = MARGIN * scale
    measured = np.zeros(ia.size, bool)
    best, count = ub, 0
    got = []
    for round_ in (0, 1):
        if round_ == 0:
            # the `first` pairs of smallest bound, measured at once: most often the closest pair and every pair
            # within the margin of it are among them (the oriented bounds order the leaf pairs well), and the
            # second round has nothing left; a separating-axis screen first would cost about as much as the
            # exact kernel's call on them
            if screened:
                # `ub` is already about the answer (a seed moved a little): the pairs within its margin are mostly
                # the ones the second round would screen anyway, so they are screened at once and measured in one
                # call (the screen raises the bounds of those it drops beyond the margin: no second round)
                pick = np.flatnonzero(bounds <= best + margin)
                if pick.size > SCREEN_ABOVE:
                    screen = separation_bound(_corners(sa, ia[pick]), _corners(sb, ib[pick]))
                    bounds[pick] = np.maximum(bounds[pick], screen)
                    pick = pick[bounds[pick] <= best + margin]
            else:
                # (which of equal bounds make the `first` does not matter: see the docstring)
                order = np.argpartition(bounds, first - 1)[:first] if bounds.size > first else \
                    np.arange(bounds.size)
                pick = order[bounds[order] <= best + margin]
        else:
            pick = np.flatnonzero((bounds <= best + margin) & ~measured)
            if pick.size > SCREEN_ABOVE:
                # (a few pairs are measured as they are: the screen would cost more than the pairs it drops)
                screen = separation_bound(_corners(sa, ia[pick]), _corners(sb, ib[pick]))
                bounds[pick] = np.maximum(bounds[pick], screen)
                pick = pick[bounds[pick] <= best + margin]
        if pick.size == 0:
            continue
        count += pick.size
        if count > MAX_CANDIDATES:
            return None
        measured[pick] = True
        X, Y = _corners(sa, ia[pick]), _corners(sb, ib[pick])
        dist, xa, xb = triangle_triangle(X, Y)
        bounds[pick] = np.maximum(bounds[pick], dist)
        best = min(best, float(dist.min()))
        got.append((pick, dist, xa, xb, X[:, 0], Y[:, 0]))
        if not best > band:
            return _NEAR
    if not got:
        return None
    near, dist, xa, xb, first_a, first_b = (np.concatenate(x) for x in zip(*got))
    j = int(np.argmin(dist))
    d_min = float(dist[j])
    if not (math.isfinite(d_min) and d_min > band):
        return None
    # Every pair within the margin of the best (neighbours of a closest corner or edge share it) must give the
    # same bits, or which of them the fresh query reports depends on its path: a near tie, left to it.  (A pair
    # left unmeasured is farther than the best plus the margin.)  One near tie is not: every pair at the least
    # distance gives the same points, the others (a few ulps farther) other ones, and the fresh query is sure to
    # measure one of the closest (`_reached`): its best is then that distance, and the first pair it meets there,
    # whichever it is, has those points.
    tied = np.flatnonzero(dist <= d_min + margin)
    if not (np.all(dist[tied] == d_min) and np.all(xa[tied] == xa[j]) and np.all(xb[tied] == xb[j])):
        exact = tied[dist[tied] == d_min]
        if not (np.all(xa[exact] == xa[j]) and np.all(xb[exact] == xb[j])
                and _reached(frame, ia[near[exact]], ib[near[exact]], d_min)):
            return None
    # The fresh descent also holds the first corners of its node pairs (`descent._upper_bound`: the first corners
    # of a leaf pair, whose distance is at least the pair's) as a best: any within the margin must be the same
    # answer too, the same distance bit for bit (the same formula) at the same points, or it may report them.
    ca, cb = first_a[tied], first_b[tied]
    r = ca - cb
    corner = np.sqrt(row_dot(r, r))
    close = corner <= d_min + margin
    if np.any(close) and not (np.all(corner[close] == d_min) and np.all(ca[close] == xa[j])
                              and np.all(cb[close] == xb[j])):
        return None
    found = _Found()
    found.ia, found.ib, found.lb = ia[:0], ib[:0], np.zeros(0)
    found.closest = (ia[near[j]:near[j] + 1], ib[near[j]:near[j] + 1])
    found.dropped_lb = found.exact_lb = math.inf
    meeting = Meeting(frame, found)  # nothing crosses
    meeting.contained = None if outside else containment(frame)
    no_corners = np.zeros((0, 3, 3))
    return Staged(found, meeting, no_corners, no_corners, d_min, xa[j], xb[j], np.zeros(0, np.int64), d_min, outside)
