"""A deforming pair that misses by 1e-3 of its size between two samples never meets, and the search reports the
closest time and distance: the spike of tests/core/deform_cases.py pulled sideways under a slab whose bottom is
1e-3 above the tip (no sample is near it: the closest approach is between frames 10 and 11).  Also far from the
origin and at 1/100 scale."""
import pytest

from core.deform import DeformingSplit
from core.motion import MotionSearch
from tests.core.deform_cases import Pair, slab, spiked_sheet, translated

GAP = 1e-3


@pytest.mark.parametrize("offset, scale", [((0.0, 0.0, 0.0), 1.0), ((2.0e4, -3.0e4, 1.0e4), 1.0),
                                           ((0.0, 0.0, 0.0), 0.01), ((30.0, 10.0, -20.0), 0.01)])
def test_near_miss_never_meets(offset, scale):
    m = translated(offset, scale)
    sheet = spiked_sheet([10.0, 11.0], [(-0.5, 0.0, 1.0), (0.5, 0.0, 1.0)], [m, m])
    block = slab((-0.001, -0.3, 1.0 + GAP), (0.001, 0.3, 1.5), m)
    pair = Pair(sheet, block)
    rule = DeformingSplit()
    found = MotionSearch(pair.sample, [9.0, 10.0, 11.0, 12.0], split=rule).run()
    assert found.first_contact is None and found.deepest_time is None
    assert found.closest_distance == pytest.approx(GAP * scale, rel=1e-6)
    assert abs(found.closest_time - 10.5) <= 0.001 + 1e-3  # the tip is under the slab from 10.499 to 10.501
    assert rule.report.deforming_intervals >= 1
