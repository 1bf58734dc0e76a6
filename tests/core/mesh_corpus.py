"""A seeded corpus of triangle-mesh pairs for `test_mesh_corpus.py` (deterministic; the engine is never called).

Every case is built by `numpy.random.default_rng([CORPUS_SEED, crc32(family), index])`, so one case can be rebuilt
on its own: `make_case("cup", 7)`.  Index i of a family is base case i // 3, as built (i % 3 == 0) or under two of
the other variants (`variant_of`: far and huge, tiny and affine, huge and far, affine and tiny, in turn):
- base:   as built;
- far:    both meshes moved 1e5..1e6 from the origin, given to the engine as raw world arrays;
- tiny:   both scaled by 1e-4 (through the transform argument);
- huge:   both scaled by 1e4 (through the transform argument);
- affine: one non-uniform, sheared, mirrored (det < 0) transform for both (incidence and containment survive an
          affine map, so the verdict does; distances do not, and are left to the oracle).

Each case carries what is known by construction: `expected` (the status, or None when only the oracle can say),
`containment` ("A_INSIDE_B", "B_INSIDE_A" or None), `volume` (True when the overlap has volume: the depth must be
> 0), `convex` (both meshes convex: the answer must equal the convex engine's on their vertices) and `distance`
(the exact distance when the construction fixes it, in world units; only for similarity variants).

Families (FAMILIES): rod_torus (a rod through a torus hole: free, on the axis, grazing at 1e-6 and 1e-8 x scale,
touching, hitting), chain (two linked tori: free and crossing), cup (a ball in a solidified cup: free, resting on
the bottom, sunk into the wall, above the rim), crate (a box in a hollow crate: free in the cavity, resting on the
cavity floor, through the inner wall, wholly inside the wall material), contain (a closed mesh wholly inside
another, A in B and B in A), stacked (boxes face to face: touching, 1e-6 apart, 1e-6 overlapping, side by side),
plane (an open grid crossing, above, touching and inside a closed mesh), lshape (interlocking L prisms: apart,
touching, overlapping, also shifted along their extrusion), random (noisy star-shaped spheres at random poses,
and one inside another), degenerate (cases of the other families with duplicate, unreferenced vertices, zero-area
triangles and shuffled triangles, which must not change any answer), furniture (a stool with a low back pushed
under a table, both meshes of several boxes, the table's legs reaching into its top: free, the back touching the
top's underside, a stool leg through a table leg).
"""
from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass, replace

import numpy as np

from tests.core.mesh_oracle import Soup, soup

__all__ = ["MeshSpec", "MeshCase", "FAMILIES", "VARIANTS", "PER_BASE", "variant_of", "make_case", "corpus",
           "random_rotation",
           "box", "revolve", "sphere", "torus", "cylinder", "cup", "crate", "prism", "grid", "star"]

CORPUS_SEED = 20261123
VARIANTS = ("base", "far", "tiny", "huge", "affine")


# ----------------------------------------------------------------------------------------------- records

@dataclass(frozen=True, eq=False)
class MeshSpec:
    """A mesh as handed to the engine: local vertices, triangles and an optional 4x4 transform."""

    vertices: np.ndarray
    triangles: np.ndarray
    transform: np.ndarray | None = None

    def soup(self) -> Soup:
        return soup(self.vertices, self.triangles, self.transform)

    def build(self):
        import core  # the engine, only here

        return core.TriangleMesh(self.vertices, self.triangles, transform=self.transform)

    def moved(self, m: np.ndarray, bake: bool = False) -> "MeshSpec":
        """This mesh under the 4x4 map `m` applied after its own transform (baked into the vertices if asked)."""
        full = m if self.transform is None else m @ self.transform
        if bake:
            v = self.vertices @ full[:3, :3].T + full[:3, 3]
            return MeshSpec(v, self.triangles, None)
        return MeshSpec(self.vertices, self.triangles, full)

    @property
    def size(self) -> int:
        return len(self.triangles)


@dataclass(frozen=True, eq=False)
class MeshCase:
    family: str
    index: int
    a: MeshSpec
    b: MeshSpec
    expected: str | None = None
    containment: str | None = None
    volume: bool = False
    convex: bool = False
    distance: float | None = None
    note: str = ""
    variant: str = "base"
    escape: np.ndarray | None = None
    """A world translation of B known by construction to leave the pair touching or apart (intersecting cases):
    the shortest separating translation is at most its length, so the depth may not exceed it."""

    @property
    def name(self) -> str:
        return f"{self.family}/{self.index}"


