"""Check a duplex calibration page by reading it back: the front's lines fall on the back's zeros,
and every scale reads in mm (ticks every half mm, numbers where they say)."""

from __future__ import annotations

import json

from printables.check.pdf import PageDrawing, PdfDrawing
from printables.check.results import CheckResult

TOLERANCE_MM = 0.05


def _straight(page: PageDrawing, vertical: bool):
    return [s for s in page.segments if (abs(s.x1 - s.x0) < 0.01) == vertical and (abs(s.bottom - s.top) < 0.01) != vertical]


def front_line(page: PageDrawing, axis: str, x: float, y: float, width: float) -> float | None:
    """Where the front's line for a scale shows through on the back (mm along the scale's axis, as the
    back is seen), or None: the front line nearest the scale's place, mirrored left to right."""
    vertical = axis == "x"
    best = None
    for s in _straight(page, vertical):
        seen_x = width - (s.x0 + s.x1) / 2  # through the paper, left and right swap
        mid_y = (s.top + s.bottom) / 2
        if abs(seen_x - x) <= 15 and abs(mid_y - y) <= 15 and s.length >= 20:
            at = seen_x if vertical else mid_y
            if best is None or abs(at - (x if vertical else y)) < abs(best - (x if vertical else y)):
                best = at
    return best


def read_scale(page: PageDrawing, axis: str, x: float, y: float, half: float, tick: float) -> tuple[float | None, list[str]]:
    """The scale at (x, y) read back: where its zero is (mm along its axis) and what is wrong with it.

    Its ticks are the short segments across the axis within ``half`` of the place; they must stand
    every ``tick`` mm, and each number printed by the scale must stand at its tick (zero + value)."""
    problems: list[str] = []
    vertical_ticks = axis == "x"
    ticks = []
    for s in _straight(page, vertical_ticks):
        if s.length > 6:
            continue
        along = (s.x0 + s.x1) / 2 if vertical_ticks else (s.top + s.bottom) / 2
        across = min(s.top, s.bottom) if vertical_ticks else min(s.x0, s.x1)
        base = max(s.top, s.bottom) if vertical_ticks else min(s.x0, s.x1)
        if abs(along - (x if vertical_ticks else y)) <= half + 1 and abs((base if vertical_ticks else across) - (y if vertical_ticks else x)) < 0.3:
            ticks.append(along)
    ticks.sort()
    expected = int(round(2 * half / tick)) + 1
    if len(ticks) != expected:
        return None, [f"{len(ticks)} ticks, expected {expected} (every {tick:g} mm over {2 * half:g} mm)"]
    steps = [b - a for a, b in zip(ticks, ticks[1:])]
    if any(abs(d - tick) > TOLERANCE_MM for d in steps):
        problems.append(f"ticks {min(steps):.2f} to {max(steps):.2f} mm apart, expected {tick:g}")
    zero = (ticks[0] + ticks[-1]) / 2
    numbers = 0
    for word in page.words:
        try:
            value = float(word.text)
        except ValueError:
            continue
        centre_along = (word.x0 + word.x1) / 2 if vertical_ticks else (word.top + word.bottom) / 2
        near = (abs(centre_along - zero) <= half + 1 and abs((word.bottom if vertical_ticks else word.x0) - (y - 6 if vertical_ticks else x + 7)) < 3)
        if not near:
            continue
        numbers += 1
        if abs(centre_along - (zero + value)) > 0.4:
            problems.append(f"the number {word.text} stands at {centre_along - zero:+.2f} mm on its scale")
    if numbers < 5:
        problems.append(f"only {numbers} numbers on the scale")
    return zero, problems


def check_duplex_calibration(drawing: PdfDrawing) -> list[CheckResult]:
    """The calibration page: two pages, four scales that read in mm, each front line on its zero."""
    try:
        params = json.loads(drawing.subject)
        scales = params["scales"]
        half, tick = float(params["scale_half_mm"]), float(params["tick_mm"])
    except (ValueError, KeyError, TypeError) as error:
        return [CheckResult("calibration parameters", False, f"unreadable subject: {error}")]
    if len(drawing.pages) != 2:
        return [CheckResult("pages", False, f"{len(drawing.pages)} page(s); a duplex test is one sheet, two sides")]
    front, back = drawing.pages
    problems, readings = [], []
    for name, (axis, x, y) in sorted(scales.items()):
        zero, wrong = read_scale(back, axis, x, y, half, tick)
        problems += [f"{name} scale: {w}" for w in wrong]
        line = front_line(front, axis, x, y, front.width)
        if line is None:
            problems.append(f"{name} scale: no line on the front behind it")
        elif zero is not None:
            reading = line - zero
            readings.append(f"{name} {reading:+.2f}")
            if abs(reading) > TOLERANCE_MM:
                problems.append(f"{name} scale: the front's line falls at {reading:+.2f} mm, not on the zero")
    return [CheckResult("pages", True, "front and back"),
            CheckResult("duplex scales", not problems, "; ".join(problems[:4])
                        or f"{len(scales)} scales, ticks every {tick:g} mm, numbered where they stand; each front line "
                           f"falls on its zero for a printer that lines up ({', '.join(readings)} mm)")]
