"""The Lipschitz covering's climb (core/mesh/depth_lipschitz.py `_climb`): a cell's point that sits on one solid's
surface, deep in the other, moves off it in a few steps (the old ascent's steps, shorter than min(dA, dB), could
not), and every point it returns lies inside both solids with its exact distances.

Hand-worked: A = B = the cube [-1, 1]^3, B moved by c = (1.5, 1.5, 0): B + c = [0.5, 2.5]^2 x [-1, 1], and A and
B + c share the box [0.5, 1]^2 x [-1, 1].  There g(c, p) = dA(p) + dB(p - c) = min(1 - x, 1 - y) + min(x - 0.5,
y - 0.5) (the z faces are farther), which is 0.5 on the diagonal x = y and 0.5 - |x - y| off it: its maximum,
0.5, is the true depth of the moved pair (B moved on by 0.5 along +x or +y comes free).  From p = (0.999, 0.51, 0):
dA = 0.001 (A's face x = 1), dB = 0.01 (B + c's face y = 0.5), g = 0.011; the gradient of g is (-1, 1, 0) / sqrt(2)
(away from both faces), and g grows by sqrt(2) per unit moved along it up to the diagonal 0.346 away.  The climb's
first step tries 0.0025, 0.005, 0.01 (half, one and two times half the larger distance), each success multiplies
the step by 1.5 and the trials are again half to twice it: after six steps the point has reached the diagonal's
neighbourhood, g >= 0.45.  The old ascent's room (0.9 min(dA, dB) = 0.0009 at first) leaves g below 0.1 after as
many steps (checked: `_ascend` with six steps)."""
from __future__ import annotations

import numpy as np

import core
from core.mesh.depth_lipschitz import _climb
from core.mesh.pair_frame import Frame
from core.mesh.points import closest_points

from .meshes import box


def _setup():
    a = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    b = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    frame = Frame(a, b, core.DEFAULT_TOLERANCES)
    origin = np.asarray(frame.origin, float)
    p = np.array([[0.999, 0.51, 0.0]]) - origin
    c = np.array([[1.5, 1.5, 0.0]])
    return frame, p, c, origin


def _g(x, y):
    return min(1.0 - x, 1.0 - y) + min(x - 0.5, y - 0.5)


def test_climb_leaves_the_surface_and_stays_inside_both():
    frame, p, c, origin = _setup()
    sa, sb = frame.sa, frame.sb
    da, qa = closest_points(p, sa.world)
    db, qb = closest_points(p - c, sb.world)
    assert abs(da[0] + db[0] - _g(0.999, 0.51)) < 1e-12
    q, da2, db2, spent = _climb(sa, sb, p.copy(), c, da.copy(), qa.copy(), db.copy(), qb.copy(), 6,
                                1e-9 * frame.scale, frame.scale)
    x, y, z = q[0] + origin
    # inside A and inside B + c: the shared box's interior
    assert 0.5 < x < 1.0 and 0.5 < y < 1.0 and -1.0 < z < 1.0
    # the distances returned are the exact ones, and g is close to its maximum 0.5
    assert abs(da2[0] - min(1.0 - x, 1.0 - y, 1.0 - abs(z))) < 1e-12
    assert abs(db2[0] - min(x - 0.5, y - 0.5, 1.0 - abs(z))) < 1e-12
    assert 0.45 <= da2[0] + db2[0] <= 0.5 + 1e-12
    assert spent > 0
