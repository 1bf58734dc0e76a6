"""bench/ab.py cases: `collide_many` on bench/scene.py's narrow-phase scenes, two engines interleaved.

    .venv/bin/python bench/ab.py BEFORE AFTER --cases bench/scene_cases.py --repeat 5

Each engine prepares its own `ShapeBatch` once (outside the timing) from the same seeded scene and pairs as
bench/scene.py's narrow rows; a call is one `collide_many` on the 10,000 pairs.  The answer compared is every
listed pair with every field of its Contact as bytes (floats and arrays by their bits, enums by name), so
"same answer" means byte for byte the same list."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scene  # noqa: E402  (bench/scene.py: the seeded scenes)

_SCENES = (("random, clearance 0", False, 0.0, 0.3), ("random, clearance 0.05", False, 0.05, 0.3),
           ("lattice, clearance 0", True, 0.0, 0.3), ("dense, clearance 0.05", False, 0.05, 1.0))
_PREPARED = {}


def _bits(value):
    if isinstance(value, (float, np.floating, np.ndarray)):
        return np.asarray(value, dtype=np.float64).tobytes()
    if hasattr(value, "name"):
        return value.name
    return repr(value)


def _prepared(core, label, lattice, clearance, density):
    key = (core.__name__, label)
    if key not in _PREPARED:
        local, poses = scene.scene(12000, density, seed=10, lattice=lattice)
        batch = core.ShapeBatch([core.PointCloud(v, m) for v, m in zip(local, poses)])
        candidates = core.candidate_pairs(batch.lo, batch.hi, clearance)
        rng = np.random.default_rng(1)
        take = np.sort(rng.choice(len(candidates), min(10_000, len(candidates)), replace=False))
        _PREPARED[key] = (batch, candidates[take])
    return _PREPARED[key]


def _case(label, lattice, clearance, density):
    def run(core):
        batch, pairs = _prepared(core, label, lattice, clearance, density)
        found = core.collide_many(batch, pairs, clearance)
        return tuple((i, j, tuple((name, _bits(v)) for name, v in sorted(vars(c).items()))) for i, j, c in found)
    return label, run


CASES = [_case(*s) for s in _SCENES]
