"""Which of several pairs' sweeps is shown, and the sweep's one-line report, are pure functions of SweepRecords
(results.motion.combined and summary_line; no Blender)."""
import math

from tests.addon_package import addon_module

motion = addon_module("results.motion")
record = addon_module("results.record")
S = addon_module("core").Status


def sweep(b, first=None, closest=(None, math.inf), overlapping=False, cancelled=False, frames=5):
    status = S.INTERSECTING if overlapping else S.SEPARATED
    samples = tuple(record.SweepSample(frame=float(f), status=status, distance=-1.0 if overlapping else 2.0)
                    for f in range(1, frames + 1))
    return record.SweepRecord(object_a="A", object_b=b, samples=samples, first_contact_frame=first,
                              deepest_frame=1.0 if overlapping else None, deepest_depth=1.0 if overlapping else 0.0,
                              closest_frame=closest[0], closest_distance=closest[1], cancelled=cancelled,
                              extra={"sampled_frames": tuple(float(f) for f in range(1, frames + 1)), "mark": b})


def test_one_pair_is_shown_as_it_is():
    only = sweep("B", first=3.5, closest=(3.5, 0.0))
    assert motion.combined([only]) is only


def test_the_pair_that_meets_first_is_shown():
    records = [sweep("C", closest=(4.0, 1.0)), sweep("B", first=12.4, closest=(12.4, 0.0)),
               sweep("E", first=20.0, closest=(20.0, 0.0)), sweep("D", first=1.0, closest=(1.0, 0.0),
                                                                   overlapping=True)]
    shown = motion.combined(records, leave_out_overlapping=True)
    assert shown.object_b == "B" and shown.extra["mark"] == "B"
    assert [p["object_b"] for p in shown.extra["pairs"]] == ["B", "E", "C", "D"]
    assert shown.extra["left_out"] == 1
    d = shown.extra["pairs"][-1]
    assert d["always_overlapping"] and d["left_out"]
    assert motion.combined(records, leave_out_overlapping=False).object_b == "D"  # overlaps from frame 1


def test_without_a_meeting_the_closest_is_shown():
    records = [sweep("C", closest=(4.0, 1.0)), sweep("F", closest=(2.0, 0.25)), sweep("G")]
    shown = motion.combined(records)
    assert shown.object_b == "F"
    assert [p["object_b"] for p in shown.extra["pairs"]] == ["F", "C", "G"]


def test_a_cancelled_pair_is_not_chosen_but_marks_the_whole():
    records = [sweep("B", first=2.0, closest=(2.0, 0.0), cancelled=True), sweep("C", closest=(4.0, 1.0))]
    shown = motion.combined(records)
    assert shown.object_b == "C" and shown.cancelled
    assert not motion.always_overlapping(sweep("D", overlapping=True, cancelled=True))  # unfinished: not known


def test_summary_lines():
    assert motion.summary_line(sweep("B", first=12.4, closest=(12.4, 0.0))) == \
        "'A' and 'B' first meet at frame 12.400"
    assert motion.summary_line(sweep("D", first=1.0, overlapping=True)) == \
        "'A' and 'D' first meet at frame 1.000, deepest 1 at frame 1.000"
    assert motion.summary_line(sweep("C", closest=(4.0, 1.0), cancelled=True)) == \
        "Sweep stopped early: 'A' and 'C' never meet, closest 1 at frame 4.000"
    shown = motion.combined([sweep("C", closest=(4.0, 1.0)), sweep("B", first=12.4, closest=(12.4, 0.0))])
    assert motion.summary_line(shown) == "2 pairs, 1 meet; shown: 'A' and 'B' first meet at frame 12.400"
