"""Check a Bitcoin Harvest sheet by reading its drawing back (never the code that drew it)."""

from __future__ import annotations

import re
from collections import Counter

from printables.check.pdf import (
    SIZE_TOLERANCE_MM,
    PdfDrawing,
    check_page_size,
    check_print_scaling,
    check_ruler,
    group_touching,
    lattice,
)
from printables.check.language import lang_of, said_regex
from printables.check.results import CheckResult
from printables.rules import pentominoes

# Grid cells are stroked, unfilled squares; harvester diagrams are filled squares. That is the
# sheet's drawing convention: everything else (sizes, shapes, counts) is recovered from geometry.
GRID_MIN_CELL_MM = 4.0


def check_harvest(drawing: PdfDrawing) -> list[CheckResult]:
    """All checks of a Bitcoin Harvest sheet."""
    params = drawing.parameters()
    width, height = params["grid"]
    per_page = params["per_page"]
    results = [
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
        spread = max(b.w for b in group) - min(b.w for b in group)
        if spread > SIZE_TOLERANCE_MM:
            problems.append(f"cell sizes vary by {spread:.3f} mm")
    if len(grids) != per_page:
        problems.append(f"{len(grids)} grid(s) drawn, expected {per_page}")
    results.append(CheckResult("grid", not problems, "; ".join(problems) or f"{len(grids)} grid(s): {', '.join(found)}"))

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
    return results
