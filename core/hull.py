"""A convex hull of a 3-D point cloud in numpy: quickhull in vectorised rounds.

Why: two raw vertex arrays of a high-poly convex shape duplicated in place make EPA add about one vertex of their
Minkowski difference per expansion; with the two hulls' triangulations core/facet_depth.py answers exactly from
their facet normals instead.  The core has no other hull (numpy only), and a classic quickhull adds
one point per step in a Python loop (~0.1 ms each: a second for 10,000 points on a sphere).  Here every step is a
round over many points at once:

- start from a hull of extreme points: a tetrahedron, or for a cloud of more than `_SEED_ABOVE` points the hull
  of its extreme points along 162 spread directions.  That hull is usually had without rounds: the directions'
  own hull triangulation (an Ico Sphere's, else a Fibonacci lattice's) is carried over to their extreme points,
  folded edges are flipped, and the result is kept only if every other extreme point lies strictly below each
  face (`_mapped_seed`); else it is built in rounds like this one.  Every other point belongs to the outside set
  of one face it lies above (by more than `eps`), or is dropped as inside;
- each round, every face with a non-empty outside set proposes its farthest point; proposals on neighbouring
  faces that see each other's face are thinned out greedily (`_apart`); the faces each remaining proposal sees
  (its visible region) are found together, by a breadth-first search over face neighbours, all proposals in
  lock-step, each face claimed by one proposal (`_claimed_regions`): where two regions meet on a face the lower
  proposal (by height) drops out at once, so the regions left are disjoint;
- the proposals left are inserted in the same round, but for those whose region shares an edge with a higher
  one's where the two new faces on it would meet concavely (`_shared_edges_convex`, settled greedily by height
  in `_convex_neighbours`).  The farthest proposal of a round always goes in, so every round makes progress.
  Such insertions are independent: each removes its region and fans its point to the region's border (the
  horizon), and the result is what inserting them one after another would give, since none of the points sees
  a face another insertion makes (the only new faces next to a region are those on the edges it shares);
- the points of the removed faces' outside sets go to the highest new face of the same insertion if they lie
  above it (Barber, Dobkin and Huhdanpaa 1996: a point outside the new hull lies above one of them), or are
  dropped (`_highest_in_fans`).

About 20 rounds for 10,000-20,000 points on a sphere (each inserts about 40-60 % of the proposals whose regions
it searches), 1-1.5x the time of qhull in C on round clouds of 8,000-20,000 points (docs/decisions.md).
numpy (1.26) gathers rows of a 2-D array by fancy indexing several times slower than 1-D arrays,
np.where / np.choose cost several times more than arithmetic, and a boolean mask that keeps about half of an
array selects 2-3x slower than the index array np.flatnonzero makes of it: the hot paths gather coordinates one
at a time (`_Faces.heights`, `_planes`), rows as single 24-byte items (`_rows`), (k, 3) arrays by flat indices
(`_rows_slots`), and filter by index arrays.  Per-face bookkeeping uses scratch arrays kept between steps
(`_Faces.scratch`) rather than sorting (candidate, face) keys.

Near-coplanar points are judged with the tolerance `eps` (heights up to it count as "on the plane"), so the hull
may leave out points within `eps` of its faces (coplanar grid points on a cube's face: the face stays two
triangles).  When rounding makes a visible region something other than a disc (its horizon is not one simple
loop), or the input is flat or has fewer than four points, `convex_hull` declines (returns None): the caller
then answers without a hull.  Rounding can also leave an edge reflex by some times eps (slivers among
near-coplanar points), and rounds started on such a seed can fold the surface (a Minkowski difference of two
small polytopes): so a seed built in rounds must be convex within eps, and the result is checked (`_sound`:
closed, convex at every edge to `_SOUND_SLACK` x eps, and for small clouds holding every point), else built
once more from a tetrahedron and checked.  Points within one to a few hundred eps of each other's planes (a
near-coplanar Minkowski difference whose vertices were moved by 1e-13 to 1e-11) defeat both builds alike: their
thick-plane decisions leave edges reflex by up to a few hundred eps, points that far above faces, or a fold.  Such a
result is mended (`_repaired`, for clouds up to `_FULL_CHECK_PAIRS` point-face pairs): reflex edges flipped to the
hull of their four points (`_flip_reflex`), then the point highest above a face inserted alone, until every point
is within `_SOUND_SLACK` x eps; from a tetrahedron when the result is too flat to mend; checked in full again,
else declined.  Points near a line (a rotated grid jittered by 1e-11 to 1e-9 x size, a subdivided cube rounded to
float32) defeat even that: the exact hull has sliver faces along the grid's edges (three nearly collinear points)
whose computed planes tilt by about 2^-52 x size over their width, leaving points thousands of eps above them,
however the surface is built or mended.  Such a cloud is built once more at ten, then a hundred times eps
(`_EPS_GROWTH`: those points then count as on the planes) and checked the same way to 100 times that.  The callers
check the result before use (core/triangulation.py: `Triangulation` and `_holds`), so an imperfect hull costs
time, never a wrong answer.
"""
from __future__ import annotations

import numpy as np

from .rows import fibonacci_directions
from .sphere_cells import icosphere

__all__ = ["convex_hull"]

# Heights above a face plane up to this times the cloud's size (plus rounding of its coordinates) count as on the
# plane: such points are not added.  Far below the 1e-9 x size within which core/triangulation.py accepts a hull.
_RELATIVE_EPS = 1e-12
# The tolerances tried in turn (times eps) when no sound hull is had: points within a few hundred eps of each other's
# planes (a rotated grid jittered by 1e-11 to 1e-9 x size, a subdivided cube rounded to float32) make sliver faces
# of the exact hull, whose computed planes tilt by about 2^-52 x size over their width (2e-7 rad for a width of
# 1e-9 x size): builds and mends at eps leave points thousands of eps above them, but at ten or a hundred times eps
# the near-coplanar points count as on the planes and the slivers are not made.
_EPS_GROWTH = (1.0, 10.0, 100.0)
# Clouds of more than this many points start from the hull of their extreme points along 162 spread directions
# (`_direction_meshes`, `_mapped_seed`; or built in rounds).
_SEED_ABOVE = 256
# Rounds of edge flips `_mapped_seed` may make to turn the directions' triangulation into the extreme points' hull.
_SEED_FLIPS = 16
# Rounds before giving up (each inserts at least one point; in practice a few dozen suffice for 10^4 points).
_MAX_ROUNDS = 100_000


