"""The public queries: `collide`, `intersects`, `distance`, for convex shapes and triangle meshes alike.

Two convex shapes (`core.Shape`s or (n, 3) vertex arrays, each standing for its convex hull) go to the convex
query (core/convex.py: GJK, then EPA); two `core.TriangleMesh`es to the mesh query (core/mesh/query.py).  A mesh
against a convex shape is a ValueError that says so.
"""
from __future__ import annotations

from .contact import Contact, Status
from .convex import as_direction, as_max_distance, collide_convex, intersects_convex
from .mesh import TriangleMesh, collide_meshes
from .tolerances import DEFAULT_TOLERANCES, Tolerances

__all__ = ["collide", "intersects", "distance"]


def collide(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES, *, max_distance=None, direction=None,
            history=None, depth_interval: bool = True, progress=None) -> Contact:
    """Full answer for two shapes: status, signed distance, normal (A towards B) and points, in world space.

    a, b: `core.Shape` instances or (n, 3) vertex arrays (each standing for its convex hull).
    max_distance: None (the default: always the full answer) or a distance >= 0 in world units.  GJK then stops as
      soon as its certified lower bound on the distance exceeds max(max_distance, touching tolerance); the answer
      is SEPARATED with `beyond_max_distance=True` and `distance` = that lower bound (> max_distance; the true
      distance is at least that), `point_a`, `point_b`, `normal` the best found so far (`gap` = their distance
      minus the bound; `converged` False: the distance is a bound, not certified to the gap tolerance).  A pair
      not proven farther gets the full answer (`beyond_max_distance=False`), even when its distance turns out
      larger than max_distance.
    When either is a `core.TriangleMesh`, both must be: the mesh query answers (core/mesh/query.py).
    direction: None, or a guess of the direction from A towards B, e.g. the normal of the previous answer for the
      same pair (a warm start for repeated queries: live re-checks, sweeps).  GJK starts its search there instead of
      along the line between the bounding-box centres; the answer is the same, only the work differs.  A zero
      vector means no guess.  Convex shapes only (meshes ignore it).
    history: None, or a `core.PairHistory` kept by the caller for this pair of TriangleMeshes (live re-checks,
      sweeps: core/mesh/coherence.py): the query starts from what the last one of the pair learnt; the answer is
      the same as without it.  Meshes only (convex shapes ignore it).
    depth_interval: meshes only.  True (the default): an intersecting answer's interval [depth, depth + gap] is
      narrowed and `separation` is the shortest verified move (core/mesh/depth_interval.py).  False: the same
      status, crossing curve and containment with the loose interval (the deepest sample and the hulls' move), for
      callers that only need the verdict (repeated re-checks).  Convex answers are exact either way.
    progress: None, or a hook called with a `core.Progress` between units of the long work (an intersecting mesh
      pair's depth interval: core/progress.py); it may raise `core.Cancelled`, which stops the query and is raised
      on.  It never changes an answer that completes.
    Raises ValueError on invalid input (empty, wrong shape, NaN/inf, non-numeric, negative max_distance)."""
    limit = as_max_distance(max_distance)
    guess = as_direction(direction)
    if isinstance(a, TriangleMesh) or isinstance(b, TriangleMesh):
        return collide_meshes(a, b, tolerances, limit, history=history, depth_interval=depth_interval,
                              progress=progress)
    return collide_convex(a, b, tolerances, max_distance=limit, direction=guess)


def intersects(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """True when the shapes share a point within the touching band (status TOUCHING or INTERSECTING).

    The boolean GJK: it stops as soon as a separating plane farther than the band is found.
    TriangleMeshes go through the mesh query (core/mesh/query.py)."""
    if isinstance(a, TriangleMesh) or isinstance(b, TriangleMesh):
        return collide_meshes(a, b, tolerances, depth_interval=False).status is not Status.SEPARATED
    return intersects_convex(a, b, tolerances)


def distance(a, b, tolerances: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Signed distance in world units: > 0 separation, < 0 penetration depth (same value as collide().distance)."""
    return collide(a, b, tolerances).distance
