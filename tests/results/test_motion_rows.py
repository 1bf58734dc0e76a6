"""The sweep's words, table and mirror values are pure functions of a SweepRecord (no Blender)."""
import math

from tests.addon_package import addon_module

motion = addon_module("results.motion")
record = addon_module("results.record")
core = addon_module("core")
S = core.Status


def sweep(n=100, contact_at=None, cancelled=False):
    samples = []
    for i in range(n):
        frame = float(i + 1)
        inside = contact_at is not None and frame >= contact_at
        samples.append(record.SweepSample(frame=frame, status=S.INTERSECTING if inside else S.SEPARATED,
                                          distance=-0.5 if inside else 10.0 - 0.1 * i))
    samples.append(record.SweepSample(frame=2.5, status=S.SEPARATED, distance=9.8))  # a refined, unsampled time
    samples.sort(key=lambda s: s.frame)
    return record.SweepRecord(object_a="A", object_b="B", samples=tuple(samples),
                              first_contact_frame=None if contact_at is None else contact_at - 0.25,
                              deepest_frame=None if contact_at is None else contact_at + 1.0,
                              deepest_depth=0.0 if contact_at is None else 0.5,
                              closest_frame=float(n) if contact_at is None else contact_at - 0.25,
                              closest_distance=10.0 - 0.1 * (n - 1) if contact_at is None else 0.0,
                              cancelled=cancelled,
                              extra={"frame_start": 1, "frame_end": n,
                                     "sampled_frames": tuple(float(i + 1) for i in range(n)), "evaluations": n + 1})


def test_mirror_values():
    values = motion.sweep_mirror_fields(sweep(contact_at=40.0))
    assert values["meets"] and values["first_contact_frame"] == 39.75 and values["has_deepest"]
    assert values["deepest_depth"] == 0.5 and values["closest_distance"] == 0.0
    assert (values["frame_start"], values["frame_end"], values["evaluations"]) == (1, 100, 101)
    never = motion.sweep_mirror_fields(sweep())
    assert not never["meets"] and not never["has_deepest"] and never["closest_frame"] == 100.0
    empty = motion.sweep_mirror_fields(None)
    assert not empty["has_result"] and not empty["meets"]
    assert all(not (isinstance(v, float) and math.isnan(v)) for v in never.values())


def test_rows_name_the_frames():
    rows = {row.label: row.value for row in motion.sweep_rows(sweep(contact_at=40.0))}
    assert rows["First contact"] == "frame 39.750"
    assert rows["Deepest"].endswith("at frame 41")
    assert {row.label: row.value for row in motion.sweep_rows(sweep())}["First contact"] == "never"
    cancelled = motion.sweep_rows(sweep(cancelled=True))
    assert any(row.label == "Stopped" for row in cancelled)


def test_table_keeps_sampled_frames_and_changes():
    table = motion.sweep_table(sweep(n=30))
    assert [row[0] for row in table] == [float(i) for i in range(1, 31)]  # the refined 2.5 is not a table row
    long = motion.sweep_table(sweep(n=100, contact_at=57.0), max_rows=20)
    frames = [row[0] for row in long]
    assert len(frames) <= 20 + 3
    assert frames[0] == 1.0 and frames[-1] == 100.0 and 57.0 in frames  # the change of state is kept
    assert frames == sorted(frames)


def test_pair_rows():
    base = sweep(contact_at=40.0)
    pairs = (
        {"object_a": "A", "object_b": "B", "first_contact_frame": 39.75, "deepest_frame": 41.0, "deepest_depth": 0.5,
         "closest_frame": 39.75, "closest_distance": 0.0, "always_overlapping": False, "left_out": False,
         "cancelled": False},
        {"object_a": "A", "object_b": "C", "first_contact_frame": None, "deepest_frame": None, "deepest_depth": 0.0,
         "closest_frame": 6.0, "closest_distance": 1.0, "always_overlapping": False, "left_out": False,
         "cancelled": False},
        {"object_a": "A", "object_b": "D", "first_contact_frame": 1.0, "deepest_frame": 3.0, "deepest_depth": 0.5,
         "closest_frame": 1.0, "closest_distance": 0.0, "always_overlapping": True, "left_out": True,
         "cancelled": False},
    )
    listed = record.SweepRecord(object_a="A", object_b="B", samples=base.samples,
                                first_contact_frame=39.75, extra=dict(base.extra, pairs=pairs))
    rows = motion.pair_rows(listed)
    assert rows[0] == ("A / B", "meet at frame 39.750", 39.75)
    assert rows[1][0] == "A / C" and rows[1][1].startswith("never meet, closest") and rows[1][2] == 6.0
    assert rows[2] == ("A / D", "overlap on every frame (left out)", 3.0)
    assert motion.pair_rows(base) == [] and motion.pair_rows(None) == []
