"""The installed extension registers everything it needs, and disabling it leaves nothing behind."""
import ast
import re
import sys

import pytest

bpy = pytest.importorskip("bpy")  # without bpy this module skips; the core tests still run
import addon_utils
from tests.blender.scenes import check_pair, cube

OPERATORS = ("COLLISION_OT_check", "COLLISION_OT_clear", "COLLISION_OT_select_object", "COLLISION_OT_copy_result",
             "COLLISION_OT_check_object")
IDNAMES = ("check", "clear", "select_object", "copy_result", "check_object")
PANEL = "VIEW3D_PT_collision_inspector"


def ours(functions, addon):
    return [f for f in functions if getattr(f, "__module__", "").startswith(addon)]


def menu_functions():
    draw = bpy.types.VIEW3D_MT_object.draw
    return list(getattr(draw, "_draw_funcs", ()))


def test_installed_from_the_built_zip(addon):
    assert addon == "bl_ext.user_default.collision_inspector" or bpy.app.version < (4, 2, 0)
    module = sys.modules[addon]
    # the same __init__.py carries bl_info for Blender 3.4 (4.2+ reads the manifest and drops bl_info)
    tree = ast.parse(open(module.__file__, encoding="utf-8").read())
    bl_info = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "bl_info")
    assert bl_info["blender"] == (3, 4, 0) and bl_info["version"] == (0, 1, 0)
    if bpy.app.version >= (4, 2, 0):
        assert "extensions" in module.__file__ and "user_default" in module.__file__  # not the source tree


def test_everything_is_registered(addon, addon_modules):
    for name in OPERATORS + (PANEL,):
        assert hasattr(bpy.types, name), name
    for cls in addon_modules.props.CLASSES:
        assert cls.is_registered, cls
    for idname in IDNAMES:
        assert hasattr(bpy.ops.collision, idname)
    assert hasattr(bpy.types.WindowManager, "collision_inspector")
    result = bpy.context.window_manager.collision_inspector.result
    assert result.status == "NONE"
    assert [i.identifier for i in result.bl_rna.properties["status"].enum_items] == [
        "NONE", "SEPARATED", "TOUCHING", "INTERSECTING"]
    for field in ("distance", "depth", "normal", "point_a", "point_b", "object_a", "object_b", "gjk_iterations",
                  "epa_iterations", "time_ms", "converged", "fallback_used", "is_stale"):
        assert field in result.bl_rna.properties, field
    # The mirror is filled by one loop over the record's fields: every field has its property.
    for field in addon_modules.record.mirror_fields(None) | addon_modules.record.mirror_fields(_any_record(addon_modules)):
        assert field in result.bl_rna.properties, field
    assert getattr(bpy.types, PANEL).bl_category == "Collision"
    assert len(ours(bpy.app.handlers.depsgraph_update_post, addon)) == 1
    assert len(ours(menu_functions(), addon)) == 1


def _any_record(modules):
    contact = modules.core.collide([[0.0, 0.0, 0.0]], [[1.0, 0.0, 0.0]])
    return modules.record.CheckRecord(contact=contact, object_a="A", object_b="B")


def test_overlay_handler_bookkeeping(addon_modules):
    """enable() adds no handler in background mode; the handler pair itself is added and removed cleanly."""
    overlay = addon_modules.overlay
    assert bpy.app.background
    assert overlay.enable() is False and not overlay.is_enabled()
    overlay._add_handlers()
    handles = dict(overlay._handles)
    assert set(handles) == {"POST_VIEW", "POST_PIXEL"} and overlay.is_enabled()
    overlay._add_handlers()  # idempotent
    assert overlay._handles == handles
    overlay.disable()
    assert not overlay.is_enabled()
    for handle in handles.values():  # already removed: removing again fails
        with pytest.raises(ValueError):
            bpy.types.SpaceView3D.draw_handler_remove(handle, "WINDOW")
    overlay.disable()  # idempotent


def test_disable_leaves_nothing_and_reenable_works(addon, addon_modules):
    a, b = cube("A", 1.0), cube("B", 1.0, location=(3.0, 0.0, 0.0))
    check_pair(a, b)
    addon_utils.disable(addon, default_set=True)
    try:
        for name in OPERATORS + (PANEL,):
            assert not hasattr(bpy.types, name), name
        for cls in addon_modules.props.CLASSES:
            assert not cls.is_registered, cls
        assert not hasattr(bpy.types.WindowManager, "collision_inspector")
        for handlers in (bpy.app.handlers.depsgraph_update_post, bpy.app.handlers.load_post):
            assert ours(handlers, addon) == []
        assert ours(menu_functions(), addon) == []
        overlay = sys.modules.get(f"{addon}.panels.overlay")
        assert overlay is None or not overlay.is_enabled()
        with pytest.raises((AttributeError, RuntimeError)):
            bpy.ops.collision.check()
    finally:
        addon_utils.enable(addon, default_set=True)
    assert hasattr(bpy.types.WindowManager, "collision_inspector")
    assert len(ours(bpy.app.handlers.depsgraph_update_post, addon)) == 1
    assert len(ours(menu_functions(), addon)) == 1
    assert check_pair(a, b) == {"FINISHED"}
    assert bpy.context.window_manager.collision_inspector.result.status == "SEPARATED"


def test_panel_icons_exist(addon):
    """Every icon name the panel and menu use is a valid icon of this Blender (3.4 and 5.0 differ)."""
    import importlib

    sidebar = importlib.import_module(f"{addon}.panels.sidebar")
    status = importlib.import_module(f"{addon}.results.status")
    valid = set(bpy.types.UILayout.bl_rna.functions["label"].parameters["icon"].enum_items.keys())
    source = open(sidebar.__file__, encoding="utf-8").read()
    used = {s.icon for s in status.STYLES.values()} | {status.NO_RESULT.icon}
    used |= set(re.findall(r'icon="([A-Z_]+)"', source))
    assert used and used <= valid, used - valid
