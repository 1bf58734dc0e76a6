"""Running one benchmark's cases on several checkouts' engines side by side (bench/uv_duplicates.py,
bench/big_duplicates.py): the parent saves the cases once, each checkout runs them in its own process (its own
`core` first on the path), and the columns of the table are then one run on one machine state."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def arguments(doc: str, root: Path, more=()):
    """The common command line (--roots, --repeat, the hidden --child ROOT DATA) plus `more` (name, kwargs)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--roots", nargs="+", default=[str(root)], help="checkouts whose core is timed, in order")
    parser.add_argument("--repeat", type=int, default=3)
    for name, kwargs in more:
        parser.add_argument(name, **kwargs)
    parser.add_argument("--child", nargs=2, metavar=("ROOT", "DATA"), help=argparse.SUPPRESS)
    return parser.parse_args()


def run(script: str, roots, arrays: dict, repeat: int):
    """Save `arrays` (numpy arrays by name) once, then `script --child ROOT DATA --repeat N` for each root; per
    root a dict (shape, pose) -> the child's JSON row, or None after printing the first child's error."""
    import numpy as np

    results = []
    with tempfile.TemporaryDirectory(prefix="checkouts-") as tmp:
        data = os.path.join(tmp, "cases.npz")
        np.savez(data, **arrays)
        for root in roots:
            done = subprocess.run([sys.executable, script, "--child", str(Path(root).resolve()), data,
                                   "--repeat", str(repeat)], capture_output=True, text=True)
            if done.returncode:
                print(f"RESULT error: {root}: {done.stderr.strip().splitlines()[-1:]}")
                return None
            results.append({(r["shape"], r["pose"]): r for r in map(json.loads, done.stdout.splitlines())})
    return results


def child_rows(keys, repeat: int, timed) -> None:
    """In a child: for each (shape, pose) key, `timed(shape, pose)` -> (seconds, contact) run `repeat` times; one
    JSON line per key on stdout (median ms, depth, scale, EPA iterations, outcome, converged), as `run` reads."""
    for k, j in keys:
        times, contact = [], None
        for _ in range(repeat):
            seconds, contact = timed(k, j)
            times.append(seconds)
        print(json.dumps({"shape": k, "pose": j, "ms": 1e3 * statistics.median(times), "depth": -contact.distance,
                          "scale": contact.scale, "it": contact.epa_iterations, "converged": bool(contact.converged),
                          "outcome": contact.epa_outcome.name if contact.epa_outcome else "-"}), flush=True)


def head(roots, columns, numpy_version: str):
    """Print the run's circumstances and the table head: shape, hull v, copy, then `columns` (names given the
    checkout's name) per root, and the last root's time over the first's when there are two or more."""
    names = [Path(r).resolve().name or r for r in roots]
    print(f"numpy {numpy_version}, python {sys.version.split()[0]}, load {os.getloadavg()}, "
          f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; roots: " + ", ".join(names))
    cells = ["shape", "hull v", "copy"]
    for name in names:
        cells += [column.format(name) for column in columns]
    if len(names) > 1:
        cells.append(f"{names[-1]}/{names[0]}")
    print("| " + " | ".join(cells) + " |")
    print("|" + "---|" * len(cells))


def ratio(results, key) -> list:
    """The ratio cell (last root's ms over the first's), or nothing for one root."""
    return [f"{results[-1][key]['ms'] / results[0][key]['ms']:.2f}"] if len(results) > 1 else []
