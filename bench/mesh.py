#!/usr/bin/env python3
"""Mesh-mesh benchmark (issue 9): our exact TriangleMesh query against python-fcl's BVH mesh-mesh, one-shot.

    .venv/bin/python bench/mesh.py [--quick] [--budget SECONDS] [--rows NAME,...]

Like bench/convex.py it re-executes itself in bench/.venv (numpy 2, python-fcl), made by convex.py's bootstrap.

Rows (about 100,000 triangles per mesh; seeded; built before any clock starts):
  spheres separated / intersecting   two noisy UV spheres (every vertex's radius x 1 +- 1 %), 0.1 apart / deep
  rod through torus, off-centre      a closed rod through a torus's hole, its axis 0.2 off the torus's axis
  rod through torus, on the axis     the same rod exactly on the axis: every triangle around the ring ties
  pipe in a sleeve                   a closed pipe inside a thick closed sleeve, coaxial, 1e-3 apart all along
  panel on a wall                    two open parallel grids 1e-3 apart, one shifted by half a cell

One-shot = arrays in, full answer out, every preparation included:
  ours  core.TriangleMesh(vertices, triangles) for both meshes + core.collide(a, b, depth_interval=False)
        (status, signed distance, points, containment, crossing curve, the loose depth interval; the narrowed
        interval's cost is bench/depth.py's);
  fcl   fcl.BVHModel for both (beginModel / addSubModel / endModel: its tree build) + CollisionObjects, then
        fcl.collide (one contact) and fcl.distance (nearest points): FCL answers "do they meet" and "how far"
        in two queries and has no depth for meshes; its total is build + collide + distance.
Each row runs in its own subprocess with a time budget (default 300 s for our query); times are medians of up to
3 runs (1 when a run takes over 5 s).  Agreement: |our distance - fcl's distance| / scale on separated rows, and
whether the two verdicts (meet / apart) agree.  Results are printed and written to bench/mesh_results.md.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT))

import convex  # noqa: E402  (bench/convex.py: the bench venv and machine info)

ROWS = ("spheres separated", "spheres intersecting", "rod through torus, off-centre",
        "rod through torus, on the axis", "pipe in a sleeve", "panel on a wall")
OUT = BENCH / "mesh_results.md"


# ============================================================================================ geometry (numpy)

def revolve(r, z, n: int, phase: float = 0.0):
    """Closed surface of revolution of the profile polyline (r[k], z[k]) about z, n segments around.

    The profile is closed back to its first point; a point with r == 0 at either end becomes a pole."""
    import numpy as np
    r, z = np.asarray(r, float), np.asarray(z, float)
    ang = phase + 2 * np.pi * np.arange(n) / n
    verts, ring_index = [], []
    count = 0
    for rk, zk in zip(r, z):
        if rk == 0.0:
            verts.append([[0.0, 0.0, zk]])
            ring_index.append(np.full(n, count))
            count += 1
        else:
            verts.append(np.stack([rk * np.cos(ang), rk * np.sin(ang), np.full(n, zk)], 1))
            ring_index.append(count + np.arange(n))
            count += n
    tris = []
    k = len(r)
    for i in range(k):
        p, q = ring_index[i], ring_index[(i + 1) % k]
        if r[i] == 0.0 and r[(i + 1) % k] == 0.0:
            continue
        p1, q1 = np.roll(p, -1), np.roll(q, -1)
        if r[i] != 0.0:
            tris.append(np.stack([p, p1, q1], 1))
        if r[(i + 1) % k] != 0.0:
            tris.append(np.stack([p, q1, q], 1))
    v = np.concatenate(verts)
    t = np.concatenate(tris)
    tri = v[t]
    if np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() < 0:
        t = t[:, ::-1]
    return v, np.ascontiguousarray(t, dtype=np.int64)


def noisy_sphere(rng, radius: float, n: int, rings: int, noise: float):
    import numpy as np
    th = np.pi * np.arange(rings + 1) / rings
    r, z = radius * np.sin(th), -radius * np.cos(th)
    r[0] = r[-1] = 0.0
    v, t = revolve(r, z, n)
    return v * (1.0 + noise * rng.uniform(-1, 1, len(v)))[:, None], t


def torus(major: float, minor: float, n: int, m: int):
    import numpy as np
    phi = 2 * np.pi * np.arange(m) / m
    return revolve(major + minor * np.cos(phi), minor * np.sin(phi), n)


def rod(radius: float, half: float, n: int, k: int):
    """Closed cylinder along z, the side split into k bands."""
    import numpy as np
    zs = np.linspace(-half, half, k + 1)
    r = np.concatenate([[0.0], np.full(k + 1, radius), [0.0]])
    z = np.concatenate([[-half], zs, [half]])
    return revolve(r, z, n)


def sleeve(inner: float, outer: float, half: float, n: int, k: int):
    """Closed thick tube (inner and outer walls, flat annular ends), each wall split into k bands."""
    import numpy as np
    zs = np.linspace(-half, half, k + 1)
    r = np.concatenate([np.full(k + 1, outer), np.full(k + 1, inner)])
    z = np.concatenate([zs, zs[::-1]])
    return revolve(r, z, n)


def grid(size: float, n: int, z: float, shift: float = 0.0):
    import numpy as np
    s = np.linspace(-size, size, n + 1)
    x, y = np.meshgrid(s + shift, s + shift, indexing="ij")
    v = np.stack([x.ravel(), y.ravel(), np.full(x.size, z)], 1)
    idx = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c, d = idx[:-1, :-1].ravel(), idx[1:, :-1].ravel(), idx[1:, 1:].ravel(), idx[:-1, 1:].ravel()
    return v, np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])


def make_row(name: str, quick: bool):
    """(A, B) as ((vertices, triangles), (vertices, triangles)) in world space."""
    import numpy as np
    rng = np.random.default_rng([2026, ROWS.index(name)])
    f = 0.2 if quick else 1.0           # quick: about 20,000 triangles per mesh
    s = math.sqrt(f)
    if name.startswith("spheres"):
        n, rings = int(250 * s), int(200 * s) + 1              # 2 n (rings - 1) = 100,000 triangles
        a = noisy_sphere(rng, 1.0, n, rings, 0.01)
        b = noisy_sphere(rng, 1.0, n, rings, 0.01)
        rot = convex.random_rotation(rng)
        offset = 2.12 if name.endswith("separated") else 1.4
        return a, (b[0] @ rot.T + offset * convex.unit_vector(rng), b[1])
    if name.startswith("rod"):
        tor = torus(1.0, 0.25, int(500 * s), int(100 * s))    # 2 n m = 100,000 triangles
        r = rod(0.25, 1.5, int(500 * s), int(99 * s))         # 2 n k + 2 n = 100,000 triangles
        e = 0.0 if name.endswith("axis") else 0.2
        return (r[0] + [e, 0.0, 0.0], r[1]), tor
    if name == "pipe in a sleeve":
        p = rod(1.0, 10.0, int(500 * s), int(99 * s))
        q = sleeve(1.001, 1.2, 5.0, int(500 * s), int(49 * s))  # 2 n (2 k + 2) = 100,000 triangles
        return p, q
    if name == "panel on a wall":
        n = int(224 * s)                                        # 2 n^2 = 100,352 triangles
        return grid(5.0, n, 0.0), grid(5.0, n, 1e-3, shift=5.0 / n)
    raise ValueError(name)


# ============================================================================================ one row (child)

def _median_time(fn, cap_repeat: float = 5.0, repeat: int = 3):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > cap_repeat:
            break
    return statistics.median(times), out


def measure_row(name: str, quick: bool) -> dict:
    import numpy as np

    import core
    (va, ta), (vb, tb) = make_row(name, quick)
    row = {"row": name, "tris_a": int(len(ta)), "tris_b": int(len(tb))}

    def ours():
        a, b = core.TriangleMesh(va, ta), core.TriangleMesh(vb, tb)
        return core.collide(a, b, depth_interval=False)

    row["ours_s"], c = _median_time(ours)
    row.update(status=c.status.name, distance=float(c.distance), scale=float(c.scale),
               containment=None if c.containment is None else c.containment.name,
               segments=int(len(c.intersection)), gap=float(c.gap), converged=bool(c.converged))
    try:
        import fcl
    except ImportError as exc:
        row["fcl_missing"] = str(exc)
        return row

    def build():
        return convex.fcl_mesh_objects(fcl, (va, ta), (vb, tb))

    def collide(objs):
        res = fcl.CollisionResult()
        fcl.collide(objs[0], objs[1], fcl.CollisionRequest(num_max_contacts=1, enable_contact=True), res)
        return bool(res.is_collision)

    def distance(objs):
        res = fcl.DistanceResult()
        fcl.distance(objs[0], objs[1], fcl.DistanceRequest(enable_nearest_points=True), res)
        return float(res.min_distance)

    def full():
        t0 = time.perf_counter()
        objs = build()
        t1 = time.perf_counter()
        hit = collide(objs)
        t2 = time.perf_counter()
        d = distance(objs)
        t3 = time.perf_counter()
        return t1 - t0, t2 - t1, t3 - t2, hit, d

    runs = [full() for _ in range(3)]
    row["fcl_build_s"] = statistics.median(r[0] for r in runs)
    row["fcl_collide_s"] = statistics.median(r[1] for r in runs)
    row["fcl_distance_s"] = statistics.median(r[2] for r in runs)
    row["fcl_total_s"] = statistics.median(r[0] + r[1] + r[2] for r in runs)
    row["fcl_hit"], row["fcl_distance"] = runs[0][3], runs[0][4]
    row["verdicts_agree"] = (c.status.name != "SEPARATED") == row["fcl_hit"]
    if c.status.name == "SEPARATED" and not row["fcl_hit"]:
        row["agreement"] = abs(c.distance - row["fcl_distance"]) / c.scale
    return row


# ============================================================================================ table (parent)

def _fmt_s(x) -> str:
    if x is None:
        return "-"
    return f"{x * 1e3:.1f} ms" if x < 1.0 else f"{x:.2f} s"


def table(rows: list[dict]) -> list[str]:
    out = ["| case | triangles A + B | our verdict | ours one-shot | fcl build | fcl collide | fcl distance | "
           "fcl total | ours / fcl | agreement (x scale) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['row']} | - | {r['error']} | - | - | - | - | - | - | - |")
            continue
        verdict = r["status"] + (f" ({r['containment']})" if r.get("containment") else "")
        verdict += f", d = {r['distance']:.6g}"
        if r["status"] == "INTERSECTING" and r.get("gap", 0.0) > 0.0:
            depth = -r["distance"]
            verdict += f" (separating translation in [{depth:.3g}, {depth + r['gap']:.3g}])"
        elif r.get("gap", 0.0) > 0.0 or not r.get("converged", True):
            verdict += f" (certified to +-{r['gap']:.2g}{'' if r.get('converged', True) else ', budget spent'})"
        ratio = r["ours_s"] / r["fcl_total_s"] if r.get("fcl_total_s") else None
        agree = "verdicts differ" if r.get("verdicts_agree") is False else (
            f"{r['agreement']:.1e}" if "agreement" in r else "same verdict")
        out.append(f"| {r['row']} | {r['tris_a']:,} + {r['tris_b']:,} | {verdict} | {_fmt_s(r['ours_s'])} | "
                   f"{_fmt_s(r.get('fcl_build_s'))} | {_fmt_s(r.get('fcl_collide_s'))} | "
                   f"{_fmt_s(r.get('fcl_distance_s'))} | {_fmt_s(r.get('fcl_total_s'))} | "
                   f"{'-' if ratio is None else f'{ratio:.2f}'} | {agree} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="about 20,000 triangles per mesh (nothing written)")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds allowed per row (default 300)")
    parser.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    parser.add_argument("--one", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not convex.in_bench_venv():
        convex.ensure_venv()
        os.execv(str(convex.VENV_PY), [str(convex.VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    if args.one:
        print("ROW " + json.dumps(measure_row(args.one, args.quick)), flush=True)
        return
    import core
    if not hasattr(core, "TriangleMesh"):
        raise SystemExit("core.TriangleMesh does not exist yet: nothing to measure")
    info = convex.machine_info()
    names = [n for n in ROWS if not args.rows or n in args.rows.split(",")]
    rows = []
    for name in names:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--one", name] + (["--quick"] if args.quick else [])
        print(f"[mesh bench] {name} ...", flush=True)
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.budget)
            lines = [ln for ln in done.stdout.splitlines() if ln.startswith("ROW ")]
            rows.append(json.loads(lines[-1][4:]) if lines else
                        {"row": name, "error": "failed: " + done.stderr.strip().splitlines()[-1][:200]})
        except subprocess.TimeoutExpired:
            rows.append({"row": name, "error": f"over the {args.budget:.0f} s budget"})
        print("  " + table(rows[-1:])[-1], flush=True)
    head = convex.run_header(info)
    text = head + [""] + table(rows)
    print("\n".join(text))
    if not args.quick:
        OUT.write_text("# Mesh-mesh benchmark (bench/mesh.py)\n\n" + "\n".join(text) + "\n")
        print(f"written {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
