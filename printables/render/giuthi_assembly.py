"""The assembly drawing on the Giuthi print card's second page: how the screws and the band go on.

Two views at full size (a 10 mm screw on the page is 10 mm long: lay the screw on it), drawn from
the board's layout, the same data the CAD builds the halves from:

- the hinge seen from above, exploded: the strip of both halves along the fold, the four knuckles
  (shaded by half) with their bores, and a screw drawn off each end of the fold on the bores' axis,
  an arrow into the outer (clearance) knuckle, where it turns, on to the inner (pilot) one it bites;
- the closed board seen from its free end, the rubber band round it seated in its V grooves (up
  both sides, across the bottom and the lid).

Plain layout primitives in mm (origin top-left, y down), no reportlab: the card's renderer draws them.
"""

from __future__ import annotations

from printables.layout.giuthi_board import band_loop_mm, hinge_knuckles
from printables.layout.primitives import Line, Polygon, Rect, Text
from printables.params.giuthi_board import GiuthiBoardParams

LEFT_GREY = 0.82  # fill of the left half and its knuckles
RIGHT_GREY = 0.62  # of the right (turning) half and its knuckles
BAND_MM = 1.2  # line width of the drawn band
STRIP_MM = 22.0  # of each half shown either side of the fold
EXPLODE_MM = 3.0  # a screw's tip this far off the board's edge
HEAD_HEIGHT_MM = 1.6  # a No. 2 pan head, about
HEAD_RATIO = 1.9  # pan head diameter / thread diameter


def _arrow(x1: float, y1: float, x2: float, y2: float) -> list:
    """A line from (x1, y1) with an arrowhead at (x2, y2)."""
    import math

    angle = math.atan2(y2 - y1, x2 - x1)
    tip = [(x2, y2)]
    for side in (-1, 1):
        a = angle + math.pi - side * math.radians(22)
        tip.append((x2 + 2.2 * math.cos(a), y2 + 2.2 * math.sin(a)))
    return [Line(x1, y1, x2, y2, line_mm=0.3), Polygon(tuple(tip), stroke=None, fill=0.0)]


def _screw(x_head: float, y_axis: float, direction: int, p: GiuthiBoardParams) -> list:
    """A pan-head screw on the page's axis line: head at ``x_head``, shank running ``direction`` (+1/-1)."""
    d, length = p.screw_diameter_mm, p.screw_length_mm
    head_d = HEAD_RATIO * d
    items: list = []
    hx = x_head if direction > 0 else x_head - HEAD_HEIGHT_MM
    items.append(Rect(hx, y_axis - head_d / 2, HEAD_HEIGHT_MM, head_d, fill=0.25, line_mm=0.2))
    x0 = x_head + direction * HEAD_HEIGHT_MM
    x1 = x0 + direction * length
    sx = min(x0, x1)
    items.append(Rect(sx, y_axis - d / 2, length, d, fill=0.45, line_mm=0.2))
    # The thread: slanted strokes a pitch apart (about 0.45 x d for small self-tappers).
    pitch = 0.45 * d
    n = int(length / pitch)
    for k in range(1, n):
        x = sx + k * pitch
        items.append(Line(x, y_axis - d / 2, x + 0.35 * pitch, y_axis + d / 2, stroke=0.95, line_mm=0.15))
    return items


