"""CPU time of the checks of built Giuthi sets (board, sprue, 3MFs; with --pdfs the print card and rules sheet too).

Run: .venv/bin/python benchmarks/bench_giuthi_checks.py [--rounds N] [--pdfs] [--together]
         [--baseline CHECKOUT] [SET_FOLDER ...]

Without folders it first builds giuthi-default and giuthi-travel (``printables build --no-slice``)
into a temporary folder (give the six folders of a whole build to time them all). Each round times,
in CPU seconds (time.process_time) after the imports, ``check_file`` of every file of the sets as
``printables check`` and ``build`` run it: the board (manifest, both halves, the seed volume
measured on the sprue), the sprue's own check, the three 3MFs, and with --pdfs the two PDFs (the
PrusaSlicer checks are left out, as in ``build --no-slice``).

By default each set is checked in a fresh process (nothing read for another set is reused). With
--together every set is checked in one process, one after the other, as a build worker checks the
sets it is given: a file whose bytes were checked before in the process (giuthi-ko's board is
giuthi-default's; compact, default and travel share a rules sheet) is not measured again.

With --baseline (another checkout, e.g. ``git worktree add /tmp/base <commit>``) its code checks the
same files in rounds interleaved with this checkout's, so a busy machine favours neither side. It
prints the median over rounds per set and in all, and the load average before and after, since the
host is shared.
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
PARTS = ("board", "sprue", "3mf", "pdf")

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy, scipy.ndimage, scipy.sparse.csgraph, trimesh  # imported before timing
import printables.check.giuthi_3mf, printables.check.giuthi_seeds, printables.check.giuthi_stl
from printables.check.dispatch import check_file, expand
pdfs = sys.argv[1] == "1"
if pdfs:  # the PDF checks' imports and fonts, once, on a file of no set
    import printables.check.giuthi_card, printables.check.giuthi_rules, printables.check.preflight
    check_file(Path(sys.argv[2]))
out = {}
for folder in sys.argv[3:]:
    times = {"board": 0.0, "sprue": 0.0, "3mf": 0.0, "pdf": 0.0}
    failed = 0
    for path in expand(Path(folder)):
        kind = {".json": "board", ".stl": "sprue", ".3mf": "3mf", ".pdf": "pdf" if pdfs else None}.get(path.suffix)
        if kind is None:
            continue
        start = time.process_time()
        results = check_file(path, slicer=False)
        times[kind] += time.process_time() - start
        failed += sum(not r.ok for r in results)
    out[folder] = {"times": times, "failed": failed}
print(json.dumps(out))
"""


def check_once(checkout: Path, folders: list[Path], pdfs: bool, warm: Path) -> dict:
    """Time the checks of ``folders`` in one fresh process running ``checkout``'s code."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", CHILD, "1" if pdfs else "0", str(warm), *map(str, folders)],
                         env=env, cwd=checkout, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{checkout}: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def build(folder: Path) -> list[Path]:
    """Build the default sets without slicing; return their folders."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "printables", "build", "--no-slice", "-o", str(folder), *DEFAULT_SETS],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return [folder / "giuthi-board" / name for name in DEFAULT_SETS]


def warm_pdf(folder: Path) -> Path:
    """A rules sheet outside the sets, checked first so that imports and fonts are not timed."""
    path = folder / "warm-rules.pdf"
    subprocess.run([sys.executable, "-m", "printables", "giuthi", "--rules", "--pits", "10", "-o", str(path)],
                   env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True, stdout=subprocess.DEVNULL)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="built Giuthi set folders (default: build two)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pdfs", action="store_true", help="time the print card and rules sheet checks too")
    parser.add_argument("--together", action="store_true", help="check every set in one process, as a build worker")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, timed alongside")
    args = parser.parse_args()
    checkouts = [ROOT] + ([args.baseline.resolve()] if args.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        folders = [f.resolve() for f in args.folders] or build(Path(tmp))
        warm = warm_pdf(Path(tmp)) if args.pdfs else Path(tmp)
        print(f"load average {os.getloadavg()[0]:.1f} (1 min) before")
        groups = [folders] if args.together else [[f] for f in folders]
        runs: dict[Path, dict[str, list[dict]]] = {c: {str(f): [] for f in folders} for c in checkouts}
        for _ in range(args.rounds):
            for group in groups:  # interleaved, so a change in load hits every set and checkout alike
                for checkout in checkouts:
                    for folder, result in check_once(checkout, group, args.pdfs, warm).items():
                        runs[checkout][folder].append(result)
        print(f"load average {os.getloadavg()[0]:.1f} (1 min) after; CPU seconds, median of {args.rounds} rounds"
              + (", all sets in one process" if args.together else ", each set in its own process"))
        totals = {}
        for checkout in checkouts:
            label = "this checkout" if checkout == ROOT else f"baseline {checkout}"
            print(label)
            per_round = [0.0] * args.rounds
            for folder, results in runs[checkout].items():
                parts = {k: statistics.median(r["times"][k] for r in results) for k in PARTS}
                total = statistics.median(sum(r["times"].values()) for r in results)
                for i, r in enumerate(results):
                    per_round[i] += sum(r["times"].values())
                failed = max(r["failed"] for r in results)
                print(f"  {Path(folder).name:16s} total {total:5.2f} s: board {parts['board']:.2f} (with the sprue's seed"
                      f" volume), sprue {parts['sprue']:.2f}, 3MFs {parts['3mf']:.2f}"
                      + (f", PDFs {parts['pdf']:.2f}" if args.pdfs else "") + f"; {failed} failed checks")
            totals[checkout] = statistics.median(per_round)
            print(f"  {'all sets':16s} total {totals[checkout]:5.2f} s (median of the rounds' sums)")
        if args.baseline:
            print(f"baseline / this checkout: {totals[checkouts[1]] / totals[ROOT]:.2f}x")


if __name__ == "__main__":
    main()
