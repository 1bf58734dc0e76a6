"""Property: scaling the whole scene by s (about the origin) scales the distance, the points and the pair's
scale by s and keeps the normal and the status (every tolerance is relative to scale)."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.strategies import any_pairs, generic_pairs, ids, moved


def _scaled(spec, s):
    m = np.diag([s, s, s, 1.0])
    out = moved(spec, m)
    from dataclasses import replace

    return replace(out, margin=spec.margin * s)


@pytest.mark.parametrize("s", [1e-4, 0.37, 8.0, 1e4])
@pytest.mark.parametrize("pair", generic_pairs()[::2], ids=ids(generic_pairs()[::2]))
def test_scaling_scales_distance_points_and_scale(pair, s):
    before = core.collide(pair.a.build(), pair.b.build())
    after = core.collide(_scaled(pair.a, s).build(), _scaled(pair.b, s).build())
    assert after.status is before.status
    np.testing.assert_allclose(after.scale, s * before.scale, rtol=1e-12)
    np.testing.assert_allclose(after.distance, s * before.distance, atol=1e-9 * after.scale)
    np.testing.assert_allclose(after.normal, before.normal, atol=1e-6)
    np.testing.assert_allclose(after.point_a, s * before.point_a, atol=1e-6 * after.scale)
    np.testing.assert_allclose(after.point_b, s * before.point_b, atol=1e-6 * after.scale)


@pytest.mark.parametrize("s", [1e-4, 1e4])
@pytest.mark.parametrize("pair", any_pairs(), ids=ids(any_pairs()))
def test_scaling_keeps_the_verdict_in_any_configuration(pair, s):
    """Power-of-ten scales round the inputs, so only the relative answer is compared (and the verdict away from
    the band edges)."""
    before = core.collide(pair.a.build(), pair.b.build())
    after = core.collide(_scaled(pair.a, s).build(), _scaled(pair.b, s).build())
    if before.scale == 0.0:  # two bare points: the distance is all there is
        np.testing.assert_allclose(after.distance, s * before.distance, rtol=1e-12, atol=1e-14 * s)
        return
    np.testing.assert_allclose(after.distance / after.scale, before.distance / before.scale, atol=3e-9)
    if abs(before.distance) > 4e-9 * before.scale:
        assert after.status is before.status
