"""A support whose winner is a block row's last vertex is not a near tie because of that row's padding.

The lock-step blocks pad each row by repeating its last vertex (core/batch.py), so those copies have the same
products as the winner; they are the same point, so whichever the scalar query would pick, the support is the
same, and `top_and_ties` must not send the row to the slow exact product for them.  Any other vertex within the
margin (a real rival, or a copy of the winner that is not at the row's end) still makes a near tie.
`trailing_copies` is checked against a plain loop over the rows, and the marks `ShapeBatch` keeps (each row's own
last vertex) against its blocks.
"""
from __future__ import annotations

import numpy as np

import core
from core.lockstep import top_and_ties, trailing_copies


def _run_start(row):
    k = len(row) - 1
    while k > 0 and (row[k - 1] == row[-1]).all():
        k -= 1
    return k


def test_trailing_copies_are_where_the_last_vertex_repeats_to_the_end():
    rng = np.random.default_rng(0)
    blocks = []
    for width in (8, 16, 32):
        block = rng.integers(-2, 3, (40, width, 3)).astype(float)  # small integers: repeats happen by chance too
        counts = rng.integers(1, width + 1, 40)
        for r, n in enumerate(counts.tolist()):
            block[r, n:] = block[r, n - 1]
        block[0] = block[0, 0]  # one row of a single repeated point
        blocks.append(block)
    for block, got in zip(blocks, trailing_copies(blocks)):
        assert got.tolist() == [_run_start(row) for row in block]


def test_a_winners_own_copies_are_not_its_rivals():
    p = np.array([[1.0, 2.0, 5.0, 5.0, 5.0],   # the winner starts the copies: no tie
                  [5.0, 2.0, 5.0, 5.0, 5.0],   # a real rival before the copies: a tie
                  [1.0, 5.0, 2.0, 5.0, 5.0],   # the same value elsewhere (copies start at 3): a tie
                  [1.0, 4.0, 2.0, 3.0, 3.0],   # clear winner, copies lower: no tie
                  [1.0, 2.0, 3.0, 4.0, 5.0]])  # no copies (the row ends with its only copy): no tie
    copies = np.array([2, 2, 3, 3, 4])
    top, near = top_and_ties(p.copy(), np.full(5, 1e-9), copies)
    assert top.tolist() == [2, 0, 1, 1, 4]
    assert near.tolist() == [False, True, True, False, False]
    _, without = top_and_ties(p.copy(), np.full(5, 1e-9))
    assert without.tolist() == [True, True, True, False, False]


def test_the_batchs_rows_hold_only_copies_after_their_mark():
    rng = np.random.default_rng(1)
    clouds = []
    for n in rng.integers(1, 70, 30).tolist():
        cloud = rng.normal(size=(n, 3))
        if n > 3 and rng.random() < 0.3:
            cloud[-2] = cloud[-1]  # a cloud ending in a repeated vertex
        clouds.append(core.PointCloud(cloud))
    batch = core.ShapeBatch(clouds)
    bucket, local, blocks, _, _ = batch._lockstep_data()
    for b, (block, mark) in enumerate(zip(blocks, batch._lockstep_copies())):
        for row, at in zip(block, mark.tolist()):
            assert (row[at:] == row[at]).all(), b
    for k, cloud in enumerate(clouds):  # the mark is the row's own last vertex
        assert batch._lockstep_copies()[bucket[k]][local[k]] == cloud.core_vertex_count() - 1
