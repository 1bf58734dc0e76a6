"""Independent oracles for the depth interval of an INTERSECTING mesh answer (issue 19); nothing here calls the
engine's depth code.

The interval claims: L = `depth` is at most the translational penetration depth PD (the length of the shortest
translation of B after which the solids' interiors are disjoint), and U = `depth + gap` = |`separation`| is a
length at which B, moved by `separation`, no longer intersects A.  Two checks:

(a) `check_separation`: U by re-checking the moved pair twice: manifold3d's volume of A ∩ (B + separation) is at
    most `Judge.allowance`, and `core.collide`'s exact mesh query on the moved pair answers TOUCHING or SEPARATED
    (its status only: the SEPARATED/TOUCHING verdict, whose distance the mesh corpus checks against the brute-force
    oracle of tests/core/mesh_oracle.py).
(b) `search_moves`: L by a brute-force directional search for separating moves.  Directions: the answer's
    separation and normal, a Fibonacci sphere, then a pattern search around the best direction from 16 down to 1
    degree.  Along each it steps t up to the best length found so far (or to where B lies wholly beyond A's
    supporting plane, free for certain), at even steps, or at 0.9, 0.97 and 0.995 of the best in the pattern
    search, and at the first step judged free it bisects back towards the step before.  That judge is manifold3d's
    volume with a stricter tolerance than (a)'s, after a quick look for a vertex of one solid inside the other
    (`Judge`).  The shortest candidates are then confirmed by the second judge (`core.collide`'s status on
    B + t d, and (a)'s volume test again); a shortfall of the volume judge (a contact whose overlap vanishes
    faster than the tolerance, such as a vertex on a face) is made up by stepping t on by 1e-6, 1e-4, 1e-3 and
    1e-2 of itself.  Every confirmed move separates, so PD <= its length: L must not exceed it (beyond a relative
    1e-9 of rounding and the touching band, within which the re-check calls a pair TOUCHING).  The search finds
    moves, it does not prove them shortest: its best is an upper estimate of PD (within 2 % of it on
    tests/core/test_depth_oracle.py's boxes).

Tolerance.  manifold3d computes in float64; a pair that only touches comes back with no volume or with a sliver as
thick as the rounding of the moved coordinates (a few ulps of the largest world coordinate, 1.2e-10 at 1e6) over
at most the smaller surface's area.  So check (a) allows 16 ulps of the largest coordinate times the smaller
surface area, plus 1e-9 of the smaller volume for manifold3d's own arithmetic, plus the answer's touching band
times the smaller area (the contract lets U leave an overlap that thin: the re-check calls it TOUCHING).  The
corpus's overlaps are at least 1e-3 of the smaller volume (tests/core/depth_corpus.py): at fraction 1, 3.8e5 times
that sum or more.
"""
from __future__ import annotations

import functools
import math
import time
import traceback
from dataclasses import dataclass, field

import numpy as np

import core
from tests.core import mesh_oracle as mo
from tests.core.depth_corpus import DepthCase, make_case, manifold_solid, world_solid

__all__ = ["Judge", "SeparationCheck", "Search", "Examined", "ROUNDING", "fibonacci_sphere", "moved",
           "check_separation", "search_moves", "lower_bound_ok", "examine", "valid", "tightness_table"]

ROUNDING = 1e-9
"""Relative allowance when L is compared with a separating move's length."""

_BUMPS = (1e-6, 1e-4, 1e-3, 1e-2)
NEAR = (0.9, 0.97, 0.995)
"""The pattern search's steps, as fractions of the best length so far."""


def fibonacci_sphere(n: int) -> np.ndarray:
    """n nearly evenly spread unit vectors (the golden-angle spiral)."""
    i = np.arange(n) + 0.5
    z = 1.0 - 2.0 * i / n
    r = np.sqrt(1.0 - z * z)
    phi = math.pi * (3.0 - math.sqrt(5.0)) * i
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)


def moved(mesh: core.TriangleMesh, move) -> core.TriangleMesh:
    """The engine's mesh translated by the world vector `move` (after its own transform)."""
    m = np.eye(4)
    m[:3, 3] = move
    return mesh.moved(m @ np.asarray(mesh.transform))


def _area(v, t) -> float:
    tri = v[t]
    return float(0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1).sum())


