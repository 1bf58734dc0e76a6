"""Single meshes for the one-object checks (self-intersections, clearance between loose parts), engine-free.

Each case is local (vertices, triangles) plus a placement; `VARIANTS` places every case plainly, far from the
origin, tiny and huge (each with a seeded rotation), so each property is checked where float64 is hardest.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tests.core import mesh_corpus as mc
from tests.core import mesh_oracle as mo
from tests.core import meshes as mm

VARIANTS = ("plain", "far", "tiny", "huge")


def placement(variant: str, seed: int) -> np.ndarray:
    """The 4x4 placement of a variant: a seeded rotation, with a scale and an offset per variant."""
    rng = np.random.default_rng(seed)
    rotation = mc.random_rotation(rng)
    scale, offset = {"plain": (1.0, rng.uniform(-2, 2, 3)), "far": (1.0, 1e6 + rng.uniform(-2, 2, 3)),
                     "tiny": (1e-6, 1e-6 * rng.uniform(-2, 2, 3)), "huge": (1e6, 1e6 * rng.uniform(-2, 2, 3))}[variant]
    return mc.affine(scale * rotation, offset)


def scale_of(variant: str) -> float:
    return {"plain": 1.0, "far": 1.0, "tiny": 1e-6, "huge": 1e6}[variant]


@dataclass(frozen=True)
class Case:
    name: str
    vertices: np.ndarray
    triangles: np.ndarray
    transform: np.ndarray
    length: float | None = None       # the crossing curve's known length (world units), if known

    def mesh(self):
        import core
        return core.TriangleMesh(self.vertices, self.triangles, self.transform)

    def soup(self) -> mo.Soup:
        return mo.soup(self.vertices, self.triangles, self.transform)

    def part_soups(self, part_triangles) -> list:
        """The oracle's soup of each part, given the triangle index lists of the parts."""
        s = self.soup()
        return [mo.Soup(s.vertices, s.triangles[rows]) for rows in part_triangles]


# ----------------------------------------------------------------------------------------------- self-crossing

def two_boxes():
    """Two unit boxes overlapping by half on each axis, joined into one mesh: their surfaces cross along a closed
    curve of six half-unit edges (length 3)."""
    return mm.join(mm.box((0, 0, 0), (1, 1, 1)), mm.box((0.5, 0.5, 0.5), (1.5, 1.5, 1.5))), 3.0


def two_boxes_generic():
    """Two boxes overlapping at a corner by (0.7, 0.6, 0.55), where no face diagonal lies on the other box: the
    crossing curve runs round the overlap box, two edges of each length (3.7)."""
    return mm.join(mm.box((0, 0, 0), (1, 1, 1)), mm.box((0.3, 0.4, 0.45), (1.3, 1.35, 1.5))), 3.7


def tube(centre, tangent, radius=0.12, n=96, m=10):
    """A closed tube of `n` x `m` quads around the closed curve centre(u), u in [0, 2 pi)."""
    u = 2 * np.pi * (np.arange(n) + 0.5) / n
    c, d = centre(u), tangent(u)
    d = d / np.linalg.norm(d, axis=1)[:, None]
    up = np.array([0.0, 0.0, 1.0])
    side = np.cross(d, up)
    side /= np.linalg.norm(side, axis=1)[:, None]
    normal = np.cross(side, d)
    w = 2 * np.pi * np.arange(m) / m
    v = (c[:, None] + radius * (np.cos(w)[None, :, None] * side[:, None] + np.sin(w)[None, :, None] * normal[:, None]))
    i, j = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = i * m + j, ((i + 1) % n) * m + j
    cc, dd = ((i + 1) % n) * m + (j + 1) % m, i * m + (j + 1) % m
    t = np.concatenate([np.stack([a, b, cc], -1).reshape(-1, 3), np.stack([a, cc, dd], -1).reshape(-1, 3)])
    return v.reshape(-1, 3), t


def bent_ring():
    """A ring bent through itself: a tube around a figure of eight (x, y) = (cos u, sin 2u / 2), which passes
    through itself at the centre."""
    return tube(lambda u: np.stack([np.cos(u), 0.5 * np.sin(2 * u), 0 * u], 1),
                lambda u: np.stack([-np.sin(u), np.cos(2 * u), 0 * u], 1))


def folded_sheet(n=41, width=1.0):
    """An open sheet folded through itself: the loop curve (t^2 - 1, t^3 - t), t in [-1.5, 1.5], which crosses
    itself at t = +-1, swept along y over [0, width]: the two strips cross along a line of length `width`."""
    t = np.linspace(-1.5, 1.5, n)
    x, z = t * t - 1.0, t ** 3 - t
    v = np.concatenate([np.stack([x, np.zeros(n), z], 1), np.stack([x, np.full(n, width), z], 1)])
    i = np.arange(n - 1)
    tri = np.concatenate([np.stack([i, i + 1, n + i + 1], 1), np.stack([i, n + i + 1, n + i], 1)])
    return (v, tri), width


def with_duplicated_face(pair):
    v, t = pair
    return v, np.concatenate([t, t[:1], t[1:2, ::-1]])


def with_degenerate(pair, rng):
    """Zero-area triangles added: repeated corners, collinear corners (new vertices on existing edges)."""
    v, t = pair
    k = len(v)
    pick = t[rng.integers(0, len(t), 6)]
    mid = 0.5 * (v[pick[:, 0]] + v[pick[:, 1]])
    extra = [(p[0], p[0], p[1]) for p in pick[:3]] + [(p[0], p[1], k + r) for r, p in enumerate(pick)]
    return np.concatenate([v, mid]), np.concatenate([t, np.array(extra, np.int64)])


