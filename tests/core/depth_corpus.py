"""A seeded corpus of closed mesh pairs that certainly overlap with volume, for the depth interval (issue 19).

Every case is rebuilt from its seed alone: `make_case("chain", 5)`.  Case i of a family is drawn by
`numpy.random.default_rng([DEPTH_SEED, crc32(family), i, attempt])` and placed under the variant
`VARIANTS[i % 4]`: as built, far (both meshes moved 1e4..1e6 from the origin and baked into the world arrays), tiny
(scaled by 1e-4) or huge (scaled by 1e4), the last two through the transform argument.  Every case is turned by a
random rotation.  A draw whose overlap is not clearly positive (manifold3d's volume of A ∩ B below
`MIN_OVERLAP` of the smaller solid) is drawn again with the next `attempt`, so every case overlaps by construction
and by measurement.

Families (`FAMILIES`, base counts at fraction 1; `cases(fraction)` scales them like MESH_CORPUS_FRACTION):
- rod_torus: a rod (6 to 24 sides, tilted up to 40 degrees) through a torus's tube (tube 8 to 16, ring 24 to 48
  facets) at various radial offsets;
- chain: two interlocked links (round tori or stadium links) whose tubes cross at various offsets and angles;
- cup: a ball sunk into a cup's wall or floor;
- crate: a box through a hollow crate's inner or outer wall, or inside the wall's material;
- contain: one closed mesh wholly inside another (sphere, box, star, torus), A in B and B in A;
- lshape: two L prisms hooked into each other, overlapping by various amounts, shifted along the extrusion;
- blobs: two noisy star-shaped meshes overlapping at random poses;
- degenerate: cases of the other families with duplicate and unreferenced vertices, zero-area triangles and
  (every other case) a doubled collinear sliver; the oracles use the clean surfaces (`solid_a`, `solid_b`), which
  bound the same solids.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, replace

import numpy as np

from tests.core import mesh_corpus as mc
from tests.core import overlap_corpus as oc
from tests.core.mesh_corpus import MeshSpec, affine, random_rotation

__all__ = ["DEPTH_SEED", "FAMILIES", "VARIANTS", "MIN_OVERLAP", "DepthCase", "make_case", "cases", "world_solid",
           "manifold_solid", "overlap_volume"]

DEPTH_SEED = 20261127
VARIANTS = ("base", "far", "tiny", "huge")
MIN_OVERLAP = 1e-3
"""A case is kept when the volume of A ∩ B is at least this share of the smaller solid's volume (clearly positive:
far above the oracles' volume allowance, see tests/core/depth_oracle.py)."""

FAMILIES = {"rod_torus": 12, "chain": 12, "cup": 12, "crate": 8, "contain": 8, "lshape": 8, "blobs": 12,
            "degenerate": 8}
"""Family -> number of cases at fraction 1 (80 pairs: the corpus test with its brute-force search takes about a
second a pair on a busy core); a multiple of 4, so each variant gets its share."""


@dataclass(frozen=True, eq=False)
class DepthCase:
    family: str
    index: int
    a: MeshSpec
    b: MeshSpec
    solid_a: MeshSpec
    """A clean surface of A's solid (the same as `a` except in the degenerate family): manifold3d's input."""
    solid_b: MeshSpec
    overlap: float
    """manifold3d's volume of A ∩ B as built (world units cubed)."""
    note: str = ""
    variant: str = "base"

    @property
    def name(self) -> str:
        return f"{self.family}/{self.index}"


# ----------------------------------------------------------------------------------------------- geometry

def world_solid(spec: MeshSpec):
    """World vertices (float64, the transform applied as given) and outward triangles of a mesh spec (the
    triangles reversed under a mirroring transform, so the solid stays outward)."""
    v = np.asarray(spec.vertices, float)
    t = np.asarray(spec.triangles, np.int64)
    if spec.transform is None:
        return v, t
    m = np.asarray(spec.transform, float)
    v = v @ m[:3, :3].T + m[:3, 3]
    return v, (t[:, ::-1].copy() if np.linalg.det(m[:3, :3]) < 0 else t)


def manifold_solid(v, t, ref=(0.0, 0.0, 0.0)):
    """manifold3d's solid of the closed surface (v - ref, t); ValueError if manifold3d rejects it."""
    import manifold3d

    mesh = manifold3d.Mesh64(vert_properties=np.ascontiguousarray(v - np.asarray(ref, float), np.float64),
                             tri_verts=np.ascontiguousarray(t, np.uint64))
    solid = manifold3d.Manifold(mesh)
    if solid.status() != manifold3d.Error.NoError:
        raise ValueError(f"manifold3d rejects the surface: {solid.status()}")
    return solid


