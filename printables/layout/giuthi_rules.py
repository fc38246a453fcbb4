"""The Giuthi rules sheet as plain data: rule texts and diagrams of real positions, in mm.

Every diagram is a position the rule core reached in a seeded random game (``find_examples``
plays games with fixed seeds and keeps the first turn that shows each rule), drawn from the
laps ``apply_traced`` records: the board before the turn, then the board after each lap (or, for
long turns, only the board at the end). ``printables.check.giuthi_rules`` reads the numbers back
from the PDF and replays every diagram with the rule core.

Texts follow shared/rules/giuthi.md. Fonts are named "Helvetica"/"Helvetica-Bold" here; the
renderer decides which face draws them.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache

from printables import __version__
from printables.layout.primitives import Circle, Document, Item, Page, Rect, Text, line_height_mm, wrap
from printables.paper import page_size_mm
from printables.rules import giuthi as rules

KIND = "giuthi-rules"
RULES_FILE = "giuthi-rules.pdf"
RULES_PAPERS = ("a4", "letter")
MARGIN_MM = 10.0  # every mark stays at least this far from the paper's edge
SEARCH_SEED = 0  # games are seeded SEARCH_SEED, SEARCH_SEED + 1, ...
SEARCH_GAMES = 400  # give up after this many games (a rule that never shows is an error)
MAX_LAP_BOARDS = 2  # a turn of more laps is drawn as before and after only

# Board drawing (mm).
PIT_PITCH_MM = 7.0
PIT_RADIUS_MM = 3.0
STORE_W_MM = 6.5
PAD_MM = 1.2
INDEX_ROW_MM = 3.6  # room for the pit numbers above North's row and below South's
BOARD_GAP_MM = 5.0
LABEL_PT = 8.0
COUNT_PT = 10.0
TEXT_PT = 9.0
HEADING_PT = 12.0

WOOD = (0.93, 0.86, 0.74)
SOWN_FROM = (1.0, 0.83, 0.35)
LAST_SEED = (0.72, 0.1, 0.1)
GREY = 0.4

# The diagram keys, in the order the sheet shows them.
EXAMPLE_KEYS = ("set-up", "a turn", "relay", "sow-again", "rule 5b", "capture chain", "the end")
RESULT_WORDS = {
    rules.LapEnd.RELAY: "relay",
    rules.LapEnd.SOW_AGAIN: "sow again",
    rules.LapEnd.NO_SOWING_LEFT: "no sowing left",
    rules.LapEnd.STOP: "turn ends",
    rules.LapEnd.NO_CAPTURE: "no capture",
    rules.LapEnd.CAPTURE: "capture",
}


@dataclass(frozen=True)
class BoardView:
    """One drawn board: pits by index, stores (South, North), a caption and two marked pits."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    label: str
    sown_from: int | None = None  # shaded: the pit the next lap lifts
    last: int | None = None  # ringed: where the last seed of the lap before fell


@dataclass(frozen=True)
class Example:
    """A diagram: which rule it shows, the turn played (None for the set-up), boards and notes."""

    key: str
    player: int
    move: rules.Move | None
    boards: tuple[BoardView, ...]
    notes: tuple[str, ...] = ()

    @property
    def caption(self) -> str:
        """The words after "Diagram N (key): "."""
        if self.move is None:
            return "the start"
        return f"{rules.PLAYER_NAMES[self.player]} plays {self.move}"


# ---------------------------------------------------------------------------------------------
# Finding the examples


def _lap_label(index: int, lap: rules.Lap, last: bool) -> str:
    words = RESULT_WORDS[lap.result]
    if lap.result is rules.LapEnd.CAPTURE:
        words = f"captures {' + '.join(str(s) for _, s in lap.captured)}"
    return f"{'end' if last else f'lap {index}'} ({lap.start}{lap.direction}): {lap.seeds} seeds, {words}"