class _Faces:
    """Growable face arrays: corners (CCW seen from outside), neighbours (across edge k: corners k, k+1), the
    slot of each neighbour's edge back to the face (`back`: nb[nb[f, k], back[f, k]] == f), planes (rows: the unit
    normal's x, y, z and the plane offset), alive, and the farthest point of each face's outside set (-1: none).

    Per-face values are gathered one coordinate at a time (1-D arrays, `heights`) and rows of the integer arrays
    with `_rows`: numpy gathers rows of a 2-D array by fancy indexing several times slower.  Per-face scratch
    arrays (`scratch`) are kept from step to step and handed back as found (all -1; made anew only when the faces
    outgrow them): filling a new array the size of all faces ever made, in every step of every round, cost more
    than the steps' own work on the few faces they touch."""

    def __init__(self, capacity: int):
        self.tri = np.empty((capacity, 3), np.int64)
        self.nb = np.empty((capacity, 3), np.int64)
        self.back = np.empty((capacity, 3), np.int64)
        self.plane = np.empty((4, capacity))
        self.alive = np.zeros(capacity, bool)
        self.far = np.full(capacity, -1, np.int64)
        self.count = 0
        self._scratch: dict = {}

    def start(self, tri: np.ndarray, nb: np.ndarray, back: np.ndarray, plane: np.ndarray) -> None:
        """The first faces: corners, neighbours, back slots and planes."""
        k = tri.shape[0]
        self.tri[:k], self.nb[:k], self.back[:k], self.plane[:, :k] = tri, nb, back, plane
        self.alive[:k] = True
        self.count = k

    def scratch(self, name: str, per_face: int = 1, fill=-1) -> np.ndarray:
        """A scratch array of at least per_face entries per face made so far (and one more: index -1 reads
        `fill` too), every entry `fill`; made anew, twice as large, when the faces outgrow it.  The caller sets
        back every entry it wrote before the next use of the name."""
        need = per_face * self.count + 1
        a = self._scratch.get(name)
        if a is None or a.size < need:
            size = per_face * max(2 * self.count, 64) + 1
            a = np.full(size, fill, np.int64 if isinstance(fill, int) else np.float64)
            self._scratch[name] = a
        return a

    def reserve(self, extra: int) -> None:
        need = self.count + extra
        if need <= self.tri.shape[0]:
            return
        size = max(need, 2 * self.tri.shape[0])
        c = self.count
        for name in ("tri", "nb", "back", "alive", "far"):
            old = getattr(self, name)
            new = np.full((size,) + old.shape[1:], -1 if name == "far" else 0, old.dtype)
            new[:c] = old[:c]
            setattr(self, name, new)
        plane = np.zeros((4, size))
        plane[:, :c] = self.plane[:, :c]
        self.plane = plane

    def heights(self, f: np.ndarray, P: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Heights of the points q (columns of P, (3, n)) above the planes of the faces f, pairwise."""
        x, y, z, off = self.plane
        return x[f] * P[0][q] + y[f] * P[1][q] + z[f] * P[2][q] - off[f]


def _planes(P: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Planes (4, k) of the triangles (a, b, c) (indices into the columns of P): unit normals (crossed at the
    corner facing the longest edge, the largest angle: well conditioned on slivers) and plane offsets; and
    whether each triangle has a nonzero cross product."""
    x, y, z = P
    ax, ay, az, bx, by, bz, cx, cy, cz = x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c]
    ab = (bx - ax, by - ay, bz - az)
    bc = (cx - bx, cy - by, cz - bz)
    ca = (ax - cx, ay - cy, az - cz)
    lab = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]
    lbc = bc[0] * bc[0] + bc[1] * bc[1] + bc[2] * bc[2]
    lca = ca[0] * ca[0] + ca[1] * ca[1] + ca[2] * ca[2]
    # (b - a) x (c - a) = ab x -ca (pivot a, facing bc); = bc x -ab (pivot b, facing ca); = ca x -bc (pivot c).
    # The pivot is picked by 0/1 weights (exact: the others are multiplied by zero): np.where and np.choose cost
    # several times more than arithmetic here.
    at_a = (lbc >= lab) & (lbc >= lca)
    at_b = ~at_a & (lca >= lab)
    wa, wb = at_a.astype(float), at_b.astype(float)
    wc = 1.0 - wa - wb
    ux, uy, uz = (wa * ab[i] + wb * bc[i] + wc * ca[i] for i in range(3))
    vx, vy, vz = (wa * ca[i] + wb * ab[i] + wc * bc[i] for i in range(3))
    out = np.empty((4, a.size))
    out[0] = vy * uz - vz * uy  # -(u x v)
    out[1] = vz * ux - vx * uz
    out[2] = vx * uy - vy * ux
    length = np.sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2])
    nonzero = length > 0.0
    out[:3] /= length + ~nonzero
    out[3] = (out[0] * (ax + bx + cx) + out[1] * (ay + by + cy) + out[2] * (az + bz + cz)) / 3.0
    return out, nonzero


def _tetrahedron(points: np.ndarray, eps: float):
    """Four extreme points spanning a solid, and whether the fourth lies above the plane of the first three; or
    None (the cloud is a point, a line or flat within eps)."""
    lo, hi = points.argmin(axis=0), points.argmax(axis=0)
    extremes = np.unique(np.concatenate([lo, hi]))
    e = points[extremes]
    d2 = ((e[:, None, :] - e[None, :, :]) ** 2).sum(axis=2)
    i, j = np.unravel_index(int(d2.argmax()), d2.shape)
    a, b = points[extremes[i]], points[extremes[j]]
    if d2[i, j] <= eps * eps:
        return None
    u = (b - a) / np.sqrt(d2[i, j])
    r = points - a
    off = r - np.outer(r @ u, u)
    off2 = np.einsum("ij,ij->i", off, off)
    k = int(off2.argmax())
    if off2[k] <= eps * eps:
        return None  # collinear within eps
    n = np.cross(b - a, points[k] - a)
    length = float(np.linalg.norm(n))
    if length == 0.0:
        return None
    n = n / length
    h = r @ n
    m = int(np.abs(h).argmax())
    if abs(h[m]) <= eps:
        return None
    corners = [int(extremes[i]), int(extremes[j]), k, m]
    if len(set(corners)) < 4:
        return None
    return corners, h[m] > 0.0