def self_cases(variant: str, seed: int = 23) -> list[Case]:
    """The self-crossing cases and the clean ones (expected length 0) under one variant."""
    rng = np.random.default_rng(seed)
    s = scale_of(variant)
    boxes, boxes_len = two_boxes()
    sheet, sheet_len = folded_sheet()
    generic, generic_len = two_boxes_generic()
    out = [
        ("two boxes", boxes, boxes_len),
        ("two boxes at a corner", generic, generic_len),
        ("bent ring", bent_ring(), None),
        ("folded sheet", sheet, sheet_len),
        ("sphere", mc.sphere(1.0, 32, 16), 0.0),
        ("torus", mc.torus(1.0, 0.3, 40, 16), 0.0),
        ("cup", mc.cup(n=32), 0.0),
        ("box with a duplicated face", with_duplicated_face(mc.box()), 0.0),
        ("two boxes with degenerate triangles", with_degenerate(boxes, rng), boxes_len),
        ("torus with degenerate triangles", with_degenerate(mc.torus(1.0, 0.3, 24, 12), rng), 0.0),
    ]
    return [Case(name, np.asarray(p[0], float), np.asarray(p[1], np.int64), placement(variant, seed + k),
                 None if length is None else length * s)
            for k, (name, p, length) in enumerate(out)]


# ----------------------------------------------------------------------------------------------- print in place

@dataclass(frozen=True)
class PartsCase(Case):
    parts: tuple = ()          # triangle index ranges (start, stop) of each part, in loose_parts order


def _joined(name, pieces, transform):
    v, t = mm.join(*pieces)
    bounds, start = [], 0
    for _, tri in pieces:
        bounds.append((start, start + len(tri)))
        start += len(tri)
    return PartsCase(name, np.asarray(v, float), np.asarray(t, np.int64), transform, None, tuple(bounds))


def ring(r_in, r_out, z0, z1, n=32):
    """A tube (a hole through a collar) about z: inner radius r_in, outer r_out, from z0 to z1."""
    return mc.revolve([(r_in, z0), (r_out, z0), (r_out, z1), (r_in, z1)], n)


def pin_in_hole():
    return [mc.cylinder(0.25, 1.0, 32), ring(0.3, 0.6, -0.5, 0.5, 32)]


def hinge():
    """Three knuckles on one axis, 0.05 apart along it, and a pin through them 0.05 from their bores (radially,
    at the vertices; the faces are closer by the polygon's apothem)."""
    knuckles = [ring(0.2, 0.4, z, z + 0.3, 24) for z in (-0.5, -0.15, 0.2)]
    return knuckles + [mc.cylinder(0.15, 0.7, 24)]


def ball_in_socket():
    """A ball of radius 0.5 in a spherical cavity of radius 0.56 whose opening (z = 0.4) is narrower than the
    ball."""
    rc, top = 0.56, 0.4
    theta = np.linspace(math.acos(top / rc), math.pi, 12)
    cavity = [(rc * math.sin(th), rc * math.cos(th)) for th in theta]
    cavity[-1] = (0.0, -rc)
    socket = mc.revolve([(0.0, -1.0), (1.0, -1.0), (1.0, top)] + cavity, 32)
    return [mc.sphere(0.5, 32, 16), socket]


def chain(links=3, major=1.0, minor=0.15, pitch=1.45):
    """`links` tori, centres `pitch` apart along x, alternately in the xy and xz planes: each passes through the
    hole of the next (the tubes stay apart), and every other link lies 2 pitch - 2 (major + minor) from its
    neighbour's neighbour."""
    out = []
    for k in range(links):
        v, t = mc.torus(major, minor, n=32, m=12)
        if k % 2:
            v = v @ np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float).T
        out.append((v + [k * pitch, 0.0, 0.0], t))
    return out


def touching_and_crossing():
    """Box 1 rests against a face of box 0 (touching over an area, no shared corner: parts are told apart by shared
    corners), box 2 crosses box 1, an open square crosses box 0, and a second open square (upright, 0.2 from box
    0) crosses the first."""
    v, t = mm.square(0.5, -0.5, 0.5)
    upright = np.array([[-0.2, 0.2, 0.0], [-0.2, 0.8, 0.0], [-0.2, 0.8, 1.0], [-0.2, 0.2, 1.0]])
    return [mc.box((0, 0, 0), (1, 1, 1)), mc.box((1, 0.2, 0.2), (2, 0.8, 1.2)), mc.box((1.5, 0.5, 0.5), (2.5, 1.5, 1.5)),
            (v + [0.1, 0.5, 0.0], t), (upright, np.array([[0, 1, 2], [0, 2, 3]]))]


def inside_a_solid():
    """A box buried in a solid block (far from its surface: no triangle comes near), and a box in a crate's
    cavity (the crate is an outer shell and an inward-facing cavity shell, two parts): as for two objects, a part
    inside a closed part's solid is listed, whatever the gap to the surfaces."""
    v, t = mc.crate(2.0, 1.5)
    outer, cavity = (v[:8], t[:12]), (v[8:], t[12:] - 8)
    return [mc.box((5, -2, -2), (9, 2, 2)), mc.box((6.5, -0.5, -0.5), (7.5, 0.5, 0.5)), outer, cavity,
            mc.box((-0.25, -0.25, -0.25), (0.25, 0.25, 0.25))]


def parts_cases(variant: str, seed: int = 29) -> list[PartsCase]:
    builders = [("pin in hole", pin_in_hole), ("hinge", hinge), ("ball in socket", ball_in_socket),
                ("chain of three links", chain), ("touching and crossing", touching_and_crossing),
                ("inside a solid", inside_a_solid)]
    return [_joined(name, build(), placement(variant, seed + k)) for k, (name, build) in enumerate(builders)]
