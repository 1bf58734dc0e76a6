"""An exact, independent oracle for the signed distance between two convex shapes (test-only; uses scipy).

Nothing here imports `core` except `ShapeSpec.build()`: every number comes from the shape *definitions*
(vertex arrays, radii, 4x4 transforms, margins), not from the engine's support mappings.

Conventions (the same as `core.contact`):
- the signed distance d(A, B) is > 0 when separated (the gap), < 0 when intersecting (minus the depth);
- every shape is `core (+) ball(sweep)`: a polytope core (vertices) or a curved core, plus a round part;
- with D = conv(A_core - B_core), d = phi_D(0) - sweep_A - sweep_B, where phi_D(0) is the signed distance of the
  origin to D (> 0 outside).  A flat D (coplanar, collinear or a single point) has no interior: phi_D(0) >= 0;
- the optimal normal (A -> B) is the outward normal of D at its boundary point nearest the origin;
- `support_separation(A, B, n) = min_b n.b - max_a n.a` is <= d for every unit n, with equality at the optimum.

Exactness.  Polytope cores (PointCloud, Box, and Sphere/Capsule under a similarity transform: point/segment core
plus radius * s) are handled exactly up to floating rounding (qhull works in float64; its facet planes are
within ~1e-15 x extent of the input).  Outside D the distance is the minimum over hull triangles of an exact
point-triangle distance; inside, minus the smallest facet-plane distance.  A D thinner than FLAT_REL x its
extent in some direction is treated in its affine hull (2D, 1D or a point), exactly.

Curved cores (Cylinder, Cone, and Sphere/Capsule under a non-similarity transform) have no finite exact form;
`bracket()` returns a certified interval [lower, upper] holding the true d, and the tests judge the engine
against the interval (an answer is only called wrong when it is outside it):
- upper: any points of the core difference D (support points A(n) - B(-n), exact from the analytic support
  functions) span a polytope inside D, and shrinking D can only raise phi_D(0); so phi of their hull is an
  upper bound.  The sample starts from 128 Fibonacci directions (about 18 degrees apart) and grows, as a
  cutting-plane iteration, by the support points along the current best normal and along five caps of
  directions around it (0.1, 0.01, 1e-3, 1e-4, 1e-5 rad);
- lower: support_separation along any unit n, with the exact support functions, is a lower bound (the
  engine's own normal is probed too), polished at the end by a compass search on the sphere;
- the iteration stops when upper - lower <= 1e-13 x scale (60 rounds at most).  The resolution is thus not
  fixed in advance but measured: the corpus table reports the widest bracket (2e-7 x scale when written;
  most close to 1e-13), and test_corpus fails any bracket wider than 1e-6 x scale.
Point-on-shape checks on a curved core use the exact local signed distance (2D, in the meridian plane) mapped
by the transform's singular values: the world distance lies in [sigma_min s, sigma_max s].
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np
from scipy.spatial import ConvexHull, QhullError

__all__ = [
    "ShapeSpec", "Geo", "geometry", "origin_distance", "signed_distance", "support_separation",
    "distance_to_shape", "point_shape_bracket", "bracket", "Truth", "truth", "pair_scale", "world_bounds",
    "FLAT_REL", "SPHERE_SAMPLES",
]

FLAT_REL = 1e-12
"""A point set thinner than this x its largest extent in some direction is flat (its affine hull is used)."""
SPHERE_SAMPLES = 128
"""Fibonacci directions that start the curved bracket's cutting-plane iteration."""

KINDS = ("cloud", "sphere", "box", "capsule", "cylinder", "cone")


# ----------------------------------------------------------------------------------------------- shape specs

