"""core.overlap on seeded random pairs of the corpus against manifold3d: half of them placed on a quarter grid
with right-angle turns (faces, edges and vertices of one lying exactly on the other's), half anywhere, and boxy
solids (grid boxes, L shapes, a coarse cup, ball and torus) on an eighth grid, where faces often lie on faces;
every pair then turned, scaled by 1e-3..1e3 and moved up to 1e6 away, so exact contacts become rounding-level
ones."""
import numpy as np
import pytest

from tests.core import overlap_corpus as oc
from tests.core.meshes import box
from tests.core.test_overlap_coplanar import grid_box

SHAPES = [oc.torus(), oc.rod(), oc.cup(), oc.ball(0.5), oc.l_shape(), oc.blob(1), oc.blob(2),
          box((0, 0, 0), (1, 1, 1)), oc.torus(0.8, 0.2, stretch=0.5)]


@pytest.mark.parametrize("seed", range(60))
def test_random_pairs_match_manifold3d(seed):
    rng = np.random.default_rng(1000 + seed)
    i, j = rng.integers(len(SHAPES), size=2)
    if seed % 2 == 0:
        turn = np.eye(3)[rng.permutation(3)] * rng.choice([-1, 1], size=3)[:, None]
        shift = rng.integers(-4, 5, size=3) / 4.0
    else:
        turn, shift = oc.rotation(rng), rng.normal(size=3) * 0.7
    world = oc.pose(oc.rotation(rng) * 10 ** rng.uniform(-3, 3), rng.normal(size=3) * 10 ** rng.uniform(0, 6))
    a, b = oc.place(SHAPES[i], world), oc.place(SHAPES[j], world @ oc.pose(turn, shift))
    oc.assert_volume(a, b, oc.manifold_volume(a, b))


_GRID = np.random.default_rng(7)
BOXY = [box((0, 0, 0), (1, 1, 1)), oc.welded(grid_box((0, 0, 0), (1, 1, 1), 3, _GRID)),
        oc.welded(grid_box((0, 0, 0), (0.5, 1, 0.75), 2, _GRID)),
        oc.l_shape(), oc.l_shape(1.0, 0.5, 0.5), oc.cup(), oc.ball(0.5, 8, 4), oc.torus(1, 0.25, 8, 4)]


@pytest.mark.parametrize("seed", range(60))
def test_boxy_pairs_on_a_grid_match_manifold3d(seed):
    rng = np.random.default_rng(2000 + seed)
    i, j = rng.integers(len(BOXY), size=2)
    turn = np.eye(3)[rng.permutation(3)] * rng.choice([-1, 1], size=3)[:, None]
    shift = rng.integers(-8, 9, size=3) / 8.0
    world = oc.pose(oc.rotation(rng) * 10 ** rng.uniform(-3, 3), rng.normal(size=3) * 10 ** rng.uniform(0, 6))
    a, b = oc.place(BOXY[i], world), oc.place(BOXY[j], world @ oc.pose(turn, shift))
    oc.assert_volume(a, b, oc.manifold_volume(a, b))
