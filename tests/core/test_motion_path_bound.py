"""core.motion.path_bound bounds how far any corner travels between two poses, under the motions the sweep's
refinement assumes (a linear translation and a uniform rotation of at most half a turn about one axis, any
constant scale); and each corner stays within half of that of one end or the other (what `swept_box` pads by).

Hand-computed cases first; then a seeded corpus whose corner paths are measured by fine polylines (a polyline is
never longer than the path, so a bound that fails the polyline fails the path)."""
import math

import numpy as np
import pytest

from core.motion import ARC_FACTOR, Pose, box_corners, path_bound, place, rotation_angle
from tests.core.motion_cases import RigidMotion, matrix, rotation

CUBE = box_corners(np.array([[-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]]))


def test_box_corners_order():
    corners = box_corners(np.array([[0.0, 2.0, -1.0], [1.0, 0.0, 3.0], [0.5, 1.0, 0.0]], dtype=np.float32))
    assert corners.dtype == np.float64
    np.testing.assert_array_equal(corners[0], [0.0, 0.0, -1.0])
    np.testing.assert_array_equal(corners[1], [0.0, 0.0, 3.0])
    np.testing.assert_array_equal(corners[2], [0.0, 2.0, -1.0])
    np.testing.assert_array_equal(corners[7], [1.0, 2.0, 3.0])


def test_place_is_the_affine_map():
    m = matrix(rotation((0, 0, 1), math.pi / 2), (10.0, 0.0, 0.0), (2.0, 1.0, 1.0))
    np.testing.assert_allclose(place(np.array([[1.0, 0.0, 0.0]]), m), [[10.0, 2.0, 0.0]], atol=1e-15)


@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 2, 2.0, math.pi])
def test_rotation_angle_ignores_scale_and_translation(angle):
    m0 = matrix(rotation((1, 2, 3), 0.7), (5.0, 1.0, 0.0), (2.0, 3.0, 0.5))
    m1 = matrix(rotation((0, 0, 1), angle) @ rotation((1, 2, 3), 0.7), (-4.0, 0.0, 9.0), (2.0, 3.0, 0.5))
    assert rotation_angle(m0, m1) == pytest.approx(angle, abs=1e-7)


def test_still_object_has_no_travel():
    pose = Pose(place(CUBE, matrix()), matrix())
    assert path_bound(pose, pose) == 0.0


def test_translation_by_hand():
    """Moved by (3, 4, 0): every corner moves 5; the bound is pi/2 x 5 (the arc term covers it)."""
    start = Pose(place(CUBE, matrix()), matrix())
    end = Pose(place(CUBE, matrix(translation=(3.0, 4.0, 0.0))), matrix(translation=(3.0, 4.0, 0.0)))
    assert path_bound(start, end) == pytest.approx(ARC_FACTOR * 5.0)


def test_half_turn_by_hand():
    """The cube (half 1) turns half a turn about z: corners move 2 sqrt 2 (arc term pi sqrt 2), the swing term
    is pi x sqrt 3 (the corners' distance from the origin); a corner's path is a half circle of radius sqrt 2."""
    turned = matrix(rotation((0, 0, 1), math.pi))
    bound = path_bound(Pose(place(CUBE, matrix()), matrix()), Pose(place(CUBE, turned), turned))
    assert bound == pytest.approx(math.pi * math.sqrt(3.0))
    assert bound >= math.pi * math.sqrt(2.0)


def test_rotation_undone_by_translation_by_hand():
    """A cube (half h = 0.5) sits D = 5 from its origin; it turns half a turn about z while its origin moves 2D
    along x, so it ends where it started, flipped: its corners move only 2 sqrt 2 h, but on the way its centre
    passes (D, D, 0).  The swing term covers that path: 2D + pi x sqrt((D + h)^2 + 2 h^2) (the farthest corner)."""
    h, d = 0.5, 5.0
    local = box_corners(np.array([[d - h, -h, -h], [d + h, h, h]]))
    motion = RigidMotion(local, start=(0, 0, 0), end=(2 * d, 0, 0), axis=(0, 0, 1), angle=math.pi)
    chord = float(np.linalg.norm(motion.points(1.0) - motion.points(0.0), axis=1).max())
    assert chord == pytest.approx(2.0 * math.sqrt(2.0) * h)
    bound = path_bound(motion.pose(0.0), motion.pose(1.0))
    assert bound == pytest.approx(2 * d + math.pi * math.sqrt((d + h) ** 2 + 2 * h * h))
    lengths, _ = _polyline_lengths(motion)
    assert lengths.max() > ARC_FACTOR * chord  # the arc term alone would not hold
    assert lengths.max() <= bound


def test_a_full_turn_between_two_samples_is_not_covered():
    """The stated limit: a whole turn between two evaluated times brings every corner back, so the bound is 0
    (rotations past half a turn per step are outside what the sweep's rule assumes; core/motion.py says so)."""
    motion = RigidMotion(CUBE, axis=(0, 0, 1), angle=2.0 * math.pi)
    assert path_bound(motion.pose(0.0), motion.pose(1.0)) == pytest.approx(0.0, abs=1e-12)


def _polyline_lengths(motion: RigidMotion, steps: int = 800) -> tuple[np.ndarray, float]:
    """Each corner's polyline length over [0, 1], and the largest distance of any intermediate corner position
    from the nearer of its two end positions."""
    corners = box_corners(motion.local)
    times = np.linspace(0.0, 1.0, steps + 1)
    positions = np.stack([place(corners, motion.matrix(s)) for s in times])  # (steps + 1, 8, 3)
    lengths = np.linalg.norm(np.diff(positions, axis=0), axis=2).sum(axis=0)
    to_start = np.linalg.norm(positions - positions[0], axis=2)
    to_end = np.linalg.norm(positions - positions[-1], axis=2)
    return lengths, float(np.minimum(to_start, to_end).max())


def _random_motion(rng) -> RigidMotion:
    local = rng.normal(size=(20, 3)) * rng.uniform(0.1, 3.0, size=3) + rng.normal(size=3)
    start = rng.normal(size=3) * 5.0
    end = start + rng.normal(size=3) * rng.choice([0.0, 0.1, 2.0, 10.0])
    angle = rng.choice([0.0, rng.uniform(0.0, math.pi), math.pi])
    scale = rng.uniform(0.2, 3.0, size=3) * rng.choice([-1.0, 1.0], size=3)
    turned = rotation(rng.normal(size=3), rng.uniform(0.0, math.pi))
    return RigidMotion(local, start, end, axis=rng.normal(size=3), angle=angle, scale=scale, turned=turned)


@pytest.mark.parametrize("seed", range(24))
def test_the_bound_holds_for_uniform_motions(seed):
    motion = _random_motion(np.random.default_rng(seed))
    bound = path_bound(motion.pose(0.0), motion.pose(1.0))
    lengths, off_ends = _polyline_lengths(motion)
    assert lengths.max() <= bound * (1.0 + 1e-9) + 1e-12
    assert off_ends <= 0.5 * bound * (1.0 + 1e-9) + 1e-12
