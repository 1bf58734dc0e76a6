"""Push Apart's checks of one pair share one `core.PairHistory` in Exact mode (none in Hull mode), and that changes
nothing: the same moves, the same final location and the same final answer, bit for bit, as the same run with
every check fresh (`push.place` with settings that carry no history).  The pair's first check is made once."""
import importlib

import numpy as np
import pytest

bpy = pytest.importorskip("bpy")
from tests.blender.scenes import cube, select_pair
from tests.blender.test_push_apart_meshes import ball_in_cup_wall, crossing_links


@pytest.fixture
def push(addon):
    return importlib.import_module(f"{addon}.operators.push")


@pytest.fixture
def watched(push, monkeypatch):
    """Every check the operators make: (B's location, the settings' history, the record)."""
    real = push.check_pair
    log = []

    def logged(obj_a, obj_b, depsgraph, settings, *args, **kwargs):
        record = real(obj_a, obj_b, depsgraph, settings, *args, **kwargs)
        log.append((tuple(obj_b.location), settings.history, record))
        return record

    monkeypatch.setattr(push, "check_pair", logged)
    return log


def _answer(record):
    c = record.contact
    return (c.status, c.distance, tuple(c.normal), tuple(c.point_a), tuple(c.point_b), tuple(c.separation),
            c.gap)


# the ball ends with a third check, which the history answers from the last one's closest pair
@pytest.mark.parametrize("make", [crossing_links, ball_in_cup_wall], ids=["crossing links", "ball in a cup wall"])
def test_one_history_and_the_same_moves_as_fresh_checks(addon_modules, push, watched, make):
    bpy.context.scene.collision_inspector.mode = "EXACT"
    a, b = make()
    bpy.context.view_layer.update()
    select_pair(a, b)
    start = tuple(b.location)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    with_history = list(watched)
    history = with_history[0][1]
    assert isinstance(history, addon_modules.core.PairHistory)
    assert all(entry[1] is history for entry in with_history)
    locations = [entry[0] for entry in with_history]
    assert len(locations) >= 2 and all(p != q for p, q in zip(locations, locations[1:]))  # no check repeated
    assert locations[0] == start

    watched.clear()
    b.location = start
    bpy.context.view_layer.update()
    fresh = addon_modules.checking.CheckSettings(mode=addon_modules.record.Mode.EXACT)
    record, _checks = push.place(bpy.context, a, b, 0.0, fresh, separate=True)
    assert all(entry[1] is None for entry in watched)
    assert [entry[0] for entry in watched] == locations  # the same moves, bit for bit
    for (_, _, ours), (_, _, theirs) in zip(with_history, watched):
        assert _answer(ours) == _answer(theirs)
    assert _answer(record) == _answer(with_history[-1][2])
    assert _answer(addon_modules.store.active_record()) == _answer(record)
    assert np.array_equal(np.array(b.location), np.array(locations[-1]))


def test_hull_mode_keeps_no_history(addon_modules, watched):
    bpy.context.scene.collision_inspector.mode = "HULL"
    a, b = cube("A", 1.0), cube("B", 1.0, location=(1.5, 0.2, 0.0))
    select_pair(a, b)
    assert bpy.ops.collision.push_apart() == {"FINISHED"}
    assert watched and all(entry[1] is None for entry in watched)
