"""Giuthi, the Kikuyu and Embu mancala: sowing, relays, sow-again, captures and the end of a game.

Rules and decided edge cases: shared/rules/giuthi.md. South owns pits 0..n-1 and North pits
n..2n-1, numbered anticlockwise seen from above; CCW is index + 1 mod 2n, CW is index - 1 mod 2n,
and pit i faces pit 2n-1-i. Stores hold captured seeds only and are never sown into.

Moves. A ``Sowing`` is one choice of the player: (pit, direction). Relays are forced, so a turn is
written as the sowings the player chooses, the first one and one per sow-again: ``Move`` holds
them and prints as ``"1ccw,4cw"`` (``"pass"`` for none); ``Move.parse`` reads that back.
``apply_traced`` plays a whole turn (or its beginning) and returns the new state with every lap.

Choice points. ``legal_moves`` lists the legal *next sowings* (one-sowing moves), pits ascending,
CCW before CW: the 12 first sowings of the opening, not the 26 whole turns they lead to, because
sow-again chains make whole turns explode (over a thousand in some 2x6 positions). After a sowing
that ends in a sow-again the state is mid-turn (``turn_boards`` non-empty, same player to move)
and ``legal_moves`` lists the continuations. ``iter_turns`` generates whole turns when wanted.

Loops. A sowing whose relay chain repeats its within-turn state (board, lifted pit, direction,
crossed) never ends and is not legal; so is a sow-again that brings back a board already seen at
one of this turn's choice points. A player with no legal sowing passes (mid-turn: the turn ends).

The end of the module holds the capacity analysis the printed board is sized with: many seeded
games of random and of greedy players, and the largest pit and store loads they reach.
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Collection, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from functools import lru_cache
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple

MIN_PITS_PER_ROW = 5
MAX_PITS_PER_ROW = 10
DEFAULT_PITS_PER_ROW = 6
MIN_SEEDS_PER_PIT = 4
MAX_SEEDS_PER_PIT = 9
DEFAULT_SEEDS_PER_PIT = 4
MIN_SEEDS_TO_SOW = 2  # a pit holding fewer seeds cannot start a sowing

SOUTH = 0
NORTH = 1
PLAYER_NAMES = ("South", "North")

# A relay chain is deterministic, so it never ends exactly when its within-turn state repeats.
# Recording states only after this many laps keeps ordinary chains (a few laps) free of the cost:
# a chain that loops still loops after the threshold and repeats a recorded state within a cycle.
LOOP_CHECK_AFTER_LAPS = 32


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given state."""


class Direction(enum.IntEnum):
    """Sowing direction seen from above: CCW steps to index + 1, CW to index - 1."""

    CW = -1
    CCW = 1

    def __str__(self) -> str:
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Direction.{self.name}"

    @property
    def opposite(self) -> Direction:
        """The other direction (a relay flips to it)."""
        return Direction(-self.value)


# ---------------------------------------------------------------------------------------------
# Moves

_SOWING_RE = re.compile(r"(\d+)(ccw|cw)", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Sowing:
    """One sowing the player chooses: lift every seed of ``pit`` and sow them in ``direction``."""

    pit: int
    direction: Direction

    def __post_init__(self) -> None:
        if not isinstance(self.pit, int) or self.pit < 0:
            raise ValueError(f"sowing pit must be a non-negative int, got {self.pit!r}")
        if not isinstance(self.direction, Direction):
            object.__setattr__(self, "direction", Direction(self.direction))

    def __str__(self) -> str:
        return f"{self.pit}{self.direction}"

    def __repr__(self) -> str:
        return f"Sowing({self.pit}, {self.direction!r})"

    @classmethod
    def parse(cls, text: str) -> Sowing:
        """Read a sowing written as pit number and direction, e.g. ``3ccw`` or ``10cw``."""
        match = _SOWING_RE.fullmatch(text.strip())
        if not match:
            raise ValueError(f"not a sowing: {text!r} (write pit and direction, e.g. '3ccw')")
        return cls(int(match.group(1)), Direction[match.group(2).upper()])


@dataclass(frozen=True)
class Move:
    """The sowings a player chooses in one turn, in order: the first and one per sow-again.

    A whole turn, or its beginning (apply then leaves the state mid-turn); none is a pass.
    """

    sowings: tuple[Sowing, ...]

    def __post_init__(self) -> None:
        sowings = tuple(self.sowings)
        if not all(isinstance(s, Sowing) for s in sowings):
            raise ValueError(f"a move is a tuple of Sowing, got {self.sowings!r}")
        object.__setattr__(self, "sowings", sowings)

    @property
    def is_pass(self) -> bool:
        """True for the pass of a player who has no sowing."""
        return not self.sowings

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.sowings) if self.sowings else "pass"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a turn written as comma-separated sowings (``3ccw,0cw``) or ``pass``."""
        text = text.strip()
        if text.lower() == "pass":
            return PASS
        if not text:
            raise ValueError("empty move (write sowings like '3ccw,0cw' or 'pass')")
        return cls(tuple(Sowing.parse(part) for part in text.split(",")))

    @classmethod
    def of(cls, *sowings: tuple[int, Direction]) -> Move:
        """Build a turn from (pit, direction) pairs."""
        return cls(tuple(Sowing(pit, Direction(d)) for pit, d in sowings))


PASS = Move(())
_PASS_ONLY = (PASS,)
_first = itemgetter(0)

# Sowing objects for every pit and direction, built once so move generation only looks them up.
_SOWINGS: tuple[dict[int, Sowing], ...] = tuple(
    {d: Sowing(pit, Direction(d)) for d in (1, -1)} for pit in range(2 * MAX_PITS_PER_ROW)
)
# The one-sowing moves legal_moves returns, one shared object per sowing.
_ONE_SOWING_MOVES: dict[Sowing, Move] = {
    sowing: Move((sowing,)) for by_direction in _SOWINGS for sowing in by_direction.values()
}


# ---------------------------------------------------------------------------------------------
# Board geometry


def validate_parameters(pits_per_row: int, seeds_per_pit: int) -> None:
    """Raise ValueError naming the bad value and the allowed range."""
    if not isinstance(pits_per_row, int) or not (
        MIN_PITS_PER_ROW <= pits_per_row <= MAX_PITS_PER_ROW
    ):
        raise ValueError(
            f"pits_per_row={pits_per_row!r}: Giuthi boards have "
            f"{MIN_PITS_PER_ROW} to {MAX_PITS_PER_ROW} pits per row"
        )
    if not isinstance(seeds_per_pit, int) or not (
        MIN_SEEDS_PER_PIT <= seeds_per_pit <= MAX_SEEDS_PER_PIT
    ):
        raise ValueError(
            f"seeds_per_pit={seeds_per_pit!r}: Giuthi starts with "
            f"{MIN_SEEDS_PER_PIT} to {MAX_SEEDS_PER_PIT} seeds per pit"
        )


def owner(pit: int, pits_per_row: int) -> int:
    """The player (SOUTH or NORTH) whose row holds ``pit``."""
    return SOUTH if pit < pits_per_row else NORTH


def opposite(pit: int, pits_per_row: int) -> int:
    """The pit facing ``pit`` across the board."""
    return 2 * pits_per_row - 1 - pit


def own_pits(player: int, pits_per_row: int) -> range:
    """The pits of ``player``'s row, in ascending order."""
    return range(player * pits_per_row, (player + 1) * pits_per_row)


