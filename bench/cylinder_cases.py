"""Cases for bench/ab.py: a many-sided cylinder against its copy in place, on the three routes the add-on takes.

    .venv/bin/python bench/ab.py BEFORE . --cases bench/cylinder_cases.py --repeat 3

256 and 1,024 sides (512 and 2,048 rim vertices, `tests/core/duplicates.py:cylinder`), each against its copy:
identical, its vertex rows shuffled (and, for triangles, relabelled and the triangle list reversed), scaled by 1.001
about its centre (the original inside), both, turned 1e-4 rad, shifted 1e-6 x size.  Routes:
- "raw": `collide` on the two vertex arrays (the core makes the hulls);
- "fan": `ConvexPolytope`s whose caps are fanned from one rim vertex (a vertex of degree sides - 1, as qhull and
  some exporters triangulate a flat n-gon);
- "mesh fan" / "mesh halving": `TriangleMesh`es (Exact mode), caps fanned, or cut as Blender cuts an n-gon cap
  into triangles (ears clipped in rounds, every other rim vertex per round: degree ~2 log2(sides), as
  Blender 5.0's own loop triangles of a Cylinder with N-Gon caps have; the copy's transform carries the turn,
  shift or scale as in Blender, or its arrays are reordered).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from tests.core.duplicates import cylinder, fan_caps, halving_caps, near_copy, placement  # noqa: E402


RELATIONS = {"identical": {}, "shuffled": {"shuffle": True}, "scaled 1.001": {"scale": 1.001},
             "scaled 1.001 + shuffled": {"scale": 1.001, "shuffle": True}, "turned 1e-4": {"angle": 1e-4},
             "shifted 1e-6": {"shift": 1e-6}}


def _answer(contact):
    """The bits compared between the two engines: status, signed distance, containment, crossing segments."""
    segments = getattr(contact, "intersection", None)
    return (contact.status.name, float(contact.distance).hex(), str(getattr(contact, "containment", None)),
            0 if segments is None else len(segments))


def _cases():
    out = []
    for sides in (256, 1024):
        a = cylinder(sides)
        tris = {"fan": fan_caps(sides), "halving": halving_caps(sides)}
        for relation, spec in RELATIONS.items():
            spec = dict(spec)
            shuffle = spec.pop("shuffle", False)
            rng = np.random.default_rng([2101, sides, len(relation)])
            b = near_copy(a, rng, **spec) if spec else a.copy()
            perm = rng.permutation(len(a)) if shuffle else np.arange(len(a))
            label = np.argsort(perm)
            b = b[perm]
            pose = placement(a, np.random.default_rng([2102, sides, len(relation)]), **spec) if spec else None

            def raw(core, a=a, b=b):
                return _answer(core.collide(a, b))

            def fan(core, a=a, b=b, t=tris["fan"], label=label):
                return _answer(core.collide(core.ConvexPolytope(a, t), core.ConvexPolytope(b, label[t][::-1])))

            out += [(f"cyl {sides} raw {relation}", raw), (f"cyl {sides} fan {relation}", fan)]
            for kind, t in tris.items():
                if shuffle:  # the copy's arrays reordered (as an exported and imported copy is)
                    def mesh(core, a=a, b=b, t=t, label=label):
                        return _answer(core.collide(core.TriangleMesh(a, t), core.TriangleMesh(b, label[t][::-1])))
                else:  # the copy's object transform carries the relation (Shift+D, then turned, moved or scaled)
                    def mesh(core, a=a, t=t, pose=pose):
                        return _answer(core.collide(core.TriangleMesh(a, t), core.TriangleMesh(a, t, pose)))
                out.append((f"cyl {sides} mesh {kind} {relation}", mesh))
    return out


CASES = _cases()
