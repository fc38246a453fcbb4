"""Minefield (Mark Steere, 2024): the rule core (see shared/rules/minefield.md).

An n x n board of points, n >= 2. Black places first and connects the top edge (row 0) to the
bottom edge (row n-1); White connects the left edge (column 0) to the right edge (column n-1). Only
orthogonal steps join stones. A placement may not create a hard corner or a switch
(``FORBIDDEN_PATTERNS``); a player with no legal placement is skipped, and the game is a draw when
neither player can place.

Boards are bitboards: bit ``row * size + col`` is point ``(row, col)``, row 0 at the top. A game
state carries the legal points of both colours and updates them after each placement only in the
neighbourhood of the new stone, which is all a placement can change (the rules' locality).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping

BLACK = "B"
WHITE = "W"
EMPTY = "."
COLOURS = (BLACK, WHITE)
DRAW = "draw"
MIN_SIZE = 2  # points per side

# Roles of a pattern's cells: SAME and OTHER are the two colours (either way round), VACANT is an
# empty point.
SAME = "same"
OTHER = "other"
VACANT = "empty"

Point = tuple[int, int]  # (row, col), row 0 at the top

_COLOUR_NAMES = {BLACK: "Black", WHITE: "White"}


class IllegalMove(ValueError):
    """A placement that the rules forbid in the given state."""


class InvalidPosition(ValueError):
    """A position that no legal game can reach (or that is malformed)."""


def opponent(colour: str) -> str:
    """The other colour."""
    if colour == BLACK:
        return WHITE
    if colour == WHITE:
        return BLACK
    raise ValueError(f"colour {colour!r}: expected {BLACK!r} or {WHITE!r}")


# --------------------------------------------------------------------------------------------
# Forbidden patterns as data
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    """A forbidden arrangement: cells as ``(dr, dc, role)`` with role SAME, OTHER or VACANT."""

    name: str
    cells: tuple[tuple[int, int, str], ...]

    @property
    def height(self) -> int:
        """Rows the pattern spans."""
        return max(dr for dr, _, _ in self.cells) + 1

    @property
    def width(self) -> int:
        """Columns the pattern spans."""
        return max(dc for _, dc, _ in self.cells) + 1

    def role_at(self, dr: int, dc: int) -> str:
        """The role of the cell at offset ``(dr, dc)``."""
        for r, c, role in self.cells:
            if (r, c) == (dr, dc):
                return role
        raise KeyError((dr, dc))

    def __str__(self) -> str:
        symbols = {SAME: "S", OTHER: "O", VACANT: EMPTY}
        grid = [[" "] * self.width for _ in range(self.height)]
        for r, c, role in self.cells:
            grid[r][c] = symbols[role]
        return "\n".join("".join(row) for row in grid)


def _pattern(name: str, art: str) -> Pattern:
    """Build a pattern from rows of S (same colour), O (other colour) and . (empty)."""
    roles = {"S": SAME, "O": OTHER, ".": VACANT}
    rows = art.split()
    cells = tuple((r, c, roles[ch]) for r, row in enumerate(rows) for c, ch in enumerate(row))
    return Pattern(name, cells)


HARD_CORNER = "hard corner"
SWITCH_2X3 = "switch 2x3"
SWITCH_2X4 = "switch 2x4"

# The rules' definitions, one orientation each. A hard corner: three stones in a 2x2 area, the
# diagonal pair one colour and the lone stone the other, the fourth point empty. A switch: the
# corners of a 2x3 or 2x4 area occupied, each diagonal pair one colour and the pairs different,
# every inner point empty. The names do not change with orientation: a 3x2 area holds a rotated
# "switch 2x3".
FORBIDDEN_PATTERNS: tuple[Pattern, ...] = (
    _pattern(HARD_CORNER, "SO .S"),
    _pattern(SWITCH_2X3, "S.O O.S"),
    _pattern(SWITCH_2X4, "S..O O..S"),
)


# The texts a board sheet prints, kept with the rules so that the check can read them back from
# the page without importing the layout.
RULES_SUMMARY = (
    "Black first, then alternate: place one stone of your colour in an empty cell. No legal cell? Your turn is skipped.",
    "Never create a hard corner or a switch. Join your two edges with orthogonal steps to win; diagonals never link.",
)
LEGEND_HEADING = "Never create these, in any rotation or reflection, either colour."
LEGEND_NOTE = "× marks the stone that may not be placed."
PATTERN_LABELS = {
    HARD_CORNER: "Hard corner",
    SWITCH_2X3: "Switch 2x3 / 3x2",
    SWITCH_2X4: "Switch 2x4 / 4x2",
}
EDGE_KEY = (("Black joins top and bottom", True), ("White joins left and right", False))  # (caption, black swatch)
# Playing with a pencil instead of stones: (caption, filled circle).
PENCIL_KEY = (("Pencil: filled = Black", True), ("Pencil: open = White", False))


def _normalised(cells: Iterable[tuple[int, int, str]]) -> tuple[tuple[int, int, str], ...]:
    """Cells shifted so that the smallest row and column are 0, in row-major order."""
    cells = list(cells)
    r0 = min(r for r, _, _ in cells)
    c0 = min(c for _, c, _ in cells)
    return tuple(sorted((r - r0, c - c0, role) for r, c, role in cells))


def _swap_roles(cells: Iterable[tuple[int, int, str]]) -> tuple[tuple[int, int, str], ...]:
    """The same cells with SAME and OTHER exchanged."""
    swap = {SAME: OTHER, OTHER: SAME, VACANT: VACANT}
    return tuple(sorted((r, c, swap[role]) for r, c, role in cells))


# The eight symmetries of the square as maps of (row, col).
_SYMMETRIES = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
    lambda r, c: (-c, -r),
)


def _variants(pattern: Pattern) -> tuple[Pattern, ...]:
    """Every distinct rotation and reflection of ``pattern``.

    SAME and OTHER may be bound to either colour, so a variant and its role-swapped copy match the
    same boards; only one of each such pair is kept.
    """
    seen: set[tuple[tuple[int, int, str], ...]] = set()
    out = []
    for symmetry in _SYMMETRIES:
        cells = _normalised((*symmetry(r, c), role) for r, c, role in pattern.cells)
        key = min(cells, _swap_roles(cells))
        if key not in seen:
            seen.add(key)
            out.append(Pattern(pattern.name, cells))
    return tuple(out)


FORBIDDEN_VARIANTS: tuple[Pattern, ...] = tuple(v for p in FORBIDDEN_PATTERNS for v in _variants(p))


def _bind(pattern: Pattern, same_colour: str) -> tuple[tuple[int, int, str], ...]:
    """The pattern's cells with roles replaced by concrete colours (SAME -> ``same_colour``)."""
    colour = {SAME: same_colour, OTHER: opponent(same_colour), VACANT: EMPTY}
    return tuple((r, c, colour[role]) for r, c, role in pattern.cells)


