"""The Bitcoin Harvest sheet as layout data: grids, the 12 harvesters, score tables, rules."""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache

from printables.errors import ParameterError
from printables.layout.furniture import footer, furniture_height
from printables.layout.primitives import (
    BLACK,
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
from printables.layout.sheet import PAGE_MARGIN_MM, REGION_GAP_MM, Box, arrangements, column_label, floor_to, regions
from printables.paper import page_size_mm
from printables.params.harvest import MIN_CELL_MM, HarvestSheet
from printables.rules import harvest, pentominoes
from printables.measured import facts_for

KIND = "harvest"
MAX_AUTO_CELL_MM = 15.0  # larger cells only waste paper
CELL_STEP_MM = 0.5
LABEL_BAND_MM = 5.0  # room for column letters above and row numbers left of the grid
HEADER_MM = 11.6  # title and credit lines; the column letters under the credit keep 1.5 mm from its descenders and brackets
SMALL_HEADER_MM = 6.5
GAP_MM = 3.0  # between score tables side by side
STACK_GAP_MM = 2.0  # between the grid, the harvesters and the score table: the captions keep their 1.5 mm
PIECE_CELL_MAX_MM = 3.0
PIECE_CELL_MIN_MM = 2.0
PIECE_CELL_ROOMY_MM = 4.5  # harvesters grow to this when the grid leaves room on the page
PIECE_SLOT_CELLS = (5, 3)  # every pentomino has an orientation inside 5 x 3 cells
PIECE_GAP_MM = 3.0
PIECE_LABEL_MM = 4.6  # a harvester's letter 1.5 mm clear of the slot above and the row below
PIECE_LABEL_PT = 8.0
PACKED_SLOT_HEIGHTS = (3, 4, 5)  # cells: taller slots let L, N, Y (and I at 5) stand upright, narrower
CAPTION_MM = 4.6  # a caption's baseline 2.1 mm down, its descenders 1.5 mm clear of what it names
SCORE_ROW_MM = 7.0
SCORE_BASELINE_MM = 2.6  # a row's text sits this far above its lower line: 1.5 mm clear of both lines
CAPTION_BASELINE_MM = 2.1
COLUMN_LABEL_MM = 2.4  # the column letters' baseline above the grid: a J's tail keeps 1.5 mm from the border
PIECE_FILL = 0.62
RULES_SIZE_PT = 8.0  # body text of a sheet
TEXT_PT = 8.0  # captions and the score table
CUT_GREY = 0.45
RULES_CLEAR_MM = 0.8  # the rules under the games keep 1.5 mm from the score tables and cut lines above (with either Noto Sans: the OS's or the pip package's)
CUT_DASH_MM = (3.0, 2.0)

TITLE = "The Bitcoin Harvest"
CREDIT = "a pentomino game by Néstor Romeral Andrés (Bitcoin Magazine, 2014)"


rules_summary = harvest.rules_summary  # the text lives with the rules so the check can read it back


def slot_orientation(letter: str) -> pentominoes.Shape:
    """The orientation drawn for a letter: the first fixed orientation inside the 5 x 3 slot."""
    slot_w, slot_h = PIECE_SLOT_CELLS
    for shape in pentominoes.ORIENTATIONS[letter]:
        w, h = pentominoes.size(shape)
        if w <= slot_w and h <= slot_h:
            return shape
    raise AssertionError(f"{letter} has no orientation within {slot_w}x{slot_h}")  # pragma: no cover


def _pieces_geometry(width: float, largest: float = PIECE_CELL_MAX_MM, rows: int | None = None) -> tuple[float, int]:
    """Piece cell size and slots per row for a block ``width`` mm wide (fewest rows, or ``rows``)."""
    slot_w, _ = PIECE_SLOT_CELLS
    for per_row in (12, 6, 4, 3):
        if rows is not None and -(-12 // per_row) != rows:
            continue
        cell = floor_to((width - PIECE_GAP_MM * (per_row - 1)) / (per_row * slot_w), 0.1)
        if cell >= PIECE_CELL_MIN_MM:
            return min(cell, largest), per_row
    raise ParameterError(f"a region {width:.0f} mm wide is too narrow for the 12 harvesters")


def _pieces_height(width: float, largest: float = PIECE_CELL_MAX_MM, rows: int | None = None) -> float:
    cell, per_row = _pieces_geometry(width, largest, rows)
    rows = -(-12 // per_row)
    return CAPTION_MM + rows * (PIECE_SLOT_CELLS[1] * cell + PIECE_LABEL_MM) + (rows - 1) * 1.5


def _roomy_pieces(width: float, spare: float) -> tuple[float, int | None, int]:
    """Larger harvesters in ``spare`` mm more than the reserved block: ``(cell, rows, slot_h)``.

    Besides the reserved 5 x 3 slots (``slot_h`` 0), each piece may get a slot as wide as the piece
    itself, in an orientation at most ``slot_h`` cells tall (3 to 5), in one row or two; the largest
    cell up to PIECE_CELL_ROOMY_MM wins (ties: fewer rows, then lower slots).
    """
    base = _pieces_height(width)
    best = (_pieces_geometry(width)[0], None, 0)
    for rows in (1, 2):
        try:
            cell, _ = _pieces_geometry(width, PIECE_CELL_ROOMY_MM, rows)
        except ParameterError:
            continue
        while cell > best[0] and _pieces_height(width, cell, rows) - base > spare:
            cell = round(cell - 0.1, 1)
        if cell > best[0]:
            best = (cell, rows, 0)
    for rows in (1, 2):
        for slot_h in PACKED_SLOT_HEIGHTS:
            cell = min(PIECE_CELL_ROOMY_MM, _packed_cell(width, rows, slot_h))
            while cell > best[0] and _packed_height(cell, rows, slot_h) - base > spare:
                cell = round(cell - 0.1, 1)
            if cell > best[0] + 1e-9:
                best = (cell, rows, slot_h)
    return best


@lru_cache(maxsize=None)  # the slot search asks for each (letter, height) some five times
def packed_orientation(letter: str, slot_h: int) -> pentominoes.Shape:
    """The narrowest orientation of ``letter`` at most ``slot_h`` cells tall (the first of equals)."""
    fitting = [s for s in pentominoes.ORIENTATIONS[letter] if pentominoes.size(s)[1] <= slot_h]
    return min(fitting, key=lambda s: pentominoes.size(s)[0])


def _packed_rows(rows: int) -> list[tuple[str, ...]]:
    per_row = -(-12 // rows)
    letters = tuple(pentominoes.LETTERS)
    return [letters[i:i + per_row] for i in range(0, 12, per_row)]


def _label(letter: str) -> str:
    return "X (+)" if letter == "X" else letter


def _slot_widths(row: tuple[str, ...], cell: float, slot_h: int) -> list[float]:
    """Each piece's slot: the piece's width, or its label's if that is wider."""
    return [max(pentominoes.size(packed_orientation(letter, slot_h))[0] * cell,
                text_width_mm(_label(letter), PIECE_LABEL_PT, "Helvetica-Bold")) for letter in row]


def _packed_cell(width: float, rows: int, slot_h: int) -> float:
    """The largest piece cell (0.1 mm steps) whose slots and gaps fit ``width`` in every row."""
    cell = 0.0
    for row in _packed_rows(rows):
        cells = sum(pentominoes.size(packed_orientation(letter, slot_h))[0] for letter in row)
        c = floor_to((width - PIECE_GAP_MM * (len(row) - 1)) / cells, 0.1)
        while c > 0 and sum(_slot_widths(row, c, slot_h)) + PIECE_GAP_MM * (len(row) - 1) > width + 1e-9:
            c = round(c - 0.1, 1)
        cell = c if cell == 0.0 else min(cell, c)
    return cell


def _packed_height(cell: float, rows: int, slot_h: int) -> float:
    return CAPTION_MM + rows * (slot_h * cell + PIECE_LABEL_MM) + (rows - 1) * 1.5


def _furniture_heights(sheet: HarvestSheet, width: float) -> float:
    """Height of everything in a region except the grid block."""
    header = HEADER_MM if sheet.per_page == 1 else SMALL_HEADER_MM
    table = CAPTION_MM + SCORE_ROW_MM * (_score_rows_per_table(sheet.players, width) + 1)
    return header + STACK_GAP_MM + _pieces_height(width) + STACK_GAP_MM + table


def _rules_lines(sheet: HarvestSheet, width: float) -> list[str]:
    return wrap(rules_summary(sheet.coins_per_turn, sheet.opening_coins), width, RULES_SIZE_PT)


def box_facts(sheet: HarvestSheet):
    """The publisher's box of the sheet, with the simulated figures for its grid, players and coins."""
    return facts_for(KIND, grid=sheet.grid, players=sheet.players, opening_coins=sheet.opening_coins,
                     coins_per_turn=sheet.coins_per_turn)


def _region_area(sheet: HarvestSheet) -> tuple[float, float, Box]:
    page_w, page_h = page_size_mm(sheet.paper, sheet.landscape)
    inner_w = page_w - 2 * PAGE_MARGIN_MM
    rules_h = len(_rules_lines(sheet, inner_w)) * line_height_mm(RULES_SIZE_PT) + 2  # RULES_CLEAR_MM comes out of the 2 mm under them
    top = PAGE_MARGIN_MM
    bottom = page_h - PAGE_MARGIN_MM - furniture_height(inner_w, box_facts(sheet)) - rules_h
    return page_w, page_h, Box(PAGE_MARGIN_MM, top, inner_w, bottom - top)


def _header_lines(sheet: HarvestSheet) -> list[tuple[str, float, str]]:
    """The region's heading lines as (text, size in pt, font)."""
    if sheet.per_page == 1:
        return [(TITLE, 15.0, "Helvetica-Bold"),
                (f"{CREDIT} · grid {sheet.width}x{sheet.height} · {sheet.players} players", TEXT_PT, "Helvetica")]
    return [(f"{TITLE} · {sheet.width}x{sheet.height} · {sheet.players} players", 9.0, "Helvetica-Bold")]


def region_min_width(sheet: HarvestSheet) -> float:
    """The narrowest region whose every line fits at the real font width: heading, the shortest
    captions and one score table (the harvesters say their own limit, in _pieces_geometry)."""
    return max([text_width_mm(t, pt, font) for t, pt, font in _header_lines(sheet)]
               + [text_width_mm(PIECES_CAPTIONS[-1], TEXT_PT), text_width_mm(SCORE_CAPTIONS[-1], TEXT_PT),
                  _score_table_min_width(sheet.players)])


def _grid_room(sheet: HarvestSheet, box: Box) -> tuple[float, float]:
    """Room for the grid cells (without labels) in a region (ParameterError if its text cannot fit)."""
    if box.w < region_min_width(sheet) - 1e-9:
        raise ParameterError(f"a region {box.w:.0f} mm wide is too narrow for its headings and score table")
    return box.w - 2 * LABEL_BAND_MM, box.h - _furniture_heights(sheet, box.w) - LABEL_BAND_MM


def _arrangement_rooms(sheet: HarvestSheet):
    """Each way to arrange the page's games that leaves a game room: its regions and the grid's room (w, h mm)."""
    _, _, area = _region_area(sheet)
    for cols, rows in arrangements(sheet.per_page):
        boxes = regions(area, cols, rows, sheet.per_page)
        try:
            room_w, room_h = _grid_room(sheet, boxes[0])
        except ParameterError:
            continue
        yield boxes, room_w, room_h


def plan(sheet: HarvestSheet) -> tuple[float, list[Box]]:
    """Choose the cell size and the regions: the largest cell over the ways to arrange the games."""
    best: tuple[float, list[Box]] | None = None
    largest_fit = 0.0
    for boxes, room_w, room_h in _arrangement_rooms(sheet):
        fit = floor_to(min(room_w / sheet.width, room_h / sheet.height), CELL_STEP_MM * 0.1)
        largest_fit = max(largest_fit, fit)
        if sheet.cell_mm is not None:
            if sheet.cell_mm <= fit + 1e-9 and best is None:
                best = (sheet.cell_mm, boxes)
        else:
            cell = min(MAX_AUTO_CELL_MM, floor_to(fit, CELL_STEP_MM))
            if cell >= MIN_CELL_MM and (best is None or cell > best[0]):
                best = (cell, boxes)
    if best is not None:
        return best
    where = f"{sheet.paper} {'landscape' if sheet.landscape else 'portrait'}"
    games = f"{sheet.per_page} games per page" if sheet.per_page > 1 else "one game per page"
    these = f"{sheet.per_page} games of {sheet.width}x{sheet.height}" if sheet.per_page > 1 else "one game per page"
    if sheet.cell_mm is not None and largest_fit >= MIN_CELL_MM:
        raise ParameterError(
            f"cell {sheet.cell_mm:g} mm: a {sheet.width}x{sheet.height} grid does not fit {where} "
            f"with {games}; the largest cell that fits is {floor_to(largest_fit, 0.1):g} mm"
        )
    cell = sheet.cell_mm if sheet.cell_mm is not None else MIN_CELL_MM
    at = f"{cell:g} mm cells" if sheet.cell_mm is not None else f"cells of at least {MIN_CELL_MM:g} mm"
    grid, square = largest_grids_at(sheet, cell)
    most = _most_per_page(sheet)
    others = ([] if sheet.landscape or not _fits(dataclasses.replace(sheet, landscape=True)) else ["--landscape"]) + (
        ["a larger --paper"] if sheet.paper == "a5" else [])
    if min(grid) < 3 or max(grid) < 5:
        # Too many games side by side for their headings, score tables or a 3x5 grid: say how many fit.
        fit = (f"at most {most} fit{'s' if most == 1 else ''} (--per-page {most})" if most else
               f"the harvesters and a score table for {sheet.players} players leave no room for a 3x5 grid")
        hint = f"; or try {', '.join(others)}" if others else ""
        verb = "does not fit" if sheet.per_page == 1 else "do not fit"
        raise ParameterError(f"per page {sheet.per_page}: {these} {verb} {where} at {at}; {fit}{hint}")
    also = f", or {square}x{square} square" if sheet.width == sheet.height and square >= 5 and grid[0] != grid[1] else ""
    if 0 < most < sheet.per_page:
        # Several games asked for: first say how many of this grid fit at these cells, then the grid
        # that would fit as many as asked.
        hint = f"; or try {', '.join(others)}" if others else ""
        raise ParameterError(
            f"per page {sheet.per_page}: {these} do not fit {where} at {at}; at most {most} "
            f"fit{'s' if most == 1 else ''} (--per-page {most}); with {sheet.per_page} per page the largest "
            f"grid is {grid[0]}x{grid[1]}{also}{hint}"
        )
    hint = f" (or try {', '.join(others)})" if others else ""
    raise ParameterError(
        f"grid {sheet.width}x{sheet.height}: does not fit {where} with {games} at {at}; "
        f"the largest that fits is {grid[0]}x{grid[1]}{also}{hint}"
    )


def _fits(sheet: HarvestSheet) -> bool:
    try:
        plan(sheet)
    except ParameterError:
        return False
    return True


def _most_per_page(sheet: HarvestSheet) -> int:
    """The most games of this grid that fit the page (0 if not even one does)."""
    return next((n for n in range(sheet.per_page - 1, 0, -1) if _fits(dataclasses.replace(sheet, per_page=n))), 0)


def largest_grids_at(sheet: HarvestSheet, cell: float) -> tuple[tuple[int, int], int]:
    """The grid with the most cells of ``cell`` mm that fits in any arrangement of the page's games,
    and the side of the largest square grid that does."""
    best, square = (0, 0), 0
    for _, room_w, room_h in _arrangement_rooms(sheet):
        fit = (int(room_w / cell + 1e-9), int(room_h / cell + 1e-9))
        if fit[0] * fit[1] > best[0] * best[1]:
            best = fit
        square = max(square, min(fit))
    return best, square


def largest_grid_at(sheet: HarvestSheet, cell: float) -> tuple[int, int]:
    """The grid with the most cells of ``cell`` mm that fits the page in any arrangement of its games."""
    return largest_grids_at(sheet, cell)[0]


def _grid(x: float, y: float, sheet: HarvestSheet, cell: float) -> list[Item]:
    items: list[Item] = []
    w, h = sheet.width * cell, sheet.height * cell
    for row in range(sheet.height):
        for col in range(sheet.width):
            items.append(Rect(x + col * cell, y + row * cell, cell, cell, stroke=0.35, line_mm=0.2))
    # The border is drawn as lines so that no extra rectangle can be mistaken for a cell.
    for x1, y1, x2, y2 in ((x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)):
        items.append(Line(x1, y1, x2, y2, stroke=BLACK, line_mm=0.5))
    label_pt = min(8.0, max(6.0, cell * 1.6))
    for col in range(sheet.width):
        items.append(Text(x + (col + 0.5) * cell, y - COLUMN_LABEL_MM, column_label(col), size_pt=label_pt, anchor="middle", colour=0.3))
    for row in range(sheet.height):
        items.append(
            Text(x - 1.8, y + (row + 0.5) * cell + label_pt * 0.12, str(row + 1), size_pt=label_pt, anchor="end", colour=0.3)
        )
    return items


PIECES_CAPTIONS = ("Harvesters: circle yours (each player a different one)", "Harvesters: circle yours", "Harvesters")
SCORE_CAPTIONS = ("Score: tally each coin you harvest", "Score: tally your coins", "Score")


def _fitting(captions: tuple[str, ...], width: float) -> str:
    """The longest of ``captions`` that fits ``width`` mm (the last one if none does)."""
    return next((c for c in captions if text_width_mm(c, TEXT_PT) <= width), captions[-1])


def _pieces(x: float, y: float, width: float, largest: float = PIECE_CELL_MAX_MM,
            rows: int | None = None, slot_h: int = 0) -> tuple[list[Item], float]:
    """The 12 harvesters under a caption: in 5 x 3 slots, or (``slot_h`` > 0) packed by width."""
    items: list[Item] = [Text(x, y + CAPTION_BASELINE_MM, _fitting(PIECES_CAPTIONS, width), size_pt=TEXT_PT)]
    y0 = y + CAPTION_MM
    if slot_h:
        cell = largest
        for r, row in enumerate(_packed_rows(rows or 1)):
            slots = _slot_widths(row, cell, slot_h)
            gap = (width - sum(slots)) / (len(row) - 1)  # spread over the whole width
            sx, sy = x, y0 + r * (slot_h * cell + PIECE_LABEL_MM + 1.5)
            for letter, slot_w in zip(row, slots):
                items += _piece(letter, packed_orientation(letter, slot_h), sx, sy, slot_w, slot_h * cell, cell)
                sx += slot_w + gap
        return items, _packed_height(cell, rows or 1, slot_h)
    cell, per_row = _pieces_geometry(width, largest, rows)
    slot_w, slot_h = PIECE_SLOT_CELLS
    for i, letter in enumerate(pentominoes.LETTERS):
        r, c = divmod(i, per_row)
        sx = x + c * (slot_w * cell + PIECE_GAP_MM)
        sy = y0 + r * (slot_h * cell + PIECE_LABEL_MM + 1.5)
        items += _piece(letter, slot_orientation(letter), sx, sy, slot_w * cell, slot_h * cell, cell)
    return items, _pieces_height(width, largest, rows)


def _piece(letter: str, shape: pentominoes.Shape, sx: float, sy: float, slot_w: float, slot_h: float,
           cell: float) -> list[Item]:
    """One harvester centred in its slot, its letter under the slot."""
    w, h = pentominoes.size(shape)
    ox = sx + (slot_w - w * cell) / 2
    oy = sy + (slot_h - h * cell) / 2
    items: list[Item] = [Rect(ox + cx * cell, oy + cy * cell, cell, cell, stroke=BLACK, fill=PIECE_FILL, line_mm=0.15)
                         for cx, cy in sorted(shape, key=lambda c: (c[1], c[0]))]
    items.append(Text(sx + slot_w / 2, sy + slot_h + 3.9, _label(letter), size_pt=PIECE_LABEL_PT,
                      font="Helvetica-Bold", anchor="middle"))
    return items


SCORE_TABLE_MIN_MM = 75.0
SCORE_SPLIT_PLAYERS = 6  # more players than this: two tables side by side, when they fit


def _score_tables(width: float, players: int) -> int:
    if players > SCORE_SPLIT_PLAYERS and width >= 2 * SCORE_TABLE_MIN_MM + GAP_MM:
        return 2
    return 1


def _score_rows_per_table(players: int, width: float) -> int:
    return -(-players // _score_tables(width, players))


def _score_table(x: float, y: float, width: float, players: int) -> list[Item]:
    items: list[Item] = [Text(x, y + CAPTION_BASELINE_MM, _fitting(SCORE_CAPTIONS, width), size_pt=TEXT_PT)]
    tables = _score_tables(width, players)
    per_table = _score_rows_per_table(players, width)
    table_w = (width - GAP_MM * (tables - 1)) / tables
    for t in range(tables):
        first = t * per_table
        names = [f"Player {p + 1}" for p in range(first, min(players, first + per_table))]
        items += _one_score_table(x + t * (table_w + GAP_MM), y + CAPTION_MM, table_w, names)
    return items


CELL_PAD_MM = 1.8  # text starts this far inside a score-table cell and ends at least this far before its edge
SCORE_HEADERS = ("Player", "Harvester", "Coins harvested", "Total")
SCORE_MIN_COLUMNS_MM = (17.0, 17.0, 0.0, 14.0)  # the columns' widths where their words leave room


def _score_columns(width: float | None, names: list[str]) -> list[tuple[str, float]]:
    """The score table's columns, each as wide as its widest line (header in bold, player names) at the
    real font width; "Coins harvested" takes what is left of ``width`` (None: its own width)."""
    needs = []
    for i, (header, least) in enumerate(zip(SCORE_HEADERS, SCORE_MIN_COLUMNS_MM)):
        widest = text_width_mm(header, TEXT_PT, "Helvetica-Bold")
        if i == 0:
            widest = max([widest] + [text_width_mm(n, TEXT_PT) for n in names])
        needs.append(max(least, widest + 2 * CELL_PAD_MM))
    rest = needs[2] if width is None else width - needs[0] - needs[1] - needs[3]
    return [(h, rest if i == 2 else w) for i, (h, w) in enumerate(zip(SCORE_HEADERS, needs))]


def _score_table_min_width(players: int) -> float:
    """The narrowest one score table can be with every header and name inside its cell."""
    return sum(w for _, w in _score_columns(None, [f"Player {p + 1}" for p in range(players)]))


def _one_score_table(x: float, top: float, width: float, names: list[str]) -> list[Item]:
    items: list[Item] = []
    columns = _score_columns(width, names)
    rows = len(names) + 1
    bottom = top + rows * SCORE_ROW_MM
    for r in range(rows + 1):
        items.append(Line(x, top + r * SCORE_ROW_MM, x + width, top + r * SCORE_ROW_MM, line_mm=0.5 if r in (0, 1, rows) else 0.2))
    cx = x
    for i, (name, col_w) in enumerate(columns):
        items.append(Line(cx, top, cx, bottom, line_mm=0.5 if i == 0 else 0.2))
        items.append(Text(cx + CELL_PAD_MM, top + SCORE_ROW_MM - SCORE_BASELINE_MM, name, size_pt=TEXT_PT, font="Helvetica-Bold"))
        cx += col_w
    items.append(Line(x + width, top, x + width, bottom, line_mm=0.5))
    for r, name in enumerate(names):
        items.append(Text(x + CELL_PAD_MM, top + (r + 2) * SCORE_ROW_MM - SCORE_BASELINE_MM, name, size_pt=TEXT_PT))
    return items


def _region(sheet: HarvestSheet, box: Box, cell: float) -> list[Item]:
    items: list[Item] = []
    y = box.y
    lines = _header_lines(sheet)
    if sheet.per_page == 1:
        (title, title_pt, bold), (credit, credit_pt, _) = lines
        items.append(Text(box.x, y + 6, title, size_pt=title_pt, font=bold))
        items.append(Text(box.x, y + 10, credit, size_pt=credit_pt, colour=0.3))
        y += HEADER_MM
    else:
        (title, title_pt, bold), = lines
        items.append(Text(box.x, y + 4.5, title, size_pt=title_pt, font=bold))
        y += SMALL_HEADER_MM
    grid_w = sheet.width * cell
    gx = box.x + (box.w - grid_w) / 2
    items += _grid(gx, y + LABEL_BAND_MM, sheet, cell)
    y += LABEL_BAND_MM + sheet.height * cell + STACK_GAP_MM
    # Keep the pieces and the table under the grid, stretched over the region's width.
    spare = box.h - (_furniture_heights(sheet, box.w) + LABEL_BAND_MM + sheet.height * cell)
    pieces, used = _pieces(box.x, y, box.w, *_roomy_pieces(box.w, max(0.0, spare - STACK_GAP_MM)))
    items += pieces
    y += used + STACK_GAP_MM
    items += _score_table(box.x, y, box.w, sheet.players)
    return items


def cut_lines(boxes: list[Box]) -> list[Item]:
    """A dashed cut line along the middle of every gap between two games of a page."""
    items: list[Item] = []
    left, right = min(b.x for b in boxes), max(b.x + b.w for b in boxes)
    top, bottom = min(b.y for b in boxes), max(b.y + b.h for b in boxes)
    xs = sorted({round(b.x + b.w, 6) for b in boxes if b.x + b.w < right - 1e-6})
    ys = sorted({round(b.y + b.h, 6) for b in boxes if b.y + b.h < bottom - 1e-6})
    for x in xs:
        items.append(Line(x + REGION_GAP_MM / 2, top, x + REGION_GAP_MM / 2, bottom, stroke=CUT_GREY, line_mm=0.25, dash_mm=CUT_DASH_MM))
    for y in ys:
        items.append(Line(left, y + REGION_GAP_MM / 2, right, y + REGION_GAP_MM / 2, stroke=CUT_GREY, line_mm=0.25, dash_mm=CUT_DASH_MM))
    return items


def parameters_json(sheet: HarvestSheet, cell: float) -> str:
    """The resolved parameters as the JSON a checker reads back from the PDF's subject."""
    return json.dumps(
        {
            "kind": KIND,
            "grid": [sheet.width, sheet.height],
            "players": sheet.players,
            "cell_mm": cell,
            "coins_per_turn": sheet.coins_per_turn,
            "opening_coins": sheet.opening_coins,
            "paper": sheet.paper,
            "landscape": sheet.landscape,
            "per_page": sheet.per_page,
        },
        sort_keys=True,
    )


def layout(sheet: HarvestSheet) -> Document:
    """The whole sheet as one page of layout data."""
    cell, boxes = plan(sheet)
    page_w, page_h, area = _region_area(sheet)
    items: list[Item] = []
    for box in boxes:
        items += _region(sheet, box, cell)
    rules_y = area.y + area.h + line_height_mm(RULES_SIZE_PT) + RULES_CLEAR_MM
    for i, line in enumerate(_rules_lines(sheet, area.w)):
        items.append(Text(PAGE_MARGIN_MM, rules_y + i * line_height_mm(RULES_SIZE_PT), line, size_pt=RULES_SIZE_PT))
    description = (
        f"{TITLE} · grid {sheet.width}x{sheet.height} · {sheet.players} players · {cell:g} mm cells · "
        f"{sheet.coins_per_turn} coin{'s' if sheet.coins_per_turn != 1 else ''} per turn"
        + (f" ({sheet.opening_coins} to open)" if sheet.opening_coins != harvest.OPENING_COINS else "")
        + f" · {sheet.paper.upper() if sheet.paper != 'letter' else 'Letter'}"
        + (f" · {sheet.per_page} games per page" if sheet.per_page > 1 else "")
    )
    items += cut_lines(boxes)
    items += footer(page_w, page_h, PAGE_MARGIN_MM, description, box_facts(sheet))
    return Document(
        pages=(Page(page_w, page_h, tuple(items)),),
        title=f"{TITLE}: {sheet.width}x{sheet.height} grid, {sheet.players} players",
        subject=parameters_json(sheet, cell),
        keywords=f"printables:{KIND}",
    )
