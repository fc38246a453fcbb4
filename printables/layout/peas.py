"""Breakfast Shy postcards as layout data: the peas, title, tally box, rules and difficulty.

A card is drawn in its own coordinates (trim box from (0, 0) to the postcard's size, the bleed
outside it) and then placed on a page: alone on a page of its own size, or several up on A4 or
Letter with crop marks.

Drawing conventions the checker reads back (printables/check/peas.py):
- a card's top band and bottom stripe are rectangles filled with ``BAND_RGB`` that run over the
  trim by the bleed on three sides, so the trim box is the band's sides, its top and the stripe's
  bottom, each moved in by the bleed;
- a pea is a circle at least ``MIN_PEA_MM`` across; every other circle (Peater on the band, his
  eyes) is smaller;
- every crop mark is a line exactly ``MARK_LENGTH_MM`` long on the extension of a cut line;
- every card face has a ``SCALE_BAR_MM`` scale bar with the words "print at 100 % / actual size".

Calibration: a card's edge is 105 mm or less, too short for the 100 mm ruler with room to spare, so
every card face carries a 50 mm scale bar and its caption; a sheet of cards also carries the
100 mm ruler and footer in its page margin when the margin has room for them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from printables import __version__
from printables.errors import ParameterError
from printables.layout.furniture import FURNITURE_HEIGHT_MM, footer, publisher_box, publisher_box_height
from printables.layout.primitives import (
    BLACK,
    WHITE,
    Circle,
    Colour,
    Document,
    Item,
    Line,
    Page,
    Polygon,
    Rect,
    Text,
    line_height_mm,
    text_width_mm,
    translate,
    wrap,
)
from printables.layout.sheet import PAGE_MARGIN_MM
from printables.params.peas import (
    BAND_RGB,
    MARK_LENGTH_MM,
    MARK_LINE_MM,
    MARK_OFFSET_MM,
    MAX_PEA_MM,
    MIN_PEA_MM,
    Imposition,
    PAPER_WORDS,
    POSTCARD_WORDS,
    PeaCard,
    expected_smushed,
)
from printables.rules import peas as rules
from printables.measured import facts_for

KIND = "peas"
TITLE = "Breakfast Shy"
SUBTITLE = "a solitaire roll-and-write for two dice and a pencil"
BACK_TITLE = "How to play"

SAFE_MM = 6.0  # nothing but the band and stripe comes closer to the trim at the sides than this
PEATER_CY_MM = 10.0  # low enough on the band that his leaf stays 4 mm inside the trim
BAND_MM = 15.0
STRIPE_MM = 2.5
BODY_GAP_MM = 3.5  # between blocks of the body
BODY_TOP_MM = 2.5  # between the band and the body (the pea block and the tally box: no text at its top)
AUTO_MAX_PEA_MM = 14.0  # the largest pea chosen unless asked for: larger only wastes card
PEA_STEP_MM = 0.5
PEA_GAP_RATIO = 0.22  # air between peas, as a share of the pea: room to pencil a pod around three
MIN_PEA_GAP_MM = 2.5
COLUMN_MIN_MM = 40.0  # a column of rules narrower than this reads badly
COLUMN_MAX_MM = 56.0
TALLY_H_MM = 15.0
TALLY_CAPTION = "tally each cross here"
TALLY_CLEAR_MM = 1.6  # between the tally box's bottom and the top of the rules' first line under it
TALLY_W_MM = 46.0  # when the tally box sits under the peas
SCORE_BOX_MM = 9.0
SCALE_BAR_MM = 50.0
SCALE_CAPTION = "print at 100 % / actual size: this bar is 50 mm"

# Text sizes: the rules are body text, 7 pt or more on a card; nothing on a card is under 6 pt.
SUMMARY_SIZES_PT = (7.5, 7.2, 7.0)  # the front's rules paragraph at the largest size that fits
INFO_PT = 7.0
CAPTION_PT = 6.0
BOX_PT = 7.0  # the publisher's box in the card's foot: with the rules, the body text of the card
TITLE_PT = 17.0
BACK_SIZES_PT = (7.5, 7.2, 7.0)  # the back's rules at the largest size that fits
TRIM_SAFE_MM = 4.0  # text, peas and Peater keep at least this far inside the trim
FINE_BASELINE_MM = 4.8  # the caption's baseline above the trim: its descenders stay 4 mm in
BOX_CLEAR_MM = 1.8  # between the body's last line and the publisher's box: its descenders keep 1.5 mm
BAR_GAP_MM = 3.4  # between the publisher's box and the scale bar under it: the caption beside the bar keeps 1.5 mm from the box
# A print-shop card's slug (MARK_OFFSET_MM + MARK_LENGTH_MM beyond the bleed): the scale bar's and
# caption's baseline this far beyond the bleed, their ends this far clear of a crop mark.
SLUG_BASELINE_MM = 4.2
SLUG_MARK_CLEAR_MM = 2.0
BOX_TRIM_MM = TRIM_SAFE_MM + 0.5  # a print-shop card's box bottom above the trim: its outline clear of the safe zone
BACK_COLUMN_MIN_MM = 55.0  # a card this wide per column gets two columns of rules on its back
BLOCK_GAP_MM = 1.4  # between the paragraphs of the back
PEATER_WORDS = ("smush no pea", "and make Peater proud!")
PEATER_WORDS_MIN_CARD_MM = 140.0
WORST_MEAN = 88.5  # a mean whose difficulty line is as long as any card's

DARK_GREEN: Colour = (0.16, 0.3, 0.08)
PEA_FILL: Colour = (0.9, 0.96, 0.82)
PEA_STROKE: Colour = (0.28, 0.48, 0.16)
PEATER_FILL: Colour = (0.73, 0.88, 0.46)
CHEEK: Colour = (0.96, 0.62, 0.6)
PALE_TEXT: Colour = (0.93, 0.97, 0.87)
INK_GREY: Colour = 0.28
MARK_GREY: Colour = 0.0

SUMMARY = rules.CARD_SUMMARY  # the words live in the rule core, where the check reads them

FULL_RULES = rules.FULL_RULES


# --------------------------------------------------------------------------- text of the card


def layout_line(card: PeaCard) -> str:
    """The line naming the layout: the printables default, a preset, a rectangle or a mask."""
    layout = card.card_layout().normalised()
    name = card.layout_name()
    count = f"{len(layout)} peas"
    if name == rules.DEFAULT_LAYOUT_NAME:
        shape = f"{layout.rows} x {layout.cols}, " if card.is_rectangle() else ""
        return f"Layout: printables default ({shape}{count})."
    if name is not None:
        return f"Layout: {name} (a printables preset, {count})."
    if card.is_rectangle():
        return f"Layout: {layout.rows} x {layout.cols} rectangle ({count})."
    return f"Layout: your own mask ({count})."


def difficulty_line(mean: float) -> str:
    """The measured difficulty as printed on the card."""
    return f"Difficulty: {rules.difficulty_text(mean)} (simulated games)."


POSTCARD_NAMES = POSTCARD_WORDS
PAPER_NAMES = PAPER_WORDS


# --------------------------------------------------------------------------- planning the front


@dataclass(frozen=True)
class CardPlan:
    """Where the blocks of a card's front go: pea size and pitch, arrangement and text lines."""

    pea: float
    pitch: float
    arrangement: str  # "side": rules in a column right of the peas; "stacked": rules below them
    column_w: float  # width of the rules column (side) or of the rules beside the tally box (stacked)
    summary_pt: float
    summary: tuple[str, ...]  # the rules' lines: in the column (side) or under the tally box (stacked)
    info: tuple[str, ...]  # side: notes under the rules; stacked: the rules' first lines, beside the tally box
    body_top: float
    body_bottom: float


