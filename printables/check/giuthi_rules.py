"""Check a Giuthi rules sheet by reading its diagrams back and replaying them with the rule core.

Each diagram is found from the drawing alone: a caption line ``Diagram N (rule): South sows pit 4
clockwise``, then the boards below it, each a framed rectangle holding two rows of pit circles and
two store boxes; a pit's count is the number printed inside its circle, a store's the number inside
its box. North's row is the upper one (pits 2n-1 down to n from left to right), South's the lower
(0 to n-1), North's store on the left. Every board but the last carries one lap's arrow: an open
line leaving the lifted pit, a dot beside every pit a seed falls in, and a head pointing into the
pit of the last seed. The arrows are read back as pits (the line's first point, the dots in their
order along the line, the head), must step one pit at a time in one direction, and are replayed
with the rule core from the first board: every lap must lift the pit, go the way, drop the seeds
and end in the pit the rule core does, and every board must be the board before the next lap (the
last one the board after the turn). Each diagram must show the rule it is captioned with.
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
PIT_DIAMETER_MM = (7.0, 12.0)  # a circle of this size is a pit
DOT_DIAMETER_MM = 2.5  # a filled circle at most this wide is a seed's dot on an arrow
ON_LINE_MM = 0.6  # a dot this close to an arrow's line is on it
HEAD_AT_END_MM = 3.5  # an arrowhead's centre this close to the end of its line belongs to it
DIRECTION_WORDS = {rules.Direction.CCW: "anticlockwise", rules.Direction.CW: "clockwise"}
NOTE_STARTS = (  # the notes under a diagram (layout/giuthi_rules.py), up to their first field
    "Now {player} may choose: {list}.",
    "Not offered: {list}, which would bring back the board from the start of the turn.",
    "Score: South {a} (store {b} + {c} in pits), North {d} (store {e} + {f} in pits): {verdict}.",
    "The game is over: {player}'s pits are all empty.",
    "The game is over: no pit on either side holds {m} or more seeds, so neither player can move.",
)
NOTE_LINE_MM = 5.0  # a note's next line stands at most this far below (9 pt lines are 4 mm apart)

_CAPTION = re.compile(r"Diagram (\d+) \(([^)]+)\): (.+)")
_SOWS = re.compile(r"(South|North) sows .+")
_LAP = re.compile(r"Lap (\d+): pit (\d+), (\d+) seeds")
_SCORE = re.compile(r"Score: South (\d+) \(.*\), North (\d+) \(.*\): (South wins|North wins|a draw)\.")


@dataclass(frozen=True)
class DrawnBoard:
    """A board read from the page: pits by index, stores (South, North), where it stands (mm), and
    the lap its arrow shows as pits (lifted pit, every pit a seed falls in), or why it cannot be read."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    top: float
    x0: float
    trail: tuple[int, ...] = ()
    arrow_problem: str | None = None
    label: str = ""


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
    sowings: tuple = ()  # the sowings the caption names
    raw_notes: list = None


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


@dataclass(frozen=True)
class _Path:
    """A path of the page in mm: its points in drawing order, whether it is filled, stroked, closed."""

    points: tuple[tuple[float, float], ...]
    fill: bool
    stroke: bool

    @property
    def closed(self) -> bool:
        """True when the path comes back to its first point (circles, arrowheads)."""
        (x0, y0), (x1, y1) = self.points[0], self.points[-1]
        return abs(x0 - x1) < 0.01 and abs(y0 - y1) < 0.01

    @property
    def box(self) -> tuple[float, float, float, float]:
        """x0, top, x1, bottom."""
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of its bounding box."""
        x0, top, x1, bottom = self.box
        return (x0 + x1) / 2, (top + bottom) / 2


def _paths(page_data) -> list[_Path]:
    """Every curve of a page as read (check/pages.py) as a path in mm (its points run from the top)."""
    out = []
    for c in page_data.curves:
        points = tuple((pt_to_mm(x), pt_to_mm(y)) for x, y in c["pts"])
        if len(points) >= 2:
            out.append(_Path(points, bool(c.get("fill")), bool(c.get("stroke"))))
    return out


def _along(points, p) -> tuple[float, float]:
    """(distance from ``p`` to the polyline, how far along the line its nearest point lies; where
    the line passes ``p`` more than once, as a lap's last stub crosses an inner lane, the first)."""
    found, walked = [], 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - x0) * dx + (p[1] - y0) * dy) / (length * length)))
        qx, qy = x0 + t * dx, y0 + t * dy
        found.append((((p[0] - qx) ** 2 + (p[1] - qy) ** 2) ** 0.5, walked + t * length))
        walked += length
    best = min(d for d, _ in found)
    return best, min(at for d, at in found if d <= best + 0.05)


