"""Issue 7, the large end: the facet-normal depth of core/facet_depth.py at 4,000-20,000 hull vertices.

Named regressions for what made it slow (each asserts an answer against an oracle and a count of work, never a
time; the times are in bench/duplicates.py and bench/README.md):
- a cylinder whose caps are flat polygons of thousands of triangles: every Gauss arc of a rim edge ends at the
  cap normal, where thousands of arcs meet and B's support jumps between rounding ties, so thousands of arcs
  were halved through all 48 passes (0.7-1 s).  The walk now drops an arc once a lower bound of h_M on it
  (`_arc_lower_bound`: two points of M and the sinusoids they give along the arc) is above a depth already
  attained;
- qhull's fan-triangulated caps (a hub with thousands of neighbours): every cap triangle has the same normal,
  and each of those rows climbed from the hub, looking at all its neighbours.  The own-facet climbs now start at
  each triangle's corner of lowest degree, and the far supports are climbed once per direction, then per row;
- the work budget: past it the facet path hands back to EPA, whose answer is still exact;
- the property behind the pruning: the lower bound is never above h_M on its arc (checked against h_M over every
  vertex at points along seeded arcs).
Oracles (no engine code): `symmetric_width` (tests/core/duplicates.py) for a centrally symmetric shape against
itself, `prism_width` for a cylinder against itself (a prism's facet normals are its axis and its polygon's edge
normals); for a symmetric A inside B = s A (M = A + s A, whose facet normals are A's), the minimum over qhull's
facet normals of A of h_A(u) + h_B(-u), each over every vertex.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import core
import core.facet_depth as facet_depth_mod
import core.supports as supports_mod
from core.polytope import ConvexPolytope
from tests.core.duplicates import (cylinder, hull_triangles, icosphere, symmetric_width, uv_sphere,
                                   uv_sphere_triangles)


def _halving(ring: list[int]) -> list[tuple[int, int, int]]:
    """A convex polygon of 2^k corners (indices in order round it) cut as Blender cuts a cylinder's cap: a
    triangle on every other pair of sides, then the same on the polygon of the corners left, down to two
    triangles (vertex degrees 2, 3, 5, 9, ... up to ~2k inside the polygon: no fan)."""
    out = []
    while len(ring) > 3:
        out += [(ring[i], ring[i + 1], ring[(i + 2) % len(ring)]) for i in range(0, len(ring), 2)]
        ring = ring[::2]
        if len(ring) == 2:
            break
    if len(ring) == 3:
        out.append(tuple(ring))
    return out


def symmetric_cylinder(sides: int) -> tuple[np.ndarray, np.ndarray]:
    """A cylinder of `sides` sides (radius 1, height 2) that is centrally symmetric bit for bit, with its own
    faces: each side quad split along a diagonal, each cap cut as Blender cuts it (`_halving`); the ring in
    float32 as Blender stores it."""
    half = cylinder(sides)[: sides // 2, :2].astype(np.float32).astype(np.float64)
    ring = np.vstack([half, -half])
    vertices = np.vstack([np.column_stack([ring, -np.ones(sides)]), np.column_stack([ring, np.ones(sides)])])
    k = np.arange(sides)
    j = (k + 1) % sides
    sides_tris = np.concatenate([np.stack([k, j, sides + j], 1), np.stack([k, sides + j, sides + k], 1)])
    caps = _halving(list(range(sides))) + _halving(list(range(sides, 2 * sides)))
    return vertices, np.concatenate([sides_tris, np.array(caps)])


def symmetric_uv_sphere(segments: int, rings: int) -> np.ndarray:
    """tests/core/duplicates.py's UV sphere with its southern half replaced by the negated northern half (ring r,
    segment k <-> ring rings - 2 - r, segment k + segments / 2), so that A = -A bit for bit; the same triangles."""
    v = uv_sphere(segments, rings).copy()

    def at(ring, k):
        return 1 + ring * segments + (k % segments)

    bottom = 1 + (rings - 1) * segments
    v[bottom] = -v[0]
    for ring in range(rings - 1):
        mirror = rings - 2 - ring
        if mirror < ring:
            break
        for k in range(segments):
            if mirror == ring and k >= segments // 2:
                break
            v[at(mirror, k + segments // 2)] = -v[at(ring, k)]
    return v


def homothetic_depth(a: np.ndarray, b: np.ndarray) -> float:
    """min over qhull's facet normals u of A of h_A(u) + h_B(-u), each over every vertex: the depth when M's
    facet normals are A's (B = s A with A = -A, so h_M(u) = (1 + s) h_A(u)).  Normals are evaluated in order of
    qhull's offset h_A(u), until the next one's (1 + s) h_A(u) is above the best value found by far more than
    qhull's rounding (then no facet left can do better)."""
    hull = ConvexHull(a)
    length = np.linalg.norm(hull.equations[:, :3], axis=1)
    normals, offsets = hull.equations[:, :3] / length[:, None], -hull.equations[:, 3] / length
    size = float(np.linalg.norm(a.max(axis=0) - a.min(axis=0)))
    s = float(np.linalg.norm(b.max(axis=0) - b.min(axis=0))) / size
    order = np.argsort(offsets)
    best = np.inf
    for lo in range(0, order.size, 512):
        u = normals[order[lo:lo + 512]]
        best = min(best, float(((u @ a.T).max(axis=1) + (-u @ b.T).max(axis=1)).min()))
        if lo + 512 < order.size and (1.0 + s) * offsets[order[lo + 512]] > best + 1e-9 * size:
            break
    return best


