#!/usr/bin/env python3
"""Convex pairs: our core against python-fcl and coal, side by side, in one run (the first suite of `make bench`).

    .venv/bin/python bench/convex.py [--quick] [--no-bpy] [--no-million]

The script keeps its own venv `bench/.venv` (numpy 2, scipy, and the optional peers python-fcl and coal from
PyPI), installs into it on first use, then re-executes itself there with the repository root on sys.path.
A peer that cannot be installed or imported is reported as missing with the reason; the rest still runs.

What is measured, per family x size x relation (separated / intersecting, seeded poses):
  one-shot   raw float64 world vertex arrays (or primitive dimensions + 4x4 poses) in, full answer out,
             including every preparation the library needs: for peers the convex hull (scipy ConvexHull for
             fcl.Convex, qhull through coal.ConvexBase.convexHull for coal) and the shape/transform objects.
  repeated   shapes prepared once, a new relative pose each call (built from a numpy 4x4 each call, for every
             library), median over many calls. Peers: distance query (signed, nearest points) for separated
             pairs, collision query with one contact (depth, normal, point) for intersecting pairs.
  agreement  max over poses of |our signed distance - peer's| / scale (scale = our Contact.scale), plus the
             number of poses where the verdicts (separated vs colliding) differ.
Times are medians in microseconds; ratio = ours / peer (< 1 means we are faster).

Then a 1,000,000-vertex pair one-shot (ours; peers once each under a time cap), and bench/bpy_check.py (the real
operator on two 1M-vertex meshes in the bpy module) when the add-on zip has been built.
Results are printed and written to bench/results.md.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
VENV = BENCH / ".venv"
VENV_PY = VENV / "bin" / "python"
STAMP = VENV / ".bench-installed.json"
BASE_REQUIREMENTS = ["numpy>=2,<3", "scipy"]
PEER_REQUIREMENTS = {"fcl": "python-fcl", "coal": "coal"}
PEERS = ("fcl", "coal")
PROJECT_PY = ROOT / ".venv" / "bin" / "python"
ADDON_ZIP = ROOT / "dist" / "collision_inspector-0.1.0.zip"


# ============================================================================================ bootstrap (any python)

def _pip(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV_PY), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
                          capture_output=True, text=True)


def ensure_venv() -> None:
    """Create bench/.venv and install numpy 2, scipy and each peer (separately, so one failure spares the rest)."""
    wanted = {"base": BASE_REQUIREMENTS, "peers": PEER_REQUIREMENTS}
    if STAMP.exists():
        try:
            done = json.loads(STAMP.read_text())
            if done.get("wanted") == wanted and all(v == "ok" for v in done.get("status", {}).values()):
                return  # a peer that failed last time is tried again (pip answers fast when it is there)
        except ValueError:
            pass
    if not VENV_PY.exists():
        print(f"[bench] creating {VENV.relative_to(ROOT)}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    status = {}
    print(f"[bench] installing {' '.join(BASE_REQUIREMENTS)} into {VENV.relative_to(ROOT)}", flush=True)
    done = _pip(BASE_REQUIREMENTS)
    if done.returncode != 0:
        raise SystemExit(f"[bench] cannot install {BASE_REQUIREMENTS}: {done.stderr.strip()[-800:]}")
    for peer, requirement in PEER_REQUIREMENTS.items():
        print(f"[bench] installing peer {requirement}", flush=True)
        done = _pip([requirement])
        lines = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("WARNING")]
        status[peer] = "ok" if done.returncode == 0 else f"pip install {requirement} failed: {' | '.join(lines[-3:])}"
    STAMP.write_text(json.dumps({"wanted": wanted, "status": status}, indent=1))


def install_status() -> dict:
    try:
        return json.loads(STAMP.read_text()).get("status", {})
    except (OSError, ValueError):
        return {}


def in_bench_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


# ============================================================================================ machine info

def fcl_mesh_objects(fcl, *meshes) -> list:
    """fcl.CollisionObjects of (vertices, triangles) meshes, each an fcl.BVHModel (fcl's tree build), at identity."""
    import numpy as np
    objects = []
    for vertices, triangles in meshes:
        model = fcl.BVHModel()
        model.beginModel(len(vertices), len(triangles))
        model.addSubModel(np.ascontiguousarray(vertices, float), np.ascontiguousarray(triangles, np.int32))
        model.endModel()
        objects.append(fcl.CollisionObject(model, fcl.Transform()))
    return objects


def run_header(info: dict) -> list:
    """The lines that open a mesh table: the machine, the load before and after the run, python-fcl's version."""
    after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    head = [f"- machine: {info['cpu']}, {info['cores']} cores; python {info['python']}, numpy {info['numpy']}; "
            f"load average before: {info['load_before']}, after: {after}; {info['date']}"]
    try:
        import fcl  # noqa: F401
        from importlib.metadata import version
        head.append(f"- peer: python-fcl {version('python-fcl')}")
    except Exception as exc:  # noqa: BLE001
        head.append(f"- peer fcl missing: {exc}")
    return head


def machine_info() -> dict:
    import numpy as np
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "numpy": np.__version__,
        "os": platform.platform(), "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


# ============================================================================================ geometry

def random_rotation(rng):
    import numpy as np
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def pose(rotation, translation):
    import numpy as np
    m = np.eye(4)
    m[:3, :3] = rotation
    m[:3, 3] = translation
    return m


def unit_vector(rng):
    import numpy as np
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def cloud(kind: str, n: int, rng, radius: float = 1.0):
    """n points uniform in the ball ("ball") or on the sphere ("sphere") of the given radius, float64."""
    import numpy as np
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    if kind == "ball":
        d *= rng.random(n)[:, None] ** (1.0 / 3.0)
    return np.ascontiguousarray(d * radius)


class Case:
    """One benchmark row: two shapes in local frames, and seeded poses of B relative to A (A sits at the identity
    for clouds; primitives get a pose each)."""

    def __init__(self, family: str, n: int | None, relation: str, seed: int, n_poses: int):
        import numpy as np
        self.family, self.n, self.relation = family, n, relation
        self._world = {}
        rng = np.random.default_rng(seed)
        if family in ("ball", "sphere"):
            self.a = cloud(family, n, rng, 1.0)
            self.b = cloud(family, n, rng, rng.uniform(0.6, 1.4))
            ra, rb = (float(np.max(np.linalg.norm(v, axis=1))) for v in (self.a, self.b))
        elif family == "box":
            self.a = rng.uniform(0.3, 1.5, size=3)  # half extents
            self.b = rng.uniform(0.3, 1.5, size=3)
            ra, rb = float(np.linalg.norm(self.a)), float(np.linalg.norm(self.b))
        elif family == "sphere-prim":
            self.a, self.b = float(rng.uniform(0.5, 1.5)), float(rng.uniform(0.5, 1.5))
            ra, rb = self.a, self.b
        elif family == "capsule":
            self.a = (float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.3, 1.2)))  # radius, half height
            self.b = (float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.3, 1.2)))
            ra, rb = sum(self.a), sum(self.b)
        else:
            raise ValueError(family)
        self.poses_a, self.poses_b = [], []
        for _ in range(n_poses):
            pa = np.eye(4) if family in ("ball", "sphere") else pose(random_rotation(rng), rng.normal(size=3))
            u = unit_vector(rng)
            if relation == "separated":   # bounding spheres disjoint: certainly separated
                offset = u * (ra + rb) * rng.uniform(1.05, 1.5)
            else:                         # centres close: (almost surely) intersecting; checked at run time
                offset = u * min(ra, rb) * rng.uniform(0.05, 0.3)
            pb = pose(random_rotation(rng), pa[:3, 3] + offset)
            self.poses_a.append(pa)
            self.poses_b.append(pb)

    @property
    def label(self) -> str:
        name = {"ball": "cloud in ball", "sphere": "cloud on sphere", "box": "box", "sphere-prim": "sphere",
                "capsule": "capsule"}[self.family]
        return name

    def world(self, which: str, i: int):
        """World vertex array of a cloud under pose i (A or B), computed once (before any timing: see warm)."""
        import numpy as np
        key = (which, i)
        if key not in self._world:
            v, p = (self.a, self.poses_a[i]) if which == "a" else (self.b, self.poses_b[i])
            self._world[key] = np.ascontiguousarray(v @ p[:3, :3].T + p[:3, 3])
        return self._world[key]

    def warm(self, n: int) -> None:
        """Compute the world arrays of the first n poses, so that no timed call pays for them."""
        if self.family in ("ball", "sphere"):
            for i in range(n):
                self.world("a", i)
                self.world("b", i)


