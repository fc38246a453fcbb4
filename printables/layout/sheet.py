"""Page geometry shared by the sheets: margins, regions for several games per page, labels."""

from __future__ import annotations

import math
from dataclasses import dataclass

from printables.rules.labels import spreadsheet_label

PAGE_MARGIN_MM = 10.0
REGION_GAP_MM = 6.0


column_label = spreadsheet_label  # grid columns: 0 → A, 25 → Z, 26 → AA


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle of the page in mm (top-left origin)."""

    x: float
    y: float
    w: float
    h: float


def arrangements(count: int) -> list[tuple[int, int]]:
    """Ways to put ``count`` equal regions on a page as (columns, rows), fewest empty slots first."""
    options = {(cols, math.ceil(count / cols)) for cols in range(1, count + 1)}
    return sorted(options, key=lambda cr: (cr[0] * cr[1] - count, cr))


def regions(area: Box, cols: int, rows: int, count: int, gap: float = REGION_GAP_MM) -> list[Box]:
    """``count`` equal regions of ``area`` in ``cols`` x ``rows``, row by row."""
    w = (area.w - gap * (cols - 1)) / cols
    h = (area.h - gap * (rows - 1)) / rows
    boxes = []
    for i in range(count):
        r, c = divmod(i, cols)
        boxes.append(Box(area.x + c * (w + gap), area.y + r * (h + gap), w, h))
    return boxes


def floor_to(value: float, step: float) -> float:
    """``value`` rounded down to a multiple of ``step`` (keeps printed sizes round)."""
    return math.floor(value / step + 1e-9) * step