def prism_width(ring: np.ndarray, height: float) -> float:
    """Smallest width of a right prism over a plane polygon `ring` (k, 2) (a cylinder): its facet normals are
    the axis (width `height`) and the edge normals of the polygon's hull (qhull in 2-D), each width taken over
    every corner of the ring."""
    hull = ConvexHull(ring)
    normals = hull.equations[:, :2] / np.linalg.norm(hull.equations[:, :2], axis=1)[:, None]
    best = height
    for lo in range(0, normals.shape[0], 1024):
        h = normals[lo:lo + 1024] @ ring.T
        best = min(best, float((h.max(axis=1) - h.min(axis=1)).min()))
    return best


def _on_facet_path(monkeypatch) -> list:
    """The answers of `facet_depth` as EPA asks for them (None: it gave up and EPA went on)."""
    from core import epa
    answers = []
    original = epa.facet_depth

    def recorded(a, b):
        answers.append(original(a, b))
        return answers[-1]

    monkeypatch.setattr(epa, "facet_depth", recorded)
    return answers


def _count_passes(monkeypatch) -> list[int]:
    calls = []
    original = facet_depth_mod._arc_lower_bound

    def counted(*args):
        calls.append(args[0].shape[0])
        return original(*args)

    monkeypatch.setattr(facet_depth_mod, "_arc_lower_bound", counted)
    return calls


def _count_looked(monkeypatch) -> list[int]:
    """The (row, neighbour) pairs each climb step looks at, as the steps run (the padded table's steps, and the
    wide vertices' tables')."""
    looked = []
    original, original_table = supports_mod.Supports._step, supports_mod.Supports._table_step

    def counted(self, rows, cand, *args):
        looked.append(cand.size)
        return original(self, rows, cand, *args)

    def counted_table(self, rows, *args):
        looked.append(rows.size * self.graph.table.shape[1])
        return original_table(self, rows, *args)

    monkeypatch.setattr(supports_mod.Supports, "_step", counted)
    monkeypatch.setattr(supports_mod.Supports, "_table_step", counted_table)
    return looked


def test_regression_flat_caps_end_the_walk_in_a_few_passes(monkeypatch):
    """8,192-sided cylinder with Blender-like faces against its copy in place: exact, converged, on the facet path,
    and the walk over in a few passes (without the lower bound: ~16,000 arcs a pass through all 39 passes, 1.45 s
    against 0.62 s; at 4,096 sides only ~180 arcs were left after the first pass)."""
    vertices, triangles = symmetric_cylinder(8192)
    assert {tuple(p) for p in vertices} == {tuple(-p) for p in vertices}
    passes = _count_passes(monkeypatch)
    answers = _on_facet_path(monkeypatch)
    contact = core.collide(ConvexPolytope(vertices, triangles), ConvexPolytope(vertices.copy(), triangles))
    width = prism_width(vertices[:8192, :2], 2.0)
    assert answers and answers[-1] is not None
    assert contact.converged and abs(contact.depth - width) <= 1e-9 * contact.scale, (contact.depth, width)
    assert passes and len(passes) <= 6, passes


