"""core.overlap of a closed mesh and its duplicate in place (Shift+D: the same triangles on the same world
vertices) answers from the mesh alone: its own volume and surface, outward, exactly as the general path (every
face shared with its twin) answers, and the same whichever way the faces point or the transform mirrors.  A copy
that differs by one bit of one vertex, or a mesh of several loose parts, takes the general path."""
import importlib

import numpy as np
import pytest

import core

overlap_module = importlib.import_module("core.mesh.overlap")  # the module (core.mesh.overlap is the function)
from tests.core import overlap_corpus as corpus


def signed_volume(region):
    return float(np.einsum("ij,ij->i", region[:, 0], np.cross(region[:, 1], region[:, 2])).sum()) / 6.0


def general(a, b):
    """The general path's answer, the copy shortcut turned off."""
    return overlap_module._Pair(a, b).run()


SHAPES = {"torus": corpus.torus, "blob": lambda: corpus.blob(8)}
TRANSFORMS = {
    "identity": np.eye(4),
    "far and turned": np.array([[0.0, -1.0, 0.0, 1e5], [1.0, 0.0, 0.0, -3e4], [0.0, 0.0, 1.0, 2e4], [0, 0, 0, 1.0]]),
    "mirrored": np.diag([-1.0, 1.0, 1.0, 1.0]),
    "tiny": np.diag([1e-3, 1e-3, 1e-3, 1.0]),
}


@pytest.mark.parametrize("transform", TRANSFORMS.values(), ids=TRANSFORMS.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("inward", [False, True])
def test_a_copy_in_place_is_its_own_volume_as_the_general_path_says(shape, transform, inward):
    vertices, triangles = shape()
    if inward:
        triangles = triangles[:, ::-1]
    a = core.TriangleMesh(vertices, triangles, transform=transform)
    b = core.TriangleMesh(vertices.copy(), triangles.copy(), transform=transform.copy())
    quick, slow = core.overlap(a, b), general(a, b)
    own = abs(core.mesh.volume(a))
    assert quick.exact and slow.exact
    assert abs(quick.volume - own) <= 1e-12 * own
    assert abs(quick.volume - slow.volume) <= 1e-9 * own
    assert quick.volume > 0.0
    # closed and outward: the same signed volume about its centre and about one of its corners (taken near the
    # region, since world coordinates far from the origin cancel in the sum)
    centre = 0.5 * (quick.region.reshape(-1, 3).min(axis=0) + quick.region.reshape(-1, 3).max(axis=0))
    assert abs(signed_volume(quick.region - centre) - quick.volume) <= 1e-9 * own
    assert abs(signed_volume(quick.region - quick.region[0, 0]) - quick.volume) <= 1e-9 * own


def test_one_bit_off_or_several_parts_take_the_general_path(monkeypatch):
    vertices, triangles = corpus.blob(8)
    monkeypatch.setattr(overlap_module, "_whole", lambda mesh: pytest.fail("the copy shortcut was taken"))
    nudged = vertices.copy()
    nudged[3, 0] = np.nextafter(nudged[3, 0], np.inf)
    result = core.overlap(core.TriangleMesh(vertices, triangles), core.TriangleMesh(nudged, triangles))
    assert result.volume > 0.0
    two = np.concatenate([vertices, vertices + [10.0, 0.0, 0.0]])
    both = np.concatenate([triangles, triangles + len(vertices)])
    result = core.overlap(core.TriangleMesh(two, both), core.TriangleMesh(two.copy(), both.copy()))
    assert abs(result.volume - 2.0 * abs(core.mesh.volume(core.TriangleMesh(vertices, triangles)))) <= 1e-9 * result.volume
