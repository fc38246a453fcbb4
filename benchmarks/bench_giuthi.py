"""Giuthi rule core speed: random complete games per second through the public API.

Run: python benchmarks/bench_giuthi.py [--rounds N]   (2x6 board, 4 seeds per pit, ~20 s)

A game is played the way a user's random player would: ``legal_moves``, a uniform draw with a
fixed-seed ``random.Random`` (game k uses seed k), ``apply``, until no move is left. Beside it the
script times a floor: the same kind of game with one plain sowing per choice point (a random
sowable pit and direction, sown once with the engine's reference kernel ``_sow`` on a list, no
legality, no end checks beyond an empty side). The two are timed in alternating rounds and the
best round of each is reported (CPU time), since the machine may be shared; the ratio is API /
floor per choice point, and the load average is printed with the figures. (The floor kept its
definition when legal_moves moved to the packed-board kernel, so ratios compare across versions;
the API now sows each candidate faster than the floor's ``_sow`` does.)

Goal (issue 14): at least 2,900 games/s, five times StoneShark/MancalaGames' random games on a quiet
core of this machine (about 580 games/s).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printables.rules import giuthi as g  # noqa: E402

PITS_PER_ROW = 6
SEEDS_PER_PIT = 4
GAMES_PER_ROUND = 200
GOAL_GAMES_PER_S = 2_900
PEER_GAMES_PER_S = 580  # MancalaGames, random 2x6/4 games on a quiet core (issue 14)


def api_games(first: int, count: int) -> int:
    """Play ``count`` random games through legal_moves + apply; return the moves played."""
    moves = 0
    legal_moves, apply = g.legal_moves, g.apply
    for k in range(first, first + count):
        rng = random.Random(k)
        state = g.initial_state(PITS_PER_ROW, SEEDS_PER_PIT)
        while options := legal_moves(state):
            state = apply(state, options[rng.randrange(len(options))])
            moves += 1
    return moves


def floor_games(first: int, count: int) -> int:
    """The floor: one sowing per choice point, no legality or end checks; return sowings made."""
    n = PITS_PER_ROW
    sowings = 0
    sow = g._sow
    for k in range(first, first + count):
        rng = random.Random(k)
        pits = [SEEDS_PER_PIT] * (2 * n)
        player = g.SOUTH
        idle = 0
        while any(pits[:n]) and any(pits[n:]) and idle < 2:
            lo = player * n
            sowable = [(p, d) for p in range(lo, lo + n) if pits[p] >= 2 for d in (1, -1)]
            if not sowable:
                idle += 1
                player = 1 - player
                continue
            idle = 0
            pit, d = sowable[rng.randrange(len(sowable))]
            code, _, _ = sow(pits, pit, d, player, n)
            sowings += 1
            if code != g._AGAIN:
                player = 1 - player
    return sowings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (best is kept)")
    rounds = parser.parse_args().rounds

    best = {"api": float("inf"), "floor": float("inf")}
    work = {}
    for r in range(rounds):
        for name, run in (("api", api_games), ("floor", floor_games)):
            start = time.process_time()
            work[name] = run(0, GAMES_PER_ROUND)  # same games every round
            best[name] = min(best[name], time.process_time() - start)

    api_rate = GAMES_PER_ROUND / best["api"]
    floor_rate = GAMES_PER_ROUND / best["floor"]
    per_move_api = best["api"] / work["api"]
    per_move_floor = best["floor"] / work["floor"]
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"Giuthi 2x{PITS_PER_ROW}, {SEEDS_PER_PIT} seeds per pit: {GAMES_PER_ROUND} random games per round,"
          f" best of {rounds} rounds (CPU time; load average {load} on {os.cpu_count()} cores)")
    print(f"public API (legal_moves + apply) {api_rate:>8,.0f} games/s  {work['api'] / best['api']:>9,.0f} moves/s"
          f"  ({work['api'] / GAMES_PER_ROUND:.1f} moves per game)")
    print(f"floor (one sowing per choice)    {floor_rate:>8,.0f} games/s  {work['floor'] / best['floor']:>9,.0f} sowings/s"
          f"  ({work['floor'] / GAMES_PER_ROUND:.1f} per game)")
    print(f"ratio API / floor per choice point: {per_move_floor / per_move_api:.2f}"
          f"  (games/s: {api_rate / floor_rate:.2f})")
    print(f"goal {GOAL_GAMES_PER_S:,} games/s (5x the peer's ~{PEER_GAMES_PER_S} on a quiet core):"
          f" {api_rate / PEER_GAMES_PER_S:.1f}x the peer, {'met' if api_rate >= GOAL_GAMES_PER_S else 'not met'}")

    # Capacity analysis (play_game: raw tuples, one candidate sown per random draw).
    for policy in g.POLICIES:
        start = time.process_time()
        for k in range(GAMES_PER_ROUND):
            g.play_game(PITS_PER_ROW, SEEDS_PER_PIT, g.game_rng(0, k), policy)
        print(f"play_game, {policy:<6} policy (capacity analysis) "
              f"{GAMES_PER_ROUND / (time.process_time() - start):>8,.0f} games/s")


if __name__ == "__main__":
    main()
