"""A square ring held inside a block under a slot leaves it through the slot: the depth interval's upper end is that
exit, although the pair is too big for the whole sweep (core/mesh/depth_interval.py `_cone_search`).

Worked by hand.  A = the block [-1,1] x [-2,2] x [-1,1] less the slot [-0.95,0.95] x [-0.5,0.5] x [0.5,1] open at
the top.  B = the ring [-0.6,0.6] x [-0.1,0.1] x [-0.7,0.3] less the hole [-0.4,0.4] x R x [-0.5,0.1], turned by
THETA = 0.05 about the y axis (x' = x cos + z sin, z' = z cos - x sin; untilted, the grid lines of a ring moved by
the ball bound's length would lie in the block's wall).  Both are cut on grids, so nearly every triangle pair lies
within reach (more than the sweep's 60,000).  The ring's corners span x' in [-0.63424, 0.61424] and z' in
[-0.72911, 0.32961]; its lowest corner c = (0.6, -0.7) turned, at x' = 0.56434.
- +z by 0.5 - (-0.72911) = 1.22911: the ring lies above the slot's floor, within the slot's x and y ranges (and
  above the block beyond z = 1).  Free.
- nothing shorter: with v_z below that, the bottom bar's points below the floor (z' rises by tan THETA per unit
  of -x' from c) are in the block unless they leave it sideways: v_x >= 1 - 0.56434 + (1.22911 - v_z) / tan THETA
  (or much more the other ways), and then |v| >= sqrt(v_z^2 + v_x^2) > 1.22911.
- the other ways out: -z 1.32961 (the hulls' move), +x 1.61424, -x 1.63424, y 2.1; the ball bound is about 0.6.
So the depth is 1.22911: U must be it, L not above it, and the separation, re-checked, frees the pair.
"""
from __future__ import annotations

import numpy as np

import core


THETA = 0.05
DEPTH = 0.5 - (-0.7 * np.cos(THETA) - 0.6 * np.sin(THETA))   # the floor less the lowest corner's z': 1.22911


def _grid_solid(xs, ys, zs, inside):
    """(vertices, triangles) of the boundary of the cells of the rectilinear grid xs x ys x zs for which
    inside(centre) holds: two triangles per boundary cell face, outward, vertices shared by grid index."""
    lines = [np.asarray(xs, float), np.asarray(ys, float), np.asarray(zs, float)]
    shape = tuple(len(g) - 1 for g in lines)
    centres = np.meshgrid(*[0.5 * (g[1:] + g[:-1]) for g in lines], indexing="ij")
    full = np.zeros(tuple(s + 2 for s in shape), bool)
    full[1:-1, 1:-1, 1:-1] = inside(*centres)
    index = {}
    vertices, triangles = [], []

    def vid(node):
        if node not in index:
            index[node] = len(vertices)
            vertices.append([lines[i][node[i]] for i in range(3)])
        return index[node]

    for a in range(3):
        b, c = (a + 1) % 3, (a + 2) % 3
        step = np.zeros(3, int)
        step[a] = 1
        for cell in zip(*np.nonzero(full[1:-1, 1:-1, 1:-1])):
            cell = np.array(cell)
            for sign in (1, -1):
                neighbour = cell + sign * step + 1
                if full[tuple(neighbour)]:
                    continue
                corners = []
                for db, dc in ((0, 0), (1, 0), (1, 1), (0, 1)):   # counter-clockwise seen from +a
                    node = cell.copy()
                    node[a] += 1 if sign > 0 else 0
                    node[b] += db
                    node[c] += dc
                    corners.append(vid(tuple(int(x) for x in node)))
                if sign < 0:
                    corners = corners[::-1]
                triangles += [(corners[0], corners[1], corners[2]), (corners[0], corners[2], corners[3])]
    return np.array(vertices, float), np.array(triangles, np.int64)


def _lines(lo, hi, step, *extra):
    return np.unique(np.round(np.concatenate([np.arange(lo, hi + 0.5 * step, step), extra]), 12))


def _pair():
    block = _grid_solid(_lines(-1.0, 1.0, 0.2, -0.95, 0.95), _lines(-2.0, 2.0, 0.4, -0.5, 0.5),
                        _lines(-1.0, 1.0, 0.25, 0.5),
                        lambda x, y, z: ~((np.abs(x) < 0.95) & (np.abs(y) < 0.5) & (z > 0.5)))
    ring = _grid_solid(_lines(-0.6, 0.6, 0.1), [-0.1, 0.1], _lines(-0.7, 0.3, 0.1),
                       lambda x, y, z: ~((np.abs(x) < 0.4) & (z > -0.5) & (z < 0.1)))
    c, s = np.cos(THETA), np.sin(THETA)
    turn = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    return core.TriangleMesh(*block), core.TriangleMesh(ring[0] @ turn.T, ring[1])


def test_ring_leaves_through_the_slot():
    a, b = _pair()
    assert a.triangles.shape[0] * b.triangles.shape[0] > 60_000
    answer = core.collide(a, b)
    assert answer.status is core.Status.INTERSECTING
    upper = answer.depth + answer.gap
    assert abs(DEPTH - 1.22911) < 1e-5
    assert answer.depth <= DEPTH * (1.0 + 1e-9)
    np.testing.assert_allclose(upper, DEPTH, rtol=1e-3)
    move = np.asarray(answer.separation, float)
    assert move[2] > 0.0
    shifted = np.eye(4)
    shifted[:3, 3] = move
    assert core.collide(a, b.moved(shifted)).status is not core.Status.INTERSECTING
