"""Patchwork print-and-play as layout data: the 33 patches, two quilts, the time track, extras.

Drawing conventions the checker reads back (printables/check/patchwork.py):
- a patch or leather-patch square is a filled square with no stroke (white in low ink, so it costs
  nothing), exactly one cell wide; the grey cut lines are separate segments on the patches' edges,
  so two touching squares belong to the same patch unless a cut line runs between them;
- a patch's button cost is a number inside a circle, its time cost a number right of an hourglass,
  and each income button a circle with four holes and no number;
- quilt squares are stroked squares with no fill;
- a time-track space is a circle with its position printed inside; an income space also holds a
  button (a circle), a leather space a small square; in the gap between each space and the next a
  filled triangle (an arrowhead) points to the next; the band under the spaces is one large path;
- every page starts with a heading line "Patchwork · <part>".
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from printables.errors import ParameterError
from printables.layout.furniture import footer, furniture_height
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
    wrap,
)
from printables.layout.sheet import PAGE_MARGIN_MM, floor_to
from printables.paper import page_size_mm
from printables.params.patchwork import MIN_CELL_MM, PatchworkSheet
from printables.rules import patchwork as rules
from printables.measured import facts_for

KIND = "patchwork"
TITLE = "Patchwork"
CREDIT = "a game by Uwe Rosenberg (Lookout Games, 2014) · print-and-play for your own use"

DEFAULT_CELL_MM = 20.0  # the largest default: bigger squares only use more paper
CELL_STEP_MM = 0.5
HEADING_PT = 15.0
SUBTITLE_PT = 8.0
HEADER_MM = 15.0  # heading line, subtitle line and a little air
TEXT_PT = 8.0  # body text of a sheet
LABEL_PT = 7.0  # short labels (legend, "start", token notes); nothing on a sheet is under 6 pt
MIN_NUMBER_PT = 6.5  # the smallest number on a track space
CLEARANCE_MM = 1.5  # a text keeps this much paper from every outline and every other text
CLEARANCE_SLACK_MM = 0.05  # and a little more, so rounding in the file never brings it under
ICON_MAX_MM = 6.0  # a ring this small reads as an icon (a coin): its number needs no 1.5 mm from it
# Digits centred by _baseline reach this far above and below their centre line, in em (Noto Sans Bold
# and NanumGothic Bold digits, with room); a number's width is taken as its advance, wider than its ink.
DIGIT_HALF_EM = 0.43
LABEL_INK_EM = 1.05  # a label's ink, ascender to descender (Turkish ş and ç, Hangul), in em
LABEL_DESCENT_EM = 0.25  # of which below the baseline

# One solid dark cut line around every piece, in both inks; the decorative stitching is white dashes
# well inside a coloured patch (full ink only: on a low-ink patch the cut line is its only outline).
CUT_GREY = 0.3
CUT_GREY_LOW_INK = 0.3
CUT_LINE_MM = 0.3
STITCH_INSET_MM = 2.0  # on 20 mm squares; scaled down with smaller squares
TIME_TOKEN_MIN_MM = 12.0  # a time token's disc: big enough to pick up
TIME_TOKEN_SPARES = 1  # spare tokens per player
CARD_ADVICE = (
    "Print on card (160-250 gsm), or glue the printed sheet to thin card with a glue stick spread thin "
    "and let it dry flat before cutting. Cut on the solid dark lines."
)
STITCH_NOTE = "The white dashes are stitching, not cuts."


def card_advice(sheet: PatchworkSheet) -> tuple[str, ...]:
    """The cardstock, glue and cutting advice printed in every page's publisher's box."""
    return (CARD_ADVICE,) if sheet.low_ink else (f"{CARD_ADVICE} {STITCH_NOTE}",)
WASTE_GREY = 0.82  # the cross on a square of the patch pages that belongs to no patch
STITCH_DASH_MM = (1.3, 0.9)
INK_DARK: Colour = 0.15

# Fabric colours for the patches (soft, so black numbers and blue buttons read on all of them).
PATCH_COLOURS: tuple[Colour, ...] = (
    (0.95, 0.62, 0.54),  # coral
    (0.66, 0.81, 0.60),  # sage
    (0.97, 0.81, 0.45),  # mustard
    (0.78, 0.70, 0.89),  # lavender
    (0.58, 0.82, 0.82),  # teal
    (0.95, 0.69, 0.80),  # rose
    (0.87, 0.76, 0.61),  # sand
    (0.82, 0.86, 0.52),  # lime
)
BUTTON_BLUE: Colour = (0.16, 0.37, 0.72)
LEATHER_BROWN: Colour = (0.58, 0.40, 0.26)
QUILT_BACKGROUND: Colour = (0.99, 0.97, 0.91)
QUILT_FRAME: Colour = (0.74, 0.58, 0.42)
QUILT_SIZE_CELLS = rules.QUILT_SIZE
QUILT_FRAME_MM = 3.0
QUILT_LABEL_MM = 6.0
TRACK_FILL: Colour = (0.99, 0.96, 0.88)
TRACK_CENTRE_FILL: Colour = (0.97, 0.86, 0.55)
PLAYER_COLOURS: tuple[Colour, ...] = ((0.93, 0.76, 0.20), (0.36, 0.66, 0.36))  # yellow, green
BONUS_GOLD: Colour = (0.97, 0.80, 0.35)

PACKING_SEED = 0  # the packing search is deterministic: same sheet, same pages
PACKING_TRIES = 120  # greedy packings tried; the best wins (a few ms each)

MAX_SPACE_MM = 16.0  # track spaces larger than this only use paper
MIN_SPACE_MM = 8.0
# Rim to rim along the track (room for an arrowhead) and between the spiral's laps (and round the
# centre), as shares of a space, within limits: a lap gap is always well over a step's.
SPACE_GAP = (0.375, 4.0, 6.0)  # share of a space, least and most mm
LAP_GAP = (0.625, 7.0, 10.0)
CORNER_RADIUS = 0.5  # the spiral's corners are rounded by this many pitches (less on its short inner runs)
ARC_STEPS = 12  # chords per rounded corner
CENTRE_SCALE = 1.7  # the centre space (53) is this many spaces wide
RIBBON_MARGIN_MM = 1.5  # the track's band reaches this far beyond the spaces' rims
RIBBON_FILL: Colour = (0.86, 0.74, 0.56)  # a band of fabric under the spaces, darker than they are
RIBBON_EDGE_GREY = 0.45  # low ink: the band is its outline only
RIBBON_LINE_MM = 0.35  # that outline's width
ARROW_MAX_MM = 4.5  # an arrowhead's length along the track
ARROW_SHARE = 0.75  # of the gap between two spaces' rims
ARROW_WIDTH = 1.0  # an arrowhead's width as a share of its length
# The spiral's runs from the centre outwards, on the page (y down): right, up, left, down.
SPIRAL_DIRECTIONS = ((1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0))
TRACK_LABEL_ROOM_MM = 8.0  # "start" above the track
LABEL_CLEARANCE_MM = 2.4  # between a track label and the band or the centre space

# The bank never runs out (rules decision 9); this many tokens of each value covers a game.
BUTTON_TOKENS = ((1, 20), (5, 12), (10, 8), (20, 4))
TOKEN_MM = 15.0


def _ink(sheet: PatchworkSheet, colour: Colour | None) -> Colour | None:
    """A fill colour, or white (no ink) on a low-ink sheet."""
    return WHITE if sheet.low_ink else colour


def _cut_grey(sheet: PatchworkSheet) -> float:
    return CUT_GREY_LOW_INK if sheet.low_ink else CUT_GREY


PT_MM = 25.4 / 72  # one point in mm


def _baseline(cy: float, size_pt: float) -> float:
    """The baseline that centres digits of ``size_pt`` vertically on ``cy``."""
    return cy + 0.36 * size_pt * 25.4 / 72


# ---------------------------------------------------------------------------------------------
# Page frame


def _inner(sheet: PatchworkSheet) -> tuple[float, float, float, float]:
    """Page width, page height and the width and height between header and furniture."""
    page_w, page_h = page_size_mm(sheet.paper)
    width = page_w - 2 * PAGE_MARGIN_MM
    height = page_h - 2 * PAGE_MARGIN_MM - HEADER_MM - furniture_height(width, facts_for(KIND, leather=sheet.leather), card_advice(sheet))
    return page_w, page_h, width, height


def _header(part: str, subtitle: str) -> list[Item]:
    x, y = PAGE_MARGIN_MM, PAGE_MARGIN_MM
    return [
        Text(x, y + 5.5, f"{TITLE} · {part}", size_pt=HEADING_PT, font="Helvetica-Bold"),
        Text(x, y + 10.5, subtitle, size_pt=SUBTITLE_PT, colour=0.3),
    ]


def _page(sheet: PatchworkSheet, cell: float, items: list[Item], part: str) -> Page:
    page_w, page_h, _, _ = _inner(sheet)
    description = (
        f"{TITLE} · {part} · {sheet.paper.upper() if sheet.paper != 'letter' else 'Letter'} · "
        f"{cell:g} mm squares · leather: {sheet.leather} edition · {sheet.ink} ink"
    )
    return Page(page_w, page_h, tuple(items) + footer(page_w, page_h, PAGE_MARGIN_MM, description, facts_for(KIND, leather=sheet.leather), card_advice(sheet)))


# ---------------------------------------------------------------------------------------------
# Cell size


def quilt_block_height(cell: float) -> float:
    """Height of one quilt board with its label, without the page's notes."""
    return QUILT_LABEL_MM + QUILT_SIZE_CELLS * cell + 2 * QUILT_FRAME_MM


