"""The Minefield board sheet as layout data: boards with edge bands, coordinates, legend, rules.

Drawing conventions the checker reads back (printables/check/minefield.py):
- a board cell is a stroked, unfilled square of at least ``MIN_CELL_MM``; the cells of one board
  touch; stones go in the cells;
- Black's edges are bands filled black along the top and bottom of the cells; White's are bands
  filled white with a black outline along the left and right; each band is exactly as long as the
  side it runs along and stands ``BAND_GAP_MM`` away from it;
- column letters stand above and below the board, row numbers left and right of it;
- a legend diagram is a block of touching squares filled a light grey (``LEGEND_CELL_FILL``) with
  circles for stones (filled black or white); the forbidden placement is a stone crossed by two
  diagonal lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from printables.errors import ParameterError
from printables.layout.furniture import FURNITURE_HEIGHT_MM, footer, furniture_height, publisher_box, publisher_box_height
from printables.layout.primitives import (
    BLACK,
    WHITE,
    Circle,
    Document,
    Item,
    Line,
    Page,
    Rect,
    Text,
    line_height_mm,
    text_width_mm,
    wrap,
)
from printables.layout.sheet import PAGE_MARGIN_MM, Box, arrangements, column_label, floor_to, regions
from printables.paper import page_size_mm
from printables.params.minefield import MAX_CELL_MM, MIN_CELL_MM, MinefieldSheet
from printables.rules import minefield as rules
from printables.measured import facts_for
from printables.rules.facts import GO_STONE_MM, GameFacts

KIND = "minefield"
TITLE = "Minefield"
CREDIT = "a connection game by Mark Steere (2024), with Luis Bolaños Mures"

MAX_AUTO_CELL_MM = 22.0  # a Go stone (22 mm) fits; larger cells only use paper
CELL_STEP_MM = 0.5  # automatic cell sizes are round numbers
FIT_STEP_MM = 0.1  # resolution of "the largest cell that fits"

# The frame around the cells, from the inside out: gap, band, gap, coordinates.
BAND_GAP_MM = 1.5  # "WHITE" stacked on a 3.5 mm band keeps 1.5 mm from the border
BAND_MIN_MM = 3.0
BAND_MAX_MM = 5.0
BAND_PER_CELL = 0.3
LABEL_GAP_MM = 1.7  # a coordinate keeps 1.5 mm from the band beside it (its outline included)
LABEL_MM = 3.6  # room for a row number ("28", 3.4 mm at 8.5 pt) or a column letter

CELL_GREY = 0.45
CELL_LINE_MM = 0.25
BORDER_LINE_MM = 0.5
WHITE_BAND_LINE_MM = 0.4
BAND_LABEL_MIN_MM = 3.0  # thinner bands carry no "BLACK" / "WHITE"

HEADING_PT = 16.0
SUBTITLE_PT = 8.0
HEADER_MM = 14.0  # the heading and one subtitle line; each further subtitle line adds its height
WIDEST_CELL = 88.8  # stands in for the cell in the subtitle before the cell is chosen (tabular digits)
GAP_MM = 4.0
REGION_GAP_MM = 8.0  # between boards sharing a page

LEGEND_CELL_SIZES_MM = (7.0, 6.5, 6.0, 5.5, 5.0)  # the largest whose legend row fits the page
LEGEND_CELL_FILL = 0.95  # tinted, unlike a board's cells: an example, not a place to play
LEGEND_GAP_MM = 6.0
LEGEND_TEXT_PT = 8.0
LEGEND_NAME_PT = 8.0
KEY_ROWS = 4  # the edge key's two swatches and the pencil key's two circles
KEY_STEP_MM = 4.6  # from one key row to the next
LEGEND_BELOW_MM = 5.5 + LEGEND_CELL_SIZES_MM[0] - 3.0 + KEY_ROWS * KEY_STEP_MM  # heading, then the diagrams beside the keys
BAND_LABEL_PT = 7.0  # "BLACK" and "WHITE", the same size and weight on every band
LEGEND_SIDE_W_MM = 46.0
STONE_RADIUS = 0.37  # of a cell
CROSS_REACH = 0.46  # of a cell, from the centre to each arm's end
CROSS_LINE_MM = 0.4
CROSS_HALO_MM = 0.95  # white under the black arms, so the cross shows on a black stone
SWATCH_MM = (9.0, 3.0)
PENCIL_STONE_MM = 3.4  # the pencil key's circles

RULES_PT_MAX = 8.0
RULES_PT_MIN = 8.0  # body text of a sheet: wrapped, never shrunk below 8 pt
# The printed texts live with the rules so the check can read them back from the page.
RULES = rules.RULES_SUMMARY
LEGEND_HEADING = rules.LEGEND_HEADING
LEGEND_NOTE = rules.LEGEND_NOTE
PATTERN_LABELS = rules.PATTERN_LABELS
EDGE_KEY = rules.EDGE_KEY
PENCIL_KEY = rules.PENCIL_KEY


def band_mm(cell: float) -> float:
    """Thickness of an edge band beside cells of ``cell`` mm."""
    return round(min(BAND_MAX_MM, max(BAND_MIN_MM, BAND_PER_CELL * cell)), 1)


def frame_mm(cell: float) -> float:
    """What one side of a board adds to its cells: gap, band, gap and coordinates."""
    return BAND_GAP_MM + band_mm(cell) + LABEL_GAP_MM + LABEL_MM


def block_mm(size: int, cell: float) -> float:
    """Width (and height) of a whole board: cells plus the frame on both sides."""
    return size * cell + 2 * frame_mm(cell)


def largest_cell_mm(size: int, room: Box) -> float:
    """The largest cell (a multiple of ``FIT_STEP_MM``) for a ``size`` board inside ``room``; 0 if none."""
    side = min(room.w, room.h)
    tenths = int(MAX_CELL_MM / FIT_STEP_MM)
    while tenths > 0 and block_mm(size, tenths * FIT_STEP_MM) > side + 1e-9:
        tenths -= 1
    return round(tenths * FIT_STEP_MM, 1)


def largest_size(room: Box) -> int:
    """The largest board that fits ``room`` with cells of ``MIN_CELL_MM``."""
    return int((min(room.w, room.h) - 2 * frame_mm(MIN_CELL_MM)) // MIN_CELL_MM)


def _rules_size_pt(width: float) -> float:
    """The largest size, in half points, at which each rules line fits ``width``; at least the minimum."""
    size = RULES_PT_MAX
    while size > RULES_PT_MIN and max(text_width_mm(line, size) for line in RULES) > width:
        size -= 0.5
    return size


def rules_lines(width: float) -> tuple[float, list[str]]:
    """The rules summary as lines that fit ``width`` (two, unless the paper is very narrow)."""
    size = _rules_size_pt(width)
    lines: list[str] = []
    for line in RULES:
        lines += [line] if text_width_mm(line, size) <= width else wrap(line, width, size)
    return size, lines


def subtitle_parts(sheet: MinefieldSheet, cell: float) -> list[str]:
    """The subtitle's parts (each translated on its own): credit, board and cells, boards per page."""
    n = sheet.size
    parts = [CREDIT, f"{n}x{n} board, {cell:g} mm cells"]
    return parts + ([f"{sheet.per_page} boards"] if sheet.per_page > 1 else [])