def convex_hull(points) -> tuple[np.ndarray, np.ndarray] | None:
    """The convex hull of an (n, 3) point array, or None when this construction declines (fewer than four
    points, a flat cloud, or rounding trouble; see the module docstring).

    Returns (vertices, triangles): the sorted indices of the points that are hull vertices, and (k, 3) indices
    into `points` of a closed triangulation of the hull's boundary, each triangle counter-clockwise seen from
    outside.  Points within the tolerance of a face may be left out (coplanar grid points on a flat facet).

    Tolerance: with eps = 1e-12 x the cloud's bounding-box diagonal + 32 x 2^-52 x its largest coordinate, every
    edge is convex and every point lies at most 100 eps (`_SOUND_SLACK`) above every face plane (checked for clouds
    up to 2^20 point-face pairs; above that, only that the surface is closed and convex at every edge); the volume
    is then within 100 eps x the area of the exact hull's.  A cloud no hull holds to that (points within a few
    hundred eps of each other's planes: a jittered grid, a mesh rounded to float32; `_EPS_GROWTH`) is built with
    10 eps, then 100 eps, in place of eps: its bound is then 1,000 or 10,000 eps (1e-9 or 1e-8 x the
    diagonal, plus the coordinates' rounding), checked the same way."""
    points = np.asarray(points, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 3:
        raise ValueError(f"points must have shape (n, 3), got {points.shape}")
    if not np.all(np.isfinite(points)):
        raise ValueError("points contain NaN or infinite coordinates")
    if points.shape[0] < 4:
        return None
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = 0.5 * (lo + hi)
    p = points - centre  # heights keep their precision far from the origin
    size = float(np.sqrt(((hi - lo) ** 2).sum()))
    eps = _RELATIVE_EPS * size + 32.0 * np.finfo(float).eps * float(np.abs(points).max())
    for grow in _EPS_GROWTH:
        triangles = _hull(p, grow * eps)
        if triangles is not None:
            break
    if triangles is None:
        return None
    used = np.zeros(points.shape[0], bool)
    used[triangles] = True
    return np.flatnonzero(used), triangles


def _hull(p: np.ndarray, eps: float) -> np.ndarray | None:
    """Outward triangles (indices into p, centred) of a hull of p that passes `_sound` to `_SOUND_SLACK` x eps, or
    None: built in rounds, else from a tetrahedron, else mended (see the module docstring)."""
    slack = _SOUND_SLACK * eps
    across: list = []
    triangles = _build(p, eps, neighbours=across)
    if triangles is not None and not _sound(p, triangles, slack, across[-1]):
        # rounds folded the surface (near-coplanar points, as in a Minkowski difference of boxes' grids): once
        # more from a tetrahedron, no seed, checked again; else decline
        partial: list = []
        first = triangles
        triangles = _build(p, eps, seeded=False, neighbours=across, partial=partial)
        if triangles is None or not _sound(p, triangles, slack, across[-1]):
            # near-coplanar points (a jittered Minkowski difference): both builds leave edges reflex by tens or
            # hundreds of eps, points that many eps above faces, or fold; mended from what they made
            start = triangles if triangles is not None else (partial[-1] if partial else first)
            triangles = None if start is None else _repaired(p, start, eps, slack)
            if triangles is None:  # a fold can leave a surface too flat to mend: from a tetrahedron, point by point
                corners = _tetrahedron(p, eps)
                if corners is not None:
                    (a, b, c, d), d_above = corners
                    if d_above:
                        b, c = c, b
                    tetra = np.array([[a, b, c], [a, d, b], [b, d, c], [c, d, a]])
                    triangles = _repaired(p, tetra, eps, slack, steps=p.shape[0])
    return triangles


_direction_mesh_cache: list = []


def _direction_meshes():
    """Spread unit directions with the triangles of their hull, to carry over (`_mapped_seed`), made once each
    when first needed: the 162 vertices of an Ico Sphere split twice (Ico Spheres of every size carry over
    exactly, being made the same way), then 162 Fibonacci directions (their hull built by `_build`; they carry
    over where the first do not, as on UV Spheres)."""
    for k in range(2):
        if len(_direction_mesh_cache) == k:
            if k == 0:
                _direction_mesh_cache.append(icosphere(2))
            else:
                d = fibonacci_directions(162)
                _direction_mesh_cache.append((d, _build(d, 1e-12)))
        yield _direction_mesh_cache[k]


def _mapped_seed(p: np.ndarray, extreme: np.ndarray, mesh: np.ndarray | None, eps: float) -> np.ndarray | None:
    """The hull of the cloud's extreme points along the directions of a direction mesh (`extreme`: the point
    of each direction) when the directions' hull's triangles, carried over to them, give it after a few edge
    flips; else None.

    Directions that share an extreme point merge: the triangles that lose a corner that way are dropped (an edge
    or a triangle collapses), and what is left must still be a closed surface.  Folded edges (the far corner of
    the face across above a face's plane) are flipped.  Checked, not assumed: every extreme point that is not a
    corner of a face must lie below it by more than eps.  Then each face is a facet of the extreme points' hull,
    no two alike (each directed edge is used once), and a closed surface of distinct facets of a convex polytope
    is its whole boundary.  On smooth round clouds (spheres, Ico and UV Spheres) it holds for one of the direction
    meshes; where four extreme points are coplanar (a cylinder's caps, a cube's faces; a UV Sphere's rings with
    the Ico Sphere's directions) it does not, and the next mesh is tried or the seed is built in rounds."""
    if mesh is None:
        return None
    ids, local = np.unique(extreme, return_inverse=True)
    tri = local[mesh]
    tri = tri[(tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 2] != tri[:, 0])]
    m = ids.size
    if m < 4 or tri.shape[0] != 2 * m - 4:  # merged points must leave a closed surface on all of them
        return None
    Q = np.ascontiguousarray(p[ids].T)
    for _ in range(_SEED_FLIPS + 1):
        plane, ok = _planes(Q, tri[:, 0], tri[:, 1], tri[:, 2])
        nb = _neighbours(tri, m)
        if nb is None or not np.all(ok):
            return None
        # the corner of the face across each edge that is not on the edge: above this face's plane, the edge is
        # folded the wrong way (the carried triangulation is not that of the hull there)
        across = np.take(tri, nb.reshape(-1), axis=0).reshape(-1, 3, 3)  # (faces, slots, corners)
        spare = across.sum(axis=2) - tri - np.roll(tri, -1, axis=1)  # (faces, slots): the third corner
        h = (plane[0][:, None] * Q[0][spare] + plane[1][:, None] * Q[1][spare] + plane[2][:, None] * Q[2][spare]
             - plane[3][:, None])
        top = float(h.max())
        if top < -eps:
            break
        if top <= eps:
            return None  # four points coplanar within eps: neither diagonal is strictly convex
        # flip folded edges, at most one per face (each face's most folded edge, where the face across picks the
        # same edge; else the most folded one alone): the edge (a, b) of faces (a, b, c) and (b, a, d) becomes
        # (c, d), faces (a, d, c) and (d, b, c)
        pick = h.argmax(axis=1)
        f = np.flatnonzero(h[np.arange(h.shape[0]), pick] > eps)
        s = pick[f]
        g = nb[f, s]
        mutual = (nb[g, pick[g]] == f) & (f < g)
        if mutual.any():
            f, s, g = f[mutual], s[mutual], g[mutual]
        else:
            f = np.array([int(h.max(axis=1).argmax())])
            s = pick[f]
            g = nb[f, s]
        a, b, c, d = tri[f, s], tri[f, (s + 1) % 3], tri[f, (s + 2) % 3], spare[f, s]
        tri[f] = np.column_stack([a, d, c])
        tri[g] = np.column_stack([d, b, c])
    else:
        return None
    h = plane[:3].T @ Q - plane[3][:, None]  # (faces, points)
    h[np.arange(tri.shape[0])[:, None], tri] = -np.inf  # a face's own corners
    if not h.max() < -eps:
        return None
    return ids[tri]


