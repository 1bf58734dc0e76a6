"""bench/midsize.py's rows as cases for bench/ab.py: two checkouts' engines on the same one-shot queries,
interleaved in one process (CPU time, for a loaded machine).

    .venv/bin/python bench/ab.py BEFORE . --cases bench/midsize_ab_cases.py --repeat 5
    MIDSIZE_ROWS="bunny,torus" .venv/bin/python bench/ab.py BEFORE . --cases bench/midsize_ab_cases.py

Each call is bench/midsize_cases.py's `one_shot` with that engine: both meshes built from the arrays (the
engine's shared-topology cache emptied first), then `collide` with the loose depth interval.  The answer compared
is every field of the Contact (`dump`).  MIDSIZE_ROWS: the rows whose name contains one of these comma-separated
words (all by default); pybullet's meshes are found as bench/midsize.py finds them (pybullet_data importable here,
or MIDSIZE_PYBULLET_DATA).
"""
from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))  # midsize_cases places "inside" pairs with this checkout's engine

import midsize_cases  # noqa: E402  (the pairs, one_shot and dump)


def _one_shot(core, va, ta, vb, tb):
    importlib.import_module(core.__name__ + ".mesh.trimesh")._TOPOLOGIES.clear()
    contact = core.collide(core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb), depth_interval=False)
    return midsize_cases.dump(contact)


def _cases():
    words = [w.strip() for w in os.environ.get("MIDSIZE_ROWS", "").split(",") if w.strip()]
    out = []
    for name, (va, ta), (vb, tb) in midsize_cases.cases():
        if words and not any(w in name for w in words):
            continue
        out.append((name, lambda core, va=va, ta=ta, vb=vb, tb=tb: _one_shot(core, va, ta, vb, tb)))
    return out


CASES = _cases()