def boards_of_turn(state: rules.State, move: rules.Move, trace: rules.TurnTrace) -> tuple[BoardView, ...]:
    """The board before the turn and after each lap (only the last for a turn of many laps)."""
    laps = trace.laps
    before = BoardView(state.pits, state.stores, f"before ({rules.PLAYER_NAMES[state.player]} to move)",
                       sown_from=laps[0].start if laps else None)
    views = [before]
    shown = range(len(laps)) if len(laps) <= MAX_LAP_BOARDS else [len(laps) - 1]
    for i in shown:
        lap = laps[i]
        final = i == len(laps) - 1
        nxt = laps[i + 1].start if not final else None
        stores = trace.state.stores if final else state.stores
        label = _lap_label(i + 1, lap, final)
        if len(laps) > MAX_LAP_BOARDS:
            label = f"after {len(laps)} laps: {RESULT_WORDS[lap.result]}"
        views.append(BoardView(lap.pits, stores, label, sown_from=nxt, last=lap.end))
    return tuple(views)


def _whole_turns(n: int, s: int, seed: int):
    """Yield (turn-start state, whole move, trace, game over after it) of one seeded random game."""
    rng = random.Random(f"giuthi-rules:{seed}")
    state = rules.initial_state(n, s)
    while True:
        start = state
        sowings = []
        while True:
            moves = rules.legal_moves(state)
            if not moves:
                return
            move = moves[rng.randrange(len(moves))]
            state = rules.apply(state, move)
            sowings.extend(move.sowings)
            if not state.is_mid_turn:
                break
        whole = rules.Move(tuple(sowings))
        yield start, whole, rules.apply_traced(start, whole), rules.is_terminal(state)
        if rules.is_terminal(state):
            return


def _not_offered(mid: rules.State) -> list[rules.Sowing]:
    """Sowable pits left out at a sow-again only because they bring back a board seen this turn."""
    n = mid.pits_per_row
    fresh = rules.State(mid.pits, mid.stores, mid.player)
    offered = {m.sowings[0] for m in rules.legal_moves(mid) if not m.is_pass}
    out = []
    for pit in rules.own_pits(mid.player, n):
        if mid.pits[pit] < rules.MIN_SEEDS_TO_SOW:
            continue
        for d in (rules.Direction.CCW, rules.Direction.CW):
            sowing = rules.Sowing(pit, d)
            if sowing in offered:
                continue
            try:  # at a fresh turn start the same sowing is legal: it was left out by rule 5b
                after = rules.apply_traced(fresh, rules.Move((sowing,))).state
            except rules.IllegalMove:
                continue
            if after.is_mid_turn and after.pits in mid.turn_boards:
                out.append(sowing)
    return out


def _match(key: str, start: rules.State, move: rules.Move, trace: rules.TurnTrace, over: bool) -> Example | None:
    laps = trace.laps
    results = [lap.result for lap in laps]
    player = start.player
    if player != rules.SOUTH:  # the sheet speaks to South, who sits at the bottom of the diagrams
        return None
    if key == "a turn" and results == [rules.LapEnd.STOP]:
        return Example(key, player, move, boards_of_turn(start, move, trace))
    if key == "relay" and len(move.sowings) == 1 and len(laps) == 2 and results[0] is rules.LapEnd.RELAY \
            and results[1] is rules.LapEnd.STOP:
        return Example(key, player, move, boards_of_turn(start, move, trace))
    if key == "sow-again" and len(move.sowings) == 2 and results[0] is rules.LapEnd.SOW_AGAIN and len(laps) == 2 \
            and results[1] is not rules.LapEnd.NO_SOWING_LEFT:
        return Example(key, player, move, boards_of_turn(start, move, trace))
    if key == "rule 5b" and len(move.sowings) >= 2:
        # A choice point of this turn where a sowing is left out because it would bring the
        # board back to how it was before the turn: the diagram shows that board.
        for k in range(1, len(move.sowings)):
            first = rules.Move(move.sowings[:k])
            part = rules.apply_traced(start, first)
            if not part.state.is_mid_turn:
                continue
            fresh = rules.State(part.state.pits, part.state.stores, player)
            back = [x for x in _not_offered(part.state)
                    if rules.apply_traced(fresh, rules.Move((x,))).state.pits == start.pits]
            offered = [m for m in rules.legal_moves(part.state) if not m.is_pass]
            if back and offered:
                notes = (
                    f"Offered now: {', '.join(str(m) for m in offered)}.",
                    f"Not offered: {', '.join(str(x) for x in back)} (it would bring back the board before the turn).",
                )
                return Example(key, player, first, boards_of_turn(start, first, part), notes)
        return None
    if key == "capture chain" and len(move.sowings) == 1 and len(laps) <= 2 and results[-1] is rules.LapEnd.CAPTURE \
            and len(laps[-1].captured) >= 2:
        return Example(key, player, move, boards_of_turn(start, move, trace))
    # An end the drawing shows on its own (a repetition would need the game's history).
    if key == "the end" and over and len(move.sowings) == 1 \
            and rules.end_reason(trace.state) in (rules.EndReason.SIDE_EMPTY, rules.EndReason.NO_MOVES):
        end = trace.state
        (south, north) = rules.totals(end)
        result = rules.outcome(end)
        verdict = {rules.SOUTH: "South wins", rules.NORTH: "North wins", None: "a draw"}[result.winner]
        n = end.pits_per_row
        notes = (
            end_note(end),
            f"Score: South {south} (store {end.stores[0]} + {sum(end.pits[:n])} in pits),"
            f" North {north} (store {end.stores[1]} + {sum(end.pits[n:])} in pits): {verdict}.",
        )
        return Example(key, player, move, boards_of_turn(start, move, trace), notes)
    return None