# ============================================================================================ implementations
# Every adapter returns the signed distance (> 0 separated, < 0 penetration) or None when a collision query
# reports no collision (its depth is then unknown).

class Ours:
    name = "ours"

    def __init__(self, core):
        self.core = core

    def _shape(self, family, spec, transform):
        c = self.core
        if family in ("ball", "sphere"):
            return c.PointCloud(spec, transform=transform)
        if family == "box":
            return c.Box(spec, transform=transform)
        if family == "sphere-prim":
            return c.Sphere(spec, transform=transform)
        return c.Capsule(spec[0], spec[1], transform=transform)

    def oneshot(self, case: Case, i: int):
        if case.family in ("ball", "sphere"):
            return self.core.collide(case.world("a", i), case.world("b", i))
        return self.core.collide(self._shape(case.family, case.a, case.poses_a[i]),
                                 self._shape(case.family, case.b, case.poses_b[i]))

    def prepare(self, case: Case):
        # A fixed at pose 0; B built once, then placed in each new pose with Shape.moved (no re-validation).
        return (self._shape(case.family, case.a, case.poses_a[0]),
                self._shape(case.family, case.b, case.poses_a[0]))

    def query(self, state, case: Case, i: int):
        a, b = state
        return self.core.collide(a, b.moved(case.poses_a[0] @ _relative(case, i)))