class Judge:
    """manifold3d's view of a case: the volume of A ∩ (B + move), in a frame at A's bounding-box centre.

    `tolerance` is check (a)'s allowance without the answer's touching band (module docstring); `allowance` adds
    it.  The search's judge `free` is stricter (the rounding term only): a touching move it calls not free only
    makes a candidate longer, while a move it calls free must be close to a real one for the second judge to
    confirm it.  Before asking manifold3d, `free` looks for a
    vertex of one solid strictly inside the other (winding number of the clean surface above one half, up to
    `PRESCREEN` vertices of each, those in the other's box): that makes the interiors overlap, so the answer is
    not free without a boolean.  (A vertex on the other's surface can read above one half, at a reflex edge: the
    screen errs only towards "not free", which lengthens a candidate and never confirms a wrong one.)"""

    PRESCREEN = 12

    def __init__(self, case: DepthCase):
        va, ta = world_solid(case.solid_a)
        vb, tb = world_solid(case.solid_b)
        self.ref = 0.5 * (va.min(0) + va.max(0))
        self.va, self.vb = va - self.ref, vb - self.ref
        self.vb_world = vb
        self.a = manifold_solid(self.va, ta)
        self.tb = tb
        self.soup_a = mo.Soup(self.va, ta)
        self.box_a, self.box_b = self.soup_a.bounds(), mo.Soup(self.vb, tb).bounds()
        self.volume_a, self.volume_b = float(self.a.volume()), float(manifold_solid(self.vb, tb).volume())
        largest = max(float(np.abs(va).max()), float(np.abs(vb).max()))
        self.area = min(_area(va, ta), _area(vb, tb))
        self.search_tolerance = 16 * np.spacing(largest) * self.area
        self.tolerance = 1e-9 * min(self.volume_a, self.volume_b) + self.search_tolerance
        self.evaluations = self.screened = 0

    def _moved_b(self, move) -> np.ndarray:
        # B's vertices moved in world coordinates (rounded as the engine's are), then to the local frame
        return (self.vb_world + np.asarray(move, float)) - self.ref

    def overlap(self, move) -> float:
        """Volume of A ∩ (B + move)."""
        self.evaluations += 1
        return float((self.a ^ manifold_solid(self._moved_b(move), self.tb)).volume())

    def _vertex_inside(self, vb, move) -> bool:
        soup_b = mo.Soup(vb, self.tb)
        box_b = (self.box_b[0] + move, self.box_b[1] + move)
        for points, other, (lo, hi) in ((vb, self.soup_a, self.box_a), (self.va, soup_b, box_b)):
            near = points[np.all((points > lo) & (points < hi), axis=1)]
            if len(near) > self.PRESCREEN:
                near = near[np.linspace(0, len(near) - 1, self.PRESCREEN).astype(int)]
            if len(near) and np.any(mo.winding_number(other, near, centre=0.5 * (lo + hi)) > 0.5):
                return True
        return False

    def allowance(self, contact) -> float:
        """(a)'s volume allowance for an answer: `tolerance` plus its touching band times the smaller area."""
        return self.tolerance + contact.touching_tolerance * self.area

    def free(self, move) -> bool:
        """The search's judge: B + move and A judged to have disjoint interiors."""
        vb = self._moved_b(move)
        if self._vertex_inside(vb, np.asarray(move, float)):
            self.screened += 1
            return False
        self.evaluations += 1
        return float((self.a ^ manifold_solid(vb, self.tb)).volume()) <= self.search_tolerance

    def beyond(self, direction) -> float:
        """The length t at which B + t d lies wholly on the far side of A's supporting plane normal to d."""
        return float((self.va @ direction).max() - (self.vb @ direction).min())


@dataclass
class SeparationCheck:
    volume: float
    tolerance: float
    status: core.Status
    length: float

    @property
    def ok(self) -> bool:
        return self.volume <= self.tolerance and self.status is not core.Status.INTERSECTING


def check_separation(judge: Judge, a: core.TriangleMesh, b: core.TriangleMesh, contact) -> SeparationCheck:
    """(a): the moved pair by both judges."""
    move = np.asarray(contact.separation, float)
    return SeparationCheck(judge.overlap(move), judge.allowance(contact), core.collide(a, moved(b, move)).status,
                           float(np.linalg.norm(move)))