def pea_pitch(pea: float) -> float:
    """Centre-to-centre distance of neighbouring peas of diameter ``pea`` mm."""
    return round(pea + max(MIN_PEA_GAP_MM, PEA_GAP_RATIO * pea), 2)


def _block(layout: rules.Layout, pea: float) -> tuple[float, float]:
    pitch = pea_pitch(pea)
    return (layout.cols - 1) * pitch + pea, (layout.rows - 1) * pitch + pea


def _lines_h(count: int, size_pt: float) -> float:
    return count * line_height_mm(size_pt, 1.2)


def _about(card: PeaCard, mean: float) -> tuple[str, str]:
    """The card's own lines of its publisher's box: which layout, how hard."""
    return layout_line(card), difficulty_line(mean)


def box_facts(card: PeaCard):
    """The card's publisher's box: the game's facts and, for a preset layout, its simulated length."""
    name = card.layout_name()
    return facts_for(KIND) if name is None else facts_for(KIND, layout=name)


def is_print_shop(card: PeaCard) -> bool:
    """One card per page with a bleed, for a print shop: its scale bar and fine print stand in the
    slug beyond the bleed (where the crop marks are), so nothing but the card is inside the trim."""
    return bool(card.bleed) and card.paper == "none"


def _caption(card: PeaCard) -> str:
    """The scale bar's caption followed by the fine print: card format and tool version."""
    turn = "landscape" if card.landscape else "portrait"
    return f"{SCALE_CAPTION} · {POSTCARD_NAMES[card.postcard]} {turn} · printables {__version__}"


