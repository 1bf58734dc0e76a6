"""`hilbert_keys` runs Skilling's index as a finite-state transducer over the bit levels, through tables of 3, 3, 3
and 1 levels (core/mesh/bvh.py `_hilbert_level`): its keys equal the per-point transcription of the bitwise steps
(tests/core/test_mesh_hilbert_skilling.py's `skilling_key`) on cells that drive the transducer through its states
at every level, the top level's octants and the last level's bit, and the grid's corners."""
from __future__ import annotations

import numpy as np

from core.mesh import bvh
from tests.core.test_mesh_hilbert_skilling import skilling_key


def _keys_of_cells(cells: np.ndarray) -> np.ndarray:
    # the cells as points on a grid whose box is [0, 1023]^3 (two corner points pin the quantisation)
    points = np.concatenate([cells.astype(float), [[0.0, 0.0, 0.0], [1023.0, 1023.0, 1023.0]]])
    return bvh.hilbert_keys(points)[:-2]


def test_table_keys_equal_the_bitwise_steps():
    rng = np.random.default_rng(20261127)
    octants = np.array([[i >> 2 & 1, i >> 1 & 1, i & 1] for i in range(8)])
    cells = [rng.integers(0, 1024, (4000, 3)),
             octants * 512 + rng.integers(0, 512, (8, 3)),  # each top-level octant
             (octants[:, None] * 512 + octants[None] * 64).reshape(-1, 3),  # the first two levels' 64 paths
             rng.integers(0, 1024, (500, 3)) | 1,  # the last level's bit set ...
             rng.integers(0, 1024, (500, 3)) & ~1]  # ... and clear
    cells = np.concatenate(cells)
    expected = [skilling_key(*map(int, c)) for c in cells]
    assert _keys_of_cells(cells).tolist() == expected


def test_tables_compose_the_one_level_step():
    """Each table row is the one-level step applied level by level from the top (a 3-level table against the
    1-level one, every state and word)."""
    digits3, next3 = bvh._hilbert_tables(3)
    digits1, next1 = bvh._hilbert_tables(1)
    for state in range(bvh._STATES):
        for word in range(0, 512, 7):
            s, out = state, 0
            for k in (2, 1, 0):
                row = s * 8 + ((word >> (3 * k)) & 7)
                out, s = (out << 3) | int(digits1[row]), int(next1[row])
            assert (int(digits3[state * 512 + word]), int(next3[state * 512 + word])) == (out, s)