def _relative(case: Case, i: int):
    import numpy as np
    return np.linalg.inv(case.poses_a[i]) @ case.poses_b[i]


def _hull(points):
    """Hull vertices and triangles (re-indexed to the hull vertices) with scipy, as fcl.Convex needs faces."""
    import numpy as np
    from scipy.spatial import ConvexHull
    hull = ConvexHull(points)
    used = hull.vertices
    remap = np.full(points.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(used.size)
    return points[used], remap[hull.simplices]


class Fcl:
    """python-fcl at its defaults. Variant `signed_distance=True` ("fcl-sd"): the signed-distance query on
    intersecting pairs too, instead of `collide` with a contact (fcl's accurate penetration path)."""

    def __init__(self, fcl, signed_distance: bool = False):
        self.fcl = fcl
        self.signed_distance = signed_distance
        self.name = "fcl-sd" if signed_distance else "fcl"

    def _geometry(self, family, spec):
        import numpy as np
        fcl = self.fcl
        if family in ("ball", "sphere"):
            verts, tris = _hull(spec)
            faces = np.hstack([np.full((tris.shape[0], 1), 3), tris]).ravel()
            return fcl.Convex(verts, tris.shape[0], faces)
        if family == "box":
            return fcl.Box(*(2.0 * spec))
        if family == "sphere-prim":
            return fcl.Sphere(spec)
        return fcl.Capsule(spec[0], 2.0 * spec[1])

    def _tf(self, m):
        return self.fcl.Transform(m[:3, :3], m[:3, 3])

    def _query(self, oa, ob, relation):
        fcl = self.fcl
        if relation == "separated" or self.signed_distance:
            req = fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True)
            res = fcl.DistanceResult()
            fcl.distance(oa, ob, req, res)
            return float(res.min_distance), res
        req = fcl.CollisionRequest(num_max_contacts=1, enable_contact=True)
        res = fcl.CollisionResult()
        if fcl.collide(oa, ob, req, res) and res.contacts:
            c = res.contacts[0]
            return -float(c.penetration_depth), res
        return None, res

    def oneshot(self, case: Case, i: int):
        fcl = self.fcl
        if case.family in ("ball", "sphere"):
            oa = fcl.CollisionObject(self._geometry(case.family, case.world("a", i)), fcl.Transform())
            ob = fcl.CollisionObject(self._geometry(case.family, case.world("b", i)), fcl.Transform())
        else:
            oa = fcl.CollisionObject(self._geometry(case.family, case.a), self._tf(case.poses_a[i]))
            ob = fcl.CollisionObject(self._geometry(case.family, case.b), self._tf(case.poses_b[i]))
        return self._query(oa, ob, case.relation)[0]

    def prepare(self, case: Case):
        fcl = self.fcl
        oa = fcl.CollisionObject(self._geometry(case.family, case.a), self._tf(case.poses_a[0]))
        ob = fcl.CollisionObject(self._geometry(case.family, case.b), fcl.Transform())
        return oa, ob

    def query(self, state, case: Case, i: int):
        oa, ob = state
        ob.setTransform(self._tf(case.poses_a[0] @ _relative(case, i)))
        return self._query(oa, ob, case.relation)[0]


