"""Named pairs of closed meshes that certainly overlap, with their translational penetration depth worked out by
hand (tests/core/test_mesh_depth_interval.py): each case is (A, B, low, high) with the depth in [low, high]
(equal when it is known exactly, a bracket where faceting makes it awkward); and, for core/mesh/depth_sweep.py's
tests, the free length of two boxes by hand and the sweep of their triangles."""
from __future__ import annotations

import numpy as np

from core.mesh.depth_sweep import Sweep

from .meshes import ball, box, crate, cup, join, l_shape, mesh, revolve, torus, translate


def _rotation(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1.0 - np.cos(angle)) * k @ k


def _placed(pair, rotation=None, offset=(0.0, 0.0, 0.0)):
    v, t = pair
    if rotation is not None:
        v = v @ np.asarray(rotation).T
    return v + np.asarray(offset, float), t


def bar_through_l():
    """A bar pierces the L's lower arm ([0,2]x[0,1]x[0,1]) upright: its square [1.3,1.7]x[0.3,0.7] must leave the
    arm's rectangle; +x, +y and -y each take 0.7 (after +y it clears the upper arm, which spans x in [0,1])."""
    return mesh(l_shape()), mesh(box((1.3, 0.3, -1.0), (1.7, 0.7, 2.0))), 0.7, 0.7


def ball_in_crate_wall():
    """A UV sphere of radius 0.5 (its equator has a vertex on the -x axis) sunk 0.3 into the crate's flat outer
    wall x = 3 ([0,3]^3 with a [1,2]^3 cavity): out along +x by 0.3, and no shorter way (a convex body against a
    flat wall much larger than it)."""
    return mesh(crate()), mesh(translate(ball(0.5, 48, 24), (3.2, 1.5, 1.5))), 0.3, 0.3


def box_in_crate_floor():
    """A box wholly inside the crate's floor (z in [0,1]): containment; it escapes down by 0.4 (its top at 0.4),
    up into the cavity takes 0.9, sideways more."""
    return mesh(crate()), mesh(box((1.2, 1.2, 0.1), (1.8, 1.8, 0.4))), 0.4, 0.4


def rod_across_torus_tube():
    """A square rod (half-width 0.1) through a torus's tube (major 1, minor 0.25) at its outermost vertex ring:
    +x by 0.35 puts the rod's face on the vertex at (1.25, 0, 0), and the tube's polygon lies inside the circle;
    -x takes longer (the inner wall at y = 0.1 is at x < 0.75)."""
    return mesh(torus()), mesh(translate(box((-0.1, -0.1, -2.0), (0.1, 0.1, 2.0)), (1.0, 0.0, 0.0))), 0.35, 0.35


def crossing_links():
    """Two chain links (tori, major 1, minor 0.2, finely faceted) interlocked, B's ring in the xz-plane through
    A's hole, with their tubes crossing: the centre circles pass 0.3 apart (at (1,0,0) and (0.7,0,0)), locally
    perpendicular, so B moves 0.1 along -x before the tubes touch.  Faceting (the tube polygons lie inside their
    circles by at most 0.2 (1 - cos(pi/48))) makes it a little less."""
    a = torus(1.0, 0.2, 192, 48)
    b = _placed(torus(1.0, 0.2, 192, 48), _rotation((1, 0, 0), np.pi / 2), (1.7, 0.0, 0.0))
    slack = 2 * 0.2 * (1 - np.cos(np.pi / 48)) + 2 * 1.2 * (1 - np.cos(np.pi / 192))
    return mesh(a), mesh(b), 0.1 - slack, 0.1


def ball_in_cup_wall():
    """A ball of radius 0.3 sunk into the cup's wall (radii 0.8 to 1): out through the outer wall along +x needs
    its inner extreme (0.65) to reach the wall, about 0.35; the facets make it between 0.33 and 0.35."""
    return mesh(cup()), mesh(translate(ball(0.3), (0.95, 0.0, 0.8))), 0.33, 0.35


def torus_copy_in_place():
    """A torus (major 1, minor 0.25, its tube polygon with vertices at the top and bottom) and its copy in place
    (Shift+D): lifting the copy by the tube's height, 0.5, parts them, and no shorter move does (any move with a
    horizontal part must carry the ring off itself)."""
    return mesh(torus()), mesh(torus()), 0.5, 0.5


