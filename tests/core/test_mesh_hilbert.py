"""The hierarchy's sort key walks a Hilbert curve: every grid cell once, consecutive cells face neighbours."""
from __future__ import annotations

import numpy as np

from core.mesh.bvh import hilbert_keys


def test_consecutive_keys_are_face_neighbours_on_the_full_grid():
    # 1024 points per axis would be 1e9 cells; a 32^3 block at the grid's resolution is walked in whole
    # sub-cubes, so it is checked there: the points sit on the 1024^3 grid of the bounding box [0, 1023]
    n = 32
    cells = np.stack(np.meshgrid(*[np.arange(n)] * 3, indexing="ij"), -1).reshape(-1, 3).astype(float)
    corner = np.array([[1023.0, 1023.0, 1023.0]])  # pins the bounding box so each point is its own cell
    keys = hilbert_keys(np.concatenate([cells, corner]))[:-1]
    assert np.unique(keys).size == keys.size
    walk = cells[np.argsort(keys)]
    steps = np.abs(np.diff(walk, axis=0)).sum(axis=1)
    assert np.all(steps == 1.0)