def _bar_y(card: PeaCard, beside: bool) -> float:
    """The scale bar's baseline: on the caption's line, or above it when the caption does not fit beside."""
    _, card_h = card.card_size_mm()
    y = card_h - FINE_BASELINE_MM
    return y if beside else y - line_height_mm(CAPTION_PT, 1.3) - 0.6


@lru_cache(maxsize=16)  # planning a card tries some hundred sizes of one card: measure its foot once
def _foot(card: PeaCard, box: bool = True) -> tuple[float, bool]:
    """Height above the stripe of the foot (publisher's box on the front, scale bar and caption),
    and whether the caption is beside the bar. The box is measured with the longest difficulty line."""
    card_w, card_h = card.card_size_mm()
    if is_print_shop(card):  # the bar and caption stand in the slug: the foot is the box alone
        beside = SAFE_MM + SCALE_BAR_MM + 3 + text_width_mm(_caption(card), CAPTION_PT) <= card_w - SLUG_MARK_CLEAR_MM
        height = BOX_TRIM_MM - STRIPE_MM - (BAR_GAP_MM - 2.0)  # the box ends BOX_TRIM_MM inside the trim
    else:
        beside = SAFE_MM + SCALE_BAR_MM + 3 + text_width_mm(_caption(card), CAPTION_PT) <= card_w - SAFE_MM
        height = card_h - _bar_y(card, beside) + 2.0 - STRIPE_MM  # 2 mm: the bar's ticks
    if box:
        height += BAR_GAP_MM - 2.0 + publisher_box_height(
            box_facts(card), card_w - 2 * SAFE_MM, BOX_PT, compact=True, extra=_about(card, WORST_MEAN))
    return height, beside


def _body(card: PeaCard, box: bool = True) -> tuple[float, float, float]:
    card_w, card_h = card.card_size_mm()
    foot, _ = _foot(card, box)
    top = BAND_MM + BODY_TOP_MM
    bottom = card_h - STRIPE_MM - foot - BOX_CLEAR_MM
    return card_w - 2 * SAFE_MM, top, bottom


@lru_cache(maxsize=16)
def _normalised_layout(card: PeaCard) -> rules.Layout:
    return card.card_layout().normalised()


def _try_plan(
    card: PeaCard, pea: float, arrangement: str, info_texts: tuple[str, ...], summary_pt: float
) -> CardPlan | None:
    layout = _normalised_layout(card)
    body_w, top, bottom = _body(card)
    body_h = bottom - top
    block_w, block_h = _block(layout, pea)
    gap = BODY_GAP_MM
    if arrangement == "side":
        column_w = min(COLUMN_MAX_MM, body_w - block_w - gap)
        if column_w < COLUMN_MIN_MM or block_h > body_h:
            return None
        summary = wrap(SUMMARY, column_w, summary_pt)
        info = [line for text in info_texts for line in wrap(text, column_w, INFO_PT)]
        used = TALLY_H_MM + TALLY_CLEAR_MM + _lines_h(len(summary), summary_pt) + (1.5 + _lines_h(len(info), INFO_PT) if info else 0.0)
    else:
        # The rules start beside the tally box and run on under it at the body's full width, one
        # paragraph at one leading: the last line beside the box is followed by the first under it.
        column_w = body_w - TALLY_W_MM - gap
        if block_w > body_w:
            return None
        narrow = wrap(SUMMARY, column_w, summary_pt)
        k = beside_tally_lines(summary_pt)
        info = narrow[:k]
        summary = wrap(" ".join(narrow[k:]), body_w, summary_pt) if narrow[k:] else []
        used = block_h + gap + TALLY_H_MM + TALLY_CLEAR_MM + _lines_h(len(summary), summary_pt)
    if used > body_h + 1e-9:
        return None
    return CardPlan(pea, pea_pitch(pea), arrangement, column_w, summary_pt, tuple(summary), tuple(info), top, bottom)