def subtitle_lines(parts: list[str], width: float) -> list[str]:
    """The subtitle's parts joined by `` · `` into as few lines as fit ``width`` (a part too wide
    on its own is wrapped): a narrow page gets two lines rather than text in its margin."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and text_width_mm(joined, SUBTITLE_PT) <= width:
            lines[-1] = joined
        elif text_width_mm(part, SUBTITLE_PT) <= width:
            lines.append(part)
        else:
            lines += wrap(part, width, SUBTITLE_PT)
    return lines


def header_mm(sheet: MinefieldSheet) -> float:
    """Height of the heading and subtitle: one subtitle line, plus one for each line it wraps to."""
    page_w, _ = page_size_mm(sheet.paper, sheet.landscape)
    cell = WIDEST_CELL if sheet.cell_mm is None else sheet.cell_mm
    lines = subtitle_lines(subtitle_parts(sheet, cell), page_w - 2 * PAGE_MARGIN_MM)
    return HEADER_MM + (len(lines) - 1) * line_height_mm(SUBTITLE_PT)


@dataclass(frozen=True)
class Plan:
    """Where everything goes: the cell size, one region per board, the legend and the rules."""

    cell: float
    legend_beside: bool
    boards: tuple[Box, ...]
    legend: Box
    legend_cell: float
    rules_y: float  # top of the rules block
    rules_pt: float
    rules: tuple[str, ...]


def _foot_mm(sheet: MinefieldSheet, beside: bool) -> float:
    """Height of the page's foot: ruler and footer, the rules above them, and (with the legend below
    the boards) the publisher's box; with the legend beside, the box stands in the legend column."""
    page_w, _ = page_size_mm(sheet.paper, sheet.landscape)
    inner_w = page_w - 2 * PAGE_MARGIN_MM
    size_pt, lines = rules_lines(inner_w)
    foot = FURNITURE_HEIGHT_MM if beside else max(furniture_height(inner_w, f) for f in _box_facts(sheet))
    return foot + len(lines) * line_height_mm(size_pt)


