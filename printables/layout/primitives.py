"""Drawing primitives as plain data, in millimetres, origin at the page's top-left, y downwards."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

from printables.layout.language import width_active, wrap_active

# A colour is a grey level (0 black .. 1 white) or an (r, g, b) triple of 0..1 floats.
Colour = Union[float, tuple[float, float, float]]
BLACK: Colour = 0.0
WHITE: Colour = 1.0

PT_TO_MM = 25.4 / 72


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle."""

    x: float
    y: float
    w: float
    h: float
    stroke: Colour | None = BLACK
    fill: Colour | None = None
    line_mm: float = 0.25
    dash_mm: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A straight segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = BLACK
    line_mm: float = 0.25
    dash_mm: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle by centre and radius."""

    cx: float
    cy: float
    r: float
    stroke: Colour | None = BLACK
    fill: Colour | None = None
    line_mm: float = 0.25


@dataclass(frozen=True, slots=True)
class Polygon:
    """A polygon (closed) or polyline (open) through points."""

    points: tuple[tuple[float, float], ...]
    stroke: Colour | None = BLACK
    fill: Colour | None = None
    line_mm: float = 0.25
    closed: bool = True


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; ``y`` is the baseline, ``anchor`` is start, middle or end."""

    x: float
    y: float
    text: str
    size_pt: float = 9.0
    font: str = "Helvetica"
    anchor: str = "start"
    colour: Colour = BLACK
    angle: float = 0.0  # degrees anticlockwise about (x, y): 90 reads from bottom to top


Item = Union[Rect, Line, Circle, Polygon, Text]


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its size in mm and what is drawn on it, in drawing order."""

    width: float
    height: float
    items: tuple[Item, ...]


@dataclass(frozen=True, slots=True)
class Document:
    """A whole PDF: pages plus the metadata a checker reads back."""

    pages: tuple[Page, ...]
    title: str
    subject: str
    keywords: str
    metadata: dict = field(default_factory=dict)


def text_width_mm(text: str, size_pt: float, font: str = "Helvetica") -> float:
    """The width of ``text`` in mm, from the embedded font's own advance widths (in the language the
    sheet is being drawn in: printables/i18n)."""
    from printables import fonts

    localised = width_active(text, size_pt, font)
    if localised is not None:
        return localised
    return fonts.text_width_mm(text, size_pt, font)


def wrap(text: str, width_mm: float, size_pt: float, font: str = "Helvetica") -> list[str]:
    """Split prose into lines no wider than ``width_mm`` at ``size_pt``, measured with the real font
    (a paragraph of a sheet drawn in another language is translated first: printables/i18n)."""
    localised = wrap_active(text, width_mm, size_pt, font)
    if localised is not None:
        return localised
    from printables import fonts

    # English: widths add up in whole font units (advances, no kerning), so a line is measured
    # once, not again for every word added to it, and each word once per text (layouts try a
    # paragraph at many widths).
    lines: list[str] = []
    line_units = 0
    words, plain, spaced = fonts.word_units(text, font)
    per_em, pt_to_mm = fonts.units_per_em(font), fonts.PT_TO_MM  # fonts.units_to_mm, written out
    for i, word in enumerate(words):
        if lines:
            units = line_units + spaced[i]
            if units / per_em * size_pt * pt_to_mm <= width_mm:
                lines[-1] = f"{lines[-1]} {word}"
                line_units = units
                continue
        lines.append(word)
        line_units = plain[i]
    return lines


def line_height_mm(size_pt: float, leading: float = 1.25) -> float:
    """Baseline-to-baseline distance in mm for text of ``size_pt``."""
    return size_pt * leading * PT_TO_MM


def translate(items, dx: float, dy: float) -> tuple[Item, ...]:
    """Items moved by ``(dx, dy)`` mm."""
    moved = []
    for item in items:
        if isinstance(item, Rect):
            moved.append(replace(item, x=item.x + dx, y=item.y + dy))
        elif isinstance(item, Line):
            moved.append(replace(item, x1=item.x1 + dx, y1=item.y1 + dy, x2=item.x2 + dx, y2=item.y2 + dy))
        elif isinstance(item, Circle):
            moved.append(replace(item, cx=item.cx + dx, cy=item.cy + dy))
        elif isinstance(item, Polygon):
            moved.append(replace(item, points=tuple((x + dx, y + dy) for x, y in item.points)))
        elif isinstance(item, Text):
            moved.append(replace(item, x=item.x + dx, y=item.y + dy))
        else:  # pragma: no cover - every primitive is handled above
            raise TypeError(f"unknown primitive {item!r}")
    return tuple(moved)
