"""The reading cache: unchanged geometry is not read again, changed geometry always is.

Expected values are analytic (axis-aligned cubes: the gap along x)."""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import cube


@pytest.fixture
def cache(addon_modules):
    cache = addon_modules.reading.GEOMETRY_CACHE
    cache.clear()
    cache.reads = 0
    yield cache
    cache.clear()


def cached_check(modules, a, b, cache, mode="HULL"):
    settings = modules.checking.CheckSettings(mode=modules.record.Mode[mode])
    return modules.checking.check_pair(a, b, bpy.context.evaluated_depsgraph_get(), settings, cache=cache)


def test_moving_reuses_the_arrays(addon_modules, cache):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    first = cached_check(addon_modules, a, b, cache)
    assert cache.reads == 2
    np.testing.assert_allclose(first.distance, 1.0, atol=1e-12)
    b.location.x = 2.25
    second = cached_check(addon_modules, a, b, cache)
    assert cache.reads == 2  # only matrix_world was read again
    np.testing.assert_allclose(second.distance, 0.25, atol=1e-12)
    b.rotation_euler.z = np.pi / 4  # a 45-degree turn: B's nearest edge at x = 2.25 - sqrt(2)
    third = cached_check(addon_modules, a, b, cache)
    assert cache.reads == 2
    np.testing.assert_allclose(third.distance, 2.25 - np.sqrt(2.0) - 1.0, atol=1e-6)  # float32 matrix


def test_editing_a_vertex_is_seen(addon_modules, cache):
    """Regression guard for the cache: an edit after a cached check gives the new answer."""
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    cached_check(addon_modules, a, b, cache)
    for vertex in a.data.vertices:  # A's face x = +1 moves to x = +1.5
        if vertex.co.x > 0:
            vertex.co.x = 1.5
    a.data.update()
    record = cached_check(addon_modules, a, b, cache)
    np.testing.assert_allclose(record.distance, 0.5, atol=1e-12)
    assert cache.reads == 3  # A again, B not


def test_modifier_and_data_swap_are_seen(addon_modules, cache):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    cached_check(addon_modules, a, b, cache)
    displace = a.modifiers.new("Grow", "DISPLACE")  # pushes every vertex 0.5 along its normal
    displace.strength = 0.5
    displace.mid_level = 0.0
    grown = cached_check(addon_modules, a, b, cache)
    assert grown.vertex_count_a == 8
    assert grown.distance < 1.0 - 0.25
    a.modifiers.remove(displace)
    a.data = cube("Small", 0.5).data  # another mesh data block: half size
    small = cached_check(addon_modules, a, b, cache)
    np.testing.assert_allclose(small.distance, 1.5, atol=1e-12)


def test_undo_and_file_load_empty_the_cache(addon_modules, cache):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    cached_check(addon_modules, a, b, cache)
    assert len(cache) == 2
    bpy.ops.wm.read_homefile(use_empty=True)
    assert len(cache) == 0


def test_cache_follows_animation_frames(addon_modules, cache):
    """A modifier animated over frames changes the geometry at frame_set: the cache must not keep the old one."""
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    displace = a.modifiers.new("Grow", "DISPLACE")
    displace.mid_level = 0.0
    displace.strength = 0.0
    displace.keyframe_insert("strength", frame=1)
    displace.strength = 0.5
    displace.keyframe_insert("strength", frame=11)
    scene = bpy.context.scene
    scene.frame_set(1)
    np.testing.assert_allclose(cached_check(addon_modules, a, b, cache).distance, 1.0, atol=1e-6)
    scene.frame_set(11)
    assert cached_check(addon_modules, a, b, cache).distance < 0.75


def test_least_recently_used_entries_go_past_the_size_cap(addon_modules, cache, monkeypatch):
    """With room for exactly two cubes (their vertices and faces), reading a third object drops the least
    recently used."""
    a, b, c = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0)), cube("C", 1.0, location=(0.0, 3.0, 0.0))
    identity = addon_modules.reading.object_identity
    cached_check(addon_modules, a, b, cache)
    monkeypatch.setattr(cache, "max_size", cache._held)  # what the two cubes hold
    cached_check(addon_modules, a, b, cache)  # A then B used again: B is the most recent
    assert cache.reads == 2
    record = cached_check(addon_modules, b, c, cache)
    np.testing.assert_allclose(record.distance, np.sqrt(2.0), atol=1e-12)  # gaps of 1 along x and along y
    assert identity(a) not in cache and identity(b) in cache and identity(c) in cache
    assert cache.reads == 3
    np.testing.assert_allclose(cached_check(addon_modules, a, c, cache).distance, 1.0, atol=1e-12)
    assert cache.reads == 4 and len(cache) == 2
