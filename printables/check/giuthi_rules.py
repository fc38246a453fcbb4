"""Check a Giuthi rules sheet by reading its diagrams back and replaying them with the rule core.

Each diagram is found from the drawing alone: a caption line ``Diagram N (rule): South plays 4cw``,
then the boards below it, each a framed rectangle holding two rows of pit circles and two store
boxes; a pit's count is the number printed inside its circle, a store's the number inside its box.
North's row is the upper one (pits 2n-1 down to n from left to right), South's the lower (0 to
n-1), North's store on the left. The first board is the position before the move; the next are
the board after every lap of the turn, or only the board at its end. The move is replayed from
the first board with ``apply_traced`` and every drawn board must be what the rule core gives,
and each diagram must show the rule it is captioned with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printables.check.parsing import open_pdf
from printables.check.pdf import PdfDrawing, PageDrawing, Word, check_page_size
from printables.check.language import lang_of, said
from printables.check.results import CheckResult
from printables.i18n.books import catalogue
from printables.paper import pt_to_mm
from printables.rules import giuthi as rules

MIN_TEXT_PT = 8.0
SIZE_TOLERANCE_PT = 0.01  # a font matrix read back as 7.9999 pt is 8 pt
MIN_EDGE_MM = 5.0
REQUIRED = ("set-up", "a turn", "relay", "sow-again", "rule 5b", "capture chain", "the end")
HEADINGS = ("The board and the set-up", "A turn", "Relay", "Sow again", "Capture chain",
            "Passing, the end and the score")
PIT_DIAMETER_MM = (4.0, 9.0)  # a circle of this size is a pit

_CAPTION = re.compile(r"Diagram (\d+) \(([^)]+)\): (.+)")
_PLAYS = re.compile(r"(South|North) plays (\S+)")
_OFFERED = re.compile(r"Offered now: (.+?)\.")
_NOT_OFFERED = re.compile(r"Not offered: ([\w, ]+?) \(")
_SCORE = re.compile(r"Score: South (\d+) \(.*\), North (\d+) \(.*\): (South wins|North wins|a draw)\.")


@dataclass(frozen=True)
class DrawnBoard:
    """A board read from the page: pits by index, stores (South, North), where it stands (mm)."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    top: float
    x0: float


@dataclass
class DrawnDiagram:
    """A caption with the boards and note lines drawn under it."""

    number: int
    key: str
    caption: str
    page: int
    top: float
    boards: list
    notes: list


class UnreadableBoard(ValueError):
    """A board whose numbers cannot be read one per pit and store."""


def _lines(words: tuple[Word, ...]) -> list[tuple[float, float, str]]:
    """Words grouped into lines by baseline: (top, x0, text), top to bottom."""
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (round(w.bottom, 1), w.x0)):
        if rows and abs(rows[-1][0].bottom - word.bottom) < 0.6:
            rows[-1].append(word)
        else:
            rows.append([word])
    out = []
    for row in rows:
        row.sort(key=lambda w: w.x0)
        # Words far apart on one baseline (labels of boards side by side) are separate lines.
        group = [row[0]]
        for word in row[1:]:
            if word.x0 - group[-1].x1 > 4.0:
                out.append((group[0].top, group[0].x0, " ".join(w.text for w in group)))
                group = []
            group.append(word)
        out.append((group[0].top, group[0].x0, " ".join(w.text for w in group)))
    return sorted(out)


def _number_in(words, inside) -> int:
    found = [w for w in words if inside((w.x0 + w.x1) / 2, (w.top + w.bottom) / 2)]
    if len(found) != 1 or not found[0].text.isdigit():
        raise UnreadableBoard(f"expected one number, found {[w.text for w in found]}")
    return int(found[0].text)


