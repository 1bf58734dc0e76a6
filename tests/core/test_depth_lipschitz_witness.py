"""The Lipschitz covering's per-cell witnesses (core/mesh/depth_lipschitz.py `_Witness.rescue`, `_box_rescue`,
`_VertexWitness.rescue`; the last on by default): a cell's g comes only from a point proved inside both solids,
with its exact distances, and never exceeds the true maximum of g at the cell's translation; a translation that
leaves the solids apart gets nothing.

Regression (docs/decisions.md, "The Lipschitz covering's settings"): on blobs/8 of the depth corpus the
stage as is spends its budget with cells open at 0.91 U (gap 8.8 % of U): their sources give them no point inside
both solids, or a poor one.  With the vertex witnesses (on by default) the covering reaches its goal.  Oracle: the stage's own
interval (its result is checked against U, which a free move realises, and against the stage's input L).

Hand-worked (as tests/core/test_depth_lipschitz_climb.py): A = B = the cube [-1, 1]^3 and B moved by
c = (1.5, 1.5, 0) share the box [0.5, 1]^2 x [-1, 1], where g(c, p) = min(1 - x, 1 - y) + min(x - 0.5, y - 0.5)
(the z faces are farther) peaks at 0.5 on the diagonal x = y: no point gives more.  The box A's box and
B + c's box share is that box itself, so every point `_box_rescue` samples lies inside both, and the climb takes
the best near the peak; B's corners moved by c into A's corner region give the vertex witnesses theirs.  With c = (2.5, 0, 0) B + c only touches A's face x = 1 from outside (no interior
overlap): no point, no source."""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import depth_lipschitz as dl
from core.mesh.pair_frame import Frame
from core.mesh.points import closest_points, winding_numbers

from .meshes import box


def _frame():
    a = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    b = core.TriangleMesh(*box((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0)))
    return Frame(a, b, core.DEFAULT_TOLERANCES)


def _rescue(kind, frame, c, h):
    sa, sb, scale = frame.sa, frame.sb, frame.scale
    allowance = 1e-9 * (scale + 2.0)
    if kind == "box":
        return dl._box_rescue(sa, sb, c, h, scale, allowance, 0)
    if kind == "vertices":
        witness, spent = dl._VertexWitness.build(sa, sb, scale, 2.0)
        assert spent == 2 * 2 * dl.WITNESS_VERTICES ** 3
        return witness.rescue(sa, sb, c, h, scale, allowance)
    witness, spent = dl._Witness.build(sa, sb, scale, 2.0)
    assert spent > 0
    return witness.rescue(sa, sb, c, h, scale, allowance)


@pytest.mark.parametrize("kind", ["box", "pool", "vertices"])
def test_witness_is_inside_both_and_never_above_the_true_g(kind, monkeypatch):
    monkeypatch.setattr(dl, "WITNESS_BOX", 64)
    monkeypatch.setattr(dl, "WITNESS_SAMPLES", 2048)
    monkeypatch.setattr(dl, "WITNESS_VERTICES", 8)
    monkeypatch.setattr(dl, "WITNESS_TRY", 4)
    frame = _frame()
    sa, sb, scale = frame.sa, frame.sb, frame.scale
    c = np.array([[1.5, 1.5, 0.0], [2.5, 0.0, 0.0]])
    h = np.array([0.6, 0.6])  # above the peak: every found point climbs
    best, found, spent = _rescue(kind, frame, c, h)
    assert spent > 0
    # the overlapping translation: a point found, g exact and at most the peak, near it after the climb
    assert 0.45 <= best[0] <= 0.5 + 1e-12
    # the touching one: nothing
    assert best[1] == -np.inf
    assert found.radius.shape == (1,)
    # the source: centre c, its point inside A and inside B + c, its radius the exact g there
    np.testing.assert_array_equal(found.centre[0], c[0])
    p = found.anchor[:1]
    assert winding_numbers(p, sa.world, scale)[0] != 0
    assert winding_numbers(p - c[:1], sb.world, scale)[0] != 0
    da, _ = closest_points(p, sa.world)
    db, _ = closest_points(p - c[:1], sb.world)
    assert found.radius[0] == da[0] + db[0] == best[0]
    assert found.share[0] == da[0] / found.radius[0]


@pytest.mark.parametrize("kind", ["box", "pool", "vertices"])
def test_witness_is_deterministic(kind, monkeypatch):
    monkeypatch.setattr(dl, "WITNESS_BOX", 16)
    monkeypatch.setattr(dl, "WITNESS_SAMPLES", 512)
    monkeypatch.setattr(dl, "WITNESS_VERTICES", 8)
    frame = _frame()
    c = np.array([[1.5, 1.5, 0.0], [1.2, 0.3, 0.4]])
    h = np.array([0.6, 0.9])
    one, two = _rescue(kind, frame, c, h), _rescue(kind, frame, c, h)
    np.testing.assert_array_equal(one[0], two[0])
    np.testing.assert_array_equal(one[1].anchor, two[1].anchor)
    assert one[2] == two[2]


def test_vertex_witness_closes_blobs_8(monkeypatch):
    import core.mesh.depth_interval as di
    from .depth_corpus import make_case

    seen = {}
    original = dl.lipschitz_bound

    def keep(*args, **kwargs):
        seen["args"] = args
        return original(*args, **kwargs)

    monkeypatch.setattr(di, "lipschitz_bound", keep)
    case = make_case("blobs", 8)
    core.collide(case.a.build(), case.b.build())
    sa, sb, seeds, scale, lower, upper = seen["args"]
    after = original(sa, sb, seeds, scale, lower, upper)
    monkeypatch.setattr(dl, "WITNESS_VERTICES", 0)
    before = original(sa, sb, seeds, scale, lower, upper)
    assert before is not None and after is not None
    assert (upper - before[0]) / upper > 0.05
    assert lower < after[0] <= upper * (1.0 - dl.GOAL)
    assert (upper - after[0]) / upper < 0.01
