"""Breakfast Shy play: moves, states, ``apply``, player policies, simulation and layout analysis.

The second half of the Breakfast Shy rule core (``printables.rules.peas`` holds the layouts, the
presets' measured difficulty and the rules' words, and hands out every name of this module on first
use); the text forms and rules are described there. Rules: ``shared/rules/breakfast-shy.md``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Union

from printables.rules.labels import spreadsheet_label
from printables.rules.peas import (
    _ALL_MASK,
    _ALL_VALUES,
    _NEXT_TO_MASK,
    _ROLLS,
    DICE_PER_TURN,
    DIE_FACES,
    NO_POD_VALUE,
    SMUSHED,
    UNFILLED,
    IllegalMove,
    Layout,
    ParseError,
    Pos,
    _pea_words,
    is_pod_shape,
    parse_pea,
    pea_name,
)

# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Roll:
    """The chance move: the two dice of a new turn came up ``first`` and ``second``."""

    first: int
    second: int

    def __str__(self) -> str:
        return f"roll {self.first} {self.second}"


@dataclass(frozen=True)
class Place:
    """Write one die's ``value`` into the unfilled ``pea``."""

    pea: Pos
    value: int

    def __str__(self) -> str:
        return f"place {self.value} at {pea_name(self.pea)}"


@dataclass(frozen=True)
class Smush:
    """Spend the die showing ``die`` on crossing out ``pea``."""

    pea: Pos
    die: int

    def __str__(self) -> str:
        return f"smush {pea_name(self.pea)} with {self.die}"


@dataclass(frozen=True)
class CreatePod:
    """Spend the whole roll on circling 3 continuously adjacent ``peas`` as a pod."""

    peas: frozenset[Pos]

    def __post_init__(self) -> None:
        object.__setattr__(self, "peas", frozenset(self.peas))

    def __str__(self) -> str:
        return "pod " + " ".join(pea_name(p) for p in sorted(self.peas))


Move = Union[Roll, Place, Smush, CreatePod]

_MOVE_RES = (
    (re.compile(r"roll ([1-9]\d*) ([1-9]\d*)"), lambda m: Roll(int(m[1]), int(m[2]))),
    (re.compile(r"place (\d+) at (r\d+c\d+)"), lambda m: Place(parse_pea(m[2]), int(m[1]))),
    (re.compile(r"smush (r\d+c\d+) with (\d+)"), lambda m: Smush(parse_pea(m[1]), int(m[2]))),
    (
        re.compile(r"pod((?: r\d+c\d+)+)"),
        lambda m: CreatePod(frozenset(parse_pea(w) for w in m[1].split())),
    ),
)


def parse_move(text: str) -> Move:
    """A move from its text form (inverse of ``str(move)``)."""
    words = " ".join(text.split())
    for pattern, build in _MOVE_RES:
        match = pattern.fullmatch(words)
        if match:
            return build(match)
    raise ParseError(
        f"{text!r} is not a move; write 'roll 3 5', 'place 4 at r2c3', 'smush r2c3 with 5' "
        "or 'pod r0c0 r0c1 r1c1'"
    )


# --------------------------------------------------------------------------- states


_pod_label = spreadsheet_label  # pods are named A, B, ... Z, AA, AB ...


def _pod_label_index(label: str) -> int:
    index = 0
    for ch in label:
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1


