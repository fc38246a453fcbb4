"""Check a Minefield board sheet by reading its drawing back (never the code that drew it).

The sheet's drawing conventions, which is all this module assumes:
- a board cell is a stroked, unfilled square; the cells of one board touch;
- an edge band is a filled rectangle as long as the side of the cells it runs along, a few mm
  outside that side: filled black for Black's edges, filled white with an outline for White's;
- column letters (A, B, ...) stand above and below a board, row numbers (1 at the top) left and
  right of it;
- a legend diagram is a block of touching stroked squares filled a light grey; a stone is a filled
  circle (black or white) inside one of its squares; the forbidden placement is marked by diagonal
  lines crossing over one square.
Sizes, counts, band colours and the diagrams' stones are recovered from geometry; each diagram is
then judged by the rule core.
"""

from __future__ import annotations

from collections import Counter

from printables.check.pdf import (
    SIZE_TOLERANCE_MM,
    Box,
    PageDrawing,
    PdfDrawing,
    Word,
    check_page_count,
    check_page_size,
    check_print_scaling,
    check_ruler,
    check_publisher_box,
    check_subject_keys,
    column_letters,
    group_touching,
    lattice,
    text_missing,
    words_missing,
)
from printables.check.language import lang_of, said
from printables.check.results import CheckResult
from printables.rules import minefield as rules

SQUARE_TOLERANCE_MM = 0.02  # width and height of a square agree this well
MIN_BOARD_CELL_MM = 3.0  # smaller stroked squares are not board cells
BAND_MAX_GAP_MM = 3.0  # an edge band stands at most this far outside the cells
BAND_LENGTH_TOLERANCE_MM = 0.1
DARK_GREY = 0.25  # fills at most this grey are black
LIGHT_GREY = 0.9  # fills at least this grey are white
LEGEND_TINT = (0.5, 0.99)  # a legend square's fill lies between these grey levels
LABEL_REACH_MM = 12.0  # coordinates stand within this distance of the cells
DIAGONAL_MIN_MM = 0.1  # a segment at least this wide and tall is not horizontal or vertical
EXPECTED_PATTERNS = tuple(p.name for p in rules.FORBIDDEN_PATTERNS)
SWATCH_REACH_MM = 4.0  # an edge-key swatch ends at most this far left of its caption
# The parameters a sheet records in its subject; one more or one less means the file was altered.
SUBJECT_KEYS = {"kind", "size", "cell_mm", "paper", "landscape", "per_page"}
LANG_KEY = {"lang"}  # recorded by the translation pass (printables/i18n); a layout drawn without it is English


def _grey(colour: tuple) -> float | None:
    """The grey level (0 black, 1 white) of a fill colour as read (check/pages.py: (g,) or (r, g, b))."""
    if len(colour) == 1:
        return colour[0]
    if len(colour) == 3:
        return sum(colour) / 3
    if len(colour) == 4:  # CMYK
        c, m, y, k = colour
        return 1 - min(1.0, k + (c + m + y) / 3)
    return None


def _is_square(box: Box) -> bool:
    return abs(box.w - box.h) <= SQUARE_TOLERANCE_MM


# ---------------------------------------------------------------------------------------------
# Boards


class Board:
    """A board recovered from its cells: the cells' outline, cell size and size in cells."""

    def __init__(self, group: list[Box]):
        self.cell, self.lattice = lattice(group)
        self.x0 = min(b.x0 for b in group)
        self.top = min(b.top for b in group)
        self.x1 = max(b.x1 for b in group)
        self.bottom = max(b.bottom for b in group)
        self.cols = max(x for x, _ in self.lattice) + 1
        self.rows = max(y for _, y in self.lattice) + 1
        self.spread = max(b.w for b in group) - min(b.w for b in group)

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows} at {self.cell:.2f} mm"


def find_boards(page: PageDrawing) -> list[Board]:
    """Every board on the page: groups of touching stroked, unfilled squares."""
    cells = [b for b in page.boxes if b.stroke and not b.fill and _is_square(b) and b.w >= MIN_BOARD_CELL_MM]
    return [Board(group) for group in group_touching(cells)]


