"""Running one benchmark's cases on several checkouts' engines side by side (bench/uv_duplicates.py,
bench/big_duplicates.py): the parent saves the cases once, each checkout runs them in its own process (its own
`core` first on the path), and the columns of the table are then one run on one machine state."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def run(script: str, roots, data: str, repeat: int):
    """`script --child ROOT DATA --repeat N` for each root; per root a dict (shape, pose) -> the child's JSON row,
    or None after printing the first child's error."""
    results = []
    for root in roots:
        done = subprocess.run([sys.executable, script, "--child", str(Path(root).resolve()), data,
                               "--repeat", str(repeat)], capture_output=True, text=True)
        if done.returncode:
            print(f"RESULT error: {root}: {done.stderr.strip().splitlines()[-1:]}")
            return None
        results.append({(r["shape"], r["pose"]): r for r in map(json.loads, done.stdout.splitlines())})
    return results


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