# Every forbidden arrangement in concrete colours: (name, cells as (dr, dc, colour)).
_CONCRETE: tuple[tuple[str, tuple[tuple[int, int, str], ...]], ...] = tuple(
    (v.name, _bind(v, same)) for v in FORBIDDEN_VARIANTS for same in COLOURS
)

# Stones of each concrete arrangement, shifted to the origin -> pattern name. Every stone set spans
# its whole area (a hard corner's three stones, a switch's four corners), so the stones alone fix
# where the empty points are.
_STONE_SETS: dict[frozenset[tuple[int, int, str]], str] = {
    frozenset(_normalised(cell for cell in cells if cell[2] != EMPTY)): name
    for name, cells in _CONCRETE
}


@dataclass(frozen=True)
class Diagram:
    """A legend diagram: stones before a forbidden placement and the point where it is forbidden."""

    name: str
    height: int
    width: int
    stones: tuple[tuple[Point, str], ...]  # ((row, col), colour), row-major
    forbidden_point: Point
    colour: str  # the colour that may not be placed at forbidden_point


def _legend_diagram(pattern: Pattern) -> Diagram:
    """The pattern as drawn in its definition, Black as SAME, the last Black stone crossed out."""
    cells = _bind(pattern, BLACK)
    forbidden = max((r, c) for r, c, colour in cells if colour == BLACK)
    stones = tuple(
        ((r, c), colour) for r, c, colour in cells if colour != EMPTY and (r, c) != forbidden
    )
    return Diagram(pattern.name, pattern.height, pattern.width, stones, forbidden, BLACK)


