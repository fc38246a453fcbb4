"""Giuthi rule core speed: random complete games per second through the public API.

Run: python benchmarks/bench_giuthi.py [--rounds N] [--peer DIR]   (2x6 board, 4 seeds per pit, ~20 s)

A game is played the way a user's random player would: ``legal_moves``, a uniform draw with a
fixed-seed ``random.Random`` (game k uses seed k), ``apply``, until no move is left. Beside it the
script times a floor: the same kind of game with one plain sowing per choice point (a random
sowable pit and direction, sown once with the engine's reference kernel ``_sow`` on a list, no
legality, no end checks beyond an empty side). The sides are timed in alternating rounds and the
best round of each is reported (CPU time), since the machine may be shared; the ratio is API /
floor per choice point, and the load average is printed with the figures. (The floor kept its
definition when legal_moves moved to the packed-board kernel, so ratios compare across versions;
the API now sows each candidate faster than the floor's ``_sow`` does.)

The peer. ``--peer DIR`` also times StoneShark's MancalaGames (https://github.com/StoneShark/MancalaGames)
from DIR, a copy the user fetched (``git clone https://github.com/StoneShark/MancalaGames DIR``): it
is never part of this project. Its Giuthi (GameProps/Giuthi.txt) is set to 2x6 holes, 4 seeds, a
single game (no rounds), and played as its own analysis scripts play a random game
(analysis/play_game.py): ``get_moves``, a uniform draw (game k uses seed k), ``move``, then
``test_pass``, until the game is over. Its rounds alternate with ours, and the ratio printed is
of the two best rounds of this run. Without --peer no ratio to the peer is printed.

Goal (issue 23): five times MancalaGames' games per second, timed side by side.
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
GOAL_PEER_RATIO = 5.0  # games/s against MancalaGames', timed in the same run
PEER_URL = "https://github.com/StoneShark/MancalaGames"
PEER_MOVE_LIMIT = 2000  # moves before a peer game is given up (its own scripts stop at 500 turns)


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


def load_peer(folder: Path):
    """MancalaGames' Giuthi from ``folder``, set to 2x6 holes, 4 seeds and a single game.

    Exits with one line (code 2) if ``folder`` does not hold MancalaGames.
    """
    source, props = folder / "src", folder / "GameProps" / "Giuthi.txt"
    if not (source / "mancala.py").is_file() or not props.is_file():
        print(f"--peer {folder}: not a copy of MancalaGames (no src/mancala.py and GameProps/Giuthi.txt);"
              f" get it with: git clone {PEER_URL} {folder}", file=sys.stderr)
        raise SystemExit(2)
    sys.path.insert(0, str(source))
    try:
        import animator  # MancalaGames' own modules, from the user's copy
        import game_info
        import game_logger
        import man_config

        animator.ENABLED = False  # as its analysis scripts run it: no animation, no game log
        game_logger.game_log.active = False
        config = man_config.read_game(str(props))
        config["game_constants"].update(holes=PITS_PER_ROW, nbr_start=SEEDS_PER_PIT)
        info = config["game_info"]
        info["rounds"] = game_info.Rounds.NO_ROUNDS  # its variation "played as a single game"
        info["round_fill"] = game_info.RoundFill.NOT_APPLICABLE
        info["round_starter"] = game_info.RoundStarter.ALTERNATE
        info["udir_holes"] = list(range(PITS_PER_ROW))  # the sowing direction is chosen in every hole
        return man_config.game_from_config(config)
    except Exception as error:  # another release of it that this script does not know how to set up
        print(f"--peer {folder}: cannot set up MancalaGames' Giuthi at 2x{PITS_PER_ROW}, {SEEDS_PER_PIT} seeds"
              f" ({type(error).__name__}: {error})", file=sys.stderr)
        raise SystemExit(2) from None


def peer_games(game, first: int, count: int) -> int:
    """Play ``count`` random games of MancalaGames' ``game``; return the moves played."""
    moves = 0
    for k in range(first, first + count):
        rng = random.Random(k)
        game.new_game()
        for _ in range(PEER_MOVE_LIMIT):
            options = game.get_moves()
            cond = game.move(options[rng.randrange(len(options))])
            moves += 1
            if cond and cond.is_game_over():
                break
            if game.info.mustpass:
                game.test_pass()
        else:
            raise SystemExit(f"MancalaGames game {k} did not end in {PEER_MOVE_LIMIT} moves")
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (best is kept)")
    parser.add_argument("--peer", type=Path, metavar="DIR",
                        help=f"a copy of MancalaGames to time alongside (git clone {PEER_URL} DIR)")
    args = parser.parse_args()
    rounds = args.rounds
    if rounds < 1:
        parser.error(f"--rounds {rounds}: must be 1 or more")

    sides = {"api": api_games, "floor": floor_games}
    if args.peer is not None:
        peer = load_peer(args.peer)
        sides["peer"] = lambda first, count: peer_games(peer, first, count)
    best = dict.fromkeys(sides, float("inf"))
    work = {}
    for r in range(rounds):
        for name, run in sides.items():
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
    if args.peer is None:
        print(f"no peer timed, so no ratio to it: to time MancalaGames alongside, fetch it"
              f" (git clone {PEER_URL} DIR; it is not part of this project) and run with --peer DIR")
    else:
        peer_rate = GAMES_PER_ROUND / best["peer"]
        ratio = api_rate / peer_rate
        print(f"MancalaGames (get_moves + move)  {peer_rate:>8,.0f} games/s  {work['peer'] / best['peer']:>9,.0f} moves/s"
              f"  ({work['peer'] / GAMES_PER_ROUND:.1f} moves per game: its Giuthi's rules differ in details)")
        print(f"API / MancalaGames, same run: {ratio:.2f}x games/s; goal {GOAL_PEER_RATIO:.0f}x:"
              f" {'met' if ratio >= GOAL_PEER_RATIO else 'not met'}")

    # Capacity analysis (play_game: raw tuples, one candidate sown per random draw).
    for policy in g.POLICIES:
        start = time.process_time()
        for k in range(GAMES_PER_ROUND):
            g.play_game(PITS_PER_ROW, SEEDS_PER_PIT, g.game_rng(0, k), policy)
        print(f"play_game, {policy:<6} policy (capacity analysis) "
              f"{GAMES_PER_ROUND / (time.process_time() - start):>8,.0f} games/s")


if __name__ == "__main__":
    main()