@dataclass(frozen=True)
class State:
    """A card in play: cells in layout order, pods with their values, and the dice left."""

    layout: Layout
    cells: tuple[int, ...]  # per pea in layout order: UNFILLED, 1..6 or SMUSHED
    pods: tuple[frozenset[Pos], ...] = ()  # in creation order
    pod_values: tuple[int, ...] = ()  # per pod: 1..6, or NO_POD_VALUE
    dice: tuple[int, ...] = ()  # unused dice of this turn, ascending; () means roll next
    # Which pod (index) each pea is in, -1 for none; follows from ``pods``.
    pod_index: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        layout = self.layout
        if len(self.cells) != len(layout):
            raise ValueError(f"{len(self.cells)} cells for a layout of {len(layout)} peas")
        if any(not (SMUSHED <= c <= DIE_FACES) for c in self.cells):
            raise ValueError(f"cells must be {SMUSHED}..{DIE_FACES}, got {self.cells}")
        if len(self.pod_values) != len(self.pods):
            raise ValueError(f"{len(self.pods)} pods but {len(self.pod_values)} pod values")
        if len(self.dice) > DICE_PER_TURN or any(d not in _ALL_VALUES for d in self.dice):
            raise ValueError(f"dice must be at most {DICE_PER_TURN} values 1..6, got {self.dice}")
        if list(self.dice) != sorted(self.dice):
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))
        pod_index = [-1] * len(layout)
        for p, pod in enumerate(self.pods):
            if not is_pod_shape(layout, pod):
                raise ValueError(f"pod {sorted(pod)} is not 3 continuously adjacent peas")
            for pea in pod:
                i = layout.index[pea]
                if pod_index[i] >= 0:
                    raise ValueError(f"pods overlap at {_pea_words(pea)}")
                pod_index[i] = p
        object.__setattr__(self, "pod_index", tuple(pod_index))

    def value_at(self, pea: Pos) -> int | None:
        """The value written in ``pea``, or None if it is unfilled or smushed."""
        cell = self.cells[self.layout.index[pea]]
        return cell if cell > 0 else None

    def is_smushed(self, pea: Pos) -> bool:
        """True if ``pea`` is crossed out."""
        return self.cells[self.layout.index[pea]] == SMUSHED

    def is_unfilled(self, pea: Pos) -> bool:
        """True if ``pea`` is neither filled nor smushed."""
        return self.cells[self.layout.index[pea]] == UNFILLED

    def pod_of(self, pea: Pos) -> int | None:
        """Index of the pod holding ``pea``, or None."""
        p = self.pod_index[self.layout.index[pea]]
        return p if p >= 0 else None

    def pod_value(self, pod: int) -> int | None:
        """The value of pod number ``pod``, or None while it has none."""
        value = self.pod_values[pod]
        return value if value != NO_POD_VALUE else None

    @property
    def smushed(self) -> frozenset[Pos]:
        """The crossed-out peas."""
        return frozenset(p for p, c in zip(self.layout.order, self.cells) if c == SMUSHED)

    def __str__(self) -> str:
        layout = self.layout
        tokens = {}
        for i, pea in enumerate(layout.order):
            cell = self.cells[i]
            mark = "o" if cell == UNFILLED else "x" if cell == SMUSHED else str(cell)
            pod = self.pod_index[i]
            tokens[pea] = mark + (_pod_label(pod) if pod >= 0 else "")
        width = max(len(t) for t in tokens.values())
        lines = [
            " ".join(
                tokens.get((r, c), ".").ljust(width) for c in range(layout.cols)
            ).rstrip()
            for r in range(layout.rows)
        ]
        if self.pods:
            lines.append(
                "pods "
                + " ".join(
                    f"{_pod_label(p)}={v if v else '-'}" for p, v in enumerate(self.pod_values)
                )
            )
        if self.dice:
            lines.append("dice " + " ".join(str(d) for d in self.dice))
        return "\n".join(lines)

    @classmethod
    def parse(cls, text: str) -> State:
        """A state from its text form (inverse of ``str(state)``); see the module docstring."""
        grid_rows: list[list[str]] = []
        pod_spec: dict[str, int] | None = None
        dice: tuple[int, ...] = ()
        for line in text.strip().splitlines():
            words = line.split()
            if not words:
                continue
            if words[0] == "pods":
                pod_spec = {}
                for word in words[1:]:
                    match = re.fullmatch(r"([A-Z]+)=([1-6]|-)", word)
                    if not match:
                        raise ParseError(f"{word!r} in {line!r} is not a pod value like A=3 or A=-")
                    pod_spec[match[1]] = NO_POD_VALUE if match[2] == "-" else int(match[2])
            elif words[0] == "dice":
                if not all(w.isdigit() for w in words[1:]):
                    raise ParseError(f"{line!r}: dice must be numbers")
                dice = tuple(sorted(int(w) for w in words[1:]))
            else:
                grid_rows.append(words)
        cells_at: dict[Pos, int] = {}
        members: dict[str, set[Pos]] = {}
        for r, words in enumerate(grid_rows):
            for c, word in enumerate(words):
                if word == ".":
                    continue
                match = re.fullmatch(r"([o1-6x])([A-Z]*)", word)
                if not match:
                    raise ParseError(
                        f"row {r}, col {c}: {word!r} is not '.', 'o', 1-6 or 'x' "
                        "with an optional pod letter"
                    )
                mark = match[1]
                cells_at[(r, c)] = (
                    UNFILLED if mark == "o" else SMUSHED if mark == "x" else int(mark)
                )
                if match[2]:
                    members.setdefault(match[2], set()).add((r, c))
        layout = Layout(frozenset(cells_at))
        labels = sorted(members, key=_pod_label_index)
        if pod_spec is not None and set(pod_spec) != set(labels):
            raise ParseError(f"pods line names {sorted(pod_spec)} but the grid has pods {labels}")
        values = []
        for label in labels:
            filled = {cells_at[p] for p in members[label] if cells_at[p] > 0}
            if pod_spec is not None:
                value = pod_spec[label]
                if filled - {value}:
                    raise ParseError(
                        f"pod {label} has value {value or '-'} but holds {sorted(filled)}"
                    )
            elif len(filled) > 1:
                raise ParseError(f"pod {label} holds different values {sorted(filled)}")
            else:
                value = filled.pop() if filled else NO_POD_VALUE
            values.append(value)
        return cls(
            layout=layout,
            cells=tuple(cells_at[p] for p in layout.order),
            pods=tuple(frozenset(members[label]) for label in labels),
            pod_values=tuple(values),
            dice=dice,
        )


