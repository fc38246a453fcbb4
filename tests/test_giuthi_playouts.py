"""Whole random games through the public API against a naive second implementation of the rules.

The engine's move generation is tuned for speed (an inlined sowing loop, choices cached on the
state, no re-validation in apply). This plays fixed-seed random games the way
benchmarks/bench_giuthi.py does (legal_moves, a uniform draw, apply) next to a slow reference
written seed by seed from shared/rules/giuthi.md, drawing from the same generator, and requires
the same move at every choice point and the same final position.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from printables.rules import giuthi as g


def reference_sowing(pits, pit, direction, player):
    """One chosen sowing with its relays, seed by seed: (kind, pits after, seeds captured).

    kind is "again", "stop", "none", "capture", or "loop" when the within-turn state (board,
    lifted pit, direction, crossed) repeats, which would never end (rule 5).
    """
    pits = list(pits)
    n = len(pits) // 2
    mine = range(player * n, player * n + n)
    crossed = False
    states = set()
    while True:
        state = (tuple(pits), pit, direction, crossed)
        if state in states:
            return "loop", None, 0
        states.add(state)
        hand, pits[pit], here = pits[pit], 0, pit
        while hand:
            here = (here + direction) % (2 * n)
            pits[here] += 1
            hand -= 1
            crossed = crossed or here not in mine
        if pits[here] >= 2:
            pit, direction = here, -direction
            continue
        if here not in mine:
            return "stop", tuple(pits), 0
        if not crossed:
            return "again", tuple(pits), 0
        captured = 0
        cell = here
        while cell in mine and (cell == here or pits[cell] == 0):
            facing = 2 * n - 1 - cell
            if pits[facing] == 0:
                break
            captured += pits[facing]
            pits[facing] = 0
            cell += direction
        return ("capture" if captured else "none"), tuple(pits), captured


def reference_choices(pits, player, seen):
    """Legal sowings in legal_moves order: [((pit, direction), kind, pits after, captured)]."""
    n = len(pits) // 2
    found = []
    for pit in range(player * n, player * n + n):
        for direction in (1, -1):
            if pits[pit] < 2:
                continue
            kind, after, captured = reference_sowing(pits, pit, direction, player)
            if kind == "loop" or (kind == "again" and after in seen):
                continue
            found.append(((pit, direction), kind, after, captured))
    return found


def reference_game(pits_per_row, seeds_per_pit, rng):
    """A random game: one uniform draw per choice point (a pass is a choice point of one)."""
    pits = (seeds_per_pit,) * (2 * pits_per_row)
    stores = [0, 0]
    player = g.SOUTH
    history = set()  # positions at turn starts since the last capture
    played = []
    while True:
        n = pits_per_row
        if not any(pits[:n]) or not any(pits[n:]):
            break
        position = (pits, tuple(stores), player)
        if position in history:
            break
        choices = reference_choices(pits, player, {pits})
        if not choices and not reference_choices(pits, 1 - player, {pits}):
            break
        history.add(position)
        if not choices:
            rng.randrange(1)  # the API offers (PASS,) and the player draws it
            played.append("pass")
        seen = {pits}
        while choices:
            (pit, direction), kind, pits, captured = choices[rng.randrange(len(choices))]
            played.append((pit, direction))
            if kind != "again":
                if captured:
                    stores[player] += captured
                    history.clear()
                break
            seen.add(pits)
            choices = reference_choices(pits, player, seen)
        player = 1 - player
    return played, (pits, tuple(stores), player)


def api_game(pits_per_row, seeds_per_pit, rng):
    """The same game through legal_moves and apply, as benchmarks/bench_giuthi.py plays it."""
    state = g.initial_state(pits_per_row, seeds_per_pit)
    played = []
    while options := g.legal_moves(state):
        move = options[rng.randrange(len(options))]
        played.append("pass" if move.is_pass else (move.sowings[0].pit, int(move.sowings[0].direction)))
        state = g.apply(state, move)
    return played, (state.pits, state.stores, state.player)


def digest(games) -> str:
    return hashlib.sha256(repr(games).encode()).hexdigest()


@pytest.mark.parametrize("size, games", [((6, 4), 60), ((5, 4), 15), ((6, 9), 6), ((7, 5), 10), ((10, 4), 6)])
def test_random_games_match_a_naive_reference(size, games):
    engine, reference = [], []
    for seed in range(games):
        engine.append(api_game(*size, random.Random(seed)))
        reference.append(reference_game(*size, random.Random(seed)))
        assert engine[-1] == reference[-1], f"2x{size[0]}/{size[1]}, game {seed}"
    assert digest(engine) == digest(reference)
    assert sum(len(moves) for moves, _ in engine) > 20 * games  # whole games, not a stub


def test_reference_finds_the_loop_of_the_rules_text():
    # Rule 5's example: on 2x5, South 3 0 3 1 4 / North 1 1 1 1 1, pit 0 sown CW relays forever.
    pits = (3, 0, 3, 1, 4, 1, 1, 1, 1, 1)
    assert reference_sowing(pits, 0, -1, g.SOUTH)[0] == "loop"
    legal = [(m.sowings[0].pit, int(m.sowings[0].direction)) for m in g.legal_moves(g.State(pits))]
    assert legal == [c[0] for c in reference_choices(pits, g.SOUTH, {pits})]
    assert (0, -1) not in legal


def test_long_relay_chains_match_the_reference():
    # Chains of 41 to 47 laps (found by a random search): longer than the laps legal_moves sows
    # inline, so they take the engine's other path; each still ends and must be offered.
    for pits, pit, direction in [
        ((3, 1, 5, 5, 0, 8, 8, 3, 8, 1, 3, 1, 2, 5), 0, 1),
        ((5, 2, 1, 3, 1, 5, 2, 3, 2, 1, 1, 8), 1, 1),
        ((5, 5, 3, 1, 5, 4, 4, 5, 8, 3, 4, 3, 4, 4, 8, 3), 2, -1),
    ]:
        laps = g.apply_traced(g.State(pits), g.Move.of((pit, direction))).laps
        assert len(laps) > g.LOOP_CHECK_AFTER_LAPS
        state = g.State(pits)
        legal = [(m.sowings[0].pit, int(m.sowings[0].direction)) for m in g.legal_moves(state)]
        assert legal == [c[0] for c in reference_choices(pits, g.SOUTH, {pits})]
        after = g.apply(state, g.legal_moves(state)[legal.index((pit, direction))])
        assert after.pits == reference_sowing(pits, pit, direction, g.SOUTH)[1]
