"""Whether the part corners are measured one by one (`closest_points`) or only as far as their band flags and the
deepest corner need (core/mesh/farthest.py `beyond_band`, which core/mesh/inside.py `_measure` takes beyond
FEW_CORNERS corners) changes no answer: every Contact field, in both argument orders, on meshes of many loose
parts inside, across and outside closed meshes (tests/core/mesh_corpus.py's contain, crate, stacked and furniture
families, clusters of small balls inside, across and outside a sphere, a tiny ball just inside its surface
beside deep ones (every corner of it within 0.03 of the surface: the band flags decide the containment), and
tests/core/test_mesh_part_corners_reused.py's dented sphere with a tetrahedron at its centre (the deepest probe is
a part corner)), must be the same with FEW_CORNERS at 0 and with it above every corner count."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import inside
from tests.core.answers import contact_fields
from tests.core.mesh_corpus import FAMILIES, make_case, sphere
from tests.core.test_mesh_part_corners_reused import _deep_corner_mesh


def _balls(centres, radius=0.12):
    radius = np.broadcast_to(radius, len(centres))
    balls = [sphere(r, n=12, rings=6) for r in radius]
    v = np.concatenate([s + c for (s, _), c in zip(balls, centres)])
    starts = np.cumsum([0] + [len(s) for s, _ in balls[:-1]])
    t = np.concatenate([st + k for (_, st), k in zip(balls, starts)])
    return core.TriangleMesh(v, t)


def _pairs():
    out = []
    for family in ("contain", "crate", "stacked", "furniture"):
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out.append((case.a.build(), case.b.build()))
    rng = np.random.default_rng([20261128, 22])
    big = core.TriangleMesh(*sphere(1.0, n=32, rings=16))
    for spread in (0.3, 0.75, 0.95, 1.4):
        out.append((big, _balls(rng.normal(size=(6, 3)) * spread / np.sqrt(3.0))))
    # equal depths: the balls placed alike about the centre tie for the deepest corner
    out.append((big, _balls(np.array([[0.4, 0, 0], [-0.4, 0, 0], [0, 0.4, 0], [0, -0.4, 0]]))))
    # a ball of radius 0.01 about 0.02 inside the surface (the faces' planes lie within 0.005 of the unit sphere)
    out.append((big, _balls(np.array([[0.0, 0.0, 0.0], [0.3, 0.2, 0.0], [0.0, 0.0, 0.965]]), [0.1, 0.1, 0.01])))
    dented = sphere(2.0, n=24, rings=12)
    v = dented[0].copy()
    v[np.argmax(v[:, 2])] *= 0.5
    out.append((core.TriangleMesh(v, dented[1]), _deep_corner_mesh()))
    return out


def test_searched_part_corners_change_no_answer(monkeypatch):
    pairs = _pairs()
    used = []
    real = inside.beyond_band

    def counted(*args, **kw):
        used.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(inside, "beyond_band", counted)
    monkeypatch.setattr(inside, "FEW_CORNERS", 0)
    searched = [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))]
                for a, b in pairs]
    assert used  # the search ran on these cases
    monkeypatch.setattr(inside, "FEW_CORNERS", 10 ** 9)
    used.clear()
    measured = [[contact_fields(core.collide(x, y, depth_interval=False)) for x, y in ((a, b), (b, a))]
                for a, b in pairs]
    assert not used
    assert searched == measured