# ---------------------------------------------------------------------------------------------
# State


_tuple_new = tuple.__new__  # builds a NamedTuple from a tuple without its keyword handling


class Position(NamedTuple):
    """What the repetition rule compares: pits, stores and the player to move."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    player: int


@dataclass(frozen=True)
class State:
    """A position, the positions seen since the last capture, and the turn in progress.

    ``history`` holds positions at earlier turn starts (for the repetition rule) since the last
    capture: stores only grow, so an older position can never recur. ``turn_boards`` is empty at
    a turn start; mid-turn (a sow-again pending) it holds the boards of this turn's choice points.

    A state made by apply keeps those two packed (see "The engine's private fields") and builds
    them on first read, in ``__getattr__``: their defaults are factories so that the class has no
    attribute of their names to shadow that.
    """

    pits: tuple[int, ...]
    stores: tuple[int, int] = (0, 0)
    player: int = SOUTH
    history: frozenset[Position] = field(default_factory=frozenset)
    turn_boards: frozenset[tuple[int, ...]] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        pits = tuple(self.pits)
        if len(pits) % 2 or not MIN_PITS_PER_ROW <= len(pits) // 2 <= MAX_PITS_PER_ROW:
            raise ValueError(
                f"{len(pits)} pits: a Giuthi board has two rows of "
                f"{MIN_PITS_PER_ROW} to {MAX_PITS_PER_ROW} pits"
            )
        if any(not isinstance(v, int) or v < 0 for v in pits):
            raise ValueError(f"pit contents must be non-negative ints, got {pits!r}")
        stores = tuple(self.stores)
        if len(stores) != 2 or any(not isinstance(v, int) or v < 0 for v in stores):
            raise ValueError(f"stores must be two non-negative ints, got {self.stores!r}")
        if self.player not in (SOUTH, NORTH):
            raise ValueError(f"player={self.player!r}: must be SOUTH (0) or NORTH (1)")
        turn_boards = frozenset(tuple(b) for b in self.turn_boards)
        if turn_boards and pits not in turn_boards:
            raise ValueError("mid-turn, turn_boards must include the current pits")
        object.__setattr__(self, "pits", pits)
        object.__setattr__(self, "stores", stores)
        object.__setattr__(self, "player", int(self.player))
        object.__setattr__(self, "history", frozenset(self.history))
        object.__setattr__(self, "turn_boards", turn_boards)

    def __getattr__(self, name: str) -> frozenset:
        # Only called when ``name`` is not in the instance's __dict__: for a state apply made,
        # history and turn_boards are built from the packed values the first time they are read.
        fields = self.__dict__
        if name in _LAZY_FIELDS and "_hist" in fields:
            value = fields[name] = _unpack_field(fields, name)
            return value
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def is_mid_turn(self) -> bool:
        """True while the player to move must sow again within the same turn."""
        return bool(self.turn_boards)

    @property
    def pits_per_row(self) -> int:
        """Pits in each player's row."""
        return len(self.pits) // 2

    @property
    def position(self) -> Position:
        """The part of the state the repetition rule compares."""
        return _tuple_new(Position, (self.pits, self.stores, self.player))

    @property
    def total_seeds(self) -> int:
        """Seeds in pits and stores together (constant through a game)."""
        return sum(self.pits) + sum(self.stores)


def initial_state(
    pits_per_row: int = DEFAULT_PITS_PER_ROW,
    seeds_per_pit: int = DEFAULT_SEEDS_PER_PIT,
    first: int = SOUTH,
) -> State:
    """The starting position: every pit holds ``seeds_per_pit`` seeds, stores empty."""
    validate_parameters(pits_per_row, seeds_per_pit)
    if first not in (SOUTH, NORTH):
        raise ValueError(f"first={first!r}: must be SOUTH (0) or NORTH (1)")
    return State((seeds_per_pit,) * (2 * pits_per_row), (0, 0), first)


_object_new = object.__new__


# ---------------------------------------------------------------------------------------------
# Sowing


class LapEnd(enum.Enum):
    """What the last seed of a lap led to."""

    RELAY = "relay"  # landed in an occupied pit: lift it and sow the other way
    SOW_AGAIN = "sow-again"  # empty own pit before crossing: the player chooses a new sowing
    NO_SOWING_LEFT = "no-sowing-left"  # as SOW_AGAIN, but no legal sowing is left: turn ends
    STOP = "stop"  # empty opponent pit: turn ends
    NO_CAPTURE = "no-capture"  # empty own pit after crossing, facing an empty pit: turn ends
    CAPTURE = "capture"  # empty own pit after crossing: captured, turn ends


@dataclass(frozen=True)
class Lap:
    """One lap of a turn: where it started, where its last seed fell, and the pits after it.

    ``pits`` is the board after the lap's seeds and captures; on a relay the end pit still holds
    its seeds (they are lifted by the next lap). ``captured`` lists (opponent pit, seeds).
    """

    start: int
    direction: Direction
    seeds: int
    end: int
    crossed: bool
    result: LapEnd
    pits: tuple[int, ...]
    captured: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class TurnTrace:
    """The state after a turn and every lap that led there, in order."""

    state: State
    laps: tuple[Lap, ...]


# Outcome codes of _sow (ints: the hot loop of move generation compares them).
_AGAIN, _STOP, _NO_CAPTURE, _CAPTURE, _LOOP = range(5)
_LAP_END = {
    _AGAIN: LapEnd.SOW_AGAIN,
    _STOP: LapEnd.STOP,
    _NO_CAPTURE: LapEnd.NO_CAPTURE,
    _CAPTURE: LapEnd.CAPTURE,
}