class Coal:
    """coal at its defaults. Variant `epa_max_iterations=1000` ("coal-epa1000"): its EPA cap raised from the
    default 64, which is what truncates its depths on hulls of a few hundred vertices and more."""

    def __init__(self, coal, epa_max_iterations: int | None = None):
        self.coal = coal
        self.epa_max_iterations = epa_max_iterations
        self.name = f"coal-epa{epa_max_iterations}" if epa_max_iterations else "coal"

    def _geometry(self, family, spec):
        coal = self.coal
        if family in ("ball", "sphere"):
            points = coal.StdVec_Vec3s()
            points.extend(list(spec))
            return coal.ConvexBase.convexHull(points, False, None)
        if family == "box":
            return coal.Box(*(2.0 * spec))
        if family == "sphere-prim":
            return coal.Sphere(spec)
        return coal.Capsule(spec[0], 2.0 * spec[1])

    def _tf(self, m):
        import numpy as np
        return self.coal.Transform3s(np.ascontiguousarray(m[:3, :3]), np.ascontiguousarray(m[:3, 3]))

    def _query(self, ga, ta, gb, tb, relation):
        coal = self.coal
        if relation == "separated":
            req = coal.DistanceRequest()
            req.enable_signed_distance = True  # nearest points are always computed by coal 3
            res = coal.DistanceResult()
            coal.distance(ga, ta, gb, tb, req, res)
            return float(res.min_distance)
        req = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
        if self.epa_max_iterations:
            req.epa_max_iterations = self.epa_max_iterations
        res = coal.CollisionResult()
        if coal.collide(ga, ta, gb, tb, req, res) and res.numContacts():
            return float(res.getContact(0).penetration_depth)  # coal's depth is signed (negative)
        return None

    def oneshot(self, case: Case, i: int):
        coal = self.coal
        if case.family in ("ball", "sphere"):
            return self._query(self._geometry(case.family, case.world("a", i)), coal.Transform3s(),
                               self._geometry(case.family, case.world("b", i)), coal.Transform3s(), case.relation)
        return self._query(self._geometry(case.family, case.a), self._tf(case.poses_a[i]),
                           self._geometry(case.family, case.b), self._tf(case.poses_b[i]), case.relation)

    def prepare(self, case: Case):
        return (self._geometry(case.family, case.a), self._tf(case.poses_a[0]), self._geometry(case.family, case.b))

    def query(self, state, case: Case, i: int):
        ga, ta, gb = state
        return self._query(ga, ta, gb, self._tf(case.poses_a[0] @ _relative(case, i)), case.relation)


def signed(result) -> float | None:
    """Signed distance of any adapter's answer (our Contact or a peer's float/None)."""
    if result is None:
        return None
    return float(getattr(result, "distance", result))


# ============================================================================================ independent oracle
# Exact signed distances that use neither our engine nor a peer, where they are cheap to get:
# - two polytopes, intersecting: the penetration depth is the distance from the origin to the nearest facet plane
#   of the Minkowski difference A - B (its hull by scipy/qhull over all n_a x n_b vertex differences);
# - two spheres: |c_b - c_a| - r_a - r_b;  two capsules: segment-segment distance - r_a - r_b (exact in both
#   relations: when the segments cross, the depth is r_a + r_b).

ORACLE_MAX_PAIRS = 1_100_000  # Minkowski-difference points per pose (1024 x 1024 still fits)


def _box_vertices(half, m):
    import numpy as np
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return (signs * half) @ m[:3, :3].T + m[:3, 3]


def _segment_distance(p0, p1, q0, q1) -> float:
    """Exact distance between segments p0p1 and q0q1: the minimum of a convex quadratic on [0,1]^2 is at the
    interior stationary point or on one of the four edges (each a clamped 1-D projection)."""
    import numpy as np
    u, v, w = p1 - p0, q1 - q0, p0 - q0
    a, b, c, d, e = u @ u, u @ v, v @ v, u @ w, v @ w

    def dist(s, t):
        return float(np.linalg.norm(w + s * u - t * v))

    def clamp(x):
        return min(1.0, max(0.0, x))

    best = []
    den = a * c - b * b
    if den > 1e-14 * a * c:
        s, t = (b * e - c * d) / den, (a * e - b * d) / den
        if 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0:
            best.append(dist(s, t))
    for s in (0.0, 1.0):  # t minimising |w + s u - t v|
        best.append(dist(s, clamp((e + s * b) / c) if c > 0 else 0.0))
    for t in (0.0, 1.0):
        best.append(dist(clamp((t * b - d) / a) if a > 0 else 0.0, t))
    return min(best)


