"""Patchwork play: moves, states, legal moves, ``apply`` and scores, on 9x9 bitboards.

The second half of the Patchwork rule core (``printables.rules.patchwork`` holds the patches, the
track and the rules' words, and hands out every name of this module on first use). Rules and
decided edge cases: shared/rules/patchwork.md.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Sequence, Union

from printables.rules.patchwork import (
    BONUS_POINTS,
    DEFAULT_EDITION,
    EMPTY_CELL_PENALTY,
    FINAL_POSITION,
    INCOME_SPACES,
    MARKET_SIZE,
    PATCHES,
    PLAYERS,
    QUILT_SIZE,
    START_BUTTONS,
    START_PATCH_ID,
    START_POSITION,
    IllegalMove,
    Patch,
    cell_bit,
    cells_to_bits,
    empty_cell_count,
    has_bonus_square,
    leather_spaces,
    patch_by_id,
)

# ---------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True, slots=True)
class Pass:
    """Move the time token just ahead of the opponent's and take one button per space moved."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy a market patch; place it in one orientation with its box's corner at (row, col)."""

    patch_id: int
    orientation: int  # index into PATCHES[patch_id].orientations
    row: int
    col: int

    def __str__(self) -> str:
        return f"buy {self.patch_id} o{self.orientation} r{self.row}c{self.col}"


@dataclass(frozen=True, slots=True)
class PlaceLeather:
    """Place a leather patch just taken from the time track on the cell (row, col)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"leather r{self.row}c{self.col}"


Move = Union[Pass, Buy, PlaceLeather]
PASS = Pass()

_MOVE_RE = re.compile(
    r"\s*(?:(?P<pass>pass)"
    r"|buy\s+(?P<pid>\d+)\s+o(?P<o>\d+)\s+r(?P<br>\d+)c(?P<bc>\d+)"
    r"|leather\s+r(?P<lr>\d+)c(?P<lc>\d+))\s*"
)


def parse_move(text: str) -> Move:
    """Read a move as written by str(): 'pass', 'buy 12 o3 r4c5' or 'leather r4c5'."""
    m = _MOVE_RE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a move: {text!r} (try 'pass', 'buy 12 o3 r4c5', 'leather r4c5')")
    if m["pass"]:
        return PASS
    if m["pid"] is not None:
        return Buy(int(m["pid"]), int(m["o"]), int(m["br"]), int(m["bc"]))
    return PlaceLeather(int(m["lr"]), int(m["lc"]))


def _placements(patch: Patch) -> tuple[tuple[int, Buy], ...]:
    out = []
    for o, shape in enumerate(patch.orientations):
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        base = cells_to_bits(shape)
        for row in range(QUILT_SIZE - height + 1):
            for col in range(QUILT_SIZE - width + 1):
                out.append((base << (row * QUILT_SIZE + col), Buy(patch.id, o, row, col)))
    return tuple(out)


# Per patch id: every (mask, move) on an empty quilt, in orientation, row, col order. Built on
# first use (some 6,000 moves take 10 ms, which a sheet command that never plays need not pay).
_PLACEMENTS: list[tuple[tuple[int, Buy], ...] | None] = [None] * len(PATCHES)


def _placements_of(patch_id: int) -> tuple[tuple[int, Buy], ...]:
    found = _PLACEMENTS[patch_id]
    if found is None:
        found = _PLACEMENTS[patch_id] = _placements(PATCHES[patch_id])
    return found
# Per patch id and orientation: (mask at the corner, height, width), for checking a Buy fast.
_ORIENTATION_BOXES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (cells_to_bits(s), max(r for r, _ in s) + 1, max(c for _, c in s) + 1)
        for s in p.orientations
    )
    for p in PATCHES
)


def placement_mask(patch_id: int, orientation: int, row: int, col: int) -> int:
    """The bitboard a patch covers in this orientation with its box's corner at (row, col)."""
    boxes = _ORIENTATION_BOXES[patch_by_id(patch_id).id]
    if not 0 <= orientation < len(boxes):
        raise ValueError(f"patch {patch_id} has orientations 0 to {len(boxes) - 1}")
    base, height, width = boxes[orientation]
    if not (0 <= row <= QUILT_SIZE - height and 0 <= col <= QUILT_SIZE - width):
        raise ValueError(f"patch {patch_id} in orientation {orientation} at ({row}, {col}) "
                         f"sticks out of the {QUILT_SIZE}x{QUILT_SIZE} quilt")
    return base << (row * QUILT_SIZE + col)