# What a board sheet draws as its legend: the hard corner and both switch sizes.
LEGEND_DIAGRAMS: tuple[Diagram, ...] = tuple(_legend_diagram(p) for p in FORBIDDEN_PATTERNS)


def match_forbidden_diagram(
    stones: Mapping[Point, str], forbidden_point: Point, colour: str | None = None
) -> str | None:
    """Name of the forbidden pattern a drawn diagram shows, or None if it shows none.

    ``stones`` maps points to BLACK or WHITE; ``forbidden_point`` is the crossed-out point. If it
    holds a stone, that stone is the forbidden placement; otherwise the placement is ``colour`` or,
    when ``colour`` is None, either colour. The diagram shows a pattern when the stones with that
    placement are exactly one forbidden arrangement (any rotation, reflection or position), its
    empty points being the diagram's empty points.
    """
    for point, stone in stones.items():
        if stone not in COLOURS:
            raise ValueError(f"stone {stone!r} at {point}: expected {BLACK!r} or {WHITE!r}")
    placed = stones.get(forbidden_point)
    if placed is not None:
        candidates: tuple[str, ...] = (placed,) if colour in (None, placed) else ()
    else:
        candidates = COLOURS if colour is None else (COLOURS[_colour_index(colour)],)
    for candidate in candidates:
        full = dict(stones)
        full[forbidden_point] = candidate
        key = frozenset(_normalised((r, c, s) for (r, c), s in full.items()))
        if key in _STONE_SETS:
            return _STONE_SETS[key]
    return None


def is_forbidden_diagram(
    stones: Mapping[Point, str], forbidden_point: Point, colour: str | None = None
) -> bool:
    """Whether a drawn diagram shows a forbidden pattern (see ``match_forbidden_diagram``)."""
    return match_forbidden_diagram(stones, forbidden_point, colour) is not None


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------


def _check_size(size: int) -> None:
    """Raise ValueError unless ``size`` is a board size the rules allow."""
    if not isinstance(size, int) or isinstance(size, bool) or size < MIN_SIZE:
        raise ValueError(f"board size {size!r}: must be an integer of at least {MIN_SIZE}")


@dataclass(frozen=True)
class Position:
    """Stones on an n x n board as two bitboards (bit ``row * size + col``)."""

    size: int
    black: int = 0
    white: int = 0

    def __post_init__(self) -> None:
        _check_size(self.size)
        full = (1 << self.size * self.size) - 1
        if self.black < 0 or self.white < 0 or (self.black | self.white) & ~full:
            raise ValueError(f"stones outside the {self.size}x{self.size} board")
        if self.black & self.white:
            raise ValueError("a point holds both a black and a white stone")

    def __getitem__(self, point: Point) -> str:
        bit = 1 << _index(self.size, point)
        if self.black & bit:
            return BLACK
        if self.white & bit:
            return WHITE
        return EMPTY

    def __str__(self) -> str:
        size, black, white = self.size, self.black, self.white
        symbols = [
            BLACK if black >> i & 1 else WHITE if white >> i & 1 else EMPTY
            for i in range(size * size)
        ]
        return "\n".join("".join(symbols[r * size : (r + 1) * size]) for r in range(size))

    def __repr__(self) -> str:
        return f"parse_position({str(self)!r})"

    def stones(self, colour: str) -> frozenset[Point]:
        """The points holding a stone of ``colour``."""
        mask = self.black if colour == BLACK else self.white if colour == WHITE else None
        if mask is None:
            raise ValueError(f"colour {colour!r}: expected {BLACK!r} or {WHITE!r}")
        return frozenset(_points_of(self.size, mask))

    def empty_points(self) -> tuple[Point, ...]:
        """The empty points in row-major order."""
        full = (1 << self.size * self.size) - 1
        return _points_of(self.size, full & ~(self.black | self.white))

    def is_full(self) -> bool:
        """Whether every point holds a stone."""
        return self.black | self.white == (1 << self.size * self.size) - 1

    def with_stone(self, point: Point, colour: str) -> Position:
        """This position with a ``colour`` stone on the empty ``point`` (no legality check)."""
        bit = 1 << _index(self.size, point)
        if (self.black | self.white) & bit:
            raise ValueError(f"point {point} is occupied")
        if colour == BLACK:
            return Position(self.size, self.black | bit, self.white)
        if colour == WHITE:
            return Position(self.size, self.black, self.white | bit)
        raise ValueError(f"colour {colour!r}: expected {BLACK!r} or {WHITE!r}")


