"""The hierarchy's sort keys are Skilling's Hilbert index of the quantised points, bit for bit: a plain per-point
Python transcription of the algorithm (transposed index, Gray decode, bits interleaved x, y, z from the top) is the
oracle for the vectorised `hilbert_keys`, whose keys decide the order of every hierarchy (so any change to it
would change answers bit for bit)."""
from __future__ import annotations

import numpy as np

from core.mesh.bvh import hilbert_keys

BITS = 10


def skilling_key(x: int, y: int, z: int) -> int:
    axes = [x, y, z]
    q = 1 << (BITS - 1)
    while q > 1:  # inverse undo: per bit level from the top, invert or exchange the lower bits
        p = q - 1
        for i in range(3):
            if axes[i] & q:
                axes[0] ^= p
            else:
                t = (axes[0] ^ axes[i]) & p
                axes[0] ^= t
                axes[i] ^= t
        q >>= 1
    for i in (1, 2):  # Gray encode
        axes[i] ^= axes[i - 1]
    t = 0
    q = 1 << (BITS - 1)
    while q > 1:
        if axes[2] & q:
            t ^= q - 1
        q >>= 1
    axes = [a ^ t for a in axes]
    key = 0
    for bit in range(BITS - 1, -1, -1):
        for a in axes:
            key = (key << 1) | ((a >> bit) & 1)
    return key


def test_keys_match_the_per_point_algorithm():
    rng = np.random.default_rng(20261127)
    points = np.concatenate([rng.uniform(-3.0, 5.0, (3000, 3)),
                             np.round(rng.uniform(0.0, 1023.0, (1000, 3))),  # on grid cells exactly
                             [[0.0, 0.0, 0.0], [1023.0, 1023.0, 1023.0]]])
    keys = hilbert_keys(points)
    lo = points.min(axis=0)
    extent = float((points.max(axis=0) - lo).max())
    cells = np.minimum(((points - lo) * (1023.0 / extent)).astype(np.int64), 1023)
    expected = [skilling_key(*map(int, c)) for c in cells]
    assert keys.dtype == np.uint64
    assert keys.tolist() == expected


def test_flat_and_single_points_have_key_zero():
    assert hilbert_keys(np.ones((5, 3))).tolist() == [0] * 5