@dataclass(frozen=True, eq=False)
class ShapeSpec:
    """A shape definition, independent of the engine.  `build()` makes the matching `core` shape.

    kind: one of KINDS; vertices: (n, 3) float (cloud); radius, half_height, half_extents (3,): primitive sizes;
    transform: 4x4 affine or None (identity); margin: world-space sphere-swept radius.
    """

    kind: str
    vertices: np.ndarray | None = None
    radius: float = 0.0
    half_height: float = 0.0
    half_extents: tuple | None = None
    transform: np.ndarray | None = None
    margin: float = 0.0

    def build(self):
        import core  # the engine, only here

        m = self.transform
        if self.kind == "cloud":
            return core.PointCloud(self.vertices, transform=m, margin=self.margin)
        if self.kind == "sphere":
            return core.Sphere(self.radius, transform=m, margin=self.margin)
        if self.kind == "box":
            return core.Box(self.half_extents, transform=m, margin=self.margin)
        if self.kind == "capsule":
            return core.Capsule(self.radius, self.half_height, transform=m, margin=self.margin)
        if self.kind == "cylinder":
            return core.Cylinder(self.radius, self.half_height, transform=m, margin=self.margin)
        if self.kind == "cone":
            return core.Cone(self.radius, self.half_height, transform=m, margin=self.margin)
        raise ValueError(self.kind)

    def translated(self, delta) -> "ShapeSpec":
        """The same shape moved by `delta` (clouds without a transform move their raw, rounded vertices)."""
        delta = np.asarray(delta, dtype=np.float64)
        if self.kind == "cloud" and self.transform is None:
            return replace(self, vertices=self.vertices + delta)
        m = np.eye(4) if self.transform is None else np.array(self.transform, dtype=np.float64)
        m[:3, 3] = m[:3, 3] + delta
        return replace(self, transform=m)

    def transformed(self, matrix) -> "ShapeSpec":
        """The shape under an extra world transform `matrix` applied after its own (margin unchanged)."""
        matrix = np.asarray(matrix, dtype=np.float64)
        m = np.eye(4) if self.transform is None else np.asarray(self.transform, dtype=np.float64)
        return replace(self, transform=matrix @ m)

    def describe(self) -> str:
        parts = [self.kind]
        if self.kind == "cloud":
            parts.append(f"{len(self.vertices)}v")
        if self.kind in ("sphere", "capsule", "cylinder", "cone"):
            parts.append(f"r={self.radius:.3g}")
        if self.kind in ("capsule", "cylinder", "cone"):
            parts.append(f"h={self.half_height:.3g}")
        if self.kind == "box":
            parts.append("he=" + ",".join(f"{h:.3g}" for h in self.half_extents))
        if self.margin:
            parts.append(f"margin={self.margin:.3g}")
        return " ".join(parts)

    def code(self) -> str:
        """Python source that rebuilds this shape with `core` (for reproducers)."""
        np.set_printoptions(precision=17, floatmode="unique")
        t = "None" if self.transform is None else f"np.array({np.asarray(self.transform).tolist()!r})"
        tail = f"transform={t}, margin={self.margin!r}"
        if self.kind == "cloud":
            return f"core.PointCloud(np.array({np.asarray(self.vertices).tolist()!r}), {tail})"
        if self.kind == "sphere":
            return f"core.Sphere({self.radius!r}, {tail})"
        if self.kind == "box":
            return f"core.Box({list(map(float, self.half_extents))!r}, {tail})"
        cls = {"capsule": "Capsule", "cylinder": "Cylinder", "cone": "Cone"}[self.kind]
        return f"core.{cls}({self.radius!r}, {self.half_height!r}, {tail})"


def as_spec(value) -> ShapeSpec:
    if isinstance(value, ShapeSpec):
        return value
    return ShapeSpec("cloud", vertices=np.asarray(value, dtype=np.float64).reshape(-1, 3))


def _box_corners(half) -> np.ndarray:
    h = np.asarray(half, dtype=np.float64)
    return np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])


def _similarity_factor(linear: np.ndarray) -> float | None:
    """s when linear = s * orthogonal (singular values equal to 1e-12), else None.  Independent of core's test."""
    sv = np.linalg.svd(linear, compute_uv=False)
    if sv[-1] <= 0.0:
        return None
    if sv[0] - sv[-1] <= 1e-12 * sv[0]:
        return float(np.mean(sv))
    return None


