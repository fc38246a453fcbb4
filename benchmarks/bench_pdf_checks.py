"""CPU time of `printables check` on every PDF of a build: per file, per kind of file, in all.

Run: python benchmarks/bench_pdf_checks.py [FOLDER] [--rounds N] [--baseline CHECKOUT]

FOLDER is a `printables build` output (its PDFs, in every subfolder, are checked: sheets, Giuthi
print cards and rules sheets); without it the sheet presets and an English and a Korean Giuthi
rules sheet are built into a temporary folder first (~20 s). Each round checks every file once in
a fresh process (``check_file``, as `printables check` and `build` run it) and records each file's
CPU time (time.process_time, steadier than wall time on a shared machine); a file's figure is its
best round. With --baseline (another checkout of the project, e.g. `git worktree add /tmp/base
<commit>`), its code checks the same files in rounds interleaved with this checkout's, so a busy
machine favours neither side; the figures are printed side by side with their ratio. The last
line is the part of it all the clearance preflight took (``clearance_findings``, timed around it in
each file's best round). The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ROUND = r"""
import json, sys, time
from pathlib import Path
from printables.check import preflight
from printables.check.dispatch import check_file
files = [Path(p) for p in json.loads(sys.argv[1])]
check_file(files[0])  # imports, fonts and the like, once
clearance = {"s": 0.0}
findings = getattr(preflight, "clearance_findings", None)
if findings is not None:  # the clearance preflight's own share, timed around our own function
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return findings(*args, **kwargs)
        finally:
            clearance["s"] += time.process_time() - start
    preflight.clearance_findings = timed
times, shares = {}, {}
for f in files:
    clearance["s"] = 0.0
    start = time.process_time()
    results = check_file(f)
    times[str(f)] = time.process_time() - start
    shares[str(f)] = clearance["s"]
    if not all(r.ok for r in results):
        sys.exit(f"{f}: " + "; ".join(f"{r.name}: {r.detail}" for r in results if not r.ok))
print(json.dumps({"times": times, "clearance": shares}))
"""


def kind_of(path: Path) -> str:
    """The row a file is counted in: its game, or the Giuthi card or rules sheet."""
    name = path.name
    if name.startswith("giuthi-print-settings"):
        return "giuthi card"
    if name.startswith(("giuthi-rules", "rules")):
        return "giuthi rules"
    return name.split("-")[0]


def build(folder: Path) -> None:
    """The sheet presets and two Giuthi rules sheets, built into ``folder``."""
    python = [sys.executable, "-m", "printables"]
    listed = subprocess.run(python + ["list"], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    rows = [line.split() for line in listed.splitlines() if line.strip() and not line[0].isspace()]
    sheets = [row[0] for row in rows if len(row) > 1 and row[1] != "giuthi-board"]  # (name, kind, description)
    subprocess.run(python + ["build", "--no-slice", "-o", str(folder), *sheets], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    for lang in ("en", "ko"):
        subprocess.run(python + ["giuthi", "--rules", "--lang", lang, "-o", str(folder / f"giuthi-rules-{lang}.pdf")],
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def one_round(checkout: Path, files: list[Path]) -> tuple[dict[str, float], dict[str, float]]:
    """Each file's check CPU seconds, and the part of them the clearance preflight took."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", ROUND, json.dumps([str(f) for f in files])], env=env, cwd=checkout,
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{checkout}: {out.stderr.strip()[-2000:]}")
    found = json.loads(out.stdout)
    return found["times"], found["clearance"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout whose checks are timed alongside")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder
        if folder is None:
            folder = Path(tmp)
            build(folder)
        files = sorted(folder.rglob("*.pdf"))
        files = [f for f in files if "gallery" not in f.parts and not any(p.startswith(".") for p in f.parts)]
        if not files:
            raise SystemExit(f"no PDFs under {folder}")
        sides = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
        best: dict[str, dict[str, float]] = {side: {} for side in sides}
        clearance: dict[str, dict[str, float]] = {side: {} for side in sides}  # in each file's best round
        for _ in range(args.rounds):
            for side, checkout in sides.items():
                times, shares = one_round(checkout, files)
                for f, t in times.items():
                    if t < best[side].get(f, math.inf):
                        best[side][f], clearance[side][f] = t, shares[f]
    rows: dict[str, dict[str, float]] = {side: defaultdict(float) for side in sides}
    counts: dict[str, int] = defaultdict(int)
    width = max(len(str(f.relative_to(folder))) for f in files)
    header = f"{'file':<{width}}  {'CPU s':>7}" + (f"  {'baseline':>8}  {'ratio':>6}" if args.baseline else "")
    print(f"best of {args.rounds} round(s), {len(files)} PDFs in {folder}\n{header}")
    for f in files:
        kind = kind_of(f)
        counts[kind] += 1
        line = f"{str(f.relative_to(folder)):<{width}}  {best['this'][str(f)]:7.3f}"
        for side in sides:
            rows[side][kind] += best[side][str(f)]
        if args.baseline:
            base = best["baseline"][str(f)]
            line += f"  {base:8.3f}  {base / best['this'][str(f)]:5.1f}x"
        print(line)
    print()
    for kind in sorted(counts):
        line = f"{kind + f' ({counts[kind]} files)':<{width}}  {rows['this'][kind]:7.3f}"
        if args.baseline:
            line += f"  {rows['baseline'][kind]:8.3f}  {rows['baseline'][kind] / rows['this'][kind]:5.1f}x"
        print(line)
    total = sum(rows["this"].values())
    line = f"{'all':<{width}}  {total:7.3f}"
    if args.baseline:
        base = sum(rows["baseline"].values())
        line += f"  {base:8.3f}  {base / total:5.1f}x"
    print(line)
    share = sum(clearance["this"].values())
    line = f"{'of which clearance':<{width}}  {share:7.3f}"
    if args.baseline:
        base = sum(clearance["baseline"].values())
        line += f"  {base:8.3f}  {base / share:5.1f}x" if share else f"  {base:8.3f}"
    print(line)
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
