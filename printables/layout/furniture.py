"""Sheet furniture shared by every printable: calibration ruler, footer and the publisher's box."""

from __future__ import annotations

from functools import lru_cache

from printables import __version__
from printables.layout.language import active_lang, in_page_language
from printables.linebreak import glue_words
from printables.layout.primitives import Item, Line, Rect, Text, line_height_mm, text_width_mm, wrap
from printables.rules.facts import GameFacts

RULER_LENGTH_MM = 100.0
RULER_CAPTION = "print at 100 % / actual size: this line must measure 100 mm"
RULER_HEIGHT_MM = 9.0
FOOTER_HEIGHT_MM = 5.0
FURNITURE_HEIGHT_MM = RULER_HEIGHT_MM + FOOTER_HEIGHT_MM + 2.0
RULER_TEXT_BELOW_MM = 3.5  # the ruler's words' baseline under its line: their tops keep 1.5 mm from it
RULER_PT = 6.5  # the smallest text of a sheet: nothing is printed under 6 pt
FOOTER_PT = 7.0

BOX_HEADING = "About the game"
BOX_PT = 8.0  # body text of a sheet is 8 pt or more
BOX_PAD_MM = 1.7  # left, right and below the text: its ink keeps 1.5 mm from the box's stroke
COMPACT_PAD_MM = 1.7  # the same on a postcard
# Above the first line: its baseline sits 0.8 of a line down, so its capitals (and Hangul) already
# stand clear of the stroke by more than this: 1.5 mm on a sheet (the foot as tall as it was), 1.3
# on a postcard.
BOX_PAD_TOP_MM = 1.5
COMPACT_PAD_TOP_MM = 1.3
BOX_GAP_MM = 3.0  # between the box and the ruler under it
BOX_LINE_MM = 0.25
BOX_GREY = 0.45
HEADING_GAP_MM = 2.0


def calibration_ruler(x: float, y: float) -> tuple[Item, ...]:
    """A 100 mm ruler with 10 mm ticks, its baseline at ``y``, starting at ``x``."""
    items: list[Item] = [Line(x, y, x + RULER_LENGTH_MM, y, line_mm=0.3)]
    for mm in range(0, int(RULER_LENGTH_MM) + 1, 5):
        tick = 2.5 if mm % 10 == 0 else 1.2
        items.append(Line(x + mm, y, x + mm, y - tick, line_mm=0.2))
    items.append(Text(x, y + RULER_TEXT_BELOW_MM, "0", size_pt=RULER_PT))
    items.append(Text(x + RULER_LENGTH_MM, y + RULER_TEXT_BELOW_MM, "100 mm", size_pt=RULER_PT, anchor="end"))
    items.append(Text(x + RULER_LENGTH_MM / 2, y + RULER_TEXT_BELOW_MM, RULER_CAPTION, size_pt=RULER_PT, anchor="middle"))
    return tuple(items)


def _box_lines(facts: GameFacts, width: float, size_pt: float, compact: bool,
               extra: tuple[str, ...]) -> list[tuple[float, str, str]]:
    """(x offset, font, text) runs of the box: one paragraph led by the bold heading, "Label: value"
    entries and the extra sentences joined by " · ", wrapped to the box's inner width."""
    inner = width - 2 * _pad(compact)
    # The heading is set apart by a gap wider than a word space, so a reader (and pdfplumber) sees
    # separate words.
    indent = text_width_mm(BOX_HEADING, size_pt, "Helvetica-Bold") + HEADING_GAP_MM
    entries = [f"{label}: {value}" for label, value in facts.entries()] + list(extra)
    paragraph = in_page_language(" · ".join(entries))
    lines = _broken(active_lang(), paragraph, inner - indent, inner, size_pt)
    runs = [(0.0, "Helvetica-Bold", BOX_HEADING)]
    runs += [(indent if i == 0 else 0.0, "Helvetica", line) for i, line in enumerate(lines)]
    return runs