@functools.lru_cache(maxsize=None)
def _fibonacci_sphere(n: int) -> tuple[np.ndarray, float]:
    """n unit vectors spread on the sphere, and the in-radius of their hull (so ball(r_in) is inside it)."""
    i = np.arange(n) + 0.5
    z = 1.0 - 2.0 * i / n
    rho = np.sqrt(np.maximum(0.0, 1.0 - z * z))
    phi = i * math.pi * (3.0 - math.sqrt(5.0))
    pts = np.column_stack([rho * np.cos(phi), rho * np.sin(phi), z])
    hull = ConvexHull(pts)
    r_in = float(np.min(-hull.equations[:, 3]))
    return pts, r_in


# ----------------------------------------------------------------------------------------------- geometry

class Geo:
    """The oracle's view of one shape in a frame whose origin is the world point `ref` (float64).

    polytope: True when the core is a polytope; then `core` holds its (reduced) vertices.
    sweep: the round part in world units (radius * s for similar spheres/capsules, plus margin); for curved
    shapes only the margin (the round part stays in the curved core).
    """

    def __init__(self, spec: ShapeSpec, ref=None):
        spec = as_spec(spec)
        self.spec = spec
        self.ref = np.zeros(3) if ref is None else np.asarray(ref, dtype=np.float64)
        if spec.transform is None:
            self.L = np.eye(3)
            self.t = -self.ref.copy()  # exact: 0 - ref
        else:
            m = np.asarray(spec.transform, dtype=np.float64)
            self.L = m[:3, :3].copy()
            self.t = m[:3, 3] - self.ref  # formed before any vertex is added to it
        self.margin = float(spec.margin)
        sim = _similarity_factor(self.L)
        kind = spec.kind
        self.kind = kind
        self.sigma = np.linalg.svd(self.L, compute_uv=False)
        core = None
        round_part = 0.0
        if kind == "cloud":
            if spec.transform is None:
                core = spec.vertices - self.ref
            else:
                core = spec.vertices @ self.L.T + self.t
        elif kind == "box":
            core = _box_corners(spec.half_extents) @ self.L.T + self.t
        elif kind == "sphere" and (sim is not None or spec.radius == 0.0):
            core = self.t[None, :].copy()
            round_part = spec.radius * (sim or 0.0)
        elif kind == "capsule" and (sim is not None or spec.radius == 0.0):
            seg = np.array([[0.0, 0.0, -spec.half_height], [0.0, 0.0, spec.half_height]])
            core = seg @ self.L.T + self.t
            round_part = spec.radius * (sim or 0.0)
        self.polytope = core is not None
        self._raw_core = core
        self._core = None
        self.sweep = round_part + self.margin

    @property
    def core(self) -> np.ndarray | None:
        """The polytope core's extreme points (hull vertices of the defining points), computed on first use."""
        if self._core is None and self._raw_core is not None:
            self._core = reduce_points(self._raw_core)
        return self._core

    # -- exact support functions (world directions n, shape (m, 3) or (3,)) -------------------------------
    def core_support_points(self, n) -> np.ndarray:
        """Points of the core (round part of a curved core included, margin excluded) maximising n.x."""
        n = np.atleast_2d(np.asarray(n, dtype=np.float64))
        if self.polytope:
            pts = self._core if self._core is not None else self._raw_core
            return pts[np.argmax(n @ pts.T, axis=1)]
        d = n @ self.L  # = (L^T n^T)^T, local directions
        s = self.spec
        if s.kind == "sphere":
            loc = s.radius * _unit_rows(d)
        elif s.kind == "capsule":
            loc = s.radius * _unit_rows(d)
            loc[:, 2] += np.where(d[:, 2] >= 0.0, s.half_height, -s.half_height)
        elif s.kind == "cylinder":
            loc = _rim(d, s.radius)
            loc[:, 2] = np.where(d[:, 2] >= 0.0, s.half_height, -s.half_height)
        elif s.kind == "cone":
            rim = _rim(d, s.radius)
            rim[:, 2] = -s.half_height
            apex = np.array([0.0, 0.0, s.half_height])
            use_apex = (d @ apex) >= np.einsum("ij,ij->i", d, rim)
            loc = np.where(use_apex[:, None], apex[None, :], rim)
        else:  # pragma: no cover
            raise ValueError(s.kind)
        return loc @ self.L.T + self.t

    def h(self, n) -> np.ndarray:
        """Support function of the whole shape (sweep included) for unit directions n: max over the shape of n.x."""
        n = np.atleast_2d(np.asarray(n, dtype=np.float64))
        return np.einsum("ij,ij->i", n, self.core_support_points(n)) + self.sweep * np.linalg.norm(n, axis=1)

    def local_point(self, p) -> np.ndarray:
        return np.linalg.solve(self.L, np.asarray(p, dtype=np.float64) - self.t)