def new_game(layout: Layout) -> State:
    """An empty card at the start of the first turn (dice not yet rolled)."""
    return State(layout=layout, cells=(UNFILLED,) * len(layout))


def is_terminal(state: State) -> bool:
    """True when the harvest is complete: every pea is filled or smushed."""
    return UNFILLED not in state.cells


def is_chance(state: State) -> bool:
    """True when the next move is a roll of the dice."""
    return not state.dice and not is_terminal(state)


def score(state: State) -> int:
    """Number of smushed peas (so far; the final score once terminal). Lower is better."""
    return state.cells.count(SMUSHED)


def _allowed_mask(state: State, i: int) -> int:
    # Bit v set when value v may go into unfilled pea i now.
    p = state.pod_index[i]
    if p >= 0:
        value = state.pod_values[p]
        return 1 << value if value else _ALL_MASK
    mask = _ALL_MASK
    cells, pod_index = state.cells, state.pod_index
    for j in state.layout.neighbours[i]:
        # Smushed neighbours hold no value and neighbours in pods are ignored.
        if cells[j] > 0 and pod_index[j] < 0:
            mask &= _NEXT_TO_MASK[cells[j]]
    return mask


def allowed_values(state: State, pea: Pos) -> frozenset[int]:
    """Values that may be written in ``pea`` now (empty if it is filled or smushed)."""
    i = state.layout.index[pea]
    if state.cells[i] != UNFILLED:
        return frozenset()
    mask = _allowed_mask(state, i)
    return frozenset(v for v in _ALL_VALUES if mask >> v & 1)


def _problem(state: State, move: Move) -> str | None:
    # The single source of legality: None if the move is legal, else why not.
    if not isinstance(move, (Roll, Place, Smush, CreatePod)):
        return "not a Breakfast Shy move"
    if is_terminal(state):
        return "the harvest is complete"
    if isinstance(move, Roll):
        if state.dice:
            return f"dice {' '.join(map(str, state.dice))} are still to be used"
        if move.first not in _ALL_VALUES or move.second not in _ALL_VALUES:
            return "dice show 1 to 6"
        return None
    if not state.dice:
        return "roll the dice first"
    layout = state.layout
    if isinstance(move, CreatePod):
        if len(state.dice) != DICE_PER_TURN:
            return "a pod replaces the whole roll, but a die has already been used"
        if not move.peas <= layout.peas:
            outside = sorted(move.peas - layout.peas)
            return f"{', '.join(map(pea_name, outside))} not on the card"
        if not is_pod_shape(layout, move.peas):
            return "a pod is 3 continuously adjacent peas (A next to B next to C)"
        taken = sorted(p for p in move.peas if state.pod_index[layout.index[p]] >= 0)
        if taken:
            return f"pods may not overlap: {', '.join(map(pea_name, taken))} already in a pod"
        values = {state.cells[layout.index[p]] for p in move.peas} - {UNFILLED, SMUSHED}
        if len(values) > 1:
            return f"filled peas in a pod must share one value, these hold {sorted(values)}"
        return None
    if move.pea not in layout.index:
        return f"{pea_name(move.pea)} is not on the card"
    i = layout.index[move.pea]
    if isinstance(move, Smush):
        if move.die not in state.dice:
            return f"no die shows {move.die} (dice left: {' '.join(map(str, state.dice))})"
        if state.cells[i] == SMUSHED:
            return f"{pea_name(move.pea)} is already smushed"
        return None
    if move.value not in state.dice:
        return f"no die shows {move.value} (dice left: {' '.join(map(str, state.dice))})"
    cell = state.cells[i]
    if cell != UNFILLED:
        return f"{pea_name(move.pea)} is {'smushed' if cell == SMUSHED else f'filled with {cell}'}"
    p = state.pod_index[i]
    if p >= 0:
        value = state.pod_values[p]
        if value and value != move.value:
            return f"{pea_name(move.pea)} is in a pod of value {value}"
        return None
    clashes = [
        f"{state.cells[j]} at {pea_name(layout.order[j])}"
        for j in layout.neighbours[i]
        if state.cells[j] > 0
        and state.pod_index[j] < 0
        and abs(state.cells[j] - move.value) != 1
    ]
    if clashes:
        return (
            "must be exactly 1 higher or lower than every adjacent filled pea: "
            + ", ".join(clashes)
        )
    return None