def test_regression_fan_caps_are_not_climbed_through_their_hub(monkeypatch):
    """qhull's 2,048-sided cylinder (each cap a fan from one corner: a hub of ~2,050 neighbours) against its
    copy: exact, and the climbs look at far fewer (row, neighbour) pairs than when each cap triangle's row
    climbed from its first corner, the hub for most of them (measured: 2.2e7 pairs then; 4.9e6 with the climbs
    from each triangle's corner of lowest degree and the far supports climbed once per direction)."""
    half = cylinder(2048)[:1024, :2]
    ring = np.vstack([half, -half])
    vertices = np.vstack([np.column_stack([ring, -np.ones(2048)]), np.column_stack([ring, np.ones(2048)])])
    triangles = hull_triangles(vertices)
    assert np.bincount(triangles.reshape(-1)).max() > 1000
    looked = _count_looked(monkeypatch)
    contact = core.collide(ConvexPolytope(vertices, triangles), ConvexPolytope(vertices.copy(), triangles))
    width = symmetric_width(vertices)
    assert contact.converged and abs(contact.depth - width) <= 1e-9 * contact.scale, (contact.depth, width)
    assert sum(looked) < 8_000_000, sum(looked)


def test_regression_arcs_out_of_the_running_are_not_climbed(monkeypatch):
    """Ico Sphere s4 (2,562 vertices, centrally symmetric bit for bit) against its copy in place: exact, and the
    climbs look at far fewer (row, neighbour) pairs since arcs are bounded from below with B's supports along the
    face normals before their nudged ends are climbed (measured: 216,288 pairs when every arc's ends were
    climbed first, then all but ~200 of its 7,680 arcs dropped by the bound; 90,012 now)."""
    vertices = icosphere(4)
    assert {tuple(p) for p in vertices} == {tuple(-p) for p in vertices}
    triangles = hull_triangles(vertices)
    looked = _count_looked(monkeypatch)
    answers = _on_facet_path(monkeypatch)
    contact = core.collide(ConvexPolytope(vertices, triangles), ConvexPolytope(vertices.copy(), triangles))
    width = symmetric_width(vertices)
    assert answers and answers[-1] is not None
    assert contact.converged and abs(contact.depth - width) <= 1e-9 * contact.scale, (contact.depth, width)
    assert sum(looked) < 150_000, sum(looked)


@pytest.mark.parametrize("scale", [1.0, 1.001], ids=["identical", "inside a 1.001 copy"])
def test_uv_sphere_192x96_copies_are_exact(scale, monkeypatch):
    """18,242 vertices (the issue's upper end), the grid triangles of tests/core/duplicates.py."""
    a = symmetric_uv_sphere(192, 96)
    assert {tuple(p) for p in a} == {tuple(-p) for p in a}
    b = a * scale
    triangles = uv_sphere_triangles(192, 96)
    answers = _on_facet_path(monkeypatch)
    contact = core.collide(ConvexPolytope(a, triangles), ConvexPolytope(b, triangles))
    exact = homothetic_depth(a, b)
    assert answers and answers[-1] is not None
    assert contact.converged, contact
    assert abs(contact.depth - exact) <= 1e-9 * contact.scale, (contact.depth, exact)


