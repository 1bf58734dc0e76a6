"""Convex shapes described by their support mappings.

A shape is `core (+) ball(sweep)`: a convex *core* given by `core_support(d)` (a point of the core maximising d.x)
plus an optional sphere-swept radius `sweep`.  Splitting the round part off keeps GJK and EPA on polytopes
(points, segments, boxes, vertex clouds) whenever possible, where they converge in finitely many steps; the
radius is added back analytically.  A sphere is a point core, a capsule a segment core, each with its radius in
`sweep` (when the transform is a similarity; a non-uniformly scaled sphere is an ellipsoid with a curved core).
Every shape may also carry a user `margin`, added to `sweep`, in world units.

Transforms are 4x4 affine matrices M = [[L, t], [0, 1]] (rotation, translation, any scale including negative or
zero, shear).  The support of L.X + t along d is L.support_X(L^T d) + t: primitives never transform anything but
the direction and the one support point.  A `PointCloud` is the exception: it transforms its vertices by L once
per pose and caches them (every support is then a single product over them, and the bounds reuse the same
array); the translation is never added to them.

All coordinates are float64.  `shifted(c)` returns the same shape expressed in a frame whose origin is the world
point c; the engine calls it with a point near the pair so that objects far from the world origin keep their
precision (t - c is formed before any vertex is added to it).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = [
    "Shape", "PointCloud", "Sphere", "Box", "Capsule", "Cylinder", "Cone", "as_shape",
]


# --------------------------------------------------------------------------------------------- validation

def _finite_float(value, name: str, *, minimum: float | None = 0.0) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number!r}")
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {number!r}")
    return number


_IDENTITY3 = np.eye(3)
# L counts as s * orthogonal when its Gram matrix L^T L is within this x s^2 of s^2 I (entry-wise): then a sphere's
# or capsule's radius stays a separable round part.  A conditioning threshold, not a user tolerance.
_SIMILARITY_REL = 1e-12
_AFFINE_ROW = np.array([0.0, 0.0, 0.0, 1.0])


def as_transform(transform) -> tuple[np.ndarray | None, np.ndarray]:
    """Split a 4x4 affine matrix into (L or None for identity, t). None means the identity transform."""
    if transform is None:
        return None, np.zeros(3)
    try:
        matrix = np.array(transform, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("transform must be a 4x4 array of numbers") from None
    if matrix.shape != (4, 4):
        raise ValueError(f"transform must have shape (4, 4), got {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("transform contains NaN or infinite values")
    if not np.array_equal(matrix[3], _AFFINE_ROW):
        raise ValueError(f"transform must be affine (last row 0 0 0 1), got last row {matrix[3].tolist()}")
    linear = np.ascontiguousarray(matrix[:3, :3])
    translation = matrix[:3, 3].copy()
    if np.array_equal(linear, _IDENTITY3):
        linear = None
    return linear, translation


def as_matrix(linear: np.ndarray | None, translation: np.ndarray) -> np.ndarray:
    """The 4x4 affine matrix of (L or None, t), `as_transform`'s inverse (a new array)."""
    matrix = np.eye(4)
    if linear is not None:
        matrix[:3, :3] = linear
    matrix[:3, 3] = translation
    return matrix


