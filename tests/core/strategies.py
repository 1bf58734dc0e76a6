"""Pair samples for the property tests (one test file per property, as in lycantropos/gon).

`generic_pairs()` keeps corpus pairs whose answer is unique: polytope or round cores in general position
(random clouds, similar primitives, affine boxes), with |true d| > 1e-6 x scale, so the normal and the points
are determined and a property can compare two answers point by point.  `any_pairs()` adds the degenerate
families (touching, flat, coplanar, needles, curved) for properties that hold whatever the configuration.
"""
from __future__ import annotations

import functools

import numpy as np

from tests.core.corpus import make_pair, random_rotation
from tests.core.oracle import ShapeSpec, truth

GENERIC_FAMILIES = ("gaussian", "ball", "sphere_pts", "prim_round", "affine")
ANY_FAMILIES = ("gaussian", "prim_round", "prim_curved", "touching", "near+1e-7", "near-1e-6", "coplanar", "flat",
                "needle_point", "contain", "far", "scale")


@functools.lru_cache(maxsize=None)
def generic_pairs(per_family: int = 30):
    out = []
    for family in GENERIC_FAMILIES:
        for i in range(per_family):
            p = make_pair(family, i)
            t = truth(p.a, p.b, p.ref)
            if t.exact and abs(t.d) > 1e-6 * t.scale:
                out.append(p)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def any_pairs(per_family: int = 12):
    return tuple(make_pair(f, i) for f in ANY_FAMILIES for i in range(per_family))


def ids(pairs):
    return [p.name for p in pairs]


def moved(spec: ShapeSpec, matrix: np.ndarray) -> ShapeSpec:
    """`spec` under the world transform `matrix`; raw clouds get their vertices transformed (no transform)."""
    if spec.kind == "cloud" and spec.transform is None:
        return ShapeSpec("cloud", vertices=spec.vertices @ matrix[:3, :3].T + matrix[:3, 3], margin=spec.margin)
    return spec.transformed(matrix)


def rigid_motion(seed: int, reach: float = 10.0) -> np.ndarray:
    rng = np.random.default_rng([99, seed])
    m = np.eye(4)
    m[:3, :3] = random_rotation(rng)
    m[:3, 3] = rng.normal(size=3) * reach
    return m
