"""Giuthi folding board: derived geometry of both halves as plain data in mm (no cadquery).

Coordinates are those of the board lying open and flat, which is also the print orientation of
each half: ``x`` along the rows with the fold line at ``x = 0`` (left half at ``x < 0``), ``y``
across the rows from South's edge (``y = 0``) to North's, ``z`` up from the bed. The hinge axis
runs along ``y`` at ``x = 0, z = thickness``, in the plane of the playing surfaces, so turning
the right half 180 degrees about it lays its playing surface face down on the left one.

The hinge is two pairs of knuckles, one at each end of the fold, in the border beside the rows,
so nothing stands above the playing surface between the stores. Along the fold they alternate
right, left, right, left: at South's end the right half's outer knuckle takes a screw's head and
shank (a clearance hole) and the left half's, just inside it, the thread (a pilot hole); at
North's end the other way round, so each screw turns in one half and bites the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from printables.params.giuthi_board import (  # noqa: F401  (the mark sizes are the layout's too)
    DIMPLE_RADIUS_MM,
    GROOVE_WIDTH_MM,
    LID_TITLE,
    MARK_DEPTH_MM,
    MIN_WALL_MM,
    OVERHANG_DEG,
    PIT_SCREW_TIP_MM,
    GiuthiBoardParams,
    is_hangul,
    teardrop_tip_mm,
)

SIDES = ("left", "right")
SOUTH, NORTH = 0, 1  # store owners, as in the rule core
CORNER_RADIUS_MM = 3.0  # plan radius of the two outer corners
# The lid's words: debossed into the turning half's underside (the closed board's top), three
# layers deep, in bold letters whose strokes (about 1/7 of the letter height) a 0.4 mm nozzle draws
# as several lines; the roofs over them are short bridges the slicer prints without support.
LID_DEPTH_MM = 0.6
LID_TITLE_MM = 16.0  # letter height (em size) of "Giuthi"
LID_LINE_MM = 10.0  # of the owner's line
LID_CLEAR_MM = 2.5  # from a line's letters to the border's edge and to the cups' rims
# Added between letters: their sidebearings alone leave bold letters of a small line closer than a
# wall (the plastic between two letters' recesses is a wall too).
LID_TRACK_MM = MIN_WALL_MM
LID_MIN_MM = 4.5  # a longer line is set smaller to fit between the fold and the band, never below this
LID_FONTS = {"latin": "NotoSans-Bold", "hangul": "NanumGothicBold"}  # printables.fonts names


@dataclass(frozen=True)
class Cavity:
    """A pit or store: a cup, a stadium in plan with a flat floor rounded up into its wall.

    The wall is a quarter circle of ``radius`` (= the depth) from the floor to the rim, where it
    stands vertical: the floor is the plan inset by the depth.
    """

    kind: str  # "pit" or "store"
    index: int  # rule-core pit number, or the store owner (0 South, 1 North)
    cx: float
    cy: float
    width: float  # along x, at the rim
    length: float  # along y (>= width; equal for a round pit)
    depth: float

    @property
    def radius(self) -> float:
        """Radius of the rounded wall between floor and rim: the cup's depth."""
        return self.depth


@dataclass(frozen=True)
class Mark:
    """A debossed side mark: a dimple (``kind="dot"``) or a V groove from x0 to x1 (``"line"``)."""

    kind: str
    owner: int  # the player whose side it marks: 0 South, 1 North
    x0: float
    x1: float
    y: float


@dataclass(frozen=True)
class Box:
    """An axis-aligned box by its corner ranges."""

    x0: float
    x1: float
    y0: float
    y1: float
    z0: float
    z1: float


@dataclass(frozen=True)
class Knuckle:
    """A hinge knuckle along y: its extent and the bore through it."""

    side: str
    y0: float
    y1: float
    bore: str  # "clearance", "pilot" or "none" (the middle knuckle, a bearing without a screw)
    bore_radius: float
    bore_y0: float
    bore_y1: float