# The result is checked (`_sound`) to this many times eps: near-coplanar points leave edges reflex by some
# times eps (slivers' planes), far less than core/triangulation.py's 1e-9 x size; a folded surface is off by the
# cloud's size.  The rounds-built seed is checked to eps itself: rounds on a reflex seed can fold.
_SOUND_SLACK = 100.0
# `_sound` compares every point with every face up to this many (point, face) pairs; above, only the surface's
# own checks (a closed, oriented surface of a sphere's topology, convex at every edge).
_FULL_CHECK_PAIRS = 1 << 20


def _sound(p: np.ndarray, tri: np.ndarray, eps: float, links=None) -> bool:
    """Whether the triangles (outward, indices into p) bound a convex polytope holding p, up to eps: each directed
    edge used once and with its reverse (a closed surface), as many vertices as a sphere's triangulation has
    (V = F / 2 + 2), the third corner of the face across each edge on or below the face's plane (convex at every
    edge), and, while the pairs are few (`_FULL_CHECK_PAIRS`), every point on or below every face.  `links`: the
    faces across the edges and their slots back (`_Faces.nb`, `_Faces.back`) as the build kept them, checked here
    against the corners; else found.

    A pass over the faces (one sort) except the last check, which small clouds (the Minkowski differences of
    small polytopes, where near-coplanar points can fold a round's insertions) get in full."""
    n = p.shape[0]
    if links is None:
        nb = _neighbours(tri, n)
        if nb is None:
            return False
    else:
        nb, back = links
        ordered = np.sort((tri * n + np.roll(tri, -1, axis=1)).reshape(-1))
        if np.any(ordered[1:] == ordered[:-1]):
            return False  # a directed edge used twice
        # the face across each edge (a, b) has the edge (b, a) at its slot back: so every edge has its reverse
        # (and, each directed edge being used once, that face is the only one across)
        corner = tri.reshape(-1)
        at = 3 * nb + back
        if not (np.array_equal(corner[at], np.roll(tri, -1, axis=1))
                and np.array_equal(corner[at - back + (back + 1) % 3], tri)):
            return False
    used = np.zeros(n, bool)
    used[tri] = True
    if np.count_nonzero(used) != tri.shape[0] // 2 + 2:
        return False
    P = np.ascontiguousarray(p.T)
    plane, ok = _planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
    if not np.all(ok):
        return False
    across = np.take(tri, nb.reshape(-1), axis=0).reshape(-1, 3, 3)
    spare = across.sum(axis=2) - tri - np.roll(tri, -1, axis=1)  # the third corner of the face across each edge
    x, y, z, off = (row[:, None] for row in plane)
    if not np.all(x * P[0][spare] + y * P[1][spare] + z * P[2][spare] - off <= eps):
        return False
    if n * tri.shape[0] > _FULL_CHECK_PAIRS:
        return True
    lifted = np.column_stack([p, np.ones(n)])
    return bool((lifted @ np.vstack([plane[:3], -plane[3]])).max() <= eps)


# Points `_repaired` may insert one by one, and rounds of flips `_flip_reflex` may make.
_REPAIR_STEPS = 64
_FLIP_ROUNDS = 64


def _repaired(p: np.ndarray, tri: np.ndarray, eps: float, slack: float,
              steps: int = _REPAIR_STEPS) -> np.ndarray | None:
    """A sound hull (`_sound` to `slack`) made from a closed outward surface `tri` on points of p that fails it:
    reflex edges flipped (or a vertex of three edges, below its neighbours' plane, taken out) until every edge is
    convex within eps (`_flip_reflex`), then the point highest above a face inserted alone (`_insert_one`), and so
    on while a point is above a face by more than `slack`; None when a step cannot be made, a point inserted comes
    back out, or after `steps` insertions."""
    P = np.ascontiguousarray(p.T)
    lifted = np.column_stack([p, np.ones(p.shape[0])])
    inserted: set = set()
    for _ in range(steps + 1):
        if p.shape[0] * tri.shape[0] > _FULL_CHECK_PAIRS:
            return None  # mended only where every point is checked against every face
        tri = _flip_reflex(p, tri, eps)
        if tri is None:
            return None
        plane, _ = _planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
        h = lifted @ np.vstack([plane[:3], -plane[3]])  # (points, faces)
        q, f = np.unravel_index(int(h.argmax()), h.shape)
        if h[q, f] <= slack:
            return tri if _sound(p, tri, slack) else None
        if q in inserted:
            return None  # the flips took it out again: no progress
        inserted.add(int(q))
        # the faces q does not lie below by more than eps, else those it lies above by more than eps: the first
        # keeps the new faces convex (within rounding) with those outside, past near-coplanar slivers
        grown = _insert_one(tri, p.shape[0], int(q), h[q], f, -eps)
        tri = grown if grown is not None else _insert_one(tri, p.shape[0], int(q), h[q], f, eps)
        if tri is None:
            return None
    return None


def _insert_one(tri: np.ndarray, n: int, q: int, h: np.ndarray, f: int, level: float) -> np.ndarray | None:
    """The surface `tri` with point q added: the faces q lies above by more than `level` (heights `h`) that are
    connected to face f through such faces removed, q fanned to the border; None when they do not form a disc."""
    nb = _neighbours(tri, n)
    if nb is None:
        return None
    seen = np.zeros(tri.shape[0], bool)
    seen[f] = True
    front = np.array([f])
    while front.size:
        nxt = np.unique(nb[front].reshape(-1))
        nxt = nxt[~seen[nxt] & (h[nxt] > level)]
        seen[nxt] = True
        front = nxt
    region = np.flatnonzero(seen)
    a = tri[region].reshape(-1)
    b = np.roll(tri[region], -1, axis=1).reshape(-1)
    border = ~seen[nb[region].reshape(-1)]
    a, b = a[border], b[border]
    nxt = dict(zip(a.tolist(), b.tolist()))
    if len(nxt) != a.size or q in nxt:
        return None  # a vertex starts two border edges: not one loop
    at, steps = int(a[0]), 0
    while True:
        at = nxt.get(at)
        steps += 1
        if at is None or steps > a.size:
            return None
        if at == a[0]:
            break
    if steps != a.size:
        return None  # more than one loop
    fan = np.column_stack([a, b, np.full(a.size, q)])
    return np.vstack([np.delete(tri, region, axis=0), fan])


