"""Non-convex triangle meshes: `TriangleMesh`, loose parts, volume and convexity, and the mesh-mesh query.

One mesh on its own (3D printing): `self_intersections(mesh)` (where the surface crosses itself, the rule in
core/mesh/selfcross.py) and `part_clearance(mesh, clearance)` (pairs of loose parts closer than a gap, as
`PartGap` records, core/mesh/clearance.py).

`core.collide(a, b)` routes here when either argument is a `TriangleMesh` (both must be; a convex `Shape` or a
vertex array against a mesh is a ValueError that says so).  The answer is a `core.Contact` with the usual
conventions (core/contact.py), exact for the triangles:

- SEPARATED: `distance` is the minimum distance between the two surfaces (to `PRUNE` x scale, see
  core/mesh/query.py), `point_a` on A's surface and `point_b` on B's are closest points,
  `normal = (point_b - point_a) / distance`; `gap` is 0 unless a work cap was reached (then the exact distance
  lies in [distance - gap, distance], `converged` is False and `iteration_cap_hit` True);
- TOUCHING: the surfaces come within the touching band without crossing and neither holds the other.  Coplanar
  overlapping triangles touch (distance 0); they never cross; nor do triangles that cross only within the band
  (a crossing segment no longer than the band, or one triangle reaching no farther than the band past the
  other's plane on one of its sides: faces in contact that rounding makes cross, far from the origin or under a
  skew transform), unless some point lies inside the other mesh deeper than the band;
- INTERSECTING: the surfaces cross (`intersection` holds the crossing curve as world segments), or a closed mesh
  holds a loose part of the other (`containment` says A_INSIDE_B / B_INSIDE_A when one lies wholly inside the
  other with no crossing; a closed mesh that touches the other's surface from inside, like a box resting on the
  inner floor of a bigger box, is contained: its contact lines are not crossings).  Only closed meshes have an inside (`open_a` / `open_b` flag the others); an open
  surface never contains anything.

What depth means for non-convex meshes.  `distance = -depth`, where depth is a *lower bound* of the shortest
translation of B that separates the two solids (so it never exceeds the convex hulls' penetration depth), the
largest of:
1. how deep a point of one solid lies inside the other closed mesh, i.e. its distance to that mesh's surface
   (any point p of A, on its surface or inside closed A, that lies inside closed B at distance d from B's
   surface stays inside B while B moves less than d, so the overlap persists).  Points tried: the corners of
   the first triangle of every loose part, a sample of 64 vertices, the corners and centroids of triangles at
   the contact, for crossing triangle pairs a point of the triangle on each side of the other's plane and
   points stepped off the crossing segment within the triangle (so two bars crossing with no vertex inside still
   get a positive depth), and, for a closed mesh, points just behind its contact faces that its own winding
   number puts inside it (so identical or coplanar-coincident solids get a positive depth);
2. the convex engine's EPA depth of the deepest intersecting pair of exactly convex loose parts (closed parts
   that pass the convexity test of core/topology.py) whose boxes meet no other loose part of their own mesh
   with a positive volume (a part holding a cavity shell, like a crate's outer box, is no convex solid there).
3. for two closed, nearly convex meshes (core/mesh/inner.py: a float32 UV Sphere or subdivided cube whose faces
   fold by a hair, so the exact convexity test rejects them), the hulls' depth minus how far each mesh's proved
   inner body (its hull shrunk about a centre, shown to lie inside the mesh) falls short of its hull: the depth of
   the two inner bodies is at least that.  When this is beyond the touching band, the pair is answered from it
   alone (no point samples), with the crossing curve and containment of `crossing_and_containment`.
For closed meshes this is then narrowed (core/mesh/depth_interval.py, unless `depth_interval=False`): the ball
bound d(p, ∂A) + d(p, ∂B) maximised over points p inside both, and the convex depth of local inner polytopes
of A and B around such a point, whichever is larger.
`gap`: the shortest separating translation lies in [depth, depth + gap], and `separation` is a world translation
of B of length depth + gap that a re-check of the moved pair proves separating (TOUCHING or SEPARATED): the
shortest verified move along a few directions (the bounds' own, the hulls'), or the convex hulls' move (it
separates the hulls, hence the meshes) when none is found or the work budget runs out.  Open meshes (a sheet
crossing a solid) have no inside: the depth stays the samples' bound (0 for two open sheets) and the move is the
hulls'.  Containment (one closed mesh inside the other): the depth is that of the inner solid's escape, the same
bounds apply, and a move that leaves it inside is not separating.
`point_a` and `point_b` are the witness of that bound (for the ball bound: p pushed to A's side and to B's along
the normal, which points from B's nearest surface point towards A's; for the polytopes: the convex engine's
witness): for (1) with a point p of A inside B, point_a = p (on
A's surface or, for the points behind a contact, inside A) and point_b = the closest point of B's surface (point_a - point_b = depth * normal); the mirror for a point of B
inside A; for (2) the convex engine's witness points; for (3) the hulls' witness points, each pulled in along the
normal by its mesh's shortfall.  The depth is 0 only when no point strictly inside is
found, which happens when the overlap has no volume (open surfaces crossing, coplanar contact); the points are
then a point of the crossing curve and `fallback_used` is True.
"""
from .clearance import PartGap, part_clearance, part_clearance_steps
from .coherence import PairHistory
from .overlap import Overlap, overlap
from .parts import is_convex, loose_part_count, loose_parts, volume
from .query import collide_meshes
from .selfcross import self_crossings, self_intersections
from .trimesh import TriangleMesh

__all__ = ["TriangleMesh", "collide_meshes", "loose_parts", "loose_part_count", "volume", "is_convex",
           "self_intersections", "self_crossings", "part_clearance", "part_clearance_steps", "PartGap", "overlap",
           "Overlap", "PairHistory"]
