#!/usr/bin/env python3
"""Issue 7, track "raw": one-shot `core.collide(a, b)` on raw (n, 3) arrays, a 10,000-20,000-point cloud against
its copy, before/after across checkouts.

    .venv/bin/python bench/raw_copies.py --roots OLD [OTHER ...] .     # ~3 minutes for three checkouts
    .venv/bin/python bench/raw_copies.py --quick --roots OLD .         # the two 20,000-point identical rows

Each (row, checkout) runs in its own process (that checkout's core on the same arrays, BLAS on one thread),
`--repeat` fresh calls per process (default 2, the smaller kept), the checkouts alternated in `--rounds`
rounds (default 2: each cell the smaller of its rounds, and the order reversed in the second) so that a busy
shared machine weighs on all columns alike.  CPU time (`time.process_time`), hull build, checks, EPA and
witness points inside it.  err = |depth - exact| / scale against an oracle independent of the engine, where one
is cheap at this size: the clouds are centrally symmetric bit for bit (A = -A), so A - B for a shifted copy or a
homothetic one (B = s A about the centroid) has A's facet normals, and the exact depth is the smallest h_A(u) +
h_B(-u) over qhull's facet normals u of A, each evaluated over every vertex (tests/core/duplicates.py
`symmetric_width` for the identical pair); "-" for the turned copies (no oracle at 20,000 points; their depth
bits are compared across the checkouts instead, the "same bits" column).  "random on sphere 20k" is not
symmetric: identical only, judged by `exact_depth` of tests/core/duplicates.py (qhull's facet normals of A - B).
Runs in the project venv (numpy 1.26 + scipy); no peers.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

ROOT = Path(__file__).resolve().parent.parent
RELATIONS = [("identical", {}), ("turned 1e-4", {"angle": 1e-4}), ("shifted 1e-6", {"shift": 1e-6}),
             ("inside 1.001", {"scale": 1.001})]


def _sphere(n: int):
    import numpy as np
    v = np.random.default_rng([931, n]).normal(size=(n, 3))  # bench/hull.py's clouds
    return v / np.linalg.norm(v, axis=1)[:, None]


def cases(quick: bool):
    """(label, a, b, oracle kind) with oracle kind "symmetric", "homothetic", "exact" or None."""
    import numpy as np
    sys.path.insert(0, str(ROOT))
    from tests.core.duplicates import near_copy

    symmetric = np.vstack([_sphere(10_000), -_sphere(10_000)])
    out = [("symmetric sphere 20k", "identical", symmetric, symmetric.copy(), "symmetric"),
           ("random on sphere 20k", "identical", _sphere(20_000), None, "exact")]
    if not quick:
        for relation, kwargs in RELATIONS[1:]:
            b = near_copy(symmetric, np.random.default_rng([4401, len(relation)]), **kwargs)
            out.append(("symmetric sphere 20k", relation, symmetric, b, None if "angle" in kwargs else "homothetic"))
        out.append(("random on sphere 10k", "identical", _sphere(10_000), None, "exact"))
    return [(name, rel, a, a.copy() if b is None else b, kind) for name, rel, a, b, kind in out]


def oracle(a, b, kind):
    import numpy as np
    if kind == "symmetric":
        from tests.core.duplicates import symmetric_width
        return symmetric_width(a)
    if kind == "exact":
        from tests.core.duplicates import exact_depth
        return exact_depth(a, b)[0]
    if kind == "homothetic":
        from scipy.spatial import ConvexHull
        normals = ConvexHull(a).equations[:, :3]
        best = np.inf
        for lo in range(0, normals.shape[0], 1024):
            u = normals[lo:lo + 1024]
            best = min(best, float(((u @ a.T).max(axis=1) + (-(u @ b.T)).max(axis=1)).min()))
        return best
    return None


CHILD = r"""
import json, os, sys, time
for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = "1"
root, path, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
import numpy as np
import core
data = np.load(path)
best, c = float("inf"), None
for _ in range(repeat):
    a, b = data["a"].copy(), data["b"].copy()
    t0 = time.process_time()
    c = core.collide(a, b)
    best = min(best, time.process_time() - t0)
print(json.dumps({"s": best, "depth": c.depth, "it": c.epa_iterations, "converged": bool(c.converged),
                  "scale": c.scale}))
"""


def run(root: str, path: str, repeat: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, root, path, str(repeat)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--roots", nargs="+", default=[str(ROOT)], help="checkouts to compare (this one: .)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    import numpy as np
    roots = [str(Path(r).resolve()) for r in args.roots]
    names = [Path(r).name for r in roots]
    print(f"numpy {np.__version__}, load {os.getloadavg()}, CPU ms, min of {args.repeat} calls x {args.rounds}"
          " alternating rounds", flush=True)
    head = " | ".join(f"{n} ms | it | err" for n in names)
    print(f"| cloud | copy | {head} | same bits | all converged | {names[-1]}/{names[0]} |")
    print("|---|---|" + "---|---|---|" * len(names) + "---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, relation, a, b, kind in cases(args.quick):
            path = os.path.join(tmp, "pair.npz")
            np.savez(path, a=a, b=b)
            results = {r: [] for r in roots}
            for k in range(args.rounds):
                for r in (roots if k % 2 == 0 else roots[::-1]):
                    results[r].append(run(r, path, args.repeat))
            exact = oracle(a, b, kind)
            cells = [name, relation]
            depths = set()
            for r in roots:
                res = min(results[r], key=lambda x: x["s"])
                depths.update(x["depth"] for x in results[r])
                err = "-" if exact is None else f"{abs(res['depth'] - exact) / res['scale']:.1e}"
                cells += [f"{1e3 * res['s']:.0f}", str(res["it"]), err]
            cells.append("yes" if len(depths) == 1 else "NO")
            cells.append("yes" if all(x["converged"] for r in roots for x in results[r]) else "NO")
            first = min(x["s"] for x in results[roots[0]])
            last = min(x["s"] for x in results[roots[-1]])
            cells.append(f"{last / first:.2f}")
            print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
