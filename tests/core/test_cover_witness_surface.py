"""A covering's bound r needs witness points (core/mesh/depth_interval.py `_cover_witness`): a segment of length r
from the centre (a point inside both solids) to a point of its own mesh.  When no ray end from the centre lies
inside either mesh (r longer than the centre's reach along every direction tried), a point of A's surface at
distance r serves: found on a segment of a triangle (an edge, or from its centroid to a corner) whose ends lie
either side of r.

Hand-worked: A = B = the cube [-1, 1]^3, centre the origin, r = 1.73.  A point at distance 1.73 inside the cube has
every |coordinate| <= 1, so its direction u has every |u_i| <= 1 / 1.73 = 0.578: within about 0.012 rad of a
diagonal (which has |u_i| = 0.577), a cone none of the directions tried hits (checked below).  Every corner lies at
sqrt(3) = 1.732 > 1.73 (so no edge straddles r), a face triangle's centroid, e.g. (-1/3, -1, 1/3), at sqrt(11) / 3
= 1.106 < 1.73: the segment from it to a corner does.  point_a = its point at distance 1.73, on the cube's surface
(max |coordinate| = 1), point_b = the centre, point_a - point_b = r * normal.  (Without the fallback, and with
edges alone, the answer here is None: checked.)"""
from __future__ import annotations

import numpy as np

import core
from core.mesh.depth_interval import COVER_WITNESS_DIRECTIONS, _cover_witness
from core.mesh.pair_frame import Frame
from core.rows import fibonacci_directions

from .meshes import box


def test_witness_on_the_surface_when_no_ray_end_is_inside():
    a = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    b = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    frame = Frame(a, b, core.DEFAULT_TOLERANCES)
    centre = -np.asarray(frame.origin, float)  # the world origin in the pair frame
    r, u = 1.73, np.array([1.0, 0.0, 0.0])
    # no ray end tried lies in the cube (the fallback is what answers)
    directions = np.vstack([u[None, :], fibonacci_directions(COVER_WITNESS_DIRECTIONS)])
    assert np.all(np.abs(centre + r * directions - centre).max(axis=1) > 1.0)
    found = _cover_witness(frame.sa, frame.sb, frame.scale, r, centre, u)
    assert found is not None
    point_a, point_b, normal = found
    assert np.allclose(point_b, centre, rtol=0.0, atol=1e-15)
    assert abs(np.linalg.norm(normal) - 1.0) < 1e-12
    assert np.linalg.norm(point_a - point_b - r * normal) < 1e-12
    # point_a on the cube's surface (world frame: shift back)
    world_a = point_a + frame.origin
    assert abs(np.abs(world_a).max() - 1.0) < 1e-12
