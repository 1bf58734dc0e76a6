#!/usr/bin/env python3
"""Scene benchmark: many objects at once (broad phase + batch narrow phase) against python-fcl and coal.

    .venv/bin/python bench/scene.py [--quick] [--narrow] [--cpu]   # re-executes itself in bench/.venv (bench/convex.py)

Rows (times in ms, best of a few runs; ratio = ours / peer, below 1 means ours is faster):
1. narrow phase on 10,000 prepared convex pairs of <= 256 vertices (candidate pairs of a generated scene, the
   shapes prepared once): ours `core.collide_many(batch, pairs, clearance)` (prefilter + GJK/EPA), ours
   `core.collide` pair by pair (on a sample, scaled to 10,000), fcl and coal pair by pair on the same pairs
   (their collision query with one contact; for clearance > 0 the separated pairs then get their distance query,
   coal uses its `security_margin`).  The listed pairs of every library are compared with ours.  Four scenes:
   random at 0.3 parts per unit volume (clearance 0 and 0.05), a jittered lattice, and random at 1.0 (most
   box-overlapping pairs intersect or come within the clearance: the EPA-heavy case).
2. the same scene end to end from prepared objects: ours `core.candidate_pairs` + `collide_many`; the peers'
   `DynamicAABBTreeCollisionManager` (setup + collide with contacts) at clearance 0.
3. broad phase alone on 1k, 10k and 100k boxes: ours `core.candidate_pairs`, numpy all-pairs brute force (up to
   10k), and each peer's `DynamicAABBTreeCollisionManager` (register + setup + collide with a callback that only
   counts the box-overlapping pairs).
Scenes are seeded; the preparation (hulls for the peers, `core.ShapeBatch` for ours) is timed apart.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import convex  # noqa: E402  (bench/convex.py: the bench venv, machine info, the peers' hull helper)


# ============================================================================================ scenes

def rotation(rng):
    import numpy as np
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def part(rng, kind):
    """Local vertices of one convex part (<= 256 vertices, all on its hull or close to it)."""
    import numpy as np
    n = int(np.exp(rng.uniform(np.log(8), np.log(256))))
    if kind == "blob":  # points on an ellipsoid
        v = rng.normal(size=(n, 3))
        v /= np.linalg.norm(v, axis=1)[:, None]
        return v * rng.uniform(0.3, 1.0, 3)
    if kind == "plank":  # a box with random points on its faces
        half = np.array([rng.uniform(0.8, 1.6), rng.uniform(0.1, 0.3), rng.uniform(0.03, 0.1)])
        v = rng.uniform(-1.0, 1.0, (n, 3))
        axis = rng.integers(0, 3, n)
        v[np.arange(n), axis] = np.sign(v[np.arange(n), axis])
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        return np.r_[corners, v][:n] * half
    # pipe: rings of a cylinder
    rings = max(2, n // 16)
    per = max(3, n // rings)
    t = np.linspace(0.0, 2.0 * np.pi, per, endpoint=False)
    z = np.linspace(-1.0, 1.0, rings)
    r = rng.uniform(0.05, 0.2)
    length = rng.uniform(0.8, 1.8)
    v = np.array([[r * np.cos(a), r * np.sin(a), length * h] for h in z for a in t])
    return v[:256]


def scene(n_objects: int, density: float, seed: int, lattice: bool = False):
    """(local vertices, 4x4 poses) of n parts (blobs, planks, pipes), density = parts per unit volume.

    lattice=False: uniform at random in a cube (pairs whose boxes overlap intersect about one time in four);
    lattice=True: on a jittered cubic lattice, like an assembly where neighbours come close and few clash."""
    import numpy as np
    rng = np.random.default_rng(seed)
    side = (n_objects / density) ** (1.0 / 3.0)
    kinds = rng.choice(["blob", "plank", "pipe"], n_objects)
    if lattice:
        per = int(math.ceil(n_objects ** (1.0 / 3.0)))
        spacing = side / per
        grid = np.stack(np.meshgrid(*[np.arange(per)] * 3, indexing="ij"), axis=-1).reshape(-1, 3)[:n_objects]
        centres = (grid + 0.5) * spacing + rng.uniform(-0.1, 0.1, (n_objects, 3)) * spacing
    else:
        centres = rng.uniform(0.0, side, (n_objects, 3))
    local, poses = [], []
    for k in range(n_objects):
        local.append(part(rng, kinds[k]))
        m = np.eye(4)
        m[:3, :3] = rotation(rng)
        m[:3, 3] = centres[k]
        poses.append(m)
    return local, poses


# ============================================================================================ timing

CLOCK = time.perf_counter
"""The timer of `best`: wall time, or with --cpu the process's CPU time (ours and the peers alike; fairer on a
machine shared with other jobs, with numpy's BLAS on one thread)."""