def _unit_rows(d: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(d, axis=1)
    out = np.zeros_like(d)
    ok = norm > 0.0
    out[ok] = d[ok] / norm[ok, None]
    out[~ok] = [0.0, 0.0, 1.0]
    return out


def _rim(d: np.ndarray, radius: float) -> np.ndarray:
    rxy = np.hypot(d[:, 0], d[:, 1])
    out = np.zeros_like(d)
    ok = rxy > 0.0
    out[ok, 0] = radius * d[ok, 0] / rxy[ok]
    out[ok, 1] = radius * d[ok, 1] / rxy[ok]
    out[~ok, 0] = radius
    return out


def geometry(spec, ref=None) -> Geo:
    """The oracle's view of a spec (or raw vertex array) relative to `ref`; a Geo passes through."""
    if isinstance(spec, Geo):
        return spec
    return Geo(as_spec(spec), ref)


# ----------------------------------------------------------------------------------------------- point sets

def _affine_frame(points: np.ndarray):
    """(centre, basis rows by decreasing extent, extents along them, rank)."""
    centre = points.mean(axis=0)
    x = points - centre
    if len(points) == 1:
        return centre, np.eye(3), np.zeros(3), 0
    _, _, vt = np.linalg.svd(x, full_matrices=len(points) < 3)
    proj = x @ vt.T
    extents = proj.max(axis=0) - proj.min(axis=0)
    order = np.argsort(-extents)
    vt, extents = vt[order], extents[order]
    if extents[0] == 0.0:
        return centre, vt, extents, 0
    rank = int(np.count_nonzero(extents > FLAT_REL * extents[0]))
    return centre, vt, extents, rank


def reduce_points(points: np.ndarray) -> np.ndarray:
    """The extreme points of a point set (hull vertices; exact input points, never moved)."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if len(points) <= 8:
        return points.copy()
    centre, basis, _, rank = _affine_frame(points)
    if rank == 3:
        try:
            return points[ConvexHull(points).vertices]
        except QhullError:
            rank = 2
    if rank == 2:
        uv = (points - centre) @ basis[:2].T
        try:
            return points[ConvexHull(uv).vertices]
        except QhullError:
            rank = 1
    if rank == 1:
        t = (points - centre) @ basis[0]
        return points[[int(np.argmin(t)), int(np.argmax(t))]]
    return points[:1].copy()


def _closest_on_segments(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Closest points to p on segments [a_i, b_i] (degenerate segments allowed)."""
    ab = b - a
    den = np.einsum("ij,ij->i", ab, ab)
    num = np.einsum("ij,ij->i", p - a, ab)
    t = np.zeros_like(den)
    ok = den > 0.0
    t[ok] = np.clip(num[ok] / den[ok], 0.0, 1.0)
    return a + t[:, None] * ab


def _triangle_normals(tri: np.ndarray) -> np.ndarray:
    """Unnormalised normals (b - a) x (c - a) of triangles (T, 3, 3), each computed from its two *shortest*
    edges: on a sliver the long edges carry rounding of the order of eps x length, which tilts their cross
    product by eps x long / short, while the short edge between two close points is formed exactly."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    e0, e1, e2 = b - a, c - b, a - c  # (e0 x e1) == (e1 x e2) == (e2 x e0) == (b - a) x (c - a)
    lens = np.stack([np.einsum("ij,ij->i", e, e) for e in (e0, e1, e2)], axis=1)
    longest = np.argmax(lens, axis=1)
    n = np.cross(e0, e1)
    n = np.where((longest == 0)[:, None], np.cross(e1, e2), n)
    n = np.where((longest == 1)[:, None], np.cross(e2, e0), n)
    return n


def _closest_on_triangles(tri: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Closest point to p on each triangle (T, 3, 3); degenerate triangles fall back to their edges."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    cands = [_closest_on_segments(a, b, p), _closest_on_segments(b, c, p), _closest_on_segments(c, a, p)]
    n = _triangle_normals(tri)
    nn = np.einsum("ij,ij->i", n, n)
    size = np.maximum.reduce([np.einsum("ij,ij->i", e, e) for e in (b - a, c - b, a - c)])
    ok = nn > 1e-24 * size * size
    proj = np.repeat(p[None, :], len(tri), axis=0).astype(np.float64)
    if np.any(ok):
        na, a_, b_, c_ = n[ok], a[ok], b[ok], c[ok]
        k = np.einsum("ij,ij->i", na, p - a_) / nn[ok]
        q = p - k[:, None] * na
        # barycentric coordinates of the projection; the candidate is rebuilt from them, so it is always a
        # point of the triangle (a tilted normal can only make the candidate worse, never outside the hull)
        alpha = np.einsum("ij,ij->i", na, np.cross(c_ - b_, q - b_)) / nn[ok]
        beta = np.einsum("ij,ij->i", na, np.cross(a_ - c_, q - c_)) / nn[ok]
        gamma = 1.0 - alpha - beta
        inside = (alpha >= 0.0) & (beta >= 0.0) & (gamma >= 0.0)
        rebuilt = alpha[:, None] * a_ + beta[:, None] * b_ + gamma[:, None] * c_
        proj[ok] = np.where(inside[:, None], rebuilt, np.nan)
    proj[~ok] = np.nan
    stack = np.stack(cands + [proj])  # (4, T, 3)
    dist = np.linalg.norm(stack - p, axis=2)
    dist = np.where(np.isnan(dist), np.inf, dist)
    pick = np.argmin(dist, axis=0)
    return stack[pick, np.arange(len(tri))]


def _facet_offsets(points: np.ndarray, hull) -> tuple[np.ndarray, np.ndarray]:
    """Outward unit normals and offsets (n.x + offset <= 0 inside) of the hull's triangles, recomputed from the
    input points with `_triangle_normals` (qhull only chooses the triangles and orients them)."""
    tri = points[hull.simplices]
    n = _triangle_normals(tri)
    norm = np.linalg.norm(n, axis=1)
    ok = norm > 0.0
    n[ok] /= norm[ok, None]
    flip = np.einsum("ij,ij->i", n, hull.equations[:, :3]) < 0.0
    n[flip] = -n[flip]
    # a (near-)degenerate triangle from qhull's triangulation of a merged facet has no normal of its own:
    # keep qhull's plane for it (a real sliver agrees with qhull to ~1e-10 and keeps the accurate one)
    agree = np.einsum("ij,ij->i", n, hull.equations[:, :3]) > 1.0 - 1e-10
    bad = ~(ok & agree)
    n[bad] = hull.equations[bad, :3]
    # offset from the vertex nearest the origin's side: max over the three vertices keeps the plane outside
    offsets = -np.max(np.einsum("ij,itj->it", n, tri), axis=1)
    return n, offsets


def _any_perpendicular(u: np.ndarray) -> np.ndarray:
    axis = np.eye(3)[int(np.argmin(np.abs(u)))]
    w = np.cross(u, axis)
    return w / np.linalg.norm(w)


def origin_distance(points) -> tuple[float, np.ndarray]:
    """Signed distance of the origin to conv(points) (> 0 outside; a flat set has no inside), and the outward
    unit normal of that hull at its boundary point nearest the origin."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    centre, basis, _, rank = _affine_frame(points)
    if rank == 3:
        try:
            hull = ConvexHull(points)
        except QhullError:
            rank = 2
        else:
            normals, offsets = _facet_offsets(points, hull)
            if np.max(hull.equations[:, 3]) <= 0.0:  # origin inside (or on the boundary), as qhull decides
                k = int(np.argmax(offsets))
                return float(min(offsets[k], 0.0)), normals[k].copy()
            closest = _closest_on_triangles(points[hull.simplices], np.zeros(3))
            norms = np.linalg.norm(closest, axis=1)
            j = int(np.argmin(norms))
            if norms[j] == 0.0:
                return 0.0, normals[int(np.argmax(offsets))].copy()
            return float(norms[j]), -closest[j] / norms[j]
    o = -centre  # the origin relative to the centre
    if rank == 2:
        u, v, w = basis
        uv = (points - centre) @ np.array([u, v]).T
        q = np.array([o @ u, o @ v])
        try:
            hull = ConvexHull(uv)
        except QhullError:
            rank = 1
        else:
            if np.all(hull.equations[:, :2] @ q + hull.equations[:, 2] <= 0.0):
                near2 = q
            else:
                a = np.column_stack([uv[hull.simplices[:, 0]], np.zeros(len(hull.simplices))])
                b = np.column_stack([uv[hull.simplices[:, 1]], np.zeros(len(hull.simplices))])
                cl = _closest_on_segments(a, b, np.array([q[0], q[1], 0.0]))
                j = int(np.argmin(np.linalg.norm(cl[:, :2] - q, axis=1)))
                near2 = cl[j, :2]
            nearest = centre + near2[0] * u + near2[1] * v
            gap = -nearest
            dist = float(np.linalg.norm(gap))
            if dist == 0.0:
                return 0.0, w.copy()
            return dist, gap / dist
    if rank == 1:
        u = basis[0]
        t = (points - centre) @ u
        s = float(np.clip(o @ u, t.min(), t.max()))
        nearest = centre + s * u
        dist = float(np.linalg.norm(nearest))
        if dist == 0.0:
            return 0.0, _any_perpendicular(u)
        return dist, -nearest / dist
    dist = float(np.linalg.norm(centre))
    if dist == 0.0:
        return 0.0, np.array([1.0, 0.0, 0.0])
    return dist, -centre / dist


def minkowski_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a[:, None, :] - b[None, :, :]).reshape(-1, 3)