def oracle(case: "Case", i: int) -> float | None:
    """Exact signed distance of pose i, or None where no cheap independent answer exists."""
    import numpy as np
    if case.family == "sphere-prim":
        return float(np.linalg.norm(case.poses_b[i][:3, 3] - case.poses_a[i][:3, 3])) - case.a - case.b
    if case.family == "capsule":
        ends = []
        for (r, h), m in ((case.a, case.poses_a[i]), (case.b, case.poses_b[i])):
            ends.append((m[:3, :3] @ [0, 0, -h] + m[:3, 3], m[:3, :3] @ [0, 0, h] + m[:3, 3]))
        return _segment_distance(*ends[0], *ends[1]) - case.a[0] - case.b[0]
    if case.relation != "intersecting":
        return None
    if case.family == "box":
        a, b = _box_vertices(case.a, case.poses_a[i]), _box_vertices(case.b, case.poses_b[i])
    else:
        if case.n * case.n > ORACLE_MAX_PAIRS:
            return None
        a, b = case.world("a", i), case.world("b", i)
    from scipy.spatial import ConvexHull
    diff = (a[:, None, :] - b[None, :, :]).reshape(-1, 3)
    hull = ConvexHull(diff)
    offsets = -hull.equations[:, 3]  # unit outward normals: n.x + offset <= 0 inside
    if offsets.min() < 0.0:
        return None  # origin outside A - B: not intersecting after all (no depth to compare)
    return -float(offsets.min())


# ============================================================================================ timing

def time_calls(fn, n_inputs: int, budget: float, max_calls: int):
    """Call fn(i) for i = 0, 1, ... (cycling over n_inputs), at least once per input, then until the time budget is
    spent. Returns (median microseconds, first result per input). One untimed warm-up call."""
    fn(0)
    gc.collect()
    times, results = [], []
    start = time.perf_counter()
    k = 0
    while k < max_calls and (k < n_inputs or time.perf_counter() - start < budget):
        i = k % n_inputs
        t0 = time.perf_counter_ns()
        r = fn(i)
        t1 = time.perf_counter_ns()
        times.append(t1 - t0)
        if k < n_inputs:
            results.append(r)
        k += 1
    return statistics.median(times) / 1000.0, results, len(times)


# ============================================================================================ main run

def fmt_us(x) -> str:
    if x is None:
        return "-"
    if x >= 100_000:
        return f"{x / 1000:,.0f} ms"
    if x >= 10_000:
        return f"{x / 1000:,.1f} ms"
    return f"{x:,.1f}"


def fmt_ratio(a, b) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}"


def fmt_err(x) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    return f"{x:.0e}"


def load_peers(status: dict):
    peers, missing = [], {}
    for name, cls in (("fcl", Fcl), ("coal", Coal)):
        if status.get(name, "ok") != "ok":
            missing[name] = status[name]
            continue
        try:
            module = __import__(name)
            peers.append(cls(module))
            peers.append(cls(module, True) if name == "fcl" else cls(module, 1000))  # intersecting rows only
        except Exception as exc:  # noqa: BLE001 - any import failure is reported, not fatal
            missing[name] = f"import {name} failed: {type(exc).__name__}: {exc}"
    return peers, missing


VARIANTS = ("fcl-sd", "coal-epa1000")  # only differ from the defaults on intersecting rows


def run_case(case: Case, impls, n_repeat_poses: int, budget: float, quick: bool):
    """Time one row for every implementation; return a dict of medians, agreement and status counts."""
    if case.relation == "separated":
        impls = [impl for impl in impls if impl.name not in VARIANTS]
    row = {"family": case.label, "n": case.n, "relation": case.relation, "oneshot": {}, "repeated": {},
           "agree": {}, "mismatch": {}, "calls": {}, "oracle": {}}
    answers, raw = {}, {}
    n_one = len(case.poses_b) if not n_repeat_poses else min(5, len(case.poses_b))
    case.warm(n_one)
    for impl in impls:
        us, results, calls = time_calls(lambda i: impl.oneshot(case, i), n_one, budget, 500)
        row["oneshot"][impl.name] = us
        row["calls"][impl.name] = calls
        answers[impl.name] = [signed(r) for r in results]
        raw[impl.name] = results
        if impl.name == "ours":
            row["status"] = {}
            for r in results:
                row["status"][r.status.name] = row["status"].get(r.status.name, 0) + 1
        state = impl.prepare(case)
        us, results, _ = time_calls(lambda i: impl.query(state, case, i), len(case.poses_b), budget,
                                    200 if quick else 5000)
        row["repeated"][impl.name] = us
        answers[impl.name + "@rep"] = [signed(r) for r in results]
        raw[impl.name + "@rep"] = results
    scales = {"": [], "@rep": []}
    for suffix in scales:
        scales[suffix] = [r.scale for r in raw["ours" + suffix]]
    n_oracle = n_one if (case.n or 0) <= 256 else 1
    exact = [oracle(case, i) for i in range(n_oracle)]
    for impl in impls:
        worst = None
        for k, truth in enumerate(exact):
            theirs = answers[impl.name][k]
            if truth is None:
                continue
            err = math.inf if theirs is None else abs(theirs - truth) / scales[""][k]
            worst = err if worst is None else max(worst, err)
        row["oracle"][impl.name] = worst
    pairs = [(impl.name, "ours") for impl in impls if impl.name != "ours"]
    names = [impl.name for impl in impls]
    if "fcl" in names and "coal" in names:
        pairs.append(("coal", "fcl"))  # peer against peer: a wrong fast peer shows here too
    for theirs_name, mine_name in pairs:
        worst, mismatches = 0.0, 0
        for suffix in ("", "@rep"):
            for k, (mine, theirs) in enumerate(zip(answers[mine_name + suffix], answers[theirs_name + suffix])):
                scale = scales[suffix][k]
                # None = a collision query that found no collision: verdict "not colliding", no value.
                known = [x for x in (mine, theirs) if x is not None]
                colliding = [x is not None and x <= 0.0 for x in (mine, theirs)]
                if colliding[0] != colliding[1] and all(abs(x) > 1e-9 * scale for x in known):
                    mismatches += 1
                if len(known) == 2:
                    worst = max(worst, abs(mine - theirs) / scale)
        key = theirs_name if mine_name == "ours" else f"{theirs_name}~{mine_name}"
        row["agree"][key] = worst
        row["mismatch"][key] = mismatches
    return row


