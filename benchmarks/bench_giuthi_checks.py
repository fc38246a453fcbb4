"""CPU time of the Giuthi mesh and 3MF checks of built sets (the PDF and slicer checks left out).

Run: .venv/bin/python benchmarks/bench_giuthi_checks.py [--rounds N] [SET_FOLDER ...]

Without folders it first builds giuthi-default and giuthi-travel (``printables build --no-slice``)
into a temporary folder. Each round checks each set in a fresh process (so no mesh read in an
earlier round is reused) and times, in CPU seconds of that process after its imports: the board
(manifest, both halves, the seed volume measured on the sprue), the sprue's own check, and the
three 3MFs. It prints the median over rounds per set, and the load average, since the host is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = ("giuthi-default", "giuthi-travel")

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy, scipy.ndimage, scipy.sparse.csgraph, trimesh  # imported before timing
import printables.check.giuthi_3mf, printables.check.giuthi_seeds, printables.check.giuthi_stl
from printables.check.dispatch import check_file, expand
times = {"board": 0.0, "sprue": 0.0, "3mf": 0.0}
failed = 0
for path in expand(Path(sys.argv[1])):
    kind = ("board" if path.suffix == ".json" else "sprue" if path.suffix == ".stl"
            else "3mf" if path.suffix == ".3mf" else None)
    if kind is None:
        continue
    start = time.process_time()
    results = check_file(path, slicer=False)
    times[kind] += time.process_time() - start
    failed += sum(not r.ok for r in results)
print(json.dumps({"times": times, "failed": failed}))
"""


def check_once(folder: Path) -> dict:
    """Time the mesh and 3MF checks of one set folder in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CHILD, str(folder)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def build(folder: Path) -> list[Path]:
    """Build the default sets without slicing; return their folders."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "printables", "build", "--no-slice", "-o", str(folder), *DEFAULT_SETS],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return [folder / "giuthi-board" / name for name in DEFAULT_SETS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="built Giuthi set folders (default: build two)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folders = args.folders or build(Path(tmp))
        runs: dict[Path, list[dict]] = {f: [] for f in folders}
        for _ in range(args.rounds):
            for folder in folders:  # interleaved, so a change in load hits every set alike
                runs[folder].append(check_once(folder))
        print(f"load average {os.getloadavg()[0]:.1f} (1 min); CPU seconds, median of {args.rounds} rounds")
        for folder, results in runs.items():
            parts = {k: statistics.median(r["times"][k] for r in results) for k in ("board", "sprue", "3mf")}
            total = statistics.median(sum(r["times"].values()) for r in results)
            failed = max(r["failed"] for r in results)
            print(f"{folder.name:16s} total {total:5.2f} s: board {parts['board']:.2f} (with the sprue's seed volume),"
                  f" sprue {parts['sprue']:.2f}, 3MFs {parts['3mf']:.2f}; {failed} failed checks")


if __name__ == "__main__":
    main()
