"""The Bitcoin Harvest: the rule core (see shared/rules/bitcoin-harvest.md).

Each player owns one pentomino, their harvester. The player who chose first draws the opening coins;
then, starting with the second player, each turn is: place your harvester (covering coins scores
them), then draw coins in empty cells. A player who cannot place must pass; a pass draws no coins.
The game ends when every player has passed in succession.

The grid is a bitboard: bit ``y * width + x`` is cell ``(x, y)``, ``y`` counted from the top.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable

from printables.rules import pentominoes
from printables.rules.pentominoes import Cell, mask_cells, parse_letter, placements

MIN_PLAYERS = 2
MAX_PLAYERS = len(pentominoes.LETTERS)
OPENING_COINS = 2
DEFAULT_COINS_PER_TURN = 2
# The coin policy the simulations use; named so that every reported figure can say which it was.
COIN_POLICY_RANDOM = "random-empty-cells"


class IllegalMove(ValueError):
    """A move that the rules forbid in the given state."""


@dataclass(frozen=True)
class Move:
    """One turn: a placement bitboard (None for a pass) and the cells where coins are drawn."""

    placement: int | None
    coins: frozenset[Cell] = frozenset()

    @property
    def is_pass(self) -> bool:
        """Whether this move is a pass."""
        return self.placement is None


@dataclass(frozen=True)
class HarvestState:
    """An immutable position of The Bitcoin Harvest."""

    width: int
    height: int
    harvesters: tuple[str, ...]
    coins_per_turn: int = DEFAULT_COINS_PER_TURN
    opening_coins: int = OPENING_COINS  # rule 7: stays 2 unless the players also agree otherwise
    occupied: int = 0  # cells covered by a pentomino
    coins: int = 0  # cells holding a coin
    scores: tuple[int, ...] = ()
    to_move: int = 0
    passes_in_a_row: int = 0
    opening_done: bool = False
    pieces: tuple[tuple[int, int], ...] = field(default=())  # (player, placement) in play order

    @property
    def cell_count(self) -> int:
        """Number of cells on the grid."""
        return self.width * self.height

    @property
    def full_mask(self) -> int:
        """Bitboard with every cell of the grid set."""
        return (1 << self.cell_count) - 1

    @property
    def empty(self) -> int:
        """Cells with neither coin nor pentomino."""
        return self.full_mask & ~self.occupied & ~self.coins


def rules_summary(coins_per_turn: int, opening_coins: int = OPENING_COINS) -> str:
    """The short rules printed on every sheet (the check reads them back from the page)."""
    return (
        "Each player picks a different pentomino, their harvester (circle it; + is X). "
        f"The first player draws {opening_coins} coin{'s' if opening_coins != 1 else ''} in empty cells. Then, from the second player on, "
        "each turn: draw your harvester inside the grid in any rotation or reflection, not overlapping any "
        "pentomino; score 1 point per coin it covers; then draw "
        f"{coins_per_turn} coin{'s' if coins_per_turn != 1 else ''} in empty cells (no coin, no pentomino). "
        "Who can place must place; who cannot, passes. When everyone has passed in a row the game ends: "
        "most coins wins, ties share the win."
    )


def validate_grid(width: int, height: int) -> None:
    """Raise ValueError unless ``width x height`` is a grid of at least one cell each way."""
    if width < 1 or height < 1:
        raise ValueError(f"grid {width}x{height}: both sides must be at least 1 cell")


def unplaceable(width: int, height: int, harvesters: Iterable[str] = pentominoes.LETTERS) -> tuple[str, ...]:
    """The harvesters that cannot be placed at all on an empty ``width x height`` grid.

    Decided from the orientations' bounding boxes, so a huge grid costs nothing to ask about.
    """
    def fits(letter: str) -> bool:
        return any(w <= width and h <= height
                   for w, h in (pentominoes.size(s) for s in pentominoes.ORIENTATIONS[parse_letter(letter)]))

    return tuple(l for l in harvesters if not fits(l))


def new_game(
    width: int,
    height: int,
    harvesters: Iterable[str],
    coins_per_turn: int = DEFAULT_COINS_PER_TURN,
    opening_coins: int = OPENING_COINS,
) -> HarvestState:
    """A new game before the opening coins: player 0 (who chose first) must draw them."""
    validate_grid(width, height)
    letters = tuple(parse_letter(h) for h in harvesters)
    if not MIN_PLAYERS <= len(letters) <= MAX_PLAYERS:
        raise ValueError(f"{len(letters)} players: The Bitcoin Harvest takes {MIN_PLAYERS} to {MAX_PLAYERS}")
    if len(set(letters)) != len(letters):
        raise ValueError(f"harvesters {' '.join(letters)}: each player needs a different pentomino")
    if coins_per_turn < 0:
        raise ValueError(f"coins per turn {coins_per_turn}: must be 0 or more")
    if opening_coins < 0:
        raise ValueError(f"opening coins {opening_coins}: must be 0 or more")
    return HarvestState(width, height, letters, coins_per_turn, opening_coins, scores=(0,) * len(letters))


def coins_to_draw(state: HarvestState, after_placement: int = 0) -> int:
    """How many coins the mover must draw: the agreed number, or as many as empty cells allow."""
    wanted = state.opening_coins if not state.opening_done else state.coins_per_turn
    free = (state.empty & ~after_placement).bit_count()
    return min(wanted, free)


def legal_placements(state: HarvestState) -> tuple[int, ...]:
    """The placements of the mover's harvester that fit, in a deterministic order."""
    if not state.opening_done or is_terminal(state):
        return ()
    letter = state.harvesters[state.to_move]
    occupied = state.occupied
    return tuple(p for p in placements(letter, state.width, state.height) if not p & occupied)


