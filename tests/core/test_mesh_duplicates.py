"""Two closed convex meshes, one a copy of the other in place (identical, rotated, shifted, scaled about its
centre or stretched along the axes, under a shared placement): the convex route of `core.collide` reports the
same crossing curve and the same containment as the general mesh pipeline, and the curve lies on both surfaces.

Issue 7: the convex route (`collide_meshes` when both meshes are exactly convex) answers distance and depth with
the convex engine and adds only the crossing curve and the containment (`query.crossing_and_containment`:
a band-only descent, or the certificates of core/mesh/copies.py for copies in or on each other).  The reference is
`query._mesh_collide`, the general pipeline, which finds them with its full descent and every probe; the curve is
checked against the exact brute-force oracle of tests/core/mesh_oracle.py, and so is the certificate (no robust
crossing at all) and a reported containment (the winding numbers of the inner mesh's vertices).
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import copies, is_convex
from core.mesh import query as mesh_query
from core.mesh.pair_frame import Frame
from tests.core import mesh_oracle as oracle
from tests.core.duplicates import cylinder, hull_triangles, icosphere, near_copy, uv_sphere

CUBE = np.array([[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)])
SHAPES = {
    "ico sphere 162": icosphere(2),
    "ico sphere 642": icosphere(3),
    "uv sphere 24x12": uv_sphere(24, 12),
    "cylinder 64": cylinder(64),
    "cube": CUBE,
}
COPIES = {
    "identical": {},
    "rotated 1e-4": {"angle": 1e-4},
    "rotated 1e-2": {"angle": 1e-2},
    "shifted 1e-6": {"shift": 1e-6},
    "shifted 1e-9": {"shift": 1e-9},
    "scaled 1.001": {"scale": 1.001},
    "scaled 0.999": {"scale": 0.999},
    "scaled 1 + 1e-7": {"scale": 1.0 + 1e-7},
    "stretched x 1.001": {"stretch": (1.001, 1.0, 1.0)},
    "stretched x 1.001, y 0.999": {"stretch": (1.001, 0.999, 1.0)},
}


def make_copy(points: np.ndarray, rng, kw: dict) -> np.ndarray:
    """The copy: `near_copy` (tests/core/duplicates.py), or stretched along the axes about the centroid."""
    if "stretch" in kw:
        centre = points.mean(axis=0)
        return centre + (points - centre) * np.asarray(kw["stretch"])
    return near_copy(points, rng, **kw) if kw else points.copy()


def placement(seed: int) -> np.ndarray:
    """A shared world placement (rotation or reflection; scale uniform for every other copy, else up to 25:1
    across the axes; far translation): an affine map, so the copy keeps its relation to the original."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    m = np.eye(4)
    m[:3, :3] = q * rng.uniform(0.2, 5.0) if (seed // 10) % 2 == 0 else q @ np.diag(rng.uniform(0.2, 5.0, size=3))
    m[:3, 3] = rng.normal(scale=100.0, size=3)
    return m


def cases():
    out = []
    for i, (shape, points) in enumerate(SHAPES.items()):
        for j, (copy, kw) in enumerate(COPIES.items()):
            for placed in ((False,) if points.shape[0] > 500 else (False, True)):  # (the time budget)
                out.append(pytest.param(shape, points, kw, placed, 100 * i + 10 * j + placed,
                                        id=f"{shape}-{copy}-{'placed' if placed else 'local'}"))
    return out


def _sines(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Sine of the angle between the planes of triangles X (k,3,3) and Y (k,3,3)."""
    nx = np.cross(X[:, 1] - X[:, 0], X[:, 2] - X[:, 0])
    ny = np.cross(Y[:, 1] - Y[:, 0], Y[:, 2] - Y[:, 0])
    return np.linalg.norm(np.cross(nx, ny), axis=1) / (np.linalg.norm(nx, axis=1) * np.linalg.norm(ny, axis=1))


def _sorted_segments(s: np.ndarray) -> np.ndarray:
    s = np.asarray(s).reshape(-1, 6)
    return s[np.lexsort(s.T[::-1])]


@pytest.mark.parametrize("shape, points, kw, placed, seed", cases())
def test_convex_route_gives_the_pipelines_crossing_and_containment(shape, points, kw, placed, seed):
    tris = hull_triangles(points)
    rng = np.random.default_rng(seed)
    copy = make_copy(points, rng, kw)
    transform = placement(seed) if placed else None
    a = core.TriangleMesh(points, tris, transform)
    b = core.TriangleMesh(copy, tris, transform)
    assert is_convex(a) and is_convex(b)

    fast = core.collide(a, b)
    reference = mesh_query._mesh_collide(a, b, core.DEFAULT_TOLERANCES, None)
    assert fast.status is core.Status.INTERSECTING and reference.status is core.Status.INTERSECTING
    assert fast.containment == reference.containment
    assert fast.intersection.shape == reference.intersection.shape
    assert np.array_equal(_sorted_segments(fast.intersection), _sorted_segments(reference.intersection))
    # the same with the arguments exchanged
    swapped = core.collide(b, a)
    assert swapped.containment == (None if fast.containment is None else fast.containment.swapped())
    assert swapped.intersection.shape == fast.intersection.shape

    sa, sb = oracle.soup(points, tris, transform), oracle.soup(copy, tris, transform)
    scale = oracle.pair_scale(sa, sb)
    band = core.DEFAULT_TOLERANCES.touching * scale
    if fast.intersection.shape[0]:
        # On both surfaces, to the band across each plane: along the meeting line of two nearly parallel
        # triangles that is up to band / sin(angle between them) on the surface (a corner within the band of the
        # other plane counts as on it), so the bound uses the flattest pair the oracle finds crossing.
        pairs = oracle.crossings(sa, sb)
        assert len(pairs) > 0
        flattest = float(_sines(sa.tris[pairs[:, 0]], sb.tris[pairs[:, 1]]).min())
        ends = fast.intersection.reshape(-1, 3)
        ends = ends[:: max(1, ends.shape[0] // 128)]  # an even sample keeps the brute-force oracle affordable
        for s in (sa, sb):
            assert oracle.point_distance(s, ends).max() <= band * (1.0 + 1.0 / flattest)
    else:
        # no curve reported: the oracle finds no robust crossing either (a crossing by more than the band)
        assert len(oracle.crossings(sa, sb, margin=band)) == 0
    if fast.containment is not None:
        inner, outer = (sa, sb) if fast.containment is core.Containment.A_INSIDE_B else (sb, sa)
        winding = np.rint(oracle.winding_number(outer, inner.used))
        on_surface = oracle.point_distance(outer, inner.used) <= band
        assert np.all((winding != 0) | on_surface)
        assert np.any((winding != 0) & ~on_surface)
    if copies.cannot_cross(Frame(a, b, core.DEFAULT_TOLERANCES)):
        # the certificate's claim, checked by the oracle: nothing crosses by more than the band
        assert len(oracle.crossings(sa, sb, margin=band)) == 0


def test_ico_sphere_duplicate_skips_distance_and_depth(monkeypatch):
    """Regression (issue 7): an Ico Sphere duplicated in place ran the whole mesh pipeline (best distance over
    every near triangle pair, the convex parts' depth, the hulls' EPA again) only to learn that nothing crosses;
    now none of that runs, and the answer is the same."""
    points = icosphere(3)
    tris = hull_triangles(points)
    a, b = core.TriangleMesh(points, tris), core.TriangleMesh(points.copy(), tris)
    reference = mesh_query._mesh_collide(a, b, core.DEFAULT_TOLERANCES, None)

    def forbidden(*args, **kwargs):
        raise AssertionError("distance or depth work on the convex route")

    for name in ("best_distance", "convex_part_depth", "deepest_inside", "descend"):
        monkeypatch.setattr(mesh_query, name, forbidden)
    fast = core.collide(a, b)
    assert fast.status is core.Status.INTERSECTING
    assert fast.containment is reference.containment is None
    assert fast.intersection.shape == reference.intersection.shape == (0, 2, 3)
