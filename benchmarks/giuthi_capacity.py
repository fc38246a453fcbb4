"""Giuthi capacity analysis: how many seeds a printed pit and store must hold.

Plays seeded games with random and with greedy players (printables.rules.giuthi.play_game) and
prints, per seeds-per-pit, the distribution of the largest pit load and the largest store load
per game (nearest-rank percentiles). The capacity is the larger 99.9th percentile of the two
policies, which is what required_pit_capacity / required_store_capacity return.

Run: /work/venv/bin/python benchmarks/giuthi_capacity.py            (2x6, 4..9 seeds, ~30 s)
     /work/venv/bin/python benchmarks/giuthi_capacity.py --pits-per-row 8
     /work/venv/bin/python benchmarks/giuthi_capacity.py --table --jobs 2
         (every board 2x5..2x10, prints the CAPACITY_TABLE literal; several minutes)
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printables.rules import giuthi as g  # noqa: E402

SEEDS = range(g.MIN_SEEDS_PER_PIT, g.MAX_SEEDS_PER_PIT + 1)
BOARDS = range(g.MIN_PITS_PER_ROW, g.MAX_PITS_PER_ROW + 1)


def _stats(job: tuple[int, int, int, int, str]) -> g.CapacityStats:
    pits_per_row, seeds, games, seed, policy = job
    return g.capacity_stats(pits_per_row, seeds, games, seed, policy)


_HEAD = f"{'p50':>4} {'p90':>4} {'p99':>4} {'p99.9':>6} {'max':>4} {'mean':>6}"


def _load(load: g.LoadStats) -> str:
    return (f"{load.p50:4d} {load.p90:4d} {load.p99:4d} {load.p999:6d} {load.max:4d} "
            f"{load.mean:6.1f}")


def run(boards, games: int, seed: int, jobs: int) -> dict[tuple[int, int, str], g.CapacityStats]:
    """capacity_stats for every board, seeds per pit and policy (in parallel with jobs > 1)."""
    todo = [(n, s, games, seed, p) for n in boards for s in SEEDS for p in g.POLICIES]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_stats, todo))
    else:
        results = [_stats(job) for job in todo]
    return {(r.pits_per_row, r.seeds_per_pit, r.policy): r for r in results}


def print_board(n: int, stats, games: int, seed: int) -> None:
    print(f"\nGiuthi 2x{n}: largest load per game over {games} seeded games per policy "
          f"(seed {seed})")
    print(f"{'':13} | {'most seeds in one pit':^{len(_HEAD)}} | "
          f"{'most seeds in one store':^{len(_HEAD)}} | capacity (99.9th)")
    print(f"{'seeds':>5} {'policy':<7} | {_HEAD} | {_HEAD} |   pit store")
    for s in SEEDS:
        for policy in g.POLICIES:
            r = stats[(n, s, policy)]
            capacity = ""
            if policy == g.POLICIES[-1]:
                pit = max(stats[(n, s, p)].pit.p999 for p in g.POLICIES)
                store = max(stats[(n, s, p)].store.p999 for p in g.POLICIES)
                capacity = f" {pit:5d} {store:5d}"
            print(f"{s:5d} {policy:<7} | {_load(r.pit)} | {_load(r.store)} |{capacity}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits-per-row", type=int, default=g.DEFAULT_PITS_PER_ROW)
    parser.add_argument("--games", type=int, default=g.CAPACITY_GAMES)
    parser.add_argument("--seed", type=int, default=g.CAPACITY_SEED)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--table", action="store_true",
                        help="every board 2x5..2x10; print the CAPACITY_TABLE literal")
    args = parser.parse_args()
    boards = BOARDS if args.table else [args.pits_per_row]
    start = time.perf_counter()
    stats = run(boards, args.games, args.seed, args.jobs)
    for n in boards:
        print_board(n, stats, args.games, args.seed)
    print(f"\n{len(stats) * args.games} games in {time.perf_counter() - start:.1f} s")
    if args.table:
        if (args.games, args.seed) != (g.CAPACITY_GAMES, g.CAPACITY_SEED):
            print("(not the documented CAPACITY_GAMES / CAPACITY_SEED: do not paste this table)")
        print("\nCAPACITY_TABLE = MappingProxyType(\n    {")
        for n in boards:
            row = []
            for s in SEEDS:
                pit = max(stats[(n, s, p)].pit.p999 for p in g.POLICIES)
                store = max(stats[(n, s, p)].store.p999 for p in g.POLICIES)
                row.append(f"({n}, {s}): ({pit}, {store}),")
            print("        " + " ".join(row[:3]))
            print("        " + " ".join(row[3:]))
        print("    }\n)")


if __name__ == "__main__":
    main()
