"""`points._ray_count` starts its descent `RAY_SKIP` levels below the root (a node passes the slab test whenever one
of its children does, so the same leaves are reached): the winding numbers and ambiguity flags must be those of the
descent from the root, for points all over and around meshes of 1 to a few thousand triangles (levels fewer than
the skip, odd level sizes), along all eight ray directions, placed with and without a linear part; the grazing
points of a grid-aligned box (on its faces, edges and corners) included."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import points
from core.mesh.pair_frame import Frame
from tests.core.mesh_corpus import box, sphere, star, torus


def _meshes():
    rng = np.random.default_rng(20261128)
    v, t = torus(1.0, 0.3, n=37, m=11)
    out = [box(), (v, t), (v, t[:1]), (v, t[:3]), (v, t[:9]), sphere(0.7, n=33, rings=17),
           star(rng, 1.0, 0.3, n=20, rings=10)[:2]]
    turn = np.eye(4)
    turn[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    turn[:3, 3] = [0.3, -0.2, 0.1]
    return [(core.TriangleMesh(v, t, transform=m), rng) for v, t in out for m in (None, turn)]


def _counts(world, pts, slack):
    return [[a.tobytes() for a in points._ray_count(pts, world, d, slack)] for d in points._DIRECTIONS]


def test_ray_skip_keeps_the_counts(monkeypatch):
    got, want = [], []
    other = core.TriangleMesh(*box((5.0, 5.0, 5.0), (6.0, 6.0, 6.0)))
    for mesh, rng in _meshes():
        world = Frame(mesh, other, core.DEFAULT_TOLERANCES).sa.world
        lo, hi = world.lo[-1], world.hi[-1]
        pts = np.concatenate([rng.uniform(lo - 0.2 * (hi - lo), hi + 0.2 * (hi - lo), (400, 3)),
                              world.leaf_corners.reshape(-1, 3)[:200],
                              world.leaf_corners.mean(axis=1)[:100]])
        slack = 1e-12 * float(np.linalg.norm(hi - lo))
        got.append(_counts(world, pts, slack))
        monkeypatch.setattr(points, "RAY_SKIP", 0)
        want.append(_counts(world, pts, slack))
        monkeypatch.undo()
    assert got == want
