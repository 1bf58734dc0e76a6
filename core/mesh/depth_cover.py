"""A lower bound of the translational penetration depth by covering a ball with Minkowski differences (issue 19;
called from core/mesh/depth_interval.py when its own lower bounds leave the interval wide).

The argument.  Let A_i be convex pieces inside A and B_j convex pieces inside B, and M_ij = A_i - B_j = {a - b}.
After a move t of B, A_i and B_j + t still share an interior point whenever t lies in the interior of M_ij, so A
and B + t still overlap: every separating move lies outside the union of the M_ij's interiors.  If that union holds
the closed ball of radius r about the origin, every separating move is longer than r, so PD >= r.  One pair of
pieces gives the convex depth of the two (what depth_interval.py's local polytopes give); several pairs, built at
points spread over the whole overlap, hold the directions one pair alone misses: two links crossing twice, a blob
pressed in at several places, an L hooked into another.

The test.  For the pairs whose difference holds the origin strictly inside (their pieces overlap) the union is
star-shaped about the origin, so it holds the ball of radius r iff every direction u reaches r: max_ij rho_ij(u)
>= r, rho_ij the radial function of M_ij.  The others (pieces that meet only after a move) join as links of chains
of shells along a cell (`covered_radius`).  The sphere of directions is covered by spherical
triangles (an icosahedron's faces split in four, adaptively).  For a cell with unit corners u1, u2, u3 and any unit
n with h = min_k n . u_k > 0, the part of the ball in the cell's cone lies in the tetrahedron O, (r / h) u_k (a
point s u of the cone, u = w / |w| with w = sum c_k u_k, c_k >= 0, has |w| >= n . w >= h sum c_k); that
tetrahedron lies in a convex M_ij holding O iff its three far corners do, i.e. r <= h rho_ij(u_k) for each k.  So
the cell is held up to h max_ij min_k rho_ij(u_k), and the ball up to the least of that over the cells.  Cells below
the best value the corners allow are split (their neighbours' cones and theirs share the same float corners, so
the cones still tile space) until a cap on the cells.

Certified.  The pieces are balls, core/mesh/depth_interval.py's `inner_polytope`s and the vertex hulls of
core/mesh/depth_pieces.py (certified there).  A ball's centre is proved
inside its solid by winding numbers and its radius is the exact distance to the surface (the hierarchy's closest
point) less an allowance; the difference of two balls is the ball about the difference of the centres with the
sum of the radii, whose radial function is closed-form.  The polytopes are proved inside the solids, their
vertices pulled in; here their planes are first pruned (`pruned`: a triangle wholly beyond a kept plane cannot
put a surface point inside the polytope, so its plane need not cut it).  A subset of a piece's vertices spans a
convex set inside the piece, so each piece is cut down to its extreme vertices along a few spread directions.  M_ij's boundary is a closed, outward
triangulation of (some of) the pairwise vertex differences: core/hull.py's, or for the vertex-hull pieces the
faces their candidate directions find (`_facet_triangles`), when those close up.  A point strictly on the inner side of
every triangle's plane of a closed, outward triangle surface has a positive winding number (every ray from it
crosses triangles only outward, and some ray crosses one), so it lies inside the hull of the points, whether or
not the computed surface is exactly convex; each plane is pulled in by a rounding allowance (larger for slivers,
whose normals round worse), and the returned radius is shrunk by a relative 1e-9.  A hull the construction
declines, or one it folded (a point of the cloud far above a face) twice, drops that pair (the bound only gets
weaker).
"""
from __future__ import annotations

import numpy as np

from .. import sphere_cells
from ..convex import collide_convex
from ..hull import convex_hull
from ..progress import Stage, report
from ..rows import fibonacci_directions, row_dot
from .depth_pieces import Work, pieces_around
from .points import closest_points, winding_numbers

__all__ = ["Difference", "minkowski_difference", "covered_radius", "extreme_vertices"]

PIECE_VERTICES = 32
"""A piece is cut down to at most this many vertices (its extremes along spread directions) before differences."""

START_LEVEL = 2
"""The icosahedron's faces are split this many times to start with (320 cells)."""

MAX_CELLS = 3000
"""Cap on the cells (the refinement stops there; the bound is then the least cell's, still certified)."""

MAX_ROUNDS = 6
"""Refinement rounds (each splits the cells below the corners' best value in four)."""

FACE_HAIR = 1e-5
"""Points within this times the difference's size of the extreme along a direction make one face
(`_facet_triangles`): the pieces' facet normals and edges come from points pulled in after their planes were
found, so a direction can miss its face's plane by about 1e-6 radians."""

ROUNDING = 1e-9
"""Relative allowance: planes pulled in by this times the difference's size, and the radius shrunk by it."""


