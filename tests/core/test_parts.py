"""`core.collide_worst` returns the worst pair of pieces: the same answer as checking every pair and keeping the
worst by hand, whatever the pruning skipped (seeded scenes of boxes, clouds and spheres, some far from the origin)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.parts import worse
from tests.core.support import CUBE


def _pieces(rng, count, spread, offset):
    pieces = []
    for _ in range(count):
        centre = offset + rng.uniform(-spread, spread, 3)
        kind = rng.integers(3)
        if kind == 0:
            pieces.append(centre + rng.normal(size=(int(rng.integers(4, 30)), 3)) * rng.uniform(0.1, 1.0))
        elif kind == 1:
            m = np.eye(4)
            m[:3, 3] = centre
            pieces.append(core.Box(rng.uniform(0.1, 1.0, 3), transform=m))
        else:
            m = np.eye(4)
            m[:3, 3] = centre
            pieces.append(core.Sphere(rng.uniform(0.1, 1.0), transform=m))
    return pieces


def _by_hand(parts_a, parts_b):
    best = None
    for i, a in enumerate(parts_a):
        for j, b in enumerate(parts_b):
            c = core.collide(a, b)
            if best is None or worse(c, best[0]):
                best = (c, i, j)
    return best


@pytest.mark.parametrize("seed", range(24))
def test_worst_pair_matches_every_pair_checked(seed):
    rng = np.random.default_rng(seed)
    offset = np.array([1e5, -2e5, 3e4]) if seed % 4 == 3 else np.zeros(3)
    spread = [1.0, 4.0, 12.0][seed % 3]
    parts_a = _pieces(rng, int(rng.integers(1, 7)), spread, offset)
    parts_b = _pieces(rng, int(rng.integers(1, 7)), spread, offset + rng.uniform(-spread, spread, 3))
    contact, i, j = core.collide_worst(parts_a, parts_b)
    expected, _ei, _ej = _by_hand(parts_a, parts_b)
    assert contact.status is expected.status
    assert contact.distance == pytest.approx(expected.distance, abs=1e-9 * max(contact.scale, expected.scale))
    again = core.collide(parts_a[i], parts_b[j])  # the indices name the pair that answered
    assert again.distance == pytest.approx(contact.distance, abs=1e-12 * contact.scale)


def test_one_intersecting_pair_among_far_ones_wins():
    far = [np.eye(3) * 0.1 + [50.0 * k, 0.0, 0.0] for k in range(1, 5)]
    contact, i, j = core.collide_worst(far + [CUBE], [CUBE + [0.75, 0.0, 0.0]])
    assert contact.status is core.Status.INTERSECTING and (i, j) == (4, 0)
    assert contact.depth == pytest.approx(0.25, abs=1e-12)


def test_empty_sides_are_refused():
    with pytest.raises(ValueError, match="at least one part"):
        core.collide_worst([], [np.zeros((1, 3))])