def box_facts(sheet: MinefieldSheet, cell: float) -> GameFacts:
    """The publisher's box of a sheet with cells of ``cell`` mm: its pieces fit the cell."""
    return facts_for(KIND, cell_mm=cell, size=sheet.size)


def _box_facts(sheet: MinefieldSheet) -> tuple[GameFacts, GameFacts]:
    """The box's two wordings while the cell is still being chosen (Go stones, or counters up to
    the widest size a smaller cell names): the page keeps room for the taller."""
    return box_facts(sheet, GO_STONE_MM), box_facts(sheet, GO_STONE_MM - 0.1)


def _layouts(sheet: MinefieldSheet) -> list[tuple[bool, Box, Box]]:
    """The two ways to share the page: legend below the boards, or beside them."""
    page_w, page_h = page_size_mm(sheet.paper, sheet.landscape)
    inner_w = page_w - 2 * PAGE_MARGIN_MM
    top = PAGE_MARGIN_MM + header_mm(sheet)
    bottom = page_h - PAGE_MARGIN_MM - _foot_mm(sheet, False) - GAP_MM
    below_legend = Box(PAGE_MARGIN_MM, bottom - legend_below_mm(inner_w), inner_w, legend_below_mm(inner_w))
    below = Box(PAGE_MARGIN_MM, top, inner_w, below_legend.y - GAP_MM - top)
    bottom = page_h - PAGE_MARGIN_MM - _foot_mm(sheet, True) - GAP_MM
    side_legend = Box(page_w - PAGE_MARGIN_MM - LEGEND_SIDE_W_MM, top, LEGEND_SIDE_W_MM, bottom - top)
    beside = Box(PAGE_MARGIN_MM, top, inner_w - LEGEND_SIDE_W_MM - GAP_MM, bottom - top)
    return [(False, below, below_legend), (True, beside, side_legend)]


def _auto_cell(fit: float) -> float:
    """The cell chosen when none is asked for: a round size, as large as fits, at most the maximum."""
    return min(MAX_AUTO_CELL_MM, floor_to(fit, CELL_STEP_MM))