# ----------------------------------------------------------------------------------------------- queries

def signed_distance(a, b, ref=None) -> tuple[float, np.ndarray]:
    """Exact (d, normal A->B) for two polytope-core shapes (raises ValueError for a curved core)."""
    ga, gb = (a if isinstance(a, Geo) else geometry(a, ref)), (b if isinstance(b, Geo) else geometry(b, ref))
    if not (ga.polytope and gb.polytope):
        raise ValueError("signed_distance needs polytope cores; use bracket() for curved shapes")
    phi, normal = origin_distance(minkowski_difference(ga.core, gb.core))
    return phi - ga.sweep - gb.sweep, normal


def support_separation(a, b, n, ref=None) -> float:
    """min over B of n.b - max over A of n.a for the unit normal n (<= the true signed distance)."""
    ga, gb = (a if isinstance(a, Geo) else geometry(a, ref)), (b if isinstance(b, Geo) else geometry(b, ref))
    n = np.asarray(n, dtype=np.float64)
    n = n / np.linalg.norm(n)
    return float(-gb.h(-n)[0] - ga.h(n)[0])


def distance_to_shape(point, shape, ref=None) -> float:
    """Exact signed distance of a world point to a polytope-core shape (> 0 outside)."""
    g = shape if isinstance(shape, Geo) else geometry(shape, ref)
    if not g.polytope:
        raise ValueError("distance_to_shape needs a polytope core; use point_shape_bracket()")
    p = np.asarray(point, dtype=np.float64) - g.ref
    phi, _ = origin_distance(g.core - p)
    return phi - g.sweep