def read_arrow(paths: list[_Path], centres: dict[int, tuple[float, float]], mid_y: float) -> tuple[tuple[int, ...], str | None]:
    """The pits an arrow on one board names: the lifted pit (nearest its line's first point), the
    pit beside every dot in order along the line, and the pit its head points into; or why not."""
    lines = [p for p in paths if p.stroke and not p.fill and not p.closed]
    heads = [p for p in paths if p.fill and p.closed and len(set(p.points)) == 3]
    dots = [p for p in paths if p.fill and p.closed and len(set(p.points)) > 3
            and p.box[2] - p.box[0] <= DOT_DIAMETER_MM]
    if not lines and not heads and not dots:
        return (), None
    if len(lines) != 1 or len(heads) != 1:
        return (), f"{len(lines)} arrow lines and {len(heads)} arrowheads on one board, expected one of each"
    line, head = lines[0].points, heads[0]
    hx, hy = head.centre
    if ((hx - line[-1][0]) ** 2 + (hy - line[-1][1]) ** 2) ** 0.5 > HEAD_AT_END_MM:
        return (), "the arrowhead is not at the end of its line"

    def nearest(p) -> int:
        return min(centres, key=lambda pit: (centres[pit][0] - p[0]) ** 2 + (centres[pit][1] - p[1]) ** 2)

    # The head's tip: its point farthest from the line's end.
    tip = max(set(head.points), key=lambda q: (q[0] - line[-1][0]) ** 2 + (q[1] - line[-1][1]) ** 2)
    dropped = []
    for dot in dots:
        c = dot.centre
        off, at = _along(line, c)
        if off > ON_LINE_MM:
            return (), f"a seed's dot {off:.1f} mm off its arrow"
        row = [pit for pit in centres if (centres[pit][1] < mid_y) == (c[1] < mid_y)]
        dropped.append((at, min(row, key=lambda pit: abs(centres[pit][0] - c[0]))))
    return (nearest(line[0]),) + tuple(pit for _, pit in sorted(dropped)) + (nearest(tip),), None


def trail_direction(trail: tuple[int, ...], size: int) -> tuple[rules.Direction | None, str | None]:
    """The way a trail of pits runs, or why it does not run one pit at a time in one way."""
    steps = {(b - a) % size for a, b in zip(trail, trail[1:])}
    for a, b in zip(trail, trail[1:]):
        if (b - a) % size not in (1, size - 1):
            return None, f"the arrow skips from pit {a} to pit {b}"
    if len(steps) != 1:
        turn = next(b for a, b, c in zip(trail, trail[1:], trail[2:]) if (b - a) % size != (c - b) % size)
        return None, f"the arrow turns back at pit {turn}"
    return (rules.Direction.CCW if steps == {1} else rules.Direction.CW), None