# ----------------------------------------------------------------------------------------------- mesh builders

def _orient_outward(v: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Flip all triangles when the signed volume is negative (the builders do not track winding by hand)."""
    tri = v[t]
    vol = np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum()
    return t[:, ::-1].copy() if vol < 0 else t


def box(lo=(0.0, 0.0, 0.0), hi=(1.0, 1.0, 1.0)):
    """An axis-aligned box, 8 vertices and 12 outward triangles."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    v = np.array([[(lo, hi)[x][0], (lo, hi)[y][1], (lo, hi)[z][2]] for x in (0, 1) for y in (0, 1) for z in (0, 1)])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    t = np.array([tri for q in quads for tri in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))], dtype=np.int64)
    return v, _orient_outward(v, t)


def revolve(profile, n: int, phase: float = 0.0):
    """The closed surface of revolution of a closed (r, z) polygon about the z axis, `n` segments.

    A profile point with r == 0 becomes one pole vertex; profile edges along the axis make no triangles."""
    vs, rings = [], []
    angles = phase + 2.0 * np.pi * np.arange(n) / n
    cos, sin = np.cos(angles), np.sin(angles)
    cos[np.isclose(angles % (2 * np.pi), 0.0)] = 1.0
    sin[np.isclose(angles % (2 * np.pi), 0.0)] = 0.0
    count = 0
    for r, z in profile:
        if r == 0.0:
            vs.append(np.array([[0.0, 0.0, z]]))
            rings.append(np.full(n, count))
            count += 1
        else:
            vs.append(np.stack([r * cos, r * sin, np.full(n, z)], axis=1))
            rings.append(count + np.arange(n))
            count += n
    tris = []
    k = len(profile)
    for i in range(k):
        p, q = rings[i], rings[(i + 1) % k]
        p_pole, q_pole = profile[i][0] == 0.0, profile[(i + 1) % k][0] == 0.0
        if p_pole and q_pole:
            continue
        for j in range(n):
            j1 = (j + 1) % n
            if not p_pole:
                tris.append((p[j], p[j1], q[j1] if not q_pole else q[0]))
            if not q_pole:
                tris.append((p[j] if not p_pole else p[0], q[j1], q[j]))
    v = np.concatenate(vs)
    t = np.array(tris, dtype=np.int64)
    return v, _orient_outward(v, t)


def sphere(radius=1.0, n=24, rings=12):
    """A UV sphere: poles at (0, 0, +-radius) exactly."""
    theta = np.pi * np.arange(rings + 1) / rings
    profile = [(radius * math.sin(th), -radius * math.cos(th)) for th in theta]
    profile[0], profile[-1] = (0.0, -radius), (0.0, radius)
    return revolve(profile, n)


def torus(major=1.0, minor=0.25, n=32, m=16):
    """A torus about the z axis; the profile has vertices at the inner and outer equator (r = major -+ minor)."""
    phi = 2.0 * np.pi * np.arange(m) / m
    profile = [(major + minor * math.cos(p), minor * math.sin(p)) for p in phi]
    profile[m // 2] = (major - minor, 0.0) if m % 2 == 0 else profile[m // 2]
    profile[0] = (major + minor, 0.0)
    return revolve(profile, n)


def cylinder(radius=0.25, half_height=1.5, n=24):
    """A closed cylinder along z (a rod), ring vertex 0 at angle 0."""
    return revolve([(0.0, -half_height), (radius, -half_height), (radius, half_height), (0.0, half_height)], n)


def cup(outer=1.0, inner=0.8, height=1.5, bottom=0.125, n=32):
    """A solidified open-top cup: wall thickness outer - inner, bottom thickness `bottom`, inner floor at z = bottom."""
    return revolve([(0.0, 0.0), (outer, 0.0), (outer, height), (inner, height), (inner, bottom), (0.0, bottom)], n)


def crate(outer=2.0, inner=1.5):
    """A hollow crate: the box [-outer, outer]^3 with a closed cavity [-inner, inner]^3 (inner shell flipped)."""
    vo, to = box((-outer,) * 3, (outer,) * 3)
    vi, ti = box((-inner,) * 3, (inner,) * 3)
    return np.concatenate([vo, vi]), np.concatenate([to, ti[:, ::-1] + len(vo)])


def prism(polygon, z0=0.0, z1=1.0, fan_from=0):
    """A polygon (k, 2) extruded from z0 to z1; the caps are fans from vertex `fan_from` (it must see all)."""
    poly = np.asarray(polygon, float)
    k = len(poly)
    v = np.concatenate([np.c_[poly, np.full(k, z0)], np.c_[poly, np.full(k, z1)]])
    tris = []
    order = [(fan_from + i) % k for i in range(k)]
    for i in range(1, k - 1):
        tris.append((order[0], order[i + 1], order[i]))
        tris.append((k + order[0], k + order[i], k + order[i + 1]))
    for i in range(k):
        j = (i + 1) % k
        tris += [(i, j, k + j), (i, k + j, k + i)]
    t = np.array(tris, dtype=np.int64)
    return v, _orient_outward(v, t)


def grid(size=1.0, n=8, z=0.0):
    """An open square grid [-size, size]^2 at height z, 2 n^2 triangles facing +z."""
    s = np.linspace(-size, size, n + 1)
    x, y = np.meshgrid(s, s, indexing="ij")
    v = np.stack([x.ravel(), y.ravel(), np.full(x.size, z)], axis=1)
    idx = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel(), idx[:-1, 1:].ravel()
    t = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])
    return v, t