def overlap_volume(a: MeshSpec, b: MeshSpec) -> tuple[float, float, float]:
    """(volume of A ∩ B, volume of A, volume of B) by manifold3d, in a frame at A's bounding-box centre."""
    va, ta = world_solid(a)
    vb, tb = world_solid(b)
    ref = 0.5 * (va.min(0) + va.max(0))
    ma, mb = manifold_solid(va, ta, ref), manifold_solid(vb, tb, ref)
    return float((ma ^ mb).volume()), float(ma.volume()), float(mb.volume())


def _spec(vt, m=None, bake=True) -> MeshSpec:
    spec = MeshSpec(np.asarray(vt[0], float), np.asarray(vt[1], np.int64))
    return spec if m is None else spec.moved(m, bake=bake)


def _turn(axis, angle) -> np.ndarray:
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _place(rng) -> np.ndarray:
    return affine(random_rotation(rng), rng.uniform(-3, 3, 3))


# ----------------------------------------------------------------------------------------------- families
# Each builder takes rng and the case index and returns (a, b, note) as clean, closed, outward MeshSpecs.

def _rod_torus(rng, k):
    major, minor = 1.0, rng.uniform(0.2, 0.35)
    tor = mc.torus(major, minor, n=int(rng.choice([24, 32, 48])), m=int(rng.choice([8, 12, 16])))
    rho = rng.uniform(0.06, 0.2)
    sides = int(rng.choice([6, 12, 24]))
    rod = mc.cylinder(rho, 1.5, n=sides)
    e = major + rng.uniform(-0.9, 0.9) * (minor + rho)         # the rod's axis at radius e: it meets the tube
    tilt = math.radians(rng.uniform(0.0, 40.0))
    lin = _turn(rng.normal(size=3), tilt)
    place = _place(rng)
    a = _spec(tor, place)
    b = _spec(rod, place @ affine(lin, (e, 0.0, 0.0)), bake=(k % 2 == 0))
    return a, b, f"rod r={rho:.2f} ({sides} sides) at {e:.2f}, tilt {math.degrees(tilt):.0f} deg, tube {minor:.2f}"


def _chain(rng, k):
    major = 1.0
    if k % 4 < 2:
        # end to end, as in a chain: B (A turned upright about the long axis x) hangs through A's right end and
        # their tubes' centre circles pass `2 minor - dip` apart there: moving B on by `dip` frees them
        stadium = k % 2 == 1
        minor = rng.uniform(0.15, 0.3)
        stretch = rng.uniform(0.3, 0.8) if stadium else 0.0
        dip = rng.uniform(0.2, 1.8) * minor
        offset = (2 * (major + stretch) - 2 * minor + dip, *(rng.uniform(-0.3, 0.3, 2) * minor))
        shape = "stadium" if stadium else "round"
    else:
        # B's central circle through the centre of A's hole (and A's through B's), tubes thick enough to cross
        stretch, minor, dip = 0.0, rng.uniform(0.55, 0.9) * _link_gap(major), 0.0
        offset = (major + rng.uniform(-0.2, 0.2), *rng.uniform(-0.15, 0.15, 2))
        shape = "thick round"
    link = oc.torus(major, minor, n=int(rng.choice([24, 32])), m=int(rng.choice([8, 12])), stretch=stretch)
    stand = _turn((0, 0, 1), math.radians(rng.uniform(-20, 20))) @ _turn((1, 0, 0), math.pi / 2)
    place = _place(rng)
    a = _spec(link, place)
    b = _spec(link, place @ affine(stand, offset), bake=(k % 2 == 0))
    return a, b, f"{shape} links, tube {minor:.2f}, dip {dip / minor:.2f} x tube"


def _link_gap(major: float) -> float:
    """The least distance between the central circles of two round links of radius `major`, one in the xy plane
    about 0, one in the xz plane about (major, 0, 0) (dense sampling: a value for choosing tube radii only)."""
    t = np.linspace(0, 2 * np.pi, 721)
    c1 = np.stack([major * np.cos(t), major * np.sin(t), 0 * t], 1)
    c2 = np.stack([major + major * np.cos(t), 0 * t, major * np.sin(t)], 1)
    return float(np.sqrt(((c1[:, None] - c2[None]) ** 2).sum(-1)).min())


