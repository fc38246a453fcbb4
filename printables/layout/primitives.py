"""Drawing primitives as plain data, in millimetres, origin at the page's top-left, y downwards."""

from __future__ import annotations

from dataclasses import field
from typing import Union

from printables.layout.language import width_active, wrap_active
from printables.records import FACTORY, frozen_record, set_field

# A colour is a grey level (0 black .. 1 white) or an (r, g, b) triple of 0..1 floats.
Colour = Union[float, tuple[float, float, float]]
BLACK: Colour = 0.0
WHITE: Colour = 1.0

PT_TO_MM = 25.4 / 72

# Frozen records (printables/records.py): each writes the __init__ @dataclass(frozen=True) would
# write, its defaults the fields' own objects.


@frozen_record
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

    def __init__(self, x, y, w, h, stroke=stroke, fill=fill, line_mm=line_mm, dash_mm=dash_mm):
        set_field(self, "x", x)
        set_field(self, "y", y)
        set_field(self, "w", w)
        set_field(self, "h", h)
        set_field(self, "stroke", stroke)
        set_field(self, "fill", fill)
        set_field(self, "line_mm", line_mm)
        set_field(self, "dash_mm", dash_mm)


@frozen_record
class Line:
    """A straight segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = BLACK
    line_mm: float = 0.25
    dash_mm: tuple[float, ...] | None = None

    def __init__(self, x1, y1, x2, y2, stroke=stroke, line_mm=line_mm, dash_mm=dash_mm):
        set_field(self, "x1", x1)
        set_field(self, "y1", y1)
        set_field(self, "x2", x2)
        set_field(self, "y2", y2)
        set_field(self, "stroke", stroke)
        set_field(self, "line_mm", line_mm)
        set_field(self, "dash_mm", dash_mm)


@frozen_record
class Circle:
    """A circle by centre and radius."""

    cx: float
    cy: float
    r: float
    stroke: Colour | None = BLACK
    fill: Colour | None = None
    line_mm: float = 0.25

    def __init__(self, cx, cy, r, stroke=stroke, fill=fill, line_mm=line_mm):
        set_field(self, "cx", cx)
        set_field(self, "cy", cy)
        set_field(self, "r", r)
        set_field(self, "stroke", stroke)
        set_field(self, "fill", fill)
        set_field(self, "line_mm", line_mm)


@frozen_record
class Polygon:
    """A polygon (closed) or polyline (open) through points."""

    points: tuple[tuple[float, float], ...]
    stroke: Colour | None = BLACK
    fill: Colour | None = None
    line_mm: float = 0.25
    closed: bool = True

    def __init__(self, points, stroke=stroke, fill=fill, line_mm=line_mm, closed=closed):
        set_field(self, "points", points)
        set_field(self, "stroke", stroke)
        set_field(self, "fill", fill)
        set_field(self, "line_mm", line_mm)
        set_field(self, "closed", closed)


@frozen_record
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

    def __init__(self, x, y, text, size_pt=size_pt, font=font, anchor=anchor, colour=colour, angle=angle):
        set_field(self, "x", x)
        set_field(self, "y", y)
        set_field(self, "text", text)
        set_field(self, "size_pt", size_pt)
        set_field(self, "font", font)
        set_field(self, "anchor", anchor)
        set_field(self, "colour", colour)
        set_field(self, "angle", angle)


Item = Union[Rect, Line, Circle, Polygon, Text]


@frozen_record
class Page:
    """One page: its size in mm and what is drawn on it, in drawing order."""

    width: float
    height: float
    items: tuple[Item, ...]

    def __init__(self, width, height, items):
        set_field(self, "width", width)
        set_field(self, "height", height)
        set_field(self, "items", items)


@frozen_record
class Document:
    """A whole PDF: pages plus the metadata a checker reads back."""

    pages: tuple[Page, ...]
    title: str
    subject: str
    keywords: str
    metadata: dict = field(default_factory=dict)

    def __init__(self, pages, title, subject, keywords, metadata=FACTORY):
        set_field(self, "pages", pages)
        set_field(self, "title", title)
        set_field(self, "subject", subject)
        set_field(self, "keywords", keywords)
        set_field(self, "metadata", dict() if metadata is FACTORY else metadata)


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
            moved.append(_replace(item, x=item.x + dx, y=item.y + dy))
        elif isinstance(item, Line):
            moved.append(_replace(item, x1=item.x1 + dx, y1=item.y1 + dy, x2=item.x2 + dx, y2=item.y2 + dy))
        elif isinstance(item, Circle):
            moved.append(_replace(item, cx=item.cx + dx, cy=item.cy + dy))
        elif isinstance(item, Polygon):
            moved.append(_replace(item, points=tuple((x + dx, y + dy) for x, y in item.points)))
        elif isinstance(item, Text):
            moved.append(_replace(item, x=item.x + dx, y=item.y + dy))
        else:  # pragma: no cover - every primitive is handled above
            raise TypeError(f"unknown primitive {item!r}")
    return tuple(moved)


def _replace(item, **changes):
    from dataclasses import replace

    return replace(item, **changes)