def empty_position(size: int) -> Position:
    """The empty n x n board."""
    return Position(size)


def parse_position(text: str) -> Position:
    """Parse rows of ``B``, ``W`` and ``.`` (row 0 first); blank lines and spaces are ignored."""
    rows = ["".join(line.split()) for line in text.splitlines()]
    rows = [row for row in rows if row]
    size = len(rows)
    if size < MIN_SIZE:
        raise ValueError(f"position has {size} rows: a board has at least {MIN_SIZE}")
    black = white = 0
    for r, row in enumerate(rows):
        if len(row) != size:
            raise ValueError(f"row {r} {row!r} has {len(row)} points: the board is {size}x{size}")
        for c, ch in enumerate(row):
            if ch == BLACK:
                black |= 1 << (r * size + c)
            elif ch == WHITE:
                white |= 1 << (r * size + c)
            elif ch != EMPTY:
                raise ValueError(f"row {r} {row!r}: {ch!r} is not one of B, W, .")
    return Position(size, black, white)


def _index(size: int, point: Point) -> int:
    """The bit index of ``point``; ValueError if it is not a point of the board."""
    try:
        r, c = point
    except (TypeError, ValueError):
        raise ValueError(f"{point!r} is not a (row, col) point") from None
    if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < size and 0 <= c < size):
        raise ValueError(f"{point!r} is not a point of the {size}x{size} board")
    return r * size + c


def _points_of(size: int, mask: int) -> tuple[Point, ...]:
    """The points of a bitboard in row-major order."""
    # Reading the binary digits (lowest bit first) loops in C rather than bit by bit in Python.
    digits = bin(mask)[:1:-1]
    return tuple(divmod(i, size) for i, digit in enumerate(digits) if digit == "1")


# --------------------------------------------------------------------------------------------
# Whole-board and local pattern search (descriptive, used for messages and cross-checks)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class PatternMatch:
    """A forbidden pattern found on a board: its name and its cells with their colours."""

    name: str
    cells: tuple[tuple[Point, str], ...]  # ((row, col), BLACK / WHITE / EMPTY), row-major


def _match_at(grid: list[str], cells: tuple[tuple[int, int, str], ...], r0: int, c0: int) -> bool:
    """Whether concrete ``cells`` at ``(r0, c0)`` fit on ``grid`` (rows of B/W/.) and agree."""
    size = len(grid)
    for dr, dc, colour in cells:
        r, c = r0 + dr, c0 + dc
        if not (0 <= r < size and 0 <= c < size) or grid[r][c] != colour:
            return False
    return True


def _as_match(name: str, cells: tuple[tuple[int, int, str], ...], r0: int, c0: int) -> PatternMatch:
    """A PatternMatch for concrete ``cells`` at origin ``(r0, c0)``."""
    placed = sorted(((r0 + dr, c0 + dc), colour) for dr, dc, colour in cells)
    return PatternMatch(name, tuple(placed))


def forbidden_patterns_in(position: Position) -> tuple[PatternMatch, ...]:
    """Every hard corner and switch on the board, each once, sorted."""
    grid = str(position).splitlines()
    found = []
    for name, cells in _CONCRETE:
        height = max(dr for dr, _, _ in cells) + 1
        width = max(dc for _, dc, _ in cells) + 1
        for r0 in range(position.size - height + 1):
            for c0 in range(position.size - width + 1):
                if _match_at(grid, cells, r0, c0):
                    found.append(_as_match(name, cells, r0, c0))
    return tuple(sorted(found))


def placement_patterns(position: Position, point: Point, colour: str) -> tuple[PatternMatch, ...]:
    """The forbidden patterns that a ``colour`` stone on the empty ``point`` would create."""
    grid = str(position.with_stone(point, colour)).splitlines()
    row, col = point
    found = set()
    for name, cells in _CONCRETE:
        for dr, dc, cell_colour in cells:
            if cell_colour == colour and _match_at(grid, cells, row - dr, col - dc):
                found.add(_as_match(name, cells, row - dr, col - dc))
    return tuple(sorted(found))


