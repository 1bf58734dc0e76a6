"""Push Apart on non-convex meshes in Exact mode: B moves by the answer's separating move in one step, and the
re-check after that first move says the pair no longer intersects, for two crossing chain links, a rod across a
torus's tube and a ball sunk into a cup's wall.  Then B closes the rest of the way along the normal (the pair
ends touching), and one undo step puts B back bit for bit.

The moves are counted by watching the one pipeline the operator re-checks through (the add-on's real
`check_pair`, wrapped to log B's location and each answer): a move is a change of B's location between two
checks.  The interval shown in the readout and the mirrored `result.separation` are checked on the same pairs.
"""
import importlib
import json
import math

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, mesh_object, result, rows_dict, select_pair


def circle_gap(major: float) -> float:
    """Smallest distance between the central circles of two links, one in the xy plane about the origin, the
    other in the xz plane about (major, 0, 0): dense sampling of one circle against the other's closed form."""
    t = np.linspace(0.0, 2.0 * np.pi, 20001)
    points = np.stack([major + major * np.cos(t), 0.0 * t, major * np.sin(t)], 1)  # the second circle
    radial = np.hypot(points[:, 0], points[:, 1])
    return float(np.min(np.hypot(radial - major, points[:, 2])))


def revolve(profile, segments):
    """A closed mesh turned about z from a (radius, height) profile whose first and last points lie on the axis:
    quads between rings, triangle fans at the two axis points."""
    rings = profile[1:-1]
    angles = 2.0 * np.pi * np.arange(segments) / segments
    vertices = [(0.0, 0.0, profile[0][1])]
    for r, z in rings:
        vertices += [(r * math.cos(a), r * math.sin(a), z) for a in angles]
    vertices.append((0.0, 0.0, profile[-1][1]))
    top = len(vertices) - 1

    def index(ring, j):
        return 1 + ring * segments + j % segments

    faces = [(0, index(0, j + 1), index(0, j)) for j in range(segments)]
    for ring in range(len(rings) - 1):
        faces += [(index(ring, j), index(ring, j + 1), index(ring + 1, j + 1), index(ring + 1, j))
                  for j in range(segments)]
    faces += [(top, index(len(rings) - 1, j), index(len(rings) - 1, j + 1)) for j in range(segments)]
    return vertices, faces


def torus(name, major, minor, location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0)):
    bpy.ops.mesh.primitive_torus_add(major_radius=major, minor_radius=minor, major_segments=32, minor_segments=12,
                                     location=location, rotation=rotation)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def crossing_links():
    """Two links of a chain, each through the other's hole, their tubes 1.5 x as thick as the gap between the
    central circles allows: they cross."""
    minor = 0.75 * circle_gap(1.0)
    a = torus("Link A", 1.0, minor)
    b = torus("Link B", 1.0, minor, location=(1.0, 0.0, 0.0), rotation=(math.pi / 2, 0.0, 0.0))
    return a, b


def rod_across_tube():
    """A rod of radius 0.1 along y through the centre of a torus's tube (major 1, minor 0.25)."""
    a = torus("Torus", 1.0, 0.25)
    bpy.ops.mesh.primitive_cylinder_add(radius=0.1, depth=3.0, vertices=24, location=(1.0, 0.0, 0.0),
                                        rotation=(math.pi / 2, 0.0, 0.0))
    b = bpy.context.active_object
    b.name = "Rod"
    return a, b


def ball_in_cup_wall():
    """A ball of radius 0.5 centred at radius 0.55 from the axis of a cup (wall from radius 0.8 to 1), so it
    reaches through the wall to radius 1.05."""
    profile = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.5), (0.8, 1.5), (0.8, 0.125), (0.0, 0.125)]
    a = mesh_object("Cup", *revolve(profile, 32))
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, segments=24, ring_count=12, location=(0.55, 0.0, 0.9))
    b = bpy.context.active_object
    b.name = "Ball"
    return a, b


CASES = {"crossing links": crossing_links, "rod across a tube": rod_across_tube, "ball in a cup wall": ball_in_cup_wall}