def _flip_reflex(p: np.ndarray, tri: np.ndarray, eps: float) -> np.ndarray | None:
    """The closed outward surface `tri` (indices into p) with its reflex edges flipped, worst first, until the third
    corner of the face across every edge is at most eps above each face's plane; None when a round can make no
    flip, a triangle has no area, or after `_FLIP_ROUNDS` rounds.

    Flipping edge (a, b) of faces (a, b, c) and (b, a, d) to (c, d) makes it convex when it was reflex and the four
    points are not coplanar: the surface moves out to the hull of the four.  A flip that would repeat an edge has a
    vertex of three edges at its end: when that vertex is not above the plane of its three neighbours by more than
    eps it is taken out (its three faces become one), else the edge waits for other flips."""
    n = p.shape[0]
    P = np.ascontiguousarray(p.T)
    tri = tri.copy()
    for _ in range(_FLIP_ROUNDS):
        nb = _neighbours(tri, n)
        plane, ok = _planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
        if nb is None or not np.all(ok):
            return None
        across = np.take(tri, nb.reshape(-1), axis=0).reshape(-1, 3, 3)
        spare = across.sum(axis=2) - tri - np.roll(tri, -1, axis=1)
        x, y, z, off = (row[:, None] for row in plane)
        h = x * P[0][spare] + y * P[1][spare] + z * P[2][spare] - off
        f, s = np.nonzero(h > eps)
        if not f.size:
            return tri
        order = np.argsort(-h[f, s], kind="stable")
        edges = set((tri * n + np.roll(tri, -1, axis=1)).reshape(-1).tolist())
        used = np.zeros(tri.shape[0], bool)
        drop: list = []
        flipped = 0
        for f, s in zip(f[order].tolist(), s[order].tolist()):
            g = int(nb[f, s])
            if used[f] or used[g]:
                continue
            a, b, c, d = int(tri[f, s]), int(tri[f, (s + 1) % 3]), int(tri[f, (s + 2) % 3]), int(spare[f, s])
            if c * n + d in edges or d * n + c in edges:
                # (c, d) is an edge already: where a or b has three edges (a tetrahedron's corner on the
                # surface), that vertex taken out makes its three faces one on its three neighbours (in the order
                # they go round it: outward)
                for v in (a, b):
                    rows = np.flatnonzero((tri == v).any(axis=1))
                    if rows.size != 3 or used[rows].any():
                        continue
                    ring = [np.roll(tri[r], -int(np.flatnonzero(tri[r] == v)[0]))[1:] for r in rows]
                    follow = {int(x): int(y) for x, y in ring}
                    x0 = int(ring[0][0])
                    x1, x2 = follow[x0], follow[follow[x0]]
                    lid, fine = _planes(P, np.array([x0]), np.array([x1]), np.array([x2]))
                    if not fine[0] or lid[:3, 0] @ p[v] - lid[3, 0] > eps:
                        continue  # v is a hull vertex (above its neighbours' plane): kept
                    tri[rows[0]] = (x0, x1, x2)
                    used[rows] = True
                    drop.extend(rows[1:].tolist())
                    flipped += 1
                    break
                continue
            edges.difference_update((a * n + b, b * n + a))
            edges.update((c * n + d, d * n + c))
            tri[f] = (a, d, c)
            tri[g] = (d, b, c)
            used[f] = used[g] = True
            flipped += 1
        if not flipped:
            return None
        if drop:
            tri = np.delete(tri, drop, axis=0)
    return None