_LEATHER_MOVES: tuple[tuple[int, PlaceLeather], ...] = tuple(
    (cell_bit(r, c), PlaceLeather(r, c)) for r in range(QUILT_SIZE) for c in range(QUILT_SIZE)
)


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class State:
    """A whole two-player position; players are 0 (start player) and 1."""

    circle: tuple[int, ...]  # patch ids clockwise from the neutral marker; circle[:3] are buyable
    positions: tuple[int, int]  # time-track positions, 0 to 53
    buttons: tuple[int, int]
    quilts: tuple[int, int]  # bitboards
    bought: tuple[tuple[int, ...], tuple[int, ...]]  # patch ids on each quilt, in buying order
    top: int  # the player whose token moved last: on top when the tokens share a space
    leathers: tuple[int, ...]  # time-track spaces whose leather patch is still there
    leather_due: int = 0  # leather patches player `top` must place before anything else
    bonus: int | None = None  # owner of the 7x7 bonus tile
    first_home: int | None = None  # first player to reach 53 (wins a tied score)
    edition: str = DEFAULT_EDITION

    @property
    def market(self) -> tuple[int, ...]:
        """The ids of the (up to) three buyable patches, nearest the marker first."""
        return self.circle[:MARKET_SIZE]


def shuffled_circle(seed: int) -> tuple[int, ...]:
    """Patch ids 1..32 shuffled by the seed, then the 2x1 patch (id 0) just before the marker."""
    rest = [p.id for p in PATCHES if p.id != START_PATCH_ID]
    random.Random(seed).shuffle(rest)
    return (*rest, START_PATCH_ID)


def new_game(
    seed: int = 0, *, edition: str = DEFAULT_EDITION, circle: Sequence[int] | None = None
) -> State:
    """The start: the circle shuffled by seed (or given), 5 buttons each, player 0 to move."""
    spaces = leather_spaces(edition)
    if circle is None:
        circle = shuffled_circle(seed)
    circle = tuple(circle)
    if len(set(circle)) != len(circle) or any(not 0 <= i < len(PATCHES) for i in circle):
        raise ValueError(f"a circle lists distinct patch ids 0 to {len(PATCHES) - 1}: {circle}")
    return State(
        circle=circle,
        positions=(START_POSITION, START_POSITION),
        buttons=(START_BUTTONS, START_BUTTONS),
        quilts=(0, 0),
        bought=((), ()),
        top=0,  # the start player's token lies on top, so it moves first
        leathers=spaces,
        edition=edition,
    )


def is_terminal(state: State) -> bool:
    """Whether both tokens are at the centre and no leather patch is waiting to be placed."""
    return state.leather_due == 0 and state.positions[0] == state.positions[1] == FINAL_POSITION


def current_player(state: State) -> int | None:
    """The player to move: one with a leather patch to place, else the one behind or on top."""
    if state.leather_due:
        return state.top
    a, b = state.positions
    if a < b:
        return 0
    if b < a:
        return 1
    return None if a == FINAL_POSITION else state.top


def quilt_income(state: State, player: int) -> int:
    """Buttons printed on a player's quilt, paid at every income space the player crosses."""
    return sum(PATCHES[i].income for i in state.bought[player])


def income_spaces_crossed(start: int, end: int) -> int:
    """How many income spaces a token crosses moving from start to end (start < m <= end)."""
    return sum(1 for m in INCOME_SPACES if start < m <= end)


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move: leather cells in row-major order, else pass then the market's buys."""
    if is_terminal(state):
        return ()
    player = current_player(state)
    quilt = state.quilts[player]
    if state.leather_due:
        return tuple(move for bit, move in _LEATHER_MOVES if not bit & quilt)
    moves: list[Move] = [PASS]
    buttons = state.buttons[player]
    for pid in state.circle[:MARKET_SIZE]:
        if PATCHES[pid].cost <= buttons:
            moves.extend(move for mask, move in _placements_of(pid) if not mask & quilt)
    return tuple(moves)


