"""The closest route's step down (core/mesh/coherence.py `_children`) keeps the same node pairs as the fresh
descent's (`descent._split`), on flat node indices and in another order, with every missing right child masked:
hierarchies whose levels have odd counts of nodes, both sides split or one, from `_start` down to the leaves (a random part of the pairs kept at each level)."""
import numpy as np
import pytest

from core.mesh import coherence
from core.mesh.descent import _split
from core.mesh.trimesh import TriangleMesh


def _strip(count, rng):
    """A strip of `count` triangles (its hierarchy's levels have odd sizes for most counts)."""
    x = np.arange(count + 2, dtype=float)
    v = np.stack([x, (np.arange(count + 2) % 2).astype(float), rng.random(count + 2)], axis=1)
    t = np.stack([np.arange(count), np.arange(count) + 1, np.arange(count) + 2], axis=1)
    return TriangleMesh(v, t)


def _world(mesh):
    from core.mesh.pair_frame import Side
    return Side(mesh, np.zeros(3)).world


@pytest.mark.parametrize("counts", [(301, 45), (1001, 13), (129, 129), (2049, 3), (333, 333), (5, 900), (8000, 1), (6000, 2)])
def test_children_keep_the_split_pairs(counts):
    rng = np.random.default_rng(list(counts))
    wa, wb = (_world(_strip(c, rng)) for c in counts)
    na, nb, la, lb = coherence._start(wa.local, wb.local)
    ia, ib = na - wa.local.offsets[la], nb - wb.local.offsets[lb]
    levels = 0
    while la or lb:
        # keep a random half, as a pruning would
        keep = rng.random(na.size) < 0.6
        na, nb, ia, ib = na[keep], nb[keep], ia[keep], ib[keep]
        ca, cb, ka, kb, missing = coherence._children(wa, wb, na, nb, la, lb)
        sa, sb, ja, jb = _split(wa, wb, ia, ib, la, lb)
        assert (ka, kb) == (ja, jb)
        real = np.ones(ca.size, bool) if missing is None else ~missing
        got = sorted(zip((ca[real] - wa.local.offsets[ka]).tolist(), (cb[real] - wb.local.offsets[kb]).tolist()))
        assert got == sorted(zip(sa.tolist(), sb.tolist()))
        # a masked pair is exactly a right child beyond its level
        if missing is not None:
            beyond = ((ca - wa.local.offsets[ka] >= wa.local.sizes[ka])
                      | (cb - wb.local.offsets[kb] >= wb.local.sizes[kb]))
            assert np.array_equal(missing, beyond)
        else:
            assert np.all(ca - wa.local.offsets[ka] < wa.local.sizes[ka])
            assert np.all(cb - wb.local.offsets[kb] < wb.local.sizes[kb])
        na, nb, la, lb = ca[real], cb[real], ka, kb
        ia, ib = na - wa.local.offsets[la], nb - wb.local.offsets[lb]
        levels += 1
    assert levels > 0  # the start is above the leaves: some step down was checked