@lru_cache(maxsize=256)
def _broken(lang: str, paragraph: str, first_mm: float, width_mm: float, size_pt: float) -> tuple[str, ...]:
    """The box's paragraph broken into lines, the first ``first_mm`` wide, the others ``width_mm``.

    Layouts ask for the same box again and again while they fit a page (its height, then its
    lines), so the breaking is kept per language, text and widths: the widths ``text_width_mm``
    gives depend on nothing else (``lang`` is the language being drawn in).
    """
    lines: list[str] = []
    for word in glue_words(paragraph.split()):  # a lone '·' stays with the word before it
        if lines and text_width_mm(f"{lines[-1]} {word}", size_pt) <= (first_mm if len(lines) == 1 else width_mm):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


def _pad(compact: bool) -> float:
    return COMPACT_PAD_MM if compact else BOX_PAD_MM


def _pad_top(compact: bool) -> float:
    return COMPACT_PAD_TOP_MM if compact else BOX_PAD_TOP_MM


def publisher_box_height(facts: GameFacts, width: float, size_pt: float = BOX_PT, compact: bool = False,
                         extra: tuple[str, ...] = ()) -> float:
    """Height in mm of the publisher's box drawn ``width`` mm wide."""
    lines = len(_box_lines(facts, width, size_pt, compact, extra)) - 1  # the heading leads the first line
    return lines * line_height_mm(size_pt, 1.2) + _pad_top(compact) + _pad(compact)


def publisher_box(x: float, y: float, width: float, facts: GameFacts, size_pt: float = BOX_PT,
                  compact: bool = False, colour=0.0, extra: tuple[str, ...] = ()) -> tuple[Item, ...]:
    """The publisher's box, top-left at ``(x, y)``: players, time, age, what else, design, publisher.

    ``compact`` (for postcards) has a narrower padding; ``extra`` sentences follow the facts (a
    card's layout and difficulty, Patchwork's cardstock advice).
    """
    height = publisher_box_height(facts, width, size_pt, compact, extra)
    step = line_height_mm(size_pt, 1.2)
    items: list[Item] = [Rect(x, y, width, height, stroke=BOX_GREY, fill=None, line_mm=BOX_LINE_MM)]
    baseline = y + _pad_top(compact) + 0.8 * step
    (_, bold, heading), *runs = _box_lines(facts, width, size_pt, compact, extra)
    items.append(Text(x + _pad(compact), baseline, heading, size_pt=size_pt, font=bold, colour=colour))
    for offset, font, line in runs:
        items.append(Text(x + _pad(compact) + offset, baseline, line, size_pt=size_pt, font=font, colour=colour))
        baseline += step
    return tuple(items)


def furniture_height(width: float, facts: GameFacts | None = None, extra: tuple[str, ...] = ()) -> float:
    """Room the page foot needs: ruler and footer, and the publisher's box above them if given."""
    if facts is None:
        return FURNITURE_HEIGHT_MM
    return FURNITURE_HEIGHT_MM + publisher_box_height(facts, width, extra=extra) + 2 * BOX_GAP_MM  # air above and below


def footer(page_width: float, page_height: float, margin: float, text: str, facts: GameFacts | None = None,
           extra: tuple[str, ...] = ()) -> tuple[Item, ...]:
    """The ruler and a footer line naming game, parameters and tool version at the page's foot.

    With ``facts`` the publisher's box stands above the ruler, across the page between the margins.
    """
    baseline = page_height - margin
    ruler_y = baseline - line_height_mm(7) - 5.5
    items: list[Item] = []
    if facts is not None:
        width = page_width - 2 * margin
        top = page_height - margin - furniture_height(width, facts, extra) + BOX_GAP_MM
        items += publisher_box(margin, top, width, facts, extra=extra)
    items += calibration_ruler(margin, ruler_y)
    items.append(Text(margin, baseline, f"{text} · printables {__version__}", size_pt=FOOTER_PT, colour=0.25))
    return tuple(items)