def plan(sheet: MinefieldSheet) -> Plan:
    """Choose the cell size and where the boards and legend go: the largest cell over all choices.

    On equal cells the legend goes below the boards and the arrangement with the fewest empty
    slots wins; an asked-for cell takes the first choice where it fits.
    """
    page_w, page_h = page_size_mm(sheet.paper, sheet.landscape)
    inner_w = page_w - 2 * PAGE_MARGIN_MM
    rules_pt, lines = rules_lines(inner_w)
    best: tuple[float, bool, list[Box], Box, float] | None = None
    largest_fit = 0.0
    biggest_board = 0
    for beside, area, legend in _layouts(sheet):
        legend_cell = legend_cell_beside_mm(legend, sheet) if beside else legend_cell_mm(legend.w)
        if legend_cell is None:
            continue
        for cols, rows in arrangements(sheet.per_page):
            boxes = regions(area, cols, rows, sheet.per_page, gap=REGION_GAP_MM)
            fit = largest_cell_mm(sheet.size, boxes[0])
            largest_fit = max(largest_fit, fit)
            biggest_board = max(biggest_board, largest_size(boxes[0]))
            if fit < MIN_CELL_MM:
                continue
            if sheet.cell_mm is None:
                cell = _auto_cell(fit)
            else:
                cell = sheet.cell_mm if sheet.cell_mm <= fit + 1e-9 else 0.0
            if cell and (best is None or cell > best[0] + 1e-9):
                best = (cell, beside, boxes, legend, legend_cell)
    if best is not None:
        cell, beside, boxes, legend, legend_cell = best
        rules_y = page_h - PAGE_MARGIN_MM - _foot_mm(sheet, beside)
        return Plan(cell, beside, tuple(boxes), legend, legend_cell, rules_y, rules_pt, tuple(lines))
    where = f"{sheet.paper} {'landscape' if sheet.landscape else 'portrait'}"
    boards = f"{sheet.per_page} boards per page" if sheet.per_page > 1 else "one board per page"
    if largest_fit >= MIN_CELL_MM:
        raise ParameterError(
            f"cell {sheet.cell_mm:g} mm: the {sheet.size}x{sheet.size} board does not fit {where} with {boards}; "
            f"the largest cell that fits is {largest_fit:g} mm"
        )
    fits = f"the largest size that fits is {biggest_board}" if biggest_board >= rules.MIN_SIZE else "no board fits"
    others = ([] if sheet.landscape else ["--landscape"]) + (["a larger --paper"] if sheet.paper == "a5" else []) + (
        ["fewer --per-page"] if sheet.per_page > 1 else [])
    hint = f" (or try {', '.join(others)})" if others else ""
    raise ParameterError(
        f"size {sheet.size}: cells would be smaller than {MIN_CELL_MM:g} mm on {where} with {boards}; "
        f"{fits}{hint}"
    )


def _cap_mm(size_pt: float) -> float:
    """Helvetica's capital height in mm, to centre labels on a point."""
    return 0.72 * size_pt * 25.4 / 72


def _board(gx: float, gy: float, size: int, cell: float) -> list[Item]:
    """One board with its cells' top-left corner at ``(gx, gy)``."""
    items: list[Item] = []
    side = size * cell
    for row in range(size):
        for col in range(size):
            items.append(Rect(gx + col * cell, gy + row * cell, cell, cell, stroke=CELL_GREY, line_mm=CELL_LINE_MM))
    # The border is drawn as lines so that no extra rectangle can be mistaken for a cell or band.
    for x1, y1, x2, y2 in (
        (gx, gy, gx + side, gy),
        (gx, gy + side, gx + side, gy + side),
        (gx, gy, gx, gy + side),
        (gx + side, gy, gx + side, gy + side),
    ):
        items.append(Line(x1, y1, x2, y2, stroke=BLACK, line_mm=BORDER_LINE_MM))
    band = band_mm(cell)
    near, far = BAND_GAP_MM, BAND_GAP_MM + band
    items += _band(gx, gy - far, side, band, black=True)
    items += _band(gx, gy + side + near, side, band, black=True)
    items += _band(gx - far, gy, band, side, black=False)
    items += _band(gx + side + near, gy, band, side, black=False)
    items += _coordinates(gx, gy, size, cell, far + LABEL_GAP_MM)
    return items