def _check_boards(boards: list[Board], size: int, cell_mm: float, per_page: int) -> CheckResult:
    problems = []
    for board in boards:
        if len(board.lattice) != board.cols * board.rows:
            problems.append(f"a {board.cols}x{board.rows} board is missing {board.cols * board.rows - len(board.lattice)} cell(s)")
        if (board.cols, board.rows) != (size, size):
            problems.append(f"board is {board.cols}x{board.rows} cells, expected {size}x{size}")
        if abs(board.cell - cell_mm) > SIZE_TOLERANCE_MM:
            problems.append(f"cells are {board.cell:.3f} mm, expected {cell_mm:g} mm")
        if board.spread > SIZE_TOLERANCE_MM:
            problems.append(f"cell sizes vary by {board.spread:.3f} mm")
    if len(boards) != per_page:
        problems.append(f"{len(boards)} board(s) drawn, expected {per_page}")
    found = ", ".join(str(b) for b in boards)
    return CheckResult("board", not problems, "; ".join(problems) or f"{len(boards)} board(s): {found}")


SIDES = ("top", "bottom", "left", "right")
EXPECTED_BANDS = {"top": "black", "bottom": "black", "left": "white", "right": "white"}


def _band_on(board: Board, side: str, boxes: list[Box]) -> Box | None:
    """The filled rectangle running along ``side`` of the board's cells, just outside; the nearest."""
    tol = BAND_LENGTH_TOLERANCE_MM
    found = []
    for b in boxes:
        if side in ("top", "bottom"):
            if abs(b.x0 - board.x0) > tol or abs(b.x1 - board.x1) > tol:
                continue
            gap = board.top - b.bottom if side == "top" else b.top - board.bottom
        else:
            if abs(b.top - board.top) > tol or abs(b.bottom - board.bottom) > tol:
                continue
            gap = board.x0 - b.x1 if side == "left" else b.x0 - board.x1
        if -tol <= gap <= BAND_MAX_GAP_MM:
            found.append((gap, b))
    return min(found, key=lambda gb: gb[0])[1] if found else None


def _band_colour(band: Box | None) -> str:
    """'black', 'white' (light fill with an outline), or what is wrong with the band."""
    if band is None:
        return "none"
    grey = _grey(band.fill_colour)
    if grey is None:
        return "unknown colour"
    if grey <= DARK_GREY:
        return "black"
    if grey >= LIGHT_GREY:
        return "white" if band.stroke else "white without outline"
    return f"grey {grey:.2f}"


def board_bands(board: Board, page: PageDrawing) -> dict[str, str]:
    """The colour of the band on each side of a board, as read from the drawing."""
    return {side: _band_colour(_band_on(board, side, _band_boxes(page))) for side in SIDES}


def _check_bands(boards: list[Board], page: PageDrawing) -> CheckResult:
    problems = []
    seen = []
    for i, board in enumerate(boards, 1):
        bands = board_bands(board, page)
        seen.append(", ".join(f"{side} {bands[side]}" for side in SIDES))
        wrong = [f"{side} is {bands[side]}" for side in SIDES if bands[side] != EXPECTED_BANDS[side]]
        if wrong:
            problems.append(
                f"board {i}: {'; '.join(wrong)} (Black's edges are top and bottom, White's left and right)"
            )
    ok = bool(boards) and not problems
    return CheckResult("edge bands", ok, "; ".join(problems) or ("; ".join(seen) if boards else "no board"))


BAND_LABEL_MIN_MM = 4.0  # a band's label spans at least this along the band: a word, not a lone 2 mm glyph
BAND_LABELS = {"top": "BLACK", "bottom": "BLACK", "left": "WHITE", "right": "WHITE"}


