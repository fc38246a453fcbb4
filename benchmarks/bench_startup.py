"""Cold start of every sheet command against importing reportlab alone.

Run: python benchmarks/bench_startup.py [--rounds N] [--reference CHECKOUT]   (~1 min at the default 15 rounds)

Each round runs, as fresh processes and in turn: the baseline ``python -c "import
reportlab.pdfgen.canvas"``, then ``printables <cmd> --help`` and a real build of the command's
default sheet into a temporary folder, for harvest, minefield, peas and patchwork. Interleaving
keeps a busy machine from favouring either side. For each it prints the median wall time, the
median CPU time (user + system, what the process itself used: steadier on a shared machine) and
both as ratios to the baseline's, the median of each round's CPU ratio ("paired", steadier on
a machine whose load changes) and the ratio of the lower quartiles of the CPU times ("low": other
work on a shared machine only adds time, so the faster rounds are the nearer to a quiet machine;
steadier than the single least time). Goal (issue 14): at most 1.5x the baseline; the verdict
takes, for each command, the largest of its three CPU ratios (issue 23 kept the goal once the
renderer used reportlab's public API only). With --reference (another checkout of the project,
e.g. `git worktree add /tmp/before <commit>`), that checkout's sheet builds run in the same rounds
and are printed as "before" rows, with this checkout's CPU time over theirs, round by round.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHEET_COMMANDS = ("harvest", "minefield", "peas", "patchwork")
GOAL_RATIO = 1.5


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``argv`` to its end in the checkout on ``env``'s PYTHONPATH (``python -m`` puts the working
    folder first on the path); return (wall seconds, CPU seconds of the child)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=env["PYTHONPATH"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode(errors="replace").strip()
    child.stderr.close()
    if child.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {error}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="rounds (medians are reported)")
    parser.add_argument("--reference", type=Path, help="another checkout whose sheet builds run in the same rounds")
    args = parser.parse_args()
    rounds = args.rounds

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's run reads cached bytecode; so must this one
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"baseline: import reportlab.pdfgen.canvas": [python, "-c", "import reportlab.pdfgen.canvas"]}
        for cmd in SHEET_COMMANDS:
            cases[f"printables {cmd} --help"] = [python, "-m", "printables", cmd, "--help"]
            cases[f"printables {cmd} -o {cmd}.pdf"] = [python, "-m", "printables", cmd, "-o", str(Path(tmp, f"{cmd}.pdf"))]
        envs = {name: env for name in cases}
        if args.reference:
            reference_env = dict(env, PYTHONPATH=str(args.reference.resolve()))
            for cmd in SHEET_COMMANDS:
                name = f"before: {cmd} -o {cmd}.pdf"
                cases[name] = [python, "-m", "printables", cmd, "-o", str(Path(tmp, f"before-{cmd}.pdf"))]
                envs[name] = reference_env
        for name, argv in cases.items():  # warm the file cache and the bytecode caches once
            run(argv, envs[name])
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, argv in cases.items():
                times[name].append(run(argv, envs[name]))

    medians = {name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for name, t in times.items()}
    base_wall, base_cpu = next(iter(medians.values()))
    base_times = next(iter(times.values()))
    # paired: each round's CPU time over the baseline's in the same round, then the median; the
    # load of a shared machine changes from round to round, so this moves less between runs
    paired = {name: statistics.median(c / b for (_, c), (_, b) in zip(t, base_times)) for name, t in times.items()}
    low = {name: statistics.quantiles([c for _, c in t], n=4)[0] for name, t in times.items()}
    base_low = low[next(iter(low))]
    print(f"cold start, median of {rounds} interleaved rounds (python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f})")
    print(f"{'':<42} {'wall':>8} {'ratio':>6}   {'CPU':>8} {'ratio':>6} {'paired':>7}   {'low CPU':>7} {'ratio':>6}")
    # The verdict takes the worst of the three CPU ratios of every command, so that no one way of
    # reading a noisy run decides it alone.
    worst, worst_name = 0.0, ""
    for name, (wall, cpu) in medians.items():
        ratio = max(cpu / base_cpu, paired[name], low[name] / base_low)
        if name.startswith("printables") and ratio > worst:
            worst, worst_name = ratio, name
        print(f"{name:<42} {wall * 1000:>6.0f}ms {wall / base_wall:>5.2f}x   {cpu * 1000:>6.0f}ms {cpu / base_cpu:>5.2f}x"
              f" {paired[name]:>6.2f}x   {low[name] * 1000:>5.0f}ms {low[name] / base_low:>5.2f}x")
    if args.reference:
        for cmd in SHEET_COMMANDS:
            now, before = times[f"printables {cmd} -o {cmd}.pdf"], times[f"before: {cmd} -o {cmd}.pdf"]
            change = statistics.median(c / b for (_, c), (_, b) in zip(now, before))
            print(f"{cmd}: CPU {change:.3f}x the reference's ({args.reference}), median of each round's ratio")
    print(f"worst CPU ratio {worst:.2f}x, {worst_name} (the largest of its median, paired and low ratios;"
          f" goal <= {GOAL_RATIO}x): {'met' if worst <= GOAL_RATIO else 'not met'}")


if __name__ == "__main__":
    main()