def families(quick: bool):
    sizes = [8, 32, 64, 256, 1024, 2048, 10000]
    if quick:
        sizes = [8, 64, 1024]
    out = []
    for family in ("ball", "sphere"):
        for n in sizes:
            out.append((family, n))
    out += [("box", None), ("sphere-prim", None), ("capsule", None)]
    return out


def table(rows, peer_names, key: str, title: str) -> list[str]:
    """Median times side by side, with ours/peer ratios."""
    head = ["family", "n", "relation", "ours µs"] + [f"{p} µs" for p in peer_names] + \
           [f"ours/{p}" for p in peer_names]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        ours = r[key].get("ours")
        cells = [r["family"], str(r["n"] or "-"), r["relation"], fmt_us(ours)]
        cells += [fmt_us(r[key].get(p)) for p in peer_names]
        cells += [fmt_ratio(ours, r[key].get(p)) for p in peer_names]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def accuracy_table(rows, peer_names) -> list[str]:
    """Agreement with ours (and peer against peer), and the error against the exact answer where there is one."""
    agree_keys = []
    for r in rows:
        for k in r["agree"]:
            if k not in agree_keys:
                agree_keys.append(k)
    head = ["family", "n", "relation"] + [f"{k.replace('~', ' vs ')}" for k in agree_keys] + \
           ["exact: " + ", ".join(["ours"] + peer_names), "our verdicts"]
    lines = ["### Accuracy: max |signed distance difference| / scale", "",
             "Columns named after a peer compare it with ours; `coal vs fcl` compares the two peers. "
             "`exact` lists the error against an independent exact answer for each library in turn "
             "(inf: the library reported no collision; -: not checkable or not run).", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["family"], str(r["n"] or "-"), r["relation"]]
        for k in agree_keys:
            if k in r["agree"]:
                mm = r["mismatch"][k]
                cells.append(fmt_err(r["agree"][k]) + (f" ({mm} verdict diff)" if mm else ""))
            else:
                cells.append("-")
        errs = [r["oracle"].get(p) for p in ["ours"] + peer_names]
        cells.append("-" if all(e is None for e in errs) else ", ".join(fmt_err(e) for e in errs))
        cells.append(", ".join(f"{v} {k.lower()}" for k, v in sorted(r.get("status", {}).items())))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def million(core, peers, quick: bool, times_out: dict) -> list[str]:
    """1,000,000-vertex pairs, one-shot, ours (median of 3) and each peer once in a subprocess with a time cap."""
    lines = ["### 1,000,000-vertex pair, one-shot (target <= 1 s for ours)", "",
             "| family | relation | ours | " + " | ".join(peers) + " | our verdict |",
             "|---|---|---|" + "---|" * len(peers) + "---|"]
    n = 100_000 if quick else 1_000_000
    for family in ("ball", "sphere"):
        for relation in ("separated", "intersecting"):
            case = Case(family, n, relation, seed=7, n_poses=1)
            a, b = case.world("a", 0), case.world("b", 0)
            times = []
            for _ in range(3):
                gc.collect()
                t0 = time.perf_counter()
                c = core.collide(a, b)
                times.append(time.perf_counter() - t0)
            times_out[f"{case.label} {relation}"] = statistics.median(times)
            cells = [case.label, relation, f"{statistics.median(times):.3f} s"]
            for p in peers:
                cells.append(_peer_million(p, family, relation, n))
            cells.append(f"{c.status.name.lower()} d={c.distance:.6g}")
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    return lines


