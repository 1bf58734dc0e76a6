"""A check is read-only: no new datablocks, no changed data, no depsgraph update, no undo step."""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
from tests.blender.scenes import check_pair, cube, select_pair, snapshot, uv_sphere


def test_check_changes_nothing():
    a = uv_sphere("Ball", 1.0)
    a.modifiers.new("Subdiv", "SUBSURF").levels = 1
    b = cube("Box", 1.0, location=(1.5, 0.3, 0.0))
    bpy.ops.curve.primitive_bezier_circle_add(location=(5.0, 0.0, 0.0))
    select_pair(a, b)
    bpy.context.view_layer.update()
    before = snapshot()
    mesh_count = len(bpy.data.meshes)
    assert bpy.ops.collision.check() == {"FINISHED"}
    assert bpy.ops.collision.check() == {"FINISHED"}
    after = snapshot()
    assert after == before
    assert len(bpy.data.meshes) == mesh_count  # to_mesh() results were freed with to_mesh_clear()


def test_check_triggers_no_depsgraph_update():
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    select_pair(a, b)
    bpy.context.view_layer.update()
    seen = []

    def spy(scene, depsgraph):
        seen.extend((u.id.name, u.is_updated_transform, u.is_updated_geometry) for u in depsgraph.updates)

    bpy.app.handlers.depsgraph_update_post.append(spy)
    try:
        bpy.ops.collision.check()
        bpy.context.view_layer.update()
    finally:
        bpy.app.handlers.depsgraph_update_post.remove(spy)
    assert [s for s in seen if s[1] or s[2]] == []


def test_undo_flags():
    """The check and clear push no undo step; selecting A/B does (it changes the selection)."""
    assert "UNDO" not in bpy.types.COLLISION_OT_check.bl_options
    assert "UNDO" not in bpy.types.COLLISION_OT_clear.bl_options
    assert "UNDO" not in bpy.types.COLLISION_OT_copy_result.bl_options
    assert {"REGISTER", "UNDO"} <= set(bpy.types.COLLISION_OT_select_object.bl_options)


def test_evaluated_meshes_are_not_leaked_into_main():
    a = cube("A", 1.0)
    a.modifiers.new("Array", "ARRAY")
    b = cube("B", 1.0, location=(5.0, 0.0, 0.0))
    names = sorted(m.name for m in bpy.data.meshes)
    for _ in range(5):
        check_pair(a, b)
    assert sorted(m.name for m in bpy.data.meshes) == names
    np.testing.assert_allclose(bpy.context.window_manager.collision_inspector.result.distance, 1.0, atol=1e-6)
