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

Modules. This one is the engine (states, moves, legal_moves, apply, the end of a game, text).
How seeds move on a plain board, the reference sowing and the packed-board kernel legal_moves
sows with, is printables/rules/giuthi_kernel.py; the capacity analysis the printed board is sized
with (many seeded games, the largest pit and store loads they reach) is
printables/rules/giuthi_capacity.py. Both import nothing of this module, and this module
re-exports their public names: import them from here.
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from printables.rules.giuthi_capacity import (  # noqa: F401 (re-exported)
    CAPACITY_GAMES,
    CAPACITY_SEED,
    CAPACITY_TABLE,
    POLICIES,
    CapacityStats,
    GameLoads,
    LoadStats,
    capacity_stats,
    compute_capacity,
    game_rng,
    load_stats,
    percentile,
    play_game,
    required_pit_capacity,
    required_store_capacity,
)
from printables.rules.giuthi_kernel import (  # noqa: F401 (re-exported)
    DEFAULT_PITS_PER_ROW,
    DEFAULT_SEEDS_PER_PIT,
    LOOP_CHECK_AFTER_LAPS,
    MAX_PITS_PER_ROW,
    MAX_SEEDS_PER_PIT,
    MIN_PITS_PER_ROW,
    MIN_SEEDS_PER_PIT,
    MIN_SEEDS_TO_SOW,
    NORTH,
    RELAY,
    SOUTH,
    Kernel,
    LapRecord,
    build_kernel,
    has_sowing,
    legal_sowings,
    packed_sowings,
    validate_parameters,
)
# The sowing kernels under the engine's own names: the tests and the benchmark reach the
# reference sowing as giuthi._sow, and a test replaces it here to simulate a relay loop.
from printables.rules.giuthi_kernel import AGAIN as _AGAIN
from printables.rules.giuthi_kernel import CAPTURE as _CAPTURE
from printables.rules.giuthi_kernel import LOOP as _LOOP
from printables.rules.giuthi_kernel import NO_CAPTURE as _NO_CAPTURE
from printables.rules.giuthi_kernel import STOP as _STOP
from printables.rules.giuthi_kernel import pack as _pack
from printables.rules.giuthi_kernel import side_empty as _side_empty
from printables.rules.giuthi_kernel import sow as _sow
from printables.rules.giuthi_kernel import unpack as _unpack

PLAYER_NAMES = ("South", "North")



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


# What each lap record's code means in a Lap (_play marks the sow-again after which no sowing is
# left with _NO_SOWING_LEFT).
_NO_SOWING_LEFT = -1
_LAP_END = {
    _NO_SOWING_LEFT: LapEnd.NO_SOWING_LEFT,
    RELAY: LapEnd.RELAY,
    _AGAIN: LapEnd.SOW_AGAIN,
    _STOP: LapEnd.STOP,
    _NO_CAPTURE: LapEnd.NO_CAPTURE,
    _CAPTURE: LapEnd.CAPTURE,
}


def _lap(record: LapRecord) -> Lap:
    """The Lap of one lap the kernel's sow recorded."""
    start, d, seeds, end, crossed, code, pits, captured = record
    return Lap(start, Direction(d), seeds, end, crossed, _LAP_END[code], pits, captured)


_SOW = _sow  # the real reference kernel (see _packable)


class _Choice(NamedTuple):
    """A legal sowing at a choice point, simulated: what it does to the board."""

    sowing: Sowing
    again: bool  # the sowing ends in a sow-again (the player chooses once more)
    pits: tuple[int, ...]
    captured: int
    move: Move  # the shared one-sowing Move of ``sowing`` (what legal_moves returns)


def _new_choice(fields: tuple, _new=tuple.__new__) -> _Choice:
    """A _Choice from its fields in order, without NamedTuple's keyword handling."""
    return _new(_Choice, fields)


# ---------------------------------------------------------------------------------------------
# Choice points: the packed-board kernel (printables/rules/giuthi_kernel.py) where it serves the
# board, the reference sowing _sow elsewhere

_KERNELS: dict[int, Kernel] = {}  # the kernel's lap tables by the number of pits (2n), see _kernel


