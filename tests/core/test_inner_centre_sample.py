"""core/mesh/inner.py `_inner_body` first judges the centre's side of a sample of the triangles
(`_centre_fails_sample`) and gives up when the sample already fails the test for either orientation: the proved
inner body (its centre and shrink, or None) must be the one of the full test, the sample off, on closed meshes
nearly convex (float32 spheres, a subdivided cube with a hair of noise), convex, plainly non-convex (stars, tori,
every mesh of tests/core/mesh_corpus.py's families), in both orientations."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import inner
from tests.core.mesh_corpus import FAMILIES, make_case, sphere, star, torus


def _meshes():
    rng = np.random.default_rng(20261128)
    out = [sphere(1.0, n=24, rings=12), torus(1.0, 0.3, n=24, m=12)]
    v, t = sphere(0.5, n=32, rings=16)
    out.append(((v + [300.0, 0.0, 0.0]).astype(np.float32).astype(float), t))  # float32 folds, far out
    out.append((v.astype(np.float32).astype(float), t))
    out += [star(rng, 1.0, noise, n=20, rings=10)[:2] for noise in (1e-7, 1e-3, 0.3)]
    for family in FAMILIES:
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out += [(case.a.vertices, case.a.triangles), (case.b.vertices, case.b.triangles)]
    return out + [(v, t[:, ::-1].copy()) for v, t in out[:7]]


def _bodies(meshes):
    out = []
    for v, t in meshes:
        body = inner._inner_body(core.TriangleMesh(v, t)._local)
        out.append(None if body is None else (body.centre.tobytes(), body.shrink))
    return out


def test_centre_sample_keeps_the_inner_body(monkeypatch):
    meshes = _meshes()
    fired = []
    real = inner._centre_fails_sample

    def counted(*args):
        answer = real(*args)
        fired.append(answer)
        return answer

    monkeypatch.setattr(inner, "_centre_fails_sample", counted)
    sampled = _bodies(meshes)
    assert any(fired) and not all(fired)
    assert any(body is not None for body in sampled)
    monkeypatch.setattr(inner, "CENTRE_SAMPLE", 10 ** 9)
    assert _bodies(meshes) == sampled