# --------------------------------------------------------------------------------------------
# Per-size tables for the fast local check
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tables:
    """Bitboard tables for one board size, built once per size."""

    size: int
    full: int
    points: tuple[Point, ...]  # bit index -> point
    # checks[colour][i]: (black_mask, black_want, white_mask, white_want) per arrangement that
    # has a ``colour`` stone at i. With i still empty, placing there creates the arrangement iff
    # black & black_mask == black_want and white & white_mask == white_want.
    checks: tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...]
    # neighbours[i]: every other point sharing an arrangement's area with i, the only points whose
    # legality a stone on i can change.
    neighbours: tuple[tuple[int, ...], ...]
    # affected[colour][i]: per neighbour j of i, (j, bit of j, black checks of j with a ``colour``
    # stone at i, the same for white). A point legal before a ``colour`` stone lands on i can only
    # lose its legality through an arrangement that holds that stone, so these few checks suffice.
    affected: tuple[tuple[tuple[tuple[int, int, tuple, tuple], ...], ...], ...]
    top: int
    bottom: int
    left: int
    right: int


@lru_cache(maxsize=None)
def _tables(size: int) -> _Tables:
    """The tables for ``size``; cached, so each size is built once."""
    _check_size(size)
    count = size * size
    checks: list[list[list[tuple[int, int, int, int]]]] = [
        [[] for _ in range(count)] for _ in COLOURS
    ]
    near: list[set[int]] = [set() for _ in range(count)]
    # via[(colour at i, i, j, colour at j)]: checks of j for that colour that need that stone on i.
    via: dict[tuple[int, int, int, int], list[tuple[int, int, int, int]]] = {}
    for _, cells in _CONCRETE:
        height = max(dr for dr, _, _ in cells) + 1
        width = max(dc for _, dc, _ in cells) + 1
        for r0 in range(size - height + 1):
            for c0 in range(size - width + 1):
                masks = {BLACK: 0, WHITE: 0, EMPTY: 0}
                indices = []
                for dr, dc, colour in cells:
                    i = (r0 + dr) * size + c0 + dc
                    masks[colour] |= 1 << i
                    indices.append((i, colour))
                black, white, empty = masks[BLACK], masks[WHITE], masks[EMPTY]
                stones = [(i, COLOURS.index(colour)) for i, colour in indices if colour != EMPTY]
                for i, _ in indices:
                    near[i].update(j for j, _ in indices if j != i)
                for i, side in stones:
                    bit = 1 << i
                    if side == 0:
                        check = ((black ^ bit) | empty, black ^ bit, white | empty, white)
                    else:
                        check = (black | empty, black, (white ^ bit) | empty, white ^ bit)
                    checks[side][i].append(check)
                    for j, other_side in stones:
                        if j != i:
                            via.setdefault((other_side, j, i, side), []).append(check)
    frozen_checks = tuple(tuple(map(tuple, per_colour)) for per_colour in checks)
    neighbours = tuple(tuple(sorted(n)) for n in near)
    affected = tuple(
        tuple(
            tuple(
                (
                    j,
                    1 << j,
                    tuple(via.get((side, i, j, 0), ())),
                    tuple(via.get((side, i, j, 1), ())),
                )
                for j in neighbours[i]
            )
            for i in range(count)
        )
        for side in range(len(COLOURS))
    )
    row = (1 << size) - 1
    column = sum(1 << (r * size) for r in range(size))
    return _Tables(
        size=size,
        full=(1 << count) - 1,
        points=tuple(divmod(i, size) for i in range(count)),
        checks=frozen_checks,
        neighbours=neighbours,
        affected=affected,
        top=row,
        bottom=row << (size - 1) * size,
        left=column,
        right=column << (size - 1),
    )


def _creates_pattern(checks: tuple[tuple[int, int, int, int], ...], black: int, white: int) -> bool:
    """Whether one of the arrangements in ``checks`` is completed on the board."""
    for black_mask, black_want, white_mask, white_want in checks:
        if black & black_mask == black_want and white & white_mask == white_want:
            return True
    return False


def is_legal_placement(position: Position, point: Point, colour: str) -> bool:
    """Whether a ``colour`` stone may go on ``point``: empty, and creating no forbidden pattern."""
    tables = _tables(position.size)
    i = _index(position.size, point)
    if (position.black | position.white) >> i & 1:
        return False
    checks = tables.checks[_colour_index(colour)][i]
    return not _creates_pattern(checks, position.black, position.white)


