"""Closed solids and placements for the overlap tests (core/mesh/overlap.py), and the independent oracles.

Every generator returns (vertices, triangles) of a closed, welded, outward surface in local coordinates near 0.
`place(mesh, pose)` puts it in the world under a 4x4 transform; `manifold_volume(a, b)` is manifold3d's
intersection volume of two placed `core.TriangleMesh`es, computed in a frame at A's translation from the same
float64 numbers the engine sees (so a far placement costs the oracle no precision).
"""
from __future__ import annotations

import numpy as np

from core.mesh import TriangleMesh


def _outward(v, t):
    d = v[t]
    signed = np.einsum("ij,ij->i", d[:, 0], np.cross(d[:, 1], d[:, 2])).sum()
    return (v, t) if signed > 0 else (v, t[:, ::-1].copy())


def welded(mesh):
    """The same surface with equal positions made one vertex (manifold3d wants a welded mesh)."""
    v, t = mesh
    unique, inverse = np.unique(v, axis=0, return_inverse=True)
    return unique, inverse.reshape(-1)[t]


def revolve(profile, segments: int):
    """Surface of revolution about z of an open (r, z) polyline running from the axis (r = 0) back to the axis
    (a genus-0 solid: ball, rod, cup)."""
    profile = np.asarray(profile, float)
    assert profile[0, 0] == 0.0 and profile[-1, 0] == 0.0
    ring = profile[1:-1]
    k = ring.shape[0]
    ang = 2 * np.pi * np.arange(segments) / segments
    c, s = np.cos(ang), np.sin(ang)
    verts = [[0, 0, profile[0, 1]], [0, 0, profile[-1, 1]]]
    for r, z in ring:
        verts += [[r * ci, r * si, z] for ci, si in zip(c, s)]
    tris = []
    idx = lambda i, j: 2 + i * segments + (j % segments)  # noqa: E731
    for j in range(segments):
        tris.append([0, idx(0, j + 1), idx(0, j)])
        tris.append([1, idx(k - 1, j), idx(k - 1, j + 1)])
        for i in range(k - 1):
            a, b, cc, d = idx(i, j), idx(i, j + 1), idx(i + 1, j + 1), idx(i + 1, j)
            tris += [[a, b, cc], [a, cc, d]]
    return _outward(np.array(verts, float), np.array(tris))


def torus(R=1.0, r=0.3, n=24, m=12, stretch=0.0):
    """A torus about z (stretch > 0 pulls it into a chain link, longer along x)."""
    u = 2 * np.pi * np.arange(n) / n
    w = 2 * np.pi * np.arange(m) / m
    U, W = np.meshgrid(u, w, indexing="ij")
    x = (R + r * np.cos(W)) * np.cos(U)
    x = x + stretch * np.sign(np.cos(U)) * (np.abs(np.cos(U)) > 1e-9)
    y = (R + r * np.cos(W)) * np.sin(U)
    z = r * np.sin(W)
    v = np.stack([x, y, z], axis=-1).reshape(-1, 3)
    tris = []
    for i in range(n):
        for j in range(m):
            a, b = i * m + j, ((i + 1) % n) * m + j
            c, d = ((i + 1) % n) * m + (j + 1) % m, i * m + (j + 1) % m
            tris += [[a, b, c], [a, c, d]]
    return _outward(v, np.array(tris))


def ball(radius=1.0, segments=24, rings=12):
    th = np.linspace(0, np.pi, rings + 1)
    profile = np.stack([radius * np.sin(th), -radius * np.cos(th)], axis=1)
    profile[[0, -1], 0] = 0.0
    return revolve(profile, segments)


def rod(radius=0.2, length=4.0, segments=16):
    h = length / 2
    return revolve([[0, -h], [radius, -h], [radius, -h / 3], [radius, h / 3], [radius, h], [0, h]], segments)


def cup(R=1.0, H=1.2, wall=0.15, segments=24):
    return revolve([[0, 0], [R, 0], [R, H], [R - wall, H], [R - wall, wall], [0, wall]], segments)