def _cup(rng, k):
    n = int(rng.choice([24, 32, 48]))
    c = mc.cup(1.0, 0.8, 1.5, 0.125, n=n)
    rho = rng.uniform(0.12, 0.4)
    ball = mc.sphere(rho, n=int(rng.choice([16, 24])), rings=int(rng.choice([8, 12])))
    ang = rng.uniform(0, 2 * math.pi)
    if k % 4 == 3:   # into the floor
        r, z = rng.uniform(0.0, 0.6), 0.125 + rho - rng.uniform(0.2, 1.5) * rho
        where = "floor"
    else:            # into the wall, from inside or outside
        r, z = 0.9 + rng.uniform(-1.0, 1.0) * (0.1 + 0.8 * rho), rng.uniform(0.3, 1.3)
        where = "wall"
    place = _place(rng)
    a = _spec(c, place)
    b = _spec(ball, place @ affine(None, (r * math.cos(ang), r * math.sin(ang), z)), bake=(k % 2 == 0))
    return a, b, f"ball r={rho:.2f} in the {where} at ({r:.2f}, {z:.2f}), cup {n} sides"


def _crate(rng, k):
    cr = mc.crate(2.0, 1.5)
    kind = ("inner", "outer", "inside")[k % 3]
    half = np.array([rng.uniform(0.05, 0.4), *rng.uniform(0.2, 0.9, 2)])
    if kind == "inner":
        cx = 1.5 + rng.uniform(-0.8, 0.8) * half[0]
    elif kind == "outer":
        cx = 2.0 + rng.uniform(-0.8, 0.8) * half[0]
    else:
        half[0] = rng.uniform(0.05, 0.2)
        cx = 1.75 + rng.uniform(-0.2, 0.2) * (0.25 - half[0])
    centre = np.array([cx, *rng.uniform(-0.5, 0.5, 2)])
    place = _place(rng)
    a = _spec(mc.box(centre - half, centre + half), place, bake=(k % 2 == 0))
    b = _spec(cr, place)
    return a, b, f"box through the crate's {kind} wall" if kind != "inside" else "box inside the crate's wall"


