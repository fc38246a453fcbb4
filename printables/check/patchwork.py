"""Check a Patchwork print-and-play PDF by reading its drawing back (never the code that drew it).

The sheet's drawing conventions, which is all this module assumes:
- every page begins with a heading line "Patchwork · <part>" (patches, quilt boards, time track, extras);
- a patch square is a filled square without stroke; grey cut lines are separate segments, so two
  touching squares belong to one patch unless a cut line lies on their shared edge;
- on a patch, a number inside a circle is the button cost, a number just right of an hourglass (a
  path taller than wide) the time cost, and a circle without a number an income button (the tiny
  circles inside it are its holes);
- a quilt square is a stroked square without fill;
- a time-track space is a circle with its position printed inside; a button (circle) inside it
  marks an income space, a small square a leather space; a filled triangle between two spaces is
  an arrowhead, its tip the corner across from its shortest side; the edition is printed as
  "<classic|revised> edition".
Sizes, shapes, numbers and positions are all recovered from geometry and compared with the rule core.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, replace

from printables.check.pdf import (
    SIZE_TOLERANCE_MM,
    check_publisher_box,
    words_missing,
    Box,
    Curve,
    PageDrawing,
    PdfDrawing,
    Segment,
    Word,
    check_page_size,
    check_print_scaling,
    check_ruler,
    check_subject_keys,
    group_touching,
    lattice,
    text_missing,
)
from printables.check.language import lang_of, said
from printables.check.results import CheckResult
from printables.paper import pt_to_mm
from printables.rules import patchwork as rules

MIN_SQUARE_MM = 5.0  # smaller squares are symbols (a leather mark), not patch or quilt squares
SQUARE_TOLERANCE_MM = 0.02  # width and height of a square agree this well
ON_LINE_MM = 0.05  # a cut line lies on an edge when this close
HEADING_BAND_MM = 20.0  # the heading line sits this close to the top of the page
INCOME_BUTTON_MIN = 0.25  # an income button is at least this fraction of a square across
HOURGLASS_ASPECT = 1.3  # an hourglass is at least this much taller than wide
TIME_GAP_MAX = 0.2  # the time number starts within this fraction of a square right of its hourglass
TRACK_SPACE_MIN_MM = 5.0
MARK_MIN, MARK_MAX = 0.15, 0.6  # a mark in a track space, as a fraction of the space's diameter
TRACK_STEP_SLACK_MM = 8.0  # neighbouring spaces are at most this far apart, rim to rim
TRACK_SPACE_MAX_MM = 60.0  # a numbered outline wider than this is not a space (the track's band)
PITCH_TOLERANCE = 0.10  # every step along the track is within 10 % of the track's pitch
CROWDING = 1.5  # no two spaces that do not follow each other stand closer, rim to rim, than this many
                # times the widest gap between spaces that do: the laps are plainly apart
ARROW_MIN_MM = 3.0  # an arrowhead between two spaces is at least this long (read at arm's length)
ARROW_AIM = 0.95  # an arrowhead points along the step: cosine of the angle between them
ARROW_OFF_LINE_MM = 1.0  # an arrowhead's centre lies this close to the line between the two centres
ADVICE_PHRASES = ("Print on card", "glue the printed sheet to thin card", "Cut on the solid dark")
TIME_TOKEN_MIN_MM = 12.0  # a time token's disc, to pick up and stack on the track

PART_HEADINGS = {"patches": "patches", "quilt boards": "quilts", "time track": "track", "extras": "extras",
                 "time track rules": "track rules"}
PARTS = ("patches", "quilts", "track", "extras")
# The parameters a sheet records in its subject; one more or one less means the file was altered.
SUBJECT_KEYS = {"kind", "cell_mm", "ink", "leather", "paper", "part"}
LANG_KEY = {"lang"}  # recorded by the translation pass; a sheet drawn without it is English
COLOUR_SPREAD = 0.02  # a fill whose red, green and blue differ by more than this is coloured, not grey


# ---------------------------------------------------------------------------------------------
# Geometry helpers


def _centre(item) -> tuple[float, float]:
    return (item.x0 + item.x1) / 2, (item.top + item.bottom) / 2


def _is_square(item, tolerance: float = SQUARE_TOLERANCE_MM) -> bool:
    return abs((item.x1 - item.x0) - (item.bottom - item.top)) <= tolerance


def _inside_circle(point: tuple[float, float], circle: Curve) -> bool:
    cx, cy = _centre(circle)
    return math.hypot(point[0] - cx, point[1] - cy) <= (circle.x1 - circle.x0) / 2


def _integer(word: Word) -> int | None:
    return int(word.text) if re.fullmatch(r"\d{1,3}", word.text) else None


def page_part(page: PageDrawing, lang: str = "en") -> str | None:
    """The part a page shows, read from its heading line 'Patchwork · <part>' (in the sheet's language)."""
    top_words = sorted((w for w in page.words if w.top < HEADING_BAND_MM), key=lambda w: (round(w.top), w.x0))
    first = next((w for w in top_words if w.text == said(lang, "Patchwork")), None)
    if first is None:
        return None
    line = [w.text for w in top_words if abs(w.top - first.top) < 1.0 and w.x0 > first.x0 and w.text != "·"]
    return {said(lang, heading): part for heading, part in PART_HEADINGS.items()}.get(" ".join(line))


# ---------------------------------------------------------------------------------------------
# Patches


@dataclass(frozen=True)
class FoundPatch:
    """A patch recovered from a page: its cells, square size and printed numbers."""

    page: int
    cells: frozenset[tuple[int, int]]  # (row, col) lattice cells
    cell_mm: float
    costs: tuple[int, ...]
    times: tuple[int, ...]
    income: int

    def key(self) -> tuple | None:
        """(canonical shape, cost, time, income), or None when cost or time is not read once."""
        if len(self.costs) != 1 or len(self.times) != 1:
            return None
        return (rules.canonical_shape(self.cells), self.costs[0], self.times[0], self.income)

    def picture(self) -> str:
        """The shape as rows of '#' and '.'."""
        return rules.format_shape(self.cells)


def _cut_on(segments: list[Segment], x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether some straight segment covers the edge from (x0, y0) to (x1, y1)."""
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    for s in segments:
        if abs(s.top - s.bottom) < ON_LINE_MM and abs(y0 - y1) < ON_LINE_MM:
            if abs(s.top - my) < ON_LINE_MM and s.x0 - ON_LINE_MM <= min(x0, x1) and max(x0, x1) <= s.x1 + ON_LINE_MM:
                return True
        elif abs(s.x0 - s.x1) < ON_LINE_MM and abs(x0 - x1) < ON_LINE_MM:
            if abs(s.x0 - mx) < ON_LINE_MM and s.top - ON_LINE_MM <= min(y0, y1) and max(y0, y1) <= s.bottom + ON_LINE_MM:
                return True
    return False


class _CutIndex:
    """The segments by where they lie, so that :meth:`cut_on` looks only at those within
    ON_LINE_MM of an edge's line: horizontal ones by their y, vertical ones by their x (buckets of
    ON_LINE_MM, the neighbouring buckets looked at too). Gives what ``_cut_on`` gives."""

    def __init__(self, segments: list[Segment]):
        self.segments = segments
        self.rows: dict[int, list[Segment]] | None = {}
        self.columns: dict[int, list[Segment]] = {}
        try:
            for s in segments:
                if abs(s.top - s.bottom) < ON_LINE_MM:
                    self.rows.setdefault(math.floor(s.top / ON_LINE_MM), []).append(s)
                if abs(s.x0 - s.x1) < ON_LINE_MM:
                    self.columns.setdefault(math.floor(s.x0 / ON_LINE_MM), []).append(s)
        except (ValueError, OverflowError):  # a coordinate that is not a finite number: look at every segment
            self.rows = None

    def _near(self, buckets: dict[int, list[Segment]], at: float) -> list[Segment]:
        k = math.floor(at / ON_LINE_MM)  # two buckets either side: rounding never hides a segment
        return [s for b in range(k - 2, k + 3) for s in buckets.get(b, ())]

    def cut_on(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether some straight segment covers the edge from (x0, y0) to (x1, y1)."""
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if self.rows is None or not (math.isfinite(mx) and math.isfinite(my)):
            return _cut_on(self.segments, x0, y0, x1, y1)
        across = abs(y0 - y1) < ON_LINE_MM  # the edge runs along x
        if across and any(abs(s.top - my) < ON_LINE_MM and s.x0 - ON_LINE_MM <= min(x0, x1) and max(x0, x1) <= s.x1 + ON_LINE_MM
                          for s in self._near(self.rows, my)):
            return True
        if abs(x0 - x1) < ON_LINE_MM:  # the edge runs along y: a vertical segment (not taken as horizontal above)
            return any(not (across and abs(s.top - s.bottom) < ON_LINE_MM) and abs(s.x0 - mx) < ON_LINE_MM
                       and s.top - ON_LINE_MM <= min(y0, y1) and max(y0, y1) <= s.bottom + ON_LINE_MM
                       for s in self._near(self.columns, mx))
        return False


def patch_squares(page: PageDrawing) -> list[Box]:
    """Filled, unstroked squares of at least MIN_SQUARE_MM: the squares of patches."""
    return [b for b in page.boxes if b.fill and not b.stroke and _is_square(b) and b.w >= MIN_SQUARE_MM]


def split_pieces(squares: list[Box], segments: list[Segment]) -> tuple[list[list[Box]], int]:
    """Touching squares joined unless a cut line separates them; also the count of uncut outer edges."""
    parent = list(range(len(squares)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    grid = 0.02  # mm: corners closer than this are the same corner
    at = {(round(b.x0 / grid), round(b.top / grid)): i for i, b in enumerate(squares)}

    def square_at(x: float, y: float) -> int | None:
        kx, ky = round(x / grid), round(y / grid)
        for ox in (-1, 0, 1):
            for oy in (-1, 0, 1):
                j = at.get((kx + ox, ky + oy))
                if j is not None:
                    return j
        return None

    cuts = _CutIndex(segments)
    uncut = 0
    for i, b in enumerate(squares):
        for dx, dy in ((b.w, 0.0), (0.0, b.h), (-b.w, 0.0), (0.0, -b.h)):
            j = square_at(b.x0 + dx, b.top + dy)
            if dx > 0:
                edge = (b.x1, b.top, b.x1, b.bottom)
            elif dx < 0:
                edge = (b.x0, b.top, b.x0, b.bottom)
            elif dy > 0:
                edge = (b.x0, b.bottom, b.x1, b.bottom)
            else:
                edge = (b.x0, b.top, b.x1, b.top)
            cut = cuts.cut_on(*edge)
            if j is None:
                uncut += not cut
            elif not cut and abs(squares[j].w - b.w) <= SIZE_TOLERANCE_MM:
                parent[find(i)] = find(j)
    groups: dict[int, list[Box]] = {}
    for i, b in enumerate(squares):
        groups.setdefault(find(i), []).append(b)
    return sorted(groups.values(), key=lambda g: (min(b.top for b in g), min(b.x0 for b in g))), uncut


def read_patch(page_no: int, group: list[Box], page: PageDrawing) -> FoundPatch:
    """The cells, cost, time and income printed on one group of squares."""
    cell, cells = lattice(group)

    def on_piece(point: tuple[float, float]) -> bool:
        return any(b.x0 <= point[0] <= b.x1 and b.top <= point[1] <= b.bottom for b in group)

    circles = [c for c in page.curves if _is_square(c, 0.1) and on_piece(_centre(c))]
    hourglasses = [
        c for c in page.curves
        if (c.bottom - c.top) >= HOURGLASS_ASPECT * (c.x1 - c.x0) and on_piece(_centre(c))
    ]
    numbers = [(w, _integer(w)) for w in page.words if _integer(w) is not None and on_piece(_centre(w))]
    costs, times = [], []
    labelled = set()
    for word, value in numbers:
        holder = [c for c in circles if _inside_circle(_centre(word), c)]
        if holder:
            costs.append(value)
            labelled.update(id(c) for c in holder)
            continue
        wy = _centre(word)[1]
        if any(0 <= word.x0 - h.x1 <= TIME_GAP_MAX * cell and h.top <= wy <= h.bottom for h in hourglasses):
            times.append(value)
    income = sum(1 for c in circles if id(c) not in labelled and (c.x1 - c.x0) >= INCOME_BUTTON_MIN * cell)
    # lattice() gives (x, y); the rule core's shapes are (row, col).
    return FoundPatch(page_no, frozenset((y, x) for x, y in cells), cell, tuple(costs), tuple(times), income)


def _patch_names(keys: Counter) -> str:
    named = []
    for key, n in sorted(keys.items(), key=lambda kv: str(kv[0])):
        shape, cost, time, income = key
        ids = [p.id for p in rules.PATCHES if (rules.canonical_shape(p.shape), p.cost, p.time, p.income) == key]
        label = f"patch {ids[0]} {rules.format_shape(rules.PATCHES[ids[0]].shape)}" if ids else f"a patch {rules.format_shape(shape)}"
        named.append(f"{label} cost {cost} time {time} income {income}" + (f" x{n}" if n > 1 else ""))
    return "; ".join(named)


def check_patches(pages: list[tuple[int, PageDrawing]]) -> tuple[list[CheckResult], list[float]]:
    """The 33 patches, each exactly once with its numbers; their cut lines; their square sizes."""
    found: list[FoundPatch] = []
    uncut_total = 0
    for page_no, page in pages:
        segments = [s for s in page.segments]
        groups, uncut = split_pieces(patch_squares(page), segments)
        uncut_total += uncut
        found += [read_patch(page_no, g, page) for g in groups]
    expected = Counter((rules.canonical_shape(p.shape), p.cost, p.time, p.income) for p in rules.PATCHES)
    unread = [f for f in found if f.key() is None]
    got = Counter(f.key() for f in found if f.key() is not None)
    missing = expected - got
    extra = got - expected
    problems = []
    if missing:
        problems.append(f"missing: {_patch_names(missing)}")
    if extra:
        problems.append(f"extra: {_patch_names(extra)}")
    for f in unread:
        problems.append(f"page {f.page}: patch {f.picture()} shows cost {list(f.costs)} and time {list(f.times)}, "
                        "expected one of each")
    results = [CheckResult(
        "patches", not problems,
        "; ".join(problems) or f"all {len(rules.PATCHES)} patches once each, with their cost, time and income "
        f"({sum(len(f.cells) for f in found)} squares on {len(pages)} page(s))",
    )]
    results.append(CheckResult(
        "cut lines", uncut_total == 0,
        "every outer edge of every patch has a cut line" if uncut_total == 0 else f"{uncut_total} patch edge(s) without a cut line",
    ))
    sizes = [b.w for _, page in pages for b in patch_squares(page)]
    return results, sizes


# ---------------------------------------------------------------------------------------------
# Quilts


def check_quilts(pages: list[tuple[int, PageDrawing]]) -> tuple[CheckResult, list[float]]:
    """Two complete 9x9 boards of stroked, unfilled squares."""
    boards = []
    sizes = []
    problems = []
    for page_no, page in pages:
        squares = [b for b in page.boxes if b.stroke and not b.fill and _is_square(b) and b.w >= MIN_SQUARE_MM]
        for group in group_touching(squares):
            cell, cells = lattice(group)
            cols = max(x for x, _ in cells) + 1
            rows = max(y for _, y in cells) + 1
            boards.append(f"{cols}x{rows}")
            sizes += [b.w for b in group]
            if (cols, rows) != (rules.QUILT_SIZE, rules.QUILT_SIZE) or len(cells) != cols * rows:
                problems.append(f"page {page_no}: a board of {len(cells)} squares in {cols}x{rows}, expected 9x9")
    if len(boards) != rules.PLAYERS:
        problems.append(f"{len(boards)} quilt board(s), expected {rules.PLAYERS}")
    return CheckResult("quilts", not problems, "; ".join(problems) or f"{len(boards)} boards of 9x9 squares"), sizes


def check_square_sizes(patch_sizes: list[float], quilt_sizes: list[float], leather_sizes: list[float], cell_mm: float) -> CheckResult:
    """Every patch, leather and quilt square is the same size, the one the sheet records."""
    problems = []
    measured = []
    for name, sizes in (("patch", patch_sizes), ("quilt", quilt_sizes), ("leather patch", leather_sizes)):
        if not sizes:
            continue
        lo, hi = min(sizes), max(sizes)
        measured.append(f"{name} {sum(sizes) / len(sizes):.2f} mm")
        if hi - lo > SIZE_TOLERANCE_MM:
            problems.append(f"{name} squares vary from {lo:.2f} to {hi:.2f} mm")
        if max(abs(lo - cell_mm), abs(hi - cell_mm)) > SIZE_TOLERANCE_MM:
            problems.append(f"{name} squares are {lo:.2f} to {hi:.2f} mm, the sheet says {cell_mm:g} mm")
    everything = patch_sizes + quilt_sizes + leather_sizes
    if everything and max(everything) - min(everything) > SIZE_TOLERANCE_MM:
        problems.append(f"patch and quilt squares differ: {', '.join(measured)}")
    return CheckResult("square size", not problems, "; ".join(dict.fromkeys(problems)) or ", ".join(measured) + f" (sheet: {cell_mm:g} mm)")


# ---------------------------------------------------------------------------------------------
# Time track


@dataclass(frozen=True)
class FoundSpace:
    """A time-track space read back: position, circle, and the marks inside it."""

    position: int
    cx: float
    cy: float
    r: float
    income: bool
    leather: bool


def read_track(page: PageDrawing) -> list[FoundSpace]:
    """Every numbered circle on the track page with the marks inside it."""
    circles = [c for c in page.curves if _is_square(c, 0.1) and TRACK_SPACE_MIN_MM <= c.x1 - c.x0 <= TRACK_SPACE_MAX_MM]
    spaces = []
    for word in page.words:
        value = _integer(word)
        if value is None:
            continue
        holders = [c for c in circles if _inside_circle(_centre(word), c)]
        if not holders:
            continue
        space = min(holders, key=lambda c: c.x1 - c.x0)
        cx, cy = _centre(space)
        d = space.x1 - space.x0

        def inside(item) -> bool:
            return math.hypot(_centre(item)[0] - cx, _centre(item)[1] - cy) < d / 2

        income = any(
            c is not space and _is_square(c, 0.1) and MARK_MIN * d <= c.x1 - c.x0 <= MARK_MAX * d and inside(c)
            for c in page.curves
        )
        leather = any(_is_square(b, 0.1) and b.w <= MARK_MAX * d and inside(b) for b in page.boxes)
        spaces.append(FoundSpace(value, cx, cy, d / 2, income, leather))
    return spaces


def _rim_gap(a: FoundSpace, b: FoundSpace) -> float:
    return math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def _crosses(p1, p2, q1, q2) -> bool:
    """Whether segments p1-p2 and q1-q2 cross or touch."""
    def side(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def on(a, b, c) -> bool:  # c, known to be in line with a-b, lies between a and b
        return min(a[0], b[0]) - 1e-9 <= c[0] <= max(a[0], b[0]) + 1e-9 and min(a[1], b[1]) - 1e-9 <= c[1] <= max(a[1], b[1]) + 1e-9

    eps = 1e-9
    d1, d2 = side(q1, q2, p1), side(q1, q2, p2)
    d3, d4 = side(p1, p2, q1), side(p1, p2, q2)
    if ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and ((d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)):
        return True
    return any(abs(d) <= eps and on(a, b, c) for d, a, b, c in
               ((d1, q1, q2, p1), (d2, q1, q2, p2), (d3, p1, p2, q1), (d4, p1, p2, q2)))


def _distance_to_segment(point, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(a[0] + t * dx - point[0], a[1] + t * dy - point[1])


def check_track_shape(track: list[FoundSpace]) -> list[CheckResult]:
    """The track measured as a path: ``track[i]`` is space i. Steps of one even pitch (within 10 %),
    the laps plainly apart (no two spaces but neighbours as close as neighbours are), and a path
    that never crosses itself nor runs through a space."""
    ordinary = track[:-1]  # the centre space is larger: its step is measured rim to rim
    steps = [math.hypot(a.cx - b.cx, a.cy - b.cy) for a, b in zip(ordinary, ordinary[1:])]
    pitch = _median(steps)
    uneven = [f"spaces {a} and {a + 1} are {d:.1f} mm apart" for a, d in enumerate(steps)
              if abs(d - pitch) > PITCH_TOLERANCE * pitch]
    gaps = [_rim_gap(a, b) for a, b in zip(track, track[1:])]
    step_gap = _median(gaps[:-1])
    if abs(gaps[-1] - step_gap) > PITCH_TOLERANCE * pitch:
        uneven.append(f"space {rules.FINAL_POSITION - 1} is {gaps[-1]:.1f} mm from the centre, rim to rim, "
                      f"not {step_gap:.1f} mm as between the other spaces")
    results = [CheckResult(
        "track pitch", not uneven,
        "; ".join(uneven[:4]) + (f" (and {len(uneven) - 4} more)" if len(uneven) > 4 else "")
        + (f"; the track's pitch is {pitch:.1f} mm, within 10 % wanted" if uneven else "")
        if uneven else f"steps of {min(steps):.2f} to {max(steps):.2f} mm centre to centre (pitch {pitch:.2f} mm, "
        f"within 10 %), {gaps[-1]:.1f} mm rim to rim into the centre",
    )]

    widest = max(gaps)
    crowded = []
    nearest = math.inf
    for i, a in enumerate(track):
        for b in track[i + 2:]:
            gap = _rim_gap(a, b)
            nearest = min(nearest, gap)
            if gap < CROWDING * widest:
                crowded.append(f"{a.position} and {b.position} ({gap:.1f} mm)")
    results.append(CheckResult(
        "track laps", not crowded,
        f"spaces that do not follow each other stand as close as those that do ({widest:.1f} mm rim to rim): "
        + ", ".join(crowded[:6]) + (f" and {len(crowded) - 6} more pairs" if len(crowded) > 6 else "")
        if crowded else f"spaces that do not follow each other stand at least {nearest:.1f} mm apart, rim to rim; "
        f"neighbours at most {widest:.1f} mm",
    ))

    centres = [(s.cx, s.cy) for s in track]
    tangled = []
    for i in range(len(centres) - 1):
        for j in range(i + 2, len(centres) - 1):
            if _crosses(centres[i], centres[i + 1], centres[j], centres[j + 1]):
                tangled.append(f"the step {i}-{i + 1} crosses the step {j}-{j + 1}")
        for k, space in enumerate(track):
            if k not in (i, i + 1) and _distance_to_segment(centres[k], centres[i], centres[i + 1]) < space.r:
                tangled.append(f"the step {i}-{i + 1} runs through space {k}")
    results.append(CheckResult(
        "track path", not tangled,
        "; ".join(tangled[:4]) + (f" (and {len(tangled) - 4} more)" if len(tangled) > 4 else "")
        if tangled else "one path from 0 to the centre that never crosses itself nor runs through a space",
    ))
    return results


@dataclass(frozen=True)
class Arrowhead:
    """A filled triangle read back: its centre, where it points and how long it is, in mm."""

    cx: float
    cy: float
    ux: float
    uy: float
    length: float


def read_arrowheads(page_data) -> list[Arrowhead]:
    """Every filled three-cornered path on a page (its curves' points as read, in points from the top left)."""
    heads = []
    for curve in page_data.curves:
        if not curve.get("fill"):
            continue
        corners = []
        for x, y in curve.get("pts") or ():
            point = (pt_to_mm(x), pt_to_mm(y))
            if all(math.hypot(point[0] - c[0], point[1] - c[1]) > 0.05 for c in corners):
                corners.append(point)
        if len(corners) != 3:
            continue
        # The tip is the corner across from the shortest side.
        sides = [(math.dist(corners[(k + 1) % 3], corners[(k + 2) % 3]), k) for k in range(3)]
        k = min(sides)[1]
        tip, b, c = corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]
        base = ((b[0] + c[0]) / 2, (b[1] + c[1]) / 2)
        length = math.dist(tip, base)
        if length <= 0:
            continue
        heads.append(Arrowhead((tip[0] + base[0]) / 2, (tip[1] + base[1]) / 2,
                               (tip[0] - base[0]) / length, (tip[1] - base[1]) / length, length))
    return heads


def check_track_arrows(track: list[FoundSpace], heads: list[Arrowhead]) -> CheckResult:
    """Between each space and the next an arrowhead at least ARROW_MIN_MM long points the way on."""
    problems = []
    shortest = math.inf
    for a, b in zip(track, track[1:]):
        dist = math.hypot(b.cx - a.cx, b.cy - a.cy)
        ux, uy = (b.cx - a.cx) / dist, (b.cy - a.cy) / dist
        between = [h for h in heads
                   if abs((h.cx - a.cx) * -uy + (h.cy - a.cy) * ux) <= ARROW_OFF_LINE_MM
                   and a.r <= (h.cx - a.cx) * ux + (h.cy - a.cy) * uy <= dist - b.r]
        if not between:
            problems.append(f"no arrowhead from {a.position} to {b.position}")
            continue
        head = max(between, key=lambda h: h.length)
        if head.ux * ux + head.uy * uy < ARROW_AIM:
            problems.append(f"the arrowhead between {a.position} and {b.position} does not point from {a.position} to {b.position}")
        elif head.length < ARROW_MIN_MM - SIZE_TOLERANCE_MM:
            problems.append(f"the arrowhead from {a.position} to {b.position} is {head.length:.1f} mm long, "
                            f"at least {ARROW_MIN_MM:g} mm wanted")
        shortest = min(shortest, head.length)
    return CheckResult(
        "track arrows", not problems,
        "; ".join(problems[:4]) + (f" (and {len(problems) - 4} more)" if len(problems) > 4 else "")
        if problems else f"an arrowhead from each space to the next, {shortest:.1f} mm long or more",
    )


def printed_edition(page: PageDrawing, lang: str = "en") -> list[str]:
    """The editions named on a page as '<edition> edition' (in the sheet's language)."""
    text = " ".join(page.text.split())
    return sorted(e for e in rules.EDITIONS if re.search(r"(?<!\w)" + re.escape(said(lang, f"{e} edition")) + r"(?!\w)", text))


def check_track(page: PageDrawing, leather: str, lang: str = "en", heads: list[Arrowhead] | None = None) -> list[CheckResult]:
    """Positions 0 to 53 once each along a connected track ending in the centre, measured as a path
    (even pitch, laps apart, no crossing) with an arrowhead on every step; marked spaces."""
    spaces = read_track(page)
    positions = Counter(s.position for s in spaces)
    expected = set(range(rules.TRACK_POSITIONS))
    problems = []
    missing = sorted(expected - set(positions))
    doubled = sorted(p for p, n in positions.items() if n > 1)
    strange = sorted(set(positions) - expected)
    if missing:
        problems.append(f"no space {', '.join(map(str, missing))}")
    if doubled:
        problems.append(f"space(s) {', '.join(map(str, doubled))} printed more than once")
    if strange:
        problems.append(f"space(s) {', '.join(map(str, strange))} beyond the track")
    by_pos = {s.position: s for s in spaces if positions[s.position] == 1}
    for a in range(rules.FINAL_POSITION):
        if a in by_pos and a + 1 in by_pos:
            s, t = by_pos[a], by_pos[a + 1]
            if _rim_gap(s, t) > TRACK_STEP_SLACK_MM:
                problems.append(f"spaces {a} and {a + 1} are not neighbours")
    if rules.FINAL_POSITION in by_pos and spaces:
        mx = sum(s.cx for s in spaces) / len(spaces)
        my = sum(s.cy for s in spaces) / len(spaces)
        nearest = min(spaces, key=lambda s: math.hypot(s.cx - mx, s.cy - my))
        if nearest.position != rules.FINAL_POSITION:
            problems.append(f"space {nearest.position}, not {rules.FINAL_POSITION}, is in the centre")
    results = [CheckResult("track positions", not problems,
                           "; ".join(problems) or f"{len(spaces)} spaces 0..{rules.FINAL_POSITION}, each next to the one before, {rules.FINAL_POSITION} in the centre")]
    if not missing and not doubled:
        track = [by_pos[p] for p in range(rules.TRACK_POSITIONS)]
        results += check_track_shape(track)
        results.append(check_track_arrows(track, heads or []))

    editions = printed_edition(page, lang)
    ok_edition = editions == [leather]
    results.append(CheckResult("edition", ok_edition,
                               f"printed: {', '.join(editions) or 'none'}" + ("" if ok_edition else f"; the sheet says {leather}")))
    edition = editions[0] if len(editions) == 1 else leather
    income = sorted(s.position for s in spaces if s.income)
    leathers = sorted(s.position for s in spaces if s.leather)
    want_income = list(rules.INCOME_SPACES)
    want_leather = list(rules.leather_spaces(edition))
    results.append(CheckResult("income spaces", income == want_income,
                               f"buttons on {income}" + ("" if income == want_income else f", expected {want_income}")))
    results.append(CheckResult("leather spaces", leathers == want_leather,
                               f"leather on {leathers} ({edition} edition)" + ("" if leathers == want_leather else f", expected {want_leather}")))
    return results


# ---------------------------------------------------------------------------------------------
# Extras


def stack_pages(pages: list[PageDrawing]) -> PageDrawing:
    """Pages read as one tall page, each below the one before (for a part that runs over two pages)."""
    if len(pages) == 1:
        return pages[0]
    boxes, segments, words, curves, texts = [], [], [], [], []
    dy = 0.0
    for page in pages:
        boxes += [replace(b, top=b.top + dy, bottom=b.bottom + dy) for b in page.boxes]
        segments += [replace(s, top=s.top + dy, bottom=s.bottom + dy) for s in page.segments]
        words += [replace(w, top=w.top + dy, bottom=w.bottom + dy) for w in page.words]
        curves += [replace(c, top=c.top + dy, bottom=c.bottom + dy) for c in page.curves]
        texts.append(page.text)
        dy += page.height
    first = pages[0]
    return PageDrawing(first.width, dy, tuple(boxes), tuple(segments), tuple(words), tuple(curves), "\n".join(texts))


def check_extras(page: PageDrawing, leather: str) -> tuple[CheckResult, list[float]]:
    """Five 1x1 leather patches with cut lines, button tokens of 1, 5, 10 and 20, two time tokens."""
    squares = patch_squares(page)
    groups, uncut = split_pieces(squares, list(page.segments))
    problems = []
    want = len(rules.leather_spaces(leather))
    singles = [g for g in groups if len(g) == 1]
    if len(singles) != want or len(groups) != want:
        problems.append(f"{len(groups)} leather piece(s) ({len(singles)} of one square), expected {want} of one square")
    if uncut:
        problems.append(f"{uncut} leather patch edge(s) without a cut line")
    circles = [c for c in page.curves if _is_square(c, 0.1)]
    values = Counter(
        w.text for w in page.words
        if w.text in {"1", "5", "10", "20"} and any(_inside_circle(_centre(w), c) for c in circles)
    )
    absent = [v for v in ("1", "5", "10", "20") if not values[v]]
    if absent:
        problems.append(f"no button token of value {', '.join(absent)}")
    labels = [w for w in page.words if re.fullmatch(r"P\d", w.text)]
    tokens = sorted({w.text for w in labels})
    if tokens != [f"P{p + 1}" for p in range(rules.PLAYERS)]:
        problems.append(f"time tokens {tokens}, expected P1 and P2")
    discs = [max((c.x1 - c.x0 for c in circles if _inside_circle(_centre(w), c)), default=0.0) for w in labels]
    small = [d for d in discs if d < TIME_TOKEN_MIN_MM - SIZE_TOLERANCE_MM]
    if small:
        problems.append(f"time token(s) of {min(small):.1f} mm across, at least {TIME_TOKEN_MIN_MM:g} mm wanted")
    for p in range(rules.PLAYERS):
        have = sum(w.text == f"P{p + 1}" for w in labels)
        if have < 2:
            problems.append(f"{have} time token(s) P{p + 1}, expected one and a spare")
    detail = (f"{want} leather patches; button tokens {dict(sorted(values.items(), key=lambda kv: int(kv[0])))}; "
              f"time tokens {', '.join(tokens)} with spares, {min(discs, default=0):.1f} mm across")
    return CheckResult("extras", not problems, "; ".join(problems) or detail), [b.w for b in squares]


# ---------------------------------------------------------------------------------------------


def _is_coloured(colour: tuple) -> bool:
    if len(colour) == 3:
        return max(colour) - min(colour) > COLOUR_SPREAD
    if len(colour) == 4:  # CMYK: any of C, M, Y apart from the others
        return max(colour[:3]) - min(colour[:3]) > COLOUR_SPREAD
    return False


def check_ink(drawing: PdfDrawing, ink: str) -> CheckResult:
    """The recorded ink matches the fills drawn: low ink has no coloured fill; full ink has coloured patches."""
    coloured = [p + 1 for p, page in enumerate(drawing.pages)
                for item in page.boxes + page.curves if item.fill and _is_coloured(item.fill_colour)]
    pages = sorted(set(coloured))
    if ink == "low":
        ok = not coloured
        return CheckResult("ink", ok, "low ink: no coloured fill on any page" if ok else
                           f"recorded ink 'low' but {len(coloured)} coloured fill(s) on page(s) {pages[:6]}")
    if ink == "full":
        ok = bool(coloured)
        return CheckResult("ink", ok, f"full ink: {len(coloured)} coloured fill(s) on page(s) {pages[:6]}" if ok else
                           "recorded ink 'full' but nothing is filled in colour (a low-ink sheet?)")
    return CheckResult("ink", False, f"recorded ink {ink!r} is not 'full' or 'low'")


def check_rules_text(by_part: dict, wanted, lang: str) -> CheckResult:
    """The track's rules (on the track page or a rules page of its own) and each quilt page's bonus
    and score lines stand on the sheet word for word, in its language."""
    problems = []
    if "track" in wanted:
        pages = by_part["track"] + by_part["track rules"]
        if not any(not text_missing(page, [said(lang, rules.TRACK_RULES_TEXT)]) for _, page in pages):
            problems.append("the time track's rules are missing or altered")
    if "quilts" in wanted:
        for number, page in by_part["quilts"]:
            for name, text in (("7x7 bonus", rules.BONUS_NOTE), ("score", rules.SCORE_NOTE)):
                if text_missing(page, [said(lang, text)]):
                    problems.append(f"page {number}: the {name} line is missing or altered")
    checked = [what for what, part in (("track rules", "track"), ("bonus and score lines", "quilts")) if part in wanted]
    return CheckResult("rules text", not problems, "; ".join(problems[:4]) or
                       (f"{' and '.join(checked)}, word for word" if checked else "no rules on these parts"))


def check_patchwork(drawing: PdfDrawing) -> list[CheckResult]:
    """All checks of a Patchwork sheet."""
    params = drawing.parameters()
    part, leather, cell_mm = params["part"], params["leather"], float(params["cell_mm"])
    wanted = PARTS if part == "all" else (part,)
    results = [
        check_subject_keys(params, SUBJECT_KEYS | (LANG_KEY & set(params))),
        check_page_size(drawing, params["paper"], False),
        check_print_scaling(drawing),
        check_ruler(drawing),
        check_ink(drawing, params["ink"]),
    ]
    # A small page carries the track's rules on a page of their own, after the track.
    by_part: dict[str, list[tuple[int, PageDrawing]]] = {p: [] for p in PARTS + ("track rules",)}
    unknown = []
    for i, page in enumerate(drawing.pages, 1):
        kind = page_part(page, lang_of(params))
        if kind is None:
            unknown.append(i)
        else:
            by_part[kind].append((i, page))
    present = [p for p in PARTS if by_part[p]]
    stray_rules = bool(by_part["track rules"]) and "track" not in wanted
    ok = present == list(wanted) and not unknown and not stray_rules
    results.append(CheckResult("parts", ok, f"pages: " + ", ".join(f"{p} {len(by_part[p])}" for p in present)
                               + (f"; page(s) {unknown} without a Patchwork heading" if unknown else "")
                               + ("" if present == list(wanted) else f"; expected {', '.join(wanted)}")
                               + ("; a track rules page without the track" if stray_rules else "")))
    patch_sizes: list[float] = []
    quilt_sizes: list[float] = []
    leather_sizes: list[float] = []
    if "patches" in wanted:
        patch_results, patch_sizes = check_patches(by_part["patches"])
        results += patch_results
    if "quilts" in wanted:
        quilt_result, quilt_sizes = check_quilts(by_part["quilts"])
        results.append(quilt_result)
    if "track" in wanted:
        if len(by_part["track"]) == 1:
            number, page = by_part["track"][0]
            # The arrowheads' corners are read from the page's objects as read (the drawing keeps only boxes).
            data = drawing.page_data[number - 1] if len(drawing.page_data) == len(drawing.pages) else None
            heads = read_arrowheads(data) if data is not None else []
            results += check_track(page, leather, lang_of(params), heads)
        else:
            results.append(CheckResult("track positions", False, f"{len(by_part['track'])} track pages, expected 1"))
    if "extras" in wanted:
        if 1 <= len(by_part["extras"]) <= 2:  # a small page puts the button bank on a second page
            extras_result, leather_sizes = check_extras(stack_pages([pg for _, pg in by_part["extras"]]), leather)
            results.append(extras_result)
        else:
            results.append(CheckResult("extras", False, f"{len(by_part['extras'])} extras pages, expected 1 or 2"))
    if patch_sizes or quilt_sizes or leather_sizes:
        results.append(check_square_sizes(patch_sizes, quilt_sizes, leather_sizes, cell_mm))
    results.append(check_rules_text(by_part, wanted, lang_of(params)))
    results.append(check_publisher_box(drawing, "patchwork"))
    no_advice = [i + 1 for i, page in enumerate(drawing.pages) if words_missing(page, [said(lang_of(params), p) for p in ADVICE_PHRASES])]
    results.append(CheckResult("card advice", not no_advice, f"no cardstock and glue advice on page(s) {no_advice}" if no_advice
                               else "cardstock, glue and cut-line advice on every page"))
    return results
