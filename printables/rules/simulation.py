"""How long a game lasts and how often the first player wins, measured by playing it out.

The publisher's box prints these figures, marked as simulated, for the parameters they were
measured for (``tools/simulated_facts.py`` plays the games and stores the figures; a sheet only
reads them). Every game is played with the project's sensible policy for it:

- The Bitcoin Harvest: ``harvest.greedy_placement`` (the placement covering the most coins),
  coins drawn on random empty cells (``harvest.random_coins``), each player's harvester one of the
  12 pentominoes at random. A turn is a harvester drawn.
- Minefield: the *shortest-route* player below: it places on a cell of its own shortest
  edge-to-edge route (fewest empty cells still to fill), preferring one that is also on the
  opponent's shortest route, ties drawn at random. A turn is a stone placed.
- Breakfast Shy: the rule core's look-ahead player (``peas_play.lookahead_turn``), the one the
  card's difficulty line is measured with. A turn is a roll of the two dice.
- Patchwork: the *greedy buyer* below: it buys the market patch worth the most (buttons it will
  earn, 2 points per square it covers, less its price and the time it costs) if that is worth
  anything, else passes; it places a patch (or a leather patch) where it touches the most covered
  squares and quilt edges. A turn is a buy or a pass.

Pure: no I/O. Every game of a series is seeded from the series seed and its number, so any game
replays alone and the same call gives the same figures.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from functools import lru_cache

from printables.rules import harvest, minefield, patchwork, patchwork_play, peas, peas_play, pentominoes
from printables.rules.facts import Measure, params_key  # noqa: F401  (the stored figures' record and key, light for sheets)

# The figures a sheet prints come from this many games with this seed (tools/simulated_facts.py).
GAMES = 1000
SEED = 2024

KINDS = ("harvest", "minefield", "patchwork", "peas")
FIRST = "first"  # the first player won
SECOND = "second"  # another player won
DRAW = "draw"  # nobody won (Minefield: no one can place) or the win is shared (Harvest)

POLICIES = {
    "harvest": "greedy placement, coins on random empty cells",
    "minefield": "shortest route",
    "patchwork": "greedy buyer",
    "peas": "look-ahead",
}


@dataclass(frozen=True)
class Played:
    """One simulated game: its length in turns and, for two players, how it ended for the first."""

    turns: int
    result: str | None  # FIRST, SECOND or DRAW; None for a solitaire game


# ------------------------------------------------------------------------------------ parameters


def _parse_harvest(key: str) -> tuple[int, int, int, int, int]:
    grid, players, coins, _ = key.split(" ")
    width, height = (int(v) for v in grid.split("x"))
    opening, per_turn = (int(v) for v in coins.split("/"))
    return width, height, int(players.rstrip("p")), opening, per_turn


def game_seed(kind: str, key: str, seed: int, game: int) -> str:
    """The seed of game ``game`` of a series, so any game replays alone."""
    return f"simulated/{kind}/{key}/{seed}/{game}"


# ------------------------------------------------------------------------------- the Harvest


def play_harvest(key: str, rng: random.Random) -> Played:
    """One game of The Bitcoin Harvest with the greedy placement policy (see the module's docstring)."""
    width, height, players, opening, per_turn = _parse_harvest(key)
    letters = rng.sample(pentominoes.LETTERS, players)
    state = harvest.new_game(width, height, letters, per_turn, opening)
    state = harvest.apply(state, harvest.Move(None, harvest.random_coins(rng, state)))
    while not harvest.is_terminal(state):
        options = harvest.legal_placements(state)
        if not options:
            state = harvest.apply(state, harvest.Move(None))
            continue
        placement = harvest.greedy_placement(rng, state, options)
        state = harvest.apply(state, harvest.Move(placement, harvest.random_coins(rng, state, placement)))
    result = None
    if players == 2:
        won = harvest.winners(state)
        result = DRAW if len(won) > 1 else FIRST if won == (0,) else SECOND
    return Played(len(state.pieces), result)


# ------------------------------------------------------------------------------- Minefield


@dataclass(frozen=True)
class _Grid:
    """Bitboard masks of an n x n Minefield board (bit ``row * n + col``)."""

    size: int
    full: int
    not_left: int  # every cell but column 0
    not_right: int  # every cell but the last column
    top: int
    bottom: int
    left: int
    right: int


@lru_cache(maxsize=None)
def _grid(size: int) -> _Grid:
    full = (1 << size * size) - 1
    left = sum(1 << (r * size) for r in range(size))
    right = left << (size - 1)
    top = (1 << size) - 1
    return _Grid(size, full, full & ~left, full & ~right, top, top << (size * (size - 1)), left, right)


def _spread(grid: _Grid, cells: int) -> int:
    """``cells`` and their orthogonal neighbours."""
    n = grid.size
    return (cells | (cells << n) | (cells >> n) | ((cells & grid.not_right) << 1)
            | ((cells & grid.not_left) >> 1)) & grid.full


def _layers(grid: _Grid, own: int, open_: int, edge: int, limit: int) -> list[int]:
    """``layers[k]``: the cells reachable from ``edge`` by filling at most ``k`` open cells, moving
    freely along one's own stones (``own``); cells in neither set are walls."""

    def closed(reach: int) -> int:  # add the own stones joined to ``reach``
        while True:
            more = reach | (_spread(grid, reach) & own)
            if more == reach:
                return reach
            reach = more

    first = closed(edge & own)
    layers = [first]
    for _ in range(limit):
        step = closed(layers[-1] | ((_spread(grid, layers[-1]) | edge) & open_))
        layers.append(step)
        if step == layers[-2]:
            break
    return layers


def _route_cells(grid: _Grid, own: int, open_: int, first: int, second: int) -> int:
    """The open cells on one of the shortest routes joining ``first`` to ``second``; 0 if none."""
    limit = grid.size * grid.size
    a = _layers(grid, own, open_, first, limit)
    b = _layers(grid, own, open_, second, limit)
    length = next((k for k, reach in enumerate(a) if reach & second), None)
    if length is None:
        return 0

    def exactly(layers: list[int], k: int) -> int:
        if k < 0 or k >= len(layers):
            return 0
        return layers[k] & ~(layers[k - 1] if k else 0)

    found = 0
    for k in range(1, length + 1):  # an open cell at k from one edge and length + 1 - k from the other
        found |= exactly(a, k) & exactly(b, length + 1 - k) & open_
    return found


def shortest_route_move(state: minefield.GameState, rng: random.Random) -> minefield.Point:
    """The shortest-route player's placement (see the module's docstring)."""
    size = state.position.size
    grid = _grid(size)
    black, white = state.position.black, state.position.white
    mine_black = state.to_move == minefield.BLACK
    legal = state.legal_black if mine_black else state.legal_white
    their_legal = state.legal_white if mine_black else state.legal_black
    own, theirs = (black, white) if mine_black else (white, black)
    mine = _route_cells(grid, own, legal, *((grid.top, grid.bottom) if mine_black else (grid.left, grid.right)))
    block = _route_cells(grid, theirs, their_legal, *((grid.left, grid.right) if mine_black else (grid.top, grid.bottom)))
    for choice in (mine & block & legal, mine & legal, block & legal, legal):
        if choice:
            bits = [i for i in range(size * size) if choice >> i & 1]
            i = bits[rng.randrange(len(bits))]
            return divmod(i, size)
    raise ValueError("no legal placement: the game is over")


def play_minefield(key: str, rng: random.Random) -> Played:
    """One game of Minefield, both players on the shortest-route policy."""
    size = int(key.split("x")[0])
    state = minefield.new_game(size)
    turns = 0
    while not minefield.is_terminal(state):
        state = minefield.apply(state, shortest_route_move(state, rng))
        turns += 1
    outcome = minefield.outcome(state)
    return Played(turns, DRAW if outcome == minefield.DRAW else FIRST if outcome == minefield.BLACK else SECOND)


# ------------------------------------------------------------------------------- Patchwork

_Q = patchwork.QUILT_SIZE
_QUILT = _Grid(_Q, patchwork.FULL_QUILT, *(
    patchwork.FULL_QUILT & ~sum(1 << (r * _Q) for r in range(_Q)),
    patchwork.FULL_QUILT & ~sum(1 << (r * _Q + _Q - 1) for r in range(_Q)),
    (1 << _Q) - 1,
    ((1 << _Q) - 1) << (_Q * (_Q - 1)),
    sum(1 << (r * _Q) for r in range(_Q)),
    sum(1 << (r * _Q + _Q - 1) for r in range(_Q)),
))
_RIM = _QUILT.top | _QUILT.bottom | _QUILT.left | _QUILT.right


def _contact(quilt: int, cells: int) -> int:
    """How snugly ``cells`` sit: covered squares beside them plus their squares on the quilt's rim
    (a corner square counts for both its edges)."""
    q = _QUILT
    return ((_spread(q, cells) & quilt).bit_count() + (cells & q.top).bit_count() + (cells & q.bottom).bit_count()
            + (cells & q.left).bit_count() + (cells & q.right).bit_count())


def _patch_worth(state, patch_id: int, player: int) -> int:
    """Buttons the greedy buyer expects from a patch: income to come, 2 per square, less price and time."""
    patch = patchwork.PATCHES[patch_id]
    # The patch pays at every income space still ahead, those its own move crosses included.
    paydays = sum(1 for space in patchwork.INCOME_SPACES if space > state.positions[player])
    return patch.income * paydays + patchwork.EMPTY_CELL_PENALTY * patch.size - patch.cost - patch.time


def greedy_buyer_move(state, rng: random.Random):
    """The greedy buyer's move (see the module's docstring); ties drawn at random."""
    moves = patchwork_play.legal_moves(state)
    player = patchwork_play.current_player(state)
    quilt = state.quilts[player]
    if state.leather_due:
        return _snuggest(moves, [patchwork.cell_bit(m.row, m.col) for m in moves], quilt, rng)
    buys = [m for m in moves if isinstance(m, patchwork_play.Buy)]
    if not buys:
        return patchwork_play.PASS
    worth = {pid: _patch_worth(state, pid, player) for pid in {m.patch_id for m in buys}}
    best = max(worth.values())
    if best <= 0:
        return patchwork_play.PASS
    chosen = sorted(pid for pid, w in worth.items() if w == best)[rng.randrange(sum(1 for w in worth.values() if w == best))]
    options = [m for m in buys if m.patch_id == chosen]
    return _snuggest(options, [patchwork_play.placement_mask(m.patch_id, m.orientation, m.row, m.col) for m in options],
                     quilt, rng)


def _snuggest(moves, masks, quilt: int, rng: random.Random):
    scores = [_contact(quilt, mask) for mask in masks]
    best = max(scores)
    top = [m for m, s in zip(moves, scores) if s == best]
    return top[rng.randrange(len(top))]


def play_patchwork(key: str, rng: random.Random) -> Played:
    """One game of Patchwork, both players on the greedy-buyer policy, the circle shuffled by ``rng``."""
    state = patchwork_play.new_game(rng.randrange(1 << 30), edition=key)
    turns = 0
    while not patchwork_play.is_terminal(state):
        if not state.leather_due:
            turns += 1  # placing a leather patch is part of the move that took it
        state = patchwork_play.apply(state, greedy_buyer_move(state, rng))
    return Played(turns, FIRST if patchwork_play.winner(state) == 0 else SECOND)


# ------------------------------------------------------------------------------- Breakfast Shy


def play_peas(key: str, rng: random.Random) -> Played:
    """One harvest of Breakfast Shy with the look-ahead player; a turn is one roll."""
    return Played(peas_play.play_game(peas.resolve_layout(key), "lookahead", rng).turns, None)


_PLAYERS = {"harvest": play_harvest, "minefield": play_minefield, "patchwork": play_patchwork, "peas": play_peas}


def play(kind: str, key: str, rng: random.Random) -> Played:
    """One simulated game of ``kind`` with the parameter set ``key`` (see ``params_key``)."""
    if kind not in _PLAYERS:
        raise ValueError(f"kind {kind!r}: use one of {', '.join(KINDS)}")
    return _PLAYERS[kind](key, rng)


def measure(kind: str, key: str, games: int = GAMES, seed: int = SEED) -> Measure:
    """Play ``games`` seeded games and summarise their length and the first player's results."""
    if games < 2:
        raise ValueError(f"games {games}: a spread needs at least 2")
    played = [play(kind, key, random.Random(game_seed(kind, key, seed, g))) for g in range(games)]
    turns = sorted(p.turns for p in played)
    results = [p.result for p in played]
    two = results[0] is not None
    return Measure(
        games=games,
        seed=seed,
        turns_median=statistics.median_low(turns),
        turns_low=turns[0],
        turns_high=turns[-1],
        first_wins=round(results.count(FIRST) / games, 4) if two else None,
        draws=round(results.count(DRAW) / games, 4) if two else None,
    )


def measured_sets() -> tuple[tuple[str, str, dict], ...]:
    """(kind, key, parameters) of every parameter set whose figures are stored: the presets' and more.

    The Bitcoin Harvest on the recommended grid for 2 to 12 players and on the presets' grids;
    Minefield boards of 5 to 15 and 19 points a side; Patchwork in both leather editions; Breakfast
    Shy's preset layouts. A sheet with other parameters prints no simulated figure.
    """
    harvest_sets = {(harvest.recommended_grid(n), n) for n in harvest.RECOMMENDED_SIDE}
    harvest_sets |= {((10, 10), 2), ((8, 8), 2), ((11, 5), 2), ((14, 14), 4)}  # the presets; a test keeps it so
    found: list[tuple[str, str, dict]] = []
    for grid, players in sorted(harvest_sets, key=lambda s: (s[1], s[0])):
        params = {"grid": list(grid), "players": players, "opening_coins": harvest.OPENING_COINS,
                  "coins_per_turn": harvest.DEFAULT_COINS_PER_TURN}
        found.append(("harvest", params_key("harvest", **{**params, "grid": grid}), params))
    for size in (*range(5, 16), 19):
        found.append(("minefield", params_key("minefield", size=size), {"size": size}))
    for edition in patchwork.EDITIONS:
        found.append(("patchwork", params_key("patchwork", leather=edition), {"leather": edition}))
    for name in peas.LAYOUTS:
        found.append(("peas", params_key("peas", layout=name), {"layout": name}))
    return tuple(found)
