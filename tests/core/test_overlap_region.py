"""core.overlap's region is the closed, outward boundary of A ∩ B: its area vectors cancel (so its signed volume is
the same about every origin) and its signed volume is the reported volume (up to the rounding of its world
coordinates), and each of its vertices lies on A's or B's
surface (within 1e-9 x scale) and inside or on both solids.  The oracles are brute force, written here: the
distance of a point to every triangle, and the winding number as the sum of the triangles' solid angles."""
import zlib

import numpy as np
import pytest

import core
from tests.core import overlap_corpus as oc
from tests.core.meshes import box
from tests.core.test_overlap_manifold import PAIRS

EPS = np.finfo(float).eps


def _distance(points, tris):
    """Distance of each point (n, 3) to the nearest of the triangles (m, 3, 3), by brute force."""
    p = points[:, None, :]
    a, b, c = tris[None, :, 0], tris[None, :, 1], tris[None, :, 2]
    n = np.cross(b - a, c - a)
    nn = (n * n).sum(-1)
    inside = np.ones((points.shape[0], tris.shape[0]), bool)
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= (np.cross(v - u, p - u) * n).sum(-1) >= 0
    plane = np.abs(((p - a) * n).sum(-1)) / np.sqrt(np.where(nn > 0, nn, 1))
    best = np.where(inside & (nn > 0), plane, np.inf)
    for u, v in ((a, b), (b, c), (c, a)):
        d = v - u
        t = np.clip(((p - u) * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-300), 0, 1)
        q = u + t[..., None] * d
        best = np.minimum(best, np.sqrt(((p - q) ** 2).sum(-1)))
    return best.min(axis=1)


def _winding(points, tris):
    """Generalised winding number: the sum of the triangles' signed solid angles over 4 pi."""
    a, b, c = (tris[None, :, i] - points[:, None, :] for i in range(3))
    la, lb, lc = (np.sqrt((x * x).sum(-1)) for x in (a, b, c))
    num = (a * np.cross(b, c)).sum(-1)
    den = la * lb * lc + (a * b).sum(-1) * lc + (b * c).sum(-1) * la + (c * a).sum(-1) * lb
    return (2 * np.arctan2(num, den)).sum(axis=1) / (4 * np.pi)


def _world_triangles(mesh):
    m = mesh.transform
    v = mesh.vertices @ m[:3, :3].T + m[:3, 3]
    return v[mesh.triangles]


CASES = dict(PAIRS)
CASES["boxes, shared faces"] = (box((0, 0, 0), (2, 2, 2)), box((0, 0, 0), (1, 1, 1)), oc.pose(None, (1, 1, 0)))
CASES["boxes, sunk with a flush top"] = (box((0, 0, 0), (2, 2, 2)), box((0, 0, 0), (1, 1, 1)),
                                         oc.pose(None, (0.5, 0.5, 1)))
CASES["boxes, rod through"] = (box((0, 0, 0), (2, 2, 2)), box((0, 0, 0), (4, 1, 1)), oc.pose(None, (-1, 0.5, 0.5)))


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (1.0, 1e5), (1e-3, 0.0), (1e3, 1e4)])
def test_region_is_closed_on_the_surfaces_and_inside_both(name, scale, offset):
    mesh_a, mesh_b, relative = CASES[name]
    rng = np.random.default_rng(zlib.crc32(repr((name, scale, offset)).encode()))
    world = oc.pose(scale * oc.rotation(rng), offset * rng.normal(size=3))
    a, b = oc.place(mesh_a, world), oc.place(mesh_b, world @ relative)
    result = core.overlap(a, b)
    region = result.region
    if result.volume == 0.0:
        assert region.shape == (0, 3, 3)
        return
    size = oc.pair_size(a, b)
    reach = np.abs(region).max()
    edges = np.linalg.norm(region - region[:, [1, 2, 0]], axis=2).sum()
    # closed: the area vectors cancel, so the signed volume is the same about every origin (it moves by
    # origin . sum / 6) ...
    total = np.cross(region[:, 1] - region[:, 0], region[:, 2] - region[:, 0]).sum(axis=0)
    assert np.linalg.norm(total) <= 1e-12 * size ** 2 + 64 * EPS * reach * edges
    # ... and about a point near the region it is the volume
    about = region.reshape(-1, 3).mean(axis=0) + size * rng.normal(size=3)
    rounding = 64 * EPS * (reach + np.abs(about).max()) * edges * size
    assert abs(oc.region_volume(region, about) - result.volume) <= 1e-9 * result.volume + 1e-12 * size ** 3 + rounding
    # vertices relative to A's translation, where the brute-force oracles keep their precision
    ref = a.transform[:3, 3]
    points = np.unique(region.reshape(-1, 3), axis=0) - ref
    ta, tb = _world_triangles(a) - ref, _world_triangles(b) - ref
    band = 1e-9 * size + 64 * EPS * reach
    da, db = _distance(points, ta), _distance(points, tb)
    assert np.all(np.minimum(da, db) <= band)
    for d, tris in ((da, ta), (db, tb)):
        off = d > band
        assert np.all(np.abs(_winding(points[off], tris) - 1.0) < 1e-6)
