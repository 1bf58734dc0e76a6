"""The search over a deforming pair (core.motion.MotionSearch with core.deform.DeformingSplit) finds the first
contact to within the search's tolerance of its closed form, also when no sampled time sees it: a spike pulled
sideways through a thin slab between two whole-frame keys (a contact lasting 1/500 of a frame), the same over
several frames, the same while the sheet itself slides (moves and deforms), a spike swung along a half circle around the slab's end (a curved path: the chord misses the
slab), a spike rising to a key between two frames, and a rigid box falling onto a deforming sheet.  Each also far
from the origin and at 1/100 scale."""
import math

import numpy as np
import pytest

from core.deform import DeformingSplit
from core.motion import TIME_TOLERANCE, MotionSearch
from tests.core.deform_cases import Keyed, Pair, box, slab, spiked_sheet, translated

PLACEMENTS = [((0.0, 0.0, 0.0), 1.0), ((2.0e4, -3.0e4, 1.0e4), 1.0), ((0.0, 0.0, 0.0), 0.01),
              ((30.0, 10.0, -20.0), 0.01)]
WIDTH, DIP = 0.002, 1e-4  # the slab's thickness along the spike's way; how far it reaches below the tip


def sideways(frames, matrix):
    """The spike's tip (z = 1) goes from x = -0.5 to x = +0.5 between the two key frames; a slab 0.002 thick
    at x = 0 reaches DIP below the tip: it meets the tip when x = -0.001."""
    start, end = frames
    sheet = spiked_sheet([start, end], [(-0.5, 0.0, 1.0), (0.5, 0.0, 1.0)], [matrix, matrix])
    block = slab((-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), matrix)
    return Pair(sheet, block), start + (end - start) * (0.5 - WIDTH / 2)


def moving_and_deforming(matrix):
    """The sheet itself slides +0.5 along x between frames 10 and 11 while its spike is pulled +1 relative to it:
    the tip goes from x = -0.5 to 1.0 and meets the slab at x = -0.001."""
    sheet = spiked_sheet([10.0, 11.0], [(-0.5, 0.0, 1.0), (0.5, 0.0, 1.0)],
                         [matrix, matrix @ translated((0.5, 0.0, 0.0))])
    block = slab((-WIDTH / 2, -0.3, 1.0 - DIP), (WIDTH / 2, 0.3, 1.5), matrix)
    return Pair(sheet, block), 10.0 + (0.5 - WIDTH / 2) / 1.5


def swung(matrix):
    """The tip swings along a half circle of radius 0.6 about the z axis (0 to pi between frames 10 and 11, keyed
    at 32 points of the arc: a curved path sampled only at the whole frames); the slab stands on the y axis
    (0.3 <= y <= 0.9) and meets the tip when its x falls to 0.001."""
    times = np.linspace(10.0, 11.0, 33)
    apexes = [(0.6 * math.cos(math.pi * (t - 10)) - 0.5, 0.6 * math.sin(math.pi * (t - 10)), 1.0) for t in times]
    sheet = spiked_sheet(times, apexes, [matrix] * len(times))
    block = slab((-0.5 - WIDTH / 2, 0.3, 1.0 - DIP), (-0.5 + WIDTH / 2, 0.9, 1.5), matrix)
    # on the polyline through the keys: the segment that crosses x = -0.5 + 0.001
    target = -0.5 + WIDTH / 2
    for k in range(len(times) - 1):
        x0, x1 = apexes[k][0], apexes[k + 1][0]
        if x0 >= target > x1:
            return Pair(sheet, block), times[k] + (times[k + 1] - times[k]) * (x0 - target) / (x0 - x1)
    raise AssertionError("the arc never reaches the slab")


def rising(matrix):
    """The spike rises from the sheet (frame 10) to a key at 10.5 and back (frame 11); the slab above it sits at
    z = 0.5, the tip peaks 1/500 higher: contact from 10 + 0.5 x (1 - 1/500) for 1/500 of a frame."""
    peak = 0.5 / (1.0 - 1.0 / 500.0)
    sheet = spiked_sheet([10.0, 10.5, 11.0], [(-0.5, 0.0, 0.0), (-0.5, 0.0, peak), (-0.5, 0.0, 0.0)],
                         [matrix] * 3)
    block = slab((-0.7, -0.2, 0.5), (-0.3, 0.2, 0.8), matrix)
    return Pair(sheet, block), 10.0 + 0.5 * 0.5 / peak


def falling(matrix):
    """The spike rises 0.025 per frame from frame 0 (tip at z = 0.025 t); a box of half 0.2 above it falls 0.2 per
    frame (bottom at 2.8 - 0.2 t): they meet at t = 2.8 / 0.225."""
    sheet = spiked_sheet([0.0, 20.0], [(-0.5, 0.0, 0.0), (-0.5, 0.0, 0.5)], [matrix] * 2)
    vertices, triangles = box((-0.2, -0.2, -0.2), (0.2, 0.2, 0.2))
    start, end = translated((-0.5, 0.0, 3.0)), translated((-0.5, 0.0, -1.0))
    block = Keyed(triangles, [0.0, 20.0], [vertices, vertices], [matrix @ start, matrix @ end])
    return Pair(sheet, block), 2.8 / 0.225


def search(pair, times):
    rule = DeformingSplit()
    found = MotionSearch(pair.sample, times, split=rule).run()
    return found, rule.report


@pytest.mark.parametrize("offset, scale", PLACEMENTS)
@pytest.mark.parametrize("case", ["sideways", "several frames", "moving and deforming", "swung", "rising",
                                  "falling"])
def test_first_contact_matches_the_closed_form(case, offset, scale):
    m = translated(offset, scale)
    if case == "sideways":
        pair, expected = sideways((10.0, 11.0), m)
        times = [9.0, 10.0, 11.0, 12.0]
    elif case == "several frames":
        pair, expected = sideways((10.0, 20.0), m)
        times = [float(t) for t in range(9, 22)]
    elif case == "moving and deforming":
        pair, expected = moving_and_deforming(m)
        times = [9.0, 10.0, 11.0, 12.0]
    elif case == "swung":
        pair, expected = swung(m)
        times = [9.0, 10.0, 11.0, 12.0]  # the arc's inner keys are not sampled: the chord error is what helps
    elif case == "rising":
        pair, expected = rising(m)
        times = [9.0, 10.0, 10.5, 11.0, 12.0]  # the key time between frames is sampled
    else:
        pair, expected = falling(m)
        times = [float(t) for t in range(0, 21)]
    found, report = search(pair, times)
    assert found.first_contact is not None
    assert abs(found.first_contact - expected) <= TIME_TOLERANCE
    if case in ("sideways", "moving and deforming", "swung"):
        sampled = [pair.sample(t) for t in times]
        assert not any(s.in_contact for s in sampled)  # no sampled time sees it
        assert report.continuous >= 1