def _quilt_notes_height(width: float) -> float:
    lines = len(wrap(BONUS_NOTE, width, TEXT_PT) + wrap(SCORE_NOTE, width, TEXT_PT))
    return lines * line_height_mm(TEXT_PT) + 3.0


def largest_cell_mm(sheet: PatchworkSheet) -> float:
    """The largest square (0.1 mm steps) for which a whole 9x9 quilt fits one page."""
    _, _, width, height = _inner(sheet)
    by_width = (width - 2 * QUILT_FRAME_MM) / QUILT_SIZE_CELLS
    by_height = (height - QUILT_LABEL_MM - 2 * QUILT_FRAME_MM - _quilt_notes_height(width)) / QUILT_SIZE_CELLS
    return round(floor_to(min(by_width, by_height), 0.1), 1)


def cell_size_mm(sheet: PatchworkSheet) -> float:
    """The sheet's square size: the one asked for, else the largest round size up to 20 mm."""
    fit = largest_cell_mm(sheet)
    if sheet.cell_mm is None:
        return min(DEFAULT_CELL_MM, floor_to(fit, CELL_STEP_MM))
    if sheet.cell_mm > fit + 1e-9:
        raise ParameterError(
            f"cell {sheet.cell_mm:g} mm: the 9x9 quilt does not fit {sheet.paper} paper; "
            f"use {MIN_CELL_MM:g} to {fit:g} mm"
        )
    return sheet.cell_mm


# ---------------------------------------------------------------------------------------------
# Patch art


def _income_button(cx: float, cy: float, r: float, sheet: PatchworkSheet) -> list[Item]:
    """A sewing button: a disc with four holes."""
    fill = _ink(sheet, BUTTON_BLUE)
    hole_fill = WHITE
    hole_stroke = BLACK if sheet.low_ink else None
    items: list[Item] = [Circle(cx, cy, r, stroke=INK_DARK if sheet.low_ink else BUTTON_BLUE, fill=fill, line_mm=0.3)]
    h = 0.32 * r
    for dx, dy in ((-h, -h), (h, -h), (-h, h), (h, h)):
        items.append(Circle(cx + dx, cy + dy, 0.13 * r, stroke=hole_stroke, fill=hole_fill, line_mm=0.1))
    return items


def _hourglass(cx: float, cy: float, w: float, h: float, sheet: PatchworkSheet) -> list[Item]:
    """An hourglass w wide and h tall centred on (cx, cy)."""
    x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    waist = 0.12 * w
    body = Polygon(
        ((x0, y0), (x1, y0), (cx + waist, cy), (x1, y1), (x0, y1), (cx - waist, cy)),
        stroke=INK_DARK,
        fill=WHITE,
        line_mm=0.3,
    )
    sand = [] if sheet.low_ink else [
        Polygon(((cx - 0.3 * w, y1 - 0.05 * h), (cx + 0.3 * w, y1 - 0.05 * h), (cx, cy + 0.15 * h)),
                stroke=None, fill=(0.85, 0.65, 0.30)),
    ]
    return [body, *sand]


COST_RING_MM = 0.35  # the cost button's outline


def _cost_button(cx: float, cy: float, r: float, cost: int, size_pt: float) -> list[Item]:
    return [
        Circle(cx, cy, r, stroke=INK_DARK, fill=WHITE, line_mm=COST_RING_MM),
        Text(cx, _baseline(cy, size_pt), str(cost), size_pt=size_pt, font="Helvetica-Bold", anchor="middle", colour=INK_DARK),
    ]


def _number_radius_mm(text: str, size_pt: float) -> float:
    """How far the ink of a number centred on a point (``_baseline``) reaches from it, corner included."""
    half_w = text_width_mm(text, size_pt, "Helvetica-Bold") / 2
    return math.hypot(half_w, DIGIT_HALF_EM * size_pt * PT_MM)


def cost_button_radius_mm(cell: float, cost: int, size_pt: float) -> float:
    """The cost button's radius: a fifth of the square; a button too large to read as an icon is an
    outline, and grows until its number keeps ``CLEARANCE_MM`` from its ring."""
    r = min(4.2, 0.21 * cell)
    if 2 * r > ICON_MAX_MM:
        r = max(r, _number_radius_mm(str(cost), size_pt) + CLEARANCE_MM + COST_RING_MM / 2 + CLEARANCE_SLACK_MM)
    return r


def patch_label(x: float, y: float, cell: float, cost: int, time: int, sheet: PatchworkSheet) -> list[Item]:
    """Cost (a numbered button, top left) and time (hourglass and number, bottom right) in one square."""
    size_pt = min(10.0, max(6.0, cell * 0.5))
    r = cost_button_radius_mm(cell, cost, size_pt)
    items = _cost_button(x + 0.3 * cell, y + 0.3 * cell, r, cost, size_pt)
    hw, hh = 0.15 * cell, 0.26 * cell
    hx, hy = x + 0.56 * cell, y + 0.7 * cell
    items += _hourglass(hx, hy, hw, hh, sheet)
    items.append(Text(hx + hw / 2 + 0.04 * cell, _baseline(hy, size_pt), str(time), size_pt=size_pt,
                      font="Helvetica-Bold", colour=INK_DARK))
    return items


def _edges(cells: frozenset[tuple[int, int]]):
    """Boundary edges of a set of (row, col) cells as ((r, c), side) with side in N, E, S, W."""
    steps = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
    for r, c in sorted(cells):
        for side, (dr, dc) in steps.items():
            if (r + dr, c + dc) not in cells:
                yield (r, c), side


def stitch_lines(cells: frozenset[tuple[int, int]], x0: float, y0: float, cell: float, inset: float) -> list[tuple[float, float, float, float]]:
    """The outline of a polyomino moved ``inset`` mm inwards, as merged straight segments."""
    horizontal: dict[float, list[tuple[float, float]]] = {}
    vertical: dict[float, list[tuple[float, float]]] = {}

    def end(corner_side: tuple[int, int], diagonal: tuple[int, int]) -> float:
        # convex corner: stop short; straight on: meet the neighbour's segment; concave: reach past.
        if corner_side not in cells:
            return inset
        return -inset if diagonal in cells else 0.0

    for (r, c), side in _edges(cells):
        if side in ("N", "S"):
            dr = -1 if side == "N" else 1
            a = c * cell + end((r, c - 1), (r + dr, c - 1))
            b = (c + 1) * cell - end((r, c + 1), (r + dr, c + 1))
            yy = (r if side == "N" else r + 1) * cell + (inset if side == "N" else -inset)
            horizontal.setdefault(round(yy, 6), []).append((a, b))
        else:
            dc = -1 if side == "W" else 1
            a = r * cell + end((r - 1, c), (r - 1, c + dc))
            b = (r + 1) * cell - end((r + 1, c), (r + 1, c + dc))
            xx = (c if side == "W" else c + 1) * cell + (inset if side == "W" else -inset)
            vertical.setdefault(round(xx, 6), []).append((a, b))
    out = []
    for yy, spans in sorted(horizontal.items()):
        for a, b in _merge(spans):
            out.append((x0 + a, y0 + yy, x0 + b, y0 + yy))
    for xx, spans in sorted(vertical.items()):
        for a, b in _merge(spans):
            out.append((x0 + xx, y0 + a, x0 + xx, y0 + b))
    return out


