"""core.overlap on non-convex closed meshes against manifold3d's boolean intersection (an independent exact
boolean library, used only here and in the bench): rod through and across a torus, crossing chain links, a ball
sunk into a cup's wall, a box in a crate's wall, interlocking L shapes, random blobs, containment both ways and
identical copies; each near the origin, far from it (1e4, 1e6), tiny (1e-3) and huge (1e3), under a seeded
rotation, both argument orders."""
import zlib

import numpy as np
import pytest

from tests.core import overlap_corpus as oc
from tests.core.meshes import box, flipped, join


def _turn(axis_from, axis_to):
    """A rotation taking one coordinate axis to another (a right angle)."""
    m = np.eye(3)
    i, j = axis_from, axis_to
    m[[i, j], :] = m[[j, i], :]
    m[i] *= -1
    return m


CRATE = join(box((0, 0, 0), (3, 3, 3)), flipped(box((0.3, 0.3, 0.3), (2.7, 2.7, 2.7))))

# name: (mesh A, mesh B, B's placement relative to A)
PAIRS = {
    "rod through a torus": (oc.torus(), oc.rod(), oc.pose(_turn(2, 0), (1.0, 0.05, 0.02))),
    "rod across a torus": (oc.torus(), oc.rod(), oc.pose(_turn(2, 0), (0.1, 0.95, 0.1))),
    "crossing chain links": (oc.torus(0.8, 0.2, stretch=0.5), oc.torus(0.8, 0.2, stretch=0.5),
                             oc.pose(_turn(2, 1), (1.25, 0.75, 0.05))),
    "chain links, hooked without touching": (oc.torus(0.8, 0.2, stretch=0.5), oc.torus(0.8, 0.2, stretch=0.5),
                                             oc.pose(_turn(2, 1), (1.25, 0.1, 0.05))),
    "ball sunk into a cup's wall": (oc.cup(), oc.ball(0.4), oc.pose(None, (0.9, 0.1, 0.6))),
    "box in a crate's wall": (CRATE, box((0, 0, 0), (0.5, 0.8, 0.7)), oc.pose(None, (2.5, 1.1, 1.3))),
    "interlocking L shapes": (oc.l_shape(), oc.l_shape(), oc.pose(np.diag([-1.0, -1.0, 1.0]), (2.5, 2.3, 0.3))),
    "blobs": (oc.blob(3), oc.blob(4), oc.pose(None, (0.7, 0.3, -0.2))),
    "blobs, turned": (oc.blob(5), oc.blob(6), oc.pose(oc.rotation(np.random.default_rng(6)), (0.9, -0.4, 0.1))),
    "ball inside a blob": (oc.blob(7, bumps=0.2), oc.ball(0.3), oc.pose(None, (0.1, 0.05, 0.0))),
    "torus and its copy": (oc.torus(), oc.torus(), oc.pose()),
    "blob and its copy, moved a little": (oc.blob(8), oc.blob(8), oc.pose(None, (1e-3, -2e-3, 0.0))),
}

PLACEMENTS = [(1.0, 0.0), (1.0, 1e4), (1.0, 1e6), (1e-3, 0.0), (1e3, 0.0), (1e3, 1e6)]


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("scale,offset", PLACEMENTS)
def test_overlap_volume_matches_manifold3d(name, scale, offset):
    mesh_a, mesh_b, relative = PAIRS[name]
    rng = np.random.default_rng(zlib.crc32(repr((name, scale, offset)).encode()))
    world = oc.pose(scale * oc.rotation(rng), offset * rng.normal(size=3))
    a, b = oc.place(mesh_a, world), oc.place(mesh_b, world @ relative)
    oc.assert_volume(a, b, oc.manifold_volume(a, b))