def _check_band_labels(boards: list[Board], page: PageDrawing, lang: str) -> CheckResult:
    """Each labelled band says whose edge it is, in the sheet's language, and its label is a word
    one can read: at least ``BAND_LABEL_MIN_MM`` along the band (WHITE's letters stand one under
    another). A band too thin for a label carries none."""
    problems, labelled = [], 0
    boxes = _band_boxes(page)
    for i, board in enumerate(boards, 1):
        for side in SIDES:
            band = _band_on(board, side, boxes)
            if band is None:
                continue
            words = [w for w in page.words if _inside(w, [band])]
            if not words:
                continue
            labelled += 1
            across = side in ("top", "bottom")
            words.sort(key=lambda w: (w.x0, w.top) if across else (w.top, w.x0))
            text = "".join(w.text for w in words)
            want = said(lang, BAND_LABELS[side]).replace(" ", "")
            span = (max(w.x1 for w in words) - min(w.x0 for w in words)) if across else \
                (max(w.bottom for w in words) - min(w.top for w in words))
            if text != want:
                problems.append(f"board {i} {side} band says {text!r}, expected {want!r}")
            elif span < BAND_LABEL_MIN_MM - SIZE_TOLERANCE_MM:
                problems.append(f"board {i} {side} band's label {text!r} spans {span:.1f} mm, under {BAND_LABEL_MIN_MM:g} mm")
    return CheckResult("band labels", not problems,
                       "; ".join(problems[:4]) or f"{labelled} band label(s), each a readable word naming its colour")


def _band_boxes(page: PageDrawing) -> list[Box]:
    return [b for b in page.boxes if b.fill and not _is_square(b)]


def _inside(word: Word, boxes: list[Box]) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return any(b.x0 <= cx <= b.x1 and b.top <= cy <= b.bottom for b in boxes)


def board_coordinates(board: Board, page: PageDrawing) -> dict[str, list[str | None]]:
    """The label beside each column (top, bottom) and row (left, right); None where there is none."""
    bands = _band_boxes(page)
    words = [w for w in page.words if not _inside(w, bands)]
    out: dict[str, list[str | None]] = {}
    for side in SIDES:
        across = board.cols if side in ("top", "bottom") else board.rows
        nearest: list[tuple[float, str] | None] = [None] * across
        for w in words:
            cx, cy = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
            if side == "top":
                near, along, start = board.top - w.bottom, cx, board.x0
            elif side == "bottom":
                near, along, start = w.top - board.bottom, cx, board.x0
            elif side == "left":
                near, along, start = board.x0 - w.x1, cy, board.top
            else:
                near, along, start = w.x0 - board.x1, cy, board.top
            index = (along - start) / board.cell
            if 0 < near <= LABEL_REACH_MM and 0 <= index < across and abs(index % 1 - 0.5) < 0.3:
                # The label is the word nearest the board; titles and legends stand further out.
                slot = nearest[int(index)]
                if slot is None or near < slot[0]:
                    nearest[int(index)] = (near, w.text)
        out[side] = [slot[1] if slot else None for slot in nearest]
    return out


def _check_coordinates(boards: list[Board], page: PageDrawing) -> CheckResult:
    problems = []
    for i, board in enumerate(boards, 1):
        found = board_coordinates(board, page)
        for side in SIDES:
            if side in ("top", "bottom"):
                expected = [column_letters(c) for c in range(board.cols)]
            else:
                expected = [str(r + 1) for r in range(board.rows)]
            wrong = [f"{e} as {f!r}" for e, f in zip(expected, found[side]) if f != e]
            if wrong:
                problems.append(f"board {i} {side}: expected {', '.join(wrong[:4])}" + (" …" if len(wrong) > 4 else ""))
    ok = bool(boards) and not problems
    return CheckResult(
        "coordinates", ok, "; ".join(problems) or "letters above and below, numbers 1.. left and right of every board"
    )


# ---------------------------------------------------------------------------------------------
# Legend diagrams