def best(fn, repeat: int):
    times = []
    out = None
    for _ in range(repeat):
        t = CLOCK()
        out = fn()
        times.append(CLOCK() - t)
    return min(times), out


def fmt_ms(seconds) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.3f}"


def fmt_ratio(ours, peer) -> str:
    if ours is None or peer is None or peer <= 0:
        return "-"
    r = ours / peer
    return f"{r:.2f}" if r < 10 else f"{r:.0f}"


# ============================================================================================ peers

class FclScene:
    name = "fcl"

    def __init__(self, fcl, local, poses):
        import numpy as np
        self.fcl = fcl
        self.objects = []
        for v, m in zip(local, poses):
            verts, tris = convex._hull(v)
            faces = np.hstack([np.full((tris.shape[0], 1), 3), tris]).ravel()
            geom = fcl.Convex(verts, tris.shape[0], faces)
            self.objects.append(fcl.CollisionObject(geom, fcl.Transform(m[:3, :3], m[:3, 3])))

    def pairs(self, pairs, clearance):
        fcl = self.fcl
        listed = set()
        creq = fcl.CollisionRequest(num_max_contacts=1, enable_contact=True)
        dreq = fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True)
        objects = self.objects
        for i, j in pairs:
            res = fcl.CollisionResult()
            if fcl.collide(objects[i], objects[j], creq, res):
                listed.add((i, j))
            elif clearance > 0.0:
                dres = fcl.DistanceResult()
                if fcl.distance(objects[i], objects[j], dreq, dres) <= clearance:
                    listed.add((i, j))
        return listed

    def manager(self):
        fcl = self.fcl
        manager = fcl.DynamicAABBTreeCollisionManager()
        manager.registerObjects(self.objects)
        manager.setup()
        data = fcl.CollisionData(request=fcl.CollisionRequest(num_max_contacts=10 ** 7, enable_contact=True))
        manager.collide(data, fcl.defaultCollisionCallback)
        return len(data.result.contacts)  # one contact per colliding convex pair


class CoalScene:
    name = "coal"

    def __init__(self, coal, local, poses):
        import numpy as np
        self.coal = coal
        self.geoms, self.tfs, self.objects = [], [], []
        for v, m in zip(local, poses):
            points = coal.StdVec_Vec3s()
            points.extend(list(v))
            geom = coal.ConvexBase.convexHull(points, False, None)
            tf = coal.Transform3s(np.ascontiguousarray(m[:3, :3]), np.ascontiguousarray(m[:3, 3]))
            self.geoms.append(geom)
            self.tfs.append(tf)
            self.objects.append(coal.CollisionObject(geom, tf))

    def pairs(self, pairs, clearance):
        coal = self.coal
        listed = set()
        req = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
        req.security_margin = clearance
        geoms, tfs = self.geoms, self.tfs
        for i, j in pairs:
            res = coal.CollisionResult()
            if coal.collide(geoms[i], tfs[i], geoms[j], tfs[j], req, res):
                listed.add((i, j))
        return listed

    def manager(self):
        coal = self.coal
        manager = coal.DynamicAABBTreeCollisionManager()
        for o in self.objects:
            manager.registerObject(o)
        manager.setup()
        callback = coal.CollisionCallBackDefault()
        callback.data.request.num_max_contacts = 10 ** 7
        callback.data.request.enable_contact = True
        manager.collide(callback)
        return callback.data.result.numContacts()  # one contact per colliding convex pair


def load_peers():
    peers = {}
    for name in ("fcl", "coal"):
        try:
            peers[name] = __import__(name)
        except Exception as exc:  # noqa: BLE001 - a missing peer is reported, the rest runs
            print(f"[scene] peer {name} unavailable: {exc}")
    return peers


# ============================================================================================ parts of the run