def beside_tally_lines(size_pt: float) -> int:
    """How many lines of the rules stand beside the tally box on a stacked (portrait) card: as many
    as fit from the box's top down to where the full-width lines under the box begin."""
    return int((TALLY_H_MM + TALLY_CLEAR_MM) // line_height_mm(size_pt, 1.2))


def _arrangements(card: PeaCard) -> tuple[str, str]:
    # Landscape cards read best with the rules beside the peas; portrait cards with them below.
    return ("side", "stacked") if card.landscape else ("stacked", "side")


def _sizes(start: float) -> list[float]:
    count = int(round((start - MIN_PEA_MM) / PEA_STEP_MM))
    return [start - i * PEA_STEP_MM for i in range(count + 1)]


def plan_card(card: PeaCard, mean: float) -> CardPlan:
    """The card's plan: the requested pea size, or the largest up to 14 mm that fits."""
    info: tuple[str, ...] = ()  # the layout and difficulty lines stand in the publisher's box
    wanted = [card.pea_mm] if card.pea_mm is not None else _sizes(AUTO_MAX_PEA_MM)
    for pea in wanted:
        for summary_pt in SUMMARY_SIZES_PT:
            for arrangement in _arrangements(card):
                plan = _try_plan(card, pea, arrangement, info, summary_pt)
                if plan is not None:
                    return plan
    layout = card.card_layout().normalised()
    where = f"the {POSTCARD_NAMES[card.postcard]} {'landscape' if card.landscape else 'portrait'} card"
    shape = f"{layout.rows} rows x {layout.cols} columns"
    if card.pea_mm is not None:
        # To 0.1 mm, rounded down: the size said is one that fits.
        for pea in (round(MAX_PEA_MM - i / 10, 1) for i in range(int(round((MAX_PEA_MM - MIN_PEA_MM) * 10)) + 1)):
            if any(_try_plan(card, pea, a, info, SUMMARY_SIZES_PT[-1]) for a in _arrangements(card)):
                raise ParameterError(
                    f"pea {card.pea_mm:g} mm: a layout of {shape} does not fit {where}; "
                    f"the largest pea that fits is {pea:g} mm"
                )
    other = "portrait" if card.landscape else "landscape"
    raise ParameterError(
        f"layout {shape}: does not fit {where} even with {MIN_PEA_MM:g} mm peas; "
        f"try --{other}, --postcard {'4x6' if card.postcard == 'a6' else 'a6'} or a smaller layout"
    )


# --------------------------------------------------------------------------- drawing a card face


def _band(card_w: float, bleed: float, title: str, subtitle: str) -> list[Item]:
    items: list[Item] = [
        Rect(-bleed, -bleed, card_w + 2 * bleed, BAND_MM + bleed, stroke=None, fill=BAND_RGB),
        Text(SAFE_MM, 9.2, title, size_pt=TITLE_PT, font="Helvetica-Bold", colour=WHITE),
        Text(SAFE_MM, 12.8, subtitle, size_pt=6.5, font="Helvetica-Oblique", colour=PALE_TEXT),
    ]
    items += peater(card_w - SAFE_MM - 4.6, PEATER_CY_MM)
    if card_w >= PEATER_WORDS_MIN_CARD_MM:  # portrait cards have no room beside the title
        x = card_w - SAFE_MM - 11.0
        for baseline, words in zip((8.6, 12.0), PEATER_WORDS):
            items.append(Text(x, baseline, words, size_pt=6.5, font="Helvetica-Oblique", anchor="end", colour=PALE_TEXT))
    return items


def peater(cx: float, cy: float) -> list[Item]:
    """Peater, the pea who is proud of a harvest without a smush: 8.4 mm across."""
    r = 4.2
    items: list[Item] = [
        Polygon(((cx - 0.3, cy - r + 0.2), (cx + 1.7, cy - r - 1.6), (cx + 2.4, cy - r - 0.9), (cx + 0.6, cy - r + 0.4)),
                stroke=DARK_GREEN, fill=PEATER_FILL, line_mm=0.25),
        Circle(cx, cy, r, stroke=DARK_GREEN, fill=PEATER_FILL, line_mm=0.35),
        Circle(cx - 2.6, cy + 0.7, 0.65, stroke=None, fill=CHEEK),
        Circle(cx + 2.6, cy + 0.7, 0.65, stroke=None, fill=CHEEK),
    ]
    for side in (-1, 1):
        items.append(Circle(cx + side * 1.35, cy - 0.8, 0.55, stroke=None, fill=BLACK))
        items.append(Circle(cx + side * 1.35 + 0.2, cy - 1.0, 0.18, stroke=None, fill=WHITE))
    smile = tuple((cx + 1.5 * t, cy + 1.0 + 0.9 * (1 - t * t)) for t in (-1, -0.6, -0.2, 0.2, 0.6, 1))
    items.append(Polygon(smile, stroke=BLACK, fill=None, line_mm=0.3, closed=False))
    return items


def _stripe(card_w: float, card_h: float, bleed: float) -> Rect:
    return Rect(-bleed, card_h - STRIPE_MM, card_w + 2 * bleed, STRIPE_MM + bleed, stroke=None, fill=BAND_RGB)


def scale_bar(x: float, y: float, length: float = SCALE_BAR_MM) -> list[Item]:
    """A ``length`` mm scale bar with 5 mm ticks, its baseline at ``y`` from ``x``."""
    items: list[Item] = [Line(x, y, x + length, y, stroke=BLACK, line_mm=0.3)]
    for mm in range(0, int(length) + 1, 5):
        tick = 1.8 if mm % 10 == 0 else 0.9
        items.append(Line(x + mm, y, x + mm, y - tick, stroke=BLACK, line_mm=0.18))
    return items


def _slug_items(card: PeaCard, card_w: float, card_h: float, beside: bool) -> tuple[list[Item], float]:
    """The scale bar and its caption in the slug beyond the bleed (bar under the card, caption beside
    it or over the card), clear of the crop marks; and the top of the card's foot inside the trim."""
    y = card_h + card.bleed + SLUG_BASELINE_MM
    if beside:
        items: list[Item] = [Text(SAFE_MM + SCALE_BAR_MM + 3, y, _caption(card), size_pt=CAPTION_PT, colour=INK_GREY)]
    else:
        items = [Text(SLUG_MARK_CLEAR_MM, -card.bleed - SLUG_BASELINE_MM + 2.0, _caption(card), size_pt=CAPTION_PT,
                      colour=INK_GREY)]
    items += scale_bar(SAFE_MM, y)
    return items, card_h - BOX_TRIM_MM + BAR_GAP_MM


def _foot_items(card: PeaCard, card_w: float, card_h: float, mean: float, box: bool = True) -> list[Item]:
    _, beside = _foot(card)
    if is_print_shop(card):
        items, y = _slug_items(card, card_w, card_h, beside)
    else:
        y = _bar_y(card, beside)
        if beside:
            items = [Text(SAFE_MM + SCALE_BAR_MM + 3, y, _caption(card), size_pt=CAPTION_PT, colour=INK_GREY)]
        else:
            items = [Text(SAFE_MM, card_h - FINE_BASELINE_MM, _caption(card), size_pt=CAPTION_PT, colour=INK_GREY)]
        items += scale_bar(SAFE_MM, y)
    if not box:
        return items
    box_w = card_w - 2 * SAFE_MM
    about = _about(card, mean)
    facts = box_facts(card)
    top = y - BAR_GAP_MM - publisher_box_height(facts, box_w, BOX_PT, compact=True, extra=about)
    items += publisher_box(SAFE_MM, top, box_w, facts, BOX_PT, compact=True, colour=INK_GREY, extra=about)
    return items


def _tally(x: float, y: float, w: float) -> list[Item]:
    items: list[Item] = [
        Rect(x, y, w, TALLY_H_MM, stroke=DARK_GREEN, fill=None, line_mm=0.4),
        Text(x + 2.0, y + 4.2, "Smushed peas", size_pt=7.5, font="Helvetica-Bold", colour=DARK_GREEN),
    ]
    box_x = x + w - SCORE_BOX_MM - 2.0
    box_y = y + TALLY_H_MM - SCORE_BOX_MM - 2.0
    # The caption stops short of the score box: on a narrow column (or in a longer language) it takes
    # two lines, set a little higher, rather than running under the box.
    caption = wrap(TALLY_CAPTION, box_x - 1.5 - (x + 2.0), 6.0)
    first = 7.6 if len(caption) == 1 else 7.0
    for i, line in enumerate(caption):
        items.append(Text(x + 2.0, y + first + i * 2.6, line, size_pt=6.0, colour=INK_GREY))
    items.append(Rect(box_x, box_y, SCORE_BOX_MM, SCORE_BOX_MM, stroke=DARK_GREEN, fill=WHITE, line_mm=0.3))
    items.append(Text(box_x - 1.7, box_y + SCORE_BOX_MM - 0.6, "score", size_pt=6.0, anchor="end", colour=INK_GREY))
    return items


def _peas(layout: rules.Layout, x: float, y: float, pea: float, pitch: float) -> list[Item]:
    return [
        Circle(x + c * pitch + pea / 2, y + r * pitch + pea / 2, pea / 2, stroke=PEA_STROKE, fill=PEA_FILL, line_mm=0.35)
        for r, c in layout
    ]


def _text_lines(x: float, y: float, lines, size_pt: float, colour: Colour = BLACK, font: str = "Helvetica") -> list[Item]:
    step = line_height_mm(size_pt, 1.2)
    return [Text(x, y + step * (i + 0.8), line, size_pt=size_pt, font=font, colour=colour) for i, line in enumerate(lines)]


def front(card: PeaCard, plan: CardPlan, mean: float) -> list[Item]:
    """The front of one card in card coordinates (trim box from (0, 0))."""
    card_w, card_h = card.card_size_mm()
    layout = card.card_layout().normalised()
    items: list[Item] = _band(card_w, card.bleed, TITLE, SUBTITLE)
    items.append(_stripe(card_w, card_h, card.bleed))
    body_w = card_w - 2 * SAFE_MM
    top, bottom = plan.body_top, plan.body_bottom
    block_w, block_h = _block(layout, plan.pea)
    gap = BODY_GAP_MM
    summary_h = _lines_h(len(plan.summary), plan.summary_pt)
    info_h = _lines_h(len(plan.info), INFO_PT)
    if plan.arrangement == "side":
        column_x = card_w - SAFE_MM - plan.column_w
        area_w = body_w - plan.column_w - gap
        items += _peas(layout, SAFE_MM + (area_w - block_w) / 2, top + (bottom - top - block_h) / 2, plan.pea, plan.pitch)
        used = TALLY_H_MM + TALLY_CLEAR_MM + summary_h + (1.5 + info_h if plan.info else 0.0)
        y = top + (bottom - top - used) / 2
        items += _tally(column_x, y, plan.column_w)
        y += TALLY_H_MM + TALLY_CLEAR_MM
        items += _text_lines(column_x, y, plan.summary, plan.summary_pt)
        y += summary_h + 1.5
        items += _text_lines(column_x, y, plan.info, INFO_PT, colour=INK_GREY)
    else:
        under = TALLY_H_MM + TALLY_CLEAR_MM  # from the box's top to the first full-width line
        slack = (bottom - top) - (block_h + gap + under + summary_h)
        # Spare height shared above the peas, between them and the rules, and under the rules.
        y = top + slack / 3
        items += _peas(layout, SAFE_MM + (body_w - block_w) / 2, y, plan.pea, plan.pitch)
        y += block_h + gap + slack / 3
        items += _tally(SAFE_MM, y, TALLY_W_MM)
        # One paragraph at one leading: its lines beside the box end where the lines under it
        # begin, so the sentence runs on from the last line beside the box to the next line.
        beside_h = beside_tally_lines(plan.summary_pt) * line_height_mm(plan.summary_pt, 1.2)
        items += _text_lines(SAFE_MM + TALLY_W_MM + gap, y + under - beside_h, plan.info, plan.summary_pt)
        items += _text_lines(SAFE_MM, y + under, plan.summary, plan.summary_pt)
    items += _foot_items(card, card_w, card_h, mean)
    return items


def _flow(width: float, height: float, columns: int, size_pt: float) -> list[list[tuple[str, str]]] | None:
    """The back's rules as (kind, text) lines per column, or None if they do not fit."""
    col_w = (width - 4.0 * (columns - 1)) / columns
    head_h = line_height_mm(size_pt + 0.6, 1.25)
    body_h = line_height_mm(size_pt, 1.2)
    blocks = [[("head", head)] + [("body", line) for line in wrap(text, col_w, size_pt)] for head, text in FULL_RULES]
    out: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    for block in blocks:
        need = head_h + 2 * body_h  # keep a heading with the first two lines of its paragraph
        if out[-1] and used + need > height:
            if len(out) == columns:
                return None
            out.append([])
            used = 0.0
        for kind, line in block:
            step = head_h if kind == "head" else body_h
            if used + step > height:
                if len(out) == columns:
                    return None
                out.append([])
                used = 0.0
            out[-1].append((kind, line))
            used += step
        used += BLOCK_GAP_MM
    return out


def back(card: PeaCard, mean: float) -> list[Item]:
    """The back of one card: the full rules, for printing double-sided."""
    card_w, card_h = card.card_size_mm()
    items: list[Item] = _band(card_w, card.bleed, BACK_TITLE, f"{TITLE} · {SUBTITLE}")
    items.append(_stripe(card_w, card_h, card.bleed))
    width, top, bottom = _body(card, box=False)
    columns = 2 if width >= 2 * BACK_COLUMN_MIN_MM else 1
    for size in BACK_SIZES_PT:
        flow = _flow(width, bottom - top, columns, size)
        if flow is not None:
            break
    else:  # pragma: no cover - every postcard format has room; a test builds each one
        raise ParameterError(f"the full rules do not fit the back of a {card.postcard} card")
    col_w = (width - 4.0 * (columns - 1)) / columns
    for c, lines in enumerate(flow):
        x = SAFE_MM + c * (col_w + 4.0)
        y = top
        for i, (kind, line) in enumerate(lines):
            if kind == "head":
                y += line_height_mm(size + 0.6, 1.25) + (BLOCK_GAP_MM if i else 0.0)
                items.append(Text(x, y - 0.6, line, size_pt=size + 0.6, font="Helvetica-Bold", colour=DARK_GREEN))
            else:
                y += line_height_mm(size, 1.2)
                items.append(Text(x, y, line, size_pt=size))
    items += _foot_items(card, card_w, card_h, mean, box=False)
    return items


# --------------------------------------------------------------------------- sheets


def card_origins(sheet: Imposition, card_w: float, card_h: float, bleed: float) -> list[tuple[float, float]]:
    """Top-left trim corners of the cards of a page, row by row, the grid centred on the page."""
    total_w = sheet.cols * card_w + (sheet.cols - 1) * sheet.gutter
    total_h = sheet.rows * card_h + (sheet.rows - 1) * sheet.gutter
    x0 = (sheet.page_w - total_w) / 2
    y0 = (sheet.page_h - total_h) / 2
    return [
        (x0 + c * (card_w + sheet.gutter), y0 + r * (card_h + sheet.gutter))
        for r in range(sheet.rows)
        for c in range(sheet.cols)
    ]


def crop_marks(sheet: Imposition, origins, card_w: float, card_h: float, bleed: float) -> list[Item]:
    """Thin marks on every cut line, outside the cards.

    A mark sits beyond the grid (past the bleed) where the margin has room; where the cards reach
    the paper (4 x A6 on A4 leave none) it runs in from the paper's edge along the cut line, on
    the border between two cards that the cut takes away. A cut line within 1 mm of the paper's
    edge needs no mark: the paper's edge is the cut.
    """
    xs = sorted({round(v, 6) for x, _ in origins for v in (x, x + card_w)})
    ys = sorted({round(v, 6) for _, y in origins for v in (y, y + card_h)})
    left, right = xs[0], xs[-1]
    top, bottom = ys[0], ys[-1]
    room = bleed + MARK_OFFSET_MM + MARK_LENGTH_MM
    items: list[Item] = []

    def mark(x1: float, y1: float, x2: float, y2: float) -> None:
        """One crop mark."""
        items.append(Line(x1, y1, x2, y2, stroke=MARK_GREY, line_mm=MARK_LINE_MM))

    near = bleed + MARK_OFFSET_MM
    for x in xs:
        if x < 1.0 or x > sheet.page_w - 1.0:
            continue
        if top >= room:
            mark(x, top - near - MARK_LENGTH_MM, x, top - near)
        else:
            mark(x, 0.0, x, MARK_LENGTH_MM)
        if sheet.page_h - bottom >= room:
            mark(x, bottom + near, x, bottom + near + MARK_LENGTH_MM)
        else:
            mark(x, sheet.page_h - MARK_LENGTH_MM, x, sheet.page_h)
    for y in ys:
        if y < 1.0 or y > sheet.page_h - 1.0:
            continue
        if left >= room:
            mark(left - near - MARK_LENGTH_MM, y, left - near, y)
        else:
            mark(0.0, y, MARK_LENGTH_MM, y)
        if sheet.page_w - right >= room:
            mark(right + near, y, right + near + MARK_LENGTH_MM, y)
        else:
            mark(sheet.page_w - MARK_LENGTH_MM, y, sheet.page_w, y)
    return items


def has_page_ruler(sheet: Imposition, origins, card_h: float, bleed: float) -> bool:
    """Whether a sheet of cards has room below the cards and marks for the 100 mm ruler and footer."""
    bottom = max(y for _, y in origins) + card_h + bleed + MARK_OFFSET_MM + MARK_LENGTH_MM
    return sheet.page_h - bottom >= FURNITURE_HEIGHT_MM + PAGE_MARGIN_MM


def mirror_for_duplex(sheet: Imposition, origins, card_w: float, card_h: float) -> list[tuple[float, float]]:
    """Where each card's back goes so that it lines up when printed double-sided, flipped on the long edge.

    Flipping a portrait sheet over its long (left/right) edge mirrors left and right; a landscape
    page's long edges are its top and bottom, so its back mirrors top and bottom.
    """
    if sheet.page_w <= sheet.page_h:
        return [(sheet.page_w - x - card_w, y) for x, y in origins]
    return [(x, sheet.page_h - y - card_h) for x, y in origins]


def parameters_json(card: PeaCard, plan: CardPlan, sheet: Imposition, mean: float, page_ruler: bool) -> str:
    """The resolved parameters as the JSON a checker reads back from the PDF's subject."""
    return json.dumps(
        {
            "kind": KIND,
            "layout": str(card.card_layout().normalised()),
            "layout_name": card.layout_name(),
            "postcard": card.postcard,
            "landscape": card.landscape,
            "paper": card.paper,
            "bleed": card.bleed,
            "pea_mm": plan.pea,
            "pitch_mm": plan.pitch,
            "back": card.back,
            "back_offset_mm": list(card.back_offset),
            "borderless": card.borderless,
            "cards_per_page": sheet.count,
            "page_mm": [round(sheet.page_w, 3), round(sheet.page_h, 3)],
            "page_ruler": page_ruler,
            "expected_smushed": mean,
        },
        sort_keys=True,
    )


def _sheet_notes(card: PeaCard, sheet: Imposition, origins, card_h: float) -> list[Item]:
    """A line above the cards saying how to cut and print, when the top margin has room."""
    top = min(y for _, y in origins) - card.bleed - MARK_OFFSET_MM - MARK_LENGTH_MM
    if top < PAGE_MARGIN_MM + 4.0:
        return []
    note = f"{TITLE}: {sheet.count} postcards. Cut along the crop marks."
    if card.back:
        note += " Print double-sided, flip on the long edge: the rules land on the back of each card."
    return [Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 3.0, note, size_pt=7.0, colour=INK_GREY)]


