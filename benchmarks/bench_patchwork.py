"""Print how fast the Patchwork rule core plays random games and generates legal moves."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

# Run from a checkout without installing: the package sits one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printables.rules.patchwork_play import apply, is_terminal, legal_moves, new_game

GAMES_SECONDS = 5.0  # wall time spent on whole random games
MOVEGEN_SECONDS = 3.0  # wall time spent on legal-move generation
SAMPLE_GAMES = 20  # games whose positions make the move-generation sample


def random_game(seed: int) -> list:
    """Play one game with uniformly random legal moves; return the positions met."""
    state, rng, seen = new_game(seed), random.Random(seed), []
    while not is_terminal(state):
        seen.append(state)
        state = apply(state, rng.choice(legal_moves(state)))
    return seen


def bench_games() -> None:
    """Whole random games (move generation plus apply) per second."""
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < GAMES_SECONDS:
        moves += len(random_game(games))
        games += 1
    elapsed = time.perf_counter() - start
    print(f"random complete games: {games / elapsed:8.0f} games/s  "
          f"({games} games, {moves / games:.1f} moves per game, {moves / elapsed:,.0f} moves/s)")


def bench_movegen() -> None:
    """legal_moves calls per second over positions taken from random games."""
    positions = [s for seed in range(10_000, 10_000 + SAMPLE_GAMES) for s in random_game(seed)]
    calls = generated = 0
    start = time.perf_counter()
    while time.perf_counter() - start < MOVEGEN_SECONDS:
        for state in positions:
            generated += len(legal_moves(state))
        calls += len(positions)
    elapsed = time.perf_counter() - start
    print(f"legal-move generation: {calls / elapsed:8.0f} calls/s  "
          f"({generated / calls:.0f} moves per position, {generated / elapsed:,.0f} moves/s, "
          f"{len(positions)} positions)")
    empty = new_game(0)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < 1.0:
        legal_moves(empty)
        calls += 1
    rate = calls / (time.perf_counter() - start)
    count = len(legal_moves(empty))
    print(f"legal-move generation at the start: {rate:8.0f} calls/s ({count} moves)")


if __name__ == "__main__":
    bench_games()
    bench_movegen()
