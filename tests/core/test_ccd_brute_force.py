"""core.mesh.ccd.first_contact on whole deforming meshes against the brute-force reference: the exact pair check
(`core.collide`) on the meshes interpolated at densely sampled times.  A sheet with random vertex paths and a box
moving across it: the continuous answer is never later than the first sampled contact, and at the time it gives
the pair really is within a hair of touching (so it is not early by more than its tolerance).  Seeded, also far
from the origin and at 1/100 scale."""
import numpy as np
import pytest

from core import Status
from core.mesh.ccd import SweptMesh, first_contact
from tests.core.deform_cases import Keyed, Pair, box, grid, translated

SAMPLES = 121
PLACEMENTS = [((0.0, 0.0, 0.0), 1.0), ((2.0e4, -5.0e3, 1.0e4), 0.01)]


def random_pair(seed: int, offset, scale):
    rng = np.random.default_rng(seed)
    vertices, triangles = grid(3)
    shapes = []
    for _ in range(2):
        shape = vertices.copy()
        shape[:, 2] = rng.uniform(-0.4, 0.4, size=len(shape))
        shape[:, :2] += rng.uniform(-0.1, 0.1, size=(len(shape), 2))
        shapes.append(shape)
    m = translated(offset, scale)
    sheet = Keyed(triangles, [0.0, 1.0], shapes, [m, m])
    half = rng.uniform(0.1, 0.4)
    start = np.array([rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8), rng.uniform(0.6, 1.0)])
    end = start + [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), -rng.uniform(0.3, 1.2)]
    box_vertices, box_triangles = box([-half] * 3, [half] * 3)
    block = Keyed(box_triangles, [0.0, 1.0], [box_vertices + start, box_vertices + end], [m, m])
    return Pair(sheet, block)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("offset, scale", PLACEMENTS)
def test_never_later_than_the_sampled_contact(seed, offset, scale):
    pair = random_pair(seed, offset, scale)
    a0, a1, b0, b1 = pair.a.world(0.0), pair.a.world(1.0), pair.b.world(0.0), pair.b.world(1.0)
    origin = 0.5 * (np.concatenate([a0, b0]).min(axis=0) + np.concatenate([a0, b0]).max(axis=0))
    size = 2.0 * scale
    if pair.contact(0.0).status is not Status.SEPARATED:
        pytest.skip("in contact at the start: not a case for the first contact")
    found = first_contact(SweptMesh(pair.a.triangles, a0), a0 - origin, a1 - origin,
                          SweptMesh(pair.b.triangles, b0), b0 - origin, b1 - origin, 1e-9 * size)
    before = [t for t in np.linspace(0.0, 1.0, SAMPLES) if found is None or t < found]
    assert all(pair.contact(t).status is Status.SEPARATED for t in before)  # no sampled contact before it
    if found is not None:
        assert pair.contact(found).distance <= 1e-5 * size
