"""Check a Bitcoin Harvest sheet by reading its drawing back (never the code that drew it)."""

from __future__ import annotations

import re
from collections import Counter

from printables.check.pdf import (
    SIZE_TOLERANCE_MM,
    Box,
    PageDrawing,
    PdfDrawing,
    check_page_count,
    check_page_size,
    check_print_scaling,
    check_publisher_box,
    check_ruler,
    check_subject_keys,
    column_letters,
    group_touching,
    lattice,
    text_missing,
)
from printables.check.language import lang_of, said, said_regex
from printables.check.results import CheckResult
from printables.rules import harvest as rules
from printables.rules import pentominoes

# Grid cells are stroked, unfilled squares; harvester diagrams are filled squares. That is the
# sheet's drawing convention: everything else (sizes, shapes, counts) is recovered from geometry.
GRID_MIN_CELL_MM = 4.0  # smaller stroked squares are not looked at as grid cells
DRAWABLE_CELL_MM = 7.0  # a pentomino is drawn into the grid in pencil: smaller cells are too cramped for it
LABEL_REACH_MM = 6.0  # column letters stand at most this far above the cells, row numbers left of them
LABEL_ALIGN = 0.3  # a label's centre lies within this fraction of a cell of its column's or row's centre
# The parameters a sheet records in its subject; one more or one less means the file was altered.
SUBJECT_KEYS = {"kind", "grid", "players", "cell_mm", "coins_per_turn", "opening_coins", "paper", "landscape", "per_page"}
LANG_KEY = {"lang"}  # recorded by the translation pass (printables/i18n); a layout drawn without it is English


def _column_labels(page: PageDrawing, x0: float, top: float, cell: float, cols: int) -> list[str | None]:
    """The word nearest above each column, centred on it. Close labels ("AG" "AH" at 5 mm cells)
    read back as one word; such a word stands for every column whose centre it covers, and is right
    when it spells their labels in order."""
    best: list[tuple[float, str] | None] = [None] * cols
    for word in page.words:
        distance = top - word.bottom
        if not 0 <= distance <= LABEL_REACH_MM:
            continue
        covered = [c for c in range(cols) if word.x0 <= x0 + (c + 0.5) * cell <= word.x1]
        if not covered:
            continue
        middle = x0 + (covered[0] + covered[-1] + 1) / 2 * cell
        if abs((word.x0 + word.x1) / 2 - middle) > LABEL_ALIGN * cell:
            continue
        spelled = "".join(column_letters(c) for c in covered) == word.text
        for c in covered:
            if best[c] is None or distance < best[c][0]:
                best[c] = (distance, column_letters(c) if spelled else word.text)
    return [b[1] if b else None for b in best]


def _row_labels(page: PageDrawing, x0: float, top: float, cell: float, rows: int) -> list[str | None]:
    """The word nearest left of each row, centred on it."""
    best: list[tuple[float, str] | None] = [None] * rows
    for word in page.words:
        distance = x0 - word.x1
        row = ((word.top + word.bottom) / 2 - top) / cell - 0.5
        if 0 <= distance <= LABEL_REACH_MM and -0.5 < row < rows - 0.5 and abs(row - round(row)) <= LABEL_ALIGN:
            r = round(row)
            if best[r] is None or distance < best[r][0]:
                best[r] = (distance, word.text)
    return [b[1] if b else None for b in best]


def grid_label_problems(page: PageDrawing, group: list[Box]) -> list[str]:
    """Columns without their letter above them and rows without their number to their left."""
    cell, lat = lattice(group)
    x0 = min(b.x0 for b in group)
    top = min(b.top for b in group)
    cols = max(x for x, _ in lat) + 1
    rows = max(y for _, y in lat) + 1
    wrong = [
        f"column {c + 1} labelled {found!r}, expected {column_letters(c)!r}"
        for c, found in enumerate(_column_labels(page, x0, top, cell, cols)) if found != column_letters(c)
    ]
    wrong += [
        f"row {r + 1} labelled {found!r}, expected '{r + 1}'"
        for r, found in enumerate(_row_labels(page, x0, top, cell, rows)) if found != str(r + 1)
    ]
    return wrong


def check_cut_lines(page: PageDrawing, grids: list[list[Box]]) -> CheckResult:
    """Between every two neighbouring games of a page a straight line runs, to cut them apart.

    Two grids are neighbours when they share rows (side by side) or columns (one above the other);
    the line lies in the gap between them and spans their shared extent.
    """
    if len(grids) < 2:
        return CheckResult("cut lines", True, "one game on the page: nothing to cut apart")
    frames = [(min(b.x0 for b in g), min(b.top for b in g), max(b.x1 for b in g), max(b.bottom for b in g)) for g in grids]
    missing = []
    pairs = 0
    for i, a in enumerate(frames):
        for b in frames[i + 1:]:
            left, right = (a, b) if a[0] < b[0] else (b, a)
            upper, lower = (a, b) if a[1] < b[1] else (b, a)
            if left[2] < right[0] and min(a[3], b[3]) > max(a[1], b[1]):  # side by side
                pairs += 1
                lo, hi = max(a[1], b[1]), min(a[3], b[3])
                if not any(abs(s.x0 - s.x1) < 0.01 and left[2] < s.x0 < right[0] and s.top <= lo and s.bottom >= hi
                           for s in page.segments):
                    missing.append(f"between the grids at x {left[2]:.0f} and {right[0]:.0f} mm")
            elif upper[3] < lower[1] and min(a[2], b[2]) > max(a[0], b[0]):  # one above the other
                pairs += 1
                lo, hi = max(a[0], b[0]), min(a[2], b[2])
                if not any(abs(s.top - s.bottom) < 0.01 and upper[3] < s.top < lower[1] and s.x0 <= lo and s.x1 >= hi
                           for s in page.segments):
                    missing.append(f"between the grids at y {upper[3]:.0f} and {lower[1]:.0f} mm")
    return CheckResult("cut lines", not missing, "no cut line " + "; ".join(missing) if missing
                       else f"a cut line between each of {pairs} pair(s) of neighbouring games")