def read_boards(page: PageDrawing, page_data=None) -> list[DrawnBoard]:
    """Every board drawn on the page, read from its circles, boxes, numbers and arrow."""
    paths = _paths(page_data) if page_data is not None else []
    circles = {}
    for path in paths:
        x0, top, x1, bottom = path.box
        w, h = x1 - x0, bottom - top
        if path.closed and len(set(path.points)) == 4 and abs(w - h) < 0.3 and PIT_DIAMETER_MM[0] <= w <= PIT_DIAMETER_MM[1]:
            cx, cy = (x0 + x1) / 2, (top + bottom) / 2
            # a ring drawn inside a pit (the last seed's) is the same pit
            centre = next((c for c in circles if abs(c[0] - cx) < 0.5 and abs(c[1] - cy) < 0.5), (cx, cy))
            circles[centre] = max(circles.get(centre, 0.0), w / 2)
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
        centres: dict[int, tuple[float, float]] = {}
        words = [w for w in page.words if frame.x0 < w.x0 and w.x1 < frame.x1 and frame.top < w.top and w.bottom < frame.bottom]

        def count(cx: float, cy: float, r: float) -> int:
            return _number_in(words, lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 < r * r)

        for col, circle in enumerate(south):
            pits[col] = count(*circle)
            centres[col] = circle[:2]
        for col, circle in enumerate(north):
            pits[2 * n - 1 - col] = count(*circle)
            centres[2 * n - 1 - col] = circle[:2]
        north_store, south_store = (
            _number_in(words, lambda x, y, b=b: b.x0 < x < b.x1 and b.top < y < b.bottom) for b in stores
        )
        on_board = [p for p in paths if frame.x0 < p.box[0] and p.box[2] < frame.x1 and frame.top < p.box[1]
                    and p.box[3] < frame.bottom and not (len(set(p.points)) == 4 and p.closed
                                                         and p.box[2] - p.box[0] >= PIT_DIAMETER_MM[0] - 1.0)]
        mid_y = (sorted(rows)[0] + sorted(rows)[1]) / 2
        trail, problem = read_arrow(on_board, centres, mid_y)
        boards.append(DrawnBoard(tuple(pits), (south_store, north_store), frame.top, frame.x0, trail, problem))
    return boards


def _phrases(book, size: int) -> list[tuple[str, rules.Sowing]]:
    """Every sowing in the sheet's words ("pit 3 clockwise"), longest first."""
    found = []
    for pit in range(size):
        for d, words in DIRECTION_WORDS.items():
            english = f"pit {pit} {words}"
            found.append((book.lookup(english) or english, rules.Sowing(pit, d)))
    return sorted(found, key=lambda f: -len(f[0]))


def sowings_in(text: str, phrases: list[tuple[str, rules.Sowing]]) -> tuple[rules.Sowing, ...]:
    """The sowings a line names, in the order it names them."""
    if not phrases:
        return ()
    by_text = dict(phrases)
    pattern = re.compile("(?<![0-9])(" + "|".join(re.escape(t) for t, _ in phrases) + ")")
    return tuple(by_text[m.group(1)] for m in pattern.finditer(text))


def read_diagrams(drawing: PdfDrawing, lang: str = "en", page_data=None) -> list[DrawnDiagram]:
    """The diagrams of the sheet with the boards and notes under each caption, in page order.

    A sheet in another language is read back into the English it was translated from (the
    catalogue's patterns, reversed), so the captions and notes below are parsed one way; the
    sowings a caption or note names are found in the sheet's own words."""
    book = catalogue(lang)
    n = int(drawing.parameters()["pits_per_row"])
    phrases = _phrases(book, 2 * n)
    # how a note begins in the sheet's words (a long note runs on to more lines)
    starts = tuple(book.phrase(english).split("{")[0] for english in NOTE_STARTS)
    diagrams: list[DrawnDiagram] = []
    for index, page in enumerate(drawing.pages):
        on_page: list[DrawnDiagram] = []
        raw = _lines(page.words)
        lines = [(top, x0, book.english(text) or text, text) for top, x0, text in raw]
        for top, _, text, original in lines:
            match = _CAPTION.fullmatch(text)
            if match:
                on_page.append(DrawnDiagram(int(match.group(1)), match.group(2), match.group(3), index, top, [], [],
                                            sowings_in(original, phrases), []))

        def owner(top: float) -> DrawnDiagram | None:
            """The diagram whose caption stands above: on this page, or (a diagram running on to
            this page) the last one of the pages before."""
            above = [d for d in on_page if d.top < top]
            if above:
                return above[-1]
            return diagrams[-1] if diagrams else None

        data = page_data[index] if page_data is not None and index < len(page_data) else None
        for board in sorted(read_boards(page, data), key=lambda b: (round(b.top), b.x0)):
            d = owner(board.top)
            if d is not None:
                labels = [text for top, x0, text, _ in lines
                          if abs(x0 - board.x0) < 1.0 and board.top - 6.0 < top < board.top]
                d.boards.append(DrawnBoard(board.pits, board.stores, board.top, board.x0, board.trail,
                                           board.arrow_problem, labels[-1] if labels else ""))
        for k, (top, x0, text, original) in enumerate(lines):
            if original.startswith(starts):
                d = owner(top)
                if d is None:
                    continue
                # a note running on to more lines: the lines right under it, from the same left edge
                whole, last = [original], top
                for below_top, below_x0, below, more in lines[k + 1:]:
                    if abs(below_x0 - x0) > 0.5 or below_top - last > NOTE_LINE_MM or more.startswith(starts):
                        break
                    whole.append(more)
                    last = below_top
                said_text = " ".join(whole)
                english = book.english(said_text) or (text if len(whole) == 1 else said_text)
                d.notes.append(english)
                d.raw_notes.append((english, sowings_in(said_text, phrases)))
        diagrams += on_page
    return diagrams