@dataclass(frozen=True)
class LidLine:
    """A line of words on the lid: centre (x, y) on the underside, letter height, font file."""

    text: str
    x: float
    y: float
    size: float  # letter height (em), mm
    font: str  # a printables.fonts name
    width: float  # mm, from the font's advances and the spacing added between letters
    offsets: tuple[float, ...] = ()  # each character's pen position from the line's left end, mm
    # each character's font where it is not ``font``'s: a Latin letter the Hangul face lacks
    fonts: tuple[str, ...] = ()

    def font_of(self, i: int) -> str:
        """The font of the line's ``i``-th character."""
        return self.fonts[i] if self.fonts else self.font


@dataclass(frozen=True)
class HalfLayout:
    """Everything the CAD needs to build one half."""

    side: str
    sign: int  # -1 left (x < 0), +1 right
    outline: Box  # the body without knuckles
    pits: tuple[Cavity, ...]
    store: Cavity
    marks: tuple[Mark, ...]
    corner_radius: float  # outer corners, in plan
    groove_x: float
    knuckles: tuple[Knuckle, ...]  # this half's own
    notches: tuple[tuple[float, float], ...]  # y ranges cut around the axis for the other's knuckles
    notch_radius: float
    knuckle_radius: float
    axis_x: float
    axis_z: float
    chamfer: float
    lid: tuple[LidLine, ...] = ()  # words debossed into the underside (the turning half's only)


def rows_y(p: GiuthiBoardParams) -> tuple[float, float]:
    """Centre lines (y) of South's and North's rows."""
    south = p.row_margin_mm + p.pit_length_mm / 2
    return round(south, 6), round(p.half_width_mm - south, 6)


def column_x(p: GiuthiBoardParams, side: str, k: int) -> float:
    """Centre x of pit column ``k`` counted from the fold (0 = next to the fold)."""
    sign = _sign(side)
    first = p.seam_gap_mm / 2 + p.hinge_zone_mm + p.pit_diameter_mm / 2
    return round(sign * (first + k * (p.pit_diameter_mm + p.web_mm)), 6)


def pit_cavities(p: GiuthiBoardParams, side: str) -> tuple[Cavity, ...]:
    """The pits of one half with their rule-core numbers, South's then North's."""
    n = p.pits_per_row
    half = n // 2
    south_y, north_y = rows_y(p)
    south = range(half) if side == "left" else range(half, n)
    pits = []
    for i in south:
        k = half - 1 - i if side == "left" else i - half
        x = column_x(p, side, k)
        for index, y in ((i, south_y), (2 * n - 1 - i, north_y)):
            pits.append(Cavity("pit", index, x, y, p.pit_diameter_mm, p.pit_length_mm, p.pit_depth_mm))
    return tuple(sorted(pits, key=lambda s: s.index))


def store_cavity(p: GiuthiBoardParams, side: str) -> Cavity:
    """The store at the outer end: North's on the left, South's on the right (each on its owner's right)."""
    sign = _sign(side)
    inner = p.seam_gap_mm / 2 + p.hinge_zone_mm + p.columns_per_half * (p.pit_diameter_mm + p.web_mm)
    x = round(sign * (inner + p.store_width_mm / 2), 6)
    owner = NORTH if side == "left" else SOUTH
    return Cavity("store", owner, x, round(p.half_width_mm / 2, 6), p.store_width_mm, p.store_length_mm,
                  p.store_depth_mm)


def side_marks(p: GiuthiBoardParams, side: str) -> tuple[Mark, ...]:
    """South's dimples, one beside each of its pits, and North's groove along its row, in the borders
    half a margin outside the rows' rims."""
    xs = [column_x(p, side, k) for k in range(p.columns_per_half)]
    y = p.row_margin_mm - p.margin_mm / 2
    south_y, north_y = round(y, 6), round(p.half_width_mm - y, 6)
    dots = tuple(Mark("dot", SOUTH, x, x, south_y) for x in sorted(xs))
    reach = p.pit_diameter_mm / 2 - p.web_mm
    line = Mark("line", NORTH, round(min(xs) - reach, 6), round(max(xs) + reach, 6), north_y)
    return dots + (line,)


def groove_x(p: GiuthiBoardParams, side: str) -> float:
    """x of the band groove: midway between the store and the pits next to it, near the free end."""
    inner = p.seam_gap_mm / 2 + p.hinge_zone_mm + p.columns_per_half * (p.pit_diameter_mm + p.web_mm)
    return round(_sign(side) * (inner - p.web_mm / 2), 6)