def narrow_rows(core, peers, quick: bool) -> list[str]:
    import numpy as np
    n_pairs = 1000 if quick else 10_000
    lines = []
    rows = []
    n_objects = 3000 if quick else 12000
    for label, lattice, clearance, density in (
            ("random, clearance 0", False, 0.0, 0.3),
            ("random, clearance 0.05", False, 0.05, 0.3),
            ("lattice, clearance 0", True, 0.0, 0.3),
            # Many near and intersecting pairs: three times as dense, so most box-overlapping pairs clash.
            ("dense, clearance 0.05", False, 0.05, 1.0)):
        local, poses = scene(n_objects, density, seed=10, lattice=lattice)
        shapes = [core.PointCloud(v, m) for v, m in zip(local, poses)]
        prep_ours, batch = best(lambda: core.ShapeBatch(shapes), 1)
        candidates = core.candidate_pairs(batch.lo, batch.hi, clearance)
        rng = np.random.default_rng(1)
        take = np.sort(rng.choice(len(candidates), min(n_pairs, len(candidates)), replace=False))
        pairs = candidates[take]
        t_pre, kept = best(lambda: batch.candidates(pairs, clearance), 3)
        t_ours, hits = best(lambda: core.collide_many(batch, pairs, clearance), 2)
        ours = {(i, j) for i, j, _ in hits}
        status = {}
        for _, _, c in hits:
            status[c.status.name] = status.get(c.status.name, 0) + 1
        sample = pairs[rng.choice(len(pairs), min(300, len(pairs)), replace=False)]
        t_one, _ = best(lambda: [core.collide(batch.shapes[i], batch.shapes[j]) for i, j in sample.tolist()], 1)
        t_one *= len(pairs) / len(sample)
        row = {"label": label, "pairs": len(pairs), "objects": n_objects, "prep": prep_ours, "pre": t_pre,
               "kept": int(kept.sum()), "ours": t_ours, "one": t_one, "listed": len(ours), "status": status}
        plist = [tuple(p) for p in pairs.tolist()]
        for name, module in peers.items():
            cls = FclScene if name == "fcl" else CoalScene
            t_prep, peer = best(lambda: cls(module, local, poses), 1)
            t_peer, listed = best(lambda: peer.pairs(plist, clearance), 2)
            row[name] = t_peer
            row[name + "_prep"] = t_prep
            row[name + "_diff"] = (len(listed - ours), len(ours - listed))
            if clearance == 0.0 and not rows:
                t_man, found = best(peer.manager, 3)
                row[name + "_manager"] = (t_man, found)
        if clearance == 0.0 and not rows:
            def ours_scene():
                found = core.candidate_pairs(batch.lo, batch.hi, clearance)
                return core.collide_many(batch, found, clearance)
            t_scene, scene_hits = best(ours_scene, 3)
            row["scene"] = (t_scene, len(scene_hits))
        rows.append(row)
        print(f"[scene] {label}: ours {t_ours:.3f} s for {len(pairs)} pairs", flush=True)

    names = list(peers)
    lines += ["### Narrow phase: 10,000 prepared convex pairs (<= 256 vertices), target <= 1 s", "",
              "| scene | pairs | prefilter ms | kept by prefilter | listed (I/T/S) | ours batch ms | ours per-pair ms"
              + "".join(f" | {n} ms" for n in names) + "".join(f" | ours/{n}" for n in names)
              + "".join(f" | {n} differs (+/-)" for n in names) + " |",
              "|" + "---|" * (7 + 3 * len(names))]
    for r in rows:
        s = r["status"]
        listed = f"{r['listed']} ({s.get('INTERSECTING', 0)}/{s.get('TOUCHING', 0)}/{s.get('SEPARATED', 0)})"
        lines.append(f"| {r['label']} | {r['pairs']} | {fmt_ms(r['pre'])} | {r['kept']} | {listed} | "
                     f"{fmt_ms(r['ours'])} | {fmt_ms(r['one'])} (est.)"
                     + "".join(f" | {fmt_ms(r.get(n))}" for n in names)
                     + "".join(f" | {fmt_ratio(r['ours'], r.get(n))}" for n in names)
                     + "".join(f" | {r[n + '_diff'][0]}/{r[n + '_diff'][1]}" if n + "_diff" in r else " | -"
                               for n in names) + " |")
    lines += ["", "Preparation (apart): " + "; ".join(
        f"{r['label']}: ours ShapeBatch {fmt_ms(r['prep'])} ms"
        + "".join(f", {n} hulls+objects {fmt_ms(r.get(n + '_prep'))} ms" for n in names) for r in rows[:1]), ""]
    r = rows[0]
    if "scene" in r:
        lines += ["### Whole scene, broad + narrow phase (clearance 0, objects prepared)", "",
                  "| objects | ours ms (pairs listed) | " + " | ".join(f"{n} manager ms (pairs)" for n in names)
                  + "".join(f" | ours/{n}" for n in names) + " |",
                  "|" + "---|" * (2 + 2 * len(names))]
        t_scene, n_found = r["scene"]
        cells = [f"{fmt_ms(r[n + '_manager'][0])} ({r[n + '_manager'][1]})" if n + "_manager" in r else "-"
                 for n in names]
        ratios = [fmt_ratio(t_scene, r[n + "_manager"][0]) if n + "_manager" in r else "-" for n in names]
        lines.append(f"| {r['objects']} | {fmt_ms(t_scene)} ({n_found}) | " + " | ".join(cells)
                     + "".join(f" | {x}" for x in ratios) + " |")
        lines.append("")
    return lines