class Difference:
    """The Minkowski difference of two convex pieces as inward-pulled planes: unit outward `normals` (k, 3) and
    `offsets` (k,), every point x with normals . x <= offsets inside the difference; `tag` says where it came
    from (the caller's)."""

    def __init__(self, normals, offsets, tag=None):
        self.normals, self.offsets, self.tag = normals, offsets, tag

    def radial(self, directions: np.ndarray) -> np.ndarray:
        """For each unit direction u, the largest s with s u on the inner side of every plane (0 if none)."""
        g = directions @ self.normals.T
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(g > 0.0, self.offsets[None, :] / g, np.inf)
        out = ratio.min(axis=1)
        return np.where(np.isfinite(out), np.maximum(out, 0.0), 0.0)[None, :]

    def interval(self, directions: np.ndarray):
        """(lo, hi), each (1, n): for each unit direction u, the s >= 0 with s u on the inner side of every plane
        form [lo, hi] (empty when lo > hi)."""
        g = directions @ self.normals.T
        o = self.offsets[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = o / g
        hi = np.where(g > 0.0, ratio, np.inf).min(axis=1)
        lo = np.maximum(np.where(g < 0.0, ratio, -np.inf).max(axis=1), 0.0)
        lo = np.where(np.any((g == 0.0) & (o < 0.0), axis=1), np.inf, lo)
        return lo[None, :], hi[None, :]

    def farthest(self) -> np.ndarray:
        """An upper bound of |x| over the difference, per member (one)."""
        return np.array([np.inf])

    def subset(self, keep):
        return self


class Balls:
    """Differences of balls: B(p, rA) inside A and B(q, rB) inside B give the ball of centre p - q and radius
    rA + rB; `centres` (k, 3), `radii` (k,) (pulled in already), each holding the origin strictly inside."""

    def __init__(self, centres, radii):
        self.centres, self.radii = centres, radii

    def radial(self, directions: np.ndarray) -> np.ndarray:
        """(k, n): for each ball and unit direction u, the largest s with |s u - c| <= R (R > |c|), in the form
        without cancellation: s = (R^2 - |c|^2) / (sqrt(b^2 + R^2 - |c|^2) - b) for b = u . c."""
        c, R = self.centres, self.radii
        b = c @ directions.T
        room = (R - np.sqrt(row_dot(c, c))) * (R + np.sqrt(row_dot(c, c)))
        root = np.sqrt(b * b + room[:, None])
        return np.where(b > 0.0, b + root, room[:, None] / np.maximum(root - b, 1e-300))

    def interval(self, directions: np.ndarray):
        """(lo, hi), each (k, n): where the ray along each unit direction u enters and leaves each ball ([0, radial]
        for a ball holding the origin; empty, lo > hi, for one the ray misses), in forms without cancellation."""
        c, R = self.centres, self.radii
        norm = np.sqrt(row_dot(c, c))
        if np.all(norm < R):
            hi = self.radial(directions)
            return np.zeros_like(hi), hi
        b = c @ directions.T
        room = ((R - norm) * (R + norm))[:, None]
        disc = b * b + room
        root = np.sqrt(np.maximum(disc, 0.0))
        hold = room > 0.0
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # (in the branches not taken)
            hi = np.where(hold, np.where(b > 0.0, b + root, room / np.maximum(root - b, 1e-300)), b + root)
            lo = np.where(hold, 0.0, -room / np.maximum(b + root, 1e-300))
        miss = ~hold & ((disc < 0.0) | (b <= 0.0))
        return np.where(miss, np.inf, lo), np.where(miss, -np.inf, hi)

    def farthest(self) -> np.ndarray:
        return np.sqrt(row_dot(self.centres, self.centres)) + self.radii

    def subset(self, keep):
        return Balls(self.centres[keep], self.radii[keep])


def extreme_vertices(points: np.ndarray, count: int = PIECE_VERTICES) -> np.ndarray:
    """At most `count` of `points`: the extreme ones along spread directions (their hull lies inside the points')."""
    if points.shape[0] <= count:
        return points
    which = np.unique(np.argmax(points @ fibonacci_directions(2 * count).T, axis=0))
    if which.size > count:
        which = which[np.linspace(0, which.size - 1, count).astype(int)]
    return points[which]


def minkowski_difference(va: np.ndarray, vb: np.ndarray, tag=None, directions=None,
                         holding: bool = True) -> Difference | None:
    """The difference {a - b} of the hulls of vertex sets va, vb as a `Difference`, or None when the hull declines
    or (`holding`) it does not hold the origin strictly inside (the pieces do not overlap as placed).  With unit `directions` (k, 3),
    only the differences a - b of the vertices extreme along one of them (a along u, b along -u, each within a hair
    of the extreme) are taken: points of the difference, so their hull lies inside it, and with the pieces' facet
    normals and the cross products of their edges among the directions, every vertex of it is among them (each
    facet of a difference of polytopes is a facet of one plus a vertex or face of the other, or the sum of an edge
    of each); the hull is built from far fewer points."""
    if directions is not None:
        # a and b extreme along a common direction (ties within a hair of the extremes: the faces' corners)
        ha, hb = va @ directions.T, vb @ directions.T
        hair = 1e-7 * (float(np.max(np.abs(va))) + float(np.max(np.abs(vb))))
        ta = (ha >= ha.max(axis=0) - hair).astype(float)
        tb = (hb <= hb.min(axis=0) + hair).astype(float)
        i, j = np.nonzero(ta @ tb.T)
        d = np.unique(va[i] - vb[j], axis=0)
    else:
        d = (va[:, None, :] - vb[None, :, :]).reshape(-1, 3)
    if d.shape[0] < 4:
        return None
    size = float(np.max(np.abs(d))) + float(np.max(np.abs(va))) + float(np.max(np.abs(vb)))
    if directions is not None:
        # the faces the directions find, when they close up (no hull built); else the hull below
        tri = _facet_triangles(d, directions, FACE_HAIR * size)
        planes = _outward_planes(d[tri], size) if tri is not None else None
        if planes is not None:
            n, offsets = planes
            if float(np.max(d @ n.T - offsets[None, :])) <= 1e-6 * size:
                return Difference(n, offsets, tag) if not holding or np.all(offsets > 0.0) else None
    for attempt in range(2):
        hull = convex_hull(d)
        if hull is None:
            return None
        planes = _outward_planes(d[hull[1]], size)
        if planes is None:
            return None
        n, offsets = planes
        if np.all(offsets > 0.0):
            return Difference(n, offsets, tag)
        # a point of the cloud far above a face: the construction folded the surface (it happens on the clouds
        # of coplanar grid points a difference of polytopes makes); once more from the vertices it kept
        folded = float(np.max(d @ n.T - offsets[None, :])) > 1e-6 * size
        if attempt or not folded:
            # (folded or not, the planes' inner side lies in the hull: only smaller than it could be)
            return None if holding else Difference(n, offsets, tag)
        d = d[hull[0]]
    return None


def _facet_triangles(d: np.ndarray, normals: np.ndarray, hair: float):
    """A closed, outward triangulation of the hull of the points `d` (distinct) built without a hull: each unit
    direction of `normals` whose extreme points (within `hair` of the extreme) number three or more gives a face,
    fanned around its points in angular order about the direction; the faces found twice count once.  Returns
    (k, 3) indices into `d`, or None unless the triangles close up (every directed edge once and its reverse
    once) and each turns the way its direction points.  Any closed, outward surface made of the points serves
    `minkowski_difference` (a point strictly inside every triangle's plane lies inside the hull of the points),
    whether or not every face of the hull was found; a missing one leaves the surface open, and the hull is
    built instead."""
    h = d @ normals.T
    tight = h >= h.max(axis=0) - hair
    faces = np.flatnonzero(np.count_nonzero(tight, axis=0) >= 3)
    if faces.size < 4:
        return None
    _, first = np.unique(np.packbits(tight[:, faces], axis=0).T, axis=0, return_index=True)
    faces = faces[np.sort(first)]
    # a set within another (a direction near an edge catching a point of a nearly coplanar face) is no face
    m = tight[:, faces].astype(float)
    share = m.T @ m
    count = np.diag(share)
    faces = faces[~np.any((share >= count[:, None]) & (count[None, :] > count[:, None]), axis=1)]
    n = normals[faces]
    pick = np.eye(3)[np.argmin(np.abs(n), axis=1)]
    u = np.cross(n, pick)
    u /= np.sqrt(row_dot(u, u))[:, None]
    w = np.cross(n, u)
    # every (point, face) pair on the face, ordered by face then angle about the face's centre
    p, f = np.nonzero(tight[:, faces])
    size = np.bincount(f, minlength=faces.size)
    centre = np.zeros((faces.size, 3))
    np.add.at(centre, f, d[p])
    rel = d[p] - (centre / size[:, None])[f]
    order = np.lexsort((np.arctan2(row_dot(rel, w[f]), row_dot(rel, u[f])), f))
    p, f = p[order], f[order]
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    # the fan of a face of s points: (first, k, k + 1) for k = 1 .. s - 2
    fans = size - 2
    face_of = np.repeat(np.arange(faces.size), fans)
    step = np.arange(face_of.size) - np.repeat(np.cumsum(fans) - fans, fans)
    tri = np.column_stack([p[start[face_of]], p[start[face_of] + 1 + step], p[start[face_of] + 2 + step]])
    turn = row_dot(np.cross(d[tri[:, 1]] - d[tri[:, 0]], d[tri[:, 2]] - d[tri[:, 0]]), n[face_of])
    for k in np.unique(face_of[~(turn > 0.0)]):
        # a point on the edge next to the fan's apex (a face of a difference often has one): fan from another
        fan = _fan(d, p[start[k]:start[k] + size[k]], n[k], u[k], w[k])
        if fan is None:
            return None
        tri = np.concatenate([tri[face_of != k], fan])
        face_of = np.concatenate([face_of[face_of != k], np.full(fan.shape[0], k)])
    count = d.shape[0]
    edge = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    forward = np.sort(edge[:, 0] * count + edge[:, 1])
    backward = np.sort(edge[:, 1] * count + edge[:, 0])
    if np.any(forward[1:] == forward[:-1]) or not np.array_equal(forward, backward):
        return None
    return tri


def _fan(d, ring, n, u, w):
    """Triangles (turning along n) over one face's points `ring` (in angular order about their centre): a fan
    from one of them, or a star about one inside the others (a face of two nearly coplanar ones, whose shared
    vertex lies within the hair of their common plane); None if neither turns the right way everywhere."""
    def good(t):
        return np.all(row_dot(np.cross(d[t[:, 1]] - d[t[:, 0]], d[t[:, 2]] - d[t[:, 0]]), n) > 0.0)

    for shift in range(ring.size):
        r = np.roll(ring, -shift)
        fan = np.column_stack([np.full(r.size - 2, r[0]), r[1:-1], r[2:]])
        if good(fan):
            return fan
    for c in ring:
        rest = ring[ring != c]
        rel = d[rest] - d[c]
        r = rest[np.argsort(np.arctan2(row_dot(rel, w[None, :]), row_dot(rel, u[None, :])), kind="stable")]
        star = np.column_stack([np.full(r.size, c), r, np.roll(r, -1)])
        if good(star):
            return star
    return None


def _outward_planes(tri, size):
    """Unit normals and inward-pulled offsets of the triangles (k, 3, 3), or None if one has no area."""
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    n = np.cross(e1, e2)
    length = np.sqrt(row_dot(n, n))
    edge2 = np.maximum(row_dot(e1, e1), row_dot(e2, e2))
    if np.any(length <= 0.0):
        return None
    n = n / length[:, None]
    # the allowance: the rounding of the differences and of the dot products (ROUNDING x size), and a sliver's
    # normal turned by the rounding of its cross product (about 1e-16 x edge^2 / |cross| radians)
    allowance = size * (ROUNDING + 1e-14 * edge2 / length)
    return n, row_dot(n, tri[:, 0]) - allowance


def _heights(cells: np.ndarray) -> np.ndarray:
    """h = min_k n . u_k for n the (shortened) unit normal of the flat triangle through the corners, towards them."""
    n = np.cross(cells[:, 1] - cells[:, 0], cells[:, 2] - cells[:, 0])
    n = n / np.sqrt(row_dot(n, n))[:, None] * (1.0 - 1e-15)
    return np.einsum("kj,kij->ki", n, cells).min(axis=1)


def covered_radius(differences, floor: float = 0.0, max_cells: int = MAX_CELLS, rounds: int = MAX_ROUNDS):
    """The largest r this test proves the union of the differences (`Difference`s and `Balls`) to hold the ball
    of radius r about the origin, and the direction where it is thinnest; None when that is not above `floor`
    (members that reach no farther than `floor` are dropped first).  Returns (r, direction).

    A member need not hold the origin: in a cell's cone it holds the shell of radii [a, b], a the largest over the
    corners u_k of where the ray along u_k enters it and b = h times the least of where the rays leave it (the
    shell's part of the cone lies in the hull of the six points a u_k and (b / h) u_k, all in the member); the
    cell is held up to the end of the chain of shells from the origin (each next one starting no later than the
    reach so far), so a move along which one pair of pieces parts from the start while another has begun to
    overlap is still followed.  Members holding the origin start the chain; alone they give the star-shaped
    test of the module docstring."""
    return held_radius(cells_held(differences, floor, max_cells, rounds), floor)


def held_radius(cover, floor: float = 0.0):
    """(r, direction) from `cells_held`'s answer: the least cell's value shrunk by ROUNDING and that cell's centre
    direction, or None when it is not above `floor` (or there is no answer)."""
    if cover is None:
        return None
    held, done = cover
    j = int(np.argmin(held))
    r = float(held[j]) * (1.0 - ROUNDING)
    if not r > floor:
        return None
    u = done[j].sum(axis=0)
    return r, u / np.linalg.norm(u)


def cells_held(differences, floor: float = 0.0, max_cells: int = MAX_CELLS, rounds: int = MAX_ROUNDS, start=None,
               limit: float = np.inf):
    """`covered_radius`'s cells: (held, cells), the radius each final cell (k, 3, 3 unit corners) is held up to
    (before the rounding shrink), or None when the covering is not above `floor`.  With `start`, an earlier
    answer (held, cells) for a subset of these members, only its cells held below `limit` are worked out again:
    the others keep their values (held by fewer members, so still held), and the least of all is still the
    covering's certified radius."""
    sets = []
    for m in differences:
        if m is None:
            continue
        keep = m.farthest() > floor
        if np.any(keep):
            sets.append(m.subset(keep))
    if not sets:
        return None
    if start is None:
        cells, held, done = sphere_cells.cells(START_LEVEL), np.empty(0), np.empty((0, 3, 3))
    else:
        redo = start[0] < limit
        cells, held, done = start[1][redo], start[0][~redo], start[1][~redo]
    reach = np.inf
    for k in range(rounds + 1):
        if cells.shape[0] == 0:
            break
        best_cell, best_dir = _best(sets, cells)
        held = np.concatenate([held, best_cell])
        done = np.concatenate([done, cells])
        # the least over the corners of the chain along that one direction: no cell can be held beyond it
        reach = min(reach, float(best_dir.min()))
        if reach <= floor:
            return None
        low = held < reach * (1.0 - 1e-3)
        if k == rounds or not np.any(low) or done.shape[0] + 3 * np.count_nonzero(low) > max_cells:
            break
        cells = sphere_cells.split(done[low])
        held, done = held[~low], done[~low]
    return held, done


CHAIN_STEPS = 32
"""Most links of a chain of shells followed (a shorter chain only holds less)."""


def _chain(lo, hi):
    """Per row, how far from 0 the union of the closed intervals [lo, hi] (rows, members) reaches without a gap:
    each next interval must start a relative 1e-9 inside the reach so far (rounding)."""
    valid = lo <= hi
    reach = np.zeros(lo.shape[0])
    for _ in range(CHAIN_STEPS):
        ok = valid & (lo <= reach[:, None] * (1.0 - 1e-9))
        new = np.maximum(reach, np.max(np.where(ok, hi, 0.0), axis=1, initial=0.0))
        if not np.any(new > reach):
            break
        reach = new
    return reach


def _best(sets, cells, chunk: int = 500):
    """Per cell the reach of the chain of its members' shells (`covered_radius`), and per corner the reach of the
    chain of the members' intervals along it."""
    heights = _heights(cells)
    per_cell = np.zeros(cells.shape[0])
    per_dir = np.zeros(cells.shape[0] * 3)
    for start in range(0, cells.shape[0], chunk):
        part = cells[start:start + chunk]
        dirs = part.reshape(-1, 3)
        los, his = zip(*(m.interval(dirs) for m in sets))
        lo, hi = np.concatenate(los).T, np.concatenate(his).T  # (directions, members)
        n = part.shape[0]
        # the shells: entered by the last corner's entry, left by h times the first corner's exit
        a = lo.reshape(n, 3, -1).max(axis=1)
        b = hi.reshape(n, 3, -1).min(axis=1) * heights[start:start + n, None]
        per_cell[start:start + n] = _chain(a, b)
        per_dir[3 * start:3 * (start + n)] = _chain(lo, hi)
    return per_cell, per_dir


MAX_CENTRES = 2
"""Points inside both solids the polytope pieces are built around (spread over the overlap)."""

SIZES = (1.0,)
"""Half-sizes of the polytope pieces' boxes, as multiples of the interval's upper end (plus the whole pair)."""

DIFFERENCE_POINTS = 2048
"""A difference's hull is built from at most about this many vertex differences."""

POLYTOPE_TRIANGLES = 500
"""Polytope pieces only for meshes up to this many triangles each (faceted shapes, where balls fit poorly; each
piece and each difference is a hull; on the corpus's larger tori the pieces gained nothing for twice the cover's
time).  Below depth_interval.py's MAX_PLANES: the whole pair's box is tried."""

PRUNE_GROWTH = 8
"""`pruned` keeps one plane per round while it has kept fewer than this many, then that many-th of those kept
(so a convex mesh, whose planes all stay, takes a few dozen rounds)."""

BALL_SAMPLES = 96
"""Points sampled in each solid near the overlap for ball pieces (before the inside test), for pairs up to
SMALL_PAIR triangles; fewer above (each is a few closest-point queries), down to 8."""

BALL_STEPS = 6
"""Ascent steps moving a ball's centre away from the surface (towards the solid's medial axis); 1 above
SMALL_PAIR triangles."""

MAX_PAIRS = 1500
"""Cap on the ball pairs whose differences join the cover."""

LATER_PAIRS = 500
"""Cap on the ball pairs that do not overlap as placed but do after a move shorter than the upper end (nearest
first)."""

SMALL_PAIR = 10_000
"""Pairs up to this many triangles get the full work (more samples and steps, polytope pieces); larger ones are
tried only while the interval is wider than WIDE (each closest-point query costs more there)."""

PIECES = 10
"""Vertex-hull pieces grown per side (core/mesh/depth_pieces.py), around the medial centres nearest the overlap."""

PIECES_ABOVE = 4e-3
"""The pieces are grown only while the balls and polytopes leave the interval wider than this (relative)."""

STAGE_SECONDS = 1.6
"""Quiet-core CPU seconds the pieces stage (growth and differences) may spend on a pair of STAGE_TRIANGLES
triangles or more, counted as estimated work (core/mesh/depth_pieces.py `Work`, so the answer does not depend on
the machine's load); `stage_budget` scales it down for smaller pairs.  Past it the stage returns what it has
built (the bound is then weaker, never wrong)."""

DIFFERENCE_COST = 500.0
"""Work units (microseconds) of one piece difference, plus PAIR_COST per pair of the two pieces' points: the fit by
CPU time on corpus chain and rod/torus pairs gave about 45 us per point pair with no fixed part to speak of (a
difference's directions are mostly the cross products of the two pieces' edges, each direction's extreme pairs a
few microseconds), so a pair of 20-point pieces costs about 18 ms."""

PAIR_COST = 43.0

STAGE_TRIANGLES = 4000
"""Pairs of at least this many triangles (both meshes) get the whole STAGE_SECONDS."""

STAGE_FLOOR = 0.75
"""The smallest share of STAGE_SECONDS a pair gets, however few its triangles."""

GROWTH_SHARE = 0.45
"""Share of the stage's budget the two sides' growth may use (half each, A first); the differences get the rest
(about PIECE_PAIRS differences of typical pieces)."""

CHECK_DIRECTIONS = 64
"""Directions along which `_cannot_pay` bounds the covering from above before any difference's hull is built."""

TOUCH = 0.1
"""Vertices within this share of the move's length of the nearest count as touching (`_contacts`)."""

CONTACTS = 4
"""Points where the upper end's move leaves the solids touching, whose nearest centres grow the first pieces."""

PIECE_PAIRS = 32
"""Cap on the piece differences (the pairs whose pieces' centroids lie nearest each other first)."""

PAIR_DIRECTIONS = 128
"""Directions whose extreme vertex pairs make a piece difference's points (`minkowski_difference`)."""

THIN_ROUNDS = 3
"""Rounds of pieces aimed at the covering's thinnest cells (`_thin_pieces`), each followed by a new covering."""

THIN_DIRECTIONS = 6
"""Thin cells aimed at per round (the least-held ones, apart from each other)."""

THIN_APART = 0.25
"""Least angle (radians) between two thin cells' directions aimed at in one round."""

THIN_STEP = 0.25
"""The aimed move goes this share of the way from where a thin cell's chain stops to the upper end."""

THIN_SAMPLES = 64
"""Points sampled in the boxes' overlap after an aimed move (besides the medial centres) for `_overlap_point`."""

THIN_PAST = 0.05
"""How far past the other side's nearest surface point a centre is carried when that point lies outside the
centre's ball (`_overlap_point`), as a share of its distance to it."""

THIN_SECONDS = 0.5
"""Estimated quiet-core seconds (`Work`) the aimed pieces may spend per pair (growth, differences, point queries;
the coverings between rounds are not counted)."""

POINT_COST = 30.0
"""Work units (microseconds) of one point's winding number or closest point in `_overlap_point`."""

CONVEX_COST = 1000.0
"""Work units (microseconds) of one convex query between two pieces in `_last_links`."""

PIECE_TRIANGLES = 5000
"""Vertex-hull pieces (core/mesh/depth_pieces.py) only for meshes up to this many triangles each."""

WIDE = 0.1
"""The width (relative to L) above which a pair of more than SMALL_PAIR triangles is tried."""


def cover_bound(sa, sb, seeds: np.ndarray, scale: float, lower: float, upper: float, polytope=None, planes=None,
                pieces_most: int = PIECES, move=None, progress=None):
    """A lower bound of PD above `lower`, or None: the covered radius of the differences of pieces of A and B
    (pair-frame sides `sa`, `sb`, both closed) near their overlap: balls about points inside each solid pushed
    towards its medial axis, and (meshes of up to POLYTOPE_TRIANGLES) inner polytopes around up to MAX_CENTRES
    points of `seeds` inside both, in boxes of SIZES x `upper` and of the whole pair: `polytope(side, planes,
    p, half, scale)` and `planes(side)` are core/mesh/depth_interval.py's `inner_polytope` and `_triangle_planes`
    (handed in: that module calls this one); without them, balls only.  Pairs of more
    than SMALL_PAIR triangles get fewer samples and steps, and only while `upper` is above `lower` by more than
    WIDE.  Returns (r, centre, direction): `direction` where the cover is thinnest, `centre` a point inside
    both.  `progress`: the depth interval's hook (core/progress.py), called between the units of work."""
    if seeds.shape[0] == 0 or not upper > 0.0:
        return None
    triangles = sa.local.triangles.shape[0] + sb.local.triangles.shape[0]
    if triangles > SMALL_PAIR and upper <= lower * (1.0 + WIDE):
        return None
    samples = int(max(8, min(BALL_SAMPLES, BALL_SAMPLES * SMALL_PAIR // max(1, triangles))))
    steps = BALL_STEPS if triangles <= SMALL_PAIR else 1
    if triangles > SMALL_PAIR:
        seeds = seeds[:: max(1, seeds.shape[0] // 32)]
    seeds = seeds[winding_numbers(seeds, sa.world, scale) != 0]
    if seeds.shape[0]:
        seeds = seeds[winding_numbers(seeds, sb.world, scale) != 0]
    if seeds.shape[0] == 0:
        return None
    rng = np.random.default_rng(19)
    allowance = ROUNDING * scale
    # the region where pieces matter: the boxes' overlap grown by the upper end (clipped to each mesh's box)
    lo_a, hi_a = sa.world.lo[-1], sa.world.hi[-1]
    lo_b, hi_b = sb.world.lo[-1], sb.world.hi[-1]
    lo, hi = np.maximum(lo_a, lo_b) - upper, np.minimum(hi_a, hi_b) + upper
    balls = []
    for side, (slo, shi) in ((sa, (lo_a, hi_a)), (sb, (lo_b, hi_b))):
        report(progress, Stage.COVER, 0.1 * len(balls))
        a, b = np.maximum(lo, slo), np.minimum(hi, shi)
        points = np.concatenate([seeds, a + rng.random((samples, 3)) * np.maximum(b - a, 0.0)])
        balls.append(_medial_balls(side, points, scale, allowance, steps))
    (pa, ra), (pb, rb) = balls
    centres = (pa[:, None, :] - pb[None, :, :]).reshape(-1, 3)
    radii = (ra[:, None] + rb[None, :]).ravel()
    keep = np.flatnonzero(np.sqrt(row_dot(centres, centres)) < radii - 2.0 * allowance)
    if keep.size > MAX_PAIRS:
        # the farthest-reaching ones (any subset is still a cover's members)
        reach = np.sqrt(row_dot(centres[keep], centres[keep])) + radii[keep]
        keep = keep[np.argsort(-reach, kind="stable")[:MAX_PAIRS]]
    differences = [Balls(centres[keep], radii[keep])] if keep.size else []
    # pairs that meet only after a move shorter than the upper end: links of the chains of shells
    gap = np.sqrt(row_dot(centres, centres)) - radii
    later = np.flatnonzero((gap >= -2.0 * allowance) & (gap < upper))
    if later.size:
        later = later[np.argsort(gap[later], kind="stable")[:LATER_PAIRS]]
        differences.append(Balls(centres[later], radii[later]))
    small = max(sa.local.triangles.shape[0], sb.local.triangles.shape[0]) <= POLYTOPE_TRIANGLES
    if polytope is not None and planes is not None and small:
        halves = [f * upper for f in SIZES] + [float(scale)]
        cuts = [planes(sa), planes(sb)]
        spread = _spread(seeds)
        for k, p in enumerate(spread):
            report(progress, Stage.COVER, 0.2 + 0.2 * k / spread.shape[0])
            for half in halves:
                va = polytope(sa, pruned(sa, cuts[0], p, half, scale), p, half, scale)
                vb = polytope(sb, pruned(sb, cuts[1], p, half, scale), p, half, scale) if va is not None else None
                if va is None or vb is None or va.shape[0] < 4 or vb.shape[0] < 4:
                    continue
                differences.append(minkowski_difference(*_cut_pair(va, vb)))
    report(progress, Stage.COVER, 0.4)
    found = covered_radius(differences, floor=lower)
    if (pieces_most and max(sa.local.triangles.shape[0], sb.local.triangles.shape[0]) <= PIECE_TRIANGLES
            and (found is None or found[0] * (1.0 + PIECES_ABOVE) < upper)):
        more = _piece_differences(sa, sb, ((pa, ra), (pb, rb)), seeds, scale, pieces_most, upper, move,
                                  floor=lower if found is None else found[0], others=differences, progress=progress)
        if more:
            # (the first cover's members are members of this one too, but its cells differ: keep the better; the
            # cells are worked out from no floor, so that they also show where a covering below it is thin)
            report(progress, Stage.COVER, 0.9)
            floor = lower if found is None else found[0]
            cover = cells_held(differences + more)
            again = held_radius(cover, floor)
            found = again if again is not None else found
            if cover is not None and (found is None or found[0] * (1.0 + PIECES_ABOVE) < upper):
                report(progress, Stage.COVER, 0.95)
                again = held_radius(_thin_pieces(sa, sb, differences + more, ((pa, ra), (pb, rb)), scale, upper,
                                                 cover), floor)
                found = again if again is not None and (found is None or again[0] > found[0]) else found
    if found is None:
        return None
    r, u = found
    return r, seeds[0], u


def _piece_differences(sa, sb, centres, seeds, scale, most, upper, move=None, floor=0.0, others=(), progress=None):
    """The differences of the vertex-hull pieces (core/mesh/depth_pieces.py) of A and B grown around each side's
    medial `centres` in a spread order from the one nearest the overlap (`seeds`: points inside both), for the
    pairs whose boxes meet, nearest first, at most PIECE_PAIRS; none when they cannot lift the covering above
    `floor` with the members `others` (`_cannot_pay`), and no more once the stage's estimated work passes its
    budget (`stage_budget`: the ones built by then are returned, any subset being still members of a cover)."""
    budget = stage_budget(sa.local.triangles.shape[0] + sb.local.triangles.shape[0])
    work = Work(budget * 1e6)
    touch = _contacts(sa, sb, move) if move is not None and np.any(move != 0.0) else None
    built = []
    for k, (side, (c, _), shift) in enumerate(zip((sa, sb), centres, (0.0, move))):
        first = None if touch is None else touch - shift
        # each side's growth gets its share of the budget, the differences the rest
        work.cap = work.limit * GROWTH_SHARE * (k + 1) / 2.0
        report(progress, Stage.COVER, 0.5 + 0.1 * k)
        built.append(pieces_around(side, _spread_from(seeds, c, first), scale, most, work=work))
    # pairs whose boxes meet after some move shorter than the upper end (a pair that overlaps only after a move
    # still carries the chain on)
    pairs = [(float(np.linalg.norm(va.mean(axis=0) - vb.mean(axis=0))), i, j)
             for i, (va, _, _) in enumerate(built[0]) for j, (vb, _, _) in enumerate(built[1])
             if np.all(va.min(axis=0) < vb.max(axis=0) + upper) and np.all(vb.min(axis=0) < va.max(axis=0) + upper)]
    pairs = [(i, j) for _, i, j in sorted(pairs)[:PIECE_PAIRS]]
    if not pairs or _cannot_pay([(built[0][i][0], built[1][j][0]) for i, j in pairs], others, floor):
        return []
    out = []
    work.cap = work.limit
    for n, (i, j) in enumerate(pairs):
        if work.over():
            break
        report(progress, Stage.COVER, 0.7 + 0.2 * n / len(pairs))
        m = _pair_difference(built[0][i], built[1][j], work)
        if m is not None:
            out.append(m)
    return out


def _pair_difference(piece_a, piece_b, work: Work):
    """The `Difference` of two vertex-hull pieces ((points, facet normals, edge directions) each, from
    `pieces_around`), or None; its estimated cost is charged to `work`.  Its `tag` is the two vertex sets (where
    `_thin_pieces` looks for the last link of a chain)."""
    (va, na, ea), (vb, nb, eb) = piece_a, piece_b
    work.spend(DIFFERENCE_COST + PAIR_COST * va.shape[0] * vb.shape[0])
    cross = np.cross(ea[:, None, :], eb[None, :, :]).reshape(-1, 3)
    length = np.sqrt(row_dot(cross, cross))
    cross = cross[length > 1e-6] / length[length > 1e-6][:, None]
    directions = np.concatenate([fibonacci_directions(PAIR_DIRECTIONS), na, -nb, cross, -cross])
    return minkowski_difference(va, vb, (va, vb), directions, holding=False)


def _thin_pieces(sa, sb, members, centres, scale, upper, cover):
    """Piece differences aimed at where the covering of `members` is thinnest (issue 19: the chain along a
    direction stops where no pair of the pieces built so far still overlaps after that move, as on thick links
    crossing, whose pieces are thin slabs of the tubes).  Per round: the covering's least cells, up to
    THIN_DIRECTIONS of them apart from each other by THIN_APART; for a cell held up to h, with the chain along its
    centre direction u reaching R, the move m = (s + THIN_STEP (U - s)) u for s = max(h, R) (none when s >= U),
    a point x inside A and inside B + m (`_overlap_point`, from candidates that include `_last_links`'),
    and the pieces of A around x and of B around x - m (core/mesh/depth_pieces.py `pieces_around`, certified
    there): after the move m the two share x, so their difference holds m and carries that cell's chain past s.
    Which points are chosen only decides how much the bound rises: every difference is of certified pieces.  At
    most THIN_ROUNDS rounds, within THIN_SECONDS of estimated work (`Work`).  `cover`: `cells_held`'s answer for
    `members`; returns it for the members and the differences built (each round redoes only the cells held
    below U)."""
    work = Work(THIN_SECONDS * 1e6)
    out = []
    for _ in range(THIN_ROUNDS):
        held, cells = cover
        if float(held.min()) * (1.0 + PIECES_ABOVE) >= upper or work.over():
            break
        new = []
        for u, h, reach in _thin_directions(held, cells, members + out):
            if work.over():
                break
            # past where the cell is held and where the chain along u stops (the pieces there are the ones whose
            # neighbours are missing)
            stop = max(h, float(reach))
            if not stop < upper:
                continue
            m = (stop + THIN_STEP * (upper - stop)) * u
            near = _last_links(members + out, u, reach, m, work)
            x = _overlap_point(sa, sb, m, centres, near, scale, work)
            if x is None:
                continue
            piece_a = pieces_around(sa, x[None, :], scale, 1, work=work)
            piece_b = pieces_around(sb, (x - m)[None, :], scale, 1, work=work) if piece_a else []
            if piece_b:
                d = _pair_difference(piece_a[0], piece_b[0], work)
                if d is not None:
                    new.append(d)
        if not new:
            break
        out += new
        # only the cells held below the upper end can still set the covering: the others keep their values
        cover = cells_held(members + out, start=cover, limit=upper)
    return cover


def _thin_directions(held, cells, members):
    """For the least-held cells, least first, each at least THIN_APART (radians) from those taken, at most
    THIN_DIRECTIONS: the cell's centre direction u, the value the cell is held up to, and how far the chain of
    the `members`' intervals along u reaches."""
    taken, values = [], []
    for k in np.argsort(held, kind="stable"):
        centre = cells[k].sum(axis=0)
        centre = centre / np.linalg.norm(centre)
        if all(float(np.dot(centre, w)) < np.cos(THIN_APART) for w in taken):
            taken.append(centre)
            values.append(float(held[k]))
            if len(taken) >= THIN_DIRECTIONS:
                break
    if not taken:
        return []
    directions = np.array(taken)
    reach = _chain(*(np.concatenate(x).T for x in zip(*(m.interval(directions) for m in members if m is not None))))
    return list(zip(directions, values, reach))


def _last_links(members, u, reach, m, work):
    """Points near where the pieces of the chain's last link along u (the piece differences whose interval along
    u ends at `reach`, where the chain stops) meet after the move m a little beyond it: the midpoints of their
    closest points (core/convex.py), where the solids, though not those pieces, may still overlap."""
    points = []
    for d in members:
        if not isinstance(d, Difference) or not isinstance(d.tag, tuple):
            continue
        lo, hi = d.interval(u[None, :])
        if lo[0, 0] <= reach and abs(hi[0, 0] - reach) <= 1e-6 * reach:
            va, vb = d.tag
            work.spend(CONVEX_COST)
            answer = collide_convex(va, vb + m)
            if answer.point_a is not None and answer.point_b is not None:
                points.append(0.5 * (np.asarray(answer.point_a, float) + np.asarray(answer.point_b, float)))
    return np.array(points).reshape(-1, 3)


def _overlap_point(sa, sb, m, centres, near, scale, work):
    """A point inside A and inside B moved by m, as deep in both as the candidates allow (the largest least
    distance to the two surfaces), or None: the candidates are the points `near`, both sides' medial `centres`
    ((pa, ra), (pb, rb); B's moved by m), those carried past the other side's nearest surface point, and
    THIN_SAMPLES points of a fixed sequence in the boxes' overlap after the move."""
    (pa, ra), (pb, rb) = centres
    lo = np.maximum(sa.world.lo[-1], sb.world.lo[-1] + m)
    hi = np.minimum(sa.world.hi[-1], sb.world.hi[-1] + m)
    if np.any(lo > hi):
        return None
    rng = np.random.default_rng(19)
    # each side's centres carried past the other's nearest surface point q: when q lies in the centre's ball
    # (radius r), half-way from q to the ball's rim along the same line (into the other solid, and still in the
    # ball: where a thin overlap after the move lies), else a little past q
    work.spend(POINT_COST * (pa.shape[0] + pb.shape[0]))
    _, qb = closest_points(pa - m, sb.world)
    _, qa = closest_points(pb + m, sa.world)
    past = []
    for p, r, q in ((pa, ra, qb + m), (pb + m, rb, qa)):
        w = q - p
        gap = np.sqrt(row_dot(w, w))
        share = np.where(gap < r, 0.5 * (r - gap) / np.maximum(gap, 1e-300), THIN_PAST)
        past.append(q + w * share[:, None])
    points = np.concatenate([near, *past, pa, pb + m, lo + rng.random((THIN_SAMPLES, 3)) * (hi - lo)])
    work.spend(POINT_COST * points.shape[0])
    points = points[winding_numbers(points, sa.world, scale) != 0]
    if points.shape[0]:
        work.spend(POINT_COST * points.shape[0])
        points = points[winding_numbers(points - m, sb.world, scale) != 0]
    if points.shape[0] == 0:
        return None
    work.spend(2.0 * POINT_COST * points.shape[0])
    da, _ = closest_points(points, sa.world)
    db, _ = closest_points(points - m, sb.world)
    return points[int(np.argmax(np.minimum(da, db)))]


def stage_budget(triangles: int) -> float:
    """Quiet-core CPU seconds (as estimated work) the pieces stage may spend on a pair of this many triangles (both meshes): STAGE_SECONDS for
    STAGE_TRIANGLES and more, in proportion below, never under STAGE_FLOOR."""
    return STAGE_SECONDS * min(1.0, max(STAGE_FLOOR, triangles / STAGE_TRIANGLES))


def _cannot_pay(pairs, others, floor: float) -> bool:
    """Whether the covering with these piece pairs' differences (each given by its vertex sets) and the members
    `others` certainly stays at or below `floor`, so their hulls need not be built.  Along a unit direction u
    the chain of shells (`covered_radius`) ends where some member's interval along u ends, at most that member's
    support value max_{x in M} u . x (a piece difference's: max va . u - min vb . u, over the vertices); the
    covered radius is at most that chain's reach along any one u, so at most the least over CHECK_DIRECTIONS
    directions of the largest support or interval end (with a relative 1e-9 of slack for rounding)."""
    u = fibonacci_directions(CHECK_DIRECTIONS)
    reach = np.zeros(u.shape[0])
    for va, vb in pairs:
        reach = np.maximum(reach, np.max(va @ u.T, axis=0) - np.min(vb @ u.T, axis=0))
    for m in others:
        if m is None:
            continue
        _, hi = m.interval(u)
        reach = np.maximum(reach, np.max(np.where(np.isnan(hi), np.inf, hi), axis=0, initial=0.0))
    return bool(np.min(reach) * (1.0 + 1e-9) + 1e-300 <= floor)


def _cut_pair(va, vb):
    """Both pieces' vertices cut down for their difference: the one with fewer to PIECE_VERTICES, the other to as
    many as keep DIFFERENCE_POINTS differences (a convex mesh taken whole keeps most of its vertices against a
    small piece of the other)."""
    if va.shape[0] <= vb.shape[0]:
        va = extreme_vertices(va)
        return va, extreme_vertices(vb, max(PIECE_VERTICES, DIFFERENCE_POINTS // va.shape[0]))
    vb = extreme_vertices(vb)
    return extreme_vertices(va, max(PIECE_VERTICES, DIFFERENCE_POINTS // vb.shape[0])), vb


def pruned(side, planes, p, half, scale):
    """`planes` (core/mesh/depth_interval.py's `_triangle_planes` of every triangle of `side`) cut down, for the
    axis-aligned box of half-size `half` about p, to the triangles meeting the box that are not wholly beyond an
    earlier kept one's plane (nearest planes first).  The box cut by the kept planes still holds no surface point
    inside: a surface point in the box lies on a kept triangle (on a bounding plane) or on a dropped one (beyond a
    bounding plane).  So the inner polytope of these planes is still inside the solid, and larger where the
    surface is concave (a cup's inner wall, a torus's hole): facets there that the nearest ones hide no longer
    cut it.  A triangle without a plane is kept (the polytope then declines) unless a kept plane hides it."""
    lo, hi, n, corner, proper, off = planes
    meets = np.flatnonzero(np.all(lo <= p + half, axis=1) & np.all(hi >= p - half, axis=1))
    corners = side.world.leaf_corners[meets] - p
    s = row_dot(n[meets], corner[meets] - p)
    nn = n[meets] * np.where(s < 0.0, -1.0, 1.0)[:, None]
    # beyond a plane for certain: past its offset plus how far its corners lie off it plus a rounding margin
    beyond = np.abs(s) + off[meets] + 1e-9 * scale
    good = proper[meets]
    # nearest first, one at a time, then more at once as the kept ones grow (keeping more planes than needed only
    # makes the polytope smaller);
    # the triangles without a plane last, never used to hide others
    order = np.concatenate([np.flatnonzero(good)[np.argsort(np.abs(s[good]), kind="stable")],
                            np.flatnonzero(~good)])
    kept, count = [], 0
    while order.size:
        batch = max(1, count // PRUNE_GROWTH)
        take, order = order[:batch], order[batch:]
        count += take.size
        kept.append(take)
        take = take[good[take]]
        if take.size and order.size:
            # (m, 3 corners, t planes): every corner of the triangle past one of the new planes
            past = np.einsum("mcj,tj->mct", corners[order], nn[take]) > beyond[take][None, None, :]
            order = order[~np.any(np.all(past, axis=1), axis=1)]
    k = meets[np.concatenate(kept)] if kept else meets
    return lo[k], hi[k], n[k], corner[k], proper[k], off[k]


def _medial_balls(side, points, scale, allowance, steps=BALL_STEPS):
    """Balls inside the closed mesh of `side` about `medial_points`, radius the distance less `allowance`, none
    held in another (`_outermost`).  Returns (centres, radii)."""
    p, d = medial_points(side, points, scale, steps)
    radii = d - allowance
    keep = radii > allowance
    return _outermost(p[keep], radii[keep])


def medial_points(side, points, scale, steps):
    """Points deep inside the closed mesh of `side`: those of `points` inside it (winding numbers), each moved away
    from its nearest surface point while that grows the distance (each step shorter than the distance, so the
    point stays inside).  Returns (points, their distances to the surface)."""
    p = points[winding_numbers(points, side.world, scale) != 0]
    if p.shape[0] == 0:
        return np.empty((0, 3)), np.empty(0)
    d, q = closest_points(p, side.world)
    step = 0.5 * d
    for _ in range(steps):
        g = p - q
        norm = np.sqrt(row_dot(g, g))
        size = np.where(norm > 0.0, np.minimum(step, 0.9 * d), 0.0)
        trial = p + g / np.where(norm > 0.0, norm, 1.0)[:, None] * size[:, None]
        td, tq = closest_points(trial, side.world)
        better = td > d
        p = np.where(better[:, None], trial, p)
        q = np.where(better[:, None], tq, q)
        d = np.where(better, td, d)
        step = np.where(better, step * 1.5, step * 0.3)
    return p, d


def _outermost(centres, radii):
    """The balls that lie in no other kept ball (a difference with a ball inside another is inside that one's):
    largest first, each kept unless a kept one holds it."""
    order = np.argsort(-radii, kind="stable")
    centres, radii = centres[order], radii[order]
    kept = []
    for i in range(radii.shape[0]):
        if kept:
            k = np.array(kept)
            gap = np.sqrt(row_dot(centres[k] - centres[i], centres[k] - centres[i]))
            if np.any(gap + radii[i] <= radii[k]):
                continue
        kept.append(i)
    k = np.array(kept, dtype=int)
    return centres[k], radii[k]


def _spread_from(seeds: np.ndarray, centres: np.ndarray, first=None) -> np.ndarray:
    """`centres` in the order the pieces are grown: the ones nearest to the points `first` (where the upper end's
    move leaves the solids touching), or else the one nearest to a seed (a point inside both solids), then each
    time the one farthest from those taken (the centres lie in the overlap's box grown by the upper end, so the
    pieces reach every part of it before they crowd one)."""
    if centres.shape[0] == 0 or seeds.shape[0] == 0:
        return centres

    def nearest(points):
        d = row_dot(points, points)[:, None] + row_dot(centres, centres)[None, :] - 2.0 * points @ centres.T
        return np.argmin(d, axis=1)

    if first is not None and first.shape[0]:
        taken = list(dict.fromkeys(int(k) for k in nearest(first)))
    else:
        taken = [int(np.argmin(np.min(np.maximum(row_dot(seeds, seeds)[:, None] + row_dot(centres, centres)[None, :]
                                                 - 2.0 * seeds @ centres.T, 0.0), axis=0)))]
    return centres[_farthest_order(centres, taken)]


def _contacts(sa, sb, move, most: int = CONTACTS):
    """Where B moved by `move` (the upper end's move: it leaves the solids touching) comes nearest to A: up to
    `most` spread points among the vertices of either mesh that lie nearest to the other (within TOUCH of the move's
    length of the nearest), in A's place (B's are these less the move)."""
    vb = sb.vertices[sb.local.used] + move
    va = sa.vertices[sa.local.used]
    db, _ = closest_points(vb, sa.world)
    da, _ = closest_points(va - move, sb.world)
    points = np.concatenate([vb, va])
    d = np.concatenate([db, da])
    close = points[d <= d.min() + TOUCH * float(np.linalg.norm(move))]
    return close[np.sort(_farthest_order(close, most=most))] if close.shape[0] else close


def _farthest_order(points: np.ndarray, taken=(0,), most: int | None = None) -> np.ndarray:
    """Indices of `points` in a spread order: those `taken` first, then each time the one farthest from those taken
    (while any is apart from them), at most `most`."""
    taken = list(taken)
    most = points.shape[0] if most is None else min(most, points.shape[0])
    gap = np.min([np.sqrt(row_dot(points - points[k], points - points[k])) for k in taken], axis=0)
    while len(taken) < most:
        j = int(np.argmax(gap))
        if not gap[j] > 0.0:
            break
        taken.append(j)
        gap = np.minimum(gap, np.sqrt(row_dot(points - points[j], points - points[j])))
    return np.array(taken[:most])


def _spread(points: np.ndarray) -> np.ndarray:
    """Up to MAX_CENTRES of `points` spread over them: the first, then each time the one farthest from those
    taken (so every part of the overlap that the points reach gets a centre)."""
    return points[_farthest_order(points, most=MAX_CENTRES)]