@pytest.mark.parametrize("seed", range(3))
def test_arc_lower_bound_is_below_h_m_on_its_arc(seed):
    """For seeded pairs of hulls and arcs (random unit ends, an edge end of A and supports of B at the ends, as the
    walk passes them, and also arbitrary points of A and B), the bound never exceeds h_M at 65 points along the arc;
    and it is finite and within 10% of the smallest sampled h_M on most short arcs (it prunes)."""
    rng = np.random.default_rng(9100 + seed)
    a = rng.normal(size=(60, 3))
    b = rng.normal(size=(60, 3)) * 0.8 + 0.1
    arcs = 4000
    u0 = rng.normal(size=(arcs, 3))
    u0 /= np.linalg.norm(u0, axis=1)[:, None]
    length = np.where(np.arange(arcs) % 2 == 0, rng.uniform(1e-4, 0.05, arcs), rng.uniform(0.05, 3.0, arcs))
    side = np.cross(u0, rng.normal(size=(arcs, 3)))
    side /= np.linalg.norm(side, axis=1)[:, None]
    u1 = np.cos(length)[:, None] * u0 + np.sin(length)[:, None] * side
    supports = np.arange(arcs) % 3 != 0  # most arcs as the walk has them, the rest arbitrary points
    p = np.where(supports[:, None], a[(u0 @ a.T).argmax(axis=1)], a[rng.integers(0, 60, arcs)])
    b0 = np.where(supports[:, None], b[(-u0 @ b.T).argmax(axis=1)], b[rng.integers(0, 60, arcs)])
    b1 = np.where(supports[:, None], b[(-u1 @ b.T).argmax(axis=1)], b[rng.integers(0, 60, arcs)])
    low = facet_depth_mod._arc_lower_bound(p, b0, b1, u0, u1)
    t = np.linspace(0.0, 1.0, 65)
    smallest = np.full(arcs, np.inf)
    for s in t:
        u = np.cos(s * length)[:, None] * u0 + np.sin(s * length)[:, None] * side
        h = (u @ a.T).max(axis=1) + (-u @ b.T).max(axis=1)
        assert np.all(low <= h + 1e-12), float((low - h).max())
        smallest = np.minimum(smallest, h)
    short = (length < 0.05) & supports
    close = np.isfinite(low[short]) & (low[short] >= smallest[short] - 0.1 * np.abs(smallest[short]))
    assert close.mean() > 0.5, close.mean()


@pytest.mark.parametrize("seed", range(2))
def test_turned_cylinder_copies_stay_on_the_facet_path_and_are_exact(seed, monkeypatch):
    """A 512-sided cylinder (Blender-like faces) turned by 1e-4 against itself: M has ~n^2/4 facets near the tilted
    caps, and without the lower bound the walk gave up at its budget for such pairs (1,024 and 8,192 sides: EPA
    went on for 2,000-2,800 expansions); the pruned walk answers, exactly (tests/core/duplicates.py's
    `exact_depth`: every facet normal of A - B from qhull, edge pairs included)."""
    from tests.core.duplicates import exact_depth, near_copy
    vertices, triangles = symmetric_cylinder(512)
    turned = near_copy(vertices, np.random.default_rng([724, seed]), angle=1e-4)
    answers = _on_facet_path(monkeypatch)
    contact = core.collide(ConvexPolytope(vertices, triangles), ConvexPolytope(turned, triangles))
    exact, _, _ = exact_depth(vertices, turned)
    assert answers and answers[-1] is not None
    assert contact.converged and abs(contact.depth - exact) <= 1e-9 * contact.scale, (contact.depth, exact)


def test_past_its_work_budget_the_facet_path_hands_back_to_epa(monkeypatch):
    """The guard: with a work budget too small for the pair, `facet_depth` gives up (None) and EPA goes on to the
    exact answer (qhull's fan-capped 1,024-sided cylinder against its copy, `symmetric_width`)."""
    half = cylinder(1024)[:512, :2]
    ring = np.vstack([half, -half])
    vertices = np.vstack([np.column_stack([ring, -np.ones(1024)]), np.column_stack([ring, np.ones(1024)])])
    triangles = hull_triangles(vertices)
    monkeypatch.setattr(facet_depth_mod, "_WORK_FLOOR", 0)
    monkeypatch.setattr(facet_depth_mod, "_WORK_PER_FACET", 1)
    answers = _on_facet_path(monkeypatch)
    contact = core.collide(ConvexPolytope(vertices, triangles), ConvexPolytope(vertices.copy(), triangles))
    assert answers == [None]
    assert sum(facet_depth_mod._LAST_WORK) > 0
    width = symmetric_width(vertices)
    assert contact.converged and abs(contact.depth - width) <= 1e-9 * contact.scale, (contact.depth, width)
    assert contact.epa_iterations > 300  # EPA went on past the hand-over