def _band(x: float, y: float, w: float, h: float, black: bool) -> list[Item]:
    """An edge band: solid black, or white with a black outline; labelled when there is room."""
    if black:
        items: list[Item] = [Rect(x, y, w, h, stroke=None, fill=BLACK)]
    else:
        items = [Rect(x, y, w, h, stroke=BLACK, fill=WHITE, line_mm=WHITE_BAND_LINE_MM)]
    thickness = min(w, h)
    if thickness < BAND_LABEL_MIN_MM:
        return items
    size_pt = BAND_LABEL_PT
    cap = _cap_mm(size_pt)
    label = "BLACK" if black else "WHITE"
    if text_width_mm(label, size_pt, "Helvetica-Bold") >= max(w, h) - 4:
        return items
    if black:  # white letters on the black band
        items.append(Text(x + w / 2, y + (h + cap) / 2, label, size_pt=size_pt, font="Helvetica-Bold", anchor="middle", colour=WHITE))
    else:  # dark letters on the outlined white band, as large and bold as BLACK's, one under another
        step = cap * 1.6
        if step * len(label) >= h - 4:
            return items
        first = y + h / 2 - step * (len(label) - 1) / 2
        for i, letter in enumerate(label):
            items.append(Text(x + w / 2, first + i * step + cap / 2, letter, size_pt=size_pt, font="Helvetica-Bold",
                              anchor="middle", colour=BLACK))
    return items


def _coordinates(gx: float, gy: float, size: int, cell: float, offset: float) -> list[Item]:
    """Column letters above and below the board, row numbers (1 at the top) left and right."""
    items: list[Item] = []
    size_pt = min(8.5, max(6.0, 0.6 * cell))
    cap = _cap_mm(size_pt)
    side = size * cell
    for col in range(size):
        cx = gx + (col + 0.5) * cell
        label = column_label(col)
        items.append(Text(cx, gy - offset - 0.6, label, size_pt=size_pt, anchor="middle", colour=0.25))
        items.append(Text(cx, gy + side + offset + cap + 0.4, label, size_pt=size_pt, anchor="middle", colour=0.25))
    for row in range(size):
        baseline = gy + (row + 0.5) * cell + cap / 2
        items.append(Text(gx - offset, baseline, str(row + 1), size_pt=size_pt, anchor="end", colour=0.25))
        items.append(Text(gx + side + offset, baseline, str(row + 1), size_pt=size_pt, anchor="start", colour=0.25))
    return items


def _stone(cx: float, cy: float, colour: str, cell: float) -> Circle:
    fill = BLACK if colour == rules.BLACK else WHITE
    return Circle(cx, cy, STONE_RADIUS * cell, stroke=BLACK, fill=fill, line_mm=0.3)


def diagram(x: float, y: float, shown: rules.Diagram, cell: float) -> list[Item]:
    """A legend diagram from the rule core: cells, stones, and the forbidden stone crossed out."""
    items: list[Item] = []
    for row in range(shown.height):
        for col in range(shown.width):
            items.append(
                Rect(x + col * cell, y + row * cell, cell, cell, stroke=CELL_GREY, fill=LEGEND_CELL_FILL, line_mm=0.2)
            )
    for (row, col), colour in shown.stones:
        items.append(_stone(x + (col + 0.5) * cell, y + (row + 0.5) * cell, colour, cell))
    row, col = shown.forbidden_point
    cx, cy = x + (col + 0.5) * cell, y + (row + 0.5) * cell
    items.append(_stone(cx, cy, shown.colour, cell))
    reach = CROSS_REACH * cell
    arms = ((cx - reach, cy - reach, cx + reach, cy + reach), (cx - reach, cy + reach, cx + reach, cy - reach))
    for stroke, width in ((WHITE, CROSS_HALO_MM), (BLACK, CROSS_LINE_MM)):
        for x1, y1, x2, y2 in arms:
            items.append(Line(x1, y1, x2, y2, stroke=stroke, line_mm=width))
    return items


def _diagram_size(shown: rules.Diagram, cell: float) -> tuple[float, float]:
    return shown.width * cell, shown.height * cell


def _name_slot(shown: rules.Diagram, cell: float) -> float:
    """Width a diagram takes in the legend row: the diagram or its name, whichever is wider."""
    return max(shown.width * cell, text_width_mm(PATTERN_LABELS[shown.name], LEGEND_NAME_PT))


def legend_cell_mm(width: float) -> float | None:
    """The largest legend cell at which the one-row legend fits ``width`` mm; None if none does."""
    for cell in LEGEND_CELL_SIZES_MM:
        used = sum(_name_slot(shown, cell) + LEGEND_GAP_MM for shown in rules.LEGEND_DIAGRAMS)
        if used + _edge_key_width() <= width:
            return cell
    return None