@dataclass
class Search:
    best: float | None = None
    """The shortest move confirmed by both judges (None if none was)."""
    move: np.ndarray | None = None
    candidates: list = field(default_factory=list)
    """(t, d) judged free by the volume alone, shortest first."""
    evaluations: int = 0
    """manifold3d booleans asked"""
    screened: int = 0
    """moves found not free by a vertex inside, without a boolean"""
    collides: int = 0


def _first_free(judge: Judge, d: np.ndarray, best: float, fractions, halvings: int) -> float | None:
    """The first t judged free along d among `fractions` (increasing, < 1) of top = min(best, the length at which B
    lies beyond A's supporting plane), or top itself when that is the plane's (free for certain), bisected back
    towards the fraction before (0 before the first); None when none is free."""
    far = judge.beyond(d)
    top = min(best, far)
    lo, hi = 0.0, None
    for f in fractions:
        if judge.free(top * f * d):
            hi = top * f
            break
        lo = top * f
    if hi is None and top == far:
        hi = top                     # B beyond A's supporting plane: free without asking
    if hi is None:
        return None
    for _ in range(halvings):
        mid = 0.5 * (lo + hi)
        if judge.free(mid * d):
            hi = mid
        else:
            lo = mid
    return hi


def _around(d: np.ndarray, angle: float) -> list[np.ndarray]:
    """Four directions `angle` away from the unit vector d, a quarter turn apart about it."""
    u = np.cross(d, np.eye(3)[int(np.argmin(np.abs(d)))])
    u /= np.linalg.norm(u)
    w = np.cross(d, u)
    return [math.cos(angle) * d + math.sin(angle) * e for e in (u, w, -u, -w)]


def search_moves(judge: Judge, a: core.TriangleMesh, b: core.TriangleMesh, contact, directions: int = 16,
                 steps: int = 4, halvings: int = 10, confirm: int = 3, refine=(16.0, 1.0)) -> Search:
    """(b): a brute-force directional search for separating moves of B (see the module docstring).  After the
    sphere, a pattern search: four directions `refine[0]` degrees around the best, moving to any that improves,
    halving the angle when none does, down to `refine[1]` degrees (those steps at `NEAR` of the best)."""
    first = []
    for v in (contact.separation, contact.normal):
        n = float(np.linalg.norm(v))
        if n > 0 and np.all(np.isfinite(v)):
            first.append(np.asarray(v, float) / n)
    start, screened = judge.evaluations, judge.screened
    best = math.inf
    found = []

    def visit(ds, fractions) -> bool:
        nonlocal best
        improved = False
        for d in ds:
            hi = _first_free(judge, d, best, fractions, halvings)
            if hi is not None:
                found.append((hi, d))
                improved = improved or hi < best
                best = min(best, hi)
        return improved

    visit([*first, *fibonacci_sphere(directions)], [k / steps for k in range(1, steps)])
    angle = refine[0]
    while found and angle >= refine[1]:
        if not visit(_around(min(found, key=lambda c: c[0])[1], math.radians(angle)), NEAR):
            angle *= 0.5
    found.sort(key=lambda c: c[0])
    result = Search(candidates=found, evaluations=judge.evaluations - start, screened=judge.screened - screened)
    for t, d in found[:confirm]:
        for scale in (1.0, *(1.0 + s for s in _BUMPS)):
            result.collides += 1
            move = t * scale * d
            if (core.collide(a, moved(b, move)).status is not core.Status.INTERSECTING
                    and judge.overlap(move) <= judge.allowance(contact)):
                length = t * scale
                if result.best is None or length < result.best:
                    result.best, result.move = length, move
                break
        if result.best is not None:
            break
    return result


def lower_bound_ok(contact, search: Search) -> bool:
    """L is not above the shortest confirmed separating move, beyond ROUNDING of it plus the answer's touching band
    (a move the re-check calls TOUCHING may leave an overlap that deep, as U may by the contract of (a))."""
    return (search.best is not None
            and contact.depth <= search.best * (1.0 + ROUNDING) + contact.touching_tolerance)


@dataclass
class Examined:
    """One corpus case through `core.collide` and both checks (an exception is kept as text: a finding)."""

    case: DepthCase
    contact: object = None
    separation: SeparationCheck | None = None
    search: Search | None = None
    error: str | None = None
    engine_s: float = 0.0
    oracle_s: float = 0.0

    @property
    def upper(self) -> float:
        return self.contact.depth + self.contact.gap

    @property
    def width(self) -> float:
        """gap / U: the interval's width as a share of its upper end."""
        return self.contact.gap / self.upper if self.upper > 0 else math.inf