def _colour_index(colour: str) -> int:
    """0 for BLACK, 1 for WHITE."""
    if colour == BLACK:
        return 0
    if colour == WHITE:
        return 1
    raise ValueError(f"colour {colour!r}: expected {BLACK!r} or {WHITE!r}")


def _scan_legal_mask(position: Position, colour: str) -> int:
    """Bitboard of the legal points of ``colour``, found by checking every empty point."""
    tables = _tables(position.size)
    checks = tables.checks[_colour_index(colour)]
    black, white = position.black, position.white
    empty = tables.full & ~(black | white)
    mask = 0
    for i in range(tables.size * tables.size):
        if empty >> i & 1 and not _creates_pattern(checks[i], black, white):
            mask |= 1 << i
    return mask


def scan_legal_points(position: Position, colour: str) -> frozenset[Point]:
    """The legal points of ``colour`` found by a full scan of the board (no incremental data)."""
    return frozenset(_points_of(position.size, _scan_legal_mask(position, colour)))


# --------------------------------------------------------------------------------------------
# Connections
# --------------------------------------------------------------------------------------------


def _group(tables: _Tables, stones: int, seed: int) -> int:
    """The stones orthogonally connected to ``seed`` (a bitboard within ``stones``)."""
    size = tables.size
    not_left = tables.full & ~tables.left
    not_right = tables.full & ~tables.right
    group = seed & stones
    while True:
        grown = (
            group
            | ((group << 1) & not_left)
            | ((group >> 1) & not_right)
            | (group << size)
            | (group >> size)
        ) & stones
        if grown == group:
            return group
        group = grown


def _edges(tables: _Tables, colour: str) -> tuple[int, int]:
    """The two edges (bitboards) that ``colour`` connects."""
    return (tables.top, tables.bottom) if colour == BLACK else (tables.left, tables.right)


def has_connection(position: Position, colour: str) -> bool:
    """Whether ``colour`` has an orthogonally connected chain joining its two edges."""
    tables = _tables(position.size)
    stones = position.black if _colour_index(colour) == 0 else position.white
    first, second = _edges(tables, colour)
    return bool(_group(tables, stones, stones & first) & second)


# --------------------------------------------------------------------------------------------
# Game states
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameState:
    """An immutable game state: the position, who places next and both colours' legal points.

    ``legal_black`` and ``legal_white`` are bitboards kept up to date by ``apply``. ``to_move`` is
    the player who places next, a skipped player already passed over; once the game is over it is
    the player who would have been next.
    """

    position: Position
    to_move: str
    legal_black: int
    legal_white: int
    winner: str | None = None

    def __str__(self) -> str:
        return f"{self.position}\n{_COLOUR_NAMES[self.to_move]} to move"


def _next_player(mover: str, legal_black: int, legal_white: int) -> str:
    """Who places after ``mover``: the opponent, or ``mover`` again if the opponent cannot place."""
    nxt = opponent(mover)
    nxt_legal = legal_black if nxt == BLACK else legal_white
    mover_legal = legal_white if nxt == BLACK else legal_black
    return mover if not nxt_legal and mover_legal else nxt


def new_game(size: int) -> GameState:
    """The start of a game on an empty ``size`` x ``size`` board, Black to move."""
    return state_from_position(empty_position(size), BLACK)


def state_from_position(position: Position, to_move: str | None = None) -> GameState:
    """A game state for a reachable ``position`` (legal points by full scan).

    ``to_move`` defaults to Black when the stone counts are equal and White when Black has one
    more; if that player cannot place, the turn passes to the other as in play.
    """
    found = forbidden_patterns_in(position)
    if found:
        points = [point for point, _ in found[0].cells]
        raise InvalidPosition(f"position contains a {found[0].name} at {points}")
    if to_move is None:
        blacks, whites = position.black.bit_count(), position.white.bit_count()
        if blacks == whites:
            to_move = BLACK
        elif blacks == whites + 1:
            to_move = WHITE
        else:
            raise InvalidPosition(f"{blacks} black and {whites} white stones: say who is to move")
    winners = [colour for colour in COLOURS if has_connection(position, colour)]
    legal_black = _scan_legal_mask(position, BLACK)
    legal_white = _scan_legal_mask(position, WHITE)
    return GameState(
        position=position,
        to_move=_next_player(opponent(to_move), legal_black, legal_white),
        legal_black=legal_black,
        legal_white=legal_white,
        winner=winners[0] if winners else None,
    )


