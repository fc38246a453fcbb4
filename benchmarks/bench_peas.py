"""Breakfast Shy: simulated games per second on the default layout, per policy.

Run: /work/venv/bin/python benchmarks/bench_peas.py [--seconds S]
Each policy plays seeded games for about S seconds (default 4); it prints games per second,
turns per second and the mean score of the games played, so a speed-up that changes play shows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from printables.rules.peas import DEFAULT_LAYOUT, DEFAULT_LAYOUT_NAME
from printables.rules.peas_play import apply, game_seed, legal_moves, new_game, play_game

POLICIES = ("random", "greedy", "lookahead")


def bench_policy(policy: str, seconds: float) -> tuple[int, int, list[int], float]:
    """Play games with ``policy`` until ``seconds`` pass; return games, turns, scores, elapsed."""
    scores: list[int] = []
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not scores:
        game = play_game(DEFAULT_LAYOUT, policy, random.Random(game_seed(0, len(scores))))
        scores.append(game.score)
        turns += game.turns
    return len(scores), turns, scores, time.perf_counter() - start


def bench_legal_moves(seconds: float) -> tuple[int, float]:
    """Calls of legal_moves per second on positions from random play."""
    rng = random.Random(1)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(DEFAULT_LAYOUT)
        moves = legal_moves(state)
        while moves:
            # At a chance point the 36 rolls are the moves, so a uniform choice rolls fair dice.
            state = apply(state, rng.choice(moves))
            moves = legal_moves(state)
            calls += 1
    return calls, time.perf_counter() - start


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="time per policy (s)")
    args = parser.parse_args()
    print(f"layout {DEFAULT_LAYOUT_NAME}: {DEFAULT_LAYOUT} ({len(DEFAULT_LAYOUT)} peas)")
    for policy in POLICIES:
        games, turns, scores, elapsed = bench_policy(policy, args.seconds)
        print(
            f"{policy:>9}: {games / elapsed:8.1f} games/s  {turns / elapsed:9.0f} turns/s  "
            f"mean smushed {statistics.fmean(scores):5.2f} over {games} games"
        )
    calls, elapsed = bench_legal_moves(args.seconds / 2)
    print(f"legal_moves: {calls / elapsed:8.0f} calls/s (random play)")


if __name__ == "__main__":
    main()