def check_harvest(drawing: PdfDrawing) -> list[CheckResult]:
    """All checks of a Bitcoin Harvest sheet."""
    params = drawing.parameters()
    width, height = params["grid"]
    per_page = params["per_page"]
    results = [
        check_subject_keys(params, SUBJECT_KEYS | (LANG_KEY & set(params))),
        check_page_count(drawing, 1),
        check_page_size(drawing, params["paper"], params["landscape"]),
        check_print_scaling(drawing),
        check_ruler(drawing),
    ]
    page = drawing.pages[0]
    cells = [b for b in page.boxes if b.stroke and not b.fill and abs(b.w - b.h) < 0.01 and b.w >= GRID_MIN_CELL_MM]
    grids = group_touching(cells)
    found = []
    problems = []
    for group in grids:
        cell, lat = lattice(group)
        cols = max(x for x, _ in lat) + 1
        rows = max(y for _, y in lat) + 1
        found.append(f"{cols}x{rows} at {cell:.2f} mm")
        if len(lat) != cols * rows:
            problems.append(f"a grid of {cols}x{rows} is missing {cols * rows - len(lat)} cell(s)")
        if (cols, rows) != (width, height):
            problems.append(f"grid is {cols}x{rows}, expected {width}x{height}")
        if abs(cell - params["cell_mm"]) > SIZE_TOLERANCE_MM:
            problems.append(f"cells are {cell:.3f} mm, expected {params['cell_mm']:g} mm")
        if cell < DRAWABLE_CELL_MM - SIZE_TOLERANCE_MM:
            problems.append(f"cells of {cell:.2f} mm are too small to draw a pentomino in pencil; "
                            f"at least {DRAWABLE_CELL_MM:g} mm wanted")
        spread = max(b.w for b in group) - min(b.w for b in group)
        if spread > SIZE_TOLERANCE_MM:
            problems.append(f"cell sizes vary by {spread:.3f} mm")
    if len(grids) != per_page:
        problems.append(f"{len(grids)} grid(s) drawn, expected {per_page}")
    results.append(CheckResult("grid", not problems,
                               "; ".join(dict.fromkeys(problems)) or f"{len(grids)} grid(s): {', '.join(found)}"))
    labels = [f"grid {i}: {p}" for i, group in enumerate(grids, 1) for p in grid_label_problems(page, group)]
    results.append(CheckResult("coordinates", bool(grids) and not labels,
                               "; ".join(labels[:6]) + (" …" if len(labels) > 6 else "") if labels
                               else "letters above and numbers left of every grid" if grids else "no grid"))

    squares = [b for b in page.boxes if b.fill and abs(b.w - b.h) < 0.01]
    pieces = group_touching(squares)
    letters = Counter()
    strangers = []
    for group in pieces:
        _, lat = lattice(group)
        letter = pentominoes.identify(lat)
        if letter is None:
            strangers.append(pentominoes.picture(lat).replace("\n", "/"))
        else:
            letters[letter] += 1
    missing = [l for l in pentominoes.LETTERS if letters[l] < per_page]
    extra = [l for l in pentominoes.LETTERS if letters[l] > per_page]
    ok = not missing and not extra and not strangers
    detail = (
        f"the 12 pentominoes, {per_page} time(s) each"
        if ok
        else "; ".join(
            filter(None, [
                f"missing {', '.join(missing)}" if missing else "",
                f"too many {', '.join(extra)}" if extra else "",
                f"not pentominoes: {', '.join(strangers)}" if strangers else "",
            ])
        )
    )
    results.append(CheckResult("harvesters", ok, detail))

    player = said_regex(lang_of(params), "Player {n}", n=r"(\d+)")
    rows = Counter(int(n) for n in re.findall(player, page.text))
    expected = Counter({p: per_page for p in range(1, params["players"] + 1)})
    results.append(
        CheckResult(
            "score table",
            rows == expected,
            f"{sum(rows.values())} player row(s) for players {sorted(rows)}"
            + ("" if rows == expected else f"; expected {params['players']} per game x {per_page}"),
        )
    )
    results.append(check_cut_lines(page, grids))
    results.append(check_publisher_box(drawing, "harvest"))
    summary = rules.rules_summary(params["coins_per_turn"], params["opening_coins"])
    missing = text_missing(page, [said(lang_of(params), summary)])
    results.append(CheckResult("rules text", not missing,
                               "the rules summary is missing or altered" if missing else "the rules summary, word for word"))
    return results