def prism(polygon, height, triangles2d):
    """A prism over a simple polygon (counter-clockwise, (k, 2)) with a given triangulation of it."""
    p = np.asarray(polygon, float)
    k = p.shape[0]
    v = np.concatenate([np.c_[p, np.zeros(k)], np.c_[p, np.full(k, height)]])
    t2 = np.asarray(triangles2d)
    tris = [t2[:, ::-1], t2 + k]
    for i in range(k):
        j = (i + 1) % k
        tris.append(np.array([[i, j, j + k], [i, j + k, i + k]]))
    return _outward(v, np.concatenate(tris))


def l_shape(a=2.0, b=0.8, height=0.8):
    """An L: the square [0, a]^2 minus [b, a]^2, extruded."""
    poly = [[0, 0], [a, 0], [a, b], [b, b], [b, a], [0, a]]
    return prism(poly, height, [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]])


def blob(seed, radius=1.0, segments=20, rings=10, bumps=0.3):
    """A star-shaped random blob: a UV ball whose radius varies smoothly with direction."""
    rng = np.random.default_rng(seed)
    v, t = ball(1.0, segments, rings)
    d = v / np.linalg.norm(v, axis=1)[:, None]
    k = rng.normal(size=(4, 3))
    amp = rng.uniform(-bumps, bumps, 4)
    r = radius * (1.0 + sum(a * np.sin(3.0 * (d @ kk)) for a, kk in zip(amp, k)) / 4)
    return _outward(d * r[:, None], t)


def rotation(rng) -> np.ndarray:
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def pose(linear=None, translation=(0.0, 0.0, 0.0)) -> np.ndarray:
    m = np.eye(4)
    if linear is not None:
        m[:3, :3] = linear
    m[:3, 3] = translation
    return m


def place(mesh, transform) -> TriangleMesh:
    v, t = mesh
    return TriangleMesh(v, t, transform)


def frame_vertices(mesh: TriangleMesh, ref) -> np.ndarray:
    """The mesh's world vertices minus ref, formed as the engine forms them (translation minus ref first)."""
    m = mesh.transform
    return mesh.vertices @ m[:3, :3].T + (m[:3, 3] - np.asarray(ref, float))


def manifold_volume(a: TriangleMesh, b: TriangleMesh) -> float:
    """manifold3d's volume of A ∩ B (test oracle only)."""
    import manifold3d

    ref = a.transform[:3, 3]

    def solid(mesh):
        v = frame_vertices(mesh, ref)
        t = mesh.triangles
        if np.linalg.det(mesh.transform[:3, :3]) < 0:
            t = t[:, ::-1]
        m = manifold3d.Manifold(manifold3d.Mesh64(vert_properties=np.ascontiguousarray(v, np.float64),
                                                  tri_verts=np.ascontiguousarray(t, np.uint64)))
        assert m.status() == manifold3d.Error.NoError, m.status()
        return m

    return float((solid(a) ^ solid(b)).volume())


def pair_size(a: TriangleMesh, b: TriangleMesh) -> float:
    """The pair's scale as the engine takes it: the larger of the two world box diagonals."""
    return max(float(np.linalg.norm(hi - lo)) for lo, hi in (a.bounds(), b.bounds()))


def assert_volume(a: TriangleMesh, b: TriangleMesh, truth: float, size: float | None = None):
    """core.overlap(a, b) and (b, a) both give `truth` within the issue's bound, 1e-9 x truth + 1e-12 x size³
    (size: the pair's scale unless given), with an empty region exactly when the volume is 0.0.  Returns the
    two results."""
    import core

    size = pair_size(a, b) if size is None else size
    results = core.overlap(a, b), core.overlap(b, a)
    for result in results:
        assert abs(result.volume - truth) <= 1e-9 * truth + 1e-12 * size ** 3, (result.volume, truth)
        assert (result.region.shape[0] == 0) == (result.volume == 0.0)
    return results


def region_volume(region: np.ndarray, about) -> float:
    r = region - np.asarray(about, float)
    return float(np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])).sum()) / 6.0
