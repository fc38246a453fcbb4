"""Patchwork for two players: the 33 patches, the time track and the whole game on 9x9 bitboards.

Rules and decided edge cases: shared/rules/patchwork.md. A quilt is a Python int of 81 bits,
bit ``9 * row + col`` for the cell at (row, col), row 0 at the top.

The game's data: the patches, the time track, quilts and the rules' words. The play itself
(moves, states, legal moves, ``apply``, scores) is ``printables.rules.patchwork_play``, built on
this module: a sheet, which needs only the patches, the track and the rules' words, does not
import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping


try:  # the stored orientations of the printed patches (tools/patchwork_orientations.py writes them)
    from printables.rules.patchwork_orientations import ORIENTATIONS
except ImportError:  # pragma: no cover - a checkout without the table computes them all
    ORIENTATIONS = {}

PLAYERS = 2
QUILT_SIZE = 9  # cells per side of a player's quilt
QUILT_CELLS = QUILT_SIZE * QUILT_SIZE  # 81 cells
FULL_QUILT = (1 << QUILT_CELLS) - 1  # bitboard with every cell covered
BONUS_SIZE = 7  # cells per side of the square that wins the bonus tile
BONUS_POINTS = 7  # points for the bonus tile
START_BUTTONS = 5  # buttons each player starts with
EMPTY_CELL_PENALTY = 2  # points lost per empty quilt cell
MARKET_SIZE = 3  # patches buyable clockwise of the neutral marker

START_POSITION = 0  # time-track position of both tokens at the start
FINAL_POSITION = 53  # the centre of the time track
TRACK_LENGTH = FINAL_POSITION  # 53 steps from start to centre
TRACK_POSITIONS = FINAL_POSITION + 1  # 54 positions, 0 to 53
INCOME_SPACES = (5, 11, 17, 23, 29, 35, 41, 47, 53)  # time-track positions paying button income

EDITIONS = ("classic", "revised")
DEFAULT_EDITION = "classic"
# Where the five 1x1 leather patches lie on the time track, per printed edition.
LEATHER_SPACES: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        "classic": (20, 26, 32, 44, 50),  # 2014 board
        "revised": (26, 32, 38, 44, 50),  # newer prints and the app
    }
)

Cell = tuple[int, int]
Shape = frozenset[Cell]


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given state."""


# ---------------------------------------------------------------------------------------------
# Shapes


def parse_shape(text: str) -> Shape:
    """Read a shape written as rows of '#' and '.' separated by '/' (top row first)."""
    if not re.fullmatch(r"[#.]+(/[#.]+)*", text):
        raise ValueError(f"not a shape: {text!r} (rows of '#' and '.' separated by '/')")
    cells = frozenset(
        (r, c) for r, row in enumerate(text.split("/")) for c, ch in enumerate(row) if ch == "#"
    )
    if not cells:
        raise ValueError(f"shape {text!r} has no covered cell")
    return normalise_shape(cells)


def format_shape(cells: Iterable[Cell]) -> str:
    """Write a shape as rows of '#' and '.' separated by '/', after moving it to (0, 0)."""
    norm = normalise_shape(cells)
    height = max(r for r, _ in norm) + 1
    width = max(c for _, c in norm) + 1
    return "/".join(
        "".join("#" if (r, c) in norm else "." for c in range(width)) for r in range(height)
    )


def normalise_shape(cells: Iterable[Cell]) -> Shape:
    """Translate cells so the smallest row and the smallest column are 0."""
    cells = tuple(cells)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _transforms(cells: Shape) -> list[Shape]:
    """The 8 rotations and reflections, identity first, each normalised (duplicates kept)."""
    out = []
    for mirrored in (False, True):
        current = frozenset((r, -c) for r, c in cells) if mirrored else cells
        for _ in range(4):
            out.append(normalise_shape(current))
            current = frozenset((c, -r) for r, c in current)  # a quarter turn clockwise
    return out


def orientations_of(cells: Iterable[Cell]) -> tuple[Shape, ...]:
    """The distinct rotations and reflections of a shape, the shape as given first."""
    seen: list[Shape] = []
    for shape in _transforms(normalise_shape(cells)):
        if shape not in seen:
            seen.append(shape)
    return tuple(seen)