def _same(board: DrawnBoard, pits: tuple[int, ...], stores: tuple[int, int]) -> bool:
    return board.pits == tuple(pits) and board.stores == tuple(stores)


def _describe(pits, stores) -> str:
    n = len(pits) // 2
    return f"South {' '.join(map(str, pits[:n]))} [{stores[0]}] / North {' '.join(map(str, pits[n:]))} [{stores[1]}]"


def _words(sowings) -> str:
    return ", ".join(f"pit {s.pit} {DIRECTION_WORDS[s.direction]}" for s in sowings) or "none"


def replay(diagram: DrawnDiagram, pits_per_row: int, seeds_per_pit: int) -> str | None:
    """Why the diagram is not a legal consequence of its first board, or None if it is."""
    boards = diagram.boards
    if not boards:
        return "no board drawn"
    total = 2 * pits_per_row * seeds_per_pit
    size = 2 * pits_per_row
    for b in boards:
        if len(b.pits) != size:
            return f"a board of {len(b.pits) // 2} pits per row on a 2x{pits_per_row} sheet"
        if sum(b.pits) + sum(b.stores) != total:
            return f"a board holds {sum(b.pits) + sum(b.stores)} seeds, not {total}: {_describe(b.pits, b.stores)}"
    if diagram.key == "set-up":
        start = rules.initial_state(pits_per_row, seeds_per_pit)
        if len(boards) != 1 or not _same(boards[0], start.pits, start.stores) or boards[0].trail:
            return f"the start is not {seeds_per_pit} seeds in every pit and empty stores"
        return None
    sows = _SOWS.fullmatch(diagram.caption)
    if sows is None:
        return f"no sowing in the caption {diagram.caption!r}"
    player = rules.PLAYER_NAMES.index(sows.group(1))
    for i, b in enumerate(boards, 1):
        if b.arrow_problem:
            return f"board {i}: {b.arrow_problem}"
        if bool(b.trail) != (i < len(boards)):
            return (f"board {i} has no arrow: every board but the last shows a lap" if i < len(boards)
                    else "the last board has an arrow: it shows the board after the laps")
    first = boards[0]
    before = rules.State(first.pits, first.stores, player)
    sowings: list[rules.Sowing] = []
    trace = None
    for i, board in enumerate(boards[:-1]):
        t = board.trail
        direction, problem = trail_direction(t, size)
        if problem:
            return f"lap {i + 1}: {problem}"
        if i == 0 or trace.laps[i - 1].result is rules.LapEnd.SOW_AGAIN:
            sowings.append(rules.Sowing(t[0], direction))
            try:
                trace = rules.apply_traced(before, rules.Move(tuple(sowings)))
            except rules.IllegalMove as error:
                return f"the arrows play an illegal turn from the first board: {error}"
        if i >= len(trace.laps):
            return f"{len(boards) - 1} arrows for a turn of {len(trace.laps)} laps"
        lap = trace.laps[i]
        if t[0] != lap.start:
            return f"lap {i + 1}'s arrow leaves pit {t[0]}; the rule core lifts pit {lap.start}"
        if direction is not lap.direction:
            return (f"lap {i + 1}'s arrow goes {DIRECTION_WORDS[direction]}; the rule core sows"
                    f" {DIRECTION_WORDS[lap.direction]}")
        if t[-1] != lap.end:
            return f"lap {i + 1}'s arrow ends in pit {t[-1]}; the rule core's last seed falls in pit {lap.end}"
        if len(t) - 1 != lap.seeds or board.pits[t[0]] != lap.seeds:
            return f"lap {i + 1}'s arrow drops {len(t) - 1} seeds; pit {lap.start} holds {board.pits[t[0]]}"
        label = _LAP.fullmatch(board.label)
        if label is None or (int(label.group(1)), int(label.group(2)), int(label.group(3))) != (i + 1, lap.start, lap.seeds):
            return f"board {i + 1}'s words {board.label!r} are not lap {i + 1}: pit {lap.start}, {lap.seeds} seeds"
    if len(trace.laps) != len(boards) - 1:
        return f"{len(boards) - 1} arrows for a turn of {len(trace.laps)} laps"
    move = rules.Move(tuple(sowings))
    if tuple(diagram.sowings) != tuple(sowings):
        return f"the caption names {_words(diagram.sowings)}; the arrows show {_words(sowings)}"
    end = trace.state
    expected = [(lap.pits, before.stores) for lap in trace.laps[:-1]]
    expected.append((end.pits, end.stores) if not end.is_mid_turn else (trace.laps[-1].pits, before.stores))
    for i, (board, (pits, stores)) in enumerate(zip(boards[1:], expected), 2):
        if not _same(board, pits, stores):
            return (f"board {i} reads {_describe(board.pits, board.stores)}, but {_words(sowings)} gives "
                    f"{_describe(pits, stores)}")
    return _shows_rule(diagram, move, trace, player, before)


def _shows_rule(diagram: DrawnDiagram, move: rules.Move, trace: rules.TurnTrace, player: int,
                before: rules.State) -> str | None:
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
        return _check_5b(diagram, end, before)
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


def _check_5b(diagram: DrawnDiagram, mid: rules.State, before: rules.State) -> str | None:
    """The offered sowings are the rule core's; each not offered one is left out by rule 5b alone and
    would bring back the board of the turn's start."""
    if not mid.is_mid_turn:
        return "the move does not end in a sow-again"
    offered = [s for text, s in diagram.raw_notes if text.startswith(("Now South", "Now North"))]
    left_out = [s for text, s in diagram.raw_notes if text.startswith("Not offered:")]
    if len(offered) != 1 or len(left_out) != 1 or not left_out[0]:
        return "no 'Now ... may choose' and 'Not offered' lines"
    legal = [m.sowings[0] for m in rules.legal_moves(mid) if not m.is_pass]
    if list(offered[0]) != legal:
        return f"offered {_words(offered[0])}; the rule core offers {_words(legal)}"
    fresh = rules.State(mid.pits, mid.stores, mid.player)
    for sowing in left_out[0]:
        if rules.is_legal(mid, rules.Move((sowing,))):
            return f"{_words([sowing])} is said not offered but is legal"
        try:
            again = rules.apply_traced(fresh, rules.Move((sowing,))).state
        except rules.IllegalMove:
            return f"{_words([sowing])} is not a sowing at all (not rule 5b)"
        if not (again.is_mid_turn and again.pits == before.pits):
            return f"{_words([sowing])} does not bring back the board of the turn's start"
    return None


def _page_marks(drawing: PdfDrawing) -> tuple[float, float, list[str]]:
    """The smallest text size (pt), the smallest distance of any mark to the paper's edge (mm), and where.

    Reads the objects of the drawing's pages (read once for every check of the file, check/pages.py),
    or opens the file when the drawing does not carry them."""
    if not drawing.page_data:
        with open_pdf(drawing.path) as pdf:
            return _marks(pdf.pages)
    return _marks(drawing.page_data)


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


def check_quick_reference(drawing: PdfDrawing, pits_per_row: int, seeds_per_pit: int, lang: str) -> CheckResult:
    """The quick reference stands on the sheet word for word: its title, headings and paragraphs."""
    text = _flowing_text(drawing)
    missing = [part for heading, paragraphs in rules.quick_reference(pits_per_row, seeds_per_pit)
               for part in (heading,) + paragraphs if " ".join(said(lang, part).split()) not in text]
    if said(lang, "Giuthi quick reference") not in text:
        missing.insert(0, "Giuthi quick reference")
    return CheckResult("quick reference", not missing, f"missing or altered: {'; '.join(m[:40] for m in missing)}"
                       if missing else "title, 5 parts, word for word")


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
    results.append(check_quick_reference(drawing, n, s, lang))
    try:
        if drawing.page_data:
            diagrams = read_diagrams(drawing, lang, drawing.page_data)
        else:
            with open_pdf(drawing.path) as pdf:
                diagrams = read_diagrams(drawing, lang, pdf.pages)
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
                                   problem or f"{d.caption}: {len(d.boards)} boards, every arrow replayed with the rule core"))
    return results
