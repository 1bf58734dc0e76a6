"""The lock-step supports' reused vertex rows (core/lockstep.py `Gathered`) give what a fresh gather gives.

`Gathered.products` keeps each bucket's gathered rows and takes the product over all of them while the slots
asked for are at least half of them; the products and block rows it hands back must be those of the slots asked
for, in their order, bit for bit the product (`column_products`) of a fresh gather of those rows: over calls that shrink the running
set, ask for slots in another order, ask again for slots dropped from the cache (as the lock-step EPA does when a
pair it set aside goes on expanding), and mix buckets.
"""
from __future__ import annotations

import numpy as np
import pytest

from core.lockstep import Gathered, column_products


def _fresh(blocks, bucket, local, b, slots, along):
    block = blocks[b].take(local[slots], axis=0)
    return column_products(np.ascontiguousarray(block.transpose(0, 2, 1)), along), block


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_gathered_products_are_a_fresh_gathers(seed):
    rng = np.random.default_rng(seed)
    blocks = [rng.normal(size=(int(rng.integers(3, 40)), width, 3)) for width in (8, 16, 64)]
    n = 120
    bucket = rng.integers(0, len(blocks), n)
    local = np.array([rng.integers(0, len(blocks[b])) for b in bucket.tolist()])
    gathered = Gathered(blocks, bucket, local)
    running = np.arange(n)
    reused = 0
    for step in range(14):
        if step % 5 == 4:  # some dropped slots come back
            running = np.union1d(running, rng.choice(n, 10, replace=False))
        slots = rng.permutation(running)
        along = rng.normal(size=(len(slots), 3))
        for b in np.unique(bucket[slots]).tolist():
            sel = np.flatnonzero(bucket[slots] == b)
            cached = gathered.cache.get(b)
            p, rows = gathered.products(b, slots[sel], along[sel])
            want_p, want_rows = _fresh(blocks, bucket, local, b, slots[sel], along[sel])
            assert p.tobytes() == want_p.tobytes(), (seed, step, b)
            assert blocks[b][rows].tobytes() == want_rows.tobytes(), (seed, step, b)
            reused += cached is not None and gathered.cache[b] is cached
        running = running[rng.random(len(running)) < 0.8]  # most keep running
        if not len(running):
            break
    assert reused >= 5, reused  # the cached rows were really reused
