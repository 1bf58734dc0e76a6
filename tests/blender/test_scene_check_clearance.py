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


def test_broad_phase_keeps_boxes_a_touching_band_apart(addon):
    """Regression: a pair whose shapes are a hair apart (within the touching band, 1e-9 x the larger diagonal)
    is TOUCHING, so its boxes, which may be that hair apart too, must still make a candidate at clearance 0."""
    import importlib

    scene_check = importlib.import_module(f"{addon}.operators.scene_check")
    lo = np.array([[0.0, 0.0, 0.0], [1.0 + 1e-10, 0.0, 0.0], [1.0 + 1e-6, 0.0, 0.0]])
    hi = lo + 1.0
    pairs = scene_check.candidate_pairs(lo, hi, 0.0, [True, False, False], [False, True, True])
    assert pairs.tolist() == [[0, 1]]  # 1e-10 apart: in the band; 1e-6 apart: out
    pairs = scene_check.candidate_pairs(lo, hi, 0.0, [False, True, False], [True, False, False])
    assert pairs.tolist() == [[1, 0]]  # oriented (A side, B side)