def _merge(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1] + 1e-6:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def patch_art(
    cells: frozenset[tuple[int, int]], x0: float, y0: float, cell: float,
    cost: int | None, time: int | None, income: int, colour: Colour, sheet: PatchworkSheet,
) -> list[Item]:
    """One patch whose (row, col) cells start at (x0, y0): squares, stitching, cost, time, income.

    Cut lines are not included: neighbouring patches share them, so the page draws them once.
    """
    items: list[Item] = []
    fill = _ink(sheet, colour)
    for r, c in sorted(cells):
        items.append(Rect(x0 + c * cell, y0 + r * cell, cell, cell, stroke=None, fill=fill))
    if not sheet.low_ink:  # stitching only where it is clearly decoration: white on a coloured patch
        inset = min(STITCH_INSET_MM, 0.1 * cell)
        for x1, y1, x2, y2 in stitch_lines(cells, x0, y0, cell, inset):
            items.append(Line(x1, y1, x2, y2, stroke=WHITE, line_mm=0.3, dash_mm=STITCH_DASH_MM))
    ordered = sorted(cells)
    rest = ordered
    if cost is not None and time is not None:
        r, c = ordered[0]  # the label goes in the first square in reading order
        items += patch_label(x0 + c * cell, y0 + r * cell, cell, cost, time, sheet)
        rest = ordered[1:]
    button_r = min(3.6, 0.2 * cell)
    for r, c in rest[:income]:
        items += _income_button(x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, button_r, sheet)
    return items


def cut_lines(pieces: list[frozenset[tuple[int, int]]], x0: float, y0: float, cell: float, grey: float) -> list[Item]:
    """Every edge between a piece and anything else, merged into straight runs, drawn once."""
    owner = {cell_: i for i, piece in enumerate(pieces) for cell_ in piece}
    horizontal: dict[int, list[tuple[float, float]]] = {}
    vertical: dict[int, list[tuple[float, float]]] = {}
    for (r, c), i in owner.items():
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            j = owner.get((r + dr, c + dc))
            if j == i or (j is not None and j < i):
                continue  # inside one piece, or already drawn from the other side
            if dr:
                horizontal.setdefault(r + (dr > 0), []).append((c, c + 1))
            else:
                vertical.setdefault(c + (dc > 0), []).append((r, r + 1))
    items: list[Item] = []
    for row, spans in sorted(horizontal.items()):
        for a, b in _merge(spans):
            items.append(Line(x0 + a * cell, y0 + row * cell, x0 + b * cell, y0 + row * cell, stroke=grey, line_mm=CUT_LINE_MM))
    for col, spans in sorted(vertical.items()):
        for a, b in _merge(spans):
            items.append(Line(x0 + col * cell, y0 + a * cell, x0 + col * cell, y0 + b * cell, stroke=grey, line_mm=CUT_LINE_MM))
    return items


