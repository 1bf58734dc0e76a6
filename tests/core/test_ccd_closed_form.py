"""core.mesh.ccd's vertex-triangle and edge-edge tests against closed forms: under translations (every corner of
a feature moving with one velocity) the features keep their directions, so the signed distance along the fixed
normal is linear in time and the first contact is where it crosses 0 inside the features.  The answer is never
later than the truth and at most a little earlier; near misses by 1e-3 of the size are never contacts.  Seeded
corpora, also far from the origin and at 1/100 scale."""
import numpy as np
import pytest

from core.mesh.ccd import edge_edge_first, vertex_triangle_first

BAND = 1e-9
EARLY = 1e-5  # the time tolerance plus the distance tolerance over the speed, with room


def frames():
    """(offset, scale) of the placements every case is tried in."""
    return [((0.0, 0.0, 0.0), 1.0), ((3.0e4, -1.0e4, 2.0e4), 1.0), ((0.0, 0.0, 0.0), 0.01),
            ((50.0, 20.0, -70.0), 0.01)]


def ends(start, velocity, offset, scale):
    """(2, 3) positions at times 0 and 1."""
    start = np.asarray(start, float)
    return np.array([start, start + velocity]) * scale + np.asarray(offset)


def random_triangle(rng):
    while True:
        tri = rng.normal(size=(3, 3))
        normal = np.cross(tri[1] - tri[0], tri[2] - tri[0])
        if np.linalg.norm(normal) > 0.5:
            return tri, normal / np.linalg.norm(normal)


@pytest.mark.parametrize("seed", range(40))
def test_vertex_crosses_triangle(seed):
    """The vertex passes through the triangle's interior (barycentric weights >= 0.05) at t* in (0.05, 0.95)."""
    rng = np.random.default_rng(seed)
    tri, normal = random_triangle(rng)
    weights = rng.dirichlet([1.0, 1.0, 1.0]) * 0.85 + 0.05
    crossing = weights @ tri
    t_star = rng.uniform(0.05, 0.95)
    v_tri = rng.normal(size=3)
    direction = rng.normal(size=3)
    direction += (1.0 if direction @ normal >= 0 else -1.0) * 0.5 * normal  # not parallel to the plane
    v_point = v_tri + direction
    p0 = crossing + t_star * v_tri - t_star * v_point  # p(t*) = the crossing point moved with the triangle
    for offset, scale in frames():
        p = ends(p0, v_point, offset, scale)
        a, b, c = (ends(x, v_tri, offset, scale) for x in tri)
        found = vertex_triangle_first(p, a, b, c, BAND * scale)
        assert found is not None
        assert t_star - EARLY <= found <= t_star + 1e-9


@pytest.mark.parametrize("seed", range(40))
def test_vertex_misses_triangle_by_a_thousandth(seed):
    """The vertex crosses the triangle's plane 1e-3 (of the size) outside an edge, moving along the normal
    relative to the triangle: its distance never falls below 1e-3."""
    rng = np.random.default_rng(1000 + seed)
    tri, normal = random_triangle(rng)
    edge = rng.integers(3)
    a, b = tri[edge], tri[(edge + 1) % 3]
    other = tri[(edge + 2) % 3]
    along = a + rng.uniform(0.1, 0.9) * (b - a)
    outward = np.cross(b - a, normal)
    outward /= np.linalg.norm(outward)
    if outward @ (other - along) > 0:
        outward = -outward
    crossing = along + 1e-3 * outward
    v_tri = rng.normal(size=3)
    t_star = rng.uniform(0.05, 0.95)
    v_point = v_tri + normal * rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 3.0)
    p0 = crossing + t_star * v_tri - t_star * v_point
    for offset, scale in frames():
        p = ends(p0, v_point, offset, scale)
        corners = [ends(x, v_tri, offset, scale) for x in tri]
        assert vertex_triangle_first(p, *corners, BAND * scale) is None


def random_edges(rng):
    while True:
        p, d1, r, d2 = rng.normal(size=(4, 3))
        n = np.cross(d1, d2)
        if np.linalg.norm(n) > 0.5:
            return p, d1, r, d2, n / np.linalg.norm(n)


@pytest.mark.parametrize("seed", range(40))
def test_edges_cross(seed):
    """Edge pq (p + u d1) and edge rs (r + w d2) cross at u, w in (0.05, 0.95) at t*."""
    rng = np.random.default_rng(2000 + seed)
    p, d1, r, d2, n = random_edges(rng)
    u, w = rng.uniform(0.05, 0.95, size=2)
    t_star = rng.uniform(0.05, 0.95)
    v1 = rng.normal(size=3)
    slide = rng.normal(size=3)
    v2 = v1 + slide - (slide @ n) * n + n * rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 2.0)  # crosses the plane
    # at t*, r + w d2 (moved by v2) meets p + u d1 (moved by v1)
    r = p + u * d1 + t_star * v1 - w * d2 - t_star * v2
    for offset, scale in frames():
        found = edge_edge_first(ends(p, v1, offset, scale), ends(p + d1, v1, offset, scale),
                                ends(r, v2, offset, scale), ends(r + d2, v2, offset, scale), BAND * scale)
        assert found is not None
        assert t_star - EARLY <= found <= t_star + 1e-9


@pytest.mark.parametrize("seed", range(40))
def test_edges_miss_by_a_thousandth(seed):
    """The lines would cross 1e-3 (of the size) past the end of edge rs, the edges moving apart along their
    common normal only: the segments never come closer than 1e-3 x the sine of their angle."""
    rng = np.random.default_rng(3000 + seed)
    p, d1, r, d2, n = random_edges(rng)
    u = rng.uniform(0.05, 0.95)
    w = 1.0 + 1e-3 / np.linalg.norm(d2)
    t_star = rng.uniform(0.05, 0.95)
    v1 = rng.normal(size=3)
    v2 = v1 + n * rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 3.0)
    r = p + u * d1 + t_star * v1 - w * d2 - t_star * v2
    for offset, scale in frames():
        found = edge_edge_first(ends(p, v1, offset, scale), ends(p + d1, v1, offset, scale),
                                ends(r, v2, offset, scale), ends(r + d2, v2, offset, scale), BAND * scale)
        assert found is None


def test_by_hand():
    """A vertex dropping from z = 1 to z = -1 onto a triangle in z = 0 meets it at t = 1/2; two edges, one
    dropping across the other, likewise."""
    still = lambda x: np.array([x, x], float)  # noqa: E731
    p = np.array([[0.2, 0.2, 1.0], [0.2, 0.2, -1.0]])
    found = vertex_triangle_first(p, still([0, 0, 0]), still([1, 0, 0]), still([0, 1, 0]), 1e-9)
    assert 0.5 - EARLY <= found <= 0.5
    found = edge_edge_first(still([-1, 0, 0]), still([1, 0, 0]), [[0, -1, 1], [0, -1, -1]],
                            [[0, 1, 1], [0, 1, -1]], 1e-9)
    assert 0.5 - EARLY <= found <= 0.5
    assert vertex_triangle_first(p + [0.6, 0.6, 0.0], still([0, 0, 0]), still([1, 0, 0]), still([0, 1, 0]),
                                 1e-9) is None