def _page(card: PeaCard, sheet: Imposition, face: list[Item], origins, card_w: float, card_h: float, page_ruler: bool, what: str) -> Page:
    items: list[Item] = []
    for x, y in origins:
        items += translate(face, x, y)
    if card.paper != "none":
        items += crop_marks(sheet, origins, card_w, card_h, card.bleed)
        items += _sheet_notes(card, sheet, origins, card_h)
    if page_ruler:
        description = (
            f"{TITLE} · {what} · layout {card.layout_name() or 'own'} · {sheet.count} x {POSTCARD_NAMES[card.postcard]} "
            f"on {PAPER_NAMES[card.paper]}"
            + (f" · {card.bleed:g} mm bleed" if card.bleed else "")
        )
        items += footer(sheet.page_w, sheet.page_h, PAGE_MARGIN_MM, description)
    return Page(sheet.page_w, sheet.page_h, tuple(items))


def layout(card: PeaCard) -> Document:
    """The card (and its back) on one page each, or a sheet of them on A4 or Letter."""
    # Measuring an own layout takes seconds: first make sure it fits at all, with the longest
    # difficulty line, so that a layout too large for the card fails at once.
    plan_card(card, WORST_MEAN)
    mean = expected_smushed(card.card_layout().normalised(), card.layout_name())
    plan = plan_card(card, mean)
    sheet = card.imposition()
    card_w, card_h = card.card_size_mm()
    origins = card_origins(sheet, card_w, card_h, card.bleed)
    page_ruler = has_page_ruler(sheet, origins, card_h, card.bleed)
    pages = [_page(card, sheet, front(card, plan, mean), origins, card_w, card_h, page_ruler, "front")]
    if card.back:
        backs = mirror_for_duplex(sheet, origins, card_w, card_h)
        page = _page(card, sheet, back(card, mean), backs, card_w, card_h, page_ruler, "back: rules")
        dx, dy = card.back_offset  # the whole back moves to meet a printer that shifts the back side
        pages.append(Page(page.width, page.height, translate(page.items, dx, dy)) if (dx, dy) != (0.0, 0.0) else page)
    name = card.layout_name() or "own"
    turn = "landscape" if card.landscape else "portrait"
    return Document(
        pages=tuple(pages),
        title=f"{TITLE} postcard: {name} layout, {POSTCARD_NAMES[card.postcard]} {turn}",
        subject=parameters_json(card, plan, sheet, mean, page_ruler),
        keywords=f"printables:{KIND}",
        # one card per page with bleed is for a print shop: the renderer adds crop marks and page boxes
        metadata={"print_shop": {"bleed_mm": card.bleed, "mark_offset_mm": MARK_OFFSET_MM, "mark_length_mm": MARK_LENGTH_MM,
                                 "mark_line_mm": MARK_LINE_MM}} if card.bleed and card.paper == "none" else {},
    )