def _why_illegal(state: State, move: Move) -> str | None:
    if is_terminal(state):
        return "the game is over"
    player = current_player(state)
    quilt = state.quilts[player]
    kind = type(move)
    if kind is PlaceLeather:
        if not state.leather_due:
            return "no leather patch is waiting to be placed"
        if not (0 <= move.row < QUILT_SIZE and 0 <= move.col < QUILT_SIZE):
            return "the cell is off the quilt"
        if cell_bit(move.row, move.col) & quilt:
            return "the cell is already covered"
        return None
    if state.leather_due:
        return f"player {player} must first place a leather patch"
    if kind is Pass:
        return None
    if kind is not Buy:
        return f"not a move: {move!r}"
    pid = move.patch_id
    if pid not in state.circle[:MARKET_SIZE]:
        return f"patch {pid} is not among the buyable {state.circle[:MARKET_SIZE]}"
    if PATCHES[pid].cost > state.buttons[player]:
        return f"patch {pid} costs {PATCHES[pid].cost}, player {player} has {state.buttons[player]}"
    boxes = _ORIENTATION_BOXES[pid]
    if not 0 <= move.orientation < len(boxes):
        return f"patch {pid} has orientations 0 to {len(boxes) - 1}"
    base, height, width = boxes[move.orientation]
    if not (0 <= move.row <= QUILT_SIZE - height and 0 <= move.col <= QUILT_SIZE - width):
        return "the patch would stick out of the quilt"
    if (base << (move.row * QUILT_SIZE + move.col)) & quilt:
        return "the patch would overlap the quilt"
    return None


def is_legal(state: State, move: Move) -> bool:
    """Whether move is legal in state (agrees with legal_moves)."""
    return _why_illegal(state, move) is None


def _with(pair: tuple, player: int, value) -> tuple:
    return (value, pair[1]) if player == 0 else (pair[0], value)


def apply(state: State, move: Move) -> State:
    """The state after a legal move; raises IllegalMove (state unchanged) otherwise."""
    reason = _why_illegal(state, move)
    if reason is not None:
        raise IllegalMove(f"illegal move {move}: {reason}")
    player = current_player(state)
    quilts, bought, buttons = state.quilts, state.bought, state.buttons
    circle, bonus = state.circle, state.bonus

    if type(move) is PlaceLeather:
        quilt = quilts[player] | cell_bit(move.row, move.col)
        due = state.leather_due - 1  # never more due than empty cells: see the move that took them
        if bonus is None and has_bonus_square(quilt):
            bonus = player
        return State(
            circle, state.positions, buttons, _with(quilts, player, quilt), bought,
            state.top, state.leathers, due, bonus, state.first_home, state.edition,
        )  # fmt: skip

    start = state.positions[player]
    if type(move) is Pass:
        end = min(FINAL_POSITION, state.positions[1 - player] + 1)
        buttons = _with(buttons, player, buttons[player] + end - start)
    else:
        patch = PATCHES[move.patch_id]
        i = circle.index(patch.id)
        circle = circle[i + 1 :] + circle[:i]  # the marker takes the bought patch's place
        base, _, _ = _ORIENTATION_BOXES[patch.id][move.orientation]
        quilt = quilts[player] | base << (move.row * QUILT_SIZE + move.col)
        quilts = _with(quilts, player, quilt)
        bought = _with(bought, player, bought[player] + (patch.id,))
        buttons = _with(buttons, player, buttons[player] - patch.cost)
        if bonus is None and has_bonus_square(quilt):
            bonus = player
        end = min(FINAL_POSITION, start + patch.time)

    # Decision 3: the patch is already on the quilt, so its buttons count for this move's income.
    crossed = income_spaces_crossed(start, end)
    if crossed:
        income = sum(PATCHES[i].income for i in bought[player])
        buttons = _with(buttons, player, buttons[player] + crossed * income)
    leathers = state.leathers
    due = 0
    if leathers and start < leathers[-1] and end >= leathers[0]:
        taken = [s for s in leathers if start < s <= end]
        if taken:
            leathers = tuple(s for s in leathers if s not in taken)
            # A full quilt cannot take a leather patch, so it leaves the game (decision 6).
            due = min(len(taken), empty_cell_count(quilts[player]))
    first_home = state.first_home
    if end == FINAL_POSITION and first_home is None:
        first_home = player
    return State(
        circle, _with(state.positions, player, end), buttons, quilts, bought,
        player, leathers, due, bonus, first_home, state.edition,
    )  # fmt: skip


def scores(state: State) -> tuple[int, int]:
    """Each player's score: buttons + 7 for the bonus tile - 2 per empty quilt cell."""
    return tuple(
        state.buttons[p]
        + (BONUS_POINTS if state.bonus == p else 0)
        - EMPTY_CELL_PENALTY * empty_cell_count(state.quilts[p])
        for p in range(PLAYERS)
    )  # type: ignore[return-value]


def winner(state: State) -> int:
    """The winner of a finished game: higher score, on a tie the first to reach the centre."""
    if not is_terminal(state):
        raise ValueError("the game is not over: no winner yet")
    s0, s1 = scores(state)
    if s0 != s1:
        return 0 if s0 > s1 else 1
    assert state.first_home is not None  # both tokens are home, so one got there first
    return state.first_home