class Diagram:
    """A legend diagram read back: its size, stones, crossed point, and what the rule core says."""

    def __init__(self, group: list[Box], page: PageDrawing):
        self.cell, cells = lattice(group)
        self.cols = max(x for x, _ in cells) + 1
        self.rows = max(y for _, y in cells) + 1
        self.complete = len(cells) == self.cols * self.rows
        x0 = min(b.x0 for b in group)
        top = min(b.top for b in group)
        x1 = max(b.x1 for b in group)
        bottom = max(b.bottom for b in group)
        self.problems: list[str] = []

        def point(cx: float, cy: float) -> rules.Point | None:
            if not (x0 <= cx <= x1 and top <= cy <= bottom):
                return None
            return (min(self.rows - 1, int((cy - top) / self.cell)), min(self.cols - 1, int((cx - x0) / self.cell)))

        self.stones: dict[rules.Point, str] = {}
        for curve in page.curves:
            where = point((curve.x0 + curve.x1) / 2, (curve.top + curve.bottom) / 2)
            if where is None or not curve.fill:
                continue
            grey = _grey(curve.fill_colour)
            colour = rules.BLACK if grey is not None and grey <= DARK_GREY else rules.WHITE if grey is not None and grey >= LIGHT_GREY else None
            if colour is None:
                self.problems.append(f"a stone at {where} is neither black nor white")
            elif where in self.stones:
                self.problems.append(f"two stones at {where}")
            else:
                self.stones[where] = colour
        crossings = [
            where
            for s in page.segments
            if s.x1 - s.x0 >= DIAGONAL_MIN_MM and s.bottom - s.top >= DIAGONAL_MIN_MM
            and (where := point((s.x0 + s.x1) / 2, (s.top + s.bottom) / 2)) is not None
        ]
        crossed = set(crossings)
        self.crossed: rules.Point | None = None
        if len(crossed) != 1 or len(crossings) < 2:
            self.problems.append(f"{len(crossed)} crossed point(s), expected one cross")
        else:
            self.crossed = next(iter(crossed))
        self.name: str | None = None
        if self.crossed is not None and not self.problems:
            self.name = rules.match_forbidden_diagram(self.stones, self.crossed)
            points = set(self.stones) | {self.crossed}
            spans = (max(r for r, _ in points) - min(r for r, _ in points) + 1, max(c for _, c in points) - min(c for _, c in points) + 1)
            if self.name is None:
                self.problems.append("it shows no forbidden pattern")
            elif spans != (self.rows, self.cols) or not self.complete:
                self.problems.append(f"its stones span {spans[0]}x{spans[1]} of a {self.rows}x{self.cols} diagram")

    def __str__(self) -> str:
        rows = []
        for r in range(self.rows):
            row = ""
            for c in range(self.cols):
                mark = self.stones.get((r, c), ".")
                row += mark.lower() if (r, c) == self.crossed else mark
            rows.append(row)
        return "/".join(rows)


def find_diagrams(page: PageDrawing) -> list[Diagram]:
    """Every legend diagram on the page: groups of touching, lightly tinted squares."""
    low, high = LEGEND_TINT
    squares = [
        b for b in page.boxes
        if b.fill and b.stroke and _is_square(b) and (g := _grey(b.fill_colour)) is not None and low <= g <= high
    ]
    return [Diagram(group, page) for group in group_touching(squares)]


def _check_legend(page: PageDrawing) -> CheckResult:
    diagrams = find_diagrams(page)
    problems = []
    names: Counter[str] = Counter()
    for i, diagram in enumerate(diagrams, 1):
        if diagram.problems:
            problems.append(f"diagram {i} ({diagram.rows}x{diagram.cols}, {diagram}): {'; '.join(diagram.problems)}")
        elif diagram.name is not None:
            names[diagram.name] += 1
    missing = [name for name in EXPECTED_PATTERNS if names[name] == 0]
    repeated = [name for name in EXPECTED_PATTERNS if names[name] > 1]
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if repeated:
        problems.append(f"more than one {', '.join(repeated)}")
    found = ", ".join(f"{d.name} ({d})" for d in diagrams if d.name)
    return CheckResult("legend", not problems, "; ".join(problems) or f"{len(diagrams)} forbidden patterns: {found}")


def _caption_at(page: PageDrawing, caption: str) -> list[Word] | None:
    """The words of ``caption`` where they stand in a row on the page, or None."""
    want = caption.split()
    words = list(page.words)
    for i in range(len(words) - len(want) + 1):
        if [w.text for w in words[i:i + len(want)]] == want:
            return words[i:i + len(want)]
    return None


