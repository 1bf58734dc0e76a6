"""The one-object checks on bad input: a clear ValueError (empty, NaN, not a mesh, a bad clearance, an extent that
overflows float64), and no crash on degenerate triangles."""
from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core import meshes as mm

FUNCTIONS = [core.mesh.self_intersections, lambda m: core.mesh.part_clearance(m, 0.1)]


@pytest.mark.parametrize("check", FUNCTIONS, ids=["self_intersections", "part_clearance"])
@pytest.mark.parametrize("value", [None, np.zeros((4, 3)), "mesh", core.Sphere(1.0)], ids=["none", "array", "str",
                                                                                           "sphere"])
def test_not_a_mesh(check, value):
    with pytest.raises(ValueError, match="TriangleMesh"):
        check(value)


def test_empty_or_nan_mesh_is_refused_when_built():
    with pytest.raises(ValueError, match="empty"):
        core.TriangleMesh(np.zeros((3, 3)), np.zeros((0, 3), int))
    with pytest.raises(ValueError, match="NaN"):
        core.TriangleMesh([[0, 0, 0], [1, 0, 0], [np.nan, 1, 0]], [[0, 1, 2]])


@pytest.mark.parametrize("clearance", [-1e-9, np.nan, np.inf, "0.1", None, True],
                         ids=["negative", "nan", "inf", "str", "none", "bool"])
def test_bad_clearance(clearance):
    with pytest.raises(ValueError, match="clearance"):
        core.mesh.part_clearance(mm.mesh(mm.box()), clearance)


@pytest.mark.parametrize("check", FUNCTIONS, ids=["self_intersections", "part_clearance"])
def test_extent_overflow(check):
    v, t = mm.join(mm.box((-1e308,) * 3, (-1e308 + 1e300,) * 3), mm.box((1e308 - 1e300,) * 3, (1e308,) * 3))
    with pytest.raises(ValueError, match="too large"):
        check(core.TriangleMesh(v, t))


@pytest.mark.parametrize("check", FUNCTIONS, ids=["self_intersections", "part_clearance"])
def test_degenerate_triangles_only(check):
    v = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 0, 0], [5, 5, 5]], float)
    mesh = core.TriangleMesh(v, [[0, 1, 2], [0, 0, 1], [1, 2, 3], [4, 4, 4]])
    # the point part lies far from the collinear one: nothing within 0.1, and nothing crosses
    assert len(check(mesh)) == 0