def knuckle_profile(p: GiuthiBoardParams, side: str, radius: float | None = None) -> dict[str, tuple[float, float]]:
    """Key points (x, z) of a knuckle's section: centre, tangent point, and the underside's foot.

    The section is the circle of ``knuckle_radius_mm`` about the axis, except below the point where
    its surface turns steeper than 45 degrees: from there a straight tangent runs down to the
    half's own body, so the part of the knuckle that reaches over the fold prints unsupported.
    """
    sign = _sign(side)
    r = p.knuckle_radius_mm if radius is None else radius
    zc = p.thickness_mm
    # Toward the other half (direction -sign), the tangent point sits 45 degrees below horizontal.
    a = math.radians(90 - OVERHANG_DEG)
    tx, tz = -sign * r * math.cos(a), zc - r * math.sin(a)
    # The circle is kept from the tangent point over the top to 20 degrees below the horizontal on
    # the own side, well inside the own hinge strip; from there straight down to the tangent line.
    end_x, end_z = sign * r * math.cos(math.radians(20)), zc - r * math.sin(math.radians(20))
    foot_z = tz - abs(end_x - tx) * math.tan(math.radians(90 - OVERHANG_DEG))
    return {
        "centre": (0.0, zc),
        "tangent": (round(tx, 6), round(tz, 6)),
        "foot": (round(end_x, 6), round(foot_z, 6)),
        "arc_end": (round(end_x, 6), round(end_z, 6)),
        "top": (0.0, round(zc + r, 6)),
    }


def teardrop(radius: float, cx: float, cz: float) -> dict[str, tuple[float, float]]:
    """Key points of a horizontal bore's section: a circle with a 45-degree pointed roof."""
    a = math.radians(OVERHANG_DEG)
    return {
        "tip": (cx, round(cz + teardrop_tip_mm(radius), 6)),
        "right": (round(cx + radius * math.cos(a), 6), round(cz + radius * math.sin(a), 6)),
        "bottom": (cx, round(cz - radius, 6)),
        "left": (round(cx - radius * math.cos(a), 6), round(cz + radius * math.sin(a), 6)),
    }


def hinge_knuckles(p: GiuthiBoardParams) -> tuple[Knuckle, ...]:
    """All knuckles of the board: a pair at each end of the fold, alternating right, left, right, left.

    At each end the outer knuckle takes the screw's head and turns on its shank (a clearance
    hole); the one just inside it takes the thread (a pilot hole, blind). South's end (y = 0)
    has the right half's clearance knuckle outside, North's end the left half's.
    """
    w = p.half_width_mm
    lc, gap = p.clearance_knuckle_mm, p.hinge_gap_mm
    pilot_depth = p.engagement_mm + PIT_SCREW_TIP_MM
    lp = round(pilot_depth + MIN_WALL_MM, 6)
    rc, rp = p.clearance_diameter_mm / 2, p.pilot_diameter_mm / 2
    out = []
    for end, (outer, inner) in enumerate((("right", "left"), ("left", "right"))):
        # Measured inward from the board's edge at this end of the fold.
        def y(d: float) -> float:
            return round(d if end == 0 else w - d, 6)

        spans = (
            (outer, 0.0, lc, "clearance", rc, -1.0, lc + gap / 2),
            (inner, lc + gap, lc + gap + lp, "pilot", rp, lc + gap / 2, lc + gap + pilot_depth),
        )
        for side, a, b, bore, radius, ba, bb in spans:
            y0, y1 = sorted((y(a), y(b)))
            by0, by1 = sorted((y(ba), y(bb)))
            out.append(Knuckle(side, y0, y1, bore, round(radius, 6), by0, by1))
    return tuple(sorted(out, key=lambda k: k.y0))


def _letter_fonts(text: str, font: str) -> tuple[str, ...]:
    """Each character's font: ``font``, or Latin's for a character ``font`` has no glyph for (a
    Hangul line's accented Latin letter; the CAD kernel would otherwise draw it from whatever
    system font it finds, wider than the line leaves room for)."""
    from printables import fonts

    return tuple(font if fonts.has_glyph(ch, font) or ch.isspace() else LID_FONTS["latin"] for ch in text)