def _contain(rng, k):
    kinds = ("sphere_in_box", "box_in_sphere", "star_in_star", "torus_in_sphere", "box_in_box", "ball_in_cup_wall")
    kind = kinds[(k // 2) % len(kinds)]
    if kind == "sphere_in_box":
        inner = mc.sphere(rng.uniform(0.2, 0.8), n=20, rings=10)
        inner = (inner[0] + rng.uniform(-0.15, 0.15, 3), inner[1])
        outer = mc.box((-1.0,) * 3, (1.0,) * 3)
    elif kind == "box_in_sphere":
        h = rng.uniform(0.1, 0.5)
        inner, outer = mc.box((-h,) * 3, (h,) * 3), mc.sphere(1.0, n=24, rings=12)
    elif kind == "star_in_star":
        big, small = mc.star(rng, 1.0, 0.2), mc.star(rng, 0.3, 0.2)
        inner, outer = (small[0] + rng.uniform(-0.1, 0.1, 3), small[1]), big[:2]
    elif kind == "torus_in_sphere":
        inner, outer = mc.torus(0.5, rng.uniform(0.1, 0.2), n=24, m=12), mc.sphere(1.0, n=32, rings=16)
    elif kind == "box_in_box":
        inner = mc.box(rng.uniform(-0.9, -0.3, 3), rng.uniform(0.3, 0.9, 3))
        outer = mc.box((-1.0,) * 3, (1.0,) * 3)
    else:
        inner = mc.sphere(0.06, n=12, rings=6)
        inner = (inner[0] + [0.9, 0.0, rng.uniform(0.3, 1.3)], inner[1])
        outer = mc.cup(1.0, 0.8, 1.5, 0.125, n=48)
    place = _place(rng)
    a, b = _spec(inner, place), _spec(outer, place, bake=(k % 4 < 2))
    if k % 2:
        return b, a, kind + ", B inside A"
    return a, b, kind + ", A inside B"


def _lshape(rng, k):
    hook = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (0, 1)]      # a bar along x, an arm up at its right end
    g = -rng.uniform(0.03, 0.6)
    dz = rng.uniform(-0.6, 0.6) if k % 2 else 0.0
    la, lb = mc.prism(hook, 0.0, 1.0, fan_from=4), mc.prism(hook, dz, 1.0 + dz, fan_from=4)
    # B is A turned half a turn about z, each arm in the other's corner, overlapping by -g along x and y
    flip = affine(np.diag([-1.0, -1.0, 1.0]), (4.0 - g, 4.0 + g * rng.uniform(0.2, 1.0), 0.0))
    place = _place(rng)
    return _spec(la, place), _spec(lb, place @ flip, bake=(k % 2 == 0)), f"L prisms hooked, {-g:.2f} deep, dz {dz:.2f}"


def _blob(rng, radius):
    return mc.star(rng, radius, rng.uniform(0.1, 0.35), n=int(rng.integers(12, 28)), rings=int(rng.integers(6, 14)))


def _blobs(rng, k):
    ra, rb = 1.0, rng.uniform(0.4, 1.4)
    a_v, a_t, _, _ = _blob(rng, ra)
    b_v, b_t, _, _ = _blob(rng, rb)
    d = rng.uniform(0.2, 0.95) * (ra + rb)
    direction = rng.normal(size=3)
    a = MeshSpec(a_v, a_t, affine(random_rotation(rng)))
    b = MeshSpec(b_v, b_t, affine(random_rotation(rng), d * direction / np.linalg.norm(direction)))
    return a, b, f"blobs {ra:.1f} and {rb:.2f}, centres {d / (ra + rb):.2f} x (ra + rb) apart"


_CLEAN = {"rod_torus": _rod_torus, "chain": _chain, "cup": _cup, "crate": _crate, "contain": _contain,
          "lshape": _lshape, "blobs": _blobs}
_SOURCES = tuple(_CLEAN)


def _degenerate(rng, k):
    family = _SOURCES[k % len(_SOURCES)]
    a, b, note = _CLEAN[family](rng, k // len(_SOURCES))
    slivers = k % 2 == 1
    return (mc.dirty(a, rng, slivers), mc.dirty(b, rng, slivers), a, b,
            f"dirty{'+slivers' if slivers else ''} {family}: {note}")


# ----------------------------------------------------------------------------------------------- variants

def _variant(a: MeshSpec, b: MeshSpec, variant: str, rng):
    if variant == "base":
        return a, b
    if variant == "far":
        direction = rng.normal(size=3)
        m, bake = affine(None, direction / np.linalg.norm(direction) * 10 ** rng.uniform(4, 6)), True
    else:
        factor = 1e-4 if variant == "tiny" else 1e4
        m, bake = affine(np.eye(3) * factor, rng.uniform(-2, 2, 3) * factor), False
    return a.moved(m, bake), b.moved(m, bake)


def make_case(family: str, index: int, attempts: int = 20) -> DepthCase:
    """Case `index` of `family`, rebuilt from its seed alone (drawn again until the overlap is clearly positive)."""
    variant = VARIANTS[index % len(VARIANTS)]
    for attempt in range(attempts):
        rng = np.random.default_rng([DEPTH_SEED, zlib.crc32(family.encode()), index, attempt])
        if family == "degenerate":
            a, b, solid_a, solid_b, note = _degenerate(rng, index)
        else:
            a, b, note = _CLEAN[family](rng, index)
            solid_a, solid_b = a, b
        vrng = np.random.default_rng([DEPTH_SEED, zlib.crc32(family.encode()), index, attempt, 1])
        a, b = _variant(a, b, variant, vrng)
        solid_a, solid_b = _variant(solid_a, solid_b, variant, np.random.default_rng(
            [DEPTH_SEED, zlib.crc32(family.encode()), index, attempt, 1]))
        common, vol_a, vol_b = overlap_volume(solid_a, solid_b)
        if common >= MIN_OVERLAP * min(vol_a, vol_b):
            return DepthCase(family, index, a, b, solid_a, solid_b, common, note, variant)
    raise RuntimeError(f"{family}/{index}: no clearly overlapping draw in {attempts} attempts")


def cases(fraction: float = 1.0, families=None) -> list[DepthCase]:
    """The first round(count x fraction) cases of every family (at least one); fraction > 1 draws more."""
    out = []
    for family, count in FAMILIES.items():
        if families is not None and family not in families:
            continue
        out += [make_case(family, i) for i in range(max(1, int(round(count * fraction))))]
    return out
