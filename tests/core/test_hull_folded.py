"""core/hull.py on near-coplanar Minkowski differences: the result bounds a convex polytope holding every point.

Regression: the 280 differences of two small polytopes below (20 and 14 vertices) made `convex_hull` return a folded
surface: a directed edge used twice, and points 0.35 (the cloud's whole extent) above three faces. The hull of the
35 extreme points along the spread directions, built in rounds, came out reflex by about 50 times the tolerance at
one edge (near-coplanar points), and the rounds on that seed folded. A rounds-built seed must be convex within the
tolerance, and the result is checked (closed, convex at every edge, holding the points) and else built again without
a seed, or declined.

Oracle: the triangulation's own planes against every point (within 1e-10 x the cloud's size), each directed edge
used once and met by its reverse, and scipy's qhull (test-only) for the volume.  Then the same properties over
the same difference moved, scaled and reordered (seeded): variants on which the code before the fix folds too.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from core.hull import convex_hull

from .support import assert_closed_convex_hull

SLACK = 1e-10

FOLD_A = np.array([
    (0.11593624224121686, 0.6043912775632557, -0.36939112208129893),
    (0.11593624224122143, 0.6228913746779976, -0.3368561231112609),
    (0.11320660509929219, 0.5788915261815634, -0.397131787421407),
    (0.1159362422412437, 0.5485505587423761, -0.4159459944314567),
    (0.11593624224124385, 0.48610168464002573, -0.3328059988818704),
    (0.11593624224124277, 0.6240635320652188, -0.3328059988818715),
    (0.11593624224124084, 0.4861016846400288, -0.42795352060987496),
    (-0.02323968793893831, 0.48610168464002834, -0.4887546455991363),
    (0.11593624224124119, 0.5150153897427203, -0.42679323019648424),
    (-0.060648237693000984, 0.5862060687352231, -0.4154719031581439),
    (-0.06064823722693871, 0.5677059716557853, -0.44800690198613974),
    (-0.0606482376930193, 0.48610168464002573, -0.3328059988818704),
    (-0.060648237693019316, 0.5423497036976754, -0.4749829843850427),
    (-0.060648237693019316, 0.5118652527995917, -0.4945617744783599),
    (-0.0606482376930193, 0.4861016846400258, -0.502895219822799),
    (0.044448292040621895, 0.6184229767960178, -0.33280599888187173),
    (-0.06064823769301807, 0.5965892440226801, -0.3795951938796905),
    (-0.0606482376930193, 0.59604813360667, -0.3328059988818704),
    (-0.0381512323596843, 0.6028216388460408, -0.3328059988818705),
    (-0.060648237693019205, 0.5981479012460146, -0.3428217127410832),
])
FOLD_B = np.array([
    (-0.0606482376930193, 0.5310041118327048, -0.484811797308068),
    (-0.06064823769301929, 0.5743138475620501, -0.37539160016143613),
    (-0.0606482376930193, 0.5251749542021459, -0.5093904788161335),
    (-0.0606482376930193, 0.658148000627544, -0.3328059988818704),
    (-0.0606482376930193, 0.6626861645742889, -0.5093904788161335),
    (-0.0606482376930193, 0.6626861645742889, -0.3328059988818704),
    (-0.003280618149081805, 0.5165464134961139, -0.3914594400514889),
    (0.04264431634072344, 0.4861016846400258, -0.39629621613888066),
    (0.0006003249278747694, 0.48610168464002573, -0.5093904788161335),
    (0.11593624224124384, 0.4861016846400258, -0.379334332191316),
    (0.11593624224124384, 0.5776975127918775, -0.33280599888187046),
    (0.11593624224124385, 0.48610168464002573, -0.5093904788161335),
    (0.11593624224124385, 0.6626861645742889, -0.5093904788161335),
    (0.11593624224124385, 0.6626861645742889, -0.3328059988818704),
])


def _assert_convex_hull_of(cloud: np.ndarray, result) -> None:
    volume = assert_closed_convex_hull(cloud, result, SLACK)
    assert volume == pytest.approx(ConvexHull(cloud).volume, rel=1e-12)


def test_minkowski_difference_of_two_small_polytopes_is_not_folded():
    cloud = (FOLD_A[:, None] - FOLD_B[None]).reshape(-1, 3)
    assert cloud.shape == (280, 3)
    _assert_convex_hull_of(cloud, convex_hull(cloud))


def test_the_same_difference_moved_scaled_and_reordered_is_not_folded():
    """The literal case's cloud rebuilt from A and B moved together, scaled together and with their vertices
    reordered (60 seeded variants): the same near-coplanar difference up to rounding and order.  The code before
    the fix folded on nearly all of them (a directed edge used twice: 28 to 30 of every 30 per kind), so this
    property fails without it; seeded differences of rotated box grids, which it also passed, do not."""
    rng = np.random.default_rng(3)
    for _ in range(60):
        a = FOLD_A[rng.permutation(len(FOLD_A))]
        b = FOLD_B[rng.permutation(len(FOLD_B))]
        shift, scale = rng.uniform(-1.0, 1.0, 3), 10.0 ** rng.uniform(-3.0, 3.0)
        a, b = (a + shift) * scale, (b + shift) * scale
        cloud = (a[:, None] - b[None]).reshape(-1, 3)
        _assert_convex_hull_of(cloud, convex_hull(cloud))
