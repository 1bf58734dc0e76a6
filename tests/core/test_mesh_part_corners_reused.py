"""The depth probes of a contained pair read the part corners' inside flags and exact distances that the
containment test measured (core/mesh/meeting.py `Meeting.corners_a` / `corners_b`, core/mesh/inside.py
`deepest_inside(part_corners=...)`) instead of measuring the same points again: every Contact field, in both
argument orders, must be what the query gives when the probes measure everything themselves.

Cases: tests/core/mesh_corpus.py's contain, crate, stacked and furniture families (meshes of one and several loose
parts lying in, on and around each other), two-part balls inside a sphere, and a ball with a small tetrahedron at
the centre of a dented sphere, whose deepest probe is a part corner that the vertex sample misses."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import query
from tests.core.mesh_corpus import FAMILIES, make_case, sphere
from tests.core.answers import contact_fields


def _pairs():
    out = []
    for family in ("contain", "crate", "stacked", "furniture"):
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out.append((case.a.build(), case.b.build()))
    big, bt = sphere(2.0, n=24, rings=12)
    s, st = sphere(0.3, n=12, rings=6)
    for shift in ([0.0, 0.0, 0.0], [0.9, 0.2, -0.1], [1.5, 0.0, 0.3]):
        two = (np.concatenate([s + shift, s - [0.7, 0.1, 0.0]]), np.concatenate([st, st + len(s)]))
        out.append((core.TriangleMesh(big, bt), core.TriangleMesh(*two)))
    dented = big.copy()
    dented[np.argmax(dented[:, 2])] *= 0.5  # not convex: no convex-part depth stands in for the probes' depth
    out.append((core.TriangleMesh(dented, bt), _deep_corner_mesh()))
    return out


def _deep_corner_mesh():
    """A ball near the big sphere's surface and a small tetrahedron at its centre whose corners the 64-vertex
    sample of `deepest_inside` misses: the deepest probe is then a part corner, not a sampled vertex."""
    s, st = sphere(0.3, n=24, rings=12)
    s = s + [1.4, 0.0, 0.0]
    tetra = np.array([[0.1, 0.1, 0.1], [0.1, -0.1, -0.1], [-0.1, 0.1, -0.1], [-0.1, -0.1, 0.1]])
    faces = np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])
    stride = max(1, (len(s) + 4) // 64)
    assert stride > 2
    # the tetrahedron's corners at vertex rows 1, 2, 3, 5 of the whole mesh: never multiples of the stride
    rows = np.array([1, 2, 3, 5])
    rest = np.setdiff1d(np.arange(len(s) + 4), rows)
    vertices = np.empty((len(s) + 4, 3))
    vertices[rows], vertices[rest] = tetra, s
    triangles = np.concatenate([rows[faces], rest[st]])
    return core.TriangleMesh(vertices, triangles)


def test_reused_part_corners_change_no_answer(monkeypatch):
    pairs = _pairs()
    real = query.deepest_inside
    used = []

    def counted(*args, part_corners=None, **kw):
        used.append(part_corners is not None)
        return real(*args, part_corners=part_corners, **kw)

    monkeypatch.setattr(query, "deepest_inside", counted)
    fast = [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))] for a, b in pairs]
    assert any(used)  # the measured corners are read on these cases
    monkeypatch.setattr(query, "deepest_inside", lambda *args, part_corners=None, **kw: real(*args, **kw))
    full = [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))] for a, b in pairs]
    assert fast == full
