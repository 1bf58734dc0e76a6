"""Closed triangle meshes for the Exact-mode rows of the Blender benchmarks (bench/live.py, bench/scene_blender.py):
plain numpy arrays (vertices (n, 3), triangles (m, 3)) and one helper that makes a Blender object from them with
the data API (foreach_set; no operators).  Every mesh here is closed and consistently wound (outward normals)."""
from __future__ import annotations

import numpy as np


def _grid_triangles(rows: int, cols: int, wrap_rows: bool) -> np.ndarray:
    """Two triangles per cell of a rows x cols vertex grid that wraps around its columns (and its rows too when
    wrap_rows): vertex (i, j) is i * cols + j."""
    idx = np.arange(rows * cols).reshape(rows, cols)
    right = np.roll(idx, -1, axis=1)
    below = np.roll(idx, -1, axis=0)
    below_right = np.roll(right, -1, axis=0)
    cells = slice(None) if wrap_rows else slice(0, rows - 1)
    a, b, c, d = idx[cells], right[cells], below_right[cells], below[cells]
    return np.concatenate([np.stack([a, d, c], -1).reshape(-1, 3), np.stack([a, c, b], -1).reshape(-1, 3)])


def torus(major: float, minor: float, around: int, tube: int, noise: float = 0.0, rng=None):
    """A torus around the z axis: 2 * around * tube triangles; the tube radius varies by up to `noise` (relative)
    per vertex when noise > 0, which makes its surface bumpy (non-convex even locally)."""
    u = np.arange(around) * (2 * np.pi / around)
    v = np.arange(tube) * (2 * np.pi / tube)
    uu, vv = np.meshgrid(u, v, indexing="ij")
    r = np.full(uu.shape, minor)
    if noise:
        r = r * (1.0 + noise * rng.uniform(-1.0, 1.0, uu.shape))
    ring = major + r * np.cos(vv)
    co = np.stack([ring * np.cos(uu), ring * np.sin(uu), r * np.sin(vv)], -1).reshape(-1, 3)
    tris = _grid_triangles(around, tube, wrap_rows=True)
    return co, tris


def rod(radius: float, length: float, around: int, bands: int):
    """A closed cylinder along z, centred on the origin: `bands` rings of `around` vertices, two cap centres;
    2 * around * (bands - 1) + 2 * around triangles."""
    a = np.arange(around) * (2 * np.pi / around)
    z = np.linspace(-length / 2, length / 2, bands)
    zz, aa = np.meshgrid(z, a, indexing="ij")
    co = np.stack([radius * np.cos(aa), radius * np.sin(aa), zz], -1).reshape(-1, 3)
    side = _grid_triangles(bands, around, wrap_rows=False)[:, ::-1]
    bottom, top = len(co), len(co) + 1
    co = np.vstack([co, [[0, 0, -length / 2], [0, 0, length / 2]]])
    j = np.arange(around)
    first, last = j, (bands - 1) * around + j
    caps = np.concatenate([np.stack([np.full(around, bottom), (first + 1) % around, first], -1),
                           np.stack([np.full(around, top), last, (bands - 1) * around + (j + 1) % around], -1)])
    return co, np.concatenate([side, caps])


def noisy_sphere(rings: int, around: int, noise: float, rng):
    """A UV sphere of radius about 1 (rings latitude rings between two poles), every vertex pushed in or out by up
    to `noise` (relative): 2 * around * (rings - 1) + 2 * around triangles, not convex."""
    theta = np.linspace(0.0, np.pi, rings + 2)[1:-1]
    phi = np.arange(around) * (2 * np.pi / around)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    co = np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], -1).reshape(-1, 3)
    side = _grid_triangles(rings, around, wrap_rows=False)[:, ::-1]
    north, south = len(co), len(co) + 1
    co = np.vstack([co, [[0, 0, 1.0], [0, 0, -1.0]]])
    co *= (1.0 + noise * rng.uniform(-1.0, 1.0, len(co)))[:, None]
    j = np.arange(around)
    last = (rings - 1) * around + j
    caps = np.concatenate([np.stack([np.full(around, north), j, (j + 1) % around], -1),
                           np.stack([np.full(around, south), (rings - 1) * around + (j + 1) % around, last], -1)])
    return co, np.concatenate([side, caps])[:, ::-1]


def bent_tube(radius: float, bend: float, length: float, around: int, bands: int):
    """A closed tube bent along an arc of `bend` radians (a banana / elbow): `rod` with its axis curved in the xz
    plane; the same triangle count as `rod`."""
    co, tris = rod(radius, length, around, bands)
    curve = length / bend  # radius of the arc the axis follows
    angle = co[:, 2] / curve
    x = co[:, 0] + curve
    bent = np.stack([x * np.cos(angle) - curve, co[:, 1], x * np.sin(angle)], -1)
    return bent, tris


def mesh_object(bpy, name: str, co, tris):
    """A new object (linked to the scene's collection) whose mesh is these triangles."""
    tris = np.asarray(tris, dtype=np.int32)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(co))
    mesh.vertices.foreach_set("co", np.asarray(co, dtype=np.float32).ravel())
    mesh.loops.add(tris.size)
    mesh.loops.foreach_set("vertex_index", tris.ravel())
    mesh.polygons.add(len(tris))
    mesh.polygons.foreach_set("loop_start", np.arange(0, tris.size, 3, dtype=np.int32))
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj
