"""Breakfast Shy: pea layouts, the solitaire turn, player policies and layout analysis.

Rules: ``shared/rules/breakfast-shy.md``. Peas sit on a square lattice; a pea is a ``(row, col)``
pair (0-based, row 0 at the top) and two peas are adjacent when they are directly left, right,
above or below each other.

A :class:`State` stores one cell per pea in layout order (``UNFILLED``, a value 1-6, or
``SMUSHED``), the pods in creation order with their values (0 while a pod has none), and the dice
still to use this turn.  When no die is left the state is a chance point: its legal moves are the
36 ordered :class:`Roll` outcomes, all equally likely, so a uniform random choice rolls fair dice.
After a roll the player EITHER uses each die (:class:`Place` or :class:`Smush`) OR spends the
whole roll on one :class:`CreatePod`.

Text forms (all round-trip through ``str`` and the matching parse function)::

    layout   ooo/o.o/ooo                 rows of 'o' (pea) and '.' (none), '/' or newlines
    pea      r2c3                        row 2, column 3
    moves    roll 3 5 | place 4 at r2c3 | smush r2c3 with 5 | pod r0c0 r0c1 r1c1
    state    3  4  oA                    one token per lattice position: '.' no pea, 'o' unfilled,
             x  oA oA                    1-6 filled, 'x' smushed; a capital suffix names the pod
             pods A=-                    then each pod's value ('-' none yet) and the unused dice
             dice 2 5

This module holds the layouts, their measured difficulty and the rules' words. The play (moves,
states, ``apply``, policies, simulation and ``analyse_layout``) is ``printables.rules.peas_play``,
built on this module: a card of a preset layout needs only the layout, its measured difficulty
and the rules' words, and does not import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator


Pos = tuple[int, int]

DIE_FACES = 6  # values on a six-sided die: 1..DIE_FACES
DICE_PER_TURN = 2
POD_SIZE = 3  # peas circled by one pod
UNFILLED = 0  # cell code of an empty pea
SMUSHED = -1  # cell code of a crossed-out pea (it holds no value any more)
NO_POD_VALUE = 0  # pod value code while no pea of the pod has been filled

_ALL_VALUES = range(1, DIE_FACES + 1)
_ALL_MASK = (1 << (DIE_FACES + 1)) - 2  # bit v set for every value v in 1..6
# Values a pea may take next to a counting filled pea holding v: exactly v - 1 or v + 1.
_NEXT_TO_MASK = tuple(
    sum(1 << w for w in (v - 1, v + 1) if 1 <= w <= DIE_FACES) for v in range(DIE_FACES + 1)
)
_ROLLS = tuple((a, b) for a in _ALL_VALUES for b in _ALL_VALUES)
_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


class LayoutError(ValueError):
    """A pea layout that is empty, malformed or has a pea without a neighbour."""


class IllegalMove(ValueError):
    """A move the rules forbid in the given state; the message quotes the move."""


class ParseError(ValueError):
    """Text that is not a pea, move or state in the documented notation."""


def pea_name(pea: Pos) -> str:
    """The short name of a pea, ``r2c3`` for row 2 column 3."""
    return f"r{pea[0]}c{pea[1]}"


def _pea_words(pea: Pos) -> str:
    return f"pea at row {pea[0]}, col {pea[1]}"


_PEA_RE = re.compile(r"r(\d+)c(\d+)")


def parse_pea(text: str) -> Pos:
    """The pea named ``r<row>c<col>`` (inverse of :func:`pea_name`)."""
    match = _PEA_RE.fullmatch(text.strip())
    if not match:
        raise ParseError(f"{text!r} is not a pea; write r<row>c<col>, e.g. r2c3")
    return (int(match.group(1)), int(match.group(2)))


# --------------------------------------------------------------------------- layouts


@dataclass(frozen=True, repr=False)
class Layout:
    """A set of lattice positions holding peas; every pea has an orthogonal neighbour."""

    peas: frozenset[Pos]
    # Lookup tables built once per layout; they follow from ``peas`` so they take no part in ==.
    order: tuple[Pos, ...] = field(init=False, compare=False)
    index: dict[Pos, int] = field(init=False, compare=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, compare=False)
    trominoes: tuple[tuple[int, int, int], ...] = field(init=False, compare=False)
    tromino_set: frozenset[tuple[int, int, int]] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        peas = frozenset(self.peas)
        for pea in peas:
            if not (
                isinstance(pea, tuple)
                and len(pea) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in pea)
            ):
                raise LayoutError(f"{pea!r} is not a lattice position (row, col) of ints >= 0")
        if not peas:
            raise LayoutError("a layout needs at least one pea")
        order = tuple(sorted(peas))
        index = {pea: i for i, pea in enumerate(order)}
        neighbours = tuple(
            tuple(index[(r + dr, c + dc)] for dr, dc in _STEPS if (r + dr, c + dc) in index)
            for r, c in order
        )
        lonely = [order[i] for i, nbrs in enumerate(neighbours) if not nbrs]
        if lonely:
            names = "; ".join(_pea_words(pea) for pea in lonely)
            raise LayoutError(f"every pea needs a neighbour, but this has none: {names}")
        object.__setattr__(self, "peas", peas)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", neighbours)
        trominoes = _trominoes(neighbours)
        object.__setattr__(self, "trominoes", trominoes)
        object.__setattr__(self, "tromino_set", frozenset(trominoes))

    @classmethod
    def rectangle(cls, rows: int, cols: int) -> Layout:
        """A full ``rows x cols`` rectangle of peas."""
        if rows < 1 or cols < 1:
            raise LayoutError(f"a rectangle needs rows >= 1 and cols >= 1, not {rows} x {cols}")
        return cls(frozenset((r, c) for r in range(rows) for c in range(cols)))

    @classmethod
    def parse(cls, text: str) -> Layout:
        """A layout from a mask: rows of ``o`` (pea) and ``.`` (none) split by ``/`` or newlines."""
        rows = [row.strip() for row in re.split(r"[/\n]", text.strip())]
        peas = set()
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "o":
                    peas.add((r, c))
                elif ch != ".":
                    raise LayoutError(
                        f"layout mask {text!r}: row {r}, col {c} is {ch!r}; "
                        "use 'o' for a pea and '.' for no pea"
                    )
        if not peas:
            raise LayoutError(f"layout mask {text!r} has no pea ('o')")
        return cls(frozenset(peas))

    @property
    def rows(self) -> int:
        """Number of lattice rows from row 0 to the last row holding a pea."""
        return max(r for r, _ in self.peas) + 1

    @property
    def cols(self) -> int:
        """Number of lattice columns from column 0 to the last column holding a pea."""
        return max(c for _, c in self.peas) + 1

    def normalised(self) -> Layout:
        """The same shape moved so that its top row and left column are 0 (the layout itself if it is)."""
        top = min(r for r, _ in self.peas)
        left = min(c for _, c in self.peas)
        if top == left == 0:  # a layout is immutable: no need to build (and check) an equal one
            return self
        return Layout(frozenset((r - top, c - left) for r, c in self.peas))

    def __len__(self) -> int:
        return len(self.order)

    def __iter__(self) -> Iterator[Pos]:
        return iter(self.order)

    def __contains__(self, pea: object) -> bool:
        return pea in self.index

    def __str__(self) -> str:
        return "/".join(
            "".join("o" if (r, c) in self.index else "." for c in range(self.cols))
            for r in range(self.rows)
        )

    def __repr__(self) -> str:
        return f"Layout.parse({str(self)!r})"


def _trominoes(neighbours: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int, int], ...]:
    # On a square lattice three cells can never be pairwise adjacent, so every tromino is a path
    # with a unique middle pea: one per pair of that pea's neighbours.
    found = set()
    for middle, nbrs in enumerate(neighbours):
        for x in range(len(nbrs)):
            for y in range(x + 1, len(nbrs)):
                found.add(tuple(sorted((nbrs[x], middle, nbrs[y]))))
    return tuple(sorted(found))


def adjacency(layout: Layout) -> dict[Pos, frozenset[Pos]]:
    """Each pea mapped to the set of its orthogonal neighbours."""
    return {
        pea: frozenset(layout.order[j] for j in layout.neighbours[i])
        for i, pea in enumerate(layout.order)
    }


def edges(layout: Layout) -> frozenset[frozenset[Pos]]:
    """The adjacency graph as a set of unordered pea pairs."""
    return frozenset(
        frozenset((layout.order[i], layout.order[j]))
        for i, nbrs in enumerate(layout.neighbours)
        for j in nbrs
        if i < j
    )


def pod_shapes(layout: Layout) -> tuple[frozenset[Pos], ...]:
    """Every set of 3 continuously adjacent peas (straight or bent), in a fixed order."""
    return tuple(frozenset(layout.order[i] for i in t) for t in layout.trominoes)


def is_pod_shape(layout: Layout, peas: Iterable[Pos]) -> bool:
    """True if ``peas`` are 3 peas of the layout, A next to B next to C."""
    peas = frozenset(peas)
    if len(peas) != POD_SIZE or not peas <= layout.peas:
        return False
    return tuple(sorted(layout.index[p] for p in peas)) in layout.tromino_set


def difficulty_text(mean_smushed: float) -> str:
    """The card's difficulty line, e.g. ``expected smushed peas about 3`` (to the nearest half)."""
    if mean_smushed < 0:
        raise ValueError(f"a mean number of smushed peas cannot be negative: {mean_smushed}")
    halves = round(mean_smushed * 2)
    number = str(halves // 2) if halves % 2 == 0 else f"{halves / 2:.1f}"
    return f"expected smushed peas about {number}"


# --------------------------------------------------------------------------- presets
#
# Every preset fits a 7 x 5 lattice, which at a 15 mm pitch (12 mm peas) takes 102 x 72 mm of
# an A6 card (148 x 105 mm) and leaves room for the title, tally box and rules.  Measured
# difficulty hardly depends on size: with pods as free passes the smushes come from the last
# few peas, so almost every card ends near 2; cards with dead-end peas (the sprout) are easier.

LAYOUTS: dict[str, Layout] = {
    # The fullest card that fits: 35 peas, 142 pod shapes, about 26 turns.
    "default": Layout.rectangle(5, 7),
    # A sprout: a stem with single leaves, whose dead ends stay easy to fill late in the game.
    "easy": Layout.parse("o.o.o.o/ooooooo/o.o.o.o"),
    # A pea pod, pointed at both ends.
    "pod": Layout.parse(".ooooo./ooooooo/.ooooo."),
    "heart": Layout.parse(".oo.oo./ooooooo/ooooooo/.ooooo./..ooo.."),
}
DEFAULT_LAYOUT_NAME = "default"
DEFAULT_LAYOUT = LAYOUTS[DEFAULT_LAYOUT_NAME]

# Mean smushed peas of each preset: analyse_layout(layout, games=400, seed=0, policy="lookahead").
# A slow test re-measures them with another seed; re-run that call if a rule or policy changes.
EXPECTED_SMUSHED: dict[str, float] = {
    "default": 1.93,  # sd 1.08, 0-5, no smush in 8.8 % of games (greedy: 2.09)
    "easy": 1.54,  # sd 0.99, 0-5, 15.5 % perfect (greedy: 1.55)
    "pod": 1.94,  # sd 1.00, 0-5, 7.8 % perfect (greedy: 2.13)
    "heart": 1.95,  # sd 0.97, 0-5, 5.2 % perfect (greedy: 2.22)
}


def resolve_layout(text: str) -> Layout:
    """A preset layout by name (see ``LAYOUTS``), or else a mask such as ``ooo/o.o/ooo``."""
    name = text.strip()
    if name in LAYOUTS:
        return LAYOUTS[name]
    if set(name) - set("o./\n\r\t "):
        raise LayoutError(
            f"{text!r} is neither a preset ({', '.join(LAYOUTS)}) nor a mask of 'o' and '.'"
        )
    return Layout.parse(name)


# The words a card prints about the rules (its layout sets them; its check reads them back word for word).
# The front's short rules.
CARD_SUMMARY = (
    "Each turn roll 2 dice and write each value in a different empty pea, exactly 1 more or 1 less "
    "than every filled neighbour (left, right, up, down; ignore smushed peas and peas in pods). "
    "Can't or won't? Smush any pea: cross it out. Or spend the roll circling 3 adjacent peas as a "
    "pod (straight or bent, no overlap): its filled peas must share one value, and its empty peas "
    "take only that value, whatever their neighbours. When every pea is filled or smushed, count "
    "the smushed peas: lower is better. None makes Peater proud!"
)

# The full rules for the back (shared/rules/breakfast-shy.md, our reading of the original text).
FULL_RULES: tuple[tuple[str, str], ...] = (
    (
        "You need",
        "Two six-sided dice and a pencil. The circles are peas. Two peas are neighbours when one is "
        "directly left, right, above or below the other, never diagonally.",
    ),
    (
        "Each turn",
        "Roll both dice. Then EITHER use each die on its own, placing its value or smushing a pea, "
        "OR spend the whole roll on creating one pod.",
    ),
    (
        "Placing a value",
        "Write the die's value in an empty pea; the two dice go in two different peas. Outside a pod "
        "the value must be exactly 1 higher or 1 lower than every filled neighbour. Ignore "
        "neighbours that are smushed or in a pod. Next to a 1 only a 2 fits; next to a 1 and a 4 "
        "nothing does.",
    ),
    (
        "Smushing",
        "If you cannot or choose not to place a die, smush any pea that is not smushed yet, filled "
        "or empty, in a pod or not: cross it out. A smushed pea holds no value any more.",
    ),
    (
        "Pods",
        "Instead of using the roll, circle 3 peas in a line or an L (A next to B, B next to C), "
        "filled, empty or smushed. Pods never overlap. The filled peas of a new pod must all hold "
        "the same value, the pod's value. An empty pea in a pod takes only the pod's value, "
        "whatever its neighbours; in a pod with no value yet, the first value placed becomes its "
        "value. A pod keeps its value even if that pea is smushed later.",
    ),
    (
        "End and score",
        "The harvest is complete when every pea is filled or smushed. Your score is the number of "
        "smushed peas: lower is better. Complete the harvest without smushing a pea to make Peater proud!",
    ),
)

