"""A pair exactly at the clearance is listed; one float32 step closer clearance drops it.  The broad phase grows
the boxes by the clearance, so a pair whose boxes are exactly `clearance` apart must reach the narrow phase."""
import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scene_builders import listed, settings
from tests.blender.scenes import cube, world_vertices


@pytest.mark.parametrize("origin", [0.0, 1000.0])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_pair_exactly_at_the_clearance(addon_modules, origin, axis):
    gap = 0.25
    offset = [origin, 0.0, 0.0]
    a = cube("A", half=0.5, location=tuple(offset))
    offset[axis] += 1.0 + gap
    b = cube("B", half=0.5, location=tuple(offset))
    bpy.context.view_layer.update()
    # Precondition, from the engine on vertices read here: the distance is exactly the gap.
    distance = addon_modules.core.collide(world_vertices(a), world_vertices(b)).distance
    assert distance == gap

    settings().clearance = gap
    assert settings().clearance == gap  # 0.25 is a float32 value: the property holds it exactly
    bpy.ops.collision.check_all(scope="VISIBLE")
    got = listed(addon_modules.store)
    assert set(got) == {frozenset(("A", "B"))}
    record = got[frozenset(("A", "B"))]
    assert record.distance == gap and record.within_clearance and record.status.name == "SEPARATED"

    settings().clearance = float(np.nextafter(np.float32(gap), np.float32(0.0)))
    bpy.ops.collision.check_all(scope="VISIBLE")
    assert addon_modules.store.records() == ()


def test_clearance_zero_lists_no_separated_pair(addon_modules):
    cube("A", half=0.5)
    cube("B", half=0.5, location=(1.0 + 1e-4, 0.0, 0.0))
    settings().clearance = 0.0
    bpy.ops.collision.check_all(scope="VISIBLE")
    assert addon_modules.store.records() == ()
    settings().clearance = 1e-3
    bpy.ops.collision.check_all(scope="VISIBLE")
    assert [r.status.name for r in addon_modules.store.records()] == ["SEPARATED"]