def _kernel(size: int) -> Kernel:
    """The lap tables of boards of ``size`` pits, built once (giuthi_kernel.build_kernel)."""
    kernel = _KERNELS.get(size)
    if kernel is None:
        kernel = _KERNELS[size] = build_kernel(size // 2, _MOVES)
    return kernel


# The one-sowing moves of _SOWINGS, same indexing: _MOVES[pit][d]. The kernel returns these.
_MOVES: tuple[dict[int, Move], ...] = tuple(
    {d: _ONE_SOWING_MOVES[s] for d, s in by_direction.items()} for by_direction in _SOWINGS
)


def _packable(pits: tuple[int, ...]) -> bool:
    """True if the packed kernel serves this board (its total fits the lap tables) and _sow is the real one."""
    return sum(pits) <= _kernel(len(pits)).cap and _sow is _SOW


def _choices(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> list[_Choice]:
    """The legal sowings of ``player`` from ``pits``, pits ascending, CCW before CW.

    ``seen`` holds the boards of this turn's earlier choice points: a sow-again that brings one
    back repeats the within-turn state and is excluded like a relay loop.
    """
    size = len(pits)
    try:
        packed_seen = {_pack(b) for b in seen if len(b) == size}
    except (TypeError, ValueError):  # a board no game reaches (see _prepare)
        packed_seen = None
    if packed_seen is None or not _packable(pits):
        return _measured_choices(pits, player, seen)
    return [
        _new_choice((move.sowings[0], again, _unpack(board, size), captured, move))
        for move, again, board, captured
        in packed_sowings(_KERNELS[size], pits, _pack(pits), player, packed_seen)
    ]


def _measured_choices(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> list[_Choice]:
    """_choices through _sow, one call per candidate: for boards the packed kernel does not serve."""
    return [
        _new_choice((_SOWINGS[s.pit][s.d], s.again, s.pits, s.captured, _MOVES[s.pit][s.d]))
        for s in legal_sowings(pits, player, seen, _sow)
    ]


def _has_sowing(pits: tuple[int, ...], player: int, seen: Set[tuple[int, ...]]) -> bool:
    """True if ``player`` has a legal sowing from ``pits`` (see _choices)."""
    return has_sowing(pits, player, seen, _sow)


# ---------------------------------------------------------------------------------------------
# Game


class EndReason(enum.Enum):
    """Why a game is over."""

    SIDE_EMPTY = "a player's pits are all empty"
    NO_MOVES = "neither player can move"
    REPETITION = "the position repeats"


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
    kernel = _KERNELS[len(pits)]
    seen = fields.get("_seen")
    if seen:  # mid-turn
        sown = packed_sowings(kernel, pits, board, player, seen)
    else:  # a turn start: the end checks of the rules
        if (
            not board & kernel.south
            or not board >> kernel.north
            or board << 1 | player in fields["_hist"]
        ):
            fields["_moves"] = ()
            return ()
        sown = fields.get("_next")  # sown already when the opponent passed
        if sown is None:
            sown = packed_sowings(kernel, pits, board, player, (board,))
    fields["_sown"] = sown
    if sown:
        moves = fields["_moves"] = tuple(map(_first, sown))
        return moves
    moves = _PASS_ONLY
    if not seen:
        other = packed_sowings(kernel, pits, board, 1 - player, (board,))
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


def _play(state: State, move: Move, laps: list[LapRecord] | None) -> TurnTrace:
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
            return TurnTrace(after, _laps(laps))
        if board in seen:
            raise IllegalMove(f"{move}: sowing {sowing} brings back a board seen this turn")
        seen.add(board)
        if not _has_sowing(board, player, seen):
            if laps:
                laps[-1] = laps[-1]._replace(code=_NO_SOWING_LEFT)
            if k != last:
                raise IllegalMove(f"{move}: no sowing is left after {sowing}; the turn ends")
            return TurnTrace(State(board, state.stores, 1 - player, history), _laps(laps))
    mid_turn = State(tuple(pits), state.stores, player, history, frozenset(seen))
    return TurnTrace(mid_turn, _laps(laps))


def _laps(records: list[LapRecord] | None) -> tuple[Lap, ...]:
    """The Laps of the lap records _sow made (none if they were not recorded)."""
    return tuple(map(_lap, records)) if records else ()


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
            follow = packed_sowings(_KERNELS[len(pits)], after_pits, board, player, seen)
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
