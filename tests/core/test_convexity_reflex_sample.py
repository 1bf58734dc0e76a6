"""core/topology.py `convexity_proper` decides a single group from a sample of its edges when far corners lie
beyond the tolerance on both sides of their faces' planes (`_reflex_both_ways`): the verdict must be the full
test's, the sample off, on surfaces far from flat (spheres, tori, stars, every mesh of tests/core/mesh_corpus.py's
families) and on flat-faced ones whose edges bend by about the tolerance (boxes of gridded faces with noise from a
tenth to ten times it, both orientations)."""
from __future__ import annotations

import numpy as np

import core
from core import topology
from core.mesh import parts
from tests.core.mesh_corpus import FAMILIES, make_case, sphere, star, torus


def _gridded_box(rng, noise, n=9):
    """A unit cube whose faces are n x n grids, corners moved along the normal by up to `noise` (relative)."""
    vertices, triangles, index = [], [], {}

    def vertex(p):
        key = tuple(np.round(p, 12))
        if key not in index:
            index[key] = len(vertices)
            vertices.append(p)
        return index[key]

    g = np.linspace(0.0, 1.0, n + 1)
    for axis in range(3):
        for side in (0.0, 1.0):
            u, v = [k for k in range(3) if k != axis]
            for i in range(n):
                for j in range(n):
                    quad = []
                    for di, dj in ((0, 0), (1, 0), (1, 1), (0, 1)):
                        p = np.zeros(3)
                        p[axis], p[u], p[v] = side, g[i + di], g[j + dj]
                        quad.append(vertex(p))
                    quad = quad if (side == 1.0) == (axis != 1) else quad[::-1]
                    triangles += [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]]
    vertices = np.array(vertices)
    vertices += rng.uniform(-noise, noise, vertices.shape)
    return vertices, np.array(triangles)


def _meshes():
    rng = np.random.default_rng(20261128)
    out = [sphere(1.0, n=24, rings=12), torus(1.0, 0.3, n=24, m=12)]
    out += [star(rng, 1.0, noise, n=20, rings=10)[:2] for noise in (0.01, 0.3)]
    for noise in (1e-11, 1.5e-11, 2e-11, 2.5e-11, 3e-11, 5e-11, 1e-10, 1e-9):
        v, t = _gridded_box(rng, noise)
        out += [(v, t), (v, t[:, ::-1].copy())]
    for family in FAMILIES:
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out += [(case.a.vertices, case.a.triangles), (case.b.vertices, case.b.triangles)]
    return out


def test_reflex_sample_keeps_the_verdict(monkeypatch):
    meshes = _meshes()
    fired = []
    real = topology._reflex_both_ways

    def counted(*args):
        answer = real(*args)
        fired.append(answer)
        return answer

    monkeypatch.setattr(topology, "_reflex_both_ways", counted)
    sampled = [parts._whole_is_convex(core.TriangleMesh(v, t)._local) for v, t in meshes]
    assert any(fired) and not all(fired)
    monkeypatch.setattr(topology, "REFLEX_SAMPLE", 10 ** 9)
    full = [parts._whole_is_convex(core.TriangleMesh(v, t)._local) for v, t in meshes]
    assert sampled == full
    assert any(full)  # some convex ones among them (the gridded boxes within the tolerance)