def _neighbours(tri: np.ndarray, n: int, slots: bool = False):
    """Face across edge k (corners k, k + 1) of each triangle of a closed, consistently oriented surface; None
    when the triangles are not one (a directed edge used twice, or one without its reverse).  With `slots`, also
    the slot of that face's edge back (`_Faces.back`)."""
    u = tri.reshape(-1)
    v = tri[:, [1, 2, 0]].reshape(-1)
    key = u * n + v
    order = np.argsort(key)
    ordered = key[order]
    if np.any(ordered[1:] == ordered[:-1]):
        return None
    pos = np.minimum(np.searchsorted(ordered, v * n + u), key.size - 1)
    twin = order[pos]
    if not np.array_equal(key[twin], v * n + u):
        return None
    if slots:
        return (twin // 3).reshape(-1, 3), (twin % 3).reshape(-1, 3)
    return (twin // 3).reshape(-1, 3)


def _build(p: np.ndarray, eps: float, seeded: bool = True, neighbours: list | None = None,
           start: np.ndarray | None = None, partial: list | None = None) -> np.ndarray | None:
    """Triangles (indices into p, outward) of the hull of p (centred), or None.  `seeded`: a cloud of more than
    `_SEED_ABOVE` points starts from the hull of its extreme points (else from a tetrahedron).  `neighbours`: a
    list to append the faces across each triangle's edges and their slots back to (unchecked: see `_sound`).
    `start`: a closed outward surface on points of p to start from instead (`_repaired`).  `partial`: a list to
    append the surface had so far to when an insertion declines (a closed surface: `_insert` declines before it
    changes a face)."""
    n = p.shape[0]
    tri = start
    if tri is None and seeded and n > _SEED_ABOVE:
        # start from the hull of the extreme points along evenly spread directions: the first rounds then have
        # hundreds of faces to work on, instead of a tetrahedron's four.  Cheapest when the directions' own hull
        # carries over; else built the same way as this one (a dozen rounds)
        for directions, mesh in _direction_meshes():
            extreme = (directions @ p.T).argmax(axis=1)
            tri = _mapped_seed(p, extreme, mesh, eps)
            if tri is not None:
                break
        if tri is None:
            seed = np.unique(extreme)
            if 4 <= seed.size < n:
                sub = _build(p[seed], eps)
                if sub is not None and _sound(p[seed], sub, eps):  # rounds on a folded seed fold further
                    tri = seed[sub]
    if tri is None:
        start = _tetrahedron(p, eps)
        if start is None:
            return None
        (a, b, c, d), d_above = start
        if d_above:  # d above plane (a, b, c): turned round, that face looks away from d
            b, c = c, b
        tri = np.array([[a, b, c], [a, d, b], [b, d, c], [c, d, a]])
    P = np.ascontiguousarray(p.T)
    links = _neighbours(tri, n, slots=True)
    plane, ok = _planes(P, tri[:, 0], tri[:, 1], tri[:, 2])
    if links is None or not np.all(ok):
        return None
    k = tri.shape[0]
    faces = _Faces(max(64, 6 * n, 2 * k))  # ~5 faces made per point on round clouds (most of them removed again)
    faces.start(tri, links[0], links[1], plane)

    # outside sets: each point goes to the face it is highest above (if any by more than eps)
    owner = np.empty(n, np.int64)
    height = np.empty(n)
    block = max(1, (1 << 16) // k)  # blocks that stay in cache
    lifted = np.column_stack([p, np.ones(n)])  # (x, y, z, 1) . (normal, -offset) = height
    plane4 = np.vstack([plane[:3], -plane[3]])
    for lo in range(0, n, block):
        h = lifted[lo:lo + block] @ plane4
        best = h.argmax(axis=1)
        owner[lo:lo + block] = best
        height[lo:lo + block] = h[np.arange(best.size), best]
    owner[height <= eps] = -1
    live = np.flatnonzero(owner >= 0)  # the points still outside (a superset: trimmed each round)
    _farthest(faces, owner, height, live)

    for _ in range(_MAX_ROUNDS):
        cand_face = np.flatnonzero(faces.far[:faces.count] >= 0)
        if not cand_face.size:
            break
        cand_face, prio = _apart(P, faces, cand_face, height[faces.far[cand_face]], eps)
        cand_face = cand_face[np.argsort(prio)]  # candidates numbered by rising priority
        cand = faces.far[cand_face]
        pc, pf, claimed, dead = _claimed_regions(P, faces, cand, cand_face, eps)
        pc, pf = _convex_neighbours(P, faces, cand, pc, pf, claimed, dead, eps)
        if not _insert(P, faces, cand, pc, pf, owner, height, eps, live):
            if partial is not None:
                partial.append(faces.tri[np.flatnonzero(faces.alive[:faces.count])])
            return None
        live = live[np.flatnonzero(owner[live] >= 0)]
    else:
        return None
    alive = np.flatnonzero(faces.alive[:faces.count])
    if neighbours is not None:  # the faces across, numbered as the faces returned
        row = np.full(faces.count, -1, np.int64)
        row[alive] = np.arange(alive.size)
        neighbours.append((row[faces.nb[alive]], faces.back[alive]))
    return faces.tri[alive]


def _farthest(faces, owner, height, points) -> None:
    """Set `faces.far` (the farthest point of each face's outside set) for the faces owning `points`."""
    if not points.size:
        return
    face, h = owner[points], height[points]
    top = faces.scratch("top", fill=-np.inf)
    np.maximum.at(top, face, h)
    win = points[np.flatnonzero(h == top[face])]  # ties: the last written stays
    top[face] = -np.inf
    faces.far[owner[win]] = win


def _ranks(value: np.ndarray) -> np.ndarray:
    """Distinct nonnegative int64 keys ordered as `value` (positive heights), ties by position: the float's bits
    with the lowest 20 bits of the mantissa replaced by the position (positive floats order as their bits; values
    within a relative 2^-32 of each other then go by position).  A stable argsort's ranks when the positions do
    not fit in 20 bits or a value is not positive."""
    count = value.size
    if count < (1 << 20) and (count == 0 or value.min() > 0.0):
        return ((value.view(np.int64) >> 20) << 20) | np.arange(count)
    prio = np.empty(count, np.int64)
    prio[np.argsort(value, kind="stable")] = np.arange(count)
    return prio


_ROW = np.dtype((np.void, 24))  # one row of a (k, 3) int64 array as a single item


def _rows(a: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Rows `index` of a C-contiguous (k, 3) int64 array: np.take of its rows seen as single 24-byte items,
    ~3x faster here than np.take along axis 0."""
    return np.take(a.view(_ROW).reshape(-1), index).view(np.int64).reshape(-1, 3)


def _rows_slots(mask: np.ndarray):
    """np.nonzero of a (k, 3) boolean array, as (rows, slots), and the flat indices (for gathers from (k, 3)
    arrays: ~3x faster than by (rows, slots)); ~2x faster than np.nonzero."""
    i = np.flatnonzero(mask)
    row, slot = np.divmod(i, 3)
    return row, slot, i


def _apart(P, faces, cand_face, value, eps):
    """A maximal set of proposals, greedy by `value`, none of which sees the face of a neighbouring one (that face
    would be in both regions): their faces and priorities (`_ranks` of their values), in no particular order.

    Most clashes between proposals are between neighbouring faces: they are thinned out here, before the regions
    are searched (the exact test on the regions follows, `_claimed_regions`, `_convex_neighbours`).  `cand_face`
    ascends.  Each neighbouring pair is judged once, from its lower proposal's face."""
    prio = faces.scratch("prio")  # the last entry stays -1: what index -1 (no rival) reads
    own = _ranks(value)
    prio[cand_face] = own
    nb = _rows(faces.nb, cand_face)  # (k, 3)
    row, slot, i = _rows_slots(prio[nb] > own[:, None])
    f, g = cand_face[row], nb.reshape(-1)[i]
    clash = (faces.heights(f, P, faces.far[g]) > eps) | (faces.heights(g, P, faces.far[f]) > eps)
    clash = np.flatnonzero(clash)
    row, slot, f, g = row[clash], slot[clash], f[clash], g[clash]
    across = np.searchsorted(cand_face, g)  # g's row
    back = faces.back.reshape(-1)[3 * f + slot]  # g's slot back to f
    rival = np.full((3, cand_face.size), -1, np.int64)  # neighbouring faces whose proposals clash, -1 for none
    flat = rival.reshape(-1)
    flat[slot * cand_face.size + row] = g
    flat[back * cand_face.size + across] = f
    has = np.zeros(cand_face.size, bool)
    has[row] = True
    has[across] = True
    kept = [np.flatnonzero(~has)]  # no clash: in
    r0, r1, r2 = rival
    at = np.flatnonzero(has)
    while at.size:
        o = own[at]
        top = (prio[r0[at]] < o) & (prio[r1[at]] < o) & (prio[r2[at]] < o)  # above every clashing one left
        top = np.flatnonzero(top)
        chosen = at[top]
        kept.append(chosen)
        prio[cand_face[chosen]] = -1
        prio[r0[chosen]] = -1  # the clashing neighbours are out
        prio[r1[chosen]] = -1
        prio[r2[chosen]] = -1
        at = at[np.flatnonzero(prio[cand_face[at]] >= 0)]  # (the chosen ones are out too: their prio is -1)
    prio[cand_face] = -1
    prio[-1] = -1
    kept = np.concatenate(kept)
    return cand_face[kept], own[kept]


def _claimed_regions(P, faces, cand, cand_face, eps):
    """(candidate, face) pairs of the candidates (numbered by rising priority) whose visible regions, searched
    together, no higher candidate's region overlaps: a breadth-first search over face neighbours, all candidates
    in lock-step, each face seen claimed by one candidate (`faces.scratch("claim")`).

    Where two regions meet on a face the lower candidate drops out at once (its search stops), also when the
    higher one drops out later: simpler than a maximal set, and the highest candidate always stays.  Then the
    face a candidate sees is looked up, not searched for: it is in its region exactly when it carries its
    claim.  Returns the pairs of the candidates left, every face claimed (the claims stay for
    `_convex_neighbours`, which looks up the candidate across each edge and then sets them back) and which
    candidates dropped out."""
    count = cand.size
    claim = faces.scratch("claim")
    last = faces.scratch("last")
    dead = np.zeros(count, bool)
    fc = np.arange(count)
    ff = cand_face
    claim[ff] = fc  # one proposal per face: no clash yet
    region_c, region_f, claimed = [fc], [ff], [ff]
    while fc.size:
        nc = np.repeat(fc, 3)  # rising: the frontier stays in candidate order
        nf = _rows(faces.nb, ff).reshape(-1)
        prior = claim[nf]
        fresh = prior != nc  # not yet in its own region
        fresh = np.flatnonzero(fresh)
        nc, nf, prior = nc[fresh], nf[fresh], prior[fresh]
        above = faces.heights(nf, P, cand[nc]) > eps
        above = np.flatnonzero(above)
        nc, nf, prior = nc[above], nf[above], prior[above]
        if not nc.size:
            break
        claimed.append(nf)
        claim[nf] = nc  # several candidates on one face this layer: the last, the highest, stays
        top = claim[nf]
        dead[nc[top != nc]] = True
        # the face's claim from an earlier layer (another candidate's region): the lower one drops out; a face
        # of a higher candidate still in goes back to it
        other = np.flatnonzero(prior >= 0)
        if other.size:
            p, t = prior[other], top[other]
            keep_prior = (p > t) & ~dead[p]
            dead[t[keep_prior]] = True
            claim[nf[other[keep_prior]]] = p[keep_prior]
            dead[p[~keep_prior]] = True
        # one pair per face (a face reached twice from one region), of a candidate still in
        at = np.arange(nf.size)
        last[nf] = at
        once = (last[nf] == at) & ~dead[nc]
        last[nf] = -1
        once = np.flatnonzero(once)
        fc, ff = nc[once], nf[once]
        region_c.append(fc)
        region_f.append(ff)
    pc, pf = np.concatenate(region_c), np.concatenate(region_f)
    keep = np.flatnonzero(~dead[pc])
    return pc[keep], pf[keep], np.concatenate(claimed), dead


def _convex_neighbours(P, faces, cand, pc, pf, claimed, dead, eps):
    """The pairs (pc, pf) of a maximal set of the candidates left by `_claimed_regions` whose regions meet only
    along edges where their two new faces meet convexly (`_shared_edges_convex`): greedy by priority (the
    candidates' numbers) over the concave meetings, the highest candidate always kept.  Sets the claims back."""
    claim = faces.scratch("claim")
    ring = claim[_rows(faces.nb, pf)]  # (pairs, slots): the candidate that claimed the face across
    row, slot, i = _rows_slots(ring > pc[:, None])  # each meeting judged once, from the lower candidate's side
    other = ring.reshape(-1)[i]
    live = ~dead[other]
    live = np.flatnonzero(live)
    row, slot, other = row[live], slot[live], other[live]
    claim[claimed] = -1
    if not row.size:
        return pc, pf
    low = pc[row]
    fine = _shared_edges_convex(P, faces, cand, low, pf[row], slot, other, eps)
    concave = np.flatnonzero(~fine)
    low, high = low[concave], other[concave]
    if not low.size:
        return pc, pf
    # greedy over the concave meetings: a candidate above every rival still in stays, its lower rivals drop out
    out = dead.copy()
    while low.size:
        beaten = np.zeros(out.size, bool)
        beaten[low] = True  # has a higher rival still in
        stays = ~beaten[high]  # the higher end of a meeting whose higher end has none above it
        out[low[stays]] = True
        left = ~out[low] & ~out[high]
        low, high = low[left], high[left]
    keep = np.flatnonzero(~out[pc])
    return pc[keep], pf[keep]


def _shared_edges_convex(P, faces, cand, c, f, slot, other, eps):
    """Whether the fans of candidates c and `other` would meet convexly along edge `slot` (a, b) of face f (f in
    c's region, the face across it in other's): neither point P (c's) nor Q (other's) lies above the other's new
    face on that edge, (a, b, P) or (b, a, Q), by more than eps.  Inserting the two one after the other (in either
    order) then gives the same faces as inserting them side by side: neither sees the other's new face next to
    its own region.

    Both heights share one numerator, the triple product V = ((b - a) x (P - a)) . (Q - a): Q's height is V over
    |(b - a) x (P - a)|, P's is V over |(b - a) x (Q - a)|."""
    x, y, z = P
    corner = faces.tri.reshape(-1)
    a = corner[3 * f + slot]
    b = corner[3 * f + (slot + 1) % 3]
    pa, pb = cand[c], cand[other]
    ax, ay, az = x[a], y[a], z[a]
    ux, uy, uz = x[b] - ax, y[b] - ay, z[b] - az
    vx, vy, vz = x[pa] - ax, y[pa] - ay, z[pa] - az
    wx, wy, wz = x[pb] - ax, y[pb] - ay, z[pb] - az
    uvx, uvy, uvz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    uwx, uwy, uwz = uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx
    volume = uvx * wx + uvy * wy + uvz * wz
    least = np.sqrt(np.minimum(uvx * uvx + uvy * uvy + uvz * uvz, uwx * uwx + uwy * uwy + uwz * uwz))
    return (least > 0.0) & (volume <= eps * least)


def _insert(P, faces, cand, pc, pf, owner, height, eps, live=None) -> bool:
    """Insert the winning candidates (their regions pc, pf are disjoint; where two share an edge, their new faces
    on it meet convexly): remove each region, fan its point to its horizon, hand the removed faces' outside points
    to the new faces.  `live`: the points that may still be outside (all points with an owner among them; None:
    found here).  False when a region is not a disc (rounding): the caller declines, and drops these faces and
    their scratch arrays as they are (so only the path that goes on hands the "region" scratch back)."""
    n = P.shape[1]
    corner = faces.tri.reshape(-1)
    order = np.argsort(pc, kind="stable")  # grouped by candidate: so are the horizon edges and new faces below
    pc, pf = pc[order], pf[order]
    region_of = faces.scratch("region")
    region_of[pf] = pc
    # horizon edges: an edge of a region face whose neighbour is outside the region
    ec = np.repeat(pc, 3)
    three = 3 * pf[:, None]
    flat = (three + np.arange(3)).reshape(-1)  # (face, slot) as an index into corner
    outer = faces.nb.reshape(-1)[flat]
    edge = region_of[outer] != ec
    edge = np.flatnonzero(edge)
    ec, flat, outer = ec[edge], flat[edge], outer[edge]
    ea = corner[flat]
    eb = corner[(three + np.array([1, 2, 0])).reshape(-1)[edge]]
    k = ea.size
    # a disc (a connected region whose border is one simple loop): every horizon vertex starts one horizon edge,
    # the edges close into loops, and each region has one loop
    start_key = ec * n + ea
    by_start = np.argsort(start_key)
    ordered = start_key[by_start]
    if np.any(ordered[1:] == ordered[:-1]):
        return False
    end_key = ec * n + eb
    at = np.minimum(np.searchsorted(ordered, end_key), k - 1)
    following = by_start[at]  # the horizon edge starting where each one ends
    if not np.array_equal(start_key[following], end_key):
        return False
    preceding = np.zeros(k, np.int64)
    preceding[following] = np.arange(k)
    if not np.array_equal(following[preceding], np.arange(k)):
        return False  # two edges end at one vertex
    chosen = pc[np.flatnonzero(np.concatenate([[True], pc[1:] != pc[:-1]]))]
    fan_count = np.bincount(ec, minlength=cand.size)
    if np.any(fan_count[chosen] == 0):
        return False
    # loops: each edge labelled with the least edge index on its loop (by pointer doubling: after j steps a label
    # is the least of the next 2^j edges), one label per loop
    label, step, span = np.arange(k), following, 1
    while span < fan_count.max():
        label = np.minimum(label, label[step])
        step = step[step]
        span *= 2
    if np.count_nonzero(label == np.arange(k)) != chosen.size:
        return False

    # new faces (a, b, apex), grouped by candidate
    plane, ok = _planes(P, ea, eb, cand[ec])
    if not np.all(ok):
        return False
    faces.reserve(k)  # (scratch arrays follow the faces made, not the room for them: region_of stays)
    nb_flat = faces.nb.reshape(-1)
    back_flat = faces.back.reshape(-1)
    base = faces.count
    new = base + np.arange(k)
    # across (a, b): the outer face, or where two regions share the edge, the other insertion's new face on it
    # (the row of the outer face's own edge back to ours); across (b, apex): the new face that follows; across
    # (apex, a): the one that precedes
    slot_back = back_flat[flat]
    back = 3 * outer + slot_back
    on_region = region_of[outer] >= 0
    shared, stay = np.flatnonzero(on_region), np.flatnonzero(~on_region)
    across = outer.copy()
    if shared.size:
        row_of = faces.scratch("row", 3)
        row_of[flat] = np.arange(k)
        twin = row_of[back[shared]]
        row_of[flat] = -1
        if np.any(twin < 0):
            return False  # cannot happen: a shared edge is on both regions' horizons
        across[shared] = new[twin]
        slot_back[shared] = 0  # the twin new face's edge (a, b) is its slot 0 too
    block = slice(base, base + k)
    faces.tri[block, 0], faces.tri[block, 1], faces.tri[block, 2] = ea, eb, cand[ec]
    faces.nb[block, 0], faces.nb[block, 1], faces.nb[block, 2] = across, new[following], new[preceding]
    # back slots: across (b, apex) the following face's (apex, b) is its slot 2; across (apex, a) slot 1
    faces.back[block, 0], faces.back[block, 1], faces.back[block, 2] = slot_back, 2, 1
    faces.plane[:, block] = plane
    faces.alive[block] = True
    # the outer faces that stay now meet the new ones (on their side, the new face's slot 0)
    nb_flat[back[stay]] = new[stay]
    back_flat[back[stay]] = 0
    faces.alive[pf] = False
    faces.far[pf] = -1
    faces.count = base + k

    # inserted points are hull vertices; the removed faces' outside points go to their insertion's new faces
    owner[cand[chosen]] = -1
    orphan = np.flatnonzero(owner >= 0) if live is None else live
    c = region_of[owner[orphan]]
    region_of[pf] = -1
    gone = c >= 0
    gone = np.flatnonzero(gone)
    orphan, c = orphan[gone], c[gone]
    if orphan.size:
        fan_start = np.cumsum(fan_count) - fan_count
        top, pick = _highest_in_fans(P, faces, orphan, base + fan_start[c], fan_count[c])
        outside = top > eps
        owner[orphan] = pick
        owner[orphan[~outside]] = -1
        height[orphan] = top
        _farthest(faces, owner, height, orphan[outside])
    return True


# From this many points on, `_highest_in_fans` goes fan size by fan size (fewer passes over the heights, more
# numpy calls); below, it works on all heights at once.
_BY_FAN_SIZE_FROM = 1024


def _highest_in_fans(P, faces, q, start, count):
    """For each point q[i], the highest of the `count[i]` (at least one) consecutive faces from `start[i]` (the
    first one reaching the top where several do) and its height above it: (heights, faces).

    From `_BY_FAN_SIZE_FROM` points on, the points are taken fan size by fan size and, within one size, fan
    position by fan position, with a running maximum: a dozen passes over the heights where the flat way (every
    (point, face) pair in one array: its face indices, repeated coordinates, a segmented maximum and a search for
    the first face reaching it) makes about twenty."""
    x, y, z, off = faces.plane
    if q.size < _BY_FAN_SIZE_FROM:
        first = np.cumsum(count) - count
        face = np.repeat(start - first, count) + np.arange(first[-1] + count[-1])
        h = (x[face] * np.repeat(P[0][q], count) + y[face] * np.repeat(P[1][q], count)
             + z[face] * np.repeat(P[2][q], count) - off[face])
        top = np.maximum.reduceat(h, first)
        hit = np.flatnonzero(h == np.repeat(top, count))
        return top, face[hit[np.searchsorted(hit, first)]]
    # grouped by fan size (a stable sort of small integers: a radix sort), each size one slice
    order = np.argsort(count.astype(np.int16) if count.max() < (1 << 15) else count, kind="stable")
    s, q = start[order], q[order]
    qx, qy, qz = P[0][q], P[1][q], P[2][q]
    top = np.empty(q.size)
    step = np.zeros(q.size, np.int64)  # the position of the highest face in its fan
    bounds = np.cumsum(np.bincount(count))
    lo = 0
    for size, hi in enumerate(bounds.tolist()):
        if hi == lo:
            continue
        f0, ax, ay, az, best, at = s[lo:hi], qx[lo:hi], qy[lo:hi], qz[lo:hi], top[lo:hi], step[lo:hi]
        for j in range(size):
            f = f0 + j if j else f0
            h = x[f] * ax
            h += y[f] * ay
            h += z[f] * az
            h -= off[f]
            if j:
                np.copyto(at, j, where=h > best)
                np.maximum(best, h, out=best)
            else:
                best[:] = h
        lo = hi
    back = np.empty(q.size, np.int64)
    back[order] = np.arange(q.size)
    return top[back], (s + step)[back]
