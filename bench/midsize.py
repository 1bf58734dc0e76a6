#!/usr/bin/env python3
"""Mid-size meshes one-shot (issue 21): 200 to 20,000 triangles per mesh, ours against python-fcl in one process.

    .venv/bin/python bench/midsize.py [--quick] [--rows SUBSTRING,...]

Like bench/mesh.py it re-executes itself in bench/.venv (numpy 2, python-fcl), made by convex.py's bootstrap.  The
pairs are bench/midsize_cases.py's: pybullet's meshes (bunny, torus, teddy, duck, soccer ball), FCL's env / rob
when bench/data/fcl/ has them, a noisy sphere and a torus of 20,000 triangles; each separated, crossing and one
inside the other.

One-shot = arrays in, full answer out, nothing kept from an earlier call:
  ours  core.TriangleMesh for both (the shared-topology cache emptied first) + core.collide;
  fcl   fcl.BVHModel for both (its tree build) + fcl.collide listing every contact + fcl.distance (nearest points).
Times are medians of 5 runs (3 with --quick), ours and fcl's alternated so both see the same load; the load
average is printed with the table.  fcl has no inside for meshes: it reports the contained pairs as apart.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT))

import convex  # noqa: E402  (bench/convex.py: the bench venv and machine info)

OUT = BENCH / "midsize_results.md"


def _pybullet_path() -> str:
    try:
        import pybullet_data
        return pybullet_data.getDataPath()
    except ImportError:
        return ""


def measure(va, ta, vb, tb, repeat: int) -> dict:
    import numpy as np

    import core
    import fcl
    from midsize_cases import one_shot

    def ours():
        return one_shot(core, va, ta, vb, tb)

    def theirs():
        objs = convex.fcl_mesh_objects(fcl, (va, ta), (vb, tb))
        res = fcl.CollisionResult()
        fcl.collide(objs[0], objs[1], fcl.CollisionRequest(num_max_contacts=1_000_000, enable_contact=True), res)
        dres = fcl.DistanceResult()
        fcl.distance(objs[0], objs[1], fcl.DistanceRequest(enable_nearest_points=True), dres)
        return bool(res.is_collision), len(res.contacts), float(dres.min_distance)

    t_ours, t_fcl, c, f = [], [], None, None
    for i in range(repeat):
        for which in ((ours, theirs) if i % 2 == 0 else (theirs, ours)):
            t0 = time.perf_counter()
            out = which()
            (t_ours if which is ours else t_fcl).append(time.perf_counter() - t0)
            if which is ours:
                c = out
            else:
                f = out
    return {"ours_s": statistics.median(t_ours), "fcl_s": statistics.median(t_fcl), "status": c.status.name,
            "containment": None if c.containment is None else c.containment.name, "distance": float(c.distance),
            "segments": int(len(c.intersection)), "scale": float(c.scale), "fcl_hit": f[0], "fcl_contacts": f[1],
            "fcl_distance": f[2]}


def _ms(x: float) -> str:
    return f"{x * 1e3:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the pybullet meshes only, 3 runs (nothing written)")
    parser.add_argument("--rows", default="", help="comma-separated substrings of row names (default: all)")
    args = parser.parse_args()
    if not convex.in_bench_venv():
        os.environ.setdefault("MIDSIZE_PYBULLET_DATA", _pybullet_path())
        convex.ensure_venv()
        os.execv(str(convex.VENV_PY), [str(convex.VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    import midsize_cases
    info = convex.machine_info()
    sources = ("pybullet",) if args.quick else ("pybullet", "fcl", "generated")
    wanted = [w for w in args.rows.split(",") if w]
    rows = []
    out = ["| pair | triangles A + B | our verdict | ours one-shot | fcl build + collide (all contacts) + distance "
           "| ours / fcl | fcl says |", "|---|---|---|---|---|---|---|"]
    print("\n".join(out), flush=True)
    for name, (va, ta), (vb, tb) in midsize_cases.cases(sources):
        if wanted and not any(w in name for w in wanted):
            continue
        r = measure(va, ta, vb, tb, 3 if args.quick else 5)
        rows.append(r)
        verdict = r["status"] + (f" ({r['containment']})" if r["containment"] else "") + f", d = {r['distance']:.4g}"
        if r["segments"]:
            verdict += f", {r['segments']} crossing segments"
        says = (f"meet, {r['fcl_contacts']} contacts" if r["fcl_hit"] else f"apart, d = {r['fcl_distance']:.4g}")
        out.append(f"| {name} | {len(ta):,} + {len(tb):,} | {verdict} | {_ms(r['ours_s'])} | {_ms(r['fcl_s'])} | "
                   f"{r['ours_s'] / r['fcl_s']:.2f} | {says} |")
        print(out[-1], flush=True)
    head = convex.run_header(info)
    text = head + [""] + out
    print("\n".join(head))
    if not args.quick and not wanted:
        OUT.write_text("# Mid-size meshes one-shot (bench/midsize.py)\n\n" + "\n".join(text) + "\n")
        print(f"written {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