def canonical_shape(cells: Iterable[Cell]) -> Shape:
    """One normalised representative per free polyomino: equal iff same shape up to turns/flips."""
    return min(_transforms(normalise_shape(cells)), key=lambda s: sorted(s))


def _orientations(shape: Shape) -> tuple[Shape, ...]:
    """``orientations_of(shape)``; for a printed patch's shape, built from the stored table
    (rules/patchwork_orientations.py, written by tools/patchwork_orientations.py: the same sets, made
    by inserting the same cells in the same order) instead of turning and flipping it again."""
    stored = ORIENTATIONS.get(tuple(shape))
    if stored is None:
        return orientations_of(shape)
    return tuple(map(frozenset, stored))


# ---------------------------------------------------------------------------------------------
# Patches


@dataclass(frozen=True, slots=True)
class Patch:
    """One patch: its cells as printed, its button cost, time cost and income buttons."""

    id: int
    shape: Shape
    cost: int  # buttons paid to buy it
    time: int  # time-track spaces the buyer moves
    income: int  # buttons printed on it, paid at every income space crossed
    orientations: tuple[Shape, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "orientations", _orientations(self.shape))

    @property
    def size(self) -> int:
        """Number of cells the patch covers."""
        return len(self.shape)

    @property
    def height(self) -> int:
        """Rows of the printed shape."""
        return max(r for r, _ in self.shape) + 1

    @property
    def width(self) -> int:
        """Columns of the printed shape."""
        return max(c for _, c in self.shape) + 1

    def __str__(self) -> str:
        return (
            f"patch {self.id} {format_shape(self.shape)} "
            f"cost {self.cost} time {self.time} income {self.income}"
        )


# id, shape, button cost, time cost, button income (shared/rules/patchwork.md)
_PATCH_TABLE = (
    (0, "##", 2, 1, 0),
    (1, "###", 2, 2, 0),
    (2, "####", 3, 3, 1),
    (3, "#####", 7, 1, 1),
    (4, "##/##", 6, 5, 2),
    (5, "##./###", 2, 2, 0),
    (6, "##../####", 10, 5, 3),
    (7, ".##./####", 7, 4, 2),
    (8, "###./.###", 4, 2, 0),
    (9, ".##/.##/##.", 8, 6, 3),
    (10, "#.#/###", 1, 2, 0),
    (11, "#..#/####", 1, 5, 1),
    (12, "#.#/###/.#.", 3, 6, 2),
    (13, "###/.#.", 2, 2, 0),
    (14, "###/.#./.#.", 5, 5, 2),
    (15, "###/.#./.#./.#.", 7, 2, 2),
    (16, ".#./###/.#./.#.", 0, 3, 1),
    (17, "#./#./##", 4, 2, 1),
    (18, "#./#./##", 4, 6, 2),
    (19, "#./#./#./##", 10, 3, 2),
    (20, "#./#./##/#.", 3, 4, 1),
    (21, ".#./###/.#.", 5, 4, 2),
    (22, ".#./.#./###/.#./.#.", 1, 4, 1),
    (23, ".##./####/.##.", 5, 3, 1),
    (24, "#.#/###/#.#", 2, 3, 0),
    (25, ".#/##", 3, 1, 0),
    (26, ".#/##", 1, 3, 0),
    (27, ".#/##/#.", 3, 2, 1),
    (28, ".#/##/#.", 7, 6, 3),
    (29, ".#/.#/##/#.", 2, 3, 1),
    (30, "...#/####/#...", 1, 2, 0),
    (31, "..#./####/.#..", 2, 1, 0),
    (32, "..#/.##/##.", 10, 4, 3),
)

PATCHES: tuple[Patch, ...] = tuple(
    Patch(pid, parse_shape(shape), cost, time, income)
    for pid, shape, cost, time, income in _PATCH_TABLE
)
START_PATCH_ID = 0  # the 2x1 patch, last in the circle so the marker starts just clockwise of it


def patch_by_id(patch_id: int) -> Patch:
    """The patch with this id (0 to 32)."""
    if not isinstance(patch_id, int) or not 0 <= patch_id < len(PATCHES):
        raise KeyError(f"no patch with id {patch_id!r} (ids are 0 to {len(PATCHES) - 1})")
    return PATCHES[patch_id]


