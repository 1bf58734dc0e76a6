#!/usr/bin/env python3
"""Moved meshes (issue 21): each mesh built once, then moved pose by pose, as live mode and the sweep re-check;
ours with a `core.PairHistory` (the query starts from the last one), ours fresh, and python-fcl, per pose.

    .venv/bin/python bench/moved.py [--quick] [--poses N] [--rows NAME,...] [--narrow]

Like bench/mesh.py it re-executes itself in bench/.venv (numpy 2, python-fcl), made by bench/convex.py.

Rows (meshes built and every pose made before any clock starts):
  fcl env/rob: fcl poses    FCL's own mesh benchmark pair (bench/data/fcl: env.obj 2,180 and rob.obj 216 triangles),
                            env placed by FCL's random transform generator (translation uniform in
                            [-3000, 3000] x [-3000, 3000] x [0, 3000], three Euler angles uniform in [0, 2 pi), as
                            in FCL's test_fcl_distance.cpp; our own seeded generator), rob at the identity: every
                            pose a jump
  fcl env/rob: small drag   the same pair, env dragged from a crossing pose of that distribution in small steps
                            (1 % of rob's size and 0.05 degrees about each Euler axis per step), until it leaves rob
  spheres 20k: crossing     two noisy UV spheres of 20,000 triangles (radius 1, every vertex's radius x 1 +- 2 %), B
                            dragged 0.004 per step at a depth of about 0.9
  spheres 20k: apart        the same, B dragged 0.004 per step around A at a gap of 0.02 to 0.06

Per pose (the three measured back to back, so they see the same load):
  ours history  core.collide(a, b.moved(pose), history=h, depth_interval=False), one h for the whole row;
  ours fresh    core.collide(a, b.moved(pose), depth_interval=False);
  fcl           the CollisionObject's transform set, then fcl.collide listing every crossing triangle pair
                (num_max_contacts = 1,000,000, enable_contact) and fcl.distance with the nearest points: the two
                queries closest to our one answer (fcl has no depth for meshes).
Both of ours keep the loose depth interval of an intersecting pose (`depth_interval=False`: verdict, distance,
points, crossing curve, containment and the certified interval), as the one-shot rows against fcl do (bench/mesh.py,
bench/midsize.py): fcl reports no depth for meshes.  `--narrow` measures the narrowed interval instead (the
default of `core.collide`, and of live mode).
Medians in ms per pose; the ratio ours / fcl.  `same` counts the poses whose history answer is bit for bit the
fresh one (status, distance, points, normal, gap, containment, crossing curve); `routes` how the history answered
(crossing: from the last crossing pairs; closest: a descent bounded by the last closest pair; frontier: the last
such descent's leaf pairs, no descent; fresh: the full query).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
DATA = BENCH / "data" / "fcl"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT))

import convex  # noqa: E402  (bench/convex.py: the bench venv and machine info)
from midsize_cases import load_obj  # noqa: E402  (one .obj reader for the bench)

ROWS = ("fcl env/rob: fcl poses", "fcl env/rob: small drag", "spheres 20k: crossing", "spheres 20k: apart")


# ============================================================================================ geometry (numpy)

def euler_matrix(a: float, b: float, c: float):
    """FCL's test utility's Euler angles to a rotation matrix (test/test_fcl_utility.h, `eulerToMatrix`)."""
    import numpy as np
    c1, c2, c3 = math.cos(a), math.cos(b), math.cos(c)
    s1, s2, s3 = math.sin(a), math.sin(b), math.sin(c)
    return np.array([[c1 * c2, -c2 * s1, s2],
                     [c3 * s1 + c1 * s2 * s3, c1 * c3 - s1 * s2 * s3, -c2 * s3],
                     [s1 * s3 - c1 * c3 * s2, c3 * s1 * s2 + c1 * s3, c2 * c3]])


def fcl_poses(rng, count: int, extents=(-3000.0, -3000.0, 0.0, 3000.0, 3000.0, 3000.0)):
    """FCL's `generateRandomTransforms` distribution: translation uniform in the extents box, three Euler angles
    uniform in [0, 2 pi).  4x4 matrices."""
    import numpy as np
    lo, hi = np.array(extents[:3]), np.array(extents[3:])
    out = []
    for _ in range(count):
        m = np.eye(4)
        m[:3, 3] = lo + (hi - lo) * rng.uniform(0.0, 1.0, 3)
        m[:3, :3] = euler_matrix(*rng.uniform(0.0, 2 * math.pi, 3))
        out.append(m)
    return out


def drag_poses(start, count: int, step: float, angle: float, direction):
    """`count` poses from `start`, each `step` further along `direction` and turned `angle` radians more about
    each Euler axis."""
    import numpy as np
    out = []
    for i in range(count):
        m = np.eye(4)
        m[:3, :3] = start[:3, :3] @ euler_matrix(i * angle, i * angle, i * angle)
        m[:3, 3] = start[:3, 3] + i * step * np.asarray(direction, float)
        out.append(m)
    return out


def translations(points):
    import numpy as np
    out = []
    for p in points:
        m = np.eye(4)
        m[:3, 3] = p
        out.append(m)
    return out


def make_row(name: str, quick: bool, poses: int):
    """((va, ta), (vb, tb), poses of B, which side moves: 'a' or 'b')."""
    import numpy as np
    import tri_meshes
    rng = np.random.default_rng([2026, 21, ROWS.index(name)])
    if name.startswith("fcl env/rob"):
        env, rob = load_obj(DATA / "env.obj"), load_obj(DATA / "rob.obj")
        if name.endswith("fcl poses"):
            return env, rob, fcl_poses(rng, poses), "a"
        # a crossing pose of FCL's distribution, then a drag away from rob's centre
        import core
        a, b = core.TriangleMesh(*env), core.TriangleMesh(*rob)
        for start in fcl_poses(rng, 200):
            if core.collide(a.moved(start), b).status.name == "INTERSECTING":
                break
        size = float(np.linalg.norm(rob[0].max(axis=0) - rob[0].min(axis=0)))
        centre = start[:3, :3] @ env[0].mean(axis=0) + start[:3, 3]
        away = centre - rob[0].mean(axis=0)
        away = away / np.linalg.norm(away)
        return env, rob, drag_poses(start, poses, 0.01 * size, math.radians(0.05), away), "a"
    rings = 50 if quick else 100                     # 2 rings^2 triangles each
    a = tri_meshes.noisy_sphere(rings, rings, 0.02, rng)
    b = tri_meshes.noisy_sphere(rings, rings, 0.02, rng)
    s = np.arange(poses)
    if name.endswith("crossing"):
        path = np.stack([1.2 - 0.004 * s, 0.05 + 0.0 * s, 0.02 * np.sin(0.1 * s)], axis=1)
    else:
        t = 0.002 * s
        radius = 2.06 + 0.02 * np.sin(15.0 * t)
        path = np.stack([radius * np.cos(t), radius * np.sin(t), 0.0 * s], axis=1)
    return a, b, translations(path), "b"


# ============================================================================================ one row

def same_answer(c, d) -> bool:
    import numpy as np

    def bits(x):
        return np.ascontiguousarray(np.asarray(x, np.float64)).view(np.uint64)
    return (c.status == d.status and c.containment == d.containment
            and all(np.array_equal(bits(getattr(c, f)), bits(getattr(d, f)))
                    for f in ("distance", "point_a", "point_b", "normal", "gap", "intersection")))


def measure_row(name: str, quick: bool, poses: int, narrow: bool = False) -> dict:
    import numpy as np

    import core
    (va, ta), (vb, tb), placements, moving = make_row(name, quick, poses)
    a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
    core.collide(a, b)  # every lazily built local structure (hierarchies, parts) before the clocks
    row = {"row": name, "tris_a": int(len(ta)), "tris_b": int(len(tb)), "poses": len(placements),
           "depth_interval": "narrowed" if narrow else "loose"}
    try:
        import fcl
    except ImportError as exc:
        fcl = None
        row["fcl_missing"] = str(exc)
    if fcl is not None:
        objs = convex.fcl_mesh_objects(fcl, (va, ta), (vb, tb))
        request = fcl.CollisionRequest(num_max_contacts=1_000_000, enable_contact=True)
        distance_request = fcl.DistanceRequest(enable_nearest_points=True)
    history = core.PairHistory()
    t_hist, t_fresh, t_fcl, routes, same, verdicts, statuses = [], [], [], {}, 0, 0, {}
    for pose in placements:
        pa, pb = (a.moved(pose), b) if moving == "a" else (a, b.moved(pose))
        t0 = time.perf_counter()
        h = core.collide(pa, pb, history=history, depth_interval=narrow)
        t1 = time.perf_counter()
        f = core.collide(pa, pb, depth_interval=narrow)
        t2 = time.perf_counter()
        t_hist.append(t1 - t0)
        t_fresh.append(t2 - t1)
        routes[history.route.value] = routes.get(history.route.value, 0) + 1
        statuses[f.status.name] = statuses.get(f.status.name, 0) + 1
        same += same_answer(h, f)
        if fcl is not None:
            t3 = time.perf_counter()
            objs[0 if moving == "a" else 1].setTransform(fcl.Transform(pose[:3, :3], pose[:3, 3]))
            result = fcl.CollisionResult()
            fcl.collide(objs[0], objs[1], request, result)
            dres = fcl.DistanceResult()
            fcl.distance(objs[0], objs[1], distance_request, dres)
            t_fcl.append(time.perf_counter() - t3)
            verdicts += (f.status.name != "SEPARATED") == bool(result.is_collision)
    row.update(hist_ms=1e3 * statistics.median(t_hist), fresh_ms=1e3 * statistics.median(t_fresh),
               hist_mean_ms=1e3 * statistics.mean(t_hist), routes=routes, same=same, statuses=statuses)
    if t_fcl:
        row.update(fcl_ms=1e3 * statistics.median(t_fcl), verdicts_agree=verdicts)
    return row


# ============================================================================================ table

def table(rows: list[dict]) -> list[str]:
    out = ["| case | triangles A + B | poses | answers (fresh) | ours with history ms | ours fresh ms | fcl ms | "
           "history / fcl | fresh / fcl | history = fresh (bits) | history routes | verdicts as fcl |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['row']} | - | - | {r['error']} | | | | | | | | |")
            continue
        fcl_ms = r.get("fcl_ms")
        ratio = (lambda x: f"{x / fcl_ms:.1f}x") if fcl_ms else (lambda x: "-")
        answers = ", ".join(f"{k.lower()} {v}" for k, v in sorted(r["statuses"].items()))
        routes = ", ".join(f"{k} {v}" for k, v in sorted(r["routes"].items()))
        fcl_cell = f"{fcl_ms:.2f}" if fcl_ms else "-"
        out.append(f"| {r['row']} | {r['tris_a']:,} + {r['tris_b']:,} | {r['poses']} | {answers} | "
                   f"{r['hist_ms']:.2f} | {r['fresh_ms']:.2f} | {fcl_cell} | {ratio(r['hist_ms'])} | "
                   f"{ratio(r['fresh_ms'])} | {r['same']} / {r['poses']} | {routes} | {r.get('verdicts_agree', '-')} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer poses, 5,000-triangle spheres")
    parser.add_argument("--poses", type=int, default=0, help="poses per row (default 100; 20 with --quick)")
    parser.add_argument("--rows", default="", help="comma-separated parts of row names (default: all)")
    parser.add_argument("--here", action="store_true", help="run in this Python (no bench venv, no peer)")
    parser.add_argument("--narrow", action="store_true",
                        help="ours narrow an intersecting pose's depth interval (default: the loose one)")
    args = parser.parse_args()
    if not args.here and not convex.in_bench_venv():
        convex.ensure_venv()
        os.execv(str(convex.VENV_PY), [str(convex.VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    poses = args.poses or (20 if args.quick else 100)
    info = convex.machine_info()
    names = [n for n in ROWS if not args.rows or any(w.strip() in n for w in args.rows.split(","))]
    rows = []
    for name in names:
        print(f"[moved bench] {name} ...", flush=True)
        rows.append(measure_row(name, args.quick, poses, args.narrow))
        print("  " + table(rows[-1:])[-1], flush=True)
        print("ROW " + json.dumps(rows[-1]), flush=True)
    kind = "narrowed" if args.narrow else "loose"
    head = convex.run_header(info)
    head.append(f"- ours: depth_interval={args.narrow} (the {kind} interval of an intersecting pose)")
    print("\n".join(head + [""] + table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
