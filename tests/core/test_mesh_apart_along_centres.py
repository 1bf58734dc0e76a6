"""The one-shot route's cheap certificate that two meshes are apart (core/mesh/query.py `_apart_along_centres`):
their vertices parted by more than twice the band along the line between their world boxes' centres.  When it holds
(and the boxes meet: else the band-only descent stops at the roots anyway) `_near_first` skips the band-only descent
(no pair can cross or touch), and the answer must be the full route's, every Contact field, both argument orders.

Oracle for the certificate: the meshes' exact distance by tests/core/mesh_oracle.py (independent of the engine's
kernels) exceeds twice the band whenever the certificate is given, and a pair within twice the band is never
certified (a noisy star and a torus moved to leave 0.5 and 3 bands between their closest points; two boxes facing
each other across the line of their centres, 0.5, 1.5 and 3 bands apart)."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import query
from core.mesh.tritri import triangle_triangle
from core.tolerances import DEFAULT_TOLERANCES
from tests.core.answers import contact_fields
from tests.core.mesh_corpus import FAMILIES, box, make_case, random_rotation, star, torus
from tests.core.mesh_oracle import mesh_distance, soup


def _distance(a, b):
    """The oracle's distance of the two surfaces and its error bound."""
    found = mesh_distance(soup(a.vertices, a.triangles), soup(b.vertices, b.triangles))
    return found.distance, found.error


def _closest(a, b):
    """(distance, point on a, point on b) by the engine's kernel over every triangle pair: only to place the
    meshes (the assertions take `_distance`)."""
    A = a.vertices[a.triangles]
    B = b.vertices[b.triangles]
    ia, ib = np.meshgrid(np.arange(A.shape[0]), np.arange(B.shape[0]), indexing="ij")
    d, xa, xb = triangle_triangle(A[ia.ravel()], B[ib.ravel()])
    j = int(np.argmin(d))
    return float(d[j]), xa[j], xb[j]


def _pair(seed, shift):
    """A noisy star and a rotated torus, the torus moved by `shift`."""
    rng = np.random.default_rng(seed)
    va, ta, _, _ = star(rng, 1.0, 0.3, n=8, rings=4)
    vb, tb = torus(0.8, 0.3, n=8, m=4)
    vb = vb @ random_rotation(rng).T + np.asarray(shift, float)
    return core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)


def test_certified_pairs_are_farther_than_the_band():
    certified = 0
    for seed in range(6):
        rng = np.random.default_rng(100 + seed)
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        a, b = _pair(seed, 3.0 * direction)
        band = query.Frame(a, b, DEFAULT_TOLERANCES).band
        d, xa, xb = _closest(a, b)
        # apart by 3 units, then moved along the closest points' line to leave them 0.5 and 3 bands apart
        for left in (None, 0.5, 3.0):
            if left is not None:
                a, b = _pair(seed, 3.0 * direction - (d - left * band) * (xb - xa) / d)
            frame = query.Frame(a, b, DEFAULT_TOLERANCES)
            distance, error = _distance(a, b)
            if query._apart_along_centres(frame):
                certified += 1
                assert distance - error > 2.0 * frame.band, (seed, left)
            if distance + error <= 2.0 * frame.band:
                assert not query._apart_along_centres(frame), (seed, left)
    assert certified >= 6  # the pairs 3 units apart are certified


def test_boxes_a_hair_apart():
    """Two unit boxes facing each other across x (their centres' line): parted by 3 bands they are certified,
    by 1.5 or 0.5 bands (within twice the band) they are not."""
    for gap, certified in ((3.0, True), (1.5, False), (0.5, False)):
        va, ta = box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
        band = DEFAULT_TOLERANCES.touching * float(np.sqrt(3.0))
        vb, tb = box((1.0 + gap * band, 0.0, 0.0), (2.0 + gap * band, 1.0, 1.0))
        a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
        frame = query.Frame(a, b, DEFAULT_TOLERANCES)
        assert abs(frame.band - band) <= 1e-6 * band  # the placement's band is the frame's
        assert query._apart_along_centres(frame) is certified, gap
        distance, error = _distance(a, b)
        assert (distance - error > 2.0 * frame.band if certified else distance + error <= 2.0 * frame.band), gap


def test_certified_route_gives_the_full_routes_answer(descend_calls):
    # apart by a plane (2.2 between the centres) while their boxes overlap on every axis
    pairs = [_pair(seed, np.full(3, 2.2 / np.sqrt(3.0))) for seed in range(4)]
    for family in ("chain", "rod_torus"):
        for index in range(min(6, FAMILIES[family] * 3)):
            case = make_case(family, index)
            pairs.append((case.a.build(), case.b.build()))
    skipped = 0
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            descend_calls.clear()
            fast = contact_fields(query._mesh_collide(x, y, DEFAULT_TOLERANCES, None, narrow=False))
            if descend_calls == [False]:
                skipped += 1  # the certificate held: the full descent only
            full = contact_fields(query._mesh_collide(x, y, DEFAULT_TOLERANCES, None, narrow=False, near_first=False))
            assert fast == full
    assert skipped >= 8  # the far star and torus pairs, both orders