def end_note(end: rules.State) -> str:
    """Why the game is over at ``end``, in the words of the rules (the diagram's first note)."""
    reason = rules.end_reason(end)
    n = end.pits_per_row
    if reason is rules.EndReason.SIDE_EMPTY:
        empty = rules.PLAYER_NAMES[rules.SOUTH if not any(end.pits[:n]) else rules.NORTH]
        return f"The game is over: {empty}'s pits are all empty."
    if reason is rules.EndReason.NO_MOVES:
        if max(end.pits) < rules.MIN_SEEDS_TO_SOW:
            return (f"The game is over: no pit on either side holds {rules.MIN_SEEDS_TO_SOW} or more seeds,"
                    " so neither player can move.")
        return "The game is over: every sowing either player could choose would go on forever."
    raise ValueError(f"the end diagram needs an end the board shows, not {reason}")


@lru_cache(maxsize=None)
def find_examples(pits_per_row: int = rules.DEFAULT_PITS_PER_ROW,
                  seeds_per_pit: int = rules.DEFAULT_SEEDS_PER_PIT) -> tuple[Example, ...]:
    """One example per rule, the first turn showing it in seeded random games (deterministic)."""
    rules.validate_parameters(pits_per_row, seeds_per_pit)
    start = rules.initial_state(pits_per_row, seeds_per_pit)
    found: dict[str, Example] = {
        "set-up": Example("set-up", rules.SOUTH, None, (BoardView(start.pits, start.stores, "the start"),)),
    }
    wanted = [k for k in EXAMPLE_KEYS if k not in found]
    for seed in range(SEARCH_SEED, SEARCH_SEED + SEARCH_GAMES):
        for state, move, trace, over in _whole_turns(pits_per_row, seeds_per_pit, seed):
            for key in wanted:
                if key not in found:
                    example = _match(key, state, move, trace, over)
                    if example is not None:
                        found[key] = example
        if len(found) == len(EXAMPLE_KEYS):
            return tuple(found[k] for k in EXAMPLE_KEYS)
    missing = ", ".join(k for k in EXAMPLE_KEYS if k not in found)
    raise ValueError(f"no example of {missing} in {SEARCH_GAMES} games on 2x{pits_per_row}")


# ---------------------------------------------------------------------------------------------
# Texts (shared/rules/giuthi.md)