def is_legal(state: State, move: Move) -> bool:
    """True if ``move`` may be played in ``state``."""
    return _problem(state, move) is None


def legal_moves(state: State) -> tuple[Move, ...]:
    """All legal moves: rolls at a chance point, else places, smushes, then pods (fixed order)."""
    if is_terminal(state):
        return ()
    if not state.dice:
        return tuple(Roll(a, b) for a, b in _ROLLS)
    layout, cells = state.layout, state.cells
    faces = sorted(set(state.dice))
    unfilled = [i for i, c in enumerate(cells) if c == UNFILLED]
    masks = {i: _allowed_mask(state, i) for i in unfilled}
    moves: list[Move] = [
        Place(layout.order[i], v) for v in faces for i in unfilled if masks[i] >> v & 1
    ]
    moves += [Smush(layout.order[i], d) for d in faces for i, c in enumerate(cells) if c != SMUSHED]
    if len(state.dice) == DICE_PER_TURN:
        for t in layout.trominoes:
            if any(state.pod_index[i] >= 0 for i in t):
                continue
            if len({cells[i] for i in t} - {UNFILLED, SMUSHED}) > 1:
                continue
            moves.append(CreatePod(frozenset(layout.order[i] for i in t)))
    return tuple(moves)


def _without_die(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    rest = list(dice)
    rest.remove(die)
    return tuple(rest)


def apply(state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`IllegalMove` (quoting it) if it is illegal."""
    problem = _problem(state, move)
    if problem is not None:
        raise IllegalMove(f"{move}: {problem}")
    if isinstance(move, Roll):
        dice = (move.first, move.second)
        return State(state.layout, state.cells, state.pods, state.pod_values, dice)
    layout = state.layout
    if isinstance(move, CreatePod):
        values = {state.cells[layout.index[p]] for p in move.peas} - {UNFILLED, SMUSHED}
        return State(
            layout,
            state.cells,
            state.pods + (move.peas,),
            state.pod_values + (values.pop() if values else NO_POD_VALUE,),
            (),
        )
    i = layout.index[move.pea]
    cells = list(state.cells)
    pod_values = state.pod_values
    if isinstance(move, Smush):
        # A smushed pea loses its value, but its pod keeps the value it already has.
        cells[i] = SMUSHED
        dice = _without_die(state.dice, move.die)
    else:
        cells[i] = move.value
        p = state.pod_index[i]
        if p >= 0 and not pod_values[p]:
            pod_values = pod_values[:p] + (move.value,) + pod_values[p + 1 :]
        dice = _without_die(state.dice, move.value)
    if UNFILLED not in cells:
        dice = ()  # the harvest is complete; a die left over is simply not used
    return State(layout, tuple(cells), state.pods, pod_values, dice)


def roll(state: State, rng: random.Random) -> State:
    """Roll both dice with ``rng`` at a chance point."""
    return apply(state, Roll(rng.randint(1, DIE_FACES), rng.randint(1, DIE_FACES)))


# --------------------------------------------------------------------------- policies
#
# Both heuristic players judge a position by its *risk*: the smushed peas so far plus, for every
# unfilled pea, a guess at the chance it will end up smushed, taken from how many values it may
# still take (a pea next to a 1 and a 4 may take none and is all but lost; one that may take any
# value is safe).  An unfilled pea in a pod may take only the pod's value, so it counts like a
# pea with one allowed value; in a pod without a value the first placement is free.
#
# greedy:    try every way to use this roll (each die placed or spent on smushing, in either
#            order) and every pod it could create instead; keep the one with the lowest risk.
# lookahead: take greedy's best few turns and add, for each, the risk expected after the best
#            reply to each of the 36 next rolls (a one-die-at-a-time reply, or a rescuing pod);
#            keep the turn with the lowest sum.

# RISK[k]: how likely (in thousandths of a smushed pea) an unfilled pea that may take k values
# is to end up smushed.  Integers keep every sum exact, so equal options tie exactly and the
# first in the fixed order wins.  Tuned by playing the candidate layouts (see the report).
SMUSH_COST = 1000  # one smushed pea, in the same thousandths
RISK = (900, 300, 150, 80, 40, 20, 0)
_MASK_RISK = tuple(RISK[(m & _ALL_MASK).bit_count()] for m in range(1 << (DIE_FACES + 1)))
_POD_PEA_RISK = RISK[1]  # an unfilled pea in a pod may take exactly one value
GREEDY_WIDTH = 6  # best single-die actions per die combined into whole turns
LOOKAHEAD_WIDTH = 4  # greedy's best turns that the look-ahead examines further

_PLACE, _SMUSH, _POD = 0, 1, 2
_NEVER = 10**12  # a risk no real option reaches
Action = tuple[int, int, int]  # (_PLACE, pea, value) | (_SMUSH, pea, 0) | (_POD, tromino, 0)


class _Board:
    """A mutable what-if copy of a state; the policies try actions on it and take them back."""

    __slots__ = (
        "layout", "around", "cells", "pod_index", "pod_values", "pod_open", "open",
        "masks", "terms", "pod_terms",
    )

    def __init__(self, state: State) -> None:
        self.layout = state.layout
        self.around = _around(state.layout)
        self.cells = list(state.cells)
        self.pod_index = list(state.pod_index)
        self.pod_values = list(state.pod_values)
        index = state.layout.index
        self.pod_open = [sum(self.cells[index[p]] == UNFILLED for p in pod) for pod in state.pods]
        self.open = self.cells.count(UNFILLED)
        self.rebase()

    def rebase(self) -> None:
        """Remember every pea's mask and risk, and each pod's risk, as the baseline."""
        self.masks = [self.mask(i) if c == UNFILLED else 0 for i, c in enumerate(self.cells)]
        self.terms = [self.pea_term(i) for i in range(len(self.cells))]
        self.pod_terms = [self.pod_term(p) for p in range(len(self.pod_values))]

    def place_delta(self, i: int, value: int) -> int:
        """Risk change of writing ``value`` in unfilled pea ``i`` (same as ``delta`` but fast)."""
        p = self.pod_index[i]
        if p >= 0:
            # The pod's other open peas may now take only this value; its neighbours ignore it.
            return _POD_PEA_RISK * (self.pod_open[p] - 1) - self.pod_terms[p]
        change = -self.terms[i]
        cells, pod_index, masks, terms = self.cells, self.pod_index, self.masks, self.terms
        narrow = _NEXT_TO_MASK[value]
        for j in self.layout.neighbours[i]:
            if cells[j] == UNFILLED and pod_index[j] < 0:
                change += _MASK_RISK[masks[j] & narrow] - terms[j]
        return change

    def smush_delta(self, i: int) -> int:
        """Risk change of smushing pea ``i`` (fast for unfilled peas)."""
        if self.cells[i] != UNFILLED:
            return self.delta(((_SMUSH, i, 0),))
        p = self.pod_index[i]
        if p >= 0:
            left = self.pod_open[p] - 1
            after = _POD_PEA_RISK * (left if self.pod_values[p] else max(left - 1, 0))
            return SMUSH_COST + after - self.pod_terms[p]
        return SMUSH_COST - self.terms[i]

    def single_delta(self, action: Action) -> int:
        """Risk change of one action from the baseline."""
        kind, i, value = action
        if kind == _PLACE:
            return self.place_delta(i, value)
        if kind == _SMUSH:
            return self.smush_delta(i)
        return self.delta((action,))

    def mask(self, i: int) -> int:
        p = self.pod_index[i]
        if p >= 0:
            value = self.pod_values[p]
            return 1 << value if value else _ALL_MASK
        mask = _ALL_MASK
        cells, pod_index = self.cells, self.pod_index
        for j in self.layout.neighbours[i]:
            if cells[j] > 0 and pod_index[j] < 0:
                mask &= _NEXT_TO_MASK[cells[j]]
        return mask

    def pea_term(self, i: int) -> int:
        if self.cells[i] != UNFILLED or self.pod_index[i] >= 0:
            return 0
        return _MASK_RISK[self.mask(i)]

    def pod_term(self, p: int) -> int:
        left = self.pod_open[p]
        if not left:
            return 0
        return _POD_PEA_RISK * (left if self.pod_values[p] else left - 1)

    def can(self, action: Action) -> bool:
        kind, i, value = action
        if kind == _PLACE:
            return self.cells[i] == UNFILLED and self.mask(i) >> value & 1 == 1
        if kind == _SMUSH:
            return self.cells[i] != SMUSHED
        return True  # pods are only proposed when legal, and only as a whole turn

    def do(self, action: Action) -> tuple:
        kind, i, value = action
        cells = self.cells
        if kind == _POD:
            t = self.layout.trominoes[i]
            p = len(self.pod_values)
            filled = [cells[k] for k in t if cells[k] > 0]
            self.pod_values.append(filled[0] if filled else NO_POD_VALUE)
            self.pod_open.append(sum(cells[k] == UNFILLED for k in t))
            for k in t:
                self.pod_index[k] = p
            return (kind, i, 0, 0)
        old = cells[i]
        p = self.pod_index[i]
        old_pod_value = self.pod_values[p] if p >= 0 else 0
        if kind == _PLACE:
            cells[i] = value
            if p >= 0 and not old_pod_value:
                self.pod_values[p] = value
        else:
            cells[i] = SMUSHED
        if old == UNFILLED:
            self.open -= 1
            if p >= 0:
                self.pod_open[p] -= 1
        return (kind, i, old, old_pod_value)

    def undo(self, record: tuple) -> None:
        kind, i, old, old_pod_value = record
        if kind == _POD:
            self.pod_values.pop()
            self.pod_open.pop()
            for k in self.layout.trominoes[i]:
                self.pod_index[k] = -1
            return
        p = self.pod_index[i]
        if old == UNFILLED:
            self.open += 1
            if p >= 0:
                self.pod_open[p] += 1
        if p >= 0:
            self.pod_values[p] = old_pod_value
        self.cells[i] = old

    def footprint(self, action: Action) -> tuple[int, ...]:
        kind, i, _ = action
        return self.around.pod[i] if kind == _POD else self.around.pea[i]

    def delta(self, actions: tuple[Action, ...]) -> int:
        """Change of risk if ``actions`` are played from the baseline (they are taken back)."""
        peas = set()
        smushes = 0
        for action in actions:
            peas.update(self.footprint(action))
            smushes += action[0] == _SMUSH
        pod_index, terms, pod_terms = self.pod_index, self.terms, self.pod_terms
        before = 0
        pods = set()
        for i in peas:
            before += terms[i]
            if pod_index[i] >= 0:
                pods.add(pod_index[i])
        for p in pods:
            before += pod_terms[p]
        records = [self.do(a) for a in actions]
        after = 0
        pods = set()
        for i in peas:
            after += self.pea_term(i)
            if pod_index[i] >= 0:
                pods.add(pod_index[i])
        for p in pods:
            after += self.pod_term(p)
        for record in reversed(records):
            self.undo(record)
        return after - before + smushes * SMUSH_COST

    def single_actions(self, value: int) -> list[Action]:
        """Sensible ways to spend one die: legal placements, and smushes that can pay off."""
        masks = self.masks
        actions = [
            (_PLACE, i, value)
            for i, c in enumerate(self.cells)
            if c == UNFILLED and masks[i] >> value & 1
        ]
        return actions + self.smush_actions()

    def smush_actions(self) -> list[Action]:
        # Smushing an unfilled pea ends its risk; smushing a filled pea only helps when it
        # frees a neighbour that is nearly stuck, so only those filled peas are proposed.
        cells, pod_index, terms = self.cells, self.pod_index, self.terms
        actions = []
        for i, c in enumerate(cells):
            if c == UNFILLED:
                actions.append((_SMUSH, i, 0))
            elif c > 0 and pod_index[i] < 0 and any(
                terms[j] >= _POD_PEA_RISK for j in self.layout.neighbours[i]
            ):
                actions.append((_SMUSH, i, 0))
        return actions

    def pod_actions(self, troubled_only: bool = False) -> list[Action]:
        """Legal pods; with ``troubled_only`` just those holding a pea at risk (a rescue)."""
        cells, pod_index, terms = self.cells, self.pod_index, self.terms
        actions = []
        for t_index, t in enumerate(self.layout.trominoes):
            a, b, c = t
            if pod_index[a] >= 0 or pod_index[b] >= 0 or pod_index[c] >= 0:
                continue
            va, vb, vc = cells[a], cells[b], cells[c]
            values = {v for v in (va, vb, vc) if v > 0}
            if len(values) > 1:
                continue
            if troubled_only and max(terms[a], terms[b], terms[c]) < _POD_PEA_RISK:
                continue
            actions.append((_POD, t_index, 0))
        return actions


@dataclass(frozen=True)
class _Around:
    pea: tuple[tuple[int, ...], ...]  # each pea and its neighbours
    pod: tuple[tuple[int, ...], ...]  # each tromino's peas and their neighbours


@lru_cache(maxsize=64)
def _around(layout: Layout) -> _Around:
    # The peas whose risk an action can change: the acted-on peas and their neighbours.
    pea = tuple((i,) + nbrs for i, nbrs in enumerate(layout.neighbours))
    pod = tuple(tuple(sorted(set().union(*(pea[k] for k in t)))) for t in layout.trominoes)
    return _Around(pea, pod)


Turn = tuple[tuple[Action, int], ...]  # (action, die spent on it) in playing order


def _ranked_turns(board: _Board, dice: tuple[int, ...]) -> list[tuple[int, int, Turn]]:
    # Whole-turn options as (risk change, tie-break, ((action, die), ...)), best first.
    options = []
    seq = 0
    singles: dict[int, list[tuple[int, Action]]] = {}
    for value in sorted(set(dice)):
        scored = [(board.single_delta(a), a) for a in board.single_actions(value)]
        scored.sort(key=lambda item: item[0])
        singles[value] = scored
    if len(dice) == 1:
        for d, action in singles[dice[0]]:
            options.append((d, seq, ((action, dice[0]),)))
            seq += 1
        return options
    if board.open == 1:
        # The last unfilled pea: one die ends the harvest and the other goes unused.
        for value in singles:
            for d, action in singles[value]:
                if board.cells[action[1]] == UNFILLED:
                    options.append((d, seq, ((action, value),)))
                    seq += 1
    first, second = dice
    tops_first = singles[first][:GREEDY_WIDTH]
    tops_second = singles[second][:GREEDY_WIDTH]
    pod_index = board.pod_index
    seen = set()
    for dx, x in tops_first:
        reach = set(board.footprint(x))
        for dy, y in tops_second:
            if x == y or (x[1] == y[1] and x[0] != _SMUSH and y[0] != _SMUSH):
                continue
            key = frozenset(((x, first), (y, second)))
            if key in seen:
                continue
            seen.add(key)
            if (
                board.open >= 2
                and reach.isdisjoint(board.footprint(y))
                and (pod_index[x[1]] < 0 or pod_index[x[1]] != pod_index[y[1]])
            ):
                # Far apart: neither changes the other's legality or risk, so changes add up.
                options.append((dx + dy, seq, ((x, first), (y, second))))
                seq += 1
                continue
            turn = _ordered_pair(board, (x, first), (y, second))
            if turn is None:
                continue
            options.append((board.delta(tuple(a for a, _ in turn)), seq, turn))
            seq += 1
    for action in board.pod_actions():
        options.append((board.delta((action,)), seq, ((action, 0),)))
        seq += 1
    options.sort(key=lambda item: (item[0], item[1]))
    return options


def _ordered_pair(board: _Board, x: tuple[Action, int], y: tuple[Action, int]) -> Turn | None:
    # Play the two dice in an order that is legal; a game that ends after one die ends there.
    for one, two in ((x, y), (y, x)):
        if not board.can(one[0]):
            continue
        record = board.do(one[0])
        finished = board.open == 0
        ok = finished or board.can(two[0])
        board.undo(record)
        if ok:
            return (one,) if finished else (one, two)
    return None


def _to_moves(layout: Layout, turn: Turn) -> tuple[Move, ...]:
    moves: list[Move] = []
    for (kind, i, value), die in turn:
        if kind == _PLACE:
            moves.append(Place(layout.order[i], value))
        elif kind == _SMUSH:
            moves.append(Smush(layout.order[i], die))
        else:
            moves.append(CreatePod(frozenset(layout.order[k] for k in layout.trominoes[i])))
    return tuple(moves)


def _check_decision(state: State) -> None:
    if is_terminal(state) or not state.dice:
        raise ValueError(f"a policy needs a state with dice to use, not:\n{state}")


def greedy_turn(state: State, rng: random.Random | None = None) -> tuple[Move, ...]:
    """The greedy player's moves for the dice in ``state`` (lowest risk after this turn)."""
    _check_decision(state)
    board = _Board(state)
    return _to_moves(state.layout, _ranked_turns(board, state.dice)[0][2])


def _expected_reply(board: _Board) -> int:
    # Sum over the 36 next rolls of the risk change of a good reply, each die judged on its own
    # (two dice never take the same pea); a rescuing pod is the alternative to using the roll.
    if board.open == 0:
        return 0
    smushes = [(board.smush_delta(a[1]), a[1]) for a in board.smush_actions()]
    scored: dict[int, list[tuple[int, int]]] = {value: list(smushes) for value in _ALL_VALUES}
    for i, c in enumerate(board.cells):
        if c == UNFILLED:
            mask = board.masks[i]
            for value in _ALL_VALUES:
                if mask >> value & 1:
                    scored[value].append((board.place_delta(i, value), i))
    best = {value: _two_best(options) for value, options in scored.items()}
    pods = [board.delta((a,)) for a in board.pod_actions(troubled_only=True)]
    pod_best = min(pods) if pods else _NEVER
    total = 0
    for a, b in _ROLLS:
        (da, ia), (da2, _) = best[a]
        (db, ib), (db2, _) = best[b]
        if board.open == 1:
            reply = min(da, db)
        elif ia != ib:
            reply = da + db
        else:
            reply = min(da + db2, da2 + db)
        total += min(reply, pod_best)
    return total


def _two_best(scored: list[tuple[int, int]]) -> tuple[tuple[int, int], tuple[int, int]]:
    # The best option and the best one on a different pea (_NEVER if there is none).
    first = second = (_NEVER, -1)
    for item in scored:
        if item[0] < first[0]:
            if item[1] != first[1]:
                second = first
            first = item
        elif item[0] < second[0] and item[1] != first[1]:
            second = item
    return first, second


def lookahead_turn(state: State, rng: random.Random | None = None) -> tuple[Move, ...]:
    """The look-ahead player's moves: greedy's best few turns judged one roll further."""
    _check_decision(state)
    board = _Board(state)
    ranked = _ranked_turns(board, state.dice)
    best_value, best_turn = _NEVER, ranked[0][2]
    for d, _, turn in ranked[:LOOKAHEAD_WIDTH]:
        records = [board.do(a) for a, _ in turn]
        saved = (board.masks, board.terms, board.pod_terms)
        board.rebase()
        value = d * len(_ROLLS) + _expected_reply(board)
        board.masks, board.terms, board.pod_terms = saved
        for record in reversed(records):
            board.undo(record)
        if value < best_value:
            best_value, best_turn = value, turn
    return _to_moves(state.layout, best_turn)


def random_turn(state: State, rng: random.Random) -> tuple[Move, ...]:
    """A player who picks uniformly among the legal moves until this roll is used up."""
    _check_decision(state)
    moves = []
    while state.dice and not is_terminal(state):
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = apply(state, move)
    return tuple(moves)


Policy = Callable[[State, random.Random], tuple[Move, ...]]
POLICIES: dict[str, Policy] = {
    "random": random_turn,
    "greedy": greedy_turn,
    "lookahead": lookahead_turn,
}


# --------------------------------------------------------------------------- simulation


@dataclass(frozen=True)
class Game:
    """One simulated harvest: every move (rolls included), the turns and the final card."""

    moves: tuple[Move, ...]
    turns: int
    final: State

    @property
    def score(self) -> int:
        """Smushed peas at the end."""
        return score(self.final)


def _policy(policy: str | Policy) -> Policy:
    if callable(policy):
        return policy
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    return POLICIES[policy]


def play_game(
    layout: Layout, policy: str | Policy = "greedy", rng: random.Random | int = 0
) -> Game:
    """Play one harvest of ``layout`` with ``policy``, rolling with ``rng`` (or a seed)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    choose = _policy(policy)
    state = new_game(layout)
    moves: list[Move] = []
    turns = 0
    while not is_terminal(state):
        dice = Roll(rng.randint(1, DIE_FACES), rng.randint(1, DIE_FACES))
        state = apply(state, dice)
        moves.append(dice)
        turns += 1
        for move in choose(state, rng):
            state = apply(state, move)
            moves.append(move)
            if is_terminal(state):
                break
        if state.dice:
            raise ValueError(f"policy {policy!r} left dice {state.dice} unused")
    return Game(tuple(moves), turns, state)


def game_seed(seed: int, game: int) -> str:
    """The seed of game ``game`` of a series seeded with ``seed``, so any game replays alone."""
    return f"breakfast-shy/{seed}/{game}"


@dataclass(frozen=True)
class LayoutAnalysis:
    """Score statistics of many seeded games on one layout with one policy."""

    layout: Layout
    policy: str
    games: int
    seed: int
    scores: tuple[int, ...]
    mean: float
    stdev: float
    minimum: int
    maximum: int
    median: float
    p10: float  # 10th percentile of the score
    p90: float  # 90th percentile of the score
    perfect: float  # share of games with no smushed pea
    mean_turns: float


def analyse_layout(
    layout: Layout, games: int = 200, seed: int = 0, policy: str | Policy = "greedy"
) -> LayoutAnalysis:
    """Play ``games`` seeded games of ``layout`` with ``policy`` and summarise the scores."""
    if games < 2:
        raise ValueError(f"analyse_layout needs games >= 2 for a spread, not {games}")
    import statistics  # only the analysis needs it (a sheet command imports this module)

    played = [play_game(layout, policy, random.Random(game_seed(seed, k))) for k in range(games)]
    scores = tuple(g.score for g in played)
    deciles = statistics.quantiles(scores, n=10, method="inclusive")
    return LayoutAnalysis(
        layout=layout,
        policy=policy if isinstance(policy, str) else getattr(policy, "__name__", "custom"),
        games=games,
        seed=seed,
        scores=scores,
        mean=statistics.fmean(scores),
        stdev=statistics.stdev(scores),
        minimum=min(scores),
        maximum=max(scores),
        median=statistics.median(scores),
        p10=deciles[0],
        p90=deciles[-1],
        perfect=scores.count(0) / games,
        mean_turns=statistics.fmean(g.turns for g in played),
    )
