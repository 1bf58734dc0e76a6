"""Where one triangle mesh crosses itself: `self_intersections(mesh)` and `self_crossings(mesh)`.

The rule, per pair of triangles of the same mesh (corners compared after welding exactly equal positions, as
everywhere in core/mesh/; triangles with a repeated welded corner are degenerate and never cross):

- **no shared corner**: the pair crosses exactly when the pair check says two triangles of different meshes cross
  (`tritri.crossing_indexed` with the touching band, 1e-9 x the mesh's world box diagonal), and, as in the pair
  check, if no crossing of the whole mesh is deeper than the band (`_beyond_band`: a segment longer than the band,
  each triangle reaching more than the band past the other's plane on both sides), they are all contacts blurred
  by rounding and none is reported;
- **one shared corner**: the two always meet at that corner; they count only when they cross beyond it by more
  than the band (`tritri` finds the segment starting at the shared corner; `_beyond_band` must hold for the pair
  itself), e.g. a fan whose triangle pierces a neighbour of its neighbour;
- **a shared edge**: two triangles that are not coplanar meet only along their common edge (the line where their
  planes meet holds the edge, and a triangle meets a line through two of its corners only along that edge), so
  they never cross.  They count only when one is folded back flat onto the other: coplanar within the band, their
  third corners on the same side of the edge, each more than the band away from it (the faces then overlap beyond
  the edge).  The reported segment is the shared edge, the crease where the surface doubles back;
- **three shared corners** (a duplicated face, either orientation): the two triangles are the same set of points;
  nothing lies beyond what they share, so they do not count (a coplanar overlap, which the pair check calls a
  touching contact, never a crossing).

Candidate pairs come from the mesh's own hierarchy (core/mesh/bvh.py) descended against itself level by level,
keeping node pairs whose world boxes lie within the band (a node paired with itself splits into its children's
three pairs).  Everything is computed in a frame centred on the mesh's world box, so a mesh far from the origin
is measured as precisely as one at it; the segments are returned in world coordinates.
"""
from __future__ import annotations

import math

import numpy as np

from ..tolerances import DEFAULT_TOLERANCES, Tolerances
from .bvh import WorldBVH
from .self_descent import self_leaf_pairs
from .trimesh import TriangleMesh
from .tritri import crossing_indexed

__all__ = ["self_intersections", "self_crossings"]


def self_intersections(mesh: TriangleMesh, tolerances: Tolerances = DEFAULT_TOLERANCES) -> np.ndarray:
    """(k, 2, 3) float64 world segments where the surface of `mesh` crosses itself (see the module docstring for
    which triangle pairs count); empty for a clean mesh, an open one included.  ValueError on bad input (not a
    TriangleMesh; an empty mesh or NaN coordinates are refused when the TriangleMesh is built)."""
    return self_crossings(mesh, tolerances)[1]


def self_crossings(mesh: TriangleMesh, tolerances: Tolerances = DEFAULT_TOLERANCES):
    """The triangle pairs of `mesh` that cross (module docstring) and their segments: (pairs (k, 2) int64 of
    triangle indices into `mesh.triangles`, each row (i, j) with i < j, sorted; segments (k, 2, 3) world
    float64, row r belonging to pair r)."""
    if not isinstance(mesh, TriangleMesh):
        raise ValueError(f"mesh is a {type(mesh).__name__}, expected a core.TriangleMesh")
    if not isinstance(tolerances, Tolerances):
        raise ValueError(f"tolerances must be a core.Tolerances, got {type(tolerances).__name__}")
    none = np.zeros((0, 2), np.int64), np.zeros((0, 2, 3))
    lo, hi = mesh.bounds()
    with np.errstate(over="ignore", invalid="ignore"):
        scale = float(np.linalg.norm(hi - lo))
    if not math.isfinite(scale):
        raise ValueError("the mesh is too large to measure in float64 (its extent overflows)")
    if mesh.triangles.shape[0] < 2:
        return none
    origin = 0.5 * (lo + hi)
    band = tolerances.touching * scale
    local = mesh._local
    world = WorldBVH(local.bvh, mesh.world_vertices(origin), mesh._linear, mesh._translation - origin)
    ia, ib = self_leaf_pairs(world, band)
    order = local.bvh.order  # leaf i holds triangle order[i]
    proper = local.proper[order]
    keep = proper[ia] & proper[ib]
    ia, ib = ia[keep], ib[keep]
    # welded corners as columns; own_a[c]: corner c of the first triangle is a corner of the second
    welded = local.welded[order]
    wa = [welded[:, c][ia] for c in range(3)]
    wb = [welded[:, c][ib] for c in range(3)]
    own_a = [(w == wb[0]) | (w == wb[1]) | (w == wb[2]) for w in wa]
    own_b = [(w == wa[0]) | (w == wa[1]) | (w == wa[2]) for w in wb]
    shared = own_a[0].astype(np.int8) + own_a[1] + own_a[2]

    planes = world.planes
    corners = world.leaf_corners
    found_i, found_j, found_seg = [], [], []
    # no shared corner, then one shared corner: the pair check's crossing test
    deep_any = False
    for share in (0, 1):
        rows = np.flatnonzero(shared == share)
        if share == 1:
            # neighbours around a corner (most leaf pairs of a fine mesh) cross beyond it only if the two other
            # corners of each lie on opposite sides of the other's plane, by more than the band
            rows = rows[_opposite_sides(planes, ia[rows], ib[rows], [o[rows] for o in own_a],
                                        [o[rows] for o in own_b], band)]
        mask, segments = crossing_indexed(planes, planes, ia[rows], ib[rows], band)
        rows = rows[mask]
        deep = _beyond_band(np.take(corners, ia[rows], axis=0), np.take(corners, ib[rows], axis=0), segments, band)
        if share == 1:
            rows, segments, deep = rows[deep], segments[deep], deep[deep]
        deep_any |= bool(np.any(deep))
        found_i.append(ia[rows])
        found_j.append(ib[rows])
        found_seg.append(segments)
    if not deep_any:
        # every crossing is a contact blurred by rounding (the pair check's rule)
        found_i, found_j, found_seg = [], [], []
    # a shared edge: a face folded back flat onto its neighbour (first the pairs whose third corners lie within
    # the band of the other's plane: few on any real mesh)
    rows = np.flatnonzero(shared == 2)
    ha = _corner_heights(planes, ia[rows], ib[rows])
    hb = _corner_heights(planes, ib[rows], ia[rows])
    lone_a = sum(np.where(own_a[c][rows], 0.0, np.abs(ha[c])) for c in range(3))
    lone_b = sum(np.where(own_b[c][rows], 0.0, np.abs(hb[c])) for c in range(3))
    rows = rows[(lone_a <= band) & (lone_b <= band)]
    fold, crease = _folded_back(corners[ia[rows]], corners[ib[rows]], welded[ia[rows]], welded[ib[rows]], band)
    found_i.append(ia[rows[fold]])
    found_j.append(ib[rows[fold]])
    found_seg.append(crease)
    ti, tj = order[np.concatenate(found_i)], order[np.concatenate(found_j)]
    segments = np.concatenate(found_seg) + origin
    pairs = np.stack([np.minimum(ti, tj), np.maximum(ti, tj)], axis=1)
    sort = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return pairs[sort], segments[sort]