def _build_steps(n: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """steps[start][d][k]: the k pits a lap from ``start`` sows in direction d (d = 1 or -1)."""
    size = 2 * n
    table = []
    for start in range(size):
        ccw = tuple(tuple((start + j) % size for j in range(1, k + 1)) for k in range(size))
        cw = tuple(tuple((start - j) % size for j in range(1, k + 1)) for k in range(size))
        # Indexed by d itself: [1] is CCW and [-1], the last item, is CW.
        table.append(((), ccw, cw))
    return tuple(table)


# Sowing paths per board size, so a lap is a plain loop over precomputed pit indices.
_STEPS = {n: _build_steps(n) for n in range(MIN_PITS_PER_ROW, MAX_PITS_PER_ROW + 1)}


def _sow(
    pits: list[int],
    pit: int,
    d: int,
    player: int,
    n: int,
    laps: list[Lap] | None = None,
) -> tuple[int, int, int]:
    """Sow from ``pit`` and relay until the sowing stops, changing ``pits`` in place.

    Returns (outcome code, seeds captured, most seeds any pit held at a lap's end). The caller
    has checked that ``pit`` is the player's and holds 2 or more seeds.
    """
    size = 2 * n
    lo = player * n
    hi = lo + n
    steps = _STEPS[n]
    crossed = False  # sow-again happens only before crossing, so every sowing starts uncrossed
    # A pit only loses seeds when a lap lifts it (it is then the last lap's end pit, a relay)
    # or at a capture after the last lap; otherwise it only grows. So the most any pit held at
    # a lap's end is the largest relay pit or the largest pit after the last lap, and the peak
    # costs one comparison per relay and one max() per sowing, not one max() per lap.
    peak = 0
    relays = 0
    seen: set | None = None
    while True:
        seeds = pits[pit]
        pits[pit] = 0
        start = pit
        if seeds < size:
            path = steps[pit][d][seeds]
            for j in path:
                pits[j] += 1
            i = path[-1]
            if not crossed:
                # Uncrossed means every seed so far fell on the own row, so the lap starts there.
                crossed = pit + seeds >= hi if d == 1 else pit - seeds < lo
        else:
            # A lap of 2n or more seeds fills every pit, the emptied start pit included.
            rounds, rest = divmod(seeds, size)
            for j in range(size):
                pits[j] += rounds
            crossed = True
            if rest:
                path = steps[pit][d][rest]
                for j in path:
                    pits[j] += 1
                i = path[-1]
            else:
                i = pit
        held = pits[i]
        if held > 1:
            if held > peak:
                peak = held
            if laps is not None:
                laps.append(
                    Lap(start, Direction(d), seeds, i, crossed, LapEnd.RELAY, tuple(pits))
                )
            relays += 1
            if relays > LOOP_CHECK_AFTER_LAPS:
                key = (tuple(pits), i, d, crossed)
                if seen is None:
                    seen = set()
                elif key in seen:
                    return _LOOP, 0, max(peak, max(pits))
                seen.add(key)
            pit = i
            d = -d
            continue
        top = max(pits)
        if top > peak:
            peak = top
        captured = 0
        if not lo <= i < hi:
            outcome = _STOP
        elif not crossed:
            outcome = _AGAIN
        else:
            facing = size - 1 - i
            taken = []
            if pits[facing]:
                captured = pits[facing]
                taken.append((facing, captured))
                pits[facing] = 0
                # The chain runs on in the last lap's direction while the next own pit is empty
                # and faces seeds; leaving the row (including the wrap) ends it.
                j = i + d
                while lo <= j < hi and not pits[j] and pits[size - 1 - j]:
                    facing = size - 1 - j
                    captured += pits[facing]
                    taken.append((facing, pits[facing]))
                    pits[facing] = 0
                    j += d
            outcome = _CAPTURE if captured else _NO_CAPTURE
            if laps is not None:
                laps.append(
                    Lap(start, Direction(d), seeds, i, crossed, _LAP_END[outcome], tuple(pits),
                        tuple(taken))
                )
            return outcome, captured, peak
        if laps is not None:
            laps.append(
                Lap(start, Direction(d), seeds, i, crossed, _LAP_END[outcome], tuple(pits))
            )
        return outcome, captured, peak


_SOW = _sow  # the real reference kernel (see _packable)


class _Choice(NamedTuple):
    """A legal sowing at a choice point, simulated: what it does to the board."""

    sowing: Sowing
    again: bool  # the sowing ends in a sow-again (the player chooses once more)
    pits: tuple[int, ...]
    captured: int
    peak: int  # most seeds any pit held during the sowing; NO_PEAK where not measured
    move: Move  # the shared one-sowing Move of ``sowing`` (what legal_moves returns)


NO_PEAK = -1  # _Choice.peak of the choices legal_moves makes: only the capacity analysis reads it


def _new_choice(fields: tuple, _new=tuple.__new__) -> _Choice:
    """A _Choice from its fields in order, without NamedTuple's keyword handling."""
    return _new(_Choice, fields)


# ---------------------------------------------------------------------------------------------
# The move-generation kernel: packed boards and precomputed laps
#
# legal_moves sows every candidate of every choice point, so this is where the engine spends its
# time. A board is packed into one int, a byte per pit (pit i is byte i, little-endian:
# ``int.from_bytes(bytes(pits), "little")`` and back ``tuple(b.to_bytes(2n, "little"))``), and a
# whole lap is one addition: the lap's delta adds a seed to every pit it passes (whole laps round
# the board add to every pit at once) and takes the lifted seeds out of the start pit. So a lap
# costs the same for 3 seeds or 30, and a candidate needs no copy of the board.
#
# A byte holds up to 255 seeds, and no pit can hold more than all seeds on the board, so a board is
# packed only while its total is at most 2n x MAX_SEEDS_PER_PIT (every game begun by
# initial_state; 180 at most). Other boards, and every sowing if _sow has been replaced, go through
# _sow, the reference kernel (apply_traced, play_game and the tests use it too).
#
# The lap tables hold everything a lap's outcome depends on besides the board: for each player,
# whether the turn has crossed yet, direction, start pit and seeds lifted, an entry
# (delta, shift of the end pit, table row of the relay from the end pit, what an empty end pit
# means). The relay row already has the flipped direction and the crossed flag after the lap, so
# the inner loop is an index, an addition and a byte read per lap. A sowing's first lap starts
# from the caller's tuple of pits, so its end pit is read there (see _first_laps).

_PIT_BITS = 8


class _Kernel:
    """The lap tables of one board size (see above), built on first use by _kernel."""

    __slots__ = ("cap", "south", "north", "starts")

    def __init__(self, cap: int, south: int, north: int, starts: tuple) -> None:
        self.cap = cap  # most seeds on a board the tables serve: 2n x MAX_SEEDS_PER_PIT
        self.south = south  # the bits of South's pits in a packed board
        self.north = north  # the shift of North's first pit (the bits above it are North's)
        # starts[player]: (start pit, ((first-lap row, one-sowing Move, d) for d in CCW, CW))
        # per own pit, ascending: the order of legal_moves.
        self.starts = starts


# What an entry says of an empty end pit (the lap's last seed is then its only seed): the turn
# ends there (_END_STOP), the player sows again (_END_AGAIN), or a capture is tried, written as
# (shift of the facing pit, ((shift of the next own pit, shift of the pit facing it), ...)), the
# chain's next own pits in the lap's direction up to the end of the row.
_END_STOP = None
_END_AGAIN = True

_KERNELS: dict[int, _Kernel] = {}  # by the number of pits (2n)


def _kernel(size: int) -> _Kernel:
    """The lap tables of boards of ``size`` pits, built once (8 ms for 2x6, 60 ms for 2x10)."""
    kernel = _KERNELS.get(size)
    if kernel is None:
        kernel = _KERNELS[size] = _build_kernel(size // 2)
    return kernel


def _build_kernel(n: int) -> _Kernel:
    """Lap tables for both players: row[seeds] = (delta, end shift, relay row, empty end)."""
    size = 2 * n
    cap = size * MAX_SEEDS_PER_PIT
    assert cap < 1 << _PIT_BITS
    seed = [1 << (_PIT_BITS * pit) for pit in range(size)]  # one seed in pit i, packed
    starts = []
    for player in (SOUTH, NORTH):
        lo, hi = player * n, player * n + n
        # rows[crossed, d, pit]: a lap from ``pit`` in direction d. Uncrossed laps start on the
        # own row (every seed so far fell there), so only those rows exist.
        rows = {
            (crossed, d, pit): []
            for crossed in (False, True)
            for d in (1, -1)
            for pit in range(size)
            if crossed or lo <= pit < hi
        }
        for (crossed, d, pit), row in rows.items():
            row.append(None)  # no lap lifts 0 seeds
            delta = 0
            end = pit
            for _ in range(cap):
                end = (end + d) % size
                delta += seed[end] - seed[pit]  # one more seed lifted from pit, sown into end
                crossed = crossed or not lo <= end < hi
                if not lo <= end < hi:
                    empty = _END_STOP
                elif not crossed:
                    empty = _END_AGAIN
                else:
                    chain = []
                    j = end + d
                    while lo <= j < hi:  # leaving the row (the wrap included) ends a chain
                        chain.append((_PIT_BITS * j, _PIT_BITS * (size - 1 - j)))
                        j += d
                    empty = (_PIT_BITS * (size - 1 - end), tuple(chain))
                row.append((delta, _PIT_BITS * end, rows[crossed, -d, end], empty))
        starts.append(tuple(
            (pit, tuple((_first_laps(rows[False, d, pit], pit, size), _MOVES[pit][d], d) for d in (1, -1)))
            for pit in range(lo, hi)
        ))
    return _Kernel(cap, seed[n] - 1, _PIT_BITS * n, tuple(starts))


def _first_laps(row: list, start: int, size: int) -> list:
    """A sowing's first lap from ``start``: first[seeds] = (delta, end pit, more, relay row, empty
    end), as the lap row's entry, but the end pit then holds its seeds before the lap plus
    ``more``: the kernel reads it on the unpacked board, without a byte read."""
    first: list = [None]
    for seeds, (delta, shift, relay, empty) in enumerate(row[1:], 1):
        end = shift // _PIT_BITS
        rounds = seeds // size
        # Every pit gets ``rounds`` seeds and the pits up to the end one more; a lap that ends in
        # its start pit (whole rounds) finds it emptied, holding only ``rounds``.
        more = rounds - seeds if end == start else rounds + 1
        first.append((delta, end, more, relay, empty))
    return first


def _pack(pits: Sequence[int]) -> int:
    """A board as one int, a byte per pit (the caller has checked every pit is below 256)."""
    return int.from_bytes(bytes(pits), "little")


def _unpack(board: int, size: int) -> tuple[int, ...]:
    """The pits of a packed board of ``size`` pits."""
    return tuple(board.to_bytes(size, "little"))


# Relay laps the kernel runs inline per sowing after the first; a longer chain (rare: random 2x6
# games stay under 30 laps) is sown again by _sow, which also watches for a loop.
_INLINE_LAPS = range(LOOP_CHECK_AFTER_LAPS - 1)

# The one-sowing moves of _SOWINGS, same indexing: _MOVES[pit][d].
_MOVES: tuple[dict[int, Move], ...] = tuple(
    {d: _ONE_SOWING_MOVES[s] for d, s in by_direction.items()} for by_direction in _SOWINGS
)

# What the kernel returns per legal sowing: (one-sowing Move, ends in a sow-again, packed board
# after, seeds captured). Plain tuples: most are never chosen, so nothing more is built.
_Sown = tuple


def _packed_sowings(
    pits: tuple[int, ...], board: int, player: int, seen: Collection[int]
) -> list[_Sown]:
    """The legal sowings of ``player`` from ``pits`` (packed: ``board``), each sown once.

    ``seen`` holds the packed boards of this turn's choice points: a sow-again that brings one
    back repeats the within-turn state and is not legal (rule 5b), nor is a relay chain that
    loops. Pits ascending, CCW before CW. The caller has checked the board with _packable.
    tests/test_giuthi_playouts.py (whole games) and tests/test_giuthi_kernel.py (random boards)
    check it against a naive seed-by-seed sowing.
    """
    out: list[_Sown] = []
    keep = out.append
    inline_laps = _INLINE_LAPS
    for start, directions in _KERNELS[len(pits)].starts[player]:
        lifted = pits[start]
        if lifted < 2:  # MIN_SEEDS_TO_SOW (a constant here: a global lookup per pit)
            continue
        for first, move, d in directions:
            delta, end, more, row, empty = first[lifted]  # row: the relay's, from the end pit
            b = board + delta
            seeds = pits[end] + more  # the end pit after the first lap, its last seed included
            if seeds > 1:  # it was occupied: lift it and sow on the other way, lap after lap
                for _ in inline_laps:
                    delta, shift, row, empty = row[seeds]
                    b += delta
                    seeds = b >> shift & 255  # the end pit, read on the packed board
                    if seeds < 2:  # it was empty: the sowing ends there
                        break
                else:  # a long relay chain: _sow sows it again from the start, watching for loops
                    work = list(pits)
                    code, captured, _ = _sow(work, start, d, player, len(pits) >> 1)
                    if code == _LOOP:
                        continue  # never ends: not a legal sowing
                    b = _pack(work)
                    if code == _AGAIN and b in seen:
                        continue
                    keep((move, code == _AGAIN, b, captured))
                    continue
            if empty is _END_STOP:
                keep((move, False, b, 0))
            elif empty is _END_AGAIN:
                if b not in seen:  # rule 5b
                    keep((move, True, b, 0))
            else:  # crossed, on the own row: capture the facing pit, then the chain
                facing, chain = empty
                taken = b >> facing & 255
                if taken:
                    b -= taken << facing
                    for own, facing in chain:
                        if b >> own & 255:
                            break
                        more = b >> facing & 255
                        if not more:
                            break
                        taken += more
                        b -= more << facing
                keep((move, False, b, taken))
    return out


def _packable(pits: tuple[int, ...]) -> bool:
    """True if the kernel serves this board (see above) and _sow is the real one."""
    return sum(pits) <= _kernel(len(pits)).cap and _sow is _SOW


def _choices(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> list[_Choice]:
    """The legal sowings of ``player`` from ``pits``, pits ascending, CCW before CW.

    ``seen`` holds the boards of this turn's earlier choice points: a sow-again that brings one
    back repeats the within-turn state and is excluded like a relay loop. Peaks are not measured
    (see _measured_choices).
    """
    size = len(pits)
    try:
        packed_seen = {_pack(b) for b in seen if len(b) == size}
    except (TypeError, ValueError):  # a board no game reaches (see _prepare)
        packed_seen = None
    if packed_seen is None or not _packable(pits):
        return _measured_choices(pits, player, seen)
    return [
        _new_choice((move.sowings[0], again, _unpack(board, size), captured, NO_PEAK, move))
        for move, again, board, captured in _packed_sowings(pits, _pack(pits), player, packed_seen)
    ]


def _measured_choices(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> list[_Choice]:
    """_choices through _sow, one call per candidate: slower, and every peak is measured."""
    n = len(pits) // 2
    out = []
    for pit in range(player * n, (player + 1) * n):
        if pits[pit] < MIN_SEEDS_TO_SOW:
            continue
        for d in (1, -1):
            work = list(pits)
            code, captured, peak = _sow(work, pit, d, player, n)
            if code == _LOOP:
                continue
            after = tuple(work)
            if code == _AGAIN and after in seen:
                continue
            out.append(_new_choice((_SOWINGS[pit][d], code == _AGAIN, after, captured, peak,
                                    _MOVES[pit][d])))
    return out


def _has_sowing(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> bool:
    """True if ``player`` has a legal sowing from ``pits`` (see _choices)."""
    n = len(pits) // 2
    for pit in range(player * n, (player + 1) * n):
        if pits[pit] < MIN_SEEDS_TO_SOW:
            continue
        for d in (1, -1):
            work = list(pits)
            code, _, _ = _sow(work, pit, d, player, n)
            if code == _LOOP or (code == _AGAIN and tuple(work) in seen):
                continue
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Game


class EndReason(enum.Enum):
    """Why a game is over."""

    SIDE_EMPTY = "a player's pits are all empty"
    NO_MOVES = "neither player can move"
    REPETITION = "the position repeats"


def _side_empty(pits: tuple[int, ...]) -> bool:
    n = len(pits) // 2
    return not any(pits[:n]) or not any(pits[n:])


def end_reason(state: State) -> EndReason | None:
    """The end condition holding at the start of this turn, or None (always None mid-turn)."""
    if state.turn_boards:
        return None
    if _side_empty(state.pits):
        return EndReason.SIDE_EMPTY
    if state.position in state.history:
        return EndReason.REPETITION
    pits, player = state.pits, state.player
    if not _has_sowing(pits, player, {pits}) and not _has_sowing(pits, 1 - player, {pits}):
        return EndReason.NO_MOVES
    return None


def is_terminal(state: State) -> bool:
    """True when the game is over."""
    return end_reason(state) is not None


def can_move(state: State, player: int | None = None) -> bool:
    """True if ``player`` (default: the player to move) has a legal sowing at a turn start."""
    who = state.player if player is None else player
    return _has_sowing(state.pits, who, {state.pits})


def _seen(state: State) -> frozenset[tuple[int, ...]]:
    return state.turn_boards or frozenset((state.pits,))


# The engine's private fields. What the engine keeps in a State's ``__dict__`` besides the
# dataclass fields (no effect on equality, hashing or ``replace``), so that every candidate is
# sown once per choice point and a turn costs no Position or frozenset:
#   _board  the packed pits; present only if the kernel serves the board (see _kernel above).
#   _hist   packed history: ``board << 1 | player`` of each turn start since the last capture.
#           Stores only change at a capture, which clears the history, so every such position
#           has the state's stores.
#   _hist_base  a history given by the caller (State(..., history=...)) that a state made from
#           it still includes, as is, until a capture.
#   _seen   mid-turn: the packed boards of this turn's choice points (turn_boards, packed).
#   _moves  what legal_moves returns (apply sets it for the mid-turn states it makes).
#   _sown   the kernel's legal sowings behind _moves (set only where the game is known not
#           over), which apply matches the Move objects against and reuses.
#   _pass   at a turn start offering only PASS: the opponent's sowings, for the state after it;
#   _next   after that PASS: those sowings, used once the end checks have passed.
# A state made by apply has no history and turn_boards in its __dict__ until they are read:
# State.__getattr__ builds them with _unpack_field (equal sets; a repr may list them in another
# order than a set built position by position would).

_LAZY_FIELDS = ("history", "turn_boards")
_NO_KEYS: frozenset[int] = frozenset()


def _unpack_field(fields: dict, name: str) -> frozenset:
    """history or turn_boards of a state apply made, from its packed fields."""
    size = len(fields["pits"])
    if name == "turn_boards":
        return frozenset(_unpack(b, size) for b in fields.get("_seen") or ())
    stores = fields["stores"]
    history = frozenset(
        _tuple_new(Position, (_unpack(key >> 1, size), stores, key & 1)) for key in fields["_hist"]
    )
    base = fields.get("_hist_base")
    return base | history if base else history


def _prepare(fields: dict) -> int | None:
    """Pack a state the engine did not make (store _board, _hist, _hist_base, _seen).

    None if the kernel does not serve it: its total is too large, or a board of its turn or
    history could equal one of the game's yet cannot be packed (the reference path decides then).
    """
    pits = fields["pits"]
    if not _packable(pits):
        return None
    size = len(pits)
    try:
        seen = {_pack(b) for b in fields["turn_boards"]}
        if any(len(b) != size for b in fields["turn_boards"]):
            return None
        keys = set()
        history = fields["history"]
        for position in history:
            if isinstance(position, tuple) and len(position) == 3:
                old, stores, player = position
                # Only a position with these stores can come back (see _hist).
                if (stores == fields["stores"] and player in (SOUTH, NORTH)
                        and isinstance(old, tuple) and len(old) == size):
                    keys.add(_pack(old) << 1 | player)
    except (TypeError, ValueError):
        return None
    if seen:
        fields["_seen"] = seen
    if history:
        fields["_hist_base"] = history
    fields["_hist"] = frozenset(keys)
    board = fields["_board"] = _pack(pits)
    return board


def legal_moves(state: State) -> tuple[Move, ...]:
    """The legal next sowings as one-sowing moves, or (PASS,) if there is none; () at the end."""
    fields = state.__dict__
    moves = fields.get("_moves")
    if moves is not None:
        return moves
    board = fields.get("_board")
    if board is None:
        board = _prepare(fields)
    if board is None or _sow is not _SOW:  # (a test replaces _sow to simulate a relay loop)
        moves = fields["_moves"] = _reference_moves(state)
        return moves
    pits = fields["pits"]
    player = fields["player"]
    seen = fields.get("_seen")
    if seen:  # mid-turn
        sown = _packed_sowings(pits, board, player, seen)
    else:  # a turn start: the end checks of the rules
        kernel = _KERNELS[len(pits)]
        if (
            not board & kernel.south
            or not board >> kernel.north
            or board << 1 | player in fields["_hist"]
        ):
            fields["_moves"] = ()
            return ()
        sown = fields.get("_next")  # sown already when the opponent passed
        if sown is None:
            sown = _packed_sowings(pits, board, player, (board,))
    fields["_sown"] = sown
    if sown:
        moves = fields["_moves"] = tuple(map(_first, sown))
        return moves
    moves = _PASS_ONLY
    if not seen:
        other = _packed_sowings(pits, board, 1 - player, (board,))
        if other:
            fields["_pass"] = other  # the sowings after the PASS, for apply
        else:
            moves = ()  # neither player can move
    fields["_moves"] = moves
    return moves


def _reference_moves(state: State) -> tuple[Move, ...]:
    """legal_moves through _sow, one call per candidate: for boards the kernel does not serve."""
    if end_reason(state) is not None:
        return ()
    choices = _measured_choices(state.pits, state.player, _seen(state))
    if choices:
        return tuple(c.move for c in choices)
    return _PASS_ONLY


def iter_turns(state: State) -> Iterator[Move]:
    """Every legal way to finish the turn (whole turns at a turn start), depth first.

    The count grows fast with sow-again chains (over a thousand in some 2x6 positions, and
    chains of 1000+ sowings on 2x8), so this is a lazy generator; games are played with
    legal_moves, one choice at a time.
    """
    if is_terminal(state):
        return
    player = state.player
    seen = set(_seen(state))
    if not _has_sowing(state.pits, player, seen):
        yield PASS
        return
    # Explicit stack of (prefix, pending choices): sow-again chains are too deep to recurse.
    stack = [((), iter(_choices(state.pits, player, seen)))]
    path: list[tuple[int, ...]] = []  # boards added to ``seen`` by the prefixes on the stack
    while stack:
        prefix, pending = stack[-1]
        choice = next(pending, None)
        if choice is None:
            stack.pop()
            if path:
                seen.discard(path.pop())
            continue
        sowings = prefix + (choice.sowing,)
        if choice.again:
            seen.add(choice.pits)
            if _has_sowing(choice.pits, player, seen):
                path.append(choice.pits)
                stack.append((sowings, iter(_choices(choice.pits, player, seen))))
                continue
            seen.discard(choice.pits)
        yield Move(sowings)


def apply_traced(state: State, move: Move) -> TurnTrace:
    """Play the sowings of ``move`` and return the new state with every lap.

    ``move`` may be a whole turn or its beginning: if its last sowing ends in a sow-again with a
    sowing left, the returned state is mid-turn (same player, ``turn_boards`` set). Raises
    IllegalMove, quoting the move, if any sowing is not legal where it is played.
    """
    return _play(state, move, [])


def _play(state: State, move: Move, laps: list[Lap] | None) -> TurnTrace:
    """apply_traced's work; laps are recorded only when ``laps`` is a list."""
    if not isinstance(move, Move):
        raise IllegalMove(f"{move!r}: not a Move (use Move.parse('3ccw'))")
    reason = end_reason(state)
    if reason is not None:
        raise IllegalMove(f"{move}: the game is over ({reason.value})")
    player = state.player
    name = PLAYER_NAMES[player]
    n = state.pits_per_row
    seen = set(_seen(state))
    # The repetition rule compares positions at turn starts, so the start is recorded now.
    history = state.history if state.turn_boards else state.history | {state.position}
    if move.is_pass:
        if _has_sowing(state.pits, player, seen):
            raise IllegalMove(f"{move}: {name} has a sowing and may not pass")
        return TurnTrace(State(state.pits, state.stores, 1 - player, history), ())
    pits = list(state.pits)
    last = len(move.sowings) - 1
    for k, sowing in enumerate(move.sowings):
        pit = sowing.pit
        if not 0 <= pit < 2 * n or owner(pit, n) != player:
            raise IllegalMove(f"{move}: pit {pit} is not one of {name}'s pits")
        if pits[pit] < MIN_SEEDS_TO_SOW:
            raise IllegalMove(
                f"{move}: pit {pit} holds {pits[pit]} seed(s); a sowing needs {MIN_SEEDS_TO_SOW}"
            )
        code, captured, _ = _sow(pits, pit, int(sowing.direction), player, n, laps)
        if code == _LOOP:
            raise IllegalMove(f"{move}: sowing {sowing} never ends (its laps repeat)")
        board = tuple(pits)
        if code != _AGAIN:
            if k != last:
                raise IllegalMove(f"{move}: the turn ends after {sowing}; no sow-again follows")
            stores = list(state.stores)
            stores[player] += captured
            if captured:
                history = frozenset()  # stores only grow: no earlier position can recur
            after = State(board, (stores[0], stores[1]), 1 - player, history)
            return TurnTrace(after, tuple(laps or ()))
        if board in seen:
            raise IllegalMove(f"{move}: sowing {sowing} brings back a board seen this turn")
        seen.add(board)
        if not _has_sowing(board, player, seen):
            if laps:
                laps[-1] = replace(laps[-1], result=LapEnd.NO_SOWING_LEFT)
            if k != last:
                raise IllegalMove(f"{move}: no sowing is left after {sowing}; the turn ends")
            return TurnTrace(State(board, state.stores, 1 - player, history), tuple(laps or ()))
    mid_turn = State(tuple(pits), state.stores, player, history, frozenset(seen))
    return TurnTrace(mid_turn, tuple(laps or ()))


def apply(state: State, move: Move) -> State:
    """Play ``move`` and return the new state; raise IllegalMove if it is not legal."""
    fields = state.__dict__
    sown = fields.get("_sown")  # set by legal_moves, where the game is not over
    if sown is not None:
        for choice in sown:  # legal_moves returned these very Move objects
            if choice[0] is move:
                break
        else:
            if move is PASS and "_pass" in fields:  # legal_moves offered only PASS
                return _after_pass(fields)
            return _play(state, move, None).state
        _, again, board, captured = choice
        pits = fields["pits"]
        player = fields["player"]
        stores = fields["stores"]
        after = _object_new(State)
        new = after.__dict__
        new["pits"] = after_pits = tuple(board.to_bytes(len(pits), "little"))  # _unpack
        new["_board"] = board
        if captured:  # the turn ends with a capture
            new["stores"] = (
                (stores[0] + captured, stores[1]) if player == SOUTH else (stores[0], stores[1] + captured)
            )
            new["player"] = 1 - player
            # Stores only grow, so no earlier position can recur: the history starts afresh.
            new["_hist"] = _NO_KEYS
            return after
        new["stores"] = stores
        seen = fields.get("_seen")
        # The repetition rule compares positions at turn starts, so a turn's start is recorded.
        new["_hist"] = fields["_hist"] if seen else fields["_hist"] | {fields["_board"] << 1 | player}
        if "_hist_base" in fields:
            new["_hist_base"] = fields["_hist_base"]
        if again:
            seen = seen | {board} if seen else {fields["_board"], board}
            # The continuations are needed now (does a sowing remain?) and by legal_moves.
            follow = _packed_sowings(after_pits, board, player, seen)
            if follow:  # mid-turn: the same player chooses again
                new["player"] = player
                new["_seen"] = seen
                new["_sown"] = follow
                new["_moves"] = tuple(map(_first, follow))
                return after
        new["player"] = 1 - player
        return after
    return _play(state, move, None).state


def _after_pass(fields: dict) -> State:
    """The state after a PASS that legal_moves offered alone at a turn start."""
    after = _object_new(State)
    new = after.__dict__
    new["pits"] = fields["pits"]
    new["_board"] = board = fields["_board"]
    new["stores"] = fields["stores"]
    new["player"] = 1 - fields["player"]
    new["_hist"] = fields["_hist"] | {board << 1 | fields["player"]}
    if "_hist_base" in fields:
        new["_hist_base"] = fields["_hist_base"]
    new["_next"] = fields["_pass"]
    return after


def is_legal(state: State, move: Move) -> bool:
    """True if ``move`` may be played in ``state``.

    For PASS and one-sowing moves this is exactly membership of legal_moves; a longer move is
    legal when each of its sowings is legal where it is played.
    """
    try:
        _play(state, move, None)
    except IllegalMove:
        return False
    return True


class Outcome(NamedTuple):
    """Final totals (South, North) and the winner (SOUTH, NORTH or None for a draw)."""

    totals: tuple[int, int]
    winner: int | None


def totals(state: State) -> tuple[int, int]:
    """Each player's store plus the seeds left in their own pits."""
    n = state.pits_per_row
    return (
        state.stores[SOUTH] + sum(state.pits[:n]),
        state.stores[NORTH] + sum(state.pits[n:]),
    )


def outcome(state: State) -> Outcome:
    """Final totals and winner of a finished game; raise ValueError if it is not over."""
    if not is_terminal(state):
        raise ValueError("the game is not over")
    south, north = totals(state)
    winner = SOUTH if south > north else NORTH if north > south else None
    return Outcome((south, north), winner)


# ---------------------------------------------------------------------------------------------
# Text rendering


def render_text(state: State) -> str:
    """Draw the board as in the rules file: North's row above South's, each store on its right.

    ::

                     11  10   9   8   7   6
        North [  0]   4   4   4   4   4   4
                      4   4   4   4   4   4 [  0] South
                      0   1   2   3   4   5
        South to move

    Mid-turn the last line reads "South to move, sowing again".
    """
    n = state.pits_per_row
    north = range(2 * n - 1, n - 1, -1)
    south = range(n)
    margin = " " * len("North [  0]")
    lines = [
        margin + "".join(f"{p:4d}" for p in north),
        f"North [{state.stores[NORTH]:3d}]" + "".join(f"{state.pits[p]:4d}" for p in north),
        margin
        + "".join(f"{state.pits[p]:4d}" for p in south)
        + f" [{state.stores[SOUTH]:3d}] South",
        margin + "".join(f"{p:4d}" for p in south),
        f"{PLAYER_NAMES[state.player]} to move" + (", sowing again" if state.is_mid_turn else ""),
    ]
    return "\n".join(lines)


_NORTH_ROW_RE = re.compile(r"\s*North\s*\[\s*(\d+)\s*\]((?:\s+\d+)+)\s*")
_SOUTH_ROW_RE = re.compile(r"((?:\s+\d+)+)\s*\[\s*(\d+)\s*\]\s*South\s*")
_TO_MOVE_RE = re.compile(r"\s*(South|North) to move(, sowing again)?\s*")


def parse_text(text: str) -> State:
    """Read a board drawn as by render_text (pit-number lines optional) into a State.

    A drawing says nothing of history; a mid-turn one ("sowing again") becomes a mid-turn state
    whose only board seen this turn is the drawn one.
    """
    north_row = south_row = to_move = None
    for line in text.splitlines():
        if m := _NORTH_ROW_RE.fullmatch(line):
            north_row = m
        elif m := _SOUTH_ROW_RE.fullmatch(" " + line):
            south_row = m
        elif m := _TO_MOVE_RE.fullmatch(line):
            to_move = m
    if not (north_row and south_row and to_move):
        raise ValueError(
            "a board needs a 'North [store] pits...' line, a 'pits... [store] South' line "
            "and a 'South to move' or 'North to move' line"
        )
    north = [int(v) for v in north_row.group(2).split()]
    south = [int(v) for v in south_row.group(1).split()]
    if len(north) != len(south):
        raise ValueError(f"North's row has {len(north)} pits but South's has {len(south)}")
    # North's row is drawn from pit 2n-1 on the left down to pit n on the right.
    pits = tuple(south) + tuple(reversed(north))
    stores = (int(south_row.group(2)), int(north_row.group(1)))
    player = PLAYER_NAMES.index(to_move.group(1))
    return State(pits, stores, player, turn_boards={pits} if to_move.group(2) else frozenset())


# ---------------------------------------------------------------------------------------------
# Capacity analysis for the printed board

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
) -> _Choice | None:
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
        code, captured, peak = _sow(work, pit, d, player, n)
        after = tuple(work)
        if code == _LOOP or (code == _AGAIN and after in seen):
            del candidates[k]
            continue
        return _Choice(_SOWINGS[pit][d], code == _AGAIN, after, captured, peak, _MOVES[pit][d])
    return None


def _greedy_choice(
    pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]], rng: random.Random
) -> _Choice | None:
    """A legal sowing capturing the most seeds right away (ties drawn uniformly), or None."""
    choices = _measured_choices(pits, player, seen)
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
    while not _side_empty(pits):
        position = (pits, stores[0], stores[1], player)
        if position in history:
            break
        seen = {pits}
        choice = choose(pits, player, seen, rng)
        if choice is None and not _has_sowing(pits, 1 - player, seen):
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


def sample_game(
    pits_per_row: int = DEFAULT_PITS_PER_ROW,
    seeds_per_pit: int = DEFAULT_SEEDS_PER_PIT,
    seed: int = 0,
    max_turns: int = 400,
) -> list[tuple[Move, TurnTrace]]:
    """A seeded game, one sowing at a time chosen uniformly: each move with its traced result.

    Used to show a game as text (``printables giuthi --show``); stops at the end of the game or
    after ``max_turns`` sowings.
    """
    validate_parameters(pits_per_row, seeds_per_pit)
    rng = random.Random(seed)
    state = initial_state(pits_per_row, seeds_per_pit)
    played: list[tuple[Move, TurnTrace]] = []
    while not is_terminal(state) and len(played) < max_turns:
        moves = legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        trace = apply_traced(state, move)
        played.append((move, trace))
        state = trace.state
    return played


# The words of the rules sheet (its layout sets them with the diagrams; its check reads them back word
# for word).
def rules_sheet_sections(pits_per_row: int, seeds_per_pit: int) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(heading, paragraphs, diagram keys) for each part of the sheet, in order."""
    n = pits_per_row
    last = 2 * n - 1
    return (
        ("The board and the set-up", (
            f"Two players, South and North, sit facing each other. Each owns the row of {n} pits in front of"
            " them and the store on their right; stores hold captured seeds only and are never sown into."
            f" Put {seeds_per_pit} seeds in every pit ({2 * n * seeds_per_pit} seeds). To choose who starts,"
            " one player hides a seed in one hand; if the other guesses the hand, they start.",
            "How to read the diagrams: South sits at the bottom, North at the top; North's store is on the"
            " left, South's on the right. The big numbers are seeds, the small grey ones are pit numbers:"
            f" 0 to {n - 1} along South's row from the left, then {n} to {last} back along North's row. A shaded"
            " pit is the one lifted; the arrow runs round the board the way the seeds are sown, with one dot"
            " for each seed dropped, and its head points into the ringed pit where the last seed falls."
            " Anticlockwise sows along South's row to the right, clockwise to the left. A pink pit has been"
            " captured.",
        ), ("set-up",)),
        ("A turn", (
            f"Take all the seeds of one of your pits holding at least {MIN_SEEDS_TO_SOW} and sow them one"
            " by one into the next pits in the direction you choose, clockwise or anticlockwise: your pits"
            " and your opponent's alike, never skipping a pit, not even the one you emptied. Your turn has"
            " 'crossed' as soon as one of its seeds falls into an opponent's pit. Where the last seed lands"
            " decides what happens next: if it lands in an empty pit on your opponent's side, your turn ends.",
        ), ("a turn",)),
        ("Relay", (
            "If the last seed lands in a pit that already held seeds (on either side, crossed or not), lift"
            " all the seeds of that pit and sow on in the opposite direction. The direction flips at every"
            " lift; the sowing goes on, lap after lap, until a last seed falls into an empty pit.",
        ), ("relay",)),
        ("Sow again", (
            "If the last seed lands in an empty pit on your own side before your turn has crossed, you must"
            f" sow again: choose any of your pits holding at least {MIN_SEEDS_TO_SOW} seeds and a"
            " direction, as at the start of the turn (the turn still has not crossed). If you have no such"
            " pit, the turn ends.",
            "Rule 5b, in plain words: when you must sow again, a sowing that would put the board back the way"
            " it was at the start of this turn (or at an earlier sow again) and leave you to sow again is not"
            " offered, because it would change nothing and could go round forever. If that leaves you nothing"
            " to choose, your turn ends. A sowing whose laps would repeat forever is not offered either.",
        ), ("sow-again", "rule 5b")),
        ("Capture chain", (
            "If the last seed lands in an empty pit on your own side after your turn has crossed, capture"
            " the seeds of the opposite pit into your store. If it captured, carry on in the direction of"
            " that last lap: each next pit of yours that is empty and faces a pit holding seeds captures"
            " that pit too; stop at the first that fails or at the end of your row. The capturing seed"
            " stays where it fell, and the turn ends. If the opposite pit is empty, nothing is captured and"
            " the turn ends.",
        ), ("capture chain",)),
        ("Passing, the end and the score", (
            f"If none of your pits holds {MIN_SEEDS_TO_SOW} or more seeds, or every choice would sow"
            " forever, you pass. Before every turn: the game ends when one player's pits are all empty, when"
            " neither player can move, or when the whole position (pits, stores and player to move) repeats"
            " one seen before. Each player adds the seeds left in their own pits to their store; the larger"
            " total wins, equal totals draw.",
        ), ("the end",)),
    )


def quick_reference(pits_per_row: int, seeds_per_pit: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(heading, paragraphs) of each part of the one-page quick reference, in order."""
    n = pits_per_row
    return (
        ("Set-up", (f"Put {seeds_per_pit} seeds in each of the {2 * n} pits; the stores start empty. Whoever"
                    " guesses the hand that hides a seed starts.",)),
        ("A turn", (f"Lift all the seeds of one of your pits holding {MIN_SEEDS_TO_SOW} or more and sow them one"
                    " per pit, clockwise or anticlockwise, round both rows, never skipping a pit.",)),
        ("The last seed of a lap falls", (
            "1. In a pit that held seeds: lift them all and sow on the other way.",
            "2. In an empty pit of yours, before any seed of this turn reached the other side: sow again from"
            " any of your pits.",
            "3. In an empty pit on the other side: your turn ends.",
        )),
        ("Capture", ("In an empty pit of yours, once a seed of this turn has reached the other side: take the"
                     " seeds of the pit opposite into your store. Go on the same way: each next pit of yours that"
                     " is empty and faces seeds takes them too; stop at the first that does not, or at the end of"
                     " your row. Your turn ends.",)),
        ("The end", (f"No pit of yours holds {MIN_SEEDS_TO_SOW} or more: pass. The game ends when one row is"
                     " empty, when nobody can move, or when a position repeats. Add the seeds in your pits to"
                     " your store: more seeds wins.",)),
    )