def star(rng, radius=1.0, noise=0.3, n=24, rings=12):
    """A noisy star-shaped sphere: each vertex's radius times 1 + noise * U(-1, 1) (non-convex, closed, simple).

    Returns the mesh and the smallest and largest vertex radius."""
    v, t = sphere(1.0, n, rings)
    f = radius * (1.0 + noise * rng.uniform(-1.0, 1.0, len(v)))
    return v * f[:, None], t, float(f.min()), float(f.max())


# ----------------------------------------------------------------------------------------------- transforms

def random_rotation(rng) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


def affine(linear=None, offset=(0.0, 0.0, 0.0)) -> np.ndarray:
    m = np.eye(4)
    if linear is not None:
        m[:3, :3] = linear
    m[:3, 3] = offset
    return m


def _spec(vt, transform=None) -> MeshSpec:
    v, t = vt
    return MeshSpec(np.asarray(v, float), np.asarray(t, np.int64), transform)


# ----------------------------------------------------------------------------------------------- families
# Each builder takes (rng, k) for its k-th base case and returns a MeshCase (family and index filled in later).

def _rod_torus(rng, k):
    kinds = ("free", "axis", "graze6", "graze8", "touch", "hit")
    kind = kinds[k % len(kinds)]
    n_ring = (24, 40)[(k // len(kinds)) % 2]
    tor = torus(1.0, 0.25, n=n_ring, m=12)          # the hole's innermost vertices lie at radius 0.75, at angle 0
    rho, hh = 0.25, 1.5
    scale = math.sqrt(2.5 ** 2 * 2 + 0.5 ** 2)      # the torus's bounding-box diagonal (the larger one)
    rot = random_rotation(rng)
    place = affine(rot, rng.uniform(-2, 2, 3))
    expected, dist, volume, note, escape = "SEPARATED", None, False, kind, None
    if kind == "free":
        e = rng.uniform(0.05, 0.3)                  # rod edge at most at 0.55: clear of the hole's polygon (> 0.73)
    elif kind == "axis":
        e = 0.0
    elif kind in ("graze6", "graze8", "touch"):
        gap = {"graze6": 1e-6, "graze8": 1e-8, "touch": 0.0}[kind] * scale
        e = 0.5 - gap                                # rod vertex column at x = e + rho = 0.75 - gap, y = 0
        # (the torus's chords bend towards the rod, so the distance is slightly below gap: the oracle says)
        if kind == "touch":
            expected, dist = "TOUCHING", 0.0
    else:
        e = rng.uniform(0.55, 0.7)                   # rod edge at 0.8 .. 0.95: inside the tube
        expected, volume = "INTERSECTING", True
        escape = rot @ [e - 0.3, 0.0, 0.0]           # the torus moved so that the rod edge is at 0.55: free
    rod = cylinder(rho, hh, n=24)
    rod_v = rod[0] + [e, 0.0, 0.0]
    a = MeshSpec(rod_v, rod[1]).moved(place, bake=True)
    b = MeshSpec(*tor).moved(place, bake=True)
    return MeshCase("", 0, a, b, expected, None, volume, False, dist, note, escape=escape)


@functools.lru_cache(maxsize=None)
def _circle_gap(major: float) -> float:
    """Smallest distance between the two central circles of the `chain` links (dense sampling, then refined)."""
    t = np.linspace(0, 2 * np.pi, 2001)
    c1 = np.stack([major * np.cos(t), major * np.sin(t), 0 * t], 1)
    c2 = np.stack([major + major * np.cos(t), 0 * t, major * np.sin(t)], 1)
    d = np.sqrt(((c1[:, None] - c2[None]) ** 2).sum(-1))
    return float(d.min())


def _chain(rng, k):
    kinds = ("free", "cross")
    kind = kinds[k % 2]
    major = 1.0
    gap = _circle_gap(major)
    minor = (0.3 if kind == "free" else 0.75) * gap   # tube radii sum 0.6 x gap (free) or 1.5 x gap (crossing)
    t1 = torus(major, minor, n=32, m=12)
    t2 = torus(major, minor, n=32, m=12)
    link2 = affine(np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float), (major, 0, 0))  # xz plane, through the hole
    place = affine(random_rotation(rng), rng.uniform(-2, 2, 3))
    a = MeshSpec(*t1).moved(place, bake=True)
    b = MeshSpec(*t2).moved(place @ link2, bake=(k % 4 < 2))
    if kind == "free":
        return MeshCase("", 0, a, b, "SEPARATED", None, False, False, None, "links apart")
    return MeshCase("", 0, a, b, "INTERSECTING", None, True, False, None, "links crossing")


def _cup(rng, k):
    kinds = ("free", "rest", "sunk", "above")
    kind = kinds[k % len(kinds)]
    c = cup(1.0, 0.8, 1.5, 0.125, n=32)
    rho = 0.5
    ball = sphere(rho, n=24, rings=12)
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    dist, volume, expected, note, escape = None, False, "SEPARATED", kind, None
    if kind == "free":
        off = np.array([*rng.uniform(-0.1, 0.1, 2), 0.125 + rho + rng.uniform(0.05, 0.5)])
    elif kind == "rest":
        # the south pole (0, 0, -rho) lands on the floor z = 0.125, off the floor's pole vertex
        off = np.array([*rng.uniform(-0.2, 0.2, 2), 0.625])
        expected, dist = "TOUCHING", 0.0
    elif kind == "sunk":
        ang = rng.uniform(0, 2 * np.pi)
        off = np.array([0.55 * math.cos(ang), 0.55 * math.sin(ang), 0.9])  # reaches radius 1.05: through the wall
        expected, volume = "INTERSECTING", True
        # the cup moved 0.3 outwards: the ball's centre at radius 0.25, its surface within 0.75 < 0.798 (wall)
        escape = place[:3, :3] @ [0.3 * math.cos(ang), 0.3 * math.sin(ang), 0.0]
    else:
        off = np.array([*rng.uniform(-0.3, 0.3, 2), 1.5 + rho + rng.uniform(0.01, 0.3)])
    a = MeshSpec(ball[0] + off, ball[1]).moved(place, bake=(k % 2 == 0))
    b = MeshSpec(*c).moved(place, bake=True)
    return MeshCase("", 0, a, b, expected, None, volume, False, dist, note, escape=escape)


def _crate(rng, k):
    kinds = ("free", "rest", "through", "in_wall")
    kind = kinds[k % len(kinds)]
    cr = crate(2.0, 1.5)
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    containment, volume, dist, expected, escape = None, False, None, "SEPARATED", None
    if kind == "free":
        half = rng.uniform(0.2, 0.8, 3)
        centre = rng.uniform(-1.5 + half + 0.05, 1.5 - half - 0.05)
        lo, hi = centre - half, centre + half
        dist = float(min((lo + 1.5).min(), (1.5 - hi).min()))
    elif kind == "rest":
        half = rng.uniform(0.2, 0.8, 3)
        centre = rng.uniform(-1.5 + half + 0.05, 1.5 - half - 0.05)
        centre[2] = -1.5 + half[2]
        lo, hi = centre - half, centre + half
        lo[2] = -1.5
        expected, dist = "TOUCHING", 0.0
    elif kind == "through":
        half = rng.uniform(0.2, 0.45, 3)
        centre = rng.uniform(-1.0, 1.0, 3)
        centre[0] = 1.5                              # straddles the inner wall x = 1.5
        lo, hi = centre - half, centre + half
        expected, volume = "INTERSECTING", True
        escape = place[:3, :3] @ [hi[0] - 1.5, 0.0, 0.0]   # the crate moved until the box is in the cavity
    else:
        half = np.array([0.1, *rng.uniform(0.2, 1.0, 2)])
        centre = np.array([1.75, *rng.uniform(-0.8, 0.8, 2)])  # inside the wall x in [1.5, 2]
        lo, hi = centre - half, centre + half
        expected, volume, containment = "INTERSECTING", True, "A_INSIDE_B"
        escape = place[:3, :3] @ [lo[0] - 2.0, 0.0, 0.0]   # the crate moved until the box is out, face to face
    a = MeshSpec(*box(lo, hi)).moved(place, bake=(k % 2 == 0))
    b = MeshSpec(*cr).moved(place, bake=True)
    return MeshCase("", 0, a, b, expected, containment, volume, False, dist, kind, escape=escape)


def _contain(rng, k):
    kinds = ("sphere_in_box", "box_in_sphere", "star_in_star", "torus_in_sphere", "box_in_box", "sphere_in_cup_wall")
    kind = kinds[(k // 2) % len(kinds)]
    swap = k % 2 == 1
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    if kind == "sphere_in_box":
        inner = sphere(rng.uniform(0.2, 0.8), n=20, rings=10)
        inner = (inner[0] + rng.uniform(-0.1, 0.1, 3), inner[1])
        outer = box((-1.0,) * 3, (1.0,) * 3)
    elif kind == "box_in_sphere":
        h = rng.uniform(0.1, 0.45)
        inner = box((-h,) * 3, (h,) * 3)
        outer = sphere(1.0, n=24, rings=12)             # a UV sphere contains the ball of radius ~0.96
    elif kind == "star_in_star":
        big = star(rng, 1.0, 0.2)
        small = star(rng, 0.3, 0.2)
        inner, outer = (small[0] + rng.uniform(-0.1, 0.1, 3), small[1]), big[:2]
    elif kind == "torus_in_sphere":
        inner = torus(0.5, 0.15, n=24, m=12)
        outer = sphere(1.0, n=32, rings=16)
    elif kind == "box_in_box":
        inner = box(rng.uniform(-0.9, -0.5, 3), rng.uniform(0.5, 0.9, 3))
        outer = box((-1.0,) * 3, (1.0,) * 3)
    else:
        inner = sphere(0.05, n=12, rings=6)
        inner = (inner[0] + [0.9, 0.0, 0.75], inner[1])  # inside the cup's wall (r 0.8..1.0)
        outer = cup(1.0, 0.8, 1.5, 0.125, n=48)
    a, b = MeshSpec(*inner).moved(place, bake=True), MeshSpec(*outer).moved(place, bake=(k % 4 < 2))
    cont = "A_INSIDE_B"
    if swap:
        a, b, cont = b, a, "B_INSIDE_A"
    convex = kind in ("sphere_in_box", "box_in_sphere", "box_in_box")
    return MeshCase("", 0, a, b, "INTERSECTING", cont, True, convex, None, kind + (" swapped" if swap else ""))


def _stacked(rng, k):
    kinds = ("touch", "gap6", "over6", "side_touch", "touch_offset", "gap_band")
    kind = kinds[k % len(kinds)]
    size_a = rng.uniform(0.5, 1.5, 3)
    size_b = rng.uniform(0.5, 1.5, 3)
    lo_a = np.zeros(3)
    hi_a = size_a
    axis = 0 if kind == "side_touch" else 2
    other = [i for i in range(3) if i != axis]
    lo_b = np.zeros(3)
    lo_b[other] = rng.uniform(-0.4, 0.4, 2) * size_a[other]
    if kind == "touch_offset":
        lo_b[other] = size_a[other] - 0.25 * size_b[other]   # only a corner patch of the faces overlaps
    scale_guess = float(np.linalg.norm(np.maximum(size_a, size_b)) * 2)
    shift = {"touch": 0.0, "side_touch": 0.0, "touch_offset": 0.0, "gap6": 1e-6, "over6": -1e-6,
             "gap_band": 1e-11}[kind] * scale_guess
    lo_b[axis] = hi_a[axis] + shift
    hi_b = lo_b + size_b
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    a = MeshSpec(*box(lo_a, hi_a)).moved(place, bake=(k % 2 == 0))
    b = MeshSpec(*box(lo_b, hi_b)).moved(place, bake=(k % 2 == 0))
    expected = {"touch": "TOUCHING", "side_touch": "TOUCHING", "touch_offset": "TOUCHING", "gap_band": "TOUCHING",
                "gap6": "SEPARATED", "over6": "INTERSECTING"}[kind]
    dist = None if expected == "INTERSECTING" else max(shift, 0.0)
    return MeshCase("", 0, a, b, expected, None, expected == "INTERSECTING", True, dist, kind)


def _plane(rng, k):
    kinds = ("cross", "above", "touch", "inside", "cross_box", "below_far")
    kind = kinds[k % len(kinds)]
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    rho = 1.0
    solid = sphere(rho, n=24, rings=12) if kind != "cross_box" else box((-1,) * 3, (1,) * 3)
    containment, volume, dist, expected, escape = None, False, None, "SEPARATED", None
    if kind in ("cross", "cross_box"):
        z = rng.uniform(-0.6, 0.6)
        plane = grid(2.0, 7, z)                      # grid lines off the box's edges (x, y = +-1): a generic cut
        expected = "INTERSECTING"
        escape = place[:3, :3] @ [0.0, 0.0, z - 1.0]  # the solid moved down until its top touches the grid
    elif kind == "above":
        g = rng.uniform(0.01, 0.5)
        plane = grid(2.0, 7, rho + g)                # the north pole (0, 0, rho) is under the grid's interior
        dist = g
    elif kind == "touch":
        plane = grid(2.0, 7, rho)
        expected, dist = "TOUCHING", 0.0
    elif kind == "inside":
        z = rng.uniform(-0.3, 0.3)
        plane = grid(0.4, 4, z)
        expected, containment, volume = "INTERSECTING", "A_INSIDE_B", False
        escape = place[:3, :3] @ [0.0, 0.0, z - 1.0]
    else:
        plane = grid(2.0, 6, -rho - 0.75)
        dist = 0.75
    a = MeshSpec(*plane).moved(place, bake=(k % 2 == 0))
    b = MeshSpec(*solid).moved(place, bake=True)
    return MeshCase("", 0, a, b, expected, containment, volume, False, dist, "open grid " + kind, escape=escape)


def _lshape(rng, k):
    kinds = ("apart", "touch", "overlap", "apart_shift", "overlap_shift")
    kind = kinds[k % len(kinds)]
    g = {"apart": 0.05, "touch": 0.0, "overlap": -0.1, "apart_shift": 0.02, "overlap_shift": -0.05}[kind]
    g = g * rng.uniform(0.5, 1.0)
    hook = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (0, 1)]      # bar along x, arm up at the right end
    dz = 0.5 if kind.endswith("shift") else 0.0
    la = prism(hook, 0.0, 1.0, fan_from=4)
    lb = prism(hook, dz, 1.0 + dz, fan_from=4)
    # B is A turned half a turn about z and placed so each arm sits in the other's corner, g apart
    flip = affine(np.diag([-1.0, -1.0, 1.0]), (4.0 - g, 4.0 + g, 0.0))
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    a = MeshSpec(*la).moved(place, bake=True)
    b = MeshSpec(*lb).moved(place @ flip, bake=(k % 2 == 0))
    expected = "SEPARATED" if g > 0 else ("TOUCHING" if g == 0 else "INTERSECTING")
    dist = g if g >= 0 else None
    # B moved by (g, -g) (g < 0): its arm leaves A's arm and rises off A's bar while its bar rises off A's arm
    escape = place[:3, :3] @ [g, -g, 0.0] if g < 0 else None
    return MeshCase("", 0, a, b, expected, None, g < 0, False, dist, kind, escape=escape)


def _random(rng, k):
    a_v, a_t, _, a_max = star(rng, 1.0, 0.3, n=rng.integers(16, 32), rings=rng.integers(8, 16))
    if k % 5 == 4:
        b_v, b_t, b_min, _ = star(rng, 3.0, 0.15)
        off = rng.uniform(-0.3, 0.3, 3)
        # A within radius |off| + a_max of B's centre; B's surface lies beyond b_min * cos(pi / 12) (facets)
        assert np.linalg.norm(off) + a_max < b_min * math.cos(math.pi / 12)
        place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
        a = MeshSpec(a_v + off, a_t).moved(place, bake=True)
        b = MeshSpec(b_v, b_t).moved(place, bake=True)
        return MeshCase("", 0, a, b, "INTERSECTING", "A_INSIDE_B", True, False, None, "star in star")
    b_v, b_t, _, _ = star(rng, rng.uniform(0.5, 1.5), 0.3, n=rng.integers(16, 32), rings=rng.integers(8, 16))
    d = rng.uniform(1.0, 3.0)
    a = MeshSpec(a_v, a_t, affine(random_rotation(rng)))
    b = MeshSpec(b_v, b_t, affine(random_rotation(rng), d * _unit(rng)))
    return MeshCase("", 0, a, b, None, None, False, False, None, f"stars {d:.2f} apart")


def _unit(rng):
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def boxes(*corners):
    """One mesh of several boxes (each closed; they may touch or overlap: a self-intersecting mesh is legal)."""
    vs, ts, n = [], [], 0
    for lo, hi in corners:
        v, t = box(lo, hi)
        vs.append(v)
        ts.append(t + n)
        n += len(v)
    return np.concatenate(vs), np.concatenate(ts)


def table(top=0.75, thick=0.05, half=(1.0, 0.6), leg=0.05):
    """A table: a top slab and four legs that reach 0.02 into it (five loose parts, overlapping)."""
    hx, hy = half
    parts = [((-hx, -hy, top - thick), (hx, hy, top))]
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = sx * (hx - 2 * leg), sy * (hy - 2 * leg)
            parts.append(((cx - leg, cy - leg, 0.0), (cx + leg, cy + leg, top - thick + 0.02)))
    return boxes(*parts)


def stool(seat=0.4, back=0.65, half=0.25, leg=0.03):
    """A stool with a low back: seat, four legs and a backrest, separate boxes touching face to face."""
    parts = [((-half, -half, seat - 0.05), (half, half, seat)), ((half - 0.05, -half, seat), (half, half, back))]
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = sx * (half - leg), sy * (half - leg)
            parts.append(((cx - leg, cy - leg, 0.0), (cx + leg, cy + leg, seat - 0.05)))
    return boxes(*parts)


def _furniture(rng, k):
    """A stool pushed under a table: free, its back touching the table top's underside, a leg through a table leg."""
    kinds = ("free", "touch", "leg_through")
    kind = kinds[k % len(kinds)]
    place = affine(random_rotation(rng), rng.uniform(-3, 3, 3))
    expected, volume, dist, escape = "SEPARATED", False, None, None
    if kind == "free":
        off = np.array([*rng.uniform(-0.3, 0.3, 2), 0.0])
    elif kind == "touch":
        off = np.array([*rng.uniform(-0.3, 0.3, 2), 0.05])   # the back's top face on the top's underside (z = 0.7)
        expected, dist = "TOUCHING", 0.0
    else:
        # a stool leg (centre at +-0.22) through the table leg at (0.9, 0.5): the stool centred near (0.68, 0.28)
        off = np.array([0.68 + rng.uniform(-0.02, 0.02), 0.28 + rng.uniform(-0.02, 0.02), 0.0])
        expected, volume = "INTERSECTING", True
        escape = place[:3, :3] @ [off[0] + 0.25 - 0.85, 0.0, 0.0]  # the table moved until its leg clears the stool's
    st = stool()
    a = MeshSpec(st[0] + off, st[1]).moved(place, bake=(k % 2 == 0))
    b = MeshSpec(*table()).moved(place, bake=True)
    return MeshCase("", 0, a, b, expected, None, volume, False, dist, "stool under a table: " + kind, escape=escape)


def dirty(spec: MeshSpec, rng, slivers: bool = True) -> MeshSpec:
    """The same surface with duplicate vertices, unreferenced vertices (inside the bounds), zero-area triangles
    (i, i, j) and (i, j, i), shuffled order, and (if `slivers`) a doubled collinear sliver (a, b, m) + (a, m, b)
    with m the middle of an edge (zero area, and its edges cancel: the surface stays closed)."""
    v, t = np.asarray(spec.vertices, float), np.asarray(spec.triangles, np.int64).copy()
    n = len(v)
    dup = rng.choice(n, size=max(1, n // 3), replace=False)
    v = np.concatenate([v, v[dup]])
    remap = dict(zip(dup.tolist(), range(n, n + len(dup))))
    for r in rng.choice(len(t), size=len(t) // 2, replace=False):
        t[r] = [remap.get(int(x), int(x)) if rng.random() < 0.7 else int(x) for x in t[r]]
    lo, hi = v.min(0), v.max(0)
    v = np.concatenate([v, rng.uniform(lo, hi, (5, 3))])                 # unreferenced, inside the bounds
    extra = []
    for r in rng.choice(len(t), size=min(6, len(t)), replace=False):
        i, j, _ = t[r]
        extra += [(i, i, j), (i, j, i)]
    if slivers:
        e0, e1 = t[0, 0], t[0, 1]
        v = np.concatenate([v, 0.5 * (v[e0] + v[e1])[None]])
        m = len(v) - 1
        extra += [(e0, e1, m), (e0, m, e1)]
    t = np.concatenate([t, np.array(extra, np.int64)])
    t = t[rng.permutation(len(t))]
    return MeshSpec(v, t, spec.transform)


def _degenerate(rng, k):
    sources = (("stacked", 0), ("crate", 0), ("crate", 3), ("contain", 0), ("cup", 1), ("rod_torus", 4),
               ("plane", 1), ("lshape", 1), ("contain", 5), ("cup", 2))
    fam, base = sources[k % len(sources)]
    src = _BUILDERS[fam](np.random.default_rng([CORPUS_SEED, 7, k]), base)
    slivers = k >= len(sources)      # the first round without collinear slivers, the second with them
    a, b = dirty(src.a, rng, slivers), dirty(src.b, rng, slivers)
    return replace(src, a=a, b=b, note=f"dirty{'+slivers' if slivers else ''} {fam}:{src.note}")


_BUILDERS = {"rod_torus": _rod_torus, "chain": _chain, "cup": _cup, "crate": _crate, "contain": _contain,
             "stacked": _stacked, "plane": _plane, "lshape": _lshape, "random": _random, "degenerate": _degenerate,
             "furniture": _furniture}

FAMILIES = {  # family -> number of base cases (each runs as built and under two variants)
    "rod_torus": 12, "chain": 4, "cup": 8, "crate": 8, "contain": 12, "stacked": 12,
    "plane": 12, "lshape": 10, "random": 10, "degenerate": 20, "furniture": 6,
}


# ----------------------------------------------------------------------------------------------- variants

def _variant(case: MeshCase, variant: str, rng) -> MeshCase:
    if variant == "base":
        return case
    if variant == "far":
        offset = _unit(rng) * rng.uniform(1e5, 1e6)
        m, bake, factor = affine(None, offset), True, 1.0
    elif variant in ("tiny", "huge"):
        factor = 1e-4 if variant == "tiny" else 1e4
        m, bake = affine(np.eye(3) * factor, rng.uniform(-2, 2, 3) * factor), False
    else:
        lin = random_rotation(rng) @ np.diag(rng.uniform(0.5, 2.0, 3) * [1, 1, -1]) @ random_rotation(rng)
        lin = lin @ np.array([[1, rng.uniform(-0.5, 0.5), 0], [0, 1, 0], [0, 0, 1]])
        m, bake, factor = affine(lin, rng.uniform(-2, 2, 3)), False, None
    a, b = case.a.moved(m, bake), case.b.moved(m, bake)
    dist = None if (case.distance is None or factor is None) else case.distance * factor
    escape = None if case.escape is None else m[:3, :3] @ case.escape
    return replace(case, a=a, b=b, distance=dist, variant=variant, escape=escape)


PER_BASE = 3
"""Cases per base case: the base itself and two of the other variants, chosen so that every family runs each."""


def variant_of(index: int) -> str:
    base, slot = divmod(index, PER_BASE)
    return "base" if slot == 0 else VARIANTS[1 + (base + 2 * (slot - 1)) % 4]


def make_case(family: str, index: int) -> MeshCase:
    """Case `index` of `family` (base case index // 3 under `variant_of(index)`), rebuilt from its seed alone."""
    rng = np.random.default_rng([CORPUS_SEED, zlib.crc32(family.encode()), index])
    base = index // PER_BASE
    case = _BUILDERS[family](np.random.default_rng([CORPUS_SEED, zlib.crc32(family.encode()), base, 1]), base)
    case = _variant(case, variant_of(index), rng)
    return replace(case, family=family, index=index)


def corpus(families=None) -> list[MeshCase]:
    out = []
    for family, count in FAMILIES.items():
        if families is not None and family not in families:
            continue
        out += [make_case(family, i) for i in range(count * PER_BASE)]
    return out