def _polygon_signed_distance(q: np.ndarray, poly: np.ndarray) -> float:
    """Signed distance of 2D point q to a convex polygon given counter-clockwise."""
    a = poly
    b = np.roll(poly, -1, axis=0)
    e = b - a
    rel = q - a
    cross = e[:, 0] * rel[:, 1] - e[:, 1] * rel[:, 0]
    lens = np.linalg.norm(e, axis=1)
    t = np.clip(np.einsum("ij,ij->i", rel, e) / np.maximum(lens**2, 1e-300), 0.0, 1.0)
    dist = np.linalg.norm(rel - t[:, None] * e, axis=1)
    if np.all(cross >= 0.0):
        return -float(np.min(cross / lens))
    return float(np.min(dist))


def point_shape_bracket(point, shape, ref=None) -> tuple[float, float]:
    """[lo, hi] holding the signed distance of a world point to any shape (exact, lo == hi, for polytopes).

    Curved shapes: the local signed distance s to the untransformed primitive is exact (2D in the meridian
    plane); the world one lies between sigma_min * s and sigma_max * s (L maps local distances by at most
    its singular values)."""
    g = shape if isinstance(shape, Geo) else geometry(shape, ref)
    if g.polytope:
        d = distance_to_shape(point, g)
        return d, d
    s = g.spec
    q = g.local_point(np.asarray(point, dtype=np.float64) - g.ref)
    if s.kind == "sphere":
        loc = float(np.linalg.norm(q)) - s.radius
    elif s.kind == "capsule":
        z = min(max(q[2], -s.half_height), s.half_height)
        loc = float(np.linalg.norm(q - [0.0, 0.0, z])) - s.radius
    else:
        r, h = s.radius, s.half_height
        rq = np.array([math.hypot(q[0], q[1]), q[2]])
        if s.kind == "cylinder":
            poly = np.array([[-r, -h], [r, -h], [r, h], [-r, h]])
        else:
            poly = np.array([[-r, -h], [r, -h], [0.0, h]])
        loc = _polygon_signed_distance(rq, poly)
    lo_s, hi_s = float(g.sigma[-1]), float(g.sigma[0])
    pair = (lo_s * loc, hi_s * loc) if loc >= 0 else (hi_s * loc, lo_s * loc)
    return pair[0] - g.margin, pair[1] - g.margin