def read_boards(page: PageDrawing) -> list[DrawnBoard]:
    """Every board drawn on the page, read from its circles, boxes and numbers."""
    circles = {}
    for c in page.curves:
        w, h = c.x1 - c.x0, c.bottom - c.top
        if abs(w - h) < 0.3 and PIT_DIAMETER_MM[0] <= w <= PIT_DIAMETER_MM[1]:
            centre = (round((c.x0 + c.x1) / 2, 1), round((c.top + c.bottom) / 2, 1))
            circles[centre] = max(circles.get(centre, 0.0), w / 2)  # a ring inside a pit is the same pit
    boards = []
    for frame in page.boxes:
        inside = [(cx, cy, r) for (cx, cy), r in circles.items()
                  if frame.x0 < cx < frame.x1 and frame.top < cy < frame.bottom]
        if len(inside) < 2 * rules.MIN_PITS_PER_ROW:
            continue
        stores = sorted((b for b in page.boxes if b is not frame and frame.x0 < b.x0 and b.x1 < frame.x1
                         and frame.top < b.top and b.bottom < frame.bottom), key=lambda b: b.x0)
        if len(stores) != 2:
            raise UnreadableBoard(f"a board at {frame.x0:.0f}, {frame.top:.0f} mm has {len(stores)} store boxes, expected 2")
        rows: dict[float, list] = {}
        for cx, cy, r in inside:
            key = next((k for k in rows if abs(k - cy) < 1.0), cy)
            rows.setdefault(key, []).append((cx, cy, r))
        if len(rows) != 2 or len({len(v) for v in rows.values()}) != 1:
            raise UnreadableBoard(f"a board at {frame.x0:.0f}, {frame.top:.0f} mm does not hold two equal rows of pits")
        north, south = (sorted(rows[k]) for k in sorted(rows))
        n = len(south)
        pits = [0] * (2 * n)
        words = [w for w in page.words if frame.x0 < w.x0 and w.x1 < frame.x1 and frame.top < w.top and w.bottom < frame.bottom]

        def count(cx: float, cy: float, r: float) -> int:
            return _number_in(words, lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 < r * r)

        for col, circle in enumerate(south):
            pits[col] = count(*circle)
        for col, circle in enumerate(north):
            pits[2 * n - 1 - col] = count(*circle)
        north_store, south_store = (
            _number_in(words, lambda x, y, b=b: b.x0 < x < b.x1 and b.top < y < b.bottom) for b in stores
        )
        boards.append(DrawnBoard(tuple(pits), (south_store, north_store), frame.top, frame.x0))
    return boards


def read_diagrams(drawing: PdfDrawing, lang: str = "en") -> list[DrawnDiagram]:
    """The diagrams of the sheet with the boards and notes under each caption, in page order.

    A sheet in another language is read back into the English it was translated from (the
    catalogue's patterns, reversed), so the captions and notes below are parsed one way."""
    book = catalogue(lang)
    diagrams: list[DrawnDiagram] = []
    for index, page in enumerate(drawing.pages):
        on_page: list[DrawnDiagram] = []
        lines = [(top, x0, book.english(text) or text) for top, x0, text in _lines(page.words)]
        for top, _, text in lines:
            match = _CAPTION.fullmatch(text)
            if match:
                on_page.append(DrawnDiagram(int(match.group(1)), match.group(2), match.group(3), index, top, [], []))

        def owner(top: float) -> DrawnDiagram | None:
            above = [d for d in on_page if d.top < top]
            return above[-1] if above else None

        for board in sorted(read_boards(page), key=lambda b: (round(b.top), b.x0)):
            d = owner(board.top)
            if d is not None:
                d.boards.append(board)
        for top, _, text in lines:
            if text.startswith(("Offered now:", "Not offered:", "Score:")):
                d = owner(top)
                if d is not None:
                    d.notes.append(text)
        diagrams += on_page
    return diagrams


def _same(board: DrawnBoard, pits: tuple[int, ...], stores: tuple[int, int]) -> bool:
    return board.pits == tuple(pits) and board.stores == tuple(stores)


def _describe(pits, stores) -> str:
    n = len(pits) // 2
    return f"South {' '.join(map(str, pits[:n]))} [{stores[0]}] / North {' '.join(map(str, pits[n:]))} [{stores[1]}]"