@pytest.fixture
def exact_mode(fresh_file):
    bpy.context.scene.collision_inspector.mode = "EXACT"


@pytest.fixture
def watched(addon, monkeypatch):
    """The log of every check Push Apart makes: (B's location, the record, B's world position), through the real
    pipeline (which evaluates the depsgraph, so the world position is the one checked)."""
    push = importlib.import_module(f"{addon}.operators.push")
    real = push.check_pair
    log = []

    def logged(obj_a, obj_b, *args, **kwargs):
        record = real(obj_a, obj_b, *args, **kwargs)
        log.append((tuple(obj_b.location), record, tuple(obj_b.matrix_world.translation)))
        return record

    monkeypatch.setattr(push, "check_pair", logged)
    return log


@pytest.mark.parametrize("case", list(CASES))
def test_push_apart_separates_in_one_move(exact_mode, watched, addon_modules, case):
    a, b = CASES[case]()
    bpy.context.view_layer.update()
    assert check_pair(a, b) == {"FINISHED"}
    first = addon_modules.store.active_record()
    assert first.status.name == "INTERSECTING" and first.mode.name == "EXACT"
    assert np.linalg.norm(first.separation) == pytest.approx(first.depth_upper, rel=1e-9)
    start, name = tuple(b.location), b.name
    bpy.ops.ed.undo_push(message="scene built")
    select_pair(a, b)
    bpy.ops.ed.undo_push(message="selection")
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    bpy.ops.ed.undo_push(message="Push Apart")

    locations = [entry[0] for entry in watched]
    assert locations[0] == start
    moved = [i for i in range(1, len(watched)) if locations[i] != locations[i - 1]]
    assert moved, "B never moved"
    after_first = watched[moved[0]][1]
    assert after_first.status.name in ("TOUCHING", "SEPARATED"), (case, after_first.status, after_first.depth)
    # the first move is the answer's separating move (B has no parent: world move = change of location), up to
    # the float32 storage of the location
    np.testing.assert_allclose(np.subtract(locations[moved[0]], start), watched[0][1].separation,
                               atol=1e-6 * first.contact.scale)
    # after it, B only closes the rest along the normal: one step, and a few float32 nudges at most
    assert len(moved) <= 3, (case, len(moved))

    final = addon_modules.store.active_record()
    assert final.status.name in ("TOUCHING", "SEPARATED") and final.distance <= 1e-5 * final.contact.scale
    assert check_pair(a, b) == {"FINISHED"}  # the same answer from the Check button
    assert result().status in ("TOUCHING", "SEPARATED")

    bpy.ops.ed.undo()
    assert tuple(bpy.data.objects[name].location) == start  # one undo step, bit for bit


def test_readout_and_mirror_of_the_interval(exact_mode, addon_modules):
    a, b = crossing_links()
    bpy.context.view_layer.update()
    assert check_pair(a, b) == {"FINISHED"}
    record = addon_modules.store.active_record()
    units = bpy.context.scene.unit_settings
    text = addon_modules.text
    depth = rows_dict(text.readout_rows(record, units))["Depth"]
    if record.depth_exact:  # the tight interval of the engine may close it: then one number
        assert depth == text.format_length(record.depth, units)
    else:  # each end as Blender writes that length (the lower end's unit left out when both share it)
        low, high = depth.split(" – ")
        digits = range(text.PRECISION, text.MAX_INTERVAL_PRECISION + 1)
        assert high in {text.format_length(record.depth_upper, units, p) for p in digits}
        assert any(text.format_length(record.depth, units, p).startswith(low) for p in digits)
    assert addon_modules.overlay.build_draw_data(record, units).labels[0].text == f"depth {depth}"
    mirrored = result()
    np.testing.assert_allclose(tuple(mirrored.separation), record.separation, rtol=1e-6, atol=1e-7)
    assert mirrored.depth_upper == pytest.approx(record.depth_upper, rel=1e-6)
    assert mirrored.depth == pytest.approx(record.depth, rel=1e-6, abs=1e-9)


