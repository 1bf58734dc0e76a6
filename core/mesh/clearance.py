"""The clearance between the loose parts of one mesh (print-in-place models): `part_clearance(mesh, clearance)`.

A print-in-place model (a hinge's knuckles and pin, a ball in its socket, chain links printed linked) is one mesh
whose loose parts must stay at least the printer's gap apart.  Each pair of loose parts (numbered as
`core.mesh.loose_parts` orders them) whose world boxes come within `clearance` is asked the pair question
(`core.collide` on the two parts as meshes, stopping early once they are proven farther than `clearance`), so
every number below means exactly what it means for two objects (core/mesh/__init__.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..broadphase import candidate_pairs
from ..contact import Status
from ..tolerances import DEFAULT_TOLERANCES, Tolerances
from .bvh import WorldBVH
from .self_descent import self_leaf_pairs
from .parts import loose_parts
from .points import winding_numbers
from .query import collide_meshes
from .trimesh import TriangleMesh
from .tritri import separation_bound, triangle_triangle

__all__ = ["PartGap", "part_clearance", "part_clearance_steps"]

PRUNE = 1e-12
"""Leaf pairs whose lower bound is within PRUNE x the mesh's size of a part pair's best distance cannot improve
it by more than that and get no exact distance (the pair query's rule, core/mesh/query.py)."""


@dataclass(frozen=True)
class PartGap:
    """Two loose parts of one mesh closer than the clearance, or crossing.

    part_a < part_b: indices into `core.mesh.loose_parts(mesh)`.
    distance: signed, world units, as `core.collide` answers for the two parts: > 0 the exact distance between
      their surfaces (to 1e-9 x the pair's scale); within the touching band they touch; < 0 when closed parts cross
      or one lies inside the other (-distance is the depth, a lower bound as for any two meshes; an open part
      crossing a closed one gets the depth of its points inside it); 0 when two open parts cross (their overlap
      has no volume).
    point_a, point_b: world (3,) float64; on part_a's and part_b's surface.  Separated or touching: the closest
      points (point_b - point_a = distance x normal).  Intersecting: the witness points of the depth
      (point_a - point_b = depth x normal), or a point of the crossing curve (both the same) when the depth is 0.
    status: `core.Status` of the pair (INTERSECTING, TOUCHING or SEPARATED).
    """

    part_a: int
    part_b: int
    distance: float
    point_a: np.ndarray
    point_b: np.ndarray
    status: Status


def part_clearance(mesh: TriangleMesh, clearance: float,
                   tolerances: Tolerances = DEFAULT_TOLERANCES) -> list[PartGap]:
    """Every pair of loose parts of `mesh` that intersect, touch, or are separated by no more than `clearance`
    (world units, >= 0; the scene check's rule), worst first: by distance (most negative first), then by
    (part_a, part_b).  Pairs farther apart are not listed; a mesh of one part has none.

    ValueError on bad input: not a TriangleMesh, a clearance that is negative, NaN, infinite or not a number (an
    empty mesh or NaN coordinates are refused when the TriangleMesh is built)."""
    steps = part_clearance_steps(mesh, clearance, tolerances)
    while True:
        try:
            next(steps)
        except StopIteration as finished:
            return finished.value


def part_clearance_steps(mesh: TriangleMesh, clearance: float, tolerances: Tolerances = DEFAULT_TOLERANCES):
    """`part_clearance` in steps, for a caller that shows progress and may stop between them (Check Object's
    modal run): a generator that yields the share of the work done (0 to 1, a float) before each pair question
    (the pair query on two parts that touch, cross or may nest; the searches before them are one step) and
    returns `part_clearance`'s list as its StopIteration value.  Raises as `part_clearance` does, at its first
    step."""
    if not isinstance(mesh, TriangleMesh):
        raise ValueError(f"mesh is a {type(mesh).__name__}, expected a core.TriangleMesh")
    if isinstance(clearance, bool) or not isinstance(clearance, (int, float, np.integer, np.floating)):
        raise ValueError(f"clearance must be a number (world units), got {type(clearance).__name__}")
    clearance = float(clearance)
    if not (math.isfinite(clearance) and clearance >= 0.0):
        raise ValueError(f"clearance must be finite and >= 0 (world units), got {clearance!r}")
    if not isinstance(tolerances, Tolerances):
        raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
    lo, hi = mesh.bounds()
    with np.errstate(over="ignore", invalid="ignore"):
        extent = float(np.linalg.norm(hi - lo))
    if not math.isfinite(extent):
        raise ValueError("the mesh is too large to measure in float64 (its extent overflows)")
    local = mesh._local
    label, count = _part_of_triangle(local)
    if count < 2:
        return []
    origin = 0.5 * (lo + hi)
    world = WorldBVH(local.bvh, mesh.world_vertices(origin), mesh._linear, mesh._translation - origin)
    order = local.bvh.order
    corners = world.leaf_corners
    leaf_label = label[order]
    # each part's world box (pair frame) and its touching band
    part_lo = np.full((count, 3), np.inf)
    part_hi = np.full((count, 3), -np.inf)
    np.minimum.at(part_lo, leaf_label, corners.min(axis=1))
    np.maximum.at(part_hi, leaf_label, corners.max(axis=1))
    diagonal = np.sqrt(((part_hi - part_lo) ** 2).sum(axis=1))

    def touching(a, b) -> float:
        """The pair's touching band."""
        return tolerances.touching * max(diagonal[a], diagonal[b])

    # First the pairs of parts within their touching band (they cross, touch or nest: the pair question decides);
    # any pair's band is at most the band of the whole mesh.
    ia, ib = self_leaf_pairs(world, tolerances.touching * extent, leaf_label, closest=True)
    near = _closest_per_part_pair(corners, ia, ib, leaf_label, count, PRUNE * extent)
    full = {(a, b) for (a, b), (d, _, _) in near.items() if d <= touching(a, b)}
    # Then the pairs within the clearance, parts joined by those contacts grouped: where two crossing parts
    # interleave, every node of the hierarchy holds both and the search could not prune a pair of them (two
    # crossing spheres at a clearance as large as their radius: all the triangles of the two caps paired).
    # The pairs within a group that do not touch go to the pair question too (usually none or a few).
    group = _groups(count, full)
    reach = clearance + tolerances.touching * extent
    ia, ib = self_leaf_pairs(world, reach, leaf_label, closest=True, groups=group[leaf_label])
    best = _closest_per_part_pair(corners, ia, ib, leaf_label, count, PRUNE * extent)

    found = {}
    for (a, b), (d, pa, pb) in best.items():
        if d <= touching(a, b):
            full.add((a, b))
        elif d <= clearance:
            found[(a, b)] = PartGap(a, b, d, pa + origin, pb + origin, Status.SEPARATED)
    # a part whose box lies in another's may be inside that part's solid without coming near its surface (or
    # farther than the clearance from it): one of its corners decides (all its points are off the other surface)
    close = [(int(a), int(b)) for a, b in candidate_pairs(part_lo, part_hi, reach)]
    full |= {(a, b) for a, b in close if group[a] == group[b]}
    nests = [(inner, outer) for a, b in close if (a, b) not in full for inner, outer in ((a, b), (b, a))
             if np.all(part_lo[inner] >= part_lo[outer]) and np.all(part_hi[inner] <= part_hi[outer])]
    # each part needed below built once, only those
    needed = sorted({k for pair in full for k in pair} | {k for pair in nests for k in pair})
    parts = dict(zip(needed, loose_parts(mesh, needed)))
    for inner, outer in nests:
        pair = (min(inner, outer), max(inner, outer))
        if pair not in full and parts[outer].is_closed and _inside(parts[inner], parts[outer], origin):
            found.pop(pair, None)
            full.add(pair)
    for k, (a, b) in enumerate(sorted(full)):
        yield k / len(full)
        c = collide_meshes(parts[a], parts[b], tolerances, clearance)
        if c.status is Status.SEPARATED and (c.beyond_max_distance or c.distance > clearance):
            continue
        found[(a, b)] = PartGap(a, b, float(c.distance), np.asarray(c.point_a, np.float64),
                                np.asarray(c.point_b, np.float64), c.status)
    return sorted(found.values(), key=lambda g: (g.distance, g.part_a, g.part_b))


def _inside(inner: TriangleMesh, outer: TriangleMesh, origin) -> bool:
    """A corner of `inner` lies inside closed `outer` (non-zero winding number; frame centred on `origin`)."""
    lo, hi = outer.bounds()
    world = WorldBVH(outer._local.bvh, outer.world_vertices(origin), outer._linear, outer._translation - origin)
    corner = inner.world_vertices(origin)[inner.triangles[:1, 0]]
    return bool(winding_numbers(corner, world, float(np.linalg.norm(hi - lo)))[0] != 0)


def _groups(count, pairs) -> np.ndarray:
    """(count,) int64: the connected component of every part in the graph of `pairs` (a component's number is
    its smallest part)."""
    group = np.arange(count)
    for a, b in sorted(pairs):
        ra, rb = a, b
        while group[ra] != ra:
            ra = group[ra]
        while group[rb] != rb:
            rb = group[rb]
        group[max(ra, rb)] = min(ra, rb)
    for k in range(count):  # parts in increasing order: each root is final before its members
        group[k] = group[group[k]]
    return group


def _part_of_triangle(local):
    """(label (m,), count): each triangle's loose part, numbered as `loose_parts` orders them (by first
    triangle)."""
    parts = local.parts
    m = parts.label.shape[0]
    first = np.full(parts.count, m, np.int64)
    np.minimum.at(first, parts.label, np.arange(m))
    rank = np.empty(parts.count, np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(parts.count)
    return rank[parts.label], parts.count


def _closest_per_part_pair(corners, ia, ib, leaf_label, count, prune, chunk=1 << 16):
    """{(a, b): (distance, point on a, point on b)}: the exact smallest distance over the leaf pairs (ia, ib) for
    each pair of part labels a < b, with its closest points (frame of `corners`).

    Screened as the pair query does: a cheap separating-axis lower bound (`tritri.separation_bound`) for every leaf
    pair; the exact distance of each label pair's most promising leaf pair gives an upper bound; only the leaf
    pairs whose lower bound is below it minus `prune` (world units: ties closer than that cannot change the
    answer by more) get the exact kernel."""
    la, lb = leaf_label[ia], leaf_label[ib]
    swap = la > lb  # each pair's first leaf on the part of the lower label
    ia, ib = np.where(swap, ib, ia), np.where(swap, ia, ib)
    key = np.minimum(la, lb) * count + np.maximum(la, lb)
    k = ia.shape[0]
    if k == 0:
        return {}
    lower = np.empty(k)
    for start in range(0, k, chunk):
        sl = slice(start, start + chunk)
        lower[sl] = separation_bound(np.take(corners, ia[sl], axis=0), np.take(corners, ib[sl], axis=0))

    def exact(rows):
        out = [triangle_triangle(np.take(corners, ia[rows[s:s + chunk]], axis=0),
                                 np.take(corners, ib[rows[s:s + chunk]], axis=0)) for s in range(0, rows.size, chunk)]
        return (np.concatenate([o[0] for o in out]), np.concatenate([o[1] for o in out]),
                np.concatenate([o[2] for o in out]))

    def first_of_each(rows, values):
        order = rows[np.lexsort((values, key[rows]))]
        return order[np.concatenate([[True], key[order][1:] != key[order][:-1]])]

    seeds = first_of_each(np.arange(k), lower)
    upper = exact(seeds)[0]
    keys = key[seeds]  # sorted
    bound = upper[np.searchsorted(keys, key)]
    take = lower <= bound - prune
    take[seeds] = True
    rows = np.flatnonzero(take)
    d, xa, xb = exact(rows)
    order = np.lexsort((d, key[rows]))
    sk = key[rows][order]
    win = order[np.concatenate([[True], sk[1:] != sk[:-1]])]
    return {(int(key[rows[n]] // count), int(key[rows[n]] % count)): (float(d[n]), xa[n], xb[n]) for n in win}
