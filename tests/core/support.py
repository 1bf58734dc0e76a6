"""Small helpers shared by the core tier's test files: one home for what several files need.

Report and tolerance arithmetic live in tests/core/reporting.py, corpus transforms (`random_rotation`, `rigid`) in
tests/core/corpus.py, hand-built triangle meshes in tests/core/meshes.py; everything else shared goes here.
"""
from __future__ import annotations

import numpy as np

CUBE = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
"""The unit cube's 8 corners [0, 1]^3 (corner index 4x + 2y + z): dyadic, so every sum and difference is exact."""


def uniform_rotation(rng) -> np.ndarray:
    """A uniformly distributed 3 x 3 rotation from the QR factors of a Gaussian matrix: R's diagonal signs moved into
    Q make the distribution uniform (Haar), and a negative determinant is flipped (-Q is a rotation in 3D)."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q