def hinge_view(p: GiuthiBoardParams, left: float, top: float) -> tuple[list, float]:
    """The hinge from above at full size, the fold running across the page from ``left``; returns
    the items and the lowest y used. Board y (South's edge = 0) runs to the right, board x down."""
    items: list = []
    w = p.half_width_mm
    r = p.knuckle_radius_mm
    fold = top + STRIP_MM + 8.0  # page y of the fold line

    def px(y: float) -> float:
        return left + y

    g2 = p.seam_gap_mm / 2
    # The halves along the fold: the right half above the fold line, the left half below.
    items.append(Rect(px(0), fold - g2 - STRIP_MM, w, STRIP_MM, fill=RIGHT_GREY, line_mm=0.3))
    items.append(Rect(px(0), fold + g2, w, STRIP_MM, fill=LEFT_GREY, line_mm=0.3))
    for k in hinge_knuckles(p):
        grey = RIGHT_GREY if k.side == "right" else LEFT_GREY
        items.append(Rect(px(k.y0), fold - r, k.y1 - k.y0, 2 * r, fill=grey, line_mm=0.35))
        if k.bore != "none":
            y0, y1 = max(k.bore_y0, k.y0), min(k.bore_y1, k.y1)
            items.append(Rect(px(y0), fold - k.bore_radius, y1 - y0, 2 * k.bore_radius, stroke=0.1,
                              fill=1.0, line_mm=0.2, dash_mm=(0.8, 0.5)))
    items.append(Line(px(-1), fold, px(w + 1), fold, stroke=0.3, line_mm=0.15, dash_mm=(4.0, 1.0, 0.8, 1.0)))
    # A screw off each end, exploded along the axis, pointing into its clearance knuckle.
    for k in hinge_knuckles(p):
        if k.bore != "clearance":
            continue
        at_start = k.y0 <= 0
        edge = px(0) if at_start else px(w)
        direction = 1 if at_start else -1
        tip = edge - direction * EXPLODE_MM
        head = tip - direction * (p.screw_length_mm + HEAD_HEIGHT_MM)
        items += _screw(head, fold, direction, p)
        items += _arrow(tip, fold - 5.5, tip + direction * 9.0, fold - 5.5)
    # Words, in the halves' strips and by the knuckles.
    mid = px(w / 2)
    items.append(Text(mid, fold - g2 - STRIP_MM / 2 + 1.2, "right half", 8.5, "Helvetica-Bold", anchor="middle"))
    items.append(Text(mid, fold + g2 + STRIP_MM / 2 + 1.2, "left half", 8.5, "Helvetica-Bold", anchor="middle"))
    # Leaders from outside the strips to the first end's knuckles.
    first, second = hinge_knuckles(p)[:2]
    above, below = fold - g2 - STRIP_MM - 2.0, fold + g2 + STRIP_MM + 4.5
    items.append(Text(px(0), above - 2.6, "clearance hole: the screw turns", 8))
    items.append(Line(px((first.y0 + first.y1) / 2), above, px((first.y0 + first.y1) / 2), fold - r, line_mm=0.2))
    items.append(Text(px(second.y0), below + 1.5, "pilot hole: the screw bites", 8))
    items.append(Line(px((second.y0 + second.y1) / 2), below - 3.0, px((second.y0 + second.y1) / 2), fold + r,
                      line_mm=0.2))
    items.append(Text(px(0) - EXPLODE_MM - p.screw_length_mm / 2, fold + 6.0, "screw", 8, anchor="middle"))
    bottom = below + 2
    return items, bottom


def band_view(p: GiuthiBoardParams, left: float, top: float) -> tuple[list, float]:
    """The closed board seen from its free end at full size, the band seated in its grooves."""
    items: list = []
    w, t = p.half_width_mm, p.thickness_mm
    depth = p.band_groove_mm / 2
    base = top + 2 * t  # page y of the table under the closed board

    def px(y: float) -> float:
        return left + y

    # The lid (the right half, turned over) on top of the left half.
    items.append(Rect(px(0), base - 2 * t, w, t, fill=RIGHT_GREY, line_mm=0.3))
    items.append(Rect(px(0), base - t, w, t, fill=LEFT_GREY, line_mm=0.3))
    # The band: round the board along the bottoms of its V grooves (up both sides, across the
    # bottom and the lid), so it sits below the faces.
    x0, x1 = px(depth), px(w - depth)
    y0, y1 = base - 2 * t - 0.0 + depth, base - depth
    items.append(Polygon(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), stroke=0.0, fill=None, line_mm=BAND_MM))
    # Each word centred between its half's outline and the band inside it (0.85 mm: about half the ink of
    # a word with ascenders and descenders, as "kapak" and "sol yarı" have).
    inset = (depth + BAND_MM / 2 - 0.15) / 2
    items.append(Text(px(w / 2), base - 1.5 * t + inset + 0.85, "lid", 8.5, "Helvetica-Bold", anchor="middle"))
    items.append(Text(px(w / 2), base - t / 2 - inset + 0.85, "left half", 8.5, "Helvetica-Bold", anchor="middle"))
    items.append(Text(px(w) - 30.0, base + 8.0, "rubber band in its groove", 8, anchor="end"))
    items += _arrow(px(w) - 28.0, base + 6.5, px(w - depth) - 6.0, base - depth + 0.8)
    return items, base + 8.0


def assembly_items(p: GiuthiBoardParams, left: float, top: float, width: float) -> tuple[list, float]:
    """Both views, headed, from ``top``; returns the items and the lowest y used."""
    items: list = []
    x = left + max(0.0, (width - p.half_width_mm) / 2)
    y = top
    items.append(Text(left, y, "Hinge seen from above, full size", 10, "Helvetica-Bold"))
    y += 6
    view, y = hinge_view(p, x, y)
    items += view
    y += 14
    items.append(Text(left, y, "Closed board seen from its end, full size, with the rubber band", 10, "Helvetica-Bold"))
    y += 8
    view, y = band_view(p, x, y)
    items += view
    items.append(Text(left, y + 8, f"Band path {band_loop_mm(p):g} mm round the closed board", 8.5, colour=0.3))
    return items, y + 8
