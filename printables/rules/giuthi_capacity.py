"""Giuthi's capacity analysis: how many seeds a printed pit and store must hold.

Many seeded games of random and of greedy players, played on plain tuples of pits with the
reference sowing of printables/rules/giuthi_kernel.py (the same rules as the engine's apply), and
the largest pit and store loads they reach; ``CAPACITY_TABLE`` holds the results the board is
sized with. The engine, printables/rules/giuthi.py, re-exports the public names.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from printables.rules.giuthi_kernel import (
    AGAIN,
    DEFAULT_PITS_PER_ROW,
    DEFAULT_SEEDS_PER_PIT,
    LOOP,
    MIN_SEEDS_TO_SOW,
    SOUTH,
    Sown,
    has_sowing,
    legal_sowings,
    side_empty,
    sow,
    validate_parameters,
)

POLICIES = ("random", "greedy")
# required_*_capacity: the 99.9th percentile (nearest rank: the 3rd largest of 2000) of the
# per-game peak load, the larger of the random and the greedy runs.
CAPACITY_GAMES = 2000  # seeded games per policy
CAPACITY_SEED = 1  # seed of those games (game g of a run has its own Random, see game_rng)


class GameLoads(NamedTuple):
    """The extreme loads of one game: most seeds in any pit, most in any store, turns played."""

    pit: int
    store: int
    turns: int


@dataclass(frozen=True)
class LoadStats:
    """Distribution of a per-game maximum over many games (nearest-rank percentiles)."""

    p50: int
    p90: int
    p99: int
    p999: int
    max: int
    mean: float


@dataclass(frozen=True)
class CapacityStats:
    """Pit and store load distributions of ``games`` seeded games with one policy."""

    pits_per_row: int
    seeds_per_pit: int
    policy: str
    games: int
    seed: int
    pit: LoadStats
    store: LoadStats


def percentile(values: Sequence[int], percent: float) -> int:
    """Nearest-rank percentile: the smallest value with at least ``percent`` % of values <= it."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 < percent <= 100:
        raise ValueError(f"percent={percent!r}: must be in (0, 100]")
    ordered = sorted(values)
    # Integer arithmetic in per-mille steps avoids 0.999 * 1000 = 998.9999... rounding up wrongly.
    rank = -(-round(percent * 1000) * len(ordered) // 100_000)
    return ordered[max(rank, 1) - 1]


def load_stats(values: Sequence[int]) -> LoadStats:
    """Percentiles (50, 90, 99, 99.9), maximum and mean of per-game loads."""
    return LoadStats(
        p50=percentile(values, 50),
        p90=percentile(values, 90),
        p99=percentile(values, 99),
        p999=percentile(values, 99.9),
        max=max(values),
        mean=sum(values) / len(values),
    )


def game_rng(seed: int, game: int) -> random.Random:
    """The generator of game number ``game`` in a run seeded with ``seed``."""
    return random.Random(f"giuthi:{seed}:{game}")


def _random_choice(
    pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]], rng: random.Random
) -> Sown | None:
    """A legal sowing drawn uniformly, or None if there is none.

    Draws among the sowable (pit, direction) pairs and throws an illegal one out before drawing
    again, which is uniform over the legal ones yet sows about one candidate instead of all.
    """
    n = len(pits) // 2
    candidates = [
        (pit, d)
        for pit in range(player * n, (player + 1) * n)
        if pits[pit] >= MIN_SEEDS_TO_SOW
        for d in (1, -1)
    ]
    while candidates:
        k = rng.randrange(len(candidates)) if len(candidates) > 1 else 0
        pit, d = candidates[k]
        work = list(pits)
        code, captured, peak = sow(work, pit, d, player, n)
        after = tuple(work)
        if code == LOOP or (code == AGAIN and after in seen):
            del candidates[k]
            continue
        return Sown(pit, d, code == AGAIN, after, captured, peak)
    return None


def _greedy_choice(
    pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]], rng: random.Random
) -> Sown | None:
    """A legal sowing capturing the most seeds right away (ties drawn uniformly), or None."""
    choices = list(legal_sowings(pits, player, seen, sow))
    if not choices:
        return None
    best = max(c.captured for c in choices)
    choices = [c for c in choices if c.captured == best]
    return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]