def _cap_directions(n: np.ndarray, angle: float, rings: int = 2, per_ring: int = 10) -> np.ndarray:
    u = _any_perpendicular(n)
    v = np.cross(n, u)
    dirs = [n]
    for k in range(1, rings + 1):
        th = angle * k / rings
        for j in range(per_ring):
            ph = 2.0 * math.pi * (j + 0.5 * (k % 2)) / per_ring
            dirs.append(math.cos(th) * n + math.sin(th) * (math.cos(ph) * u + math.sin(ph) * v))
    return np.array(dirs)


def _maximise_separation(ga: Geo, gb: Geo, n0: np.ndarray, scale: float) -> tuple[float, np.ndarray]:
    """Local maximisation of support_separation over unit normals near n0: a vectorised compass search on the
    sphere (32 directions per step, the step halves when no neighbour improves)."""
    best_n = n0 / np.linalg.norm(n0)
    best = float(-gb.h(-best_n)[0] - ga.h(best_n)[0])
    step = 0.05
    phases = 2.0 * math.pi * np.arange(32) / 32
    for _ in range(400):
        if step < 1e-10:
            break
        u = _any_perpendicular(best_n)
        v = np.cross(best_n, u)
        cands = (math.cos(step) * best_n[None, :]
                 + math.sin(step) * (np.cos(phases)[:, None] * u + np.sin(phases)[:, None] * v))
        cands /= np.linalg.norm(cands, axis=1)[:, None]
        vals = -gb.h(-cands) - ga.h(cands)
        k = int(np.argmax(vals))
        if vals[k] > best:
            best, best_n = float(vals[k]), cands[k]
        else:
            step *= 0.5
    return best, best_n


def _difference_support(ga: Geo, gb: Geo, dirs: np.ndarray) -> np.ndarray:
    """Points of the core Minkowski difference A_core - B_core maximising each direction (exact supports)."""
    return ga.core_support_points(dirs) - gb.core_support_points(-dirs)


