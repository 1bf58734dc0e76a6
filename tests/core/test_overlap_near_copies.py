"""core.overlap of a solid against a copy of itself turned, moved or scaled by a hair (1e-12..1e-7 of its size),
against manifold3d (and, for a box moved or scaled, the analytic volume): the copies' faces cross their twins at
near-zero angles everywhere, which is where the strip classification of core/mesh/overlap.py can go wrong.

The property pinned here is the product's: never a silent wrong answer.  Every result marked `exact` is within
the issue's bound, |volume - truth| <= 1e-9 x truth + 1e-12 x scale³, in both argument orders; a result outside it
is marked `exact=False` with a `defect` of the size of its error.  Moved copies and a scaled box are exact;
turned copies (and a few scaled curved ones) are partly only flagged: see the module docstring of
core/mesh/overlap.py."""
import numpy as np
import pytest

import core
from tests.core import overlap_corpus as oc
from tests.core.meshes import box

SHAPES = {
    "box": box((0, 0, 0), (1, 1, 1)),
    "ball": oc.ball(1.0, 48, 24),
    "torus": oc.torus(1.0, 0.3, 48, 24),
    "blob": oc.blob(9, segments=48, rings=24),
}


def _axis_turn(axis, angle):
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def _relative(kind, rng, size):
    """A placement of the copy relative to the original: a turn by 1e-12..1e-7 rad about a random axis through a
    random point near the solid, a move by 1e-12..1e-7 x size, or a scaling by 1 +- 1e-9 about a random point."""
    if kind == "turn":
        angle = 10 ** rng.uniform(-12, -7) * rng.choice([-1, 1])
        turn = _axis_turn(rng.normal(size=3), angle)
        centre = rng.normal(size=3) * 0.5 * size
        return oc.pose(turn, centre - turn @ centre)
    if kind == "move":
        d = rng.normal(size=3)
        return oc.pose(None, 10 ** rng.uniform(-12, -7) * size * d / np.linalg.norm(d))
    factor = 1.0 + rng.choice([-1, 1]) * 1e-9
    centre = rng.normal(size=3) * 0.5 * size
    return oc.pose(np.eye(3) * factor, centre * (1.0 - factor))


def _box_truth(relative):
    """The unit box against its moved or scaled copy: a box again, the product of the overlaps of the sides."""
    corners = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]) @ relative[:3, :3].T + relative[:3, 3]
    lo, hi = np.maximum(corners.min(axis=0), 0.0), np.minimum(corners.max(axis=0), 1.0)
    return float(np.prod(np.maximum(hi - lo, 0.0)))


def _run(name, kind, seed):
    rng = np.random.default_rng([seed, len(name), ["turn", "move", "scale"].index(kind)])
    mesh = SHAPES[name]
    size = float(np.linalg.norm(mesh[0].max(axis=0) - mesh[0].min(axis=0)))
    relative = _relative(kind, rng, size)
    world = oc.pose(oc.rotation(rng) * 10 ** rng.uniform(-1, 1), rng.normal(size=3) * 10 ** rng.uniform(0, 3))
    a, b = oc.place(mesh, world), oc.place(mesh, world @ relative)
    truth = oc.manifold_volume(a, b)
    if name == "box" and kind != "turn":
        exact_truth = _box_truth(relative) * abs(np.linalg.det(world[:3, :3]))
        assert abs(truth - exact_truth) <= 1e-9 * exact_truth  # the oracles agree
    bound = 1e-9 * truth + 1e-12 * oc.pair_size(a, b) ** 3
    return [(r, abs(r.volume - truth), bound) for r in (core.overlap(a, b), core.overlap(b, a))]


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("kind,seeds", [("turn", range(5)), ("move", range(3)), ("scale", range(3))])
def test_a_near_copy_is_exact_or_says_it_is_not(name, kind, seeds):
    for seed in seeds:
        for result, error, bound in _run(name, kind, seed):
            assert result.region.shape[0] > 0
            if result.exact:
                assert error <= bound, (seed, error, bound)
                assert result.defect == 0.0
            else:  # flagged: the defect is of the size of the error (a measure, not a certified bound)
                assert result.defect > 0.0
                assert error <= 2.0 * result.defect + bound, (seed, error, result.defect)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_moved_copy_is_exact(name):
    for seed in range(3):
        for result, error, bound in _run(name, "move", seed):
            assert result.exact and error <= bound, (seed, error, bound, result.defect)


def test_a_scaled_box_is_exact():
    for seed in range(3):
        for result, error, bound in _run("box", "scale", seed):
            assert result.exact and error <= bound, (seed, error, bound, result.defect)