def _check_captions(page: PageDrawing, lang: str = "en") -> CheckResult:
    """The rules summary word for word, and every legend caption on the page (in the sheet's language)."""
    summary = [said(lang, line) for line in rules.RULES_SUMMARY]
    problems = [f"rules line {line!r} missing or altered" for line in text_missing(page, summary)]
    # The legend may stand beside the boards, its heading wrapped among the row numbers: count words.
    captions = [said(lang, c) for c in (rules.LEGEND_HEADING, rules.LEGEND_NOTE, *rules.PATTERN_LABELS.values(),
                                        *(c for c, _ in rules.EDGE_KEY))]
    problems += [f"caption {text!r} missing" for text in words_missing(page, summary + captions)
                 if text in captions]
    return CheckResult("rules and captions", not problems,
                       "; ".join(problems) or "the rules summary, the legend heading, the pattern names and the edge key")


def _check_edge_key(page: PageDrawing, lang: str = "en") -> CheckResult:
    """Each edge-key caption has its swatch just left of it: black for Black's edges, outlined white for White's."""
    problems = []
    for caption, black in rules.EDGE_KEY:
        words = _caption_at(page, said(lang, caption))
        if words is None:
            problems.append(f"no caption {caption!r}")
            continue
        first = words[0]
        middle = (first.top + first.bottom) / 2
        swatches = [
            b for b in _band_boxes(page)
            if 0 <= first.x0 - b.x1 <= SWATCH_REACH_MM and b.top - 1 <= middle <= b.bottom + 1
        ]
        colours = [_band_colour(b) for b in swatches]
        expected = "black" if black else "white"
        if expected not in colours:
            problems.append(f"{caption!r} has " + (f"a {', '.join(colours)} swatch" if colours else "no swatch") + f", expected {expected}")
    return CheckResult("edge key", not problems, "; ".join(problems) or "a black and an outlined white swatch with their captions")


def _check_pencil_key(page: PageDrawing, lang: str = "en") -> CheckResult:
    """Each pencil-key caption has a circle just left of it: filled dark for Black, open for White."""
    problems = []
    for english, filled in rules.PENCIL_KEY:
        caption = said(lang, english)
        words = _caption_at(page, caption)
        if words is None:
            problems.append(f"no caption {caption!r}")
            continue
        first = words[0]
        middle = (first.top + first.bottom) / 2
        circles = [c for c in page.curves
                   if 0 <= first.x0 - c.x1 <= SWATCH_REACH_MM + 3.0 and c.top - 1 <= middle <= c.bottom + 1]
        kinds = []
        for c in circles:
            grey = _grey(c.fill_colour) if c.fill else None
            kinds.append("filled" if grey is not None and grey <= DARK_GREY else "open" if grey is None or grey >= LIGHT_GREY else "grey")
        expected = "filled" if filled else "open"
        if expected not in kinds:
            problems.append(f"{caption!r} has " + (f"a {', '.join(kinds)} circle" if kinds else "no circle") + f", expected {expected}")
    return CheckResult("pencil key", not problems, "; ".join(problems) or "a filled circle for Black and an open one for White")


def check_minefield(drawing: PdfDrawing) -> list[CheckResult]:
    """All checks of a Minefield board sheet."""
    params = drawing.parameters()
    results = [
        check_subject_keys(params, SUBJECT_KEYS | (LANG_KEY & set(params))),
        check_page_count(drawing, 1),
        check_page_size(drawing, params["paper"], params["landscape"]),
        check_print_scaling(drawing),
        check_ruler(drawing),
    ]
    page = drawing.pages[0]
    boards = find_boards(page)
    results.append(_check_boards(boards, params["size"], params["cell_mm"], params["per_page"]))
    results.append(_check_bands(boards, page))
    results.append(_check_band_labels(boards, page, lang_of(params)))
    results.append(_check_coordinates(boards, page))
    results.append(_check_legend(page))
    results.append(_check_edge_key(page, lang_of(params)))
    results.append(_check_pencil_key(page, lang_of(params)))
    results.append(check_publisher_box(drawing, "minefield"))
    results.append(_check_captions(page, lang_of(params)))
    return results