def cylinder(radius, half, n=32):
    return revolve([(0.0, -half), (radius, -half), (radius, half), (0.0, half)], n)


def bevelled_cube(size=1.0, bevel=0.1, dent=2e-5):
    """A cube with chamfered edges and corners (the hull of a cube's corners pulled in along each pair of axes),
    each face dented a little at its centre, the vertices rounded to float32 as Blender stores them: nearly convex,
    not convex."""
    s, b = 0.5 * size, 0.5 * size - bevel
    points = []
    for sign in np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float):
        for pick in ((s, b, b), (b, s, b), (b, b, s)):
            points.append(sign * np.array(pick))
    points = np.array(points)
    from scipy.spatial import ConvexHull
    hull = ConvexHull(points)
    tris = hull.simplices.copy()
    centre = points.mean(axis=0)
    for k, (i, j, l) in enumerate(tris):
        if np.dot(np.cross(points[j] - points[i], points[l] - points[i]), points[i] - centre) < 0:
            tris[k] = (i, l, j)
    # each hull triangle split into a fan about its centroid, dented inwards by `dent`: the surface is then not
    # convex (like Blender's bevel with its n-gons triangulated and rounded to float32, only more so)
    corners = points[tris]
    centroids = corners.mean(axis=1)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    centroids -= dent * normals
    base = len(points)
    fan = []
    for k, (i, j, l) in enumerate(tris):
        c = base + k
        fan += [(i, j, c), (j, l, c), (l, i, c)]
    vertices = np.concatenate([points, centroids])
    return vertices.astype(np.float32).astype(np.float64), np.array(fan)


def bevelled_cube_far_against_cylinder(far=1e4):
    """The bevelled cube, turned, scaled by 1.7 and placed far from the origin (through its transform), sunk into
    an upright cylinder's side; the depth comes from a directional search in the test (no closed form)."""
    v, t = bevelled_cube()
    rotation = _rotation((0.3, 1.0, 0.2), 0.7) * 1.7
    transform = np.eye(4)
    transform[:3, :3] = rotation
    transform[:3, 3] = (far + 0.95, far, far)
    cyl = translate(cylinder(0.6, 1.0), (far, far, far))
    return mesh((v, t), transform), mesh(cyl), None, None


NAMED = {
    "bar through an L": bar_through_l,
    "ball in a crate wall": ball_in_crate_wall,
    "box in a crate floor": box_in_crate_floor,
    "rod across a torus tube": rod_across_torus_tube,
    "crossing chain links": crossing_links,
    "ball in a cup wall": ball_in_cup_wall,
    "torus and its copy in place": torus_copy_in_place,
}


def box_free_length(lo_a, hi_a, lo_b, hi_b, d) -> float:
    """Worked by hand: two axis-aligned boxes have disjoint interiors exactly when their ranges along some axis k
    meet in at most a point, so box B moved by t d (unit d) is first free at min over k of t_k, with
    t_k = (hi_a[k] - lo_b[k]) / d[k] for d[k] > 0 and (lo_a[k] - hi_b[k]) / d[k] for d[k] < 0 (an axis with
    d[k] = 0 never frees it)."""
    t = []
    for k in range(3):
        if d[k] > 0.0:
            t.append((hi_a[k] - lo_b[k]) / d[k])
        elif d[k] < 0.0:
            t.append((lo_a[k] - hi_b[k]) / d[k])
    return min(t)


def box_pair_sweep(lo_a, hi_a, lo_b, hi_b, held=False):
    """core/mesh/depth_sweep.py's `Sweep` of two boxes' triangles, every pair handed to it."""
    va, ta = box(lo_a, hi_a)
    vb, tb = box(lo_b, hi_b)
    ia, ib = np.meshgrid(np.arange(len(ta)), np.arange(len(tb)), indexing="ij")
    scale = float(np.linalg.norm(np.maximum(hi_a, hi_b) - np.minimum(lo_a, lo_b)))
    return Sweep(va[ta[ia.ravel()]], vb[tb[ib.ravel()]], scale, held=held)