def _heights(P, Q):
    """Signed distances (k, 3) of the corners of triangles P (k, 3, 3) to the planes of triangles Q (unit
    normals; 0 for a plane without a normal)."""
    n = np.cross(Q[:, 1] - Q[:, 0], Q[:, 2] - Q[:, 0])
    size = np.sqrt((n * n).sum(axis=1))
    n = n / np.where(size > 0.0, size, 1.0)[:, None]
    return ((P - Q[:, None, 0]) * n[:, None, :]).sum(axis=2)


def _corner_heights(planes, p, q):
    """Signed distances (three (k,) arrays) of the corners of leaves p to the planes of leaves q (`tritri.Planes`
    columns: unit normals, 0 for a triangle without a normal)."""
    base = [planes.corner[0][x][q] for x in range(3)]
    normal = [planes.normal[x][q] for x in range(3)]
    return [sum((planes.corner[c][x][p] - base[x]) * normal[x] for x in range(3)) for c in range(3)]


def _opposite_sides(planes, p, q, own_p, own_q, band) -> np.ndarray:
    """(k,) bool for leaves p, q sharing one corner (own_p[c]: corner c of p is the shared one, own_q likewise):
    the two other corners of each lie more than the band on opposite sides of the other's plane.  Their crossing
    can leave the shared corner only then (the other plane meets a triangle beyond one of its corners only between
    its two other corners), and `_beyond_band` asks at least as much."""
    ok = np.ones(p.shape[0], bool)
    for x, y, own in ((p, q, own_p), (q, p, own_q)):
        h = [np.where(o, 0.0, hc) for o, hc in zip(own, _corner_heights(planes, x, y))]
        ok &= (np.maximum(np.maximum(h[0], h[1]), h[2]) > band) & (np.minimum(np.minimum(h[0], h[1]), h[2]) < -band)
    return ok


def _beyond_band(X, Y, segments, band) -> np.ndarray:
    """(k,) bool: crossing triangle pairs X, Y (k, 3, 3) with segments (k, 2, 3) cross by more than the band:
    the segment is longer than the band and each triangle reaches more than the band past the other's plane on
    both sides (else moving one by at most the band along the other's normal would part them)."""
    length = np.sqrt(((segments[:, 1] - segments[:, 0]) ** 2).sum(axis=1))
    deep = length > band
    for P, Q in ((X, Y), (Y, X)):
        h = _heights(P, Q)
        deep &= np.minimum(h.max(axis=1), -h.min(axis=1)) > band
    return deep


def _folded_back(X, Y, wx, wy, band):
    """Triangles X, Y (k, 3, 3) sharing an edge (welded corners wx, wy (k, 3)): which are folded back flat onto
    each other (module docstring), and the shared edge of those (j, 2, 3)."""
    k = X.shape[0]
    if k == 0:
        return np.zeros(0, bool), np.zeros((0, 2, 3))
    rows = np.arange(k)
    # the corner of each triangle that is not shared
    lone_x = np.argmax(~(wx[:, :, None] == wy[:, None, :]).any(axis=2), axis=1)
    lone_y = np.argmax(~(wy[:, :, None] == wx[:, None, :]).any(axis=2), axis=1)
    u = X[rows, (lone_x + 1) % 3]
    v = X[rows, (lone_x + 2) % 3]
    cx, cy = X[rows, lone_x], Y[rows, lone_y]
    flat = (np.abs(_heights(Y, X)[rows, lone_y]) <= band) & (np.abs(_heights(X, Y)[rows, lone_x]) <= band)
    e = v - u
    ee = (e * e).sum(axis=1)
    e = e / np.sqrt(np.where(ee > 0.0, ee, 1.0))[:, None]
    px = (cx - u) - ((cx - u) * e).sum(axis=1)[:, None] * e
    py = (cy - u) - ((cy - u) * e).sum(axis=1)[:, None] * e
    away = (np.sqrt((px * px).sum(axis=1)) > band) & (np.sqrt((py * py).sum(axis=1)) > band)
    fold = flat & away & ((px * py).sum(axis=1) > 0.0)
    return fold, np.stack([u[fold], v[fold]], axis=1)