def is_terminal(state: GameState) -> bool:
    """Whether the game is over: someone has connected, or neither player can place."""
    return state.winner is not None or not (state.legal_black or state.legal_white)


def outcome(state: GameState) -> str | None:
    """BLACK or WHITE for a win, DRAW when neither can place, None while the game goes on."""
    if state.winner is not None:
        return state.winner
    if not (state.legal_black or state.legal_white):
        return DRAW
    return None


def legal_points(state: GameState, colour: str) -> frozenset[Point]:
    """The points where ``colour`` may place now (from the incrementally kept sets)."""
    mask = state.legal_black if _colour_index(colour) == 0 else state.legal_white
    return frozenset(_points_of(state.position.size, mask))


def legal_moves(state: GameState) -> tuple[Point, ...]:
    """The placements of the player to move, in row-major order; empty once the game is over."""
    if is_terminal(state):
        return ()
    mask = state.legal_black if state.to_move == BLACK else state.legal_white
    return _points_of(state.position.size, mask)


def is_legal(state: GameState, move: Point) -> bool:
    """Whether the player to move may place on ``move``."""
    if is_terminal(state):
        return False
    try:
        i = _index(state.position.size, move)
    except ValueError:
        return False
    mask = state.legal_black if state.to_move == BLACK else state.legal_white
    return bool(mask >> i & 1)


def apply(state: GameState, move: Point) -> GameState:
    """The state after the player to move places a stone on ``move``; IllegalMove if forbidden."""
    colour = state.to_move
    position = state.position
    if is_terminal(state):
        raise IllegalMove(f"move {move!r}: the game is over")
    try:
        i = _index(position.size, move)
    except ValueError as error:
        raise IllegalMove(f"move {move!r}: {error}") from None
    bit = 1 << i
    black, white = position.black, position.white
    if not (state.legal_black if colour == BLACK else state.legal_white) & bit:
        if (black | white) & bit:
            raise IllegalMove(f"move {move!r}: the point is occupied")
        names = sorted({m.name for m in placement_patterns(position, move, colour)})
        made = " and a ".join(names)
        raise IllegalMove(f"move {move!r}: a {_COLOUR_NAMES[colour]} stone there makes a {made}")
    if colour == BLACK:
        black |= bit
    else:
        white |= bit
    tables = _tables(position.size)
    legal_black, legal_white = _update_legal(
        tables, i, colour, black, white, state.legal_black, state.legal_white
    )
    after = Position(position.size, black, white)
    winner = colour if _wins(tables, colour, black if colour == BLACK else white, bit) else None
    return GameState(
        position=after,
        to_move=_next_player(colour, legal_black, legal_white),
        legal_black=legal_black,
        legal_white=legal_white,
        winner=winner,
    )


def _update_legal(
    tables: _Tables, i: int, colour: str, black: int, white: int, legal_black: int, legal_white: int
) -> tuple[int, int]:
    """Both colours' legal bitboards after a ``colour`` stone on ``i``, rechecking neighbours."""
    bit = 1 << i
    legal_black &= ~bit
    legal_white &= ~bit
    occupied = black | white
    black_checks, white_checks = tables.checks
    for j, jbit, black_via, white_via in tables.affected[0 if colour == BLACK else 1][i]:
        if occupied & jbit:
            continue
        # A legal point can only be spoilt by an arrangement through the new stone; an illegal
        # one may have been freed (the new stone filled a point that had to be empty): recheck.
        if legal_black & jbit:
            if black_via and _creates_pattern(black_via, black, white):
                legal_black ^= jbit
        elif not _creates_pattern(black_checks[j], black, white):
            legal_black |= jbit
        if legal_white & jbit:
            if white_via and _creates_pattern(white_via, black, white):
                legal_white ^= jbit
        elif not _creates_pattern(white_checks[j], black, white):
            legal_white |= jbit
    return legal_black, legal_white


def _wins(tables: _Tables, colour: str, stones: int, bit: int) -> bool:
    """Whether the group of the new stone ``bit`` joins ``colour``'s two edges."""
    first, second = _edges(tables, colour)
    # Only the new stone's group can have changed; skip the flood fill until both edges are reached.
    if not (stones & first and stones & second):
        return False
    group = _group(tables, stones, bit)
    return bool(group & first and group & second)
