"""A duplex calibration page as layout data: lines on the front, scales on the back.

Printed double-sided and flipped on the long edge, the front's lines show through the paper onto
the back's scales when the page is held to the light. A scale is numbered in mm from where its line
falls on a printer that lines both sides up, counting right and down as the back is seen: the number
under the line is the back offset that moves the back to meet the front (``--back-offset X,Y``).
"""

from __future__ import annotations

import json

from printables.layout.primitives import Document, Item, Line, Page, Text
from printables.paper import PAPER_SIZES_MM
from printables.params.peas import DuplexCalibration

KIND = "duplex-calibration"
SCALE_HALF_MM = 10  # each scale runs from -10 to +10 mm, the bound of --back-offset
TICK_MM = 0.5
TICK_LENGTHS_MM = {"5": 5.0, "1": 3.5, "0.5": 2.0}  # every 5 mm, every mm, every half mm
LABEL_EVERY_MM = 5  # numbers 5 mm apart keep clear of each other; the mm ticks between are counted
LINE_HALF_MM = 14.0  # the front's lines run this far either side of the scale's axis
EDGE_IN_MM = 40.0  # the scales stand this far in from the paper's edges
TEXT_PT = 9.0
LABEL_PT = 6.0
HEAD_PT = 14.0
MARGIN_MM = 15.0

FRONT_WORDS = (
    "Print this page double-sided, flipped on the long edge, at 100 % / actual size, on the paper",
    "you print cards on. Then turn it over and hold it up to a light.",
)
BACK_WORDS = (
    "Hold this side towards you against a light: the front's four lines show through.",
    "Read where each line crosses its scale: numbered every 5 mm, long ticks every mm, short ones every half mm.",
    "The two scales across give X, the two up and down give Y; if a pair differs, take the middle.",
    "Then print cards with them: printables peas --paper {paper} --back --back-offset X,Y",
    "0,0 means your printer already lines the two sides up.",
)


def scale_positions(width: float, height: float) -> dict[str, tuple[str, float, float]]:
    """Each scale by name: its axis ("x" reads across, "y" up and down) and where its zero stands
    on the back, in mm from the back's top-left as the back is seen."""
    return {
        "top": ("x", width / 2, EDGE_IN_MM),
        "bottom": ("x", width / 2, height - EDGE_IN_MM),
        "left": ("y", EDGE_IN_MM, height / 2),
        "right": ("y", width - EDGE_IN_MM, height / 2),
    }


def _ticks() -> list[tuple[float, float]]:
    """(value in mm, tick length) from -10 to +10 mm every half mm."""
    found = []
    steps = int(SCALE_HALF_MM / TICK_MM)
    for i in range(-steps, steps + 1):
        value = i * TICK_MM
        key = "5" if value % 5 == 0 else "1" if value % 1 == 0 else "0.5"
        found.append((value, TICK_LENGTHS_MM[key]))
    return found


def _label(value: float) -> str:
    return f"{value:+g}" if value else "0"


def _back_scale(axis: str, x: float, y: float) -> list[Item]:
    """A scale on the back: an axis line, ticks and numbers every 2 mm."""
    items: list[Item] = []
    half = SCALE_HALF_MM
    if axis == "x":
        items.append(Line(x - half, y, x + half, y, line_mm=0.15))
        for value, length in _ticks():
            items.append(Line(x + value, y, x + value, y - length, line_mm=0.1))
            if value % LABEL_EVERY_MM == 0:
                items.append(Text(x + value, y - 7.5, _label(value), size_pt=LABEL_PT, anchor="middle"))
        items.append(Text(x, y + 6.0, "X (mm)", size_pt=TEXT_PT, anchor="middle"))
    else:
        items.append(Line(x, y - half, x, y + half, line_mm=0.15))
        for value, length in _ticks():
            items.append(Line(x, y + value, x + length, y + value, line_mm=0.1))
            if value % LABEL_EVERY_MM == 0:
                items.append(Text(x + 7.0, y + value + 0.7, _label(value), size_pt=LABEL_PT))
        items.append(Text(x - 2.5, y - half - 4.0, "Y (mm)", size_pt=TEXT_PT, anchor="middle"))
    return items


def _front_line(axis: str, x: float, y: float) -> Item:
    """The front's line for a scale whose zero stands at (x, y) on the back: mirrored left to right."""
    if axis == "x":
        return Line(x, y - LINE_HALF_MM, x, y + LINE_HALF_MM, line_mm=0.25)
    return Line(x - LINE_HALF_MM, y, x + LINE_HALF_MM, y, line_mm=0.25)


def _words(lines, y: float, size_pt: float = TEXT_PT) -> list[Item]:
    return [Text(MARGIN_MM, y + i * size_pt * 0.5, line, size_pt=size_pt) for i, line in enumerate(lines)]


def layout(params: DuplexCalibration) -> Document:
    """The calibration page: front (lines) and back (scales)."""
    short, long = PAPER_SIZES_MM[params.paper]
    width, height = short, long  # portrait: flipping on the long edge mirrors left and right
    front: list[Item] = [Text(MARGIN_MM, MARGIN_MM + 5, "Duplex test: front", size_pt=HEAD_PT, font="Helvetica-Bold")]
    front += _words(FRONT_WORDS, height / 2 - 40)
    back: list[Item] = [Text(MARGIN_MM, MARGIN_MM + 5, "Duplex test: back", size_pt=HEAD_PT, font="Helvetica-Bold")]
    back += _words([line.format(paper=params.paper) for line in BACK_WORDS], height / 2 - 50)
    positions = scale_positions(width, height)
    for name, (axis, x, y) in positions.items():
        front.append(_front_line(axis, width - x, y))  # seen from the front, the back's x is mirrored
        back += _back_scale(axis, x, y)
    subject = json.dumps({"kind": KIND, "paper": params.paper, "page_mm": [width, height],
                          "scales": {name: [axis, round(x, 3), round(y, 3)] for name, (axis, x, y) in positions.items()},
                          "scale_half_mm": SCALE_HALF_MM, "tick_mm": TICK_MM}, sort_keys=True)
    return Document(pages=(Page(width, height, tuple(front)), Page(width, height, tuple(back))),
                    title=f"Duplex calibration page, {params.paper}", subject=subject, keywords=f"printables:{KIND}")