def _edge_key(x: float, y: float) -> list[Item]:
    """Two swatches saying whose edges the bands are, then two circles saying how to play with a pencil."""
    items: list[Item] = []
    w, h = SWATCH_MM
    for i, (label, black) in enumerate(EDGE_KEY):
        top = y + i * KEY_STEP_MM
        if black:
            items.append(Rect(x, top, w, h, stroke=None, fill=BLACK))
        else:
            items.append(Rect(x, top, w, h, stroke=BLACK, fill=WHITE, line_mm=WHITE_BAND_LINE_MM))
        items.append(Text(x + w + 2, top + (h + _cap_mm(LEGEND_TEXT_PT)) / 2, label, size_pt=LEGEND_TEXT_PT))
    r = PENCIL_STONE_MM / 2
    for i, (label, filled) in enumerate(PENCIL_KEY, len(EDGE_KEY)):
        top = y + i * KEY_STEP_MM
        items.append(Circle(x + w / 2, top + h / 2, r, stroke=BLACK, fill=BLACK if filled else WHITE, line_mm=0.3))
        items.append(Text(x + w + 2, top + (h + _cap_mm(LEGEND_TEXT_PT)) / 2, label, size_pt=LEGEND_TEXT_PT))
    return items


def _edge_key_width() -> float:
    return SWATCH_MM[0] + 2 + max(text_width_mm(label, LEGEND_TEXT_PT) for label, _ in EDGE_KEY + PENCIL_KEY)


def _legend_heading_lines(width: float) -> list[str]:
    """The legend's heading and note: one line if it fits, else wrapped."""
    return wrap(f"{LEGEND_HEADING} {LEGEND_NOTE}", width, LEGEND_TEXT_PT)


def legend_below_mm(width: float) -> float:
    """Height of the legend row under the boards, its heading wrapped to ``width``."""
    return LEGEND_BELOW_MM + (len(_legend_heading_lines(width)) - 1) * line_height_mm(LEGEND_TEXT_PT)


def _legend_below(box: Box, cell: float) -> list[Item]:
    """The legend as one row: heading, the three diagrams with names, the edge key on the right."""
    lines = _legend_heading_lines(box.w)
    items: list[Item] = [Text(box.x, box.y + 3 + i * line_height_mm(LEGEND_TEXT_PT), line, size_pt=LEGEND_TEXT_PT)
                         for i, line in enumerate(lines)]
    y = box.y + 5.5 + (len(lines) - 1) * line_height_mm(LEGEND_TEXT_PT)
    x = box.x
    for shown in rules.LEGEND_DIAGRAMS:
        w, h = _diagram_size(shown, cell)
        slot = _name_slot(shown, cell)
        items += diagram(x + (slot - w) / 2, y, shown, cell)
        name = PATTERN_LABELS[shown.name]
        items.append(Text(x + slot / 2, y + h + 4.0, name, size_pt=LEGEND_NAME_PT, font="Helvetica-Bold", anchor="middle"))
        x += slot + LEGEND_GAP_MM
    key_w = _edge_key_width()
    key_x = max(x, box.x + box.w - key_w)
    items += _edge_key(key_x, y + cell - 3.0)
    return items


def _legend_beside(box: Box, cell: float, facts: tuple[GameFacts, ...]) -> tuple[list[Item], float]:
    """The legend as a column: heading, the diagrams one under another, the edge key and the
    publisher's box (``facts``: the first is drawn, room is kept for the tallest); and its height."""
    items: list[Item] = []
    y = box.y + 3
    for line in wrap(f"{LEGEND_HEADING} {LEGEND_NOTE}", box.w, LEGEND_TEXT_PT):
        items.append(Text(box.x, y, line, size_pt=LEGEND_TEXT_PT))
        y += line_height_mm(LEGEND_TEXT_PT)
    y += 1.5
    for shown in rules.LEGEND_DIAGRAMS:
        w, h = _diagram_size(shown, cell)
        items += diagram(box.x, y, shown, cell)
        items.append(Text(box.x, y + h + 4.0, PATTERN_LABELS[shown.name], size_pt=LEGEND_NAME_PT, font="Helvetica-Bold"))
        y += h + 8.5
    items += _edge_key(box.x, y)
    y += (KEY_ROWS - 1) * KEY_STEP_MM + SWATCH_MM[1] + GAP_MM
    items += publisher_box(box.x, y, box.w, facts[0])
    y += max(publisher_box_height(f, box.w) for f in facts)
    return items, y - box.y