def brute(lo, hi):
    import numpy as np
    n = len(lo)
    found = 0
    for start in range(0, n, 256):
        a_lo, a_hi = lo[start:start + 256, None, :], hi[start:start + 256, None, :]
        hit = np.all((a_lo <= hi[None, :, :]) & (lo[None, :, :] <= a_hi), axis=2)
        rows = np.arange(start, min(n, start + 256))[:, None]
        found += int(np.count_nonzero(hit & (np.arange(n)[None, :] > rows)))
    return found


def broad_rows(core, peers, quick: bool) -> list[str]:
    import numpy as np
    sizes = (1000, 10_000) if quick else (1000, 10_000, 100_000)
    names = list(peers)
    lines = ["### Broad phase alone: boxes -> candidate pairs", "",
             "| boxes | pairs | ours ms | brute force ms" + "".join(f" | {n} manager ms" for n in names)
             + " | ours/brute" + "".join(f" | ours/{n}" for n in names) + " |",
             "|" + "---|" * (5 + 2 * len(names))]
    for n in sizes:
        rng = np.random.default_rng(n)
        side = (n / 0.3) ** (1.0 / 3.0)
        centre = rng.uniform(0.0, side, (n, 3))
        half = rng.uniform(0.1, 0.7, (n, 3))
        lo, hi = centre - half, centre + half
        t_ours, pairs = best(lambda: core.candidate_pairs(lo, hi), 3)
        t_brute = None
        if n <= 10_000:
            t_brute, count = best(lambda: brute(lo, hi), 1)
            assert count == len(pairs), (count, len(pairs))
        peer_t = {}
        for name, module in peers.items():
            if name == "fcl":
                objs = [module.CollisionObject(module.Box(*(2 * h)), module.Transform(c)) for c, h in zip(centre, half)]

                def go():
                    manager = module.DynamicAABBTreeCollisionManager()
                    manager.registerObjects(objs)
                    manager.setup()
                    count = [0]

                    def callback(o1, o2, data):
                        count[0] += 1
                        return False
                    manager.collide(None, callback)
                    return count[0]
            else:
                objs = [module.CollisionObject(module.Box(*(2 * h)), module.Transform3s(np.eye(3), c))
                        for c, h in zip(centre, half)]

                def go():
                    manager = module.DynamicAABBTreeCollisionManager()
                    for o in objs:
                        manager.registerObject(o)
                    manager.setup()
                    callback = module.CollisionCallBackCollect(2 * len(pairs) + 1000)  # its capacity
                    manager.collide(callback)
                    return callback.numCollisionPairs()
            peer_t[name], found = best(go, 1 if n >= 100_000 else 3)
            peer_t[name + "_pairs"] = found
        lines.append(f"| {n:,} | {len(pairs):,} | {fmt_ms(t_ours)} | {fmt_ms(t_brute)}"
                     + "".join(f" | {fmt_ms(peer_t.get(m))} ({peer_t.get(m + '_pairs', '-'):,})" for m in names)
                     + f" | {fmt_ratio(t_ours, t_brute)}" + "".join(f" | {fmt_ratio(t_ours, peer_t.get(m))}"
                                                                      for m in names) + " |")
        print(f"[scene] broad {n}: ours {t_ours * 1e3:.1f} ms", flush=True)
    lines.append("")
    return lines


def measure(args) -> None:
    sys.path.insert(0, str(ROOT))
    import core
    info = convex.machine_info()
    peers = load_peers()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    lines = ["## Scene: many objects at once (bench/scene.py)", "",
             "- times: " + ("CPU time of this process (--cpu)" if args.cpu else "wall time") + "; BLAS threads: "
             + os.environ.get("OPENBLAS_NUM_THREADS", "not set"),
             f"- machine: {info['cpu']}, {info['cores']} cores; python {info['python']}, numpy {info['numpy']}; "
             f"load before: {info['load_before']}; {info['date']}",
             "- peers: " + ", ".join(f"{n} {getattr(m, '__version__', '?')}" for n, m in peers.items()), ""]
    lines += narrow_rows(core, peers, args.quick)
    if not args.narrow:
        lines += broad_rows(core, peers, args.quick)
    text = "\n".join(lines)
    print(text)
    if not (args.quick or args.narrow):
        (BENCH / "scene_results.md").write_text(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller scenes, nothing written")
    parser.add_argument("--cpu", action="store_true", help="time with the process's CPU time instead of wall time")
    parser.add_argument("--narrow", action="store_true", help="the narrow-phase and whole-scene rows only, nothing "
                                                              "written")
    args = parser.parse_args()
    if not convex.in_bench_venv():
        convex.ensure_venv()
        os.execv(str(convex.VENV_PY), [str(convex.VENV_PY), str(Path(__file__).resolve()), *sys.argv[1:]])
    measure(args)


if __name__ == "__main__":
    main()