def _peer_million(peer: str, family: str, relation: str, n: int, cap: float = 20.0) -> str:
    code = ("import sys, time; sys.path[:0] = [%r, %r]; import convex; import %s as m; "
            "case = convex.Case(%r, %d, %r, seed=7, n_poses=1); impl = convex.%s(m); "
            "case.warm(1); t0 = time.perf_counter(); impl.oneshot(case, 0); print(time.perf_counter() - t0)"
            % (str(BENCH), str(ROOT), peer, family, n, relation, "Fcl" if peer == "fcl" else "Coal"))
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return f"> {cap:.0f} s (capped)"
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:80]
    return f"{float(done.stdout.strip().splitlines()[-1]):.3f} s"


def bpy_part(skip: bool) -> list[str]:
    lines = ["### Blender: `bpy.ops.collision.check()` on two 1,000,000-vertex meshes (target < 2 s)", ""]
    if skip:
        return lines + ["skipped (--no-bpy)"]
    if not PROJECT_PY.exists():
        return lines + ["skipped: the project venv .venv (bpy) is missing (run `make venv`)"]
    builder = ROOT / "scripts" / "build_extension.py"
    if builder.exists() and (ROOT / "blender_manifest.toml").exists():
        # Rebuild the zip so that the check measures the add-on as it is now, not a stale build.
        done = subprocess.run([str(PROJECT_PY), str(builder)], capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            why = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["?"]
            lines.append(f"note: rebuilding the zip failed ({why[0][:200]}); using the existing one if any")
    if not ADDON_ZIP.exists():
        return lines + [f"skipped: the add-on zip {ADDON_ZIP.relative_to(ROOT)} is not built yet (run `make build`)"]
    print("[bench] running bench/bpy_check.py in the project venv", flush=True)
    done = subprocess.run([str(PROJECT_PY), str(BENCH / "bpy_check.py")], capture_output=True, text=True,
                          timeout=900)
    out = [line for line in done.stdout.splitlines() if line.startswith("|") or line.startswith("RESULT")]
    if done.returncode != 0:
        tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-5:]
        return lines + out + ["bpy_check.py failed:", "```", *tail, "```"]
    return lines + out


def targets(rows, million_times: dict) -> list[str]:
    """The issue's targets, judged on this run's numbers (clouds only; primitives have no target)."""
    out = ["### Targets (judged on this run, against the peers at their defaults: fcl, coal)", ""]
    big_ok, big_total, small_ok, small_total, rep_ok, rep_total = 0, 0, 0, 0, 0, 0
    misses_big, misses_small, misses_rep = [], [], []
    for r in rows:
        if r["n"] is None:
            continue
        peers = [v for k, v in r["oneshot"].items() if k in ("fcl", "coal")]  # the peers at their defaults
        ours = r["oneshot"]["ours"]
        label = f"{r['family']} {r['n']} {r['relation']}"
        if peers:
            fastest = min(peers)
            if r["n"] >= 256:
                big_total += 1
                if ours <= fastest:
                    big_ok += 1
                else:
                    misses_big.append(f"{label} ({ours / fastest:.2f}x)")
            else:
                small_total += 1
                if ours <= 2.0 * fastest:
                    small_ok += 1
                else:
                    misses_small.append(f"{label} ({ours / fastest:.2f}x)")
        if r["n"] <= 256:
            rep_total += 1
            if r["repeated"]["ours"] <= 100.0:
                rep_ok += 1
            else:
                misses_rep.append(f"{label} ({fmt_us(r['repeated']['ours'])} µs)")
    out.append(f"- one-shot no slower than the fastest peer for >= 256 vertices: {big_ok}/{big_total} rows"
               + (f"; missed: {', '.join(misses_big)}" if misses_big else ""))
    out.append(f"- one-shot within 2x of the fastest peer below 256 vertices: {small_ok}/{small_total} rows"
               + (f"; missed: {', '.join(misses_small)}" if misses_small else ""))
    out.append(f"- repeated-query median <= 100 µs up to 256 vertices: {rep_ok}/{rep_total} rows"
               + (f"; missed: {', '.join(misses_rep)}" if misses_rep else ""))
    if million_times:
        worst = max(million_times.values())
        out.append(f"- 1,000,000-vertex one-shot <= 1 s: {'met' if worst <= 1.0 else 'MISSED'} (slowest "
                   f"{worst:.3f} s: {max(million_times, key=million_times.get)})")
    return out