def play_game(
    pits_per_row: int, seeds_per_pit: int, rng: random.Random, policy: str = "random"
) -> GameLoads:
    """Play one game to its end with both players on ``policy`` and return its peak loads.

    "random" picks uniformly among the legal sowings at every choice point; "greedy" picks a
    sowing that captures the most seeds right away (a sow-again captures none yet), ties at
    random: looking through sow-agains is no option, their chains can run past 1000 sowings on
    2x8. The pit load is read at every lap's end, before a relay lifts the pit, so seeds
    passing through a pit count while they are in it. Same rules as apply, on raw tuples.
    """
    validate_parameters(pits_per_row, seeds_per_pit)
    if policy not in POLICIES:
        raise ValueError(f"policy={policy!r}: must be one of {', '.join(POLICIES)}")
    choose = _greedy_choice if policy == "greedy" else _random_choice
    pits = (seeds_per_pit,) * (2 * pits_per_row)
    stores = [0, 0]
    player = SOUTH
    history: set[tuple] = set()
    peak = seeds_per_pit
    turns = 0
    while not side_empty(pits):
        position = (pits, stores[0], stores[1], player)
        if position in history:
            break
        seen = {pits}
        choice = choose(pits, player, seen, rng)
        if choice is None and not has_sowing(pits, 1 - player, seen, sow):
            break
        history.add(position)
        while choice is not None:
            peak = max(peak, choice.peak)
            pits = choice.pits
            if not choice.again:
                if choice.captured:
                    stores[player] += choice.captured
                    history.clear()
                break
            seen.add(pits)
            choice = choose(pits, player, seen, rng)
        player = 1 - player
        turns += 1
    return GameLoads(peak, max(stores), turns)


def capacity_stats(
    pits_per_row: int = DEFAULT_PITS_PER_ROW,
    seeds_per_pit: int = DEFAULT_SEEDS_PER_PIT,
    games: int = CAPACITY_GAMES,
    seed: int = CAPACITY_SEED,
    policy: str = "random",
) -> CapacityStats:
    """Pit and store load distributions over ``games`` seeded games with one policy."""
    validate_parameters(pits_per_row, seeds_per_pit)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games={games!r}: must be a positive int")
    loads = [
        play_game(pits_per_row, seeds_per_pit, game_rng(seed, g), policy) for g in range(games)
    ]
    return CapacityStats(
        pits_per_row,
        seeds_per_pit,
        policy,
        games,
        seed,
        load_stats([g.pit for g in loads]),
        load_stats([g.store for g in loads]),
    )


def compute_capacity(pits_per_row: int, seeds_per_pit: int) -> tuple[int, int]:
    """(pit, store) capacity: the larger 99.9th percentile of the random and greedy runs."""
    runs = [
        capacity_stats(pits_per_row, seeds_per_pit, CAPACITY_GAMES, CAPACITY_SEED, policy)
        for policy in POLICIES
    ]
    return max(r.pit.p999 for r in runs), max(r.store.p999 for r in runs)


# (pits per row, seeds per pit) -> (pit capacity, store capacity) in seeds, as compute_capacity
# returns them (CAPACITY_GAMES games per policy, CAPACITY_SEED): printed by
# `benchmarks/giuthi_capacity.py --table` and pasted here; a test recomputes the 2x6 entry.
CAPACITY_TABLE: Mapping[tuple[int, int], tuple[int, int]] = MappingProxyType(
    {
        (5, 4): (30, 35), (5, 5): (34, 46), (5, 6): (36, 58),
        (5, 7): (42, 62), (5, 8): (48, 71), (5, 9): (52, 81),
        (6, 4): (28, 43), (6, 5): (32, 51), (6, 6): (41, 65),
        (6, 7): (46, 71), (6, 8): (54, 83), (6, 9): (60, 93),
        (7, 4): (27, 47), (7, 5): (35, 59), (7, 6): (49, 70),
        (7, 7): (52, 85), (7, 8): (55, 93), (7, 9): (60, 106),
        (8, 4): (31, 53), (8, 5): (39, 68), (8, 6): (46, 79),
        (8, 7): (54, 94), (8, 8): (55, 109), (8, 9): (64, 117),
        (9, 4): (30, 57), (9, 5): (37, 73), (9, 6): (47, 87),
        (9, 7): (49, 102), (9, 8): (65, 115), (9, 9): (69, 133),
        (10, 4): (30, 63), (10, 5): (43, 79), (10, 6): (47, 99),
        (10, 7): (57, 113), (10, 8): (59, 128), (10, 9): (67, 146),
    }
)


@lru_cache(maxsize=None)
def _capacity(pits_per_row: int, seeds_per_pit: int) -> tuple[int, int]:
    validate_parameters(pits_per_row, seeds_per_pit)
    found = CAPACITY_TABLE.get((pits_per_row, seeds_per_pit))
    return found if found is not None else compute_capacity(pits_per_row, seeds_per_pit)


def required_pit_capacity(
    pits_per_row: int = DEFAULT_PITS_PER_ROW, seeds_per_pit: int = DEFAULT_SEEDS_PER_PIT
) -> int:
    """Seeds a printed pit must hold: 99.9th percentile of the largest pit load per game."""
    return _capacity(pits_per_row, seeds_per_pit)[0]


def required_store_capacity(
    pits_per_row: int = DEFAULT_PITS_PER_ROW, seeds_per_pit: int = DEFAULT_SEEDS_PER_PIT
) -> int:
    """Seeds a printed store must hold: 99.9th percentile of the largest store load per game."""
    return _capacity(pits_per_row, seeds_per_pit)[1]