def must_pass(state: HarvestState) -> bool:
    """Whether the mover has no placement and so must pass."""
    return state.opening_done and not is_terminal(state) and not legal_placements(state)


def is_terminal(state: HarvestState) -> bool:
    """Whether every player has passed in succession."""
    return state.passes_in_a_row >= len(state.harvesters)


def _cells_to_mask(cells: Iterable[Cell], state: HarvestState) -> int:
    mask = 0
    for x, y in cells:
        if not (0 <= x < state.width and 0 <= y < state.height):
            raise IllegalMove(f"coin at {(x, y)} is outside the {state.width}x{state.height} grid")
        mask |= 1 << (y * state.width + x)
    return mask


def is_legal(state: HarvestState, move: Move) -> bool:
    """Whether ``move`` may be played in ``state`` (agrees with :func:`apply`)."""
    try:
        apply(state, move)
    except IllegalMove:
        return False
    return True


def apply(state: HarvestState, move: Move) -> HarvestState:
    """The state after ``move``; raises IllegalMove (state unchanged) if the rules forbid it."""
    if is_terminal(state):
        raise IllegalMove(f"{move!r}: the game is over")
    coin_mask = _cells_to_mask(move.coins, state)
    if len(move.coins) != coin_mask.bit_count():
        raise IllegalMove(f"{move!r}: a cell holds at most one coin")
    if not state.opening_done:
        if move.placement is not None:
            raise IllegalMove(f"{move!r}: the first player opens by drawing coins, not by placing")
        _check_coins(state, move, coin_mask, 0)
        return _replace(state, coins=state.coins | coin_mask, opening_done=True, to_move=1 % len(state.harvesters))
    players = len(state.harvesters)
    following = (state.to_move + 1) % players
    if move.placement is None:
        if not must_pass(state):
            raise IllegalMove(f"{move!r}: a player who can place must place")
        if move.coins:
            raise IllegalMove(f"{move!r}: a pass draws no coins")
        return _replace(state, to_move=following, passes_in_a_row=state.passes_in_a_row + 1)
    if move.placement not in placements(state.harvesters[state.to_move], state.width, state.height):
        raise IllegalMove(f"{move!r}: not a placement of {state.harvesters[state.to_move]} inside the grid")
    if move.placement & state.occupied:
        raise IllegalMove(f"{move!r}: overlaps a pentomino already drawn")
    _check_coins(state, move, coin_mask, move.placement)
    harvested = (move.placement & state.coins).bit_count()
    scores = list(state.scores)
    scores[state.to_move] += harvested
    return _replace(
        state,
        occupied=state.occupied | move.placement,
        coins=(state.coins & ~move.placement) | coin_mask,
        scores=tuple(scores),
        to_move=following,
        passes_in_a_row=0,
        pieces=state.pieces + ((state.to_move, move.placement),),
    )


def _check_coins(state: HarvestState, move: Move, coin_mask: int, placement: int) -> None:
    if coin_mask & ~(state.empty & ~placement):
        raise IllegalMove(f"{move!r}: coins go only in empty cells")
    wanted = coins_to_draw(state, placement)
    if coin_mask.bit_count() != wanted:
        raise IllegalMove(f"{move!r}: draw exactly {wanted} coin(s)")


def _replace(state: HarvestState, **changes) -> HarvestState:
    values = {name: getattr(state, name) for name in state.__dataclass_fields__}
    values.update(changes)
    return HarvestState(**values)