def replay(diagram: DrawnDiagram, pits_per_row: int, seeds_per_pit: int) -> str | None:
    """Why the diagram is not a legal consequence of its first board, or None if it is."""
    boards = diagram.boards
    if not boards:
        return "no board drawn"
    total = 2 * pits_per_row * seeds_per_pit
    for b in boards:
        if len(b.pits) != 2 * pits_per_row:
            return f"a board of {len(b.pits) // 2} pits per row on a 2x{pits_per_row} sheet"
        if sum(b.pits) + sum(b.stores) != total:
            return f"a board holds {sum(b.pits) + sum(b.stores)} seeds, not {total}: {_describe(b.pits, b.stores)}"
    if diagram.key == "set-up":
        start = rules.initial_state(pits_per_row, seeds_per_pit)
        if len(boards) != 1 or not _same(boards[0], start.pits, start.stores):
            return f"the start is not {seeds_per_pit} seeds in every pit and empty stores"
        return None
    plays = _PLAYS.fullmatch(diagram.caption)
    if plays is None:
        return f"no move in the caption {diagram.caption!r}"
    player = rules.PLAYER_NAMES.index(plays.group(1))
    try:
        move = rules.Move.parse(plays.group(2))
    except ValueError as error:
        return str(error)
    first = boards[0]
    before = rules.State(first.pits, first.stores, player)
    try:
        trace = rules.apply_traced(before, move)
    except rules.IllegalMove as error:
        return f"illegal from the first board: {error}"
    end = trace.state
    laps = trace.laps
    if len(boards) == 1 + len(laps):
        expected = [(lap.pits, before.stores) for lap in laps[:-1]] + [(end.pits, end.stores)]
    elif len(boards) == 2:
        expected = [(end.pits, end.stores)]
    else:
        return f"{len(boards)} boards for a turn of {len(laps)} laps (draw before and every lap, or before and end)"
    for i, (board, (pits, stores)) in enumerate(zip(boards[1:], expected), 2):
        if not _same(board, pits, stores):
            return (f"board {i} reads {_describe(board.pits, board.stores)}, but {move} gives "
                    f"{_describe(pits, stores)}")
    return _shows_rule(diagram, move, trace, player)


def _shows_rule(diagram: DrawnDiagram, move: rules.Move, trace: rules.TurnTrace, player: int) -> str | None:
    """Why the replayed turn does not show the rule named in the caption, or None."""
    key, laps, end = diagram.key, trace.laps, trace.state
    results = [lap.result for lap in laps]
    if key == "a turn":
        ok = len(move.sowings) == 1 and not end.is_mid_turn
        return None if ok else "not a turn of one sowing"
    if key == "relay":
        return None if rules.LapEnd.RELAY in results else "no lap ends in a relay"
    if key == "sow-again":
        ok = len(move.sowings) >= 2 and rules.LapEnd.SOW_AGAIN in results
        return None if ok else "no sow-again followed by a second sowing"
    if key == "capture chain":
        ok = bool(laps) and results[-1] is rules.LapEnd.CAPTURE and len(laps[-1].captured) >= 2
        return None if ok else "the turn does not capture two or more pits"
    if key == "rule 5b":
        return _check_5b(diagram, end)
    if key == "the end":
        if rules.end_reason(end) is None:
            return "the game is not over after the move"
        scores = [m for m in map(_SCORE.fullmatch, diagram.notes) if m]
        if len(scores) != 1:
            return "no score line"
        result = rules.outcome(end)
        said = (int(scores[0].group(1)), int(scores[0].group(2)))
        winner = {rules.SOUTH: "South wins", rules.NORTH: "North wins", None: "a draw"}[result.winner]
        if said != result.totals or scores[0].group(3) != winner:
            return f"the score says {said} and {scores[0].group(3)!r}; the rule core counts {result.totals}, {winner!r}"
        return None
    return f"unknown rule {key!r}"


def _check_5b(diagram: DrawnDiagram, mid: rules.State) -> str | None:
    """The offered sowings are the rule core's; each not offered one is left out by rule 5b alone."""
    if not mid.is_mid_turn:
        return "the move does not end in a sow-again"
    notes = " ".join(diagram.notes)
    offered = _OFFERED.search(notes)
    left_out = _NOT_OFFERED.search(notes)
    if offered is None or left_out is None:
        return "no 'Offered now:' and 'Not offered:' lines"
    said = [s.strip() for s in offered.group(1).split(",")]
    legal = [str(m) for m in rules.legal_moves(mid)]
    if said != legal:
        return f"offered {', '.join(said)}; the rule core offers {', '.join(legal)}"
    fresh = rules.State(mid.pits, mid.stores, mid.player)
    for text in (s.strip() for s in left_out.group(1).split(",")):
        sowing = rules.Sowing.parse(text)
        if rules.is_legal(mid, rules.Move((sowing,))):
            return f"{text} is said not offered but is legal"
        try:
            again = rules.apply_traced(fresh, rules.Move((sowing,))).state
        except rules.IllegalMove:
            return f"{text} is not a sowing at all (not rule 5b)"
        if not (again.is_mid_turn and again.pits in mid.turn_boards):
            return f"{text} does not bring back a board seen this turn"
    return None


