"""Collision Inspector's engine: exact collision queries (convex shapes, triangle meshes, many pairs at once) in
pure Python + numpy.

    >>> import numpy as np, core
    >>> cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    >>> c = core.collide(cube, cube + [1.5, 0, 0])
    >>> c.status.name, round(c.distance, 12), c.normal.tolist()
    ('SEPARATED', 0.5, [1.0, 0.0, 0.0])

Importable on its own (the repository root on sys.path): it never imports Blender or anything of the add-on.
A vertex array stands for its convex hull; `TriangleMesh` is a non-convex surface (core/mesh/).  See
`core.contact` for the sign conventions.
"""
from .batch import ShapeBatch, collide_many, find_clashes
from .broadphase import candidate_pairs
from .contact import Contact, Containment, Status
from .epa import EPAOutcome
from .mesh import Overlap, PairHistory, TriangleMesh, overlap
from .parts import collide_worst
from .polytope import ConvexPolytope
from .progress import Cancelled, Progress, Stage
from .query import collide, distance, intersects
from .shapes import Box, Capsule, Cone, Cylinder, PointCloud, Shape, Sphere, as_shape
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = [
    "collide", "intersects", "distance", "collide_worst",
    "Contact", "Containment", "Status", "EPAOutcome", "Tolerances", "DEFAULT_TOLERANCES",
    "Shape", "PointCloud", "ConvexPolytope", "Sphere", "Box", "Capsule", "Cylinder", "Cone", "as_shape",
    "TriangleMesh", "overlap", "Overlap", "PairHistory",
    "candidate_pairs", "ShapeBatch", "collide_many", "find_clashes",
    "Progress", "Stage", "Cancelled",
]
