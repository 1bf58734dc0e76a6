"""Loose parts, closedness, volume and convexity of meshes, on hand-built cases."""
from __future__ import annotations

import numpy as np

import core
from core.mesh import is_convex, loose_parts, volume
from tests.core.meshes import box, crate, flipped, join, l_shape, mesh, translate


def split_vertices(pair):
    """Every triangle with its own three vertices (positions repeated): what a UV-seamed export looks like."""
    v, t = pair
    return v[t.reshape(-1)], np.arange(t.size).reshape(-1, 3)


def test_two_boxes_are_two_parts():
    m = mesh(join(box(), translate(box(), [3, 0, 0])))
    parts = loose_parts(m)
    assert len(parts) == 2
    assert all(p.is_closed and is_convex(p) for p in parts)
    assert parts[1].bounds()[0].tolist() == [3.0, 0.0, 0.0]
    assert not is_convex(m), "two convex parts are not one convex mesh"


def test_split_vertices_weld_into_one_closed_part():
    m = mesh(split_vertices(box()))
    assert m.is_closed
    assert len(loose_parts(m)) == 1
    assert is_convex(m)


def test_crate_is_one_closed_part_per_shell():
    m = mesh(crate())
    assert m.is_closed
    assert len(loose_parts(m)) == 2
    assert abs(volume(m) - 26.0) < 1e-12


def test_volume_and_orientation():
    assert abs(volume(mesh(l_shape())) - 3.0) < 1e-12
    assert abs(volume(mesh(flipped(l_shape()))) + 3.0) < 1e-12
    scale = np.diag([2.0, 3.0, -1.0, 1.0])
    assert abs(volume(mesh(box(), scale)) + 6.0) < 1e-12  # a mirror turns the faces inwards


def test_open_and_inconsistent_meshes_are_not_closed():
    v, t = box()
    assert not mesh((v, t[1:])).is_closed
    flipped_face = t.copy()
    flipped_face[0] = flipped_face[0, ::-1]
    assert not mesh((v, flipped_face)).is_closed


def test_parts_keep_the_transform():
    pose = np.eye(4)
    pose[:3, 3] = [0, 0, 10]
    parts = loose_parts(core.TriangleMesh(*join(box(), translate(box(), [3, 0, 0])), pose))
    assert [p.bounds()[0][2] for p in parts] == [10.0, 10.0]