def as_vertices(vertices, name: str = "vertices") -> np.ndarray:
    """Validate and convert an (n, 3) array-like to a C-contiguous float64 array; ValueError says what is wrong."""
    if isinstance(vertices, np.ndarray) and vertices.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got an array of dtype {vertices.dtype}")
    try:
        array = np.asarray(vertices, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an (n, 3) array of numbers") from None
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n, 3), got {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty: a shape needs at least one vertex")
    if not np.all(np.isfinite(array)):
        bad = int(np.count_nonzero(~np.all(np.isfinite(array), axis=1)))
        raise ValueError(f"{name} contains NaN or infinite coordinates ({bad} of {array.shape[0]} vertices)")
    return np.ascontiguousarray(array)


# --------------------------------------------------------------------------------------------- base class

class Shape:
    """A convex shape: `core_support(d)` plus a sphere-swept radius `sweep` (world units).

    Subclasses implement `_local_support(d)` (support of the untransformed core, d in local coordinates; a point
    cloud instead overrides `core_support` with a search over its transformed vertices) and set `_radius_local`
    (the intrinsic round part: sphere or capsule radius, else 0).
    """

    _radius_local = 0.0
    _support_data = None  # PointCloud only (see PointCloud.support_max); None: use support_max / support_min

    def __init__(self, transform=None, margin: float = 0.0):
        self._origin = np.zeros(3)  # subtracted from every support point (pair-local frame), see shifted()
        self._set_pose(transform)
        self.margin = _finite_float(margin, "margin")

    @property
    def transform(self) -> np.ndarray:
        """The 4x4 affine placement (a new array): a copy made with it lies exactly where this shape is."""
        return as_matrix(self._linear, self._translation)

    def _set_pose(self, transform) -> None:
        """Place the shape with a 4x4 `transform` (None: identity), validated, and forget every cache that
        depends on the pose: they all live in `_pose_cache` (world bounds, similarity factor, transformed
        vertices), so a new pose is one fresh dict.  `shifted` keeps that dict: none of them depends on the
        frame origin (bounds are world coordinates, the transformed vertices carry no translation)."""
        self._linear, self._translation = as_transform(transform)
        self._linear_t = None if self._linear is None else np.ascontiguousarray(self._linear.T)
        self._offset = self._translation - self._origin  # formed before any vertex is added to it
        self._offset_xyz = tuple(self._offset.tolist())
        self._pose_cache = {}
        self._support_data = None  # PointCloud: (vertices, their rows, offset x, y, z), see support_max

    @staticmethod
    def _similarity(linear: np.ndarray | None) -> float | None:
        """The factor s when L = s * orthogonal (within rounding), else None."""
        if linear is None:
            return 1.0
        gram = linear.T @ linear
        s2 = float(np.trace(gram)) / 3.0
        if s2 <= 0.0:
            return None
        if np.max(np.abs(gram - s2 * _IDENTITY3)) <= _SIMILARITY_REL * s2:
            return math.sqrt(s2)
        return None

    @property
    def _similarity_scale(self) -> float | None:
        # Only shapes with a round part ask, once per transform.
        cache = self._pose_cache
        if "similarity" not in cache:
            cache["similarity"] = self._similarity(self._linear)
        return cache["similarity"]

    # The core is everything but the round part that a similarity transform maps to a round part.
    @property
    def _round_is_separable(self) -> bool:
        return self._radius_local > 0.0 and self._similarity_scale is not None

    @property
    def sweep(self) -> float:
        """Total sphere-swept radius in world units: intrinsic radius (sphere, capsule) + margin."""
        if self._round_is_separable:
            return self._radius_local * self._similarity_scale + self.margin
        return self.margin

    def _local_support(self, d: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _local_core_support(self, d: np.ndarray) -> np.ndarray:
        """Support of the local core. Shapes with a round part add it here unless it is separable."""
        return self._local_support(d)

    def core_support(self, d: np.ndarray) -> np.ndarray:
        """World (or shifted-frame) point of the core maximising d.x. d need not be unit, must be nonzero."""
        if self._linear is None:
            return self._local_core_support(d) + self._offset
        return self._linear @ self._local_core_support(self._linear_t @ d) + self._offset

    def support_max(self, d) -> tuple:
        """`core_support(d)` as a 3-tuple of floats; d is any nonzero 3-vector (tuple, list or array)."""
        return tuple(self.core_support(np.array(d, dtype=np.float64)).tolist())

    def support_min(self, d) -> tuple:
        """`core_support(-d)` as a 3-tuple of floats: the core's point minimising d.x."""
        return tuple(self.core_support(-np.array(d, dtype=np.float64)).tolist())

    def support(self, d: np.ndarray) -> np.ndarray:
        """Point of the whole shape (core + sweep) maximising d.x."""
        d = np.asarray(d, dtype=np.float64)
        point = self.core_support(d)
        sweep = self.sweep
        if sweep > 0.0:
            norm = math.sqrt(float(d @ d))
            if norm > 0.0:
                point = point + (sweep / norm) * d
        return point

    def moved(self, transform) -> "Shape":
        """The same shape (same local data and margin) placed with another 4x4 `transform` (None: identity).

        For repeated queries on one shape in changing poses: the local data is not validated or copied again."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._set_pose(transform)
        return clone

    def shifted(self, origin) -> "Shape":
        """The same shape in a frame whose origin is the world point `origin` (support points minus origin)."""
        clone = object.__new__(type(self))
        state = clone.__dict__
        state.update(self.__dict__)
        clone._origin = self._origin + np.asarray(origin, dtype=np.float64)
        clone._offset = offset = self._translation - clone._origin
        clone._offset_xyz = xyz = tuple(offset.tolist())
        data = state.get("_support_data")
        if data is not None:
            clone._support_data = data[:2] + xyz
        return clone

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """World axis-aligned bounding box (lo, hi) of the whole shape, margin included (cached)."""
        bounds = self._pose_cache.get("bounds")
        if bounds is None:
            lo, hi = self._core_bounds()
            lo = lo + (self._translation - self._offset) - self.sweep  # undo any shift: world coordinates
            hi = hi + (self._translation - self._offset) + self.sweep
            bounds = self._pose_cache["bounds"] = (lo, hi)
        return bounds

    def _core_vertices(self) -> np.ndarray | None:
        """Local vertices of the core when it is a polytope (its bounds are then theirs), else None."""
        return None

    def core_vertex_count(self) -> int:
        """How many vertices the polytope core has (0 for a curved core); EPA's iteration cap grows with it."""
        local = self._core_vertices()
        return 0 if local is None else int(local.shape[0])

    def _world_core_vertices(self) -> np.ndarray | None:
        """The core's vertices with the transform's linear part applied (no translation), or None."""
        local = self._core_vertices()
        if local is None:
            return None
        return local if self._linear is None else local @ self._linear_t

    def _core_bounds(self):
        """AABB of the core in the current frame: from the core's vertices, or from six support queries."""
        world = self._world_core_vertices()
        if world is not None:
            # Per-column reductions: numpy's axis=0 min/max over an (n, 3) array is several times slower.
            lo = np.array([world[:, 0].min(), world[:, 1].min(), world[:, 2].min()])
            hi = np.array([world[:, 0].max(), world[:, 1].max(), world[:, 2].max()])
            return lo + self._offset, hi + self._offset
        hi = np.array([self.core_support(_IDENTITY3[i])[i] for i in range(3)])
        lo = np.array([self.core_support(-_IDENTITY3[i])[i] for i in range(3)])
        return lo, hi

    def __repr__(self) -> str:
        return f"{type(self).__name__}(margin={self.margin!r})"


# --------------------------------------------------------------------------------------------- point cloud

# Point clouds up to this many vertices list their rows at once for the support queries (see
# `PointCloud._make_support_data`); larger ones convert a row when it is first looked up.
_LISTED_ROWS = 4096


class _Rows(dict):
    """The rows of a (n, 3) array as Python float lists (the same floats as `array.tolist()`), each converted the
    first time it is looked up and kept: a hit is one dict lookup, no Python call."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        super().__init__()
        self.array = array

    def __missing__(self, i) -> list:
        row = self[i] = self.array[i].tolist()
        return row


class PointCloud(Shape):
    """The convex hull of an (n, 3) vertex array (duplicates, coplanar, collinear, or a single point are fine)."""

    # Core-internal: a cloud queried about once per pose (a mesh's hull shape, core/mesh/query.py) sets a lower
    # limit than `_LISTED_ROWS` on itself: its few support lookups then convert only the rows they take.
    _listed_rows = _LISTED_ROWS

    def __init__(self, vertices, transform=None, margin: float = 0.0):
        super().__init__(transform, margin)
        # A read-only *view*: the caller's own array (as_vertices may return it as is) stays writeable.
        self.vertices = as_vertices(vertices).view()
        self.vertices.setflags(write=False)

    def _core_vertices(self):
        return self.vertices

    def core_vertex_count(self) -> int:
        return int(self.vertices.shape[0])

    def _world_core_vertices(self) -> np.ndarray:
        """Cached: every support is then one product, and the bounds reuse the same array, so a one-shot query
        pays nothing extra for it."""
        world = self._pose_cache.get("world")
        if world is None:
            world = self._pose_cache["world"] = super()._world_core_vertices()
        return world

    def core_support(self, d: np.ndarray) -> np.ndarray:
        world = self._world_core_vertices()
        return world[world.dot(d).argmax()] + self._offset  # the product `support_max` makes

    def _make_support_data(self) -> tuple:
        """(transformed vertices, their rows as Python float lists, offset x, y, z) for `support_max`: the rows
        are cached per pose like the array, the tuple per frame (`shifted` renews the offset).  Up to
        `_listed_rows` vertices the rows are one list made at once; above it each row is converted when it is
        first looked up (`_Rows`: the same floats), since a query looks up one row per support (a few hundred on
        such clouds, which switch to the hulls early) and converting 20,000 rows cost ~8 ms per shape."""
        world = self._world_core_vertices()
        rows = self._pose_cache.get("rows")
        if rows is None:
            rows = world.tolist() if world.shape[0] <= self._listed_rows else _Rows(world)
            self._pose_cache["rows"] = rows
        data = self._support_data = (world, rows) + self._offset_xyz
        return data

    # The solvers' hot path (`minkowski.minkowski_support`): one product over the cached vertices and a lookup
    # in their list copy; the offset is added in Python floats, which round exactly as numpy's float64 addition
    # in `core_support` does.  argmin(X.d) is argmax(X.(-d)): negating d negates every product and sum exactly.
    def support_max(self, d) -> tuple:
        world, rows, ox, oy, oz = self._support_data or self._make_support_data()
        x, y, z = rows[world.dot(d).argmax()]
        return (x + ox, y + oy, z + oz)

    def support_min(self, d) -> tuple:
        world, rows, ox, oy, oz = self._support_data or self._make_support_data()
        x, y, z = rows[world.dot(d).argmin()]
        return (x + ox, y + oy, z + oz)

    def shifted(self, origin) -> "PointCloud":
        if self._support_data is None:
            self._make_support_data()  # once per pose: every shifted copy then reuses the vertex rows
        return super().shifted(origin)

    def core_supports(self, directions: np.ndarray) -> np.ndarray:
        """`core_support` along each row of the (k, 3) array `directions`, as one (k, n) product: (k, 3) points."""
        world = self._world_core_vertices()
        return world[(directions @ world.T).argmax(axis=1)] + self._offset

    def __repr__(self) -> str:
        return f"PointCloud({self.vertices.shape[0]} vertices, margin={self.margin!r})"


# --------------------------------------------------------------------------------------------- primitives
# Each primitive sits at its local origin with its axis along local z; place it with `transform`.

class Sphere(Shape):
    """Ball of `radius` centred at the local origin (an ellipsoid under a non-uniform transform)."""

    def __init__(self, radius: float, transform=None, margin: float = 0.0):
        self.radius = _finite_float(radius, "radius")
        self._radius_local = self.radius
        super().__init__(transform, margin)

    def _local_core_support(self, d):
        if self._round_is_separable:
            return np.zeros(3)
        return self._local_support(d)

    def _core_vertices(self):
        return np.zeros((1, 3)) if self._round_is_separable else None

    def _local_support(self, d):
        norm = math.sqrt(float(d @ d))
        return (self.radius / norm) * d if norm > 0.0 else np.array([0.0, 0.0, self.radius])


class Box(Shape):
    """Axis-aligned box with the given half extents (hx, hy, hz). Its support is always a vertex."""

    def __init__(self, half_extents, transform=None, margin: float = 0.0):
        half = np.array([_finite_float(h, "half extent") for h in np.ravel(np.asarray(half_extents, dtype=object))])
        if half.shape != (3,):
            raise ValueError(f"half_extents must have 3 values, got {half.shape[0]}")
        self.half_extents = half
        super().__init__(transform, margin)

    def _local_support(self, d):
        return np.where(d >= 0.0, self.half_extents, -self.half_extents)

    def _core_vertices(self):
        signs = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])
        return signs * self.half_extents


class Capsule(Shape):
    """Segment from (0, 0, -half_height) to (0, 0, +half_height) swept by `radius`."""

    def __init__(self, radius: float, half_height: float, transform=None, margin: float = 0.0):
        self.radius = _finite_float(radius, "radius")
        self.half_height = _finite_float(half_height, "half_height")
        self._radius_local = self.radius
        super().__init__(transform, margin)

    def _segment_support(self, d):
        return np.array([0.0, 0.0, self.half_height if d[2] >= 0.0 else -self.half_height])

    def _local_core_support(self, d):
        if self._round_is_separable:
            return self._segment_support(d)
        return self._local_support(d)

    def _core_vertices(self):
        if not self._round_is_separable:
            return None
        return np.array([[0.0, 0.0, -self.half_height], [0.0, 0.0, self.half_height]])

    def _local_support(self, d):
        point = self._segment_support(d)
        norm = math.sqrt(float(d @ d))
        return point + (self.radius / norm) * d if norm > 0.0 else point


def _disc_point(d, radius: float) -> np.ndarray:
    """Point of the disc {x^2 + y^2 <= r^2, z = 0} maximising d.x (a rim point; (r, 0) when d is along z)."""
    rxy = math.hypot(float(d[0]), float(d[1]))
    if rxy > 0.0:
        return np.array([radius * d[0] / rxy, radius * d[1] / rxy, 0.0])
    return np.array([radius, 0.0, 0.0])


class Cylinder(Shape):
    """Cylinder of `radius` between z = -half_height and z = +half_height."""

    def __init__(self, radius: float, half_height: float, transform=None, margin: float = 0.0):
        self.radius = _finite_float(radius, "radius")
        self.half_height = _finite_float(half_height, "half_height")
        super().__init__(transform, margin)

    def _local_support(self, d):
        point = _disc_point(d, self.radius)
        point[2] = self.half_height if d[2] >= 0.0 else -self.half_height
        return point


class Cone(Shape):
    """Cone with its base disc of `radius` at z = -half_height and its apex at z = +half_height."""

    def __init__(self, radius: float, half_height: float, transform=None, margin: float = 0.0):
        self.radius = _finite_float(radius, "radius")
        self.half_height = _finite_float(half_height, "half_height")
        super().__init__(transform, margin)

    def _local_support(self, d):
        rim = _disc_point(d, self.radius)
        rim[2] = -self.half_height
        apex = np.array([0.0, 0.0, self.half_height])
        return apex if float(apex @ d) >= float(rim @ d) else rim


def as_shape(value, name: str = "shape") -> Shape:
    """A Shape as is, or an (n, 3) array-like of vertices as a PointCloud."""
    if isinstance(value, Shape):
        return value
    return PointCloud(as_vertices(value, name))
