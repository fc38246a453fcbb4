"""Minefield rule core speed: random complete games per second and legality checks per second.

Run: /work/venv/bin/python benchmarks/bench_minefield.py
Each figure is measured over a fixed time budget with a fixed seed, so the games played are the
same run to run; only the counts within the budget depend on the machine.
"""

from __future__ import annotations

import random
import time

from printables.rules import minefield as mf

SEED = 20240501
GAME_SIZES = (9, 11, 19)
GAME_BUDGET_S = 5.0  # seconds of random games per board size
CHECK_SIZE = 11
CHECK_POSITIONS = 50  # mid-game positions sampled for the legality checks
CHECK_BUDGET_S = 3.0  # seconds of legality checks


def random_game(size: int, rng: random.Random) -> mf.GameState:
    """Play uniformly random legal moves until the game is over."""
    state = mf.new_game(size)
    while not mf.is_terminal(state):
        state = mf.apply(state, rng.choice(mf.legal_moves(state)))
    return state


def bench_games(size: int) -> None:
    """Print random complete games per second on a size x size board."""
    rng = random.Random(SEED + size)
    games = placements = 0
    results = {mf.BLACK: 0, mf.WHITE: 0, mf.DRAW: 0}
    full = 0
    start = time.perf_counter()
    while time.perf_counter() - start < GAME_BUDGET_S:
        state = random_game(size, rng)
        games += 1
        placements += (state.position.black | state.position.white).bit_count()
        results[mf.outcome(state)] += 1
        full += state.position.is_full()
    elapsed = time.perf_counter() - start
    print(
        f"{size}x{size}: {games / elapsed:8.1f} random games/s  "
        f"({placements / elapsed:8.0f} placements/s, {placements / games:5.1f} stones/game, "
        f"{games} games: Black {results[mf.BLACK]}, White {results[mf.WHITE]}, "
        f"draws {results[mf.DRAW]}, full boards {full})"
    )


def bench_checks() -> None:
    """Print legality checks per second (``is_legal_placement``) on mid-game positions."""
    rng = random.Random(SEED)
    cases = []
    for _ in range(CHECK_POSITIONS):
        state = mf.new_game(CHECK_SIZE)
        # Stop a random game half way: a realistic mix of legal and illegal points.
        for _ in range(CHECK_SIZE * CHECK_SIZE // 2):
            if mf.is_terminal(state):
                break
            state = mf.apply(state, rng.choice(mf.legal_moves(state)))
        for point in state.position.empty_points():
            for colour in mf.COLOURS:
                cases.append((state.position, point, colour))
    rng.shuffle(cases)
    checks = illegal = 0
    start = time.perf_counter()
    while time.perf_counter() - start < CHECK_BUDGET_S:
        for position, point, colour in cases:
            illegal += not mf.is_legal_placement(position, point, colour)
        checks += len(cases)
    elapsed = time.perf_counter() - start
    print(
        f"legality checks on {CHECK_SIZE}x{CHECK_SIZE} mid-game positions: "
        f"{checks / elapsed:10.0f} checks/s ({illegal / checks:.0%} of the empty points illegal)"
    )
    # For comparison, what the incremental update saves: a full rescan of both colours.
    scans = 0
    start = time.perf_counter()
    positions = list(dict.fromkeys(position for position, _, _ in cases))
    while time.perf_counter() - start < CHECK_BUDGET_S / 3:
        for position in positions:
            mf.scan_legal_points(position, mf.BLACK)
            mf.scan_legal_points(position, mf.WHITE)
        scans += len(positions)
    elapsed = time.perf_counter() - start
    print(
        f"full rescans of both colours' legal points on {CHECK_SIZE}x{CHECK_SIZE}: "
        f"{scans / elapsed:8.0f} /s"
    )


def main() -> None:
    """Run every benchmark and print its figures."""
    for size in GAME_SIZES:
        bench_games(size)
    bench_checks()


if __name__ == "__main__":
    main()
