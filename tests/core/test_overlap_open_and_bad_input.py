"""core.overlap on what has no overlap volume: an open mesh has no inside (volume and region None, however far
apart), flat or too small point sets have no volume (0.0), and wrong input is a clear ValueError."""
import numpy as np
import pytest

import core
from tests.core.meshes import box


def _open_box():
    v, t = box()
    return core.TriangleMesh(v, t[:-1])


@pytest.mark.parametrize("far", [0.0, 1e6])
def test_an_open_mesh_has_no_overlap_volume(far):
    closed = core.TriangleMesh(*box((0.2, 0.2, 0.2), (0.8, 0.8, 0.8)))
    for a, b, open_a, open_b in ((_open_box(), closed, True, False), (closed, _open_box(), False, True),
                                 (_open_box(), _open_box(), True, True)):
        moved = b.moved(np.array([[1, 0, 0, far], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
        result = core.overlap(a, moved)
        assert result.volume is None and result.region is None
        assert (result.open_a, result.open_b) == (open_a, open_b)


def test_flat_or_tiny_point_sets_have_no_volume():
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    square = np.array([[0, 0, 0.5], [1, 0, 0.5], [1, 1, 0.5], [0, 1, 0.5]], float)
    for flat in (square, square[:3], square[:1]):
        for a, b in ((cube, flat), (flat, cube)):
            result = core.overlap(a, b)
            assert result.volume == 0.0 and result.region.shape == (0, 3, 3)


def test_wrong_input_is_a_clear_error():
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    mesh = core.TriangleMesh(*box())
    with pytest.raises(ValueError, match="not one of each"):
        core.overlap(mesh, cube)
    with pytest.raises(ValueError, match="margin"):
        core.overlap(core.PointCloud(cube, margin=0.1), cube)
    for bad in (np.zeros((0, 3)), np.array([[0, 0, np.nan]] * 4), "box", np.zeros((4, 2))):
        with pytest.raises(ValueError):
            core.overlap(cube, bad)
