"""Judge one engine answer against the oracle: every check of the corpus, for one pair, as numbers.

`judge(a, b, contact, ref)` returns a `Verdict` with the certified error measures (each one is a *lower bound*
on how wrong the answer is, so a correct engine can never fail on the oracle's account):
- expected: the status the truth demands, or None when a curved pair's bracket straddles a band edge;
- distance_error: |d_engine - d_true| (exact pairs), or the distance from d_engine to [lower, upper] (curved);
- support_gap: d_true - support_separation(A, B, normal) (>= 0 up to rounding; lower-bounded by lower - sep);
- point_a_off, point_b_off: |signed distance| of each returned point to its shape (curved: to the bracket);
- relation: residual of the documented point/normal relation for the status;
- normal_norm_error, scale_error and tolerance_error (relative, beyond the rounding floor), status_distance_ok.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tests.core.oracle import (Geo, geometry, pair_scale, point_shape_bracket, support_separation, truth,
                               world_bounds)
from tests.core.reporting import TOUCHING, rounding_floor


@dataclass
class Verdict:
    scale: float
    floor: float
    lower: float
    upper: float
    exact: bool
    expected: str | None
    status: str
    distance: float
    distance_error: float
    support_gap: float
    point_a_off: float
    point_b_off: float
    relation: float
    normal_norm_error: float
    scale_error: float
    tolerance_error: float
    status_distance_ok: bool

    @property
    def band(self) -> float:
        return TOUCHING * self.scale

    @property
    def wrong_verdict(self) -> bool:
        """The status contradicts the truth: it differs from the demanded one, or (curved pairs whose bracket
        straddles a band edge) the bracket rules it out altogether."""
        if self.expected is not None:
            return self.expected != self.status
        return self.status in impossible_statuses(self.lower, self.upper, self.band, self.floor)

    @property
    def in_band(self) -> bool:
        return self.expected == "TOUCHING"


def expected_status(lower: float, upper: float, band: float, floor: float) -> str | None:
    """The status the truth demands; None when an interval or rounding straddles a band edge."""
    if lower > band + floor:
        return "SEPARATED"
    if upper < -band - floor:
        return "INTERSECTING"
    if lower > -band + floor and upper < band - floor:
        return "TOUCHING"
    return None


def impossible_statuses(lower: float, upper: float, band: float, floor: float) -> set[str]:
    """Statuses that no distance in [lower, upper] can have."""
    out = set()
    if upper < band - floor:
        out.add("SEPARATED")
    if lower > -band + floor:
        out.add("INTERSECTING")
    if lower > band + floor or upper < -band - floor:
        out.add("TOUCHING")
    return out


def _off(bracket: tuple[float, float]) -> float:
    lo, hi = bracket
    if lo <= 0.0 <= hi:
        return 0.0
    return min(abs(lo), abs(hi))


def judge(a, b, contact, ref=None) -> Verdict:
    ga = a if isinstance(a, Geo) else geometry(a, ref)
    gb = b if isinstance(b, Geo) else geometry(b, ref)
    ref = ga.ref
    scale = pair_scale(ga, gb)
    normal = np.asarray(contact.normal, dtype=np.float64)
    n_len = float(np.linalg.norm(normal))
    normals = [normal] if np.all(np.isfinite(normal)) and n_len > 0 else []
    tr = truth(ga, gb, normals=normals)
    d = float(contact.distance)
    extent = max(float(np.max(np.abs(np.concatenate(world_bounds(g))))) for g in (ga, gb))
    floor = rounding_floor(scale, ref, d, extent)
    band = TOUCHING * scale
    expected = expected_status(tr.lower, tr.upper, band, floor)
    if tr.exact:
        distance_error = abs(d - tr.lower)
    else:
        distance_error = max(tr.lower - d, d - tr.upper, 0.0)
    if normals:
        sep = support_separation(ga, gb, normal / n_len)
        support_gap = tr.lower - sep  # the true d is >= lower (== lower for exact pairs)
    else:
        support_gap = np.inf
    pa, pb = np.asarray(contact.point_a, float), np.asarray(contact.point_b, float)
    point_a_off = _off(point_shape_bracket(pa, ga)) if np.all(np.isfinite(pa)) else np.inf
    point_b_off = _off(point_shape_bracket(pb, gb)) if np.all(np.isfinite(pb)) else np.inf
    status = contact.status.name
    if status == "SEPARATED":
        relation = float(np.linalg.norm(pb - pa - d * normal))
    elif status == "INTERSECTING":
        relation = float(np.linalg.norm(pa - pb - contact.depth * normal))
    else:
        relation = max(0.0, float(np.linalg.norm(pa - pb)) - abs(d))
    tt = float(contact.touching_tolerance)
    status_distance_ok = (
        (status == "SEPARATED" and d > tt) or (status == "INTERSECTING" and d < -tt)
        or (status == "TOUCHING" and abs(d) <= tt)
    )
    return Verdict(
        scale=scale, floor=floor, lower=tr.lower, upper=tr.upper, exact=tr.exact, expected=expected,
        status=status, distance=d, distance_error=distance_error, support_gap=float(support_gap),
        point_a_off=point_a_off, point_b_off=point_b_off, relation=relation,
        normal_norm_error=abs(n_len - 1.0),
        scale_error=max(0.0, abs(float(contact.scale) - scale) - floor) / scale if scale > 0 else abs(float(contact.scale)),
        tolerance_error=max(0.0, abs(tt - band) - 1e-9 * floor) / band if band > 0 else abs(tt),
        status_distance_ok=status_distance_ok,
    )


def failures(v: Verdict, worst: float = 1e-6) -> list[str]:
    """Every convention or accuracy rule `v` breaks (empty when the answer is right)."""
    out = []
    band, floor = v.band, v.floor
    if v.wrong_verdict:
        out.append(f"status {v.status}, truth demands {v.expected or 'another status'} "
                   f"(d in [{v.lower:.17g}, {v.upper:.17g}], band {band:.3g})")
    if v.distance_error > worst * v.scale + floor:
        out.append(f"distance error {v.distance_error:.3g} > {worst:g} x scale")
    if v.support_gap > worst * v.scale + floor:
        out.append(f"support separation along the normal is {v.support_gap:.3g} below the true distance")
    if v.point_a_off > band + floor:
        out.append(f"point_a is {v.point_a_off:.3g} off A")
    if v.point_b_off > band + floor:
        out.append(f"point_b is {v.point_b_off:.3g} off B")
    if v.relation > band + floor:
        out.append(f"point/normal relation of a {v.status} answer broken by {v.relation:.3g}")
    if v.normal_norm_error > 1e-12:
        out.append(f"normal is not unit (| |n| - 1 | = {v.normal_norm_error:.3g})")
    if v.scale_error > 1e-12:
        out.append(f"scale differs from the AABB-diagonal definition by {v.scale_error:.3g} (relative)")
    if v.tolerance_error > 1e-12:
        out.append("touching_tolerance != 1e-9 x scale")
    if not v.status_distance_ok:
        out.append(f"status {v.status} inconsistent with distance {v.distance:.17g}")
    return out