def waste_crosses(pieces: list[frozenset[tuple[int, int]]], cols: int, rows: int, x0: float, y0: float, cell: float) -> list[Item]:
    """A faint cross on each empty square of a hole small enough to pass for a patch.

    Holes of more squares than the largest patch, like the free foot of the last page, stay clean.
    """
    used = set().union(*pieces)
    largest = max(p.size for p in rules.PATCHES)
    seen: set[tuple[int, int]] = set()
    items: list[Item] = []
    pad = 0.3 * cell
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in used or start in seen:
            continue
        hole, todo = [], [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            hole.append((r, c))
            for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in used and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if len(hole) > largest:
            continue
        for r, c in sorted(hole):
            x, y = x0 + c * cell, y0 + r * cell
            items.append(Line(x + pad, y + pad, x + cell - pad, y + cell - pad, stroke=WASTE_GREY, line_mm=0.25))
            items.append(Line(x + cell - pad, y + pad, x + pad, y + cell - pad, stroke=WASTE_GREY, line_mm=0.25))
    return items


# ---------------------------------------------------------------------------------------------
# Packing the patches


@dataclass(frozen=True, slots=True)
class Placed:
    """A patch on a patch page's lattice: its id, orientation and the top-left of its box."""

    patch_id: int
    orientation: int
    row: int
    col: int

    def cells(self) -> frozenset[tuple[int, int]]:
        """The lattice cells it covers as (row, col)."""
        shape = rules.PATCHES[self.patch_id].orientations[self.orientation]
        return frozenset((self.row + r, self.col + c) for r, c in shape)


def _greedy_pack(cols: int, rows: int, order: list[int]) -> list[list[Placed]] | None:
    """Fill pages square by square in reading order with the first patch (in order) that fits."""
    pages: list[list[Placed]] = []
    remaining = list(order)
    while remaining:
        filled = 0  # bit r * cols + c set: square (r, c) is taken
        placed: list[Placed] = []
        for r in range(rows):
            for c in range(cols):
                at = r * cols + c
                if filled >> at & 1:
                    continue
                free = ~filled >> at  # bit k clear: the square k places after (r, c) is taken
                for pid in remaining:
                    # Every square before (r, c) is filled, so (r, c) must take the shape's first cell.
                    for o, ar, ac, below, left, right, mask in _anchored_masks(pid, cols):
                        if r + below < rows and c >= left and c + right < cols and free & mask == mask:
                            placed.append(Placed(pid, o, r - ar, c - ac))
                            remaining.remove(pid)
                            filled |= mask << at
                            break
                    else:
                        continue
                    break
        if not placed:
            return None  # some patch is larger than the page
        pages.append(placed)
    return pages


@lru_cache(maxsize=None)
def _anchored_masks(pid: int, cols: int) -> tuple[tuple[int, int, int, int, int, int, int], ...]:
    """Each orientation of a patch on a lattice ``cols`` wide: (orientation, first cell's row and
    column, rows below it, columns left and right of it, cells as bits counted from it)."""
    found = []
    for o, shape in enumerate(rules.PATCHES[pid].orientations):
        ar, ac = min(shape)
        offsets = [(sr - ar, sc - ac) for sr, sc in shape]
        below = max(dr for dr, _ in offsets)
        left = -min(dc for _, dc in offsets)
        right = max(dc for _, dc in offsets)
        if left + right >= cols:
            continue  # wider than the lattice: never fits (and its bits would wrap)
        found.append((o, ar, ac, below, left, right, sum(1 << (dr * cols + dc) for dr, dc in offsets)))
    return tuple(found)


def pack_patches(cols: int, rows: int) -> list[list[Placed]]:
    """The 33 patches on as few pages of cols x rows squares as a seeded greedy search finds."""
    rng = random.Random(PACKING_SEED)
    by_size = sorted(range(len(rules.PATCHES)), key=lambda i: (-rules.PATCHES[i].size, i))
    lower_bound = -(-sum(p.size for p in rules.PATCHES) // (cols * rows))
    best: tuple[tuple[int, int, int], list[list[Placed]]] | None = None
    for attempt in range(PACKING_TRIES):
        order = by_size if attempt == 0 else sorted(by_size, key=lambda i: -rules.PATCHES[i].size + 2.5 * rng.random())
        pages = _greedy_pack(cols, rows, order)
        if pages is None:
            raise ParameterError(f"a page of {cols}x{rows} squares cannot hold the largest patches")
        # Fewest pages; then the emptiest last page, so the earlier pages are the tightest; then
        # the fewest rows on the last page, leaving its foot free.
        last = pages[-1]
        key = (len(pages), sum(rules.PATCHES[p.patch_id].size for p in last),
               max(r for p in last for r, _ in p.cells()))
        if best is None or key < best[0]:
            best = (key, pages)
        if len(pages) == lower_bound and attempt >= PACKING_TRIES // 4:
            break
    assert best is not None
    return best[1]


# Packings of the lattices the presets and defaults use, as pack_patches finds them (written by
# tools/patchwork_packing.py; tests/test_patchwork_sheet.py packs every one again and compares). The
# search tries up to PACKING_TRIES orders, a third of a sheet command's own work; any other lattice
# is packed when asked for.
PACKINGS_PATH = Path(__file__).with_name("patchwork_packings.json")


@lru_cache(maxsize=1)
def stored_packings() -> dict[str, list[list[list[int]]]]:
    """Lattice ("COLSxROWS") -> pages of (patch id, orientation, row, col), as stored."""
    try:
        return json.loads(PACKINGS_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def packed_patches(cols: int, rows: int) -> list[list[Placed]]:
    """``pack_patches(cols, rows)``, from the stored packings when the lattice is one of them."""
    stored = stored_packings().get(f"{cols}x{rows}")
    if stored is None:
        return pack_patches(cols, rows)
    return [[Placed(*placed) for placed in page] for page in stored]


def _colours(placed: list[Placed]) -> list[Colour]:
    """A colour per patch, never the same as a patch it touches."""
    cells = [p.cells() for p in placed]
    owner = {cell: i for i, piece in enumerate(cells) for cell in piece}
    chosen: list[int] = []
    for i, p in enumerate(placed):
        near = {
            chosen[j]
            for r, c in cells[i]
            for j in (owner.get((r + 1, c)), owner.get((r - 1, c)), owner.get((r, c + 1)), owner.get((r, c - 1)))
            if j is not None and j < i
        }
        start = p.patch_id % len(PATCH_COLOURS)
        pick = next(k % len(PATCH_COLOURS) for k in range(start, start + len(PATCH_COLOURS) + 1)
                    if k % len(PATCH_COLOURS) not in near)
        chosen.append(pick)
    return [PATCH_COLOURS[k] for k in chosen]


def patch_lattice(sheet: PatchworkSheet, cell: float) -> tuple[int, int]:
    """Columns and rows of squares a patch page holds."""
    _, _, width, height = _inner(sheet)
    return int(width / cell + 1e-9), int(height / cell + 1e-9)


def _legend_patches(x: float, y: float, sheet: PatchworkSheet) -> list[Item]:
    """'cost · time · income' symbols at the right of the heading line."""
    items: list[Item] = []
    entries = (("cost (buttons)", "cost"), ("time", "time"), ("income", "income"))
    size = LABEL_PT
    cx = x
    for label, what in reversed(entries):
        # Right-aligned, so the estimate of the width only moves the icon, never past the margin.
        items.append(Text(cx, y + 1.2, label, size_pt=size, colour=0.25, anchor="end"))
        cx -= text_width_mm(label, size) + 5.2
        if what == "cost":
            items.append(Circle(cx + 1.8, y, 2.0, stroke=INK_DARK, fill=WHITE, line_mm=0.3))
        elif what == "time":
            items += _hourglass(cx + 2.2, y, 2.0, 3.6, sheet)
        else:
            items += _income_button(cx + 1.8, y, 1.8, sheet)
        cx -= 4.0
    return items


def patch_origin(sheet: PatchworkSheet, cell: float) -> tuple[float, float]:
    """The page position in mm of the patch lattice's top-left corner (centred across)."""
    cols, _ = patch_lattice(sheet, cell)
    _, _, width, _ = _inner(sheet)
    return PAGE_MARGIN_MM + (width - cols * cell) / 2, PAGE_MARGIN_MM + HEADER_MM


def _patch_pages(sheet: PatchworkSheet, cell: float) -> list[Page]:
    page_w, _, _, _ = _inner(sheet)
    cols, rows = patch_lattice(sheet, cell)
    packed = packed_patches(cols, rows)
    x0, y0 = patch_origin(sheet, cell)
    pages = []
    for n, placed in enumerate(packed, 1):
        subtitle = f"Cut on the solid lines · squares of {cell:g} mm, as on the quilt · page {n} of {len(packed)}, {len(placed)} patches"

        items = _header("patches", subtitle)
        items += _legend_patches(page_w - PAGE_MARGIN_MM, PAGE_MARGIN_MM + 4.0, sheet)
        colours = _colours(placed)
        for p, colour in zip(placed, colours):
            patch = rules.PATCHES[p.patch_id]
            items += patch_art(p.cells(), x0, y0, cell, patch.cost, patch.time, patch.income, colour, sheet)
        items += cut_lines([p.cells() for p in placed], x0, y0, cell, _cut_grey(sheet))
        items += waste_crosses([p.cells() for p in placed], cols, rows, x0, y0, cell)
        pages.append(_page(sheet, cell, items, "patches"))
    return pages


# ---------------------------------------------------------------------------------------------
# Quilts

BONUS_NOTE = rules.BONUS_NOTE
SCORE_NOTE = rules.SCORE_NOTE


def _quilt(x: float, y: float, cell: float, player: int, sheet: PatchworkSheet) -> list[Item]:
    """One 9x9 board: label, frame, and the 81 squares as stroked unfilled squares."""
    size = QUILT_SIZE_CELLS * cell
    gx, gy = x + QUILT_FRAME_MM, y + QUILT_LABEL_MM + QUILT_FRAME_MM
    items: list[Item] = [
        Text(x, y + 3.6, f"Player {player + 1} — quilt", size_pt=10, font="Helvetica-Bold"),
    ]
    if not sheet.low_ink:
        items.append(Rect(x, y + QUILT_LABEL_MM, size + 2 * QUILT_FRAME_MM, size + 2 * QUILT_FRAME_MM,
                          stroke=None, fill=QUILT_FRAME))
        items.append(Rect(gx, gy, size, size, stroke=None, fill=QUILT_BACKGROUND))
    for r in range(QUILT_SIZE_CELLS):
        for c in range(QUILT_SIZE_CELLS):
            items.append(Rect(gx + c * cell, gy + r * cell, cell, cell, stroke=0.55, fill=None, line_mm=0.25))
    for x1, y1, x2, y2 in ((gx, gy, gx + size, gy), (gx, gy + size, gx + size, gy + size),
                           (gx, gy, gx, gy + size), (gx + size, gy, gx + size, gy + size)):
        items.append(Line(x1, y1, x2, y2, stroke=INK_DARK, line_mm=0.6))
    return items


def _quilt_pages(sheet: PatchworkSheet, cell: float) -> list[Page]:
    _, _, width, height = _inner(sheet)
    block_w = QUILT_SIZE_CELLS * cell + 2 * QUILT_FRAME_MM
    block_h = quilt_block_height(cell)
    gap = 6.0
    across = max(1, int((width + gap) // (block_w + gap)))
    down = max(1, int((height - _quilt_notes_height(width) + gap) // (block_h + gap)))
    per_page = min(rules.PLAYERS, across * down)
    pages = []
    for first in range(0, rules.PLAYERS, per_page):
        players = list(range(first, min(rules.PLAYERS, first + per_page)))
        n_across = min(across, len(players))
        n_down = -(-len(players) // n_across)
        used_w = n_across * block_w + (n_across - 1) * gap
        x0 = PAGE_MARGIN_MM + (width - used_w) / 2
        y0 = PAGE_MARGIN_MM + HEADER_MM
        names = " and ".join(f"player {p + 1}" for p in players)
        items = _header("quilt boards", f"The quilt of {names}: 9x9 squares of {cell:g} mm, the size of the patches' squares.")
        for i, player in enumerate(players):
            r, c = divmod(i, n_across)
            items += _quilt(x0 + c * (block_w + gap), y0 + r * (block_h + gap), cell, player, sheet)
        y = y0 + n_down * block_h + (n_down - 1) * gap + 3.0
        for line in wrap(BONUS_NOTE, width, TEXT_PT) + wrap(SCORE_NOTE, width, TEXT_PT):
            y += line_height_mm(TEXT_PT)
            items.append(Text(PAGE_MARGIN_MM, y, line, size_pt=TEXT_PT))
        pages.append(_page(sheet, cell, items, "quilts"))
    return pages


# ---------------------------------------------------------------------------------------------
# Time track


@dataclass(frozen=True, slots=True)
class Space:
    """One time-track space: its position (0 to 53), centre and radius in mm."""

    position: int
    cx: float
    cy: float
    r: float


def spiral_spaces(space_mm: float, label_mm: float = 0.0) -> list[Space]:
    """The 54 spaces along a square spiral around the centre space, 53 at (0, 0).

    The spiral is straight runs joined by rounded corners; walking inwards from 0 it turns
    clockwise on the page. Neighbouring spaces are exactly one pitch apart, centre to centre (the
    step into the bigger centre space leaves the same gap between rims), and the laps stand
    lap_gap_mm apart, rim to rim, clearly wider than the gap along the track.
    """
    return list(_spiral(space_mm, label_mm)[0])


def spiral_path(space_mm: float, label_mm: float = 0.0) -> list[tuple[float, float]]:
    """The spiral's centre line from the centre out to space 0, as points (for the ribbon)."""
    return list(_spiral(space_mm, label_mm)[1])


def _gap_mm(space_mm: float, rule: tuple[float, float, float]) -> float:
    share, least, most = rule
    return min(most, max(least, share * space_mm))


def space_gap_mm(space_mm: float) -> float:
    """Rim to rim between neighbouring spaces along the track."""
    return _gap_mm(space_mm, SPACE_GAP)


def lap_gap_mm(space_mm: float) -> float:
    """Rim to rim between the spiral's laps, and between the centre space and the first lap."""
    return _gap_mm(space_mm, LAP_GAP)


def track_pitch_mm(space_mm: float) -> float:
    """Centre-to-centre distance between neighbouring spaces along the track."""
    return space_mm + space_gap_mm(space_mm)


def first_lap_mm(space_mm: float, label_mm: float = 0.0) -> float:
    """From the centre space's middle to the first lap's runs around it, centre line to centre line;
    with ``label_mm``, far enough for a label that tall between the centre space and the lap's band,
    ``CLEARANCE_MM`` from both."""
    r = space_mm / 2
    label_room = (CENTRE_RING_MM / 2 + 2 * (CLEARANCE_MM + CLEARANCE_SLACK_MM) + label_mm
                  + r + RIBBON_MARGIN_MM + RIBBON_LINE_MM / 2) if label_mm else 0.0
    return max(space_mm + lap_gap_mm(space_mm), CENTRE_SCALE * r + r + lap_gap_mm(space_mm), CENTRE_SCALE * r + label_room)


def _spiral_corners(space_mm: float, length: float, label_mm: float = 0.0) -> list[tuple[float, float]]:
    """Corner points of a square spiral from the centre outwards, at least ``length`` mm long.

    The first run leaves the centre to the right; each run turns left of the one before (on the
    page, y down), and parallel runs of neighbouring laps are one lap apart: runs of h, h, 2h, 2h,
    2h + lap, 2h + lap, 2h + 2 lap, ... where h keeps the first lap clear of the centre space.
    """
    lap = space_mm + lap_gap_mm(space_mm)
    h = first_lap_mm(space_mm, label_mm)
    x, y = 0.0, 0.0
    corners = [(x, y)]
    total = 0.0
    k = 0
    while total < length:
        run = h if k < 2 else 2 * h + ((k - 2) // 2) * lap
        dx, dy = SPIRAL_DIRECTIONS[k % 4]
        x, y = x + dx * run, y + dy * run
        corners.append((x, y))
        total += run
        k += 1
    return corners


def _round_corners(corners: list[tuple[float, float]], radius: float) -> list[tuple[float, float]]:
    """The polyline through ``corners`` with each inner corner rounded (arcs as short chords)."""
    points = [corners[0]]
    for i in range(1, len(corners) - 1):
        (ax, ay), (bx, by), (cx, cy) = corners[i - 1], corners[i], corners[i + 1]
        run_in, run_out = math.hypot(bx - ax, by - ay), math.hypot(cx - bx, cy - by)
        rho = min(radius, run_in / 2, run_out / 2)
        din = ((bx - ax) / run_in, (by - ay) / run_in)
        dout = ((cx - bx) / run_out, (cy - by) / run_out)
        ox, oy = bx - rho * din[0] + rho * dout[0], by - rho * din[1] + rho * dout[1]  # the arc's centre
        for step in range(ARC_STEPS + 1):
            theta = math.pi / 2 * step / ARC_STEPS
            c, s = math.cos(theta), math.sin(theta)
            points.append((ox - rho * dout[0] * c + rho * din[0] * s, oy - rho * dout[1] * c + rho * din[1] * s))
    points.append(corners[-1])
    return points


def _next_at(points: list[tuple[float, float]], index: int, start: tuple[float, float],
             centre: tuple[float, float], distance: float) -> tuple[int, tuple[float, float]]:
    """The first point after ``start`` (on segment ``index``) along the polyline that lies
    ``distance`` mm from ``centre``, and the segment it lies on."""
    ax, ay = start
    for i in range(index, len(points) - 1):
        bx, by = points[i + 1]
        if math.hypot(bx - centre[0], by - centre[1]) >= distance:
            # where |a + t (b - a) - centre| = distance, the larger root (the path leaves the circle)
            dx, dy = bx - ax, by - ay
            fx, fy = ax - centre[0], ay - centre[1]
            qa, qb, qc = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - distance * distance
            t = (-qb + math.sqrt(max(0.0, qb * qb - 4 * qa * qc))) / (2 * qa)
            return i, (ax + t * dx, ay + t * dy)
        ax, ay = bx, by
    raise AssertionError("the spiral is too short")  # pragma: no cover: _spiral_corners makes it long enough


@lru_cache(maxsize=None)
def _spiral(space_mm: float, label_mm: float = 0.0) -> tuple[tuple[Space, ...], tuple[tuple[float, float], ...]]:
    """The spaces and the centre line, computed once per size (a sheet sizes its track more than once)."""
    r = space_mm / 2
    r_centre = CENTRE_SCALE * r
    pitch = track_pitch_mm(space_mm)
    step_gap = space_gap_mm(space_mm)
    corners = _spiral_corners(space_mm, r_centre + r + step_gap + 1.5 * rules.FINAL_POSITION * pitch, label_mm)
    points = _round_corners(corners, CORNER_RADIUS * pitch)
    index, at = _next_at(points, 0, points[0], (0.0, 0.0), r_centre + step_gap + r)
    centres = [at]
    for _ in range(rules.FINAL_POSITION - 1):
        index, at = _next_at(points, index, at, at, pitch)
        centres.append(at)
    # The centre line runs on from space 0 by half a space, so the ribbon ends beyond it.
    end_index, end = _next_at(points, index, at, at, r + RIBBON_MARGIN_MM)
    # It starts halfway out of the centre space, so the ribbon's end lies under that space clear of
    # its number (not across the middle, where the number stands).
    start_index, start = _next_at(points, 0, points[0], (0.0, 0.0), r_centre / 2)
    line = [start] + points[start_index + 1:end_index + 1] + [end]
    # Turn the spiral so that space 0 lies on the top run: the last run's direction becomes "left".
    turns = (2 - _run_direction(corners, centres[-1])) % 4
    for _ in range(turns):
        centres = [(y, -x) for x, y in centres]
        line = [(y, -x) for x, y in line]
    spaces = [Space(rules.FINAL_POSITION, 0.0, 0.0, r_centre)]
    spaces += [Space(rules.FINAL_POSITION - 1 - i, x, y, r) for i, (x, y) in enumerate(centres)]
    return tuple(sorted(spaces, key=lambda s: s.position)), tuple(line)


def _run_direction(corners: list[tuple[float, float]], point: tuple[float, float]) -> int:
    """The index (in SPIRAL_DIRECTIONS) of the run that passes nearest ``point``."""
    best = None
    for k in range(len(corners) - 1):
        (ax, ay), (bx, by) = corners[k], corners[k + 1]
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy) / (dx * dx + dy * dy)))
        d = math.hypot(ax + t * dx - point[0], ay + t * dy - point[1])
        if best is None or d < best[0] - 1e-9:
            best = (d, k % 4)
    return best[1]


def _extent(spaces: list[Space]) -> tuple[float, float, float, float]:
    return (
        min(s.cx - s.r for s in spaces), min(s.cy - s.r for s in spaces),
        max(s.cx + s.r for s in spaces), max(s.cy + s.r for s in spaces),
    )


def _track_extent(space_mm: float, label_mm: float = 0.0) -> tuple[float, float, float, float]:
    """The spaces' extent with the ribbon around them."""
    x0, y0, x1, y1 = _extent(spiral_spaces(space_mm, label_mm))
    m = RIBBON_MARGIN_MM
    return x0 - m, y0 - m, x1 + m, y1 + m


def track_space_mm(width: float, height: float, label_mm: float = 0.0) -> float:
    """The largest space size (0.5 mm steps, up to 16 mm) whose spiral fits width x height."""
    size = MAX_SPACE_MM
    while size >= MIN_SPACE_MM:
        x0, y0, x1, y1 = _track_extent(size, label_mm)
        if x1 - x0 <= width and y1 - y0 <= height:
            return size
        size -= 0.5
    raise ParameterError(f"the time track does not fit a {width:.0f} x {height:.0f} mm area")


def _leather_mark(cx: float, cy: float, side: float, sheet: PatchworkSheet) -> list[Item]:
    return [Rect(cx - side / 2, cy - side / 2, side, side, stroke=INK_DARK, fill=None if sheet.low_ink else LEATHER_BROWN,
                 line_mm=LEATHER_RING_MM)]


SPACE_RING_MM = 0.4  # a track space's outline (the centre space's: CENTRE_RING_MM)
CENTRE_RING_MM = 0.6
LEATHER_RING_MM = 0.3  # the leather mark's outline
MARK_RIM_MM = 0.3  # a mark keeps at least this much inside its space's ring


def _track_space(space: Space, sheet: PatchworkSheet) -> list[Item]:
    income = space.position in rules.INCOME_SPACES
    leather = space.position in rules.leather_spaces(sheet.leather)
    centre = space.position == rules.FINAL_POSITION
    fill = WHITE if sheet.low_ink else (TRACK_CENTRE_FILL if centre else TRACK_FILL)
    ring = CENTRE_RING_MM if centre else SPACE_RING_MM
    items: list[Item] = [Circle(space.cx, space.cy, space.r, stroke=INK_DARK, fill=fill, line_mm=ring)]
    d = 2 * space.r if not centre else 2 * space.r / CENTRE_SCALE
    size_pt = max(MIN_NUMBER_PT, min(11.0, d * 0.55)) * (1.3 if centre else 1.0)
    text = str(space.position)
    marks = income or leather
    number_y = space.cy - (0.2 * d if marks else 0.0)
    mark_y = space.cy + 0.22 * d + (0.12 * d if centre else 0.0)
    side = 0.3 * d  # the leather mark's side
    if marks:
        # The number keeps CLEARANCE_MM from the ring: on a small space it sits lower than a fifth up,
        # and the mark under it moves down (a leather square, an outline, also CLEARANCE_MM from it).
        half_h = DIGIT_HALF_EM * size_pt * PT_MM
        inner = space.r - ring / 2 - CLEARANCE_MM - CLEARANCE_SLACK_MM
        half_w = text_width_mm(text, size_pt, "Helvetica-Bold") / 2
        highest = space.cy - math.sqrt(max(0.0, inner * inner - half_w * half_w)) + half_h
        number_y = max(number_y, highest)
        below = number_y + half_h  # the number's ink ends here
        if leather:
            top = below + CLEARANCE_MM + LEATHER_RING_MM / 2 + CLEARANCE_SLACK_MM
            if mark_y - side / 2 < top:
                bottom = space.cy + space.r - ring / 2 - MARK_RIM_MM
                side = min(side, bottom - top)
                mark_y = top + side / 2
        else:
            mark_y = max(mark_y, below + MARK_RIM_MM + 0.17 * d)
    items.append(Text(space.cx, _baseline(number_y, size_pt), text, size_pt=size_pt,
                      font="Helvetica-Bold", anchor="middle", colour=INK_DARK))
    if income:
        items += _income_button(space.cx, mark_y, 0.17 * d, sheet)
    if leather:
        items += _leather_mark(space.cx, mark_y, side, sheet)
    return items


def _ribbon(line: list[tuple[float, float]], half: float, sheet: PatchworkSheet) -> Polygon:
    """The track's band: the centre line widened by ``half`` mm either side, one closed outline."""
    left, right = [], []
    for i, (x, y) in enumerate(line):
        ax, ay = line[max(0, i - 1)]
        bx, by = line[min(len(line) - 1, i + 1)]
        tx, ty = bx - ax, by - ay
        n = math.hypot(tx, ty)
        nx, ny = -ty / n, tx / n
        left.append((x + half * nx, y + half * ny))
        right.append((x - half * nx, y - half * ny))
    outline = tuple(left + right[::-1])
    if sheet.low_ink:
        return Polygon(outline, stroke=RIBBON_EDGE_GREY, fill=None, line_mm=RIBBON_LINE_MM)
    return Polygon(outline, stroke=None, fill=RIBBON_FILL)


def _arrows(spaces: list[Space]) -> list[Item]:
    """A solid arrowhead in the gap between each space and the next, pointing the way to go."""
    items: list[Item] = []
    for a, b in zip(spaces, spaces[1:]):
        dx, dy = b.cx - a.cx, b.cy - a.cy
        dist = math.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        gap = dist - a.r - b.r
        length = min(ARROW_MAX_MM, ARROW_SHARE * gap)
        mx, my = a.cx + ux * (a.r + gap / 2), a.cy + uy * (a.r + gap / 2)
        tip = (mx + ux * length / 2, my + uy * length / 2)
        bx, by = mx - ux * length / 2, my - uy * length / 2
        w = ARROW_WIDTH * length / 2
        items.append(Polygon((tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)), stroke=None, fill=INK_DARK))
    return items


def _ribbon_stroke_mm(sheet: PatchworkSheet) -> float:
    """The band's outline (low ink) or none (a filled band)."""
    return RIBBON_LINE_MM if sheet.low_ink else 0.0


def centre_label_fits(space_mm: float, sheet: PatchworkSheet) -> bool:
    """Whether "centre: the end" fits between the centre space and the first lap's band, keeping
    ``CLEARANCE_MM`` from both (else the legend under the track names the centre space)."""
    room = (first_lap_mm(space_mm) - CENTRE_SCALE * space_mm / 2 - CENTRE_RING_MM / 2
            - (space_mm / 2 + RIBBON_MARGIN_MM + _ribbon_stroke_mm(sheet) / 2))
    return room - 2 * (CLEARANCE_MM + CLEARANCE_SLACK_MM) >= LABEL_INK_EM * CENTRE_LABEL_PT * PT_MM


def _band_top(outline: list[tuple[float, float]], x0: float, x1: float) -> float:
    """The highest point of the band's outline between x0 and x1 (y down), its edges followed exactly."""
    top = math.inf
    for (ax, ay), (bx, by) in zip(outline, outline[1:] + outline[:1]):
        lo, hi = max(min(ax, bx), x0), min(max(ax, bx), x1)
        if lo > hi:
            continue
        for x in (lo, hi):
            t = 0.0 if bx == ax else (x - ax) / (bx - ax)
            top = min(top, ay + t * (by - ay))
    return top


def _track_labels(spaces: list[Space], outline: list[tuple[float, float]], sheet: PatchworkSheet,
                  centre_label: bool, tight: bool = False) -> list[Item]:
    """"start" above space 0, clear of the band under it; "centre: the end" beside the centre
    space, away from space 52, when it fits there (``centre_label``): ``LABEL_CLEARANCE_MM`` from
    the centre's ring, or just ``CLEARANCE_MM`` when the first lap was moved out for it (``tight``)."""
    start, last, centre = spaces[rules.START_POSITION], spaces[rules.FINAL_POSITION - 1], spaces[rules.FINAL_POSITION]
    half_w = text_width_mm("start", 8, "Helvetica-Bold") / 2 + CLEARANCE_MM
    band = _band_top(outline, start.cx - half_w, start.cx + half_w) - _ribbon_stroke_mm(sheet) / 2
    descent = LABEL_DESCENT_EM * 8 * PT_MM
    y = min(start.cy - start.r - RIBBON_MARGIN_MM - LABEL_CLEARANCE_MM, band - CLEARANCE_MM - CLEARANCE_SLACK_MM - descent)
    items: list[Item] = [Text(start.cx, y, "start", size_pt=8, font="Helvetica-Bold", anchor="middle")]
    if not centre_label:
        return items
    below = last.cy <= centre.cy + 0.7 * math.hypot(last.cx - centre.cx, last.cy - centre.cy)
    em = CENTRE_LABEL_PT * PT_MM
    near = CENTRE_RING_MM / 2 + CLEARANCE_MM + CLEARANCE_SLACK_MM  # the label's ink this far from the ring
    if below:
        y = centre.cy + centre.r + near + (LABEL_INK_EM - LABEL_DESCENT_EM) * em
        if not tight:
            y = max(y, centre.cy + centre.r + LABEL_CLEARANCE_MM + 0.72 * em)  # 0.72 em: a capital's height
    else:
        y = centre.cy - centre.r - near - LABEL_DESCENT_EM * em
        if not tight:
            y = min(y, centre.cy - centre.r - LABEL_CLEARANCE_MM)
    items.append(Text(centre.cx, y, CENTRE_LABEL, size_pt=CENTRE_LABEL_PT, font="Helvetica-Bold", anchor="middle"))
    return items


def edition_text(edition: str) -> str:
    """The edition line printed on the track: the edition and its leather spaces."""
    name = {"classic": "classic edition (2014 board)", "revised": "revised edition (newer prints, app)"}[edition]
    spaces = ", ".join(str(s) for s in rules.leather_spaces(edition))
    return f"Leather patches: {name} on spaces {spaces}."


RULES_TEXT = rules.TRACK_RULES_TEXT  # the words live in the rule core, where the check reads them


LEGEND_INCOME = "button space: take your income"
LEGEND_LEATHER = "leather space: the first to get there takes a leather patch"
LEGEND_SECOND_MM = 62.0  # where the second legend entry starts when both share a line
LEGEND_ENTRIES = (LEGEND_INCOME, LEGEND_LEATHER)
LEGEND_ICON_MM = 6.0  # from an entry's start to its words
LEGEND_LINE_MM = 5.5  # between the legend's lines
CENTRE_LABEL = "centre: the end"
CENTRE_LABEL_PT = 8.0


def _legend_entries(width: float, centre: bool = False) -> list[tuple[str, float, int]]:
    """Each legend entry's words, its x from the legend's left edge and its line (0, 1, ...): the
    button and the leather entries share a line when both fit, the second at LEGEND_SECOND_MM; the
    centre's entry (``centre``: when its label does not fit beside the centre space) goes on the
    first line with room for it, else on a line of its own."""
    income, leather = LEGEND_ENTRIES
    placed = [(income, 0.0, 0)]
    ends = [LEGEND_ICON_MM + text_width_mm(income, TEXT_PT)]

    for words in (leather, CENTRE_LABEL) if centre else (leather,):
        need = LEGEND_ICON_MM + text_width_mm(words, TEXT_PT)
        for line, end in enumerate(ends):
            x = LEGEND_SECOND_MM * math.ceil((end + 1e-9) / LEGEND_SECOND_MM)
            if x + need <= width:
                placed.append((words, x, line))
                ends[line] = x + need
                break
        else:
            placed.append((words, 0.0, len(ends)))
            ends.append(need)
    return placed


def _legend_lines(width: float, centre: bool = False) -> int:
    return 1 + max(line for _, _, line in _legend_entries(width, centre))


def _legend_track(x: float, y: float, width: float, sheet: PatchworkSheet, centre: bool) -> list[Item]:
    """The legend under the track: a button space, a leather space, and the centre space when the
    words "centre: the end" do not fit beside it on the track (``centre``)."""
    items: list[Item] = []
    for words, dx, line in _legend_entries(width, centre):
        ex, ey = x + dx, y + line * LEGEND_LINE_MM
        if words == LEGEND_INCOME:
            items += _income_button(ex + 2.2, ey - 1.0, 2.2, sheet)
        elif words == LEGEND_LEATHER:
            items += _leather_mark(ex + 2.2, ey - 1.0, 3.6, sheet)
        else:
            items.append(Circle(ex + 2.2, ey - 1.0, 2.2, stroke=INK_DARK, fill=WHITE if sheet.low_ink else TRACK_CENTRE_FILL,
                                line_mm=CENTRE_RING_MM))
        items.append(Text(ex + LEGEND_ICON_MM, ey, words, size_pt=TEXT_PT))
    return items


def _track_pages(sheet: PatchworkSheet, cell: float) -> list[Page]:
    """The time track with its legend and the rules under it; on a page too small for both (A5),
    the rules go on a page of their own after the track."""
    _, _, width, height = _inner(sheet)
    plan = track_plan(sheet)
    size, separate, in_legend = plan.size_mm, plan.rules_apart, plan.centre_in_legend
    rules_lines = wrap(RULES_TEXT, width, TEXT_PT)
    label_room = TRACK_LABEL_ROOM_MM
    area_h = height - _track_text_height(width, separate, in_legend) - label_room
    ex0, ey0, ex1, ey1 = _track_extent(size, plan.label_mm)
    dx = PAGE_MARGIN_MM + (width - (ex1 - ex0)) / 2 - ex0
    dy = PAGE_MARGIN_MM + HEADER_MM + 4.0 + (area_h - (ey1 - ey0)) / 2 - ey0
    spaces = [Space(s.position, s.cx + dx, s.cy + dy, s.r) for s in spiral_spaces(size, plan.label_mm)]
    line = [(x + dx, y + dy) for x, y in spiral_path(size, plan.label_mm)]
    items = _header("time track", edition_text(sheet.leather))
    ribbon = _ribbon(line, size / 2 + RIBBON_MARGIN_MM, sheet)
    items.append(ribbon)
    items += _arrows(spaces)
    for space in spaces:
        items += _track_space(space, sheet)
    items += _track_labels(spaces, list(ribbon.points), sheet, centre_label=not in_legend, tight=plan.label_mm > 0)
    y = PAGE_MARGIN_MM + HEADER_MM + label_room + area_h + line_height_mm(TEXT_PT)
    items += _legend_track(PAGE_MARGIN_MM, y, width, sheet, in_legend)
    y += line_height_mm(TEXT_PT) * 0.6 + (_legend_lines(width, in_legend) - 1) * LEGEND_LINE_MM
    rules_items: list[Item] = []
    if separate:
        y = PAGE_MARGIN_MM + HEADER_MM + 2.0
    for line in rules_lines:
        y += line_height_mm(TEXT_PT)
        rules_items.append(Text(PAGE_MARGIN_MM, y, line, size_pt=TEXT_PT))
    if not separate:
        return [_page(sheet, cell, items + rules_items, "track")]
    rules_page = _header("time track rules", "How to play, in short.") + rules_items
    return [_page(sheet, cell, items, "track"), _page(sheet, cell, rules_page, "track rules")]


def _track_text_height(width: float, separate: bool = False, centre: bool = False) -> float:
    lines = (0 if separate else len(wrap(RULES_TEXT, width, TEXT_PT))) + 2  # legend, rules and air
    return lines * line_height_mm(TEXT_PT) + 4.0 + (_legend_lines(width, centre) - 1) * LEGEND_LINE_MM


@dataclass(frozen=True, slots=True)
class TrackPlan:
    """How the track page is set: the spaces' size, the rules on a page of their own (when the track
    and the rules under it do not fit one page: A5), the centre space named in the legend rather
    than beside it, and the room (mm) the first lap leaves for that label when widened for it."""

    size_mm: float
    rules_apart: bool
    centre_in_legend: bool
    label_mm: float


def _sized(sheet: PatchworkSheet, centre_in_legend: bool, label_mm: float) -> TrackPlan | None:
    _, _, width, height = _inner(sheet)
    for apart in (False, True):
        try:
            size = track_space_mm(width, height - _track_text_height(width, apart, centre_in_legend) - TRACK_LABEL_ROOM_MM,
                                  label_mm)
        except ParameterError:
            continue
        return TrackPlan(size, apart, centre_in_legend, label_mm)
    return None


def track_plan(sheet: PatchworkSheet) -> TrackPlan:
    """The largest track the page holds with "centre: the end" readable: beside the centre space where
    it fits; else, whichever leaves the larger spaces (the legend first on a tie), in the legend
    under the track, or beside the centre with the first lap moved out to make room for it."""
    plain = _sized(sheet, False, 0.0)
    if plain is not None and centre_label_fits(plain.size_mm, sheet):
        return plain
    found = [p for p in (_sized(sheet, True, 0.0), _sized(sheet, False, LABEL_INK_EM * CENTRE_LABEL_PT * PT_MM)) if p]
    if not found:
        raise ParameterError(f"paper {sheet.paper}: the time track and its legend do not fit; use a4 or letter")
    return max(found, key=lambda p: p.size_mm)  # max keeps the first of equals: the legend


def track_space_size(sheet: PatchworkSheet) -> float:
    """The diameter of a track space on this sheet's paper (sizes the time tokens)."""
    return track_plan(sheet).size_mm


# ---------------------------------------------------------------------------------------------
# Extras


def _caption(x: float, y: float, text: str) -> Text:
    return Text(x, y, text, size_pt=9, font="Helvetica-Bold")


def _tile_grid(x: float, y: float, cols: int, rows: int, count: int, w: float, h: float, grey: float) -> list[Item]:
    """Grey cut lines around ``count`` tiles of w x h laid out row by row."""
    pieces = []
    for i in range(count):
        r, c = divmod(i, cols)
        pieces.append((r, c))
    items: list[Item] = []
    for r in range(rows + 1):
        in_row = [c for rr, c in pieces if rr in (r, r - 1)]
        if in_row:
            items.append(Line(x, y + r * h, x + (max(in_row) + 1) * w, y + r * h, stroke=grey, line_mm=CUT_LINE_MM))
    for c in range(cols + 1):
        in_col = [r for r, cc in pieces if cc in (c, c - 1)]
        if in_col:
            items.append(Line(x + c * w, y, x + c * w, y + (max(in_col) + 1) * h, stroke=grey, line_mm=CUT_LINE_MM))
    return items


def _token_button(cx: float, cy: float, r: float, value: int, sheet: PatchworkSheet) -> list[Item]:
    fill = _ink(sheet, BUTTON_BLUE)
    text_colour = INK_DARK if sheet.low_ink else WHITE
    items: list[Item] = [
        Circle(cx, cy, r, stroke=INK_DARK if sheet.low_ink else BUTTON_BLUE, fill=fill, line_mm=0.3),
        Circle(cx, cy, r * 0.8, stroke=INK_DARK if sheet.low_ink else WHITE, fill=None, line_mm=0.2),
    ]
    size_pt = 11.0 if value < 10 else 10.0
    items.append(Text(cx, _baseline(cy, size_pt), str(value), size_pt=size_pt, font="Helvetica-Bold", anchor="middle", colour=text_colour))
    return items


def _extras_pages(sheet: PatchworkSheet, cell: float) -> list[Page]:
    _, _, width, height = _inner(sheet)
    grey = _cut_grey(sheet)
    x = PAGE_MARGIN_MM
    y = PAGE_MARGIN_MM + HEADER_MM + 2.0
    items = _header("extras", "Leather patches, the bonus tile, time tokens, the neutral marker and the button bank.")

    # Leather patches: five 1x1 patches, the size of a quilt square.
    leathers = len(rules.leather_spaces(sheet.leather))
    items.append(_caption(x, y + 3.5, f"{leathers} leather patches (1x1, a quilt square each)"))
    y += 6.0
    gap = 4.0
    per_row = max(1, int((width + gap) // (cell + gap)))
    for i in range(leathers):
        r, c = divmod(i, per_row)
        lx, ly = x + c * (cell + gap), y + r * (cell + gap)
        items += patch_art(frozenset({(0, 0)}), lx, ly, cell, None, None, 0, LEATHER_BROWN, sheet)
        items += cut_lines([frozenset({(0, 0)})], lx, ly, cell, grey)
    y += -(-leathers // per_row) * (cell + gap) + 2.0

    # The bonus tile, the time tokens (a spare each) and the neutral marker on one row.
    disc = max(TIME_TOKEN_MIN_MM, floor_to(0.8 * track_space_size(sheet), 0.5))
    token = disc + 3.0  # the square tile around a token's disc
    count = rules.PLAYERS * (1 + TIME_TOKEN_SPARES)
    bonus = max(token * 1.5, 18.0)
    row_h = max(bonus, token) + 7.0
    items.append(_caption(x, y + 3.5, "7x7 bonus tile"))
    bx, by = x, y + 6.0
    items.append(Rect(bx, by, bonus, bonus, stroke=grey, fill=_ink(sheet, BONUS_GOLD), line_mm=CUT_LINE_MM))
    items.append(Text(bx + bonus / 2, by + bonus * 0.45, "7x7", size_pt=12, font="Helvetica-Bold", anchor="middle", colour=INK_DARK))
    items.append(Text(bx + bonus / 2, by + bonus * 0.78, "+7 points", size_pt=8, anchor="middle", colour=INK_DARK))

    tx = x + max(bonus, 30.0) + 10.0
    items.append(_caption(tx, y + 3.5, "Time tokens (a spare each)"))
    items += _tile_grid(tx, by, count, 1, count, token, token, grey)
    for i in range(count):
        p = i // (1 + TIME_TOKEN_SPARES)
        px = tx + i * token
        items.append(Circle(px + token / 2, by + token / 2, disc / 2, stroke=INK_DARK,
                            fill=_ink(sheet, PLAYER_COLOURS[p]), line_mm=0.3))
        label_pt = 10.0
        items.append(Text(px + token / 2, _baseline(by + token / 2, label_pt), f"P{p + 1}", size_pt=label_pt,
                          font="Helvetica-Bold", anchor="middle", colour=INK_DARK))

    mw, mh = disc * 1.6, disc
    mx = tx + max(count * token, 28.0) + 10.0
    if mx + max(mw, 28.0) > PAGE_MARGIN_MM + width:  # a narrow page: the marker starts a row of its own
        y = by + row_h + 2.0
        by = y + 6.0
        mx = x
        row_h = mh + 7.0
    items.append(_caption(mx, y + 3.5, "Neutral marker"))
    items += _tile_grid(mx, by, 1, 1, 1, mw, mh, grey)
    items.append(Polygon(((mx + 0.18 * mw, by + 0.3 * mh), (mx + 0.6 * mw, by + 0.3 * mh), (mx + 0.6 * mw, by + 0.15 * mh),
                          (mx + 0.85 * mw, by + 0.5 * mh), (mx + 0.6 * mw, by + 0.85 * mh), (mx + 0.6 * mw, by + 0.7 * mh),
                          (mx + 0.18 * mw, by + 0.7 * mh)), stroke=INK_DARK, fill=_ink(sheet, (0.80, 0.35, 0.35)), line_mm=0.3))
    items.append(Text(mx + mw / 2, by + mh + 3.9, "points clockwise", size_pt=LABEL_PT, anchor="middle", colour=0.3))
    y = by + row_h + 2.0

    # The button bank: square tiles, so a few straight cuts free them all. On a small page (A5) it
    # goes on a second extras page.
    total = sum(n for _, n in BUTTON_TOKENS)
    cols = int((width + 1e-9) // TOKEN_MM)
    values = [v for v, n in BUTTON_TOKENS for _ in range(n)]
    rows = -(-len(values) // cols)
    bottom = PAGE_MARGIN_MM + HEADER_MM + height
    pages = []
    if y + 6.0 + rows * TOKEN_MM > bottom:
        pages.append(_page(sheet, cell, items, "extras"))
        items = _header("extras", "The button bank.")
        y = PAGE_MARGIN_MM + HEADER_MM + 2.0
        if y + 6.0 + rows * TOKEN_MM > bottom:
            raise ParameterError(f"cell {cell:g} mm: the extras do not fit {sheet.paper} paper; try a smaller --cell")
    items.append(_caption(x, y + 3.5, f"Buttons for the bank: {total} tokens of 1, 5, 10 and 20"))
    y += 6.0
    items += _tile_grid(x, y, cols, rows, len(values), TOKEN_MM, TOKEN_MM, grey)
    for i, value in enumerate(values):
        r, c = divmod(i, cols)
        items += _token_button(x + (c + 0.5) * TOKEN_MM, y + (r + 0.5) * TOKEN_MM, TOKEN_MM * 0.4, value, sheet)
    return pages + [_page(sheet, cell, items, "extras")]


# ---------------------------------------------------------------------------------------------
# The document


def parameters_json(sheet: PatchworkSheet, cell: float) -> str:
    """The resolved parameters as the JSON a checker reads back from the PDF's subject."""
    return json.dumps(
        {"kind": KIND, "part": sheet.part, "paper": sheet.paper, "cell_mm": cell,
         "leather": sheet.leather, "ink": sheet.ink},
        sort_keys=True,
    )


def layout(sheet: PatchworkSheet) -> Document:
    """Every page of the chosen part(s): patches, quilts, time track, extras, in that order."""
    cell = cell_size_mm(sheet)
    builders = {"patches": _patch_pages, "quilts": _quilt_pages,
                "track": _track_pages, "extras": _extras_pages}
    pages: list[Page] = []
    for part in sheet.parts():
        pages += builders[part](sheet, cell)
    what = "all parts" if sheet.part == "all" else sheet.part
    return Document(
        pages=tuple(pages),
        title=f"{TITLE} print-and-play: {what}, {cell:g} mm squares, {sheet.paper}",
        subject=parameters_json(sheet, cell),
        keywords=f"printables:{KIND}",
    )