def winners(state: HarvestState) -> tuple[int, ...]:
    """The players (0-based) with the highest score; equal scores share the win."""
    best = max(state.scores)
    return tuple(i for i, s in enumerate(state.scores) if s == best)


def random_coins(rng: random.Random, state: HarvestState, placement: int = 0) -> frozenset[Cell]:
    """Coin policy ``random-empty-cells``: the required number of distinct empty cells at random."""
    free = state.empty & ~placement
    cells = sorted(mask_cells(free, state.width), key=lambda c: (c[1], c[0]))
    return frozenset(rng.sample(cells, coins_to_draw(state, placement)))


PlacementPolicy = Callable[[random.Random, HarvestState, tuple[int, ...]], int]


def random_placement(rng: random.Random, state: HarvestState, options: tuple[int, ...]) -> int:
    """Placement policy: any legal placement, uniformly."""
    return options[rng.randrange(len(options))]


def greedy_placement(rng: random.Random, state: HarvestState, options: tuple[int, ...]) -> int:
    """Placement policy: a placement covering the most coins, ties broken at random."""
    coins = state.coins
    best = max((p & coins).bit_count() for p in options)
    top = [p for p in options if (p & coins).bit_count() == best]
    return top[rng.randrange(len(top))]


def play_game(
    width: int,
    height: int,
    harvesters: Iterable[str],
    seed: int,
    coins_per_turn: int = DEFAULT_COINS_PER_TURN,
    placement_policy: PlacementPolicy = random_placement,
) -> HarvestState:
    """Play a whole game with the given placement policy and the ``random-empty-cells`` coin policy."""
    rng = random.Random(seed)
    state = new_game(width, height, harvesters, coins_per_turn)
    state = apply(state, Move(None, random_coins(rng, state)))
    while not is_terminal(state):
        options = legal_placements(state)
        if not options:
            state = apply(state, Move(None))
            continue
        placement = placement_policy(rng, state, options)
        state = apply(state, Move(placement, random_coins(rng, state, placement)))
    return state


# --- Recommended grid -------------------------------------------------------------------------
# Method: the rules recommend 10x10 for two beginners. We take the mean number of harvesters each
# player places on 10x10 with 2 players (random placements, harvesters drawn at random from the 12)
# as "a game of reasonable length", and recommend for N players the smallest square grid on which
# the mean placements per player reach that same figure. RECOMMENDATION_GAMES seeded games per size.
RECOMMENDATION_GAMES = 200
RECOMMENDATION_SEED = 2014


def mean_placements_per_player(size: int, players: int, games: int = RECOMMENDATION_GAMES,
                               seed: int = RECOMMENDATION_SEED) -> float:
    """Mean harvesters placed per player on a ``size x size`` grid over seeded random games."""
    rng = random.Random(seed * 1000 + size * 13 + players)
    total = 0
    for _ in range(games):
        harvesters = rng.sample(pentominoes.LETTERS, players)
        final = play_game(size, size, harvesters, rng.randrange(1 << 30))
        total += len(final.pieces)
    return total / (games * players)


def derive_recommended_side(players: int, games: int = RECOMMENDATION_GAMES) -> int:
    """Run the documented method: the smallest square side matching 10x10's length for two."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"{players} players: The Bitcoin Harvest takes {MIN_PLAYERS} to {MAX_PLAYERS}")
    target = mean_placements_per_player(10, 2, games)
    side = 10
    while mean_placements_per_player(side, players, games) < target:
        side += 1
    return side


# Printed by benchmarks/harvest_recommendation.py (RECOMMENDATION_GAMES seeded games per size);
# a slow test re-derives entries, so the table cannot drift from the method.
RECOMMENDED_SIDE = {2: 10, 3: 12, 4: 14, 5: 16, 6: 17, 7: 18, 8: 19, 9: 21, 10: 21, 11: 22, 12: 23}


def recommended_grid(players: int) -> tuple[int, int]:
    """The recommended square grid for N players (see the method above)."""
    if players not in RECOMMENDED_SIDE:
        raise ValueError(f"{players} players: The Bitcoin Harvest takes {MIN_PLAYERS} to {MAX_PLAYERS}")
    side = RECOMMENDED_SIDE[players]
    return (side, side)


def placements_for(state: HarvestState) -> tuple[int, ...]:
    """Every placement of the mover's harvester on the empty grid (legal or not in ``state``)."""
    return placements(state.harvesters[state.to_move], state.width, state.height)
