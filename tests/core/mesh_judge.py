"""Judge one engine answer on a mesh pair against the mesh oracle (tests/core/mesh_oracle.py).

`truth(case)` computes what the oracle knows about a `MeshCase` (engine-free); `judge(case, truth, contact, hull)`
returns a `MeshVerdict`: the numbers (errors, depths) and a list of broken rules, each tagged with the rule it
breaks (RULES), so each test of test_mesh_corpus.py asserts one rule over the whole corpus.

Tolerances: `tol` = the touching band (1e-9 x scale) + the oracle's rounding bound + 64 ulps of the pair's largest
world coordinate (tests/core/reporting.py `rounding_floor`: a pair 1e6 from the origin is only defined to ~1e-10).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tests.core import mesh_oracle as mo
from tests.core.reporting import TOUCHING, rounding_floor

__all__ = ["Truth", "truth", "MeshVerdict", "judge", "RULES"]

RULES = ("verdict", "touching", "containment", "open", "scale", "distance", "points", "normal", "witness",
         "witness_pair", "depth_hull",
         "depth_escape",
         "depth_volume", "convex", "segments", "finite")


@dataclass
class Truth:
    """What the oracle says about a case: distance (with its rounding error), robust crossings, closedness,
    the expected status and containment (None when only the band can tell), and the tolerance."""

    a: mo.Soup
    b: mo.Soup
    scale: float
    band: float
    tol: float
    distance: mo.Distance
    crossing: int
    loose_crossing: int
    closed_a: bool
    closed_b: bool
    expected: str | None
    containment: str | None
    containment_known: bool
    consistent: list = field(default_factory=list)

    def inside_or_on(self, which: str, point) -> tuple[bool, float, float]:
        """Is `point` in the solid (closed) or on the surface (open) of mesh `which`?  (flag, distance, winding)"""
        s, closed = (self.a, self.closed_a) if which == "a" else (self.b, self.closed_b)
        d = float(mo.point_distance(s, point)[0])
        w = float(mo.winding_number(s, point)[0]) if closed else 0.0
        return (d <= self.tol or abs(w) >= 0.5), d, w


def truth(case) -> Truth:
    a, b = case.a.soup(), case.b.soup()
    scale = mo.pair_scale(a, b)
    band = TOUCHING * scale
    dist = mo.mesh_distance(a, b)
    world = np.concatenate([a.used, b.used])
    tol = band + dist.error + rounding_floor(scale, world)
    crossing = len(mo.crossings(a, b, band))
    loose = len(mo.crossings(a, b, 0.0))
    closed_a, closed_b = mo.is_closed(a), mo.is_closed(b)
    # containment from the winding number of one vertex, when nothing crosses or touches (all vertices agree)
    derived = None
    if loose == 0 and dist.distance > tol:
        if closed_b and abs(mo.winding_number(b, a.used[:1])[0]) >= 0.5:
            derived = "A_INSIDE_B"
        elif closed_a and abs(mo.winding_number(a, b.used[:1])[0]) >= 0.5:
            derived = "B_INSIDE_A"
    if derived is None and loose == 0 and dist.distance > tol:
        status = "SEPARATED"
    elif derived is not None or crossing:
        status = "INTERSECTING"
    else:
        status = None  # within the band, no robust crossing: TOUCHING, or a crossing shallower than the band
    consistent = []
    if case.expected is not None and status is not None and status != case.expected:
        consistent.append(f"construction says {case.expected}, oracle {status}")
    if case.expected == "TOUCHING" and dist.distance > band + dist.error + rounding_floor(scale, world):
        consistent.append(f"construction says TOUCHING, oracle distance {dist.distance:.3g} > band {band:.3g}")
    if case.containment is not None and derived is not None and derived != case.containment:
        consistent.append(f"construction says {case.containment}, oracle {derived}")
    if case.distance is not None and abs(case.distance - dist.distance) > tol - band + 1e-12 * scale:
        consistent.append(f"construction distance {case.distance!r}, oracle {dist.distance!r}")
    if case.escape is not None:
        moved = mo.Soup(b.vertices + case.escape, b.triangles)
        if len(mo.crossings(a, moved, band)):
            consistent.append("the escape translation leaves crossing triangles")
        elif mo.mesh_distance(a, moved).distance > band + dist.error:
            for s1, s2, closed in ((a, moved, closed_b), (moved, a, closed_a)):
                if closed and abs(mo.winding_number(s2, s1.used[:1])[0]) >= 0.5:
                    consistent.append("the escape translation leaves one mesh inside the other")
    expected = case.expected if case.expected is not None else status
    known = case.expected is not None or status is not None
    containment = case.containment if case.expected is not None else derived
    return Truth(a, b, scale, band, tol, dist, crossing, loose, closed_a, closed_b, expected, containment, known,
                 consistent)


@dataclass
class MeshVerdict:
    status: str
    expected: str | None
    distance: float
    distance_error: float = 0.0
    point_a_off: float = 0.0
    point_b_off: float = 0.0
    depth: float = 0.0
    hull_depth: float = 0.0
    broken: list = field(default_factory=list)   # (rule, message)

    def fails(self, rule: str) -> list[str]:
        return [m for r, m in self.broken if r == rule]


def _on_surface(s: mo.Soup, points) -> np.ndarray:
    return mo.point_distance(s, points)


def judge(case, t: Truth, c, hull=None) -> MeshVerdict:
    """All the rules for one answer `c` (a core.Contact); `hull` is the convex engine's answer on the two meshes'
    vertex arrays (needed for the depth rules on INTERSECTING answers)."""
    status = c.status.name
    v = MeshVerdict(status, t.expected, float(c.distance))
    bad = v.broken.append
    pa, pb, n = (np.asarray(x, float) for x in (c.point_a, c.point_b, c.normal))
    if not (np.all(np.isfinite(pa)) and np.all(np.isfinite(pb)) and np.all(np.isfinite(n))
            and np.isfinite(c.distance)):
        bad(("finite", "NaN or inf in the answer"))
        return v
    if t.expected == "TOUCHING" and status != "TOUCHING":
        bad(("touching", f"status {status} (distance {c.distance:.3g}), expected TOUCHING (oracle d = "
                         f"{t.distance.distance:.3g}, band {t.band:.3g}, crossings: {t.crossing} robust, "
                         f"{t.loose_crossing} by rounding)"))
    elif t.expected is not None and status != t.expected:
        bad(("verdict", f"status {status}, expected {t.expected} (oracle d = {t.distance.distance:.3g}, "
                        f"band {t.band:.3g}, robust crossings {t.crossing})"))
    if t.expected is None and status == "SEPARATED":
        bad(("verdict", f"SEPARATED though the oracle distance {t.distance.distance:.3g} is within the band"))
    cont = None if c.containment is None else c.containment.name
    if t.containment_known and cont != t.containment:
        bad(("containment", f"containment {cont}, expected {t.containment}"))
    if bool(c.open_a) != (not t.closed_a) or bool(c.open_b) != (not t.closed_b):
        bad(("open", f"open_a={c.open_a} open_b={c.open_b}, oracle closed_a={t.closed_a} closed_b={t.closed_b}"))
    if cont == "A_INSIDE_B" and not t.closed_b or cont == "B_INSIDE_A" and not t.closed_a:
        bad(("containment", f"{cont} claimed with an open container"))
    if abs(c.scale - t.scale) > 1e-9 * t.scale:
        bad(("scale", f"scale {c.scale!r}, expected {t.scale!r}"))
    if abs(np.linalg.norm(n) - 1.0) > 1e-9:
        bad(("normal", f"|normal| = {np.linalg.norm(n)!r}"))
    v.point_a_off = float(_on_surface(t.a, pa)[0])
    v.point_b_off = float(_on_surface(t.b, pb)[0])
    if status in ("SEPARATED", "TOUCHING") or t.expected in ("SEPARATED", "TOUCHING"):
        v.distance_error = abs(c.distance - t.distance.distance)
        if v.distance_error > t.tol:
            bad(("distance", f"distance {c.distance!r}, oracle {t.distance.distance!r} "
                             f"(error {v.distance_error / t.scale:.3g} x scale)"))
        if v.point_a_off > t.tol or v.point_b_off > t.tol:
            bad(("points", f"point_a {v.point_a_off / t.scale:.3g}, point_b {v.point_b_off / t.scale:.3g} x scale "
                           "off their surfaces"))
        if status == "SEPARATED":
            gap = pb - pa
            if abs(np.linalg.norm(gap) - c.distance) > t.tol or np.linalg.norm(c.distance * n - gap) > t.tol:
                bad(("normal", f"point_b - point_a = {gap.tolist()} but distance * normal = "
                               f"{(c.distance * n).tolist()}"))
        if status == "TOUCHING" and np.linalg.norm(pb - pa) > 2.0 * t.band + t.tol:
            bad(("points", f"touching points {np.linalg.norm(pb - pa):.3g} apart"))
    if status == "INTERSECTING":
        v.depth = -float(c.distance)
        if c.distance > 0.0:
            bad(("finite", f"INTERSECTING with positive distance {c.distance!r}"))
        # the rule ("witness"): point_a is a point of A inside or on B, point_b a point of B inside or on
        # A.  contact.py's ("witness_pair"): each point belongs to its own mesh, point_a - point_b = depth * normal
        # (moving B by that much is the translation the depth measures), and at least one of them lies in the other
        # mesh (the deep point whose escape the depth is).
        others = []
        for name, p, own, other in (("point_a", pa, "a", "b"), ("point_b", pb, "b", "a")):
            in_own, d_own, _ = t.inside_or_on(own, p)
            in_other, d_other, w_other = t.inside_or_on(other, p)
            others.append(in_other)
            if not in_own:
                bad(("witness_pair", f"{name} is not a point of {own.upper()} (distance {d_own:.3g})"))
            if not in_other:
                bad(("witness", f"{name} is neither inside nor on {other.upper()} (distance {d_other:.3g}, "
                                f"winding {w_other:.3f})"))
        if not any(others):
            bad(("witness_pair", "neither point lies in the other mesh"))
        if np.linalg.norm((pa - pb) - v.depth * n) > t.tol:
            bad(("witness_pair", f"point_a - point_b = {(pa - pb).tolist()} but depth * normal = "
                                 f"{(v.depth * n).tolist()}"))
        if hull is not None:
            v.hull_depth = max(0.0, -float(hull.distance)) if hull.status.name == "INTERSECTING" else 0.0
            # (the engine's own `gap` is not added: on intersecting meshes it is the width of its bracket of the
            # separating translation, not an error of the depth)
            slack = t.tol + float(hull.gap)
            if v.depth > v.hull_depth + slack:
                bad(("depth_hull", f"depth {v.depth:.6g} > hull depth {v.hull_depth:.6g}"))
            if case.convex and abs(v.depth - v.hull_depth) > slack + 1e-9 * t.scale:
                bad(("convex", f"convex pair: depth {v.depth!r}, convex engine {v.hull_depth!r}"))
        if case.escape is not None and v.depth > float(np.linalg.norm(case.escape)) + t.tol:
            bad(("depth_escape", f"depth {v.depth:.6g} > {np.linalg.norm(case.escape):.6g}, the length of a "
                                 "translation known to separate the pair (not a lower bound)"))
        if case.volume and v.depth <= t.band:
            bad(("depth_volume", f"depth {v.depth:.3g} <= band {t.band:.3g} though the overlap has volume"))
        seg = np.asarray(c.intersection, float).reshape(-1, 3)
        if len(seg):
            off = np.maximum(mo.point_distance(t.a, seg), mo.point_distance(t.b, seg))
            if off.max() > t.tol:
                bad(("segments", f"crossing segment end {off.max() / t.scale:.3g} x scale off a surface"))
        if t.crossing and len(seg) == 0:
            bad(("segments", f"no crossing segments though {t.crossing} triangle pairs cross"))
        if t.loose_crossing == 0 and len(seg) and t.containment is not None:
            bad(("segments", f"{len(seg) // 2} crossing segments for a contained pair"))
    return v
