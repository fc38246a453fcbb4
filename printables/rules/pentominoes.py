"""The 12 free pentominoes, their 63 fixed orientations and their placements on a grid.

Cells are ``(x, y)`` pairs: ``x`` is the column from the left, ``y`` the row from the top.
A shape is a ``frozenset`` of cells normalised so that its smallest ``x`` and ``y`` are 0.
Placements on a ``width x height`` grid are Python ints used as bitboards: bit ``y * width + x``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

Cell = tuple[int, int]
Shape = frozenset[Cell]

LETTERS = "FILNPTUVWXYZ"
# The Bitcoin Magazine article calls X "+"; every place that takes a letter accepts both.
LETTER_ALIASES = {"+": "X"}

_PICTURES = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("#.", "#.", "#.", "##"),
    "N": ("##..", ".###"),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": (".#", "##", ".#", ".#"),
    "Z": ("##.", ".#.", ".##"),
}


class UnknownPentomino(ValueError):
    """A letter or a shape that is not one of the 12 free pentominoes."""


def shape_from_picture(rows: Iterable[str]) -> Shape:
    """Build a normalised shape from rows of ``#`` (cell) and ``.`` (no cell)."""
    return normalise((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#")


def normalise(cells: Iterable[Cell]) -> Shape:
    """Translate cells so that the smallest x and y are 0."""
    cells = tuple(cells)
    if not cells:
        return frozenset()
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return frozenset((x - min_x, y - min_y) for x, y in cells)


def _symmetries(shape: Shape) -> tuple[Shape, ...]:
    # The eight elements of the square's symmetry group: four rotations, each optionally mirrored.
    images = []
    for mirror in (False, True):
        cells = frozenset((-x, y) for x, y in shape) if mirror else shape
        for _ in range(4):
            cells = frozenset((-y, x) for x, y in cells)
            images.append(normalise(cells))
    return tuple(images)


def _sort_key(shape: Shape) -> tuple[Cell, ...]:
    return tuple(sorted((y, x) for x, y in shape))


def fixed_orientations(shape: Iterable[Cell]) -> tuple[Shape, ...]:
    """The distinct rotations and reflections of a shape, in a deterministic order."""
    distinct = set(_symmetries(normalise(shape)))
    return tuple(sorted(distinct, key=_sort_key))


def canonical(shape: Iterable[Cell]) -> Shape:
    """The representative of a shape's free class: equal for two shapes iff they are congruent."""
    return min(_symmetries(normalise(shape)), key=_sort_key)


def size(shape: Shape) -> tuple[int, int]:
    """Bounding box of a normalised shape as ``(width, height)``."""
    return (max(x for x, _ in shape) + 1, max(y for _, y in shape) + 1)


def picture(shape: Shape) -> str:
    """Rows of ``#`` and ``.`` for a shape (the inverse of :func:`shape_from_picture`)."""
    shape = normalise(shape)
    width, height = size(shape)
    return "\n".join(
        "".join("#" if (x, y) in shape else "." for x in range(width)) for y in range(height)
    )


PENTOMINOES: dict[str, Shape] = {letter: shape_from_picture(_PICTURES[letter]) for letter in LETTERS}
ORIENTATIONS: dict[str, tuple[Shape, ...]] = {
    letter: fixed_orientations(shape) for letter, shape in PENTOMINOES.items()
}
_BY_CANONICAL: dict[Shape, str] = {canonical(shape): letter for letter, shape in PENTOMINOES.items()}


def parse_letter(text: str) -> str:
    """The pentomino letter named by ``text`` (case-insensitive; ``+`` is an alias of X)."""
    letter = LETTER_ALIASES.get(text.strip(), text.strip().upper())
    if letter not in PENTOMINOES:
        raise UnknownPentomino(
            f"{text!r} is not a pentomino letter; use one of {', '.join(LETTERS)} (or + for X)"
        )
    return letter


def identify(shape: Iterable[Cell]) -> str | None:
    """The letter of the free pentomino congruent to ``shape``, or None if it is none of them."""
    cells = frozenset(shape)
    if len(cells) != 5:
        return None
    return _BY_CANONICAL.get(canonical(cells))


def shape_mask(shape: Iterable[Cell], width: int) -> int:
    """The bitboard of a shape on a grid ``width`` cells wide."""
    mask = 0
    for x, y in shape:
        mask |= 1 << (y * width + x)
    return mask


def mask_cells(mask: int, width: int) -> frozenset[Cell]:
    """The cells of a bitboard on a grid ``width`` cells wide."""
    cells = []
    index = 0
    while mask:
        if mask & 1:
            cells.append((index % width, index // width))
        mask >>= 1
        index += 1
    return frozenset(cells)


@lru_cache(maxsize=4096)
def placements(letter: str, width: int, height: int) -> tuple[int, ...]:
    """Every placement of a pentomino fully inside an empty ``width x height`` grid, as bitboards."""
    result = []
    for shape in ORIENTATIONS[parse_letter(letter)]:
        w, h = size(shape)
        base = shape_mask(shape, width)
        for y in range(height - h + 1):
            for x in range(width - w + 1):
                result.append(base << (y * width + x))
    return tuple(result)


def can_place_anywhere(letter: str, width: int, height: int) -> bool:
    """Whether the pentomino fits an empty ``width x height`` grid in some orientation."""
    return bool(placements(letter, width, height))
