"""core/mesh/part_depth.py `convex_part_depth` takes every part's box in one reduction per part
(`_all_part_boxes`) and returns None before asking for the parts' convexity when no part of a side stands alone
(`_any_alone`): its answer must be the one of a per-triangle scatter of the boxes (an independent oracle) with the
shortcut off.  Cases: tests/core/mesh_corpus.py's crate, contain, stacked and furniture families (meshes of
several loose parts, some alone and some nested or overlapping), and meshes of overlapping boxes (no part alone)
and of boxes apart (each alone) against single boxes."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import part_depth
from core.mesh.pair_frame import Frame
from tests.core.mesh_corpus import FAMILIES, box, make_case


def _scatter_boxes(side):
    parts = side.local.parts
    corners = side.vertices[side.local.triangles]
    lo = np.full((parts.count, 3), np.inf)
    hi = np.full((parts.count, 3), -np.inf)
    for axis in range(3):
        np.minimum.at(lo[:, axis], parts.label, corners[:, :, axis].min(axis=1))
        np.maximum.at(hi[:, axis], parts.label, corners[:, :, axis].max(axis=1))
    return lo, hi


def _join(*meshes):
    vertices, triangles, count = [], [], 0
    for v, t in meshes:
        vertices.append(v)
        triangles.append(t + count)
        count += len(v)
    return np.concatenate(vertices), np.concatenate(triangles)


def _pairs():
    out = []
    for family in ("crate", "contain", "stacked", "furniture"):
        for index in range(0, FAMILIES[family] * 3, 3):
            case = make_case(family, index)
            out.append((case.a.build(), case.b.build()))
    overlapping = _join(box((0, 0, 0), (1, 1, 1)), box((0.5, 0.5, 0.5), (1.5, 1.5, 1.5)), box((1, 0, 0), (2, 1, 1)))
    apart = _join(box((0, 0, 0), (1, 1, 1)), box((3, 0, 0), (4, 1, 1)))  # two parts, each alone
    for lo in ((0.2, 0.2, 0.2), (0.7, 0.3, 0.1), (1.2, 0.3, 0.1), (3.0, 3.0, 3.0)):
        single = box(lo, np.add(lo, 0.5))
        for several in (overlapping, apart):
            out.append((core.TriangleMesh(*several), core.TriangleMesh(*single)))
            out.append((core.TriangleMesh(*single), core.TriangleMesh(*several)))
    return out


def _depths(pairs):
    out = []
    for a, b in pairs:
        frame = Frame(a, b, core.DEFAULT_TOLERANCES)
        found = part_depth.convex_part_depth(frame.sa, frame.sb, core.DEFAULT_TOLERANCES)
        out.append(None if found is None else (found[0], found[1].tobytes(), found[2].tobytes()))
    return out


def test_part_depth_alone_first_keeps_the_answer(monkeypatch):
    pairs = _pairs()
    fast = _depths(pairs)
    assert any(d is not None for d in fast)
    monkeypatch.setattr(part_depth, "ANY_ALONE_PARTS", 0)
    monkeypatch.setattr(part_depth, "_all_part_boxes", _scatter_boxes)
    assert _depths(pairs) == fast
