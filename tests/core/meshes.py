"""Small hand-built triangle meshes for the mesh engine's focused tests (outward-facing unless said otherwise)."""
from __future__ import annotations

import numpy as np

# corner index = 4x + 2y + z of the unit cube; faces wound counter-clockwise seen from outside
_CUBE_FACES = np.array([(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
                        (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)])


def box(lo=(0.0, 0.0, 0.0), hi=(1.0, 1.0, 1.0)):
    """(vertices, triangles) of the axis-aligned box [lo, hi]."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    unit = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    return lo + unit * (hi - lo), _CUBE_FACES.copy()


def join(*meshes):
    """One mesh made of several (vertices, triangles) as loose parts."""
    verts, tris, offset = [], [], 0
    for v, t in meshes:
        verts.append(v)
        tris.append(t + offset)
        offset += len(v)
    return np.concatenate(verts), np.concatenate(tris)


def flipped(mesh):
    v, t = mesh
    return v, t[:, ::-1].copy()


def crate(outer=(0.0, 3.0), inner=(1.0, 2.0)):
    """A hollow box: the outer box and an inward-facing cavity (a closed mesh of two shells)."""
    return join(box([outer[0]] * 3, [outer[1]] * 3), flipped(box([inner[0]] * 3, [inner[1]] * 3)))


def square(z, lo=-1.0, hi=2.0):
    """An open square at height z, two triangles facing +z."""
    v = np.array([[lo, lo, z], [hi, lo, z], [hi, hi, z], [lo, hi, z]])
    return v, np.array([[0, 1, 2], [0, 2, 3]])


def l_shape():
    """An L-shaped prism: [0,2]x[0,1]x[0,1] united with [0,1]x[1,2]x[0,1], as one closed non-convex mesh."""
    outline = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]], float)
    k = len(outline)
    verts = np.concatenate([np.c_[outline, np.zeros(k)], np.c_[outline, np.ones(k)]])
    tris = []
    for i in range(k):  # side walls
        j = (i + 1) % k
        tris += [(i, j, k + j), (i, k + j, k + i)]
    # bottom (facing -z) and top (facing +z): the L split into the two rectangles plus the joint
    bottom = [(0, 3, 1), (1, 3, 2), (0, 5, 3), (3, 5, 4)]
    tris += bottom + [(k + a, k + c, k + b) for a, b, c in bottom]
    return verts, np.array(tris)


def torus(major=1.0, minor=0.25, n=48, m=24):
    u = np.linspace(0, 2 * np.pi, n, endpoint=False)
    w = np.linspace(0, 2 * np.pi, m, endpoint=False)
    uu, ww = np.meshgrid(u, w, indexing="ij")
    ring = major + minor * np.cos(ww)
    v = np.stack([ring * np.cos(uu), ring * np.sin(uu), minor * np.sin(ww)], -1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = i * m + j, ((i + 1) % n) * m + j
    c, d = ((i + 1) % n) * m + (j + 1) % m, i * m + (j + 1) % m
    return v, np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([a, c, d], -1).reshape(-1, 3)])


def translate(mesh, offset):
    v, t = mesh
    return v + np.asarray(offset, float), t


def mesh(pair, transform=None):
    import core
    return core.TriangleMesh(pair[0], pair[1], transform)


def revolve(profile, n=24):
    """A closed surface of revolution about z from a closed (r, z) polygon listed counter-clockwise in the
    (r, z) half-plane; profile points with r = 0 become poles."""
    profile = np.asarray(profile, float)
    angles = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    verts, index = [], {}
    for i, (r, z) in enumerate(profile):
        if r == 0.0:
            index[i] = [len(verts)] * n
            verts.append([0.0, 0.0, z])
        else:
            index[i] = list(range(len(verts), len(verts) + n))
            verts += [[r * np.cos(a), r * np.sin(a), z] for a in angles]
    tris = []
    k = len(profile)
    for i in range(k):
        j = (i + 1) % k
        for s in range(n):
            s1 = (s + 1) % n
            p, q, r_, u = index[i][s], index[i][s1], index[j][s1], index[j][s]
            # the profile runs counter-clockwise in (r, z): this winding makes the faces point outwards
            for tri in ((p, q, r_), (p, r_, u)):
                if len(set(tri)) == 3:
                    tris.append(tri)
    return np.array(verts), np.array(tris)


def cup(n=24):
    """A cup: outer radius 1, inner radius 0.8, floor 0.2 thick, height 1.5 (a solid of revolution)."""
    return revolve([(0.0, 0.0), (1.0, 0.0), (1.0, 1.5), (0.8, 1.5), (0.8, 0.2), (0.0, 0.2)], n)


def ball(radius=0.5, n=24, m=12):
    profile = [(0.0, -radius)] + [(radius * np.sin(t), -radius * np.cos(t)) for t in np.linspace(0, np.pi, m + 1)[1:-1]] \
        + [(0.0, radius)]
    return revolve(profile, n)
