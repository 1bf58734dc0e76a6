"""core/hull.py on grids: a 5 x 5 x 5 grid of points turned at random with every point moved by up to 1e-13, 1e-11
or 1e-9, and the surface points of a cube subdivided 2, 4 or 8 times per edge (Blender's subdivided cube) turned,
scaled, moved and rounded to float32 as Blender stores vertices (seeded), get a sound hull, not None.

Regression: three or more grid points along one edge, moved off their line by more than the tolerance eps (about
7e-12 here), make sliver faces of the exact hull whose computed planes tilt by about 2^-52 x size over their width:
points, even their own corners, hundreds to hundreds of billions of eps above them.  Every build and repair at eps
failed `_sound`, and `convex_hull` returned None for 35 of the 90 jittered grids and 1 of the 270 cubes, so
core/mesh/overlap.py raised "the convex hull of its points could not be built" for a convex shape.  Such clouds
are now built once more at 10 eps, then 100 eps (`_EPS_GROWTH`), and checked the same way.

Oracle: the triangulation's own planes against every point and every edge's far corners, each directed edge used
once and met by its reverse (tests/core/support.py), and scipy's qhull (test-only) for the volume.  Every corner is
an input point, so the hull returned lies inside qhull's; holding every point within `_slack` x size of its faces,
its volume differs from qhull's by at most qhull's area times that distance (twice it, for qhull's own rounding).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

from core.hull import convex_hull

from .support import assert_closed_convex_hull

GRID = np.stack(np.meshgrid(*[np.arange(5.0)] * 3, indexing="ij"), -1).reshape(-1, 3)


def _slack(cloud: np.ndarray) -> float:
    """The loosest bound `convex_hull` states, over the cloud's diagonal: 10,000 eps, eps = 1e-12 x the diagonal +
    32 x 2^-52 x the largest coordinate (up to 2e-8 of the diagonal here: the cube scaled to 0.01 at 5)."""
    size = float(np.linalg.norm(cloud.max(axis=0) - cloud.min(axis=0)))
    return 1e4 * (1e-12 + 32.0 * np.finfo(float).eps * float(np.abs(cloud).max()) / size)


def _jittered_grid(jitter: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    turn = Rotation.random(random_state=seed).as_matrix()
    return GRID @ turn.T + rng.uniform(-jitter, jitter, GRID.shape)


def _float32_cube(cuts: int, seed: int, scale: float, shift: float) -> np.ndarray:
    g = np.stack(np.meshgrid(*[np.linspace(-1.0, 1.0, cuts + 1)] * 3, indexing="ij"), -1).reshape(-1, 3)
    surface = g[np.any(np.abs(g) == 1.0, axis=1)]
    turn = Rotation.random(random_state=seed).as_matrix()
    return ((surface * scale) @ turn.T + shift).astype(np.float32).astype(np.float64)


def _assert_sound_hull_of(cloud: np.ndarray) -> None:
    slack = _slack(cloud)
    volume = assert_closed_convex_hull(cloud, convex_hull(cloud), slack)
    reference = ConvexHull(cloud)
    size = float(np.linalg.norm(cloud.max(axis=0) - cloud.min(axis=0)))
    bound = 2.0 * reference.area * slack * size
    assert abs(volume - reference.volume) <= bound, (volume, reference.volume, bound)


def test_literal_grids_and_cube_get_a_hull():
    """Three that were declined: a grid at 1e-11 folded (a point 1e11 eps above a face), one at 1e-9 with edges
    reflex by 3,000 eps and points 6,000 eps above faces, and an 8-cut cube whose sliver face (three points along
    one of the cube's edges) had its own middle corner 330 eps above its computed plane."""
    _assert_sound_hull_of(_jittered_grid(1e-11, 4))
    _assert_sound_hull_of(_jittered_grid(1e-9, 1))
    _assert_sound_hull_of(_float32_cube(8, 4, 1.0, 0.0))


@pytest.mark.parametrize("jitter", [1e-13, 1e-11, 1e-9])
def test_rotated_jittered_grids_get_a_sound_hull(jitter):
    """30 seeds per jitter: before, 0, 9 and 26 of them were declined."""
    for seed in range(30):
        _assert_sound_hull_of(_jittered_grid(jitter, seed))


@pytest.mark.parametrize("cuts", [2, 4, 8])
def test_float32_subdivided_cubes_get_a_sound_hull(cuts):
    """30 turns, each at the origin, moved to 100 and scaled to 0.01 at 5: before, one (8 cuts) was declined."""
    for seed in range(30):
        for scale, shift in ((1.0, 0.0), (1.0, 100.0), (0.01, 5.0)):
            _assert_sound_hull_of(_float32_cube(cuts, seed, scale, shift))
