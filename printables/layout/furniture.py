"""Sheet furniture shared by every printable: calibration ruler and footer."""

from __future__ import annotations

from printables import __version__
from printables.layout.primitives import Item, Line, Text, line_height_mm

RULER_LENGTH_MM = 100.0
RULER_CAPTION = "print at 100 % / actual size: this line must measure 100 mm"
RULER_HEIGHT_MM = 9.0
FOOTER_HEIGHT_MM = 5.0
FURNITURE_HEIGHT_MM = RULER_HEIGHT_MM + FOOTER_HEIGHT_MM + 2.0


def calibration_ruler(x: float, y: float) -> tuple[Item, ...]:
    """A 100 mm ruler with 10 mm ticks, its baseline at ``y``, starting at ``x``."""
    items: list[Item] = [Line(x, y, x + RULER_LENGTH_MM, y, line_mm=0.3)]
    for mm in range(0, int(RULER_LENGTH_MM) + 1, 5):
        tick = 2.5 if mm % 10 == 0 else 1.2
        items.append(Line(x + mm, y, x + mm, y - tick, line_mm=0.2))
    items.append(Text(x, y + 3.2, "0", size_pt=6))
    items.append(Text(x + RULER_LENGTH_MM, y + 3.2, "100 mm", size_pt=6, anchor="end"))
    items.append(Text(x + RULER_LENGTH_MM / 2, y + 3.2, RULER_CAPTION, size_pt=6, anchor="middle"))
    return tuple(items)


def footer(page_width: float, page_height: float, margin: float, text: str) -> tuple[Item, ...]:
    """The ruler and a footer line naming game, parameters and tool version at the page's foot."""
    baseline = page_height - margin
    ruler_y = baseline - line_height_mm(7) - 5.5
    items = list(calibration_ruler(margin, ruler_y))
    items.append(Text(margin, baseline, f"{text} · printables {__version__}", size_pt=6.5, colour=0.25))
    return tuple(items)