# ---------------------------------------------------------------------------------------------
# Bitboards


def cell_bit(row: int, col: int) -> int:
    """The bitboard with only the cell (row, col) set."""
    if not (0 <= row < QUILT_SIZE and 0 <= col < QUILT_SIZE):
        raise ValueError(f"cell ({row}, {col}) is off the {QUILT_SIZE}x{QUILT_SIZE} quilt")
    return 1 << (row * QUILT_SIZE + col)


def cells_to_bits(cells: Iterable[Cell], row: int = 0, col: int = 0) -> int:
    """The bitboard of cells shifted down by row and right by col."""
    bits = 0
    for r, c in cells:
        bits |= cell_bit(r + row, c + col)
    return bits


def bits_to_cells(bits: int) -> frozenset[Cell]:
    """The cells set in a bitboard."""
    return frozenset(divmod(i, QUILT_SIZE) for i in range(QUILT_CELLS) if bits >> i & 1)


def format_quilt(bits: int) -> str:
    """Draw a quilt as 9 lines of '#' (covered) and '.' (empty)."""
    return "\n".join(
        "".join("#" if bits >> (r * QUILT_SIZE + c) & 1 else "." for c in range(QUILT_SIZE))
        for r in range(QUILT_SIZE)
    )


def parse_quilt(text: str) -> int:
    """Read a quilt drawn as 9 lines of 9 '#' or '.' (surrounding blank space ignored)."""
    rows = [line.strip() for line in text.strip().splitlines()]
    if len(rows) != QUILT_SIZE or any(not re.fullmatch(r"[#.]{9}", row) for row in rows):
        raise ValueError(f"a quilt is {QUILT_SIZE} lines of {QUILT_SIZE} '#' or '.': {text!r}")
    return cells_to_bits(
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"
    )


def empty_cell_count(bits: int) -> int:
    """Number of uncovered cells on a quilt."""
    return QUILT_CELLS - bits.bit_count()


# The 9 windows of 7x7 cells; covering any one wins the bonus tile.
BONUS_WINDOWS: tuple[int, ...] = tuple(
    cells_to_bits(((r, c) for r in range(BONUS_SIZE) for c in range(BONUS_SIZE)), row, col)
    for row in range(QUILT_SIZE - BONUS_SIZE + 1)
    for col in range(QUILT_SIZE - BONUS_SIZE + 1)
)


def has_bonus_square(bits: int) -> bool:
    """Whether a quilt covers some 7x7 square completely."""
    return any(bits & w == w for w in BONUS_WINDOWS)


def leather_spaces(edition: str = DEFAULT_EDITION) -> tuple[int, ...]:
    """The time-track spaces of the five leather patches in an edition ('classic' or 'revised')."""
    if edition not in LEATHER_SPACES:
        raise ValueError(f"unknown edition {edition!r}; choose one of {', '.join(EDITIONS)}")
    return LEATHER_SPACES[edition]


# The words a sheet prints about the rules (its layout sets them; its check reads them back word for word).
TRACK_RULES_TEXT = (
    "Set-up: lay the 33 patches in a circle and put the neutral marker just clockwise of the small "
    "2-square patch. Each player takes 5 buttons and puts a time token on start. "
    "Turn: the player whose token is behind plays (on the same space, the one on top). Either buy one of "
    "the three patches clockwise of the marker - pay its buttons, move the marker to its place, sew it on "
    "your quilt in any rotation or flip without overlap, move your token on by its time - or pass: move just "
    "ahead of the other token and take 1 button per space moved. "
    "Moving onto or past a button space pays your income: the buttons shown on your quilt. The first token "
    "to reach or pass a leather space takes that leather patch and sews it on at once. "
    "When both tokens are on 53 the game ends: buttons + 7 (bonus tile) - 2 per empty square; on a tie the "
    "player who reached 53 first wins."
)
BONUS_NOTE = (
    "7x7 bonus: the first player to cover a whole 7x7 square of their quilt — anywhere: any of the "
    "9 possible squares counts, so none is marked — takes the bonus tile, worth 7 points."
)
SCORE_NOTE = "Score at the end: your buttons + 7 for the bonus tile - 2 for every empty square of your quilt."