def measure(args) -> None:
    sys.path.insert(0, str(ROOT))
    info = machine_info()
    peers, missing = load_peers(install_status())
    try:
        import core
    except Exception as exc:  # noqa: BLE001
        raise SystemExit(f"[bench] cannot import core ({type(exc).__name__}: {exc}); nothing to measure")
    impls = [Ours(core)] + peers
    peer_names = [p.name for p in peers]
    out = ["# Benchmark results (written by bench/convex.py)", "",
           f"- machine: {info['cpu']}, {info['cores']} cores; {info['os']}",
           f"- python {info['python']}, numpy {info['numpy']} (bench/.venv); load average before the run: "
           f"{info['load_before']}; {info['date']}"]
    for p in peers:
        if p.name in VARIANTS:
            continue
        mod = sys.modules[p.name]
        out.append(f"- peer {p.name}: {getattr(mod, '__version__', '?')}")  # no install path: it names this machine
    for name, why in missing.items():
        out.append(f"- peer {name}: MISSING ({why})")
    print("\n".join(out), flush=True)
    rows = []
    budget = 0.05 if args.quick else 0.4
    n_poses = 20 if args.quick else 100
    seed = 1000
    for family, n in families(args.quick):
        for relation in ("separated", "intersecting"):
            seed += 1
            case = Case(family, n, relation, seed=seed, n_poses=n_poses)
            t0 = time.perf_counter()
            row = run_case(case, impls, n_poses, budget, args.quick)
            rows.append(row)
            print(f"[bench] {row['family']:>15} n={str(n):>6} {relation:>12}: one-shot "
                  + "  ".join(f"{k}={fmt_us(v)}" for k, v in row["oneshot"].items()) + " | repeated "
                  + "  ".join(f"{k}={fmt_us(v)}" for k, v in row["repeated"].items())
                  + f" | agree {row['agree']} exact {row['oracle']} verdicts {row.get('status')} ({time.perf_counter() - t0:.1f} s)",
                  flush=True)
    out += ["", "Times are medians in µs (ms where marked); ratio = ours / peer, below 1 means ours is faster. "
            "fcl and coal run at their defaults; on intersecting rows two variants run too: fcl-sd (fcl's "
            "signed-distance query instead of collide) and coal-epa1000 (coal's EPA cap raised from 64 to 1000). "
            "Accuracy: max over all the row's poses (one-shot and repeated) of |difference| / scale, with the "
            "count of poses whose verdicts differ; exact = against an independent exact answer on the one-shot "
            "poses where one is cheap (Minkowski-difference hull for intersecting polytopes up to 1024 vertices, "
            "analytic spheres and capsules).", ""]
    out += table(rows, peer_names, "oneshot", "One-shot: raw arrays in, full answer out (preparation included)")
    out += [""] + table(rows, peer_names, "repeated", "Repeated query on prepared shapes, new pose per call")
    out += [""] + accuracy_table(rows, peer_names)
    million_times = {}
    if not args.no_million:
        out += [""] + million(core, [p for p in peer_names if p not in VARIANTS], args.quick, million_times)
    bpy_lines = bpy_part(args.no_bpy)
    out += [""] + bpy_lines
    out += [""] + targets(rows, million_times if not args.quick else {})
    verdict = [line for line in bpy_lines if line.startswith("RESULT")]
    if verdict:
        out.append("- bpy check of two 1M-vertex meshes < 2 s: " + verdict[0][len("RESULT "):])
    out += ["", f"load average after the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"]
    text = "\n".join(out) + "\n"
    print("\n" + text)
    if not args.quick:
        (BENCH / "results.md").write_text(text)
        (BENCH / "results.json").write_text(json.dumps({"machine": info, "rows": rows, "missing": missing},
                                                       indent=1, default=str))
        print("[bench] wrote bench/results.md and bench/results.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few sizes, short budgets, 100k instead of 1M "
                        "(a smoke test of the harness; results are not written)")
    parser.add_argument("--no-bpy", action="store_true", help="skip bench/bpy_check.py")
    parser.add_argument("--no-million", action="store_true", help="skip the 1,000,000-vertex pairs")
    args = parser.parse_args()
    if not in_bench_venv():
        ensure_venv()
        os.execv(str(VENV_PY), [str(VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    measure(args)


if __name__ == "__main__":
    main()
