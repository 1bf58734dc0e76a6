"""The crossing route's band frontier (core/mesh/coherence.py): what it skips at a later pose, and where its descent
starts.

- `_Frontier.near` keeps, of the frontier's leaf pairs, every one whose box distance (`bvh.box_lower_bound`, the
  first test the route puts them to) is within the band at a pose moved since: the others it skips.  Checked on a
  noisy sphere crossing another, moved in small steps (turned or not), against the box distance measured at the
  new pose, for bands from zero to the frontier's reach; and on a mesh far from its own origin placed back near
  the world's, moved by a few ulps, where the rounding of the placed corners moves boxes more than the move.
- `_reach_descent` starts from the deepest levels with at most `START` node pairs (`_split_start`), in the fresh
  descent's order: its leaf pairs are those of a descent from the roots (a superset in general, in the same order;
  the same here).

Issue 21 (a 20k-triangle pair re-checked in live mode): these are two of the shortcuts of the crossing route;
tests/core/test_pair_history.py checks its answers.
"""
from __future__ import annotations

import numpy as np
import pytest

import core
from core.mesh import coherence
from core.mesh.bvh import box_lower_bound
from core.mesh.pair_frame import Frame
from tests.core.duplicates import rotation, uv_sphere, uv_sphere_triangles


def _noisy_sphere(seed: int):
    v = uv_sphere(48, 24)
    v = v * (1.0 + 0.02 * np.random.default_rng(seed).uniform(-1.0, 1.0, (v.shape[0], 1)))
    return core.TriangleMesh(v, uv_sphere_triangles(48, 24))


def _pose(offset, angle=0.0):
    m = np.eye(4)
    m[:3, :3] = rotation(angle, [0.3, 1.0, -0.5]) if angle else np.eye(3)
    m[:3, 3] = offset
    return m


def _frontier(a, b, reach):
    frame = Frame(a, b, core.Tolerances())
    return frame, coherence._reach_descent(frame, frame.band + reach * frame.scale)


@pytest.mark.parametrize("angle", [0.0, 2e-3], ids=["moved", "moved and turned"])
def test_near_keeps_every_pair_whose_box_came_within_the_band(angle):
    a, b = _noisy_sphere(1), _noisy_sphere(2)
    start = np.array([1.2, 0.05, 0.02])
    _, front = _frontier(a, b.moved(_pose(start)), 0.02)
    assert front.ia.size > 1000
    skipped_any = closer_any = False
    for k in range(1, 6):
        moved = b.moved(_pose(start + k * np.array([-0.004, 0.0007, 0.001]), k * angle))
        frame = Frame(a, moved, core.Tolerances())
        wa, wb = frame.sa.world, frame.sb.world
        delta = coherence.displacement(moved, front.poses[1]) + coherence.displacement(a, front.poses[0])
        box = box_lower_bound(wa, wa.node(0, front.ia), wb, wb.node(0, front.ib))
        closer_any |= bool(np.any(box < front.box - 0.5 * delta))
        for band in frame.band + np.linspace(0.0, 0.02 * frame.scale, 9):
            kept = front.near(frame, band, delta)
            assert np.all(np.diff(kept) > 0)  # in the frontier's order
            within = np.flatnonzero(box <= band)
            assert np.isin(within, kept).all(), (k, band)
            skipped_any |= kept.size < front.ia.size
    assert skipped_any  # it does skip pairs
    assert closer_any  # and some boxes came closer by more than half the move: the move is what keeps them


def test_the_turn_counts_in_near():
    # a turned mesh's boxes change shape: the move bound is sqrt(3) x delta, a move alone's is delta
    a, b = _noisy_sphere(1), _noisy_sphere(2)
    start = np.array([1.2, 0.05, 0.02])
    frame0, front = _frontier(a, b.moved(_pose(start)), 0.02)
    moved = b.moved(_pose(start, 1e-3))
    frame = Frame(a, moved, core.Tolerances())
    delta = coherence.displacement(moved, front.poses[1])
    turned = front.near(frame, frame.band, delta)
    shifted = b.moved(_pose(start + [delta / 3.0 ** 0.5] * 3))  # moved as far, not turned
    frame2 = Frame(a, shifted, core.Tolerances())
    plain = front.near(frame2, frame2.band, coherence.displacement(shifted, front.poses[1]))
    assert turned.size > plain.size


def test_the_descent_from_the_split_start_keeps_the_roots_descent_pairs_in_order(monkeypatch):
    a, b = _noisy_sphere(3), _noisy_sphere(4)
    frame, front = _frontier(a, b.moved(_pose([1.1, -0.1, 0.3])), 0.01)
    wa, wb = frame.sa.world, frame.sb.world
    ia, ib, la, lb = coherence._split_start(wa, wb)
    assert ia.size <= coherence.START and la < wa.local.levels - 1  # it does start below the roots

    def roots(wa, wb):
        return np.zeros(1, np.int64), np.zeros(1, np.int64), wa.local.levels - 1, wb.local.levels - 1

    monkeypatch.setattr(coherence, "_split_start", roots)
    reference = coherence._reach_descent(frame, frame.band + 0.01 * frame.scale)
    assert reference.ia.size > 0
    key = front.ia * wb.local.sizes[0] + front.ib
    want = reference.ia * wb.local.sizes[0] + reference.ib
    # the roots' pairs are among the split start's, in the same order
    position = {k: i for i, k in enumerate(key.tolist())}
    index = np.array([position.get(k, -1) for k in want.tolist()])
    assert np.all(index >= 0) and np.all(np.diff(index) > 0)
    np.testing.assert_array_equal(front.ia, reference.ia)  # here no pair more
    np.testing.assert_array_equal(front.ib, reference.ib)


def test_near_covers_the_rounding_of_a_mesh_far_from_its_own_origin():
    # local coordinates about 1e5 away, placed back near the world origin: the placed corners round at 1e-11,
    # far above the moves of a few ulps made here, so some box distances drop by more than the move
    far = np.array([1e5, -2e5, 3e5])
    a = _noisy_sphere(1)
    v = _noisy_sphere(2).vertices + far
    b = core.TriangleMesh(v, uv_sphere_triangles(48, 24))
    start = np.array([1.2, 0.05, 0.02]) - far
    frame0, front = _frontier(a, b.moved(_pose(start)), 0.02)
    dropped = 0
    for k in range(1, 8):
        moved = b.moved(_pose(start + k * np.array([3e-11, -2e-11, 1e-11])))
        frame = Frame(a, moved, core.Tolerances())
        wa, wb = frame.sa.world, frame.sb.world
        delta = coherence.displacement(moved, front.poses[1])
        box = box_lower_bound(wa, wa.node(0, front.ia), wb, wb.node(0, front.ib))
        fell = np.flatnonzero(box < front.box - delta)  # closer than the move alone allows: rounding
        dropped += fell.size
        for i in fell[:: max(1, fell.size // 20)]:
            assert i in front.near(frame, box[i], delta), (k, i)
    assert dropped > 0  # the rounding did take some boxes closer than the move
