"""bench/moved.py's rows as cases for bench/ab.py: two checkouts' engines moving the same meshes through the same
poses, interleaved in one process (CPU time, for a loaded machine).

    .venv/bin/python bench/ab.py BEFORE . --cases bench/moved_ab_cases.py --repeat 5

Each call runs one row's poses with a new `PairHistory` (the first pose is a fresh query, as in the row) and
`depth_interval=False`; the meshes are built, and their local structures made, once per engine before. The time
is for the whole row: divide by POSES for a time per pose (a mean, where bench/moved.py reports a median).  The
answer compared is every pose's status, distance and normal bits, and the routes taken.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import moved  # noqa: E402  (bench/moved.py: the rows and their poses)

POSES = 30

_rows = {}
_meshes = {}


def _row(name):
    if name not in _rows:
        _rows[name] = moved.make_row(name, False, POSES)
    return _rows[name]


def _run(core, name):
    (va, ta), (vb, tb), placements, moving = _row(name)
    key = (core.__name__, name)
    if key not in _meshes:
        a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
        core.collide(a, b)  # the local structures, before any clock
        _meshes[key] = (a, b, [((a.moved(p), b) if moving == "a" else (a, b.moved(p))) for p in placements])
    _, _, pairs = _meshes[key]
    history = core.PairHistory()
    out = []
    for pa, pb in pairs:
        c = core.collide(pa, pb, history=history, depth_interval=False)
        out.append((c.status.name, float(c.distance).hex(), tuple(float(x).hex() for x in c.normal),
                    history.route.value))
    return tuple(out)


CASES = [(f"{name} ({POSES} poses)", lambda core, name=name: _run(core, name)) for name in moved.ROWS]
