"""collision.check_all lists exactly the pairs an independent brute-force reference finds (generated scenes).

The reference (tests/blender/scene_builders.py) reads world vertices itself and calls core.collide on every pair;
the add-on reads each object once, culls with world boxes and checks the rest.  Same pairs, same statuses, same
distances (both run the same engine on the same float32 vertices; only the placement of the matrix differs, so
distances agree to rounding), and the list is worst first.
"""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import listed, random_scene, reference, settings


def _compare(addon_modules, objects, clearance, ignore_touching=False):
    clearance = settings().clearance  # the value the scene holds (a float32 property)
    expected = reference(addon_modules.core, objects, clearance, ignore_touching)
    got = listed(addon_modules.store)
    assert set(got) == set(expected), (sorted(map(sorted, set(got) ^ set(expected))))
    for key, contact in expected.items():
        record = got[key]
        assert record.status.name == contact.status.name, key
        assert record.clearance == clearance
        scale = contact.scale
        assert abs(record.distance - contact.distance) <= 1e-9 * scale + 1e-12, key
        assert record.within_clearance == (contact.status.name == "SEPARATED")
    return expected


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("clearance", [0.0, 0.35])
def test_visible_list_equals_reference(addon_modules, seed, clearance):
    objects = random_scene(seed)
    settings().clearance = clearance
    assert bpy.ops.collision.check_all(scope="VISIBLE") == {"FINISHED"}
    expected = _compare(addon_modules, objects, clearance)
    assert any(c.status.name == "INTERSECTING" for c in expected.values())  # the scene is not trivial
    assert any(c.status.name == "TOUCHING" for c in expected.values())


def test_ignore_touching_drops_only_touching_pairs(addon_modules):
    objects = random_scene(4)
    settings().ignore_touching = True
    bpy.ops.collision.check_all(scope="VISIBLE")
    expected = _compare(addon_modules, objects, 0.0, ignore_touching=True)
    assert frozenset(("TouchA", "TouchB")) not in expected


def test_sorted_worst_first_and_mirrored(addon_modules):
    random_scene(5)
    settings().clearance = 0.5
    bpy.ops.collision.check_all(scope="VISIBLE")
    records = addon_modules.store.records()
    keys = [addon_modules.record.sort_key(r) for r in records]
    assert keys == sorted(keys) and len(records) > 3
    group = bpy.context.window_manager.collision_inspector
    assert [(i.object_a, i.object_b, i.status) for i in group.results] == \
        [(r.object_a, r.object_b, r.status.name) for r in records]
    assert [i.within_clearance for i in group.results] == [r.within_clearance for r in records]
    assert group.active_index == 0 and group.result.object_a == records[0].object_a
    np.testing.assert_allclose(group.results[0].distance, records[0].distance, rtol=1e-6, atol=1e-7)


def test_selected_scope_checks_only_the_selection(addon_modules):
    objects = random_scene(6)
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    chosen = objects[::2]
    for obj in chosen:
        obj.select_set(True)
    bpy.ops.collision.check_all(scope="SELECTED")
    expected = reference(addon_modules.core, chosen)
    assert set(listed(addon_modules.store)) == set(expected)