def _letter_band_em(font: str) -> float:
    """Height of the band every letter of ``font`` keeps within, in ems: its glyphs' lowest to
    highest point (the font's head table), whatever the text."""
    from fontTools.ttLib import TTFont

    from printables import fonts

    with TTFont(str(fonts.font_file(fonts.face_of(font))), lazy=True) as face:
        head = face["head"]
        return (head.yMax - head.yMin) / head.unitsPerEm


def _band_em(text: str, font: str) -> float:
    return max(_letter_band_em(f) for f in set(_letter_fonts(text, font)))


def _line_mm(text: str, size: float, font: str) -> float:
    """Length of ``text`` set at letter height ``size`` with the spacing between its letters."""
    from printables import fonts

    return (sum(fonts.text_width_mm(ch, size / fonts.PT_TO_MM, f) for ch, f in zip(text, _letter_fonts(text, font)))
            + LID_TRACK_MM * (len(text) - 1))


def _fitted_mm(text: str, size: float, font: str, room: float) -> float:
    """The letter height at which ``text`` with its spacing is ``room`` long, if under ``size``."""
    track = LID_TRACK_MM * (len(text) - 1)
    width = _line_mm(text, size, font)
    return size if width <= room else size * (room - track) / (width - track)


def _two_lines(text: str, font: str, room: float, tallest: float) -> tuple[float, tuple[str, str]]:
    """The owner's line set as two: the letter height and the two parts, broken at the space that
    gives the tallest letters, or between any two characters when no space gives ``LID_MIN_MM``.

    The lines are a letter band plus a wall apart (``_letter_band_em``), so no letter of the first
    comes within ``LID_TRACK_MM`` of one of the second.
    """
    band = _band_em(text, font)
    high = (tallest - LID_TRACK_MM) / (2 * band)  # two bands and a wall within the border
    best, key = (0.0, ("", text)), (0.0, -math.inf)
    for spaces_only in (True, False):
        for i in range(1, len(text)):
            if spaces_only and text[i] != " ":
                continue
            parts = (text[:i].rstrip(), text[i:].lstrip()) if spaces_only else (text[:i], text[i:])
            if not all(parts) or parts[0].endswith(" ") or parts[1].startswith(" "):
                continue
            size = min(_fitted_mm(part, high, font, room) for part in parts)
            # the tallest letters; of equally tall, the most even lines
            longer = max(_line_mm(part, high, font) for part in parts)
            if (math.floor(size * 1000), -longer) > key:
                best, key = (size, parts), (math.floor(size * 1000), -longer)
        if best[0] >= LID_MIN_MM:
            break
    return best


def _lid_line(text: str, size: float, font: str, cx: float, y: float) -> LidLine:
    from printables import fonts

    size = math.floor(size * 1000) / 1000  # down, so the line stays within the room
    faces = _letter_fonts(text, font)
    offsets, pen = [], 0.0
    for ch, face in zip(text, faces):
        offsets.append(round(pen, 4))
        pen += fonts.text_width_mm(ch, size / fonts.PT_TO_MM, face) + LID_TRACK_MM
    return LidLine(text, cx, round(y, 6), size, font, round(pen - LID_TRACK_MM, 3), tuple(offsets),
                   faces if set(faces) != {font} else ())


def lid_lines(p: GiuthiBoardParams) -> tuple[LidLine, ...]:
    """The lid's words on the turning half's underside: "Giuthi" under North's border, the owner's
    line under South's, each between the fold and the band groove.

    Under the borders the board is solid from bed to playing surface: under a cup the letters
    would thin its floor. A line is set at most as tall as its border less a wall each side, and
    smaller when it is too long for the room. The owner's line is set as two lines when that gives
    taller letters (a long line: 24 wide letters on one line would be under 4 mm); never below
    ``LID_MIN_MM``. Written mirrored in x on the bed face, so it reads the right way up on the
    closed board seen from South's edge; Hangul takes NanumGothic, Latin Noto Sans.
    """
    from printables.errors import ParameterError

    x0, x1 = p.seam_gap_mm / 2 + p.hinge_zone_mm, abs(groove_x(p, "right")) - p.band_groove_mm
    cx = round((x0 + x1) / 2, 6)
    room = x1 - x0
    tallest = p.row_margin_mm - 2 * LID_CLEAR_MM
    out = []
    for text, size, y in ((LID_TITLE, LID_TITLE_MM, p.half_width_mm - p.row_margin_mm / 2),
                          (p.lid_text, LID_LINE_MM, p.row_margin_mm / 2)):
        if not text:
            continue
        font = LID_FONTS["hangul" if any(is_hangul(ch) for ch in text) else "latin"]
        one = _fitted_mm(text, min(size, tallest), font, room)
        two, parts = _two_lines(text, font, room, tallest) if text != LID_TITLE and len(text) > 1 else (0.0, ())
        if max(one, two) < LID_MIN_MM:
            raise ParameterError(
                f"lid text {text!r} would be set in letters under {LID_MIN_MM:g} mm, too small to print;"
                " use a shorter line")
        if one >= two:
            out.append(_lid_line(text, one, font, cx, y))
        else:
            pitch = _band_em(text, font) * two + LID_TRACK_MM
            out += [_lid_line(parts[0], two, font, cx, y + pitch / 2),
                    _lid_line(parts[1], two, font, cx, y - pitch / 2)]
    return tuple(out)


