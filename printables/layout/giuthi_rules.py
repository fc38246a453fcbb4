"""The Giuthi rules sheet as plain data: rule texts, diagrams of real positions and a quick
reference to cut out, in mm.

Every diagram is a position the rule core reached in a seeded random game (``find_examples``
plays games with fixed seeds and keeps the first turn of at most ``MAX_LAPS`` laps that shows each
rule), drawn from the laps ``apply_traced`` records, one board per lap: the board before the lap
with the lap as an arrow round the pits (out of the lifted pit, a dot beside every pit a seed
falls in, the head into the pit of the last seed), then the board after the turn. Directions are
words and curved arrows, never codes. ``printables.check.giuthi_rules`` reads the numbers and the
arrows back from the PDF and replays every lap with the rule core.

Texts follow shared/rules/giuthi.md. Fonts are named "Helvetica"/"Helvetica-Bold" here; the
renderer decides which face draws them.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import lru_cache

from printables import __version__
from printables.layout.primitives import (BLACK, PT_TO_MM, Circle, Document, Item, Line, Page, Polygon, Rect, Text,
                                          line_height_mm, text_width_mm, translate, wrap)
from printables.paper import page_size_mm
from printables.rules import giuthi as rules

KIND = "giuthi-rules"
RULES_FILE = "giuthi-rules.pdf"
RULES_PAPERS = ("a4", "letter")
MARGIN_MM = 10.0  # every mark stays at least this far from the paper's edge
SEARCH_SEED = 0  # games are seeded SEARCH_SEED, SEARCH_SEED + 1, ...
SEARCH_GAMES = 400  # give up after this many games (a rule that never shows is an error)
MAX_LAPS = 3  # every example is a turn of at most this many laps: one picture each

# Board drawing (mm).
PIT_PITCH_MM = 10.0
PIT_RADIUS_MM = 4.2  # pits 8.4 mm across
PIT_LINE_MM = 0.25
# The last seed's ring lies on the pit's outline (flush with its outer edge), leaving the count
# the most room inside it.
RING_LINE_MM = 0.6
RING_RADIUS_MM = PIT_RADIUS_MM + PIT_LINE_MM / 2 - RING_LINE_MM / 2
STORE_W_MM = 8.0  # at least; wider when a store's count needs it (store_width_mm)
STORE_LINE_MM = 0.3
STORE_GAP_MM = 1.0  # between a store and the lane that turns round the end of the rows
PAD_MM = 1.5
INDEX_ROW_MM = 4.2  # room for the pit numbers above North's row and below South's (1.5 mm clear of frame and pits)
LANE_GAP_MM = 2.6  # from a pit's edge to the arrow's lane
ROUND_STEP_MM = 1.4  # each further round of a long lap runs one lane further out
CORNER_MM = 2.0  # radius of the arrow's turn round the end of the rows
TRAIL_MM = 0.6
DOT_R_MM = 0.75
HEAD_LEN_MM = 2.2
HEAD_W_MM = 2.2
HEAD_INSIDE_MM = 0.6  # the arrowhead's tip reaches this far into the last pit
SYMBOL_R_MM = 1.7
BOARD_GAP_MM = 5.0
ROW_GAP_MM = 2.5
# The words over a board and under it keep 1.5 mm from its frame: a lap's words stand with their
# baseline LAP_BASELINE_MM over the frame in a row LAP_ROW_MM tall, what it led to starts
# OUTCOME_DROP_MM lower than a plain line under the frame would.
LAP_ROW_MM = 5.4
LAP_BASELINE_MM = 2.4
OUTCOME_DROP_MM = 0.5
LABEL_PT = 8.0
COUNT_PT = 10.0  # a count fits its pit at this size, or at the largest size down to COUNT_MIN_PT
COUNT_FONT = "Helvetica-Bold"
COUNT_MIN_PT = 8.0  # the smallest text of a diagram (its labels' size): what the check reads
COUNT_STEP_PT = 0.5
# A count keeps the preflight's 1.5 mm (printables/check/preflight.py) from its pit's or store's
# outline, plus a margin for the outline's curve being drawn as Bézier arcs and read as chords.
COUNT_CLEAR_MM = 1.5
COUNT_SLACK_MM = 0.05
# The digits' ink in the faces a count prints in (Noto Sans Bold, NanumGothic Bold), beside what the
# stored metrics give (advance widths, cap height): at least this far inside the advance at each
# side, and up to this far over the cap height and under the baseline, in em
# (tests/test_giuthi_rules_clearance.py measures the installed faces).
DIGIT_SIDE_EM = 0.015
DIGIT_OVER_CAP_EM = 0.02
DIGIT_BELOW_EM = 0.07
TEXT_PT = 9.0
HEADING_PT = 12.0
QUICK_PT = 10.0  # the quick reference's text; headings 1 pt and the title 4 pt larger
QUICK_MIN_PT = 9.0  # on the rest of a page: no smaller than the rules' own text
QUICK_MAX_PT = 16.0
CARD_PAD_MM = 6.0
CARD_GAP_MM = 3.0
CARD_INSET_MM = 2.0  # the cut line stands this far inside the margin: room for crop marks
CARD_SPACE_MM = 6.0  # between the rules and the card's cut line
SPREAD_MAX_MM = 14.0  # at most this much room is added between two blocks of a page ending early
CROP_MM = 5.0  # crop marks run from 1 mm to this far beyond the card's corners

WOOD = (0.93, 0.86, 0.74)
SOWN_FROM = (1.0, 0.83, 0.35)
LAST_SEED = (0.72, 0.1, 0.1)
ARROW = (0.1, 0.33, 0.72)
CAPTURED = (0.98, 0.72, 0.78)
CAPTURED_TEXT = (0.62, 0.08, 0.2)
GREY = 0.4

# The diagram keys, in the order the sheet shows them.
EXAMPLE_KEYS = ("set-up", "a turn", "relay", "sow-again", "rule 5b", "capture chain", "the end")


DIRECTION_WORDS = {rules.Direction.CCW: "anticlockwise", rules.Direction.CW: "clockwise"}


@dataclass(frozen=True)
class BoardView:
    """One drawn board: pits by index, stores (South, North), words above and below, and one lap.

    ``trail`` is a lap as the rule core played it: the lifted pit, then every pit a seed fell in,
    in order (the last is where the last seed fell). A board without a trail shows a position."""

    pits: tuple[int, ...]
    stores: tuple[int, int]
    label: str
    trail: tuple[int, ...] = ()
    outcome: str = ""  # what the lap led to, under the board
    captured: tuple[int, ...] = ()  # pits whose seeds were just captured (drawn pink)
    gained: int = 0  # seeds the player to move put in their store this turn

    @property
    def sown_from(self) -> int | None:
        """The lifted pit (shaded)."""
        return self.trail[0] if self.trail else None

    @property
    def last(self) -> int | None:
        """The pit of the last seed (ringed)."""
        return self.trail[-1] if self.trail else None

    @property
    def direction(self) -> rules.Direction | None:
        """The way the trail runs, from its first two pits."""
        if len(self.trail) < 2:
            return None
        size = len(self.pits)
        return rules.Direction.CCW if (self.trail[1] - self.trail[0]) % size == 1 else rules.Direction.CW


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
        return f"{rules.PLAYER_NAMES[self.player]} sows {sowings_words(self.move.sowings)}"


def sowing_words(sowing: rules.Sowing) -> str:
    """A sowing in words: "pit 3 clockwise"."""
    return f"pit {sowing.pit} {DIRECTION_WORDS[sowing.direction]}"


def sowings_words(sowings) -> str:
    """Sowings in words, joined by commas."""
    return ", ".join(sowing_words(s) for s in sowings)


# ---------------------------------------------------------------------------------------------
# Finding the examples


def lap_trail(lap: rules.Lap, size: int) -> tuple[int, ...]:
    """The lifted pit, then the pit of every seed the lap drops, in order (from the rule core's lap)."""
    trail = tuple((lap.start + k * int(lap.direction)) % size for k in range(lap.seeds + 1))
    if trail[-1] != lap.end:  # the rule core and the picture must tell the same lap
        raise ValueError(f"lap from {lap.start}: {lap.seeds} seeds end in {trail[-1]}, the rule core says {lap.end}")
    return trail


def lap_outcome(lap: rules.Lap, player: int, n: int) -> str:
    """What the last seed of ``lap`` led to, in words."""
    who = rules.PLAYER_NAMES[player]
    side = rules.PLAYER_NAMES[rules.owner(lap.end, n)]
    pit = lap.end
    if lap.result is rules.LapEnd.RELAY:
        return f"The last seed falls in pit {pit}, which held seeds: lift them all and sow on the other way."
    if lap.result is rules.LapEnd.SOW_AGAIN:
        return f"The last seed falls in {who}'s empty pit {pit} before the turn crossed: {who} sows again."
    if lap.result is rules.LapEnd.NO_SOWING_LEFT:
        return (f"The last seed falls in {who}'s empty pit {pit} before the turn crossed, but no pit of {who}'s"
                f" holds {rules.MIN_SEEDS_TO_SOW} or more: the turn ends.")
    if lap.result is rules.LapEnd.STOP:
        return f"The last seed falls in {side}'s empty pit {pit}: the turn ends."
    if lap.result is rules.LapEnd.NO_CAPTURE:
        return (f"The last seed falls in {who}'s empty pit {pit} after the turn crossed; the pit opposite is"
                " empty: nothing is captured and the turn ends.")
    taken = " + ".join(str(seeds) for _, seeds in lap.captured)
    if len(lap.captured) == 1:
        return (f"The last seed falls in {who}'s empty pit {pit} after the turn crossed: {who} captures"
                f" the {taken} seeds of pit {lap.captured[0][0]} and the turn ends.")
    pits = ", ".join(str(p) for p, _ in lap.captured)
    return (f"The last seed falls in {who}'s empty pit {pit} after the turn crossed: {who} captures"
            f" {taken} seeds from pits {pits} and the turn ends.")


def boards_of_turn(state: rules.State, move: rules.Move, trace: rules.TurnTrace) -> tuple[BoardView, ...]:
    """One board per lap (the board before it, with the lap's trail), then the board after the turn."""
    n = state.pits_per_row
    player = state.player
    views = []
    pits = state.pits
    for i, lap in enumerate(trace.laps, 1):
        views.append(BoardView(pits, state.stores, f"Lap {i}: pit {lap.start}, {lap.seeds} seeds",
                               trail=lap_trail(lap, 2 * n), outcome=lap_outcome(lap, player, n)))
        pits = lap.pits
    end = trace.state
    if end.is_mid_turn:
        views.append(BoardView(end.pits, end.stores, f"{rules.PLAYER_NAMES[player]} must sow again"))
    else:
        captured = tuple(p for lap in trace.laps for p, _ in lap.captured)
        gained = end.stores[player] - state.stores[player]
        views.append(BoardView(end.pits, end.stores, "After the turn", captured=captured, gained=gained))
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
    if len(laps) > MAX_LAPS and key != "rule 5b":  # one picture per lap: a short turn shows every lap
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
        # board back to how it was before the turn: the diagram shows the turn up to there.
        for k in range(1, len(move.sowings)):
            first = rules.Move(move.sowings[:k])
            part = rules.apply_traced(start, first)
            if not part.state.is_mid_turn or len(part.laps) > MAX_LAPS:
                continue
            fresh = rules.State(part.state.pits, part.state.stores, player)
            back = [x for x in _not_offered(part.state)
                    if rules.apply_traced(fresh, rules.Move((x,))).state.pits == start.pits]
            offered = [m.sowings[0] for m in rules.legal_moves(part.state) if not m.is_pass]
            if back and offered:
                who = rules.PLAYER_NAMES[player]
                notes = (
                    f"Now {who} may choose: {sowings_words(offered)}.",
                    f"Not offered: {sowings_words(back)}, which would bring back the board from the start of the turn.",
                )
                return Example(key, player, first, boards_of_turn(start, first, part), notes)
        return None
    if key == "capture chain" and len(move.sowings) == 1 and results[-1] is rules.LapEnd.CAPTURE \
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


def board_size_mm(pits_per_row: int, rounds: int = 1, store_w: float = STORE_W_MM) -> tuple[float, float]:
    """Width and height of one drawn board (frame), in mm, with room for trails of ``rounds`` rounds
    and stores ``store_w`` wide."""
    ring = _ring_margin(rounds)
    w = 2 * (PAD_MM + store_w + STORE_GAP_MM + ring) + (pits_per_row - 1) * PIT_PITCH_MM
    h = 2 * (PAD_MM + INDEX_ROW_MM + ring) + PIT_PITCH_MM
    return w, h


def _lane_offset(k: int) -> float:
    """Distance from a pit's centre to the lane of round ``k`` of a trail (0 is the first)."""
    return PIT_RADIUS_MM + LANE_GAP_MM + k * ROUND_STEP_MM


def _ring_margin(rounds: int) -> float:
    return _lane_offset(rounds - 1) + 1.0


@dataclass(frozen=True)
class BoardGeometry:
    """Where a board's pits and lanes stand on the page (mm)."""

    x: float
    y: float
    n: int
    rounds: int
    store_w: float = STORE_W_MM

    @property
    def ring(self) -> float:
        """From the outer pits' centres to the board's index rows and stores."""
        return _ring_margin(self.rounds)

    @property
    def north_y(self) -> float:
        """Centre line of North's row."""
        return self.y + PAD_MM + INDEX_ROW_MM + self.ring

    @property
    def south_y(self) -> float:
        """Centre line of South's row."""
        return self.north_y + PIT_PITCH_MM

    def column_x(self, col: int) -> float:
        """Centre of column ``col`` (0 at the left)."""
        return self.x + PAD_MM + self.store_w + STORE_GAP_MM + self.ring + col * PIT_PITCH_MM

    def is_south(self, pit: int) -> bool:
        """True for South's pits (the lower row)."""
        return pit < self.n

    def column(self, pit: int) -> int:
        """The column of ``pit``: South's row left to right, North's right to left."""
        return pit if pit < self.n else 2 * self.n - 1 - pit

    def centre(self, pit: int) -> tuple[float, float]:
        """Centre of ``pit``."""
        return self.column_x(self.column(pit)), self.south_y if self.is_south(pit) else self.north_y

    def outward(self, pit: int) -> float:
        """+1 below South's row, -1 above North's: the side of a row its lane runs on."""
        return 1.0 if self.is_south(pit) else -1.0

    def lane(self, pit: int, k: int) -> tuple[float, float]:
        """The point of the trail's lane of round ``k`` beside ``pit``."""
        cx, cy = self.centre(pit)
        return cx, cy + self.outward(pit) * _lane_offset(k)

    def end_x(self, right: bool, k: int) -> float:
        """Where a trail of round ``k`` turns round the right or left end of the rows."""
        if right:
            return self.column_x(self.n - 1) + _lane_offset(k)
        return self.column_x(0) - _lane_offset(k)


def _rounded(before, corner, after, radius: float) -> list[tuple[float, float]]:
    """Points of a rounded corner from ``before`` through ``corner`` to ``after``."""
    def towards(a, b, dist):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        dist = min(dist, length / 2)
        return a[0] + dx / length * dist, a[1] + dy / length * dist
    p0, p2 = towards(corner, before, radius), towards(corner, after, radius)
    out = []
    for t in (0.0, 0.25, 0.5, 0.75, 1.0):
        u = 1 - t
        out.append((u * u * p0[0] + 2 * u * t * corner[0] + t * t * p2[0],
                    u * u * p0[1] + 2 * u * t * corner[1] + t * t * p2[1]))
    return out


def trail_points(geo: BoardGeometry, trail: tuple[int, ...]) -> tuple[tuple[float, float], ...]:
    """The arrow of a lap: out of the lifted pit, round the board along the lanes past every pit a
    seed falls in (round k of a long lap one lane further out), and into the last pit (to the
    arrowhead's base)."""
    size = 2 * geo.n
    first = trail[0]
    cx, cy = geo.centre(first)
    points = [(cx, cy + geo.outward(first) * PIT_RADIUS_MM), geo.lane(first, 0)]
    for j in range(1, len(trail)):
        a, b = trail[j - 1], trail[j]
        k = j // size  # back at the lifted pit (or past it): one lane further out
        if geo.is_south(a) != geo.is_south(b):
            right = geo.column(b) * 2 > geo.n - 1
            x_end = geo.end_x(right, k)
            ya, yb = geo.lane(a, k)[1], geo.lane(b, k)[1]
            here, there = (x_end, ya), (x_end, yb)
            target = geo.lane(b, k)
            points += _rounded(points[-1], here, there, CORNER_MM)[:-1]
            points += _rounded(here, there, target, CORNER_MM)
        points.append(geo.lane(b, k))
    last = trail[-1]
    lx, ly = geo.centre(last)
    out = geo.outward(last)
    points.append((lx, ly + out * (PIT_RADIUS_MM - HEAD_INSIDE_MM + HEAD_LEN_MM)))
    return tuple(points)


def draw_trail(geo: BoardGeometry, trail: tuple[int, ...]) -> list[Item]:
    """A lap's arrow: its line, a dot for every seed dropped before the last, and the arrowhead."""
    size = 2 * geo.n
    items: list[Item] = [Polygon(trail_points(geo, trail), stroke=ARROW, fill=None, line_mm=TRAIL_MM, closed=False)]
    for j in range(1, len(trail) - 1):
        dx, dy = geo.lane(trail[j], j // size)
        items.append(Circle(dx, dy, DOT_R_MM, stroke=None, fill=ARROW))
    last = trail[-1]
    lx, ly = geo.centre(last)
    out = geo.outward(last)
    tip_y = ly + out * (PIT_RADIUS_MM - HEAD_INSIDE_MM)
    base_y = tip_y + out * HEAD_LEN_MM
    items.append(Polygon(((lx, tip_y), (lx - HEAD_W_MM / 2, base_y), (lx + HEAD_W_MM / 2, base_y)),
                         stroke=None, fill=ARROW, closed=True))
    return items


def trail_rounds(trail: tuple[int, ...], pits_per_row: int) -> int:
    """How many lanes a trail needs: one more each time it comes back to the lifted pit."""
    return (len(trail) - 1) // (2 * pits_per_row) + 1


def count_ink_mm(text: str, size_pt: float) -> tuple[float, float, float]:
    """A count's ink as it prints in the sheet's language (``drawing_in``): half its width, half its
    height, and how far under the ink's middle its baseline stands, in mm (bounds of the ink, from the
    advances and the cap height)."""
    from printables import fonts
    from printables.i18n.fonts import face_for
    from printables.layout.language import active_lang

    em = size_pt * PT_TO_MM
    above = fonts.cap_height_mm(size_pt, face_for(active_lang(), COUNT_FONT)) + DIGIT_OVER_CAP_EM * em
    below = DIGIT_BELOW_EM * em
    width = text_width_mm(text, size_pt, COUNT_FONT) - 2 * DIGIT_SIDE_EM * em
    return width / 2, (above + below) / 2, (above - below) / 2


def _count_sizes() -> list[float]:
    """The sizes a count may take, largest first."""
    steps = int(round((COUNT_PT - COUNT_MIN_PT) / COUNT_STEP_PT))
    return [COUNT_PT - k * COUNT_STEP_PT for k in range(steps + 1)]


def count_size_pt(text: str, room_radius_mm: float) -> float | None:
    """The largest size (``COUNT_PT`` down to ``COUNT_MIN_PT``) at which ``text``, centred in a circle
    whose inner edge is ``room_radius_mm`` from the centre, keeps ``COUNT_CLEAR_MM`` from it; None if
    none does."""
    for size in _count_sizes():
        half_w, half_h, _ = count_ink_mm(text, size)
        if math.hypot(half_w, half_h) + COUNT_CLEAR_MM + COUNT_SLACK_MM <= room_radius_mm:
            return size
    return None


def pit_room_mm(ringed: bool) -> float:
    """From a pit's centre to the inner edge of its outline (or of the last seed's ring)."""
    return RING_RADIUS_MM - RING_LINE_MM / 2 if ringed else PIT_RADIUS_MM - PIT_LINE_MM / 2


def pit_count_size_pt(count: int, ringed: bool) -> float:
    """The size a pit's count is set in: ``COUNT_PT``, or smaller where the pit (or its ring) is too
    tight for it; a count that fits at no size a player reads is refused."""
    size = count_size_pt(str(count), pit_room_mm(ringed))
    if size is None:
        where = "a ringed pit" if ringed else "a pit"
        raise ValueError(f"{count} seeds: the count does not fit {where} {2 * PIT_RADIUS_MM:g} mm across"
                         f" at {COUNT_MIN_PT:g} pt or more")
    return size


def store_width_mm(examples) -> float:
    """The stores' width on a sheet: ``STORE_W_MM``, or wide enough that the largest count any of the
    diagrams puts in a store keeps ``COUNT_CLEAR_MM`` from its sides at ``COUNT_PT`` (by half mm)."""
    counts = [c for e in examples for b in e.boards for c in b.stores]
    widest = max((count_ink_mm(str(c), COUNT_PT)[0] for c in counts), default=0.0)
    need = 2 * (widest + COUNT_CLEAR_MM + COUNT_SLACK_MM + STORE_LINE_MM / 2)
    return max(STORE_W_MM, math.ceil(need * 2) / 2)


def draw_board(view: BoardView, x: float, y: float, rounds: int = 1, store_w: float = STORE_W_MM) -> list[Item]:
    """One board with its frame's top-left at (x, y): stores ``store_w`` wide at the ends, North's
    row above South's, and the lap's arrow round the pits."""
    n = len(view.pits) // 2
    geo = BoardGeometry(x, y, n, rounds, store_w)
    w, h = board_size_mm(n, rounds, store_w)
    items: list[Item] = [Rect(x, y, w, h, stroke=0.35, fill=WOOD, line_mm=0.3)]
    store_top = geo.north_y - PIT_RADIUS_MM
    store_h = PIT_PITCH_MM + 2 * PIT_RADIUS_MM
    # North's store on the left, South's on the right (as the rule core's text board).
    for sx, count, player in ((x + PAD_MM, view.stores[rules.NORTH], rules.NORTH),
                              (x + w - PAD_MM - store_w, view.stores[rules.SOUTH], rules.SOUTH)):
        items.append(Rect(sx, store_top, store_w, store_h, stroke=0.2, fill=1.0, line_mm=STORE_LINE_MM))
        items.append(Text(sx + store_w / 2, store_top + store_h / 2 + count_ink_mm(str(count), COUNT_PT)[2],
                          str(count), COUNT_PT, COUNT_FONT, "middle"))
        if view.gained and player == rules.SOUTH:
            items.append(Text(sx + store_w / 2, store_top - 1.9, f"+{view.gained}", LABEL_PT, "Helvetica-Bold",
                              "middle", colour=CAPTURED_TEXT))
    for pit in range(2 * n):
        cx, cy = geo.centre(pit)
        fill = SOWN_FROM if pit == view.sown_from else CAPTURED if pit in view.captured else 1.0
        items.append(Circle(cx, cy, PIT_RADIUS_MM, stroke=0.2, fill=fill, line_mm=PIT_LINE_MM))
    if view.trail:
        items += draw_trail(geo, view.trail)
        lx, ly = geo.centre(view.last)
        items.append(Circle(lx, ly, RING_RADIUS_MM, stroke=LAST_SEED, line_mm=RING_LINE_MM))
    for pit in range(2 * n):
        cx, cy = geo.centre(pit)
        count = view.pits[pit]
        size = pit_count_size_pt(count, bool(view.trail) and pit == view.last)
        items.append(Text(cx, cy + count_ink_mm(str(count), size)[2], str(count), size, COUNT_FONT, "middle",
                          colour=0.0 if count else 0.55))
        label_y = (y + h - PAD_MM - 0.6) if geo.is_south(pit) else (y + PAD_MM + INDEX_ROW_MM - 1.4)
        items.append(Text(cx, label_y, str(pit), LABEL_PT, anchor="middle", colour=GREY))
    return items


def turn_symbol(cx: float, cy: float, direction: rules.Direction, radius: float = SYMBOL_R_MM,
                colour=None) -> list[Item]:
    """The curved arrow that stands for a direction: anticlockwise or clockwise as seen on the page."""
    colour = ARROW if colour is None else colour
    sign = 1 if direction is rules.Direction.CCW else -1
    start = 110.0 if sign > 0 else 70.0
    points = []
    for i in range(25):
        a = math.radians(start + sign * 290.0 * i / 24)
        points.append((cx + radius * math.cos(a), cy - radius * math.sin(a)))
    a = math.radians(start + sign * 290.0)
    tx, ty = -math.sin(a) * sign, -math.cos(a) * sign  # the way the arc runs at its end (y down)
    nx, ny = -ty, tx
    ex, ey = points[-1]
    head = radius * 0.9
    tip = (ex + tx * head * 0.7, ey + ty * head * 0.7)
    left = (ex - tx * head * 0.3 + nx * head * 0.5, ey - ty * head * 0.3 + ny * head * 0.5)
    right = (ex - tx * head * 0.3 - nx * head * 0.5, ey - ty * head * 0.3 - ny * head * 0.5)
    return [Polygon(tuple(points), stroke=colour, fill=None, line_mm=0.45, closed=False),
            Polygon((tip, left, right), stroke=None, fill=colour, closed=True)]


def label_with_symbol(x: float, y: float, text: str, size_pt: float, direction: rules.Direction | None,
                      font: str = "Helvetica", colour=BLACK) -> list[Item]:
    """A line of text (baseline ``y``) followed by the direction's curved arrow, if any."""
    items: list[Item] = [Text(x, y, text, size_pt, font, colour=colour)]
    if direction is not None:
        r = SYMBOL_R_MM
        items += turn_symbol(x + text_width_mm(text, size_pt, font) + 1.5 + r, y - size_pt * 0.35 * PT_TO_MM, direction, r)
    return items


def _example_rounds(example: Example, n: int) -> int:
    return max([trail_rounds(b.trail, n) for b in example.boards if b.trail] or [1])


def diagram_blocks(number: int, example: Example, width_mm: float,
                   store_w: float | None = None) -> list[tuple[list[Item], float]]:
    """The diagram as blocks that may stand on different pages, each (items from y = 0, height): the
    caption with the first row of boards, every further row (each board with its lap's words above
    and what it led to below), the notes with the last row. Stores are ``store_w`` wide (the
    sheet's; by default as wide as this diagram's counts need)."""
    n = len(example.boards[0].pits) // 2
    rounds = _example_rounds(example, n)
    store_w = store_width_mm((example,)) if store_w is None else store_w
    bw, bh = board_size_mm(n, rounds, store_w)
    per_row = max(1, int((width_mm + BOARD_GAP_MM) // (bw + BOARD_GAP_MM)))
    label_h = line_height_mm(LABEL_PT)
    blocks: list[tuple[list[Item], float]] = []
    starts = list(range(0, len(example.boards), per_row))
    for start in starts:
        items: list[Item] = []
        y = 0.0
        if start == 0:
            y += line_height_mm(TEXT_PT) * 0.8
            one = example.move is not None and len(example.move.sowings) == 1
            items += label_with_symbol(0.0, y, f"Diagram {number} ({example.key}): {example.caption}", TEXT_PT,
                                       example.move.sowings[0].direction if one else None, "Helvetica-Bold")
            y += 1.0 + line_height_mm(TEXT_PT) * 0.2
        row = example.boards[start:start + per_row]
        y += LAP_ROW_MM
        below = [wrap(v.outcome, bw, LABEL_PT) if v.outcome else [] for v in row]
        for i, view in enumerate(row):
            bx = i * (bw + BOARD_GAP_MM)
            items += label_with_symbol(bx, y - LAP_BASELINE_MM, view.label, LABEL_PT, view.direction, "Helvetica-Bold",
                                       colour=0.2)
            items += draw_board(view, bx, y, rounds, store_w)
            ly = y + bh
            for line in below[i]:
                ly += label_h
                items.append(Text(bx, ly + OUTCOME_DROP_MM, line, LABEL_PT, colour=0.15))
        y += bh + max(len(b) for b in below) * label_h + (OUTCOME_DROP_MM + 0.4 if any(below) else 0.0) + ROW_GAP_MM
        if start == starts[-1]:
            for note in example.notes:
                for line in wrap(note, width_mm, TEXT_PT):
                    y += line_height_mm(TEXT_PT)
                    items.append(Text(0.0, y - 0.8, line, TEXT_PT))
            if example.notes:
                y += 1.0
        blocks.append((items, y))
    return blocks


def diagram_height_mm(example: Example, width_mm: float, pits_per_row: int | None = None) -> float:
    """Height of a diagram standing whole: caption, rows of boards with their words, notes."""
    return sum(h for _, h in diagram_blocks(0, example, width_mm))


def draw_diagram(number: int, example: Example, x: float, y: float, width_mm: float,
                 store_w: float | None = None) -> list[Item]:
    """Caption "Diagram N (key): ...", the boards left to right (wrapping) and the notes below."""
    items: list[Item] = []
    for block, height in diagram_blocks(number, example, width_mm, store_w):
        items += translate(block, x, y)
        y += height
    return items


LEGEND = (
    ("lifted", "the pit lifted"),
    ("trail", "one dot per seed dropped"),
    ("last", "the last seed falls here"),
    ("captured", "captured"),
    ("ccw", "anticlockwise"),
    ("cw", "clockwise"),
)


def _legend_icon(kind: str, x: float, cy: float) -> tuple[list[Item], float]:
    """A legend's small picture left-aligned at ``x`` on the centre line ``cy``, and its width."""
    r = 2.6
    if kind in ("lifted", "captured"):
        fill = SOWN_FROM if kind == "lifted" else CAPTURED
        return [Circle(x + r, cy, r, stroke=0.2, fill=fill, line_mm=0.25)], 2 * r
    if kind == "last":
        return [Circle(x + r, cy, r, stroke=0.2, fill=1.0, line_mm=PIT_LINE_MM),
                Circle(x + r, cy, r + PIT_LINE_MM / 2 - RING_LINE_MM / 2, stroke=LAST_SEED, line_mm=RING_LINE_MM)], 2 * r
    if kind == "trail":
        length = 14.0
        items: list[Item] = [Polygon(((x, cy), (x + length - HEAD_LEN_MM, cy)), stroke=ARROW, line_mm=TRAIL_MM, closed=False)]
        for k in range(3):
            items.append(Circle(x + 2.5 + k * 3.5, cy, DOT_R_MM, stroke=None, fill=ARROW))
        items.append(Polygon(((x + length, cy), (x + length - HEAD_LEN_MM, cy - HEAD_W_MM / 2),
                              (x + length - HEAD_LEN_MM, cy + HEAD_W_MM / 2)), stroke=None, fill=ARROW, closed=True))
        return items, length
    direction = rules.Direction.CCW if kind == "ccw" else rules.Direction.CW
    return turn_symbol(x + SYMBOL_R_MM + 0.5, cy, direction), 2 * SYMBOL_R_MM + 1.0


def draw_legend(x: float, y: float, width_mm: float) -> tuple[list[Item], float]:
    """The key to the diagrams' marks, in rows across ``width_mm``; and its height."""
    items: list[Item] = []
    row_h = 7.0
    cx, top = x, y
    cy = y + row_h / 2
    for kind, words in LEGEND:
        icon, w = _legend_icon(kind, 0.0, 0.0)
        need = w + 1.8 + text_width_mm(words, TEXT_PT)
        if cx > x and cx + need > x + width_mm:
            cx, cy = x, cy + row_h
        drawn, _ = _legend_icon(kind, cx, cy)
        items += drawn
        items.append(Text(cx + w + 1.8, cy + TEXT_PT * 0.35 * PT_TO_MM, words, TEXT_PT))
        cx += need + 6.0
    return items, cy + row_h / 2 - top


def parameters_json(pits_per_row: int, seeds_per_pit: int, paper: str) -> str:
    """What the check reads back from the PDF's subject."""
    return json.dumps({"pits_per_row": pits_per_row, "seeds_per_pit": seeds_per_pit, "paper": paper},
                      sort_keys=True)


# ---------------------------------------------------------------------------------------------
# The quick reference: a card to cut out


QUICK_TITLE = "Giuthi quick reference"
QUICK_CUT = "Cut along the dashed line"


def _card_blocks(pits_per_row: int, seeds_per_pit: int, inner_w: float, size_pt: float):
    """(heading, lines) of each part of the card, wrapped to the card's inner width."""
    return [(heading, [line for text in texts for line in wrap(text, inner_w, size_pt)])
            for heading, texts in rules.quick_reference(pits_per_row, seeds_per_pit)]


def card_content_height(pits_per_row: int, seeds_per_pit: int, width_mm: float, size_pt: float = QUICK_PT) -> float:
    """The height the quick reference needs at ``width_mm`` (cut line to cut line)."""
    return _card(pits_per_row, seeds_per_pit, 0.0, 0.0, width_mm, 0.0, size_pt)[1]


def card_text_size(pits_per_row: int, seeds_per_pit: int, width_mm: float, room_mm: float) -> float:
    """The largest text size (``QUICK_MIN_PT`` up to ``QUICK_MAX_PT``, by half points) at which the quick
    reference fits ``room_mm``: a card on a page of its own reads from across the table."""
    size = QUICK_MIN_PT
    while size + 0.5 <= QUICK_MAX_PT and card_content_height(pits_per_row, seeds_per_pit, width_mm, size + 0.5) <= room_mm:
        size += 0.5
    return size


def _card(pits_per_row: int, seeds_per_pit: int, x: float, y: float, width_mm: float,
          height_mm: float, size_pt: float = QUICK_PT) -> tuple[list[Item], float]:
    """The quick reference in a dashed frame with crop marks, at least ``height_mm`` tall (the
    room left is shared between its parts), its text at ``size_pt``; and its height."""
    inner_x, inner_w = x + CARD_PAD_MM, width_mm - 2 * CARD_PAD_MM
    blocks = _card_blocks(pits_per_row, seeds_per_pit, inner_w, size_pt)
    head_pt, title_pt = size_pt + 1.0, size_pt + 4.0
    lh = line_height_mm(size_pt)
    head_h = line_height_mm(title_pt) + 2.0 + 8.0
    body = sum(line_height_mm(head_pt) + len(lines) * lh for _, lines in blocks)
    natural = 2 * CARD_PAD_MM + head_h + body + (len(blocks) - 1) * CARD_GAP_MM
    height = max(natural, height_mm)
    gap = CARD_GAP_MM + (height - natural) / max(1, len(blocks) - 1)
    items: list[Item] = [Rect(x, y, width_mm, height, stroke=0.3, fill=None, line_mm=0.3, dash_mm=(2.0, 1.5))]
    for cx, sx in ((x, -1), (x + width_mm, 1)):
        for cy, sy in ((y, -1), (y + height, 1)):
            items.append(Line(cx + sx * 1.0, cy, cx + sx * CROP_MM, cy, stroke=0.0, line_mm=0.25))
            items.append(Line(cx, cy + sy * 1.0, cx, cy + sy * CROP_MM, stroke=0.0, line_mm=0.25))
    cy = y + CARD_PAD_MM + line_height_mm(title_pt) * 0.8
    items.append(Text(inner_x, cy, QUICK_TITLE, title_pt, "Helvetica-Bold"))
    items.append(Text(x + width_mm - CARD_PAD_MM, cy, f"2x{pits_per_row}, {seeds_per_pit} seeds per pit", LABEL_PT,
                      anchor="end", colour=GREY))
    cy += 2.0
    # The two directions, as the diagrams draw them.
    sy = cy + 4.0
    cx = inner_x
    for d in (rules.Direction.CCW, rules.Direction.CW):
        items += turn_symbol(cx + SYMBOL_R_MM, sy, d)
        words = DIRECTION_WORDS[d]
        items.append(Text(cx + 2 * SYMBOL_R_MM + 1.8, sy + size_pt * 0.35 * PT_TO_MM, words, size_pt))
        cx += 2 * SYMBOL_R_MM + 1.8 + text_width_mm(words, size_pt) + 8.0
    cy = y + CARD_PAD_MM + head_h
    for i, (heading, lines) in enumerate(blocks):
        if i:
            cy += gap
        cy += line_height_mm(head_pt)
        items.append(Text(inner_x, cy - 0.8, heading, head_pt, "Helvetica-Bold"))
        for line in lines:
            cy += lh
            items.append(Text(inner_x, cy - 0.8, line, size_pt))
    return items, height


def _spread(items: list[Item], marks: list[int], room_mm: float) -> None:
    """Share ``room_mm`` left at the foot of a page out between its blocks (at most
    ``SPREAD_MAX_MM`` each), so that a page ends at its foot; ``items`` are moved in place."""
    starts = sorted(set(m for m in marks if 0 < m < len(items)))
    if not starts or room_mm <= 0:
        return
    share = min(SPREAD_MAX_MM, room_mm / len(starts))
    bounds = starts + [len(items)]
    for k, (a, b) in enumerate(zip(bounds, bounds[1:]), 1):
        items[a:b] = translate(items[a:b], 0.0, share * k)


def rules_document(pits_per_row: int = rules.DEFAULT_PITS_PER_ROW, seeds_per_pit: int = rules.DEFAULT_SEEDS_PER_PIT,
                   paper: str = "a4", examples: tuple[Example, ...] | None = None) -> Document:
    """The rules sheet: title, the rule sections and their diagrams, flowing over as many pages as
    needed, and the quick reference to cut out at the end (it takes the rest of the last page).

    ``examples`` replaces the found diagrams (the tests draw a tampered one to see the check fail).
    """
    if paper not in RULES_PAPERS:
        raise ValueError(f"paper {paper!r}: the rules sheet is made for {' or '.join(RULES_PAPERS)}")
    rules.validate_parameters(pits_per_row, seeds_per_pit)
    examples = find_examples(pits_per_row, seeds_per_pit) if examples is None else examples
    by_key = {e.key: e for e in examples}
    page_w, page_h = page_size_mm(paper)
    x, width = MARGIN_MM, page_w - 2 * MARGIN_MM
    store_w = store_width_mm(examples)  # one width on every board of the sheet
    if board_size_mm(pits_per_row, 1, store_w)[0] > width:
        raise ValueError(f"a 2x{pits_per_row} board does not fit across {paper}")
    footer_y = page_h - MARGIN_MM
    bottom = footer_y - line_height_mm(LABEL_PT) - 1.0
    pages: list[list[Item]] = [[]]
    marks: list[list[int]] = [[]]  # where each block of a page starts (its first item)
    y = MARGIN_MM

    def need(height: float) -> None:
        nonlocal y
        if y + height > bottom:
            _spread(pages[-1], marks[-1], bottom - y)
            pages.append([])
            marks.append([])
            y = MARGIN_MM

    heading_at = [-1]  # the item of the last heading: its first paragraph stays right under it

    def mark() -> None:
        """A block starts here: a page ending early shares its room out between blocks."""
        if pages[-1] and len(pages[-1]) != heading_at[0] + 1:
            marks[-1].append(len(pages[-1]))

    y += line_height_mm(18) * 0.8
    pages[-1].append(Text(x, y, "Giuthi \u2014 rules to play by", 18, "Helvetica-Bold"))
    y += line_height_mm(TEXT_PT) + 1.0
    pages[-1].append(Text(x, y, f"A mancala of the Kikuyu and Embu of Kenya, for two players: board 2x{pits_per_row},"
                                f" {seeds_per_pit} seeds per pit.", 10, colour=GREY))
    y += 4.0
    number = 0

    def put_diagram(key: str, lead: list[str] | None = None) -> None:
        """The diagram block by block; ``lead``, a paragraph that stays with its first block."""
        nonlocal y, number
        number += 1
        for i, (items, height) in enumerate(diagram_blocks(number, by_key[key], width, store_w)):
            if i == 0 and lead is not None:
                need(len(lead) * line_height_mm(TEXT_PT) + 1.2 + 1.5 + height)
                mark()
                put_paragraph(lead)
            need(height + (1.5 if i == 0 else 0.0))
            if i > 0 or lead is None:
                mark()
            if i == 0:
                y += 1.5
            pages[-1].extend(translate(items, x, y))
            y += height

    def put_paragraph(lines: list[str]) -> None:
        nonlocal y
        need(len(lines) * line_height_mm(TEXT_PT))
        for line in lines:
            y += line_height_mm(TEXT_PT)
            pages[-1].append(Text(x, y, line, TEXT_PT))
        y += 1.2

    for heading, paragraphs, keys in sections(pits_per_row, seeds_per_pit):
        lines = [wrap(p, width, TEXT_PT) for p in paragraphs]
        # A paragraph is never split across pages (a rule read in two halves is misread); the
        # heading stays with its first paragraph.
        interleaved = len(keys) == len(paragraphs)
        first = 0.0
        if interleaved:  # the heading, its rule and the first row of the rule's example stand together
            first = 1.2 + 1.5 + diagram_blocks(number + 1, by_key[keys[0]], width, store_w)[0][1]
        need(line_height_mm(HEADING_PT) + 2 + len(lines[0]) * line_height_mm(TEXT_PT) + first)
        mark()
        y += line_height_mm(HEADING_PT)
        heading_at[0] = len(pages[-1])
        pages[-1].append(Text(x, y, heading, HEADING_PT, "Helvetica-Bold"))
        y += 2.0
        if interleaved:  # each rule's words, then its example (rule 5b around its own)
            for para, key in zip(lines, keys):
                put_diagram(key, lead=para)
                y += 1.5
        else:
            for para in lines:
                put_paragraph(para)
            if "set-up" in keys:  # the key to the diagrams' marks, under "how to read the diagrams"
                legend, height = draw_legend(x, 0.0, width)
                need(height)  # no mark: the key stays under the words that explain it
                pages[-1].extend(translate(legend, 0.0, y))
                y += height + 1.0
            for key in keys:
                put_diagram(key)
        y += 1.5
    # The quick reference: on the rest of the last page if it fits there, else on a page of its own.
    card_x, card_w = x + CARD_INSET_MM, width - 2 * CARD_INSET_MM
    natural = card_content_height(pits_per_row, seeds_per_pit, card_w, QUICK_MIN_PT)
    y += CARD_SPACE_MM
    if y + natural > bottom - CROP_MM:
        _spread(pages[-1], marks[-1], bottom - y + CARD_SPACE_MM)
        pages.append([])
        y = MARGIN_MM + CROP_MM
    room = bottom - CROP_MM - y
    size = card_text_size(pits_per_row, seeds_per_pit, card_w, room)
    card, _ = _card(pits_per_row, seeds_per_pit, card_x, y, card_w, room, size)
    pages[-1] += card
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