def legend_cell_beside_mm(box: Box, sheet: MinefieldSheet) -> float | None:
    """The largest legend cell at which the legend column fits ``box``; None if none does."""
    for cell in LEGEND_CELL_SIZES_MM:
        if _legend_beside(box, cell, _box_facts(sheet))[1] <= box.h:
            return cell
    return None


def parameters_json(sheet: MinefieldSheet, cell: float) -> str:
    """The resolved parameters as the JSON a checker reads back from the PDF's subject."""
    return json.dumps(
        {
            "kind": KIND,
            "size": sheet.size,
            "cell_mm": cell,
            "paper": sheet.paper,
            "landscape": sheet.landscape,
            "per_page": sheet.per_page,
        },
        sort_keys=True,
    )


def layout(sheet: MinefieldSheet) -> Document:
    """The whole sheet as one page of layout data."""
    p = plan(sheet)
    page_w, page_h = page_size_mm(sheet.paper, sheet.landscape)
    n, cell = sheet.size, p.cell
    paper = "Letter" if sheet.paper == "letter" else sheet.paper.upper()
    boards = f" · {sheet.per_page} boards" if sheet.per_page > 1 else ""
    items: list[Item] = [Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 6, TITLE, size_pt=HEADING_PT, font="Helvetica-Bold")]
    subtitle = subtitle_lines(subtitle_parts(sheet, cell), page_w - 2 * PAGE_MARGIN_MM)
    for i, line in enumerate(subtitle):
        items.append(Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 10.5 + i * line_height_mm(SUBTITLE_PT), line,
                          size_pt=SUBTITLE_PT, colour=0.3))
    block = block_mm(n, cell)
    inset = frame_mm(cell)
    corners = [(box.x + (box.w - block) / 2, box.y + (box.h - block) / 2) for box in p.boards]
    if p.legend_beside:
        # The boards and the legend column stand together in the middle of the page.
        left = min(x for x, _ in corners)
        top = min(y for _, y in corners)
        width = max(x for x, _ in corners) + block - left + GAP_MM + p.legend.w
        dx = (page_w - width) / 2 - left
        corners = [(x + dx, y) for x, y in corners]
        # Level with the top band when there is room, else as high as the column needs.
        height = _legend_beside(p.legend, p.legend_cell, _box_facts(sheet))[1]
        legend_top = min(top + LABEL_MM + LABEL_GAP_MM, p.legend.y + p.legend.h - height)
        legend = Box(left + dx + width - p.legend.w, legend_top, p.legend.w, height)
        items += _legend_beside(legend, p.legend_cell, (box_facts(sheet, cell), *_box_facts(sheet)))[0]
    else:
        items += _legend_below(p.legend, p.legend_cell)
    for x, y in corners:
        items += _board(x + inset, y + inset, n, cell)
    line_h = line_height_mm(p.rules_pt)
    for i, line in enumerate(p.rules):
        items.append(Text(PAGE_MARGIN_MM, p.rules_y + (i + 0.8) * line_h, line, size_pt=p.rules_pt))
    description = f"{TITLE} · {n}x{n} board · {cell:g} mm cells · {paper}" + (
        " landscape" if sheet.landscape else ""
    ) + boards
    items += footer(page_w, page_h, PAGE_MARGIN_MM, description, None if p.legend_beside else box_facts(sheet, cell))
    return Document(
        pages=(Page(page_w, page_h, tuple(items)),),
        title=f"{TITLE}: {n}x{n} board",
        subject=parameters_json(sheet, cell),
        keywords=f"printables:{KIND}",
    )