def half_layout(p: GiuthiBoardParams, side: str) -> HalfLayout:
    """The derived geometry of one half."""
    sign = _sign(side)
    g2 = p.seam_gap_mm / 2
    length, width, h = p.half_length_mm, p.half_width_mm, p.thickness_mm
    x_in, x_out = sign * g2, sign * (g2 + length)
    outline = Box(min(x_in, x_out), max(x_in, x_out), 0.0, width, 0.0, h)
    all_knuckles = hinge_knuckles(p)
    own = tuple(k for k in all_knuckles if k.side == side)
    gap = p.hinge_gap_mm
    notches = tuple(
        (round(k.y0 - gap / 2 if k.y0 > 0 else -1.0, 6), round(k.y1 + gap / 2 if k.y1 < width else width + 1.0, 6))
        for k in all_knuckles
        if k.side != side
    )
    return HalfLayout(
        side=side,
        sign=sign,
        outline=outline,
        pits=pit_cavities(p, side),
        store=store_cavity(p, side),
        marks=side_marks(p, side),
        corner_radius=corner_radius(p),
        groove_x=groove_x(p, side),
        knuckles=own,
        notches=notches,
        notch_radius=p.notch_radius_mm,
        knuckle_radius=p.knuckle_radius_mm,
        axis_x=0.0,
        axis_z=h,
        chamfer=p.chamfer_mm,
        lid=lid_lines(p) if side == "right" else (),
    )


def corner_radius(p: GiuthiBoardParams) -> float:
    """Plan radius of the outer corners (smaller when the margin is too thin for the default)."""
    return min(CORNER_RADIUS_MM, p.margin_mm + 1.0)


def cavity_area_mm2(c: Cavity) -> float:
    """Plan area of a pit or store at its rim (a stadium)."""
    return c.width * (c.length - c.width) + math.pi * c.width * c.width / 4


def cavity_volume_mm3(c: Cavity) -> float:
    """Volume of a cup up to its rim: the stadium's area times the depth, less what the rounded wall
    takes (a quarter circle of radius r swept round the plan inset by r, by Pappus' theorem)."""
    r, d = c.radius, c.depth
    area = cavity_area_mm2(c)
    perimeter = 2 * (c.length - c.width) + math.pi * c.width
    # The plan inset by s has area A - P s + pi s^2; integrating s over the wall's height gives these.
    return area * d - perimeter * r * r * (1 - math.pi / 4) + math.pi * r ** 3 * (5 / 3 - math.pi / 2)


def band_loop_mm(p: GiuthiBoardParams) -> float:
    """Length of the rubber band's path round the closed board, along the bottoms of its grooves."""
    depth = p.band_groove_mm / 2
    return round(2 * (p.half_width_mm - 2 * depth) + 2 * (2 * p.thickness_mm), 1)


def expected_counts(p: GiuthiBoardParams) -> dict[str, int]:
    """Pits and stores of the whole board, for cross-checking the mesh."""
    return {"pits": 2 * p.pits_per_row, "stores": 2, "pits_per_half": p.pits_per_row}


def _sign(side: str) -> int:
    if side not in SIDES:
        raise ValueError(f"side {side!r}: use left or right")
    return -1 if side == "left" else 1