def test_push_apart_leaves_the_gap_on_meshes(exact_mode, watched, addon_modules):
    """With a gap the first move is the separating move plus the gap along it; the pair ends the gap apart (the
    re-check's distance, within float32 steps of the location), never closer."""
    a, b = rod_across_tube()
    bpy.context.view_layer.update()
    select_pair(a, b)
    start = tuple(b.location)
    assert bpy.ops.collision.push_apart(gap=0.05) == {"FINISHED"}
    first = watched[0][1]
    move = np.subtract(next(entry[0] for entry in watched if entry[0] != start), start)
    expected = first.separation * (1.0 + 0.05 / np.linalg.norm(first.separation))
    np.testing.assert_allclose(move, expected, atol=1e-6)
    assert check_pair(a, b) == {"FINISHED"}
    final = addon_modules.store.active_record()
    assert final.status.name == "SEPARATED"
    assert 0.05 - final.contact.touching_tolerance <= final.distance <= 0.05 + 1e-6


def test_a_parented_mesh_moves_by_its_separation_in_world_space(exact_mode, watched, addon_modules):
    """B's parent is turned, scaled and offset, with a parent inverse ("Keep Transform"): the first move is still
    the separating move in world space, and the re-check after it says apart."""
    a, b = ball_in_cup_wall()
    parent = bpy.data.objects.new("Parent", None)
    bpy.context.scene.collection.objects.link(parent)
    parent.location = (4.0, -2.0, 1.0)
    parent.rotation_euler = (0.3, -0.2, 1.1)
    parent.scale = (1.5, 1.5, 1.5)
    bpy.context.view_layer.update()
    world = b.matrix_world.copy()
    b.parent = parent
    b.matrix_parent_inverse = parent.matrix_world.inverted()
    bpy.context.view_layer.update()
    np.testing.assert_allclose(np.array(b.matrix_world), np.array(world), atol=1e-6)
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    bpy.context.view_layer.update()
    first = watched[0][1]
    assert first.status.name == "INTERSECTING"
    moved = [i for i in range(1, len(watched)) if watched[i][0] != watched[i - 1][0]]
    assert watched[moved[0]][1].status.name in ("TOUCHING", "SEPARATED")
    world_move = np.subtract(watched[moved[0]][2], watched[0][2])
    np.testing.assert_allclose(world_move, first.separation, atol=1e-6 * first.contact.scale)
    assert np.linalg.norm(first.separation) > 0.1  # a real move, not float32 noise
    final = addon_modules.store.active_record()
    assert final.status.name in ("TOUCHING", "SEPARATED") and final.distance <= 1e-5 * final.contact.scale


def test_command_line_reports_the_interval_and_the_move(addon, tmp_path, capsys):
    """The scene check's command line on a saved file with crossing links in Exact mode: the pair's line gives the
    interval's two ends when it is not one number, and the JSON report the upper end and the separating move."""
    cli = importlib.import_module(f"{addon}.operators.cli")
    bpy.context.scene.collision_inspector.mode = "EXACT"
    crossing_links()
    path = str(tmp_path / "links.blend")
    bpy.ops.wm.save_as_mainfile(filepath=path)
    report = tmp_path / "links.json"
    capsys.readouterr()
    assert cli.main(["check", path, "--mode", "EXACT", "--report", str(report)], bpy) == 1
    printed = capsys.readouterr().out
    entry = json.loads(report.read_text())["results"][0]
    assert entry["status"] == "INTERSECTING" and entry["depth"] <= entry["depth_upper"]
    assert np.linalg.norm(entry["separation"]) == pytest.approx(entry["depth_upper"], rel=1e-9)
    line = next(line for line in printed.splitlines() if "Link A / Link B" in line or "Link B / Link A" in line)
    if entry["depth_upper"] - entry["depth"] > 1e-9 * 10.0:  # well outside any touching band of this pair
        assert f"(depth {entry['depth']:.9g} to {entry['depth_upper']:.9g})" in line
