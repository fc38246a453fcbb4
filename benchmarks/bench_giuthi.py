"""Giuthi rule core speed: random complete games per second and legal moves generated per second.

Run: /work/venv/bin/python benchmarks/bench_giuthi.py   (2x6 board, 4 seeds per pit, ~10 s)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printables.rules import giuthi as g  # noqa: E402

PITS_PER_ROW = 6
SEEDS_PER_PIT = 4
SECONDS_PER_FIGURE = 2.0  # wall time each figure is measured over


def api_game(rng: random.Random) -> tuple[int, list[g.State]]:
    """One random game through the public API; returns choice points played and the states."""
    state = g.initial_state(PITS_PER_ROW, SEEDS_PER_PIT)
    states = [state]
    while options := g.legal_moves(state):
        state = g.apply(state, options[rng.randrange(len(options))])
        states.append(state)
    return len(states) - 1, states


def rate(run, label: str, unit: str) -> tuple[int, int, float]:
    """Call run(k) (returning a count of ``unit``) for SECONDS_PER_FIGURE; print the rate."""
    done = calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < SECONDS_PER_FIGURE:
        done += run(calls)
        calls += 1
    print(f"{label:<50} {done / elapsed:>9,.0f} {unit}/s   ({done:,} in {elapsed:.1f} s)")
    return done, calls, elapsed


def main() -> None:
    print(f"Giuthi 2x{PITS_PER_ROW}, {SEEDS_PER_PIT} seeds per pit")

    def api_games(k: int) -> int:
        api_game(random.Random(k))
        return 1

    def fast_games(policy: str):
        def run(k: int) -> int:
            g.play_game(PITS_PER_ROW, SEEDS_PER_PIT, g.game_rng(0, k), policy)
            return 1

        return run

    rate(api_games, "random games, public API (legal_moves + apply)", "games")
    rate(fast_games("random"), "random games, play_game (capacity analysis)", "games")
    rate(fast_games("greedy"), "greedy games, play_game (capacity analysis)", "games")

    # Positions (choice points) of a few random games, then legal_moves on each, over and over.
    positions = [s for k in range(20) for s in api_game(random.Random(1000 + k))[1]]

    def generate(k: int) -> int:
        return sum(len(g.legal_moves(s)) for s in positions)

    _, calls, elapsed = rate(generate, "moves generated, legal_moves", "moves")
    print(f"{'  positions searched, legal_moves calls':<50} "
          f"{calls * len(positions) / elapsed:>9,.0f} calls/s   ({len(positions)} positions)")

    def apply_all(k: int) -> int:
        count = 0
        for s in positions[:200]:
            for m in g.legal_moves(s):
                g.apply_traced(s, m)
                count += 1
        return count

    rate(apply_all, "moves applied with their lap trace, apply_traced", "moves")


if __name__ == "__main__":
    main()