def examine(case: DepthCase, directions: int = 16, check: bool = True) -> Examined:
    """`core.collide` on the case, then (if `check`) checks (a) and (b)."""
    out = Examined(case)
    try:
        a, b = case.a.build(), case.b.build()
        start = time.perf_counter()
        out.contact = core.collide(a, b)
        out.engine_s = time.perf_counter() - start
        if check and out.contact.status is core.Status.INTERSECTING:
            start = time.perf_counter()
            judge = Judge(case)
            out.separation = check_separation(judge, a, b, out.contact)
            out.search = search_moves(judge, a, b, out.contact, directions=directions)
            out.oracle_s = time.perf_counter() - start
    except Exception:  # noqa: BLE001 - every exception is a finding, reported by the tests
        out.error = traceback.format_exc(limit=4)
    return out


@functools.lru_cache(maxsize=None)
def examine_named(name: str, check: bool = True) -> Examined:
    """`examine` on the corpus pair named "family/index", once per test run."""
    family, index = name.split("/")
    return examine(make_case(family, int(index)), check=check)


def check_upper_end(r: Examined, width: float) -> None:
    """The upper end of an examined pair, asserted: INTERSECTING, gap within `width` of U, a separation of length U
    that frees the pair (the corpus's exact judges: manifold3d's volume of the moved overlap and the full query),
    and with A and B swapped the same interval and the same move of B (up to the rounding of the swap's world
    transforms)."""
    assert r.error is None, r.error
    contact = r.contact
    assert contact.status is core.Status.INTERSECTING, contact.status
    upper = contact.depth + contact.gap
    assert contact.gap <= width * upper, (contact.depth, upper)
    assert abs(float(np.linalg.norm(contact.separation)) - upper) <= 1e-12 * (upper + contact.scale)
    a, b = r.case.a.build(), r.case.b.build()
    check = check_separation(Judge(r.case), a, b, contact)
    assert check.ok, check
    back = core.collide(b, a).swapped()
    tolerance = 1e-9 * contact.scale
    assert abs(back.depth - contact.depth) <= tolerance and abs(back.gap - contact.gap) <= tolerance, (back, contact)
    assert np.allclose(back.separation, contact.separation, rtol=0.0, atol=tolerance), (back.separation,
                                                                                         contact.separation)


def valid(r: Examined) -> bool:
    """Every check passed: INTERSECTING, (a) and (b) (those that ran)."""
    return (r.error is None and r.contact is not None and r.contact.status is core.Status.INTERSECTING
            and (r.separation is None or r.separation.ok) and (r.search is None or lower_bound_ok(r.contact, r.search)))


def tightness_table(records) -> list[str]:
    """Per family and for all: pairs, shares of gap / U within 1 % and 5 %, median gap / U, median best / U (the
    brute-force search's shortest confirmed move over U, when it ran), engine times (median, max), median oracle
    time, and pairs failing a check."""
    lines = [f"{'family':12} {'pairs':>5} {'<=1%':>6} {'<=5%':>6} {'med gap/U':>9} {'med best/U':>10} "
             f"{'engine s':>8} {'max s':>6} {'oracle s':>8} {'bad':>4}"]
    groups: dict[str, list] = {}
    for r in records:
        groups.setdefault(r.case.family, []).append(r)
    for name, group in [*groups.items(), ("all", list(records))]:
        good = [r for r in group if r.error is None and r.contact.status is core.Status.INTERSECTING]
        widths = np.array([r.width for r in good] or [np.nan])
        best = [r.search.best / r.upper for r in good if r.search is not None and r.search.best is not None]
        engine = np.array([r.engine_s for r in group])
        bad = sum(1 for r in group if not valid(r))
        checked = [r.oracle_s for r in group if r.separation is not None]
        oracle = f"{np.median(checked):.2f}" if checked else "-"
        lines.append(f"{name:12} {len(group):5d} {np.mean(widths <= 0.01):6.0%} {np.mean(widths <= 0.05):6.0%} "
                     f"{np.median(widths):9.3f} {(f'{np.median(best):.3f}' if best else '-'):>10} "
                     f"{np.median(engine):8.3f} {engine.max():6.2f} {oracle:>8} "
                     f"{bad:4d}")
    return lines