def bracket(a, b, ref=None, normals=(), scale: float | None = None,
            rel_gap: float = 1e-13, max_rounds: int = 60) -> tuple[float, float, np.ndarray]:
    """Certified [lower, upper] holding the true signed distance (any shapes), and the best normal found.

    A cutting-plane iteration on exact support points of the core difference D = A_core - B_core:
    the hull of any points of D lies inside D, so its signed distance to the origin is an upper bound
    (`upper`); its nearest-boundary normal n is then probed, support_separation(n) being a lower bound
    (`lower`), and the support points of D along n and along small caps around it join the hull.  It stops
    when upper - lower <= rel_gap x scale.  A compass search on support_separation polishes `lower` at the end.
    `normals`: extra candidate unit normals (e.g. the answer's) to probe.  Two polytope cores: exact value."""
    ga, gb = (a if isinstance(a, Geo) else geometry(a, ref)), (b if isinstance(b, Geo) else geometry(b, ref))
    if ga.polytope and gb.polytope:
        d, n = signed_distance(ga, gb)
        return d, d, n
    if scale is None:
        scale = pair_scale(ga, gb)
    sweeps = ga.sweep + gb.sweep
    dirs, _ = _fibonacci_sphere(SPHERE_SAMPLES)
    extra = [np.asarray(m, dtype=np.float64) for m in normals
             if np.all(np.isfinite(m)) and np.linalg.norm(m) > 0.0]
    if extra:
        dirs = np.vstack([dirs] + [m / np.linalg.norm(m) for m in extra])
    points = _difference_support(ga, gb, dirs)
    upper, lower, best_n = math.inf, -math.inf, dirs[0]
    for m in extra:
        sep = support_separation(ga, gb, m)
        if sep > lower:
            lower, best_n = sep, m / np.linalg.norm(m)
    for _ in range(max_rounds):
        points = reduce_points(points)
        phi, n = origin_distance(points)
        upper = min(upper, phi - sweeps)
        sep = support_separation(ga, gb, n)
        if sep > lower:
            lower, best_n = sep, n
        if upper - lower <= rel_gap * scale:
            break
        caps = np.vstack([_cap_directions(n, angle, rings=1, per_ring=6) for angle in (1e-1, 1e-2, 1e-3, 1e-4, 1e-5)])
        points = np.vstack([points, _difference_support(ga, gb, caps)])
    if upper - lower > rel_gap * scale:
        sep, m = _maximise_separation(ga, gb, best_n, scale)
        if sep > lower:
            lower, best_n = sep, m
    return lower, max(upper, lower), best_n


# ----------------------------------------------------------------------------------------------- scale

def world_bounds(g: Geo) -> tuple[np.ndarray, np.ndarray]:
    """World AABB (relative to g.ref) of the whole shape, margin included, from exact supports."""
    eye = np.eye(3)
    hi = np.array([g.h(eye[i])[0] for i in range(3)])
    lo = np.array([-g.h(-eye[i])[0] for i in range(3)])
    return lo, hi


def pair_scale(a, b, ref=None) -> float:
    """max of the two world AABB diagonals (margins included): the scale the touching band multiplies."""
    ga, gb = (a if isinstance(a, Geo) else geometry(a, ref)), (b if isinstance(b, Geo) else geometry(b, ref))
    out = 0.0
    for g in (ga, gb):
        lo, hi = world_bounds(g)
        out = max(out, float(np.linalg.norm(hi - lo)))
    return out


@dataclass(frozen=True)
class Truth:
    """The oracle's answer for one pair: d in [lower, upper] (equal for polytopes), normal, scale."""

    lower: float
    upper: float
    normal: np.ndarray
    scale: float
    exact: bool

    @property
    def d(self) -> float:
        return 0.5 * (self.lower + self.upper)


def truth(a, b, ref=None, normals=()) -> Truth:
    ga, gb = geometry(a, ref), geometry(b, ref)
    scale = pair_scale(ga, gb)
    if ga.polytope and gb.polytope:
        d, n = signed_distance(ga, gb)
        return Truth(d, d, n, scale, True)
    lo, hi, n = bracket(ga, gb, normals=normals, scale=scale)
    return Truth(lo, hi, n, scale, False)
