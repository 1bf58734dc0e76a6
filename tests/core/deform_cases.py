"""Deforming meshes for the tests of core/mesh/ccd.py and core/deform.py: vertices keyed at times and moved in
straight lines between keys (what linear shape-key keys do), placed by a matrix that may move too; the exact pair
check at any time is `core.collide` on the interpolated meshes (the brute-force reference)."""
from __future__ import annotations

import numpy as np

from core import TriangleMesh, collide
from core.deform import MeshPose
from core.motion import Sample, place


def grid(n: int, half: float = 1.0):
    """(vertices, triangles) of a flat square sheet in z = 0 over [-half, half]^2, n x n quads."""
    x, y = np.meshgrid(np.linspace(-half, half, n + 1), np.linspace(-half, half, n + 1))
    vertices = np.stack([x.ravel(), y.ravel(), np.zeros(x.size)], axis=1)
    index = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    quads = np.stack([index[:-1, :-1].ravel(), index[:-1, 1:].ravel(), index[1:, 1:].ravel(),
                      index[1:, :-1].ravel()], axis=1)
    return vertices, np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])


def box(lo, hi):
    """(vertices, triangles) of a closed box."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    vertices = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    quads = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))
    return vertices, np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))])


def centre_index(n: int) -> int:
    """The vertex at the centre of `grid(n)` (n even)."""
    return (n // 2) * (n + 1) + n // 2


class Keyed:
    """A mesh whose local vertices are keyed: `shapes[k]` at `times[k]`, straight lines between keys (held
    before the first and after the last); its matrix is keyed the same way (entry-wise linear: translations)."""

    def __init__(self, triangles, times, shapes, matrices=None):
        self.triangles = np.asarray(triangles, dtype=np.int64)
        self.times = [float(t) for t in times]
        self.shapes = [np.asarray(s, dtype=np.float64) for s in shapes]
        self.matrices = [np.eye(4)] * len(times) if matrices is None else [np.asarray(m, float) for m in matrices]

    def _blend(self, items, t):
        times = self.times
        if t <= times[0]:
            return items[0]
        if t >= times[-1]:
            return items[-1]
        k = int(np.searchsorted(times, t, side="right")) - 1
        s = (t - times[k]) / (times[k + 1] - times[k])
        return items[k] + s * (items[k + 1] - items[k])

    def local(self, t: float) -> np.ndarray:
        return self._blend(self.shapes, t)

    def matrix(self, t: float) -> np.ndarray:
        return self._blend(self.matrices, t)

    def world(self, t: float) -> np.ndarray:
        return place(self.local(t), self.matrix(t))

    def pose(self, t: float) -> MeshPose:
        m = self.matrix(t)
        local = self.local(t)
        return MeshPose(place(local, m), m, local=local, triangles=self.triangles)

    def mesh(self, t: float) -> TriangleMesh:
        return TriangleMesh(self.local(t), self.triangles, transform=self.matrix(t))


def translated(offset, scale: float = 1.0) -> np.ndarray:
    """(4, 4) uniform scale, then translation."""
    m = np.diag([scale, scale, scale, 1.0])
    m[:3, 3] = offset
    return m


class Pair:
    """Two keyed meshes; `sample(t)` is the exact pair check there (core.collide), counted in `calls`."""

    def __init__(self, a: Keyed, b: Keyed):
        self.a, self.b = a, b
        self.calls = 0

    def contact(self, t: float):
        return collide(self.a.mesh(t), self.b.mesh(t))

    def sample(self, t: float) -> Sample:
        self.calls += 1
        c = self.contact(t)
        return Sample(t, c.status, c.distance, self.a.pose(t), self.b.pose(t), payload=c)


SPIKE_GRID = 4
"""The spiked sheet's grid: [-1, 1]^2 in 4 x 4 quads; its spike is the vertex at (-0.5, 0)."""


def spiked_sheet(times, apexes, matrices=None) -> Keyed:
    """A flat sheet whose vertex at (-0.5, 0) is keyed to `apexes[k]` at `times[k]` (a spike pulled out of the
    sheet; a shape key's keys).  The spike's tip leads: any other point of the sheet at height z < tip is
    behind it by at most (tip - z) x the spike's lean."""
    vertices, triangles = grid(SPIKE_GRID)
    index = (SPIKE_GRID // 2) * (SPIKE_GRID + 1) + 1
    shapes = []
    for apex in apexes:
        shape = vertices.copy()
        shape[index] = apex
        shapes.append(shape)
    return Keyed(triangles, times, shapes, matrices)


def slab(lo, hi, matrix=None) -> Keyed:
    """A still box."""
    vertices, triangles = box(lo, hi)
    return Keyed(triangles, [0.0], [vertices], None if matrix is None else [matrix])


def bulge(directions, axis, height, width=20.0):
    """Points of a unit sphere (`directions`) pushed out by a Gaussian bump of `height` around `axis`."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return directions * (1.0 + height * np.exp(-(1.0 - directions @ axis) * width))[:, None]


def deformed_pair(kind: str, vertices, rng):
    """Two seeded deformations (a, b) of one sphere's vertices: kind "jitter SIZE" (every vertex moved by a
    normal of that size) or "bulge HEIGHT" (a bump of that height, B's 0.5 to 1.5 times as high, at random
    axes)."""
    if kind.startswith("jitter"):
        size = float(kind.split()[1])
        return (vertices + rng.normal(scale=size, size=vertices.shape),
                vertices + rng.normal(scale=size, size=vertices.shape))
    height = float(kind.split()[1])
    a = bulge(vertices, rng.normal(size=3), height)
    return a, bulge(vertices, rng.normal(size=3), height * rng.uniform(0.5, 1.5))