def sections(pits_per_row: int, seeds_per_pit: int) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(heading, paragraphs, diagram keys) for each part of the sheet, in order (the rule core's words)."""
    return rules.rules_sheet_sections(pits_per_row, seeds_per_pit)


# ---------------------------------------------------------------------------------------------
# Drawing


def board_size_mm(pits_per_row: int) -> tuple[float, float]:
    """Width and height of one drawn board (frame), in mm."""
    w = 2 * (PAD_MM + STORE_W_MM + PAD_MM) + pits_per_row * PIT_PITCH_MM
    h = 2 * INDEX_ROW_MM + 2 * PIT_PITCH_MM + 2 * PAD_MM
    return w, h


def draw_board(view: BoardView, x: float, y: float) -> list[Item]:
    """One board with its frame's top-left at (x, y): stores at the ends, North's row above South's."""
    n = len(view.pits) // 2
    w, h = board_size_mm(n)
    items: list[Item] = [Rect(x, y, w, h, stroke=0.35, fill=WOOD, line_mm=0.3)]
    store_h = 2 * PIT_PITCH_MM
    sy = y + PAD_MM + INDEX_ROW_MM
    left_x = x + PAD_MM
    right_x = x + w - PAD_MM - STORE_W_MM
    # North's store on the left, South's on the right (as the rule core's text board).
    for sx, count in ((left_x, view.stores[rules.NORTH]), (right_x, view.stores[rules.SOUTH])):
        items.append(Rect(sx, sy, STORE_W_MM, store_h, stroke=0.2, fill=1.0, line_mm=0.3))
        items.append(Text(sx + STORE_W_MM / 2, sy + store_h / 2 + COUNT_PT * 0.35 * 25.4 / 72, str(count),
                          COUNT_PT, "Helvetica-Bold", "middle"))
    row0 = x + PAD_MM + STORE_W_MM + PAD_MM + PIT_PITCH_MM / 2
    north_cy = sy + PIT_PITCH_MM / 2
    south_cy = sy + 1.5 * PIT_PITCH_MM
    for col in range(n):
        cx = row0 + col * PIT_PITCH_MM
        for pit, cy, label_y in ((2 * n - 1 - col, north_cy, y + PAD_MM + INDEX_ROW_MM - 0.9),
                                 (col, south_cy, y + h - PAD_MM - 0.4)):
            count = view.pits[pit]
            fill = SOWN_FROM if pit == view.sown_from else 1.0
            items.append(Circle(cx, cy, PIT_RADIUS_MM, stroke=0.2, fill=fill, line_mm=0.25))
            if pit == view.last:
                items.append(Circle(cx, cy, PIT_RADIUS_MM - 0.35, stroke=LAST_SEED, line_mm=0.6))
            items.append(Text(cx, cy + COUNT_PT * 0.35 * 25.4 / 72, str(count), COUNT_PT, "Helvetica-Bold", "middle",
                              colour=0.0 if count else 0.55))
            items.append(Text(cx, label_y, str(pit), LABEL_PT, anchor="middle", colour=GREY))
    return items


def diagram_height_mm(example: Example, width_mm: float, pits_per_row: int) -> float:
    """Height of a diagram: caption, notes and rows of boards."""
    bw, bh = board_size_mm(pits_per_row)
    per_row = max(1, int((width_mm + BOARD_GAP_MM) // (bw + BOARD_GAP_MM)))
    rows = -(-len(example.boards) // per_row)
    caption = line_height_mm(TEXT_PT) + 1.0
    notes = len(example.notes) * line_height_mm(TEXT_PT)
    return caption + rows * (line_height_mm(LABEL_PT) + bh + 2.0) + notes + 1.5


def draw_diagram(number: int, example: Example, x: float, y: float, width_mm: float) -> list[Item]:
    """Caption "Diagram N (key): ...", the boards left to right (wrapping) and the notes below."""
    n = len(example.boards[0].pits) // 2
    bw, bh = board_size_mm(n)
    per_row = max(1, int((width_mm + BOARD_GAP_MM) // (bw + BOARD_GAP_MM)))
    items: list[Item] = []
    y += line_height_mm(TEXT_PT) * 0.8
    items.append(Text(x, y, f"Diagram {number} ({example.key}): {example.caption}", TEXT_PT, "Helvetica-Bold"))
    y += 1.0 + line_height_mm(TEXT_PT) * 0.2
    for start in range(0, len(example.boards), per_row):
        row = example.boards[start:start + per_row]
        y += line_height_mm(LABEL_PT)
        for i, view in enumerate(row):
            bx = x + i * (bw + BOARD_GAP_MM)
            items.append(Text(bx, y - 0.8, view.label, LABEL_PT, colour=GREY))
            items += draw_board(view, bx, y)
        y += bh + 2.0
    for note in example.notes:
        y += line_height_mm(TEXT_PT) * 0.8
        items.append(Text(x, y, note, TEXT_PT))
        y += line_height_mm(TEXT_PT) * 0.2
    return items


def parameters_json(pits_per_row: int, seeds_per_pit: int, paper: str) -> str:
    """What the check reads back from the PDF's subject."""
    return json.dumps({"pits_per_row": pits_per_row, "seeds_per_pit": seeds_per_pit, "paper": paper},
                      sort_keys=True)


def rules_document(pits_per_row: int = rules.DEFAULT_PITS_PER_ROW, seeds_per_pit: int = rules.DEFAULT_SEEDS_PER_PIT,
                   paper: str = "a4", examples: tuple[Example, ...] | None = None) -> Document:
    """The rules sheet: title, the rule sections and their diagrams, flowing over as many pages as needed.

    ``examples`` replaces the found diagrams (the tests draw a tampered one to see the check fail).
    """
    if paper not in RULES_PAPERS:
        raise ValueError(f"paper {paper!r}: the rules sheet is made for {' or '.join(RULES_PAPERS)}")
    rules.validate_parameters(pits_per_row, seeds_per_pit)
    examples = find_examples(pits_per_row, seeds_per_pit) if examples is None else examples
    by_key = {e.key: e for e in examples}
    page_w, page_h = page_size_mm(paper)
    x, width = MARGIN_MM, page_w - 2 * MARGIN_MM
    if board_size_mm(pits_per_row)[0] > width:
        raise ValueError(f"a 2x{pits_per_row} board does not fit across {paper}")
    footer_y = page_h - MARGIN_MM
    bottom = footer_y - line_height_mm(LABEL_PT) - 1.0
    pages: list[list[Item]] = [[]]
    y = MARGIN_MM

    def need(height: float) -> None:
        nonlocal y
        if y + height > bottom:
            pages.append([])
            y = MARGIN_MM

    y += line_height_mm(18) * 0.8
    pages[-1].append(Text(x, y, "Giuthi \u2014 rules to play by", 18, "Helvetica-Bold"))
    y += line_height_mm(TEXT_PT) + 1.0
    pages[-1].append(Text(x, y, f"A mancala of the Kikuyu and Embu of Kenya, for two players: board 2x{pits_per_row},"
                                f" {seeds_per_pit} seeds per pit.", 10, colour=GREY))
    y += 4.0
    number = 0
    for heading, paragraphs, keys in sections(pits_per_row, seeds_per_pit):
        lines = [wrap(p, width, TEXT_PT) for p in paragraphs]
        # A paragraph is never split across pages (a rule read in two halves is misread); the
        # heading stays with its first paragraph.
        need(line_height_mm(HEADING_PT) + 2 + len(lines[0]) * line_height_mm(TEXT_PT))
        y += line_height_mm(HEADING_PT)
        pages[-1].append(Text(x, y, heading, HEADING_PT, "Helvetica-Bold"))
        y += 2.0
        for para in lines:
            need(len(para) * line_height_mm(TEXT_PT))
            for line in para:
                y += line_height_mm(TEXT_PT)
                pages[-1].append(Text(x, y, line, TEXT_PT))
            y += 1.2
        for key in keys:
            number += 1
            example = by_key[key]
            need(diagram_height_mm(example, width, pits_per_row) + 1.5)
            y += 1.5
            pages[-1] += draw_diagram(number, example, x, y, width)
            y += diagram_height_mm(example, width, pits_per_row)
        y += 1.5
    total = len(pages)
    out = []
    for i, items in enumerate(pages, 1):
        items.append(Text(x, footer_y, f"Giuthi rules, 2x{pits_per_row}, {seeds_per_pit} seeds per pit"
                                       f" \u00b7 page {i} of {total} \u00b7 printables {__version__}", LABEL_PT, colour=GREY))
        out.append(Page(page_w, page_h, tuple(items)))
    return Document(
        pages=tuple(out),
        title="Giuthi \u2014 rules to play by",
        subject=parameters_json(pits_per_row, seeds_per_pit, paper),
        keywords=f"printables:{KIND}",
    )