def _page_marks(drawing: PdfDrawing) -> tuple[float, float, list[str]]:
    """The smallest text size (pt), the smallest distance of any mark to the paper's edge (mm), and where.

    Reads pdfplumber's objects of the drawing's pages (parsed once for every check of the file),
    or opens the file when the drawing does not carry them."""
    if not drawing.plumber_pages:
        with open_pdf(drawing.path) as pdf:
            return _marks(pdf.pages)
    return _marks(drawing.plumber_pages)


def _marks(pages) -> tuple[float, float, list[str]]:
    smallest, closest, where = 1e9, 1e9, []
    for number, page in enumerate(pages, 1):
        w, h = page.width, page.height
        for obj in list(page.chars) + list(page.rects) + list(page.curves) + list(page.lines):
            if obj.get("object_type") == "char":
                smallest = min(smallest, round(float(obj["size"]), 2))  # 7.9999 read back is 8
            gap = pt_to_mm(min(obj["x0"], obj["top"], w - obj["x1"], h - obj["bottom"]))
            if gap < closest:
                closest = gap
            if gap < MIN_EDGE_MM:
                where.append(f"page {number}: {obj.get('object_type')} {gap:.1f} mm from the edge")
    return smallest, closest, where


def _flowing_text(drawing: PdfDrawing) -> str:
    """The sheet's text as one flow: each page without its footer (its last line, the lowest text on
    the page), so that a paragraph running on to the next page reads whole."""
    pages = []
    for page in drawing.pages:
        lines = [line for line in page.text.splitlines() if line.strip()]
        pages.append(" ".join(lines[:-1]))
    return " ".join(" ".join(pages).split())


def check_paragraphs(drawing: PdfDrawing, pits_per_row: int, seeds_per_pit: int, lang: str) -> CheckResult:
    """Every paragraph of the rules stands on the sheet word for word (in the sheet's language)."""
    text = _flowing_text(drawing)
    sections = rules.rules_sheet_sections(pits_per_row, seeds_per_pit)
    missing = []
    count = 0
    for heading, paragraphs, _ in sections:
        for index, paragraph in enumerate(paragraphs, 1):
            count += 1
            if " ".join(said(lang, paragraph).split()) not in text:
                missing.append(f"{heading!r} paragraph {index}")
    return CheckResult("rules text", not missing, f"missing or altered: {', '.join(missing)}" if missing
                       else f"{count} paragraphs of {len(sections)} sections, word for word")


def check_rules_sheet(drawing: PdfDrawing) -> list[CheckResult]:
    """Paper, text size, margins, the rule sections, and every diagram replayed with the rule core."""
    params = drawing.parameters()
    n, s, paper = int(params["pits_per_row"]), int(params["seeds_per_pit"]), str(params["paper"])
    rules.validate_parameters(n, s)
    results = [check_page_size(drawing, paper, False)]
    smallest, closest, where = _page_marks(drawing)
    big_enough = smallest >= MIN_TEXT_PT - SIZE_TOLERANCE_PT
    results.append(CheckResult("text size", big_enough,
                               f"smallest text {smallest:.2f} pt" + ("" if big_enough else f", below {MIN_TEXT_PT:g} pt")))
    results.append(CheckResult("margins", not where, "; ".join(where[:3]) if where else f"every mark {closest:.1f} mm or more from the edge"))
    lang = lang_of(params)
    text = " ".join(" ".join(p.text.split()) for p in drawing.pages)
    missing = [said(lang, h) for h in HEADINGS if said(lang, h) not in text]
    results.append(CheckResult("rule sections", not missing, f"missing: {', '.join(missing)}" if missing else ", ".join(HEADINGS)))
    results.append(check_paragraphs(drawing, n, s, lang))
    try:
        diagrams = read_diagrams(drawing, lang)
    except UnreadableBoard as error:
        return results + [CheckResult("diagrams", False, str(error))]
    keys = [d.key for d in diagrams]
    numbers = [d.number for d in diagrams]
    ok = sorted(keys) == sorted(REQUIRED) and numbers == list(range(1, len(diagrams) + 1))
    results.append(CheckResult("diagrams", ok, f"{len(diagrams)} diagrams: {', '.join(keys)}"
                               + ("" if ok else f"; expected one each of {', '.join(REQUIRED)}, numbered 1 to {len(REQUIRED)}")))
    for d in diagrams:
        problem = replay(d, n, s)
        results.append(CheckResult(f"diagram {d.number} ({d.key})", problem is None,
                                   problem or f"{d.caption}: {len(d.boards)} boards, replayed with the rule core"))
    return results
