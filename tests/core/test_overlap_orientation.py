"""core.overlap reads the solid a mesh bounds, not how it is written: a mirrored transform, inward-facing
triangles or the arguments swapped give the same volume, and the region always faces outwards (positive signed
volume, the region of the plain pair up to the order of its triangles)."""
import numpy as np
import pytest

import core
from tests.core import overlap_corpus as oc
from tests.core.meshes import flipped
from tests.core.test_overlap_manifold import PAIRS

MIRROR = np.diag([-1.0, 1.0, 1.0])


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("how", ["a flipped", "b flipped", "both flipped", "mirrored", "mirrored and flipped"])
def test_orientation_and_order_do_not_change_the_overlap(name, how):
    mesh_a, mesh_b, relative = PAIRS[name]
    rng = np.random.default_rng(len(name))
    world = oc.pose(oc.rotation(rng), rng.normal(size=3) * 100)
    plain = core.overlap(oc.place(mesh_a, world), oc.place(mesh_b, world @ relative))
    if how.startswith("mirrored"):
        # the mirror image of both solids: the same volume, a mirrored region
        world = world @ oc.pose(MIRROR)
    ma = flipped(mesh_a) if how in ("a flipped", "both flipped", "mirrored and flipped") else mesh_a
    mb = flipped(mesh_b) if how in ("b flipped", "both flipped") else mesh_b
    a, b = oc.place(ma, world), oc.place(mb, world @ relative)
    size = oc.pair_size(a, b)
    for result in (core.overlap(a, b), core.overlap(b, a)):
        assert abs(result.volume - plain.volume) <= 1e-9 * plain.volume + 1e-12 * size ** 3
        if plain.volume > 0:
            centre = result.region.reshape(-1, 3).mean(axis=0)
            assert oc.region_volume(result.region, centre) > 0
            assert result.region.shape[0] > 0
        else:
            assert result.volume == 0.0 and result.region.shape == (0, 3, 3)
