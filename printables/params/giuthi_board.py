"""Giuthi folding board: frozen, validated parameters in mm and the sizes that follow from them.

The board is two halves joined by a hinge along the fold line. Each half holds 2 rows of
``pits_per_row / 2`` pits and one store at its outer end. ``x`` runs along the rows (the fold
line is ``x = 0``), ``y`` across them (South's edge at ``y = 0``), ``z`` up from the bed.
Pits and stores are cups: in plan a stadium (``pit_diameter_mm`` along the row, ``pit_length_mm``
across it; a circle when both are equal), in section a flat floor rounded up into the wall by a
quarter circle as deep as the cup, so seeds lie flat and a finger sweeps them out. ``pit_shape``
``round`` (the default) keeps a pit's plan close to round (at most ``MAX_ROUND_ASPECT`` times as
long as wide), centred in the rows with a wide border either side; ``oval`` stretches the pits
across the rows as far as the hinge allows (the earlier troughs). The hinge's knuckles sit at the
two ends of the fold, in that border, so nothing stands above the playing surface between the
stores. The default board is the user's: each half about 160 x 145 mm in plan
(``DEFAULT_SIZE_MM``); ``params_for_size`` derives the pit sizes that fill another plan. Each half is solid under its playing surface: the slicer's 20 %
infill hollows it, which prints faster and lighter than walls and ribs drawn in the model (see
``benchmarks/giuthi_print_cost.py``). Pure: no cadquery, no I/O.
"""

from __future__ import annotations

import hashlib
import json

import math
from dataclasses import dataclass, fields
from typing import Any, Mapping

from printables.errors import ParameterError
from printables.params import base
from printables.params.giuthi_seeds import MAX_SEED_DIAMETER_MM, MIN_SEED_DIAMETER_MM, SeedParams
from printables.rules import giuthi

# Dremel DigiLab 3D45 build volume and the room a skirt needs around a part.
BED_MM = (255.0, 155.0, 170.0)
SKIRT_MARGIN_MM = 5.0  # per side: PrusaSlicer's default skirt sits 3 mm out, plus its own width
USABLE_BED_MM = (BED_MM[0] - 2 * SKIRT_MARGIN_MM, BED_MM[1] - 2 * SKIRT_MARGIN_MM, BED_MM[2])

MIN_WALL_MM = 1.2  # three 0.4 mm lines; the floor for any wall, floor, rib or web
LAYER_HEIGHT_MM = 0.2
OVERHANG_DEG = 45.0  # steepest downward face, from vertical, that prints without support

# Screw types: nominal thread diameter in mm and the shortest stock length (mm) that still bites
# 2.5 x d into the pilot knuckle behind the default 5 mm clearance knuckle.
SCREWS: Mapping[str, float] = {"no2": 2.2, "m2": 2.0, "m2.5": 2.5, "m3": 3.0}
ENGAGEMENT_FACTOR = 2.5  # thread engagement in printed PLA, times the screw diameter
# Stock lengths (mm) sold for each screw, shortest first: No. 2 in inch steps, the metric ones in mm.
STOCK_SCREW_LENGTHS_MM: Mapping[str, tuple[float, ...]] = {
    "no2": (6.4, 9.5, 12.7, 15.9, 19.1, 25.4),
    "m2": (6.0, 8.0, 10.0, 12.0, 12.7, 16.0, 20.0),
    "m2.5": (6.0, 8.0, 10.0, 12.0, 12.7, 16.0, 20.0),
    "m3": (6.0, 8.0, 10.0, 12.0, 12.7, 14.0, 16.0, 20.0),
}
PILOT_RATIO_RANGE = (0.75, 0.8)  # pilot hole / screw diameter for self-tapping into PLA

STADIUM_TOLERANCE_MM = 1e-9
# What the set's own check passes, with a margin: measured bores of d + 0.15 to d + 0.6 mm pass
# ("screw holes sized"), and chamfers over 0.5 mm leave 47-degree overhangs where they round a corner.
HOLE_CLEARANCE_RANGE_MM = (0.2, 0.5)
CHAMFER_RANGE_MM = (0.2, 0.5)  # or 0 for none: a chamfer under one layer does not print (and breaks OCP)

# The hinge as the issue sizes it to the screw: plastic round every bore, the section a knuckle
# hangs by where it leaves its half, and knuckles alternating along the fold.
HINGE_WALL_MM = 2.5
HINGE_NECK_MM = 4.0
MIN_KNUCKLES = 3
PIT_SCREW_TIP_MM = 0.5  # pilot bore beyond the screw's tip

PIT_SHAPES = ("round", "oval")
MAX_ROUND_ASPECT = 1.4  # a round pit's length across the row / its diameter along it, at most

# Words debossed into the folded lid (the turning half's underside): "Giuthi" and the owner's line.
LID_TITLE = "Giuthi"
MAX_LID_TEXT_CHARS = 24

# Side marks on the playing surface, debossed and printable without support: a line of dimples
# along South's edge, a V groove along North's, in the margins (tell the sides apart by touch).
MARK_DEPTH_MM = 0.6
DIMPLE_RADIUS_MM = 1.2  # at the surface
GROOVE_WIDTH_MM = 1.2  # at the surface; 45-degree flanks, so half as deep as wide
MIN_MARGIN_MM = round(2 * (DIMPLE_RADIUS_MM + MIN_WALL_MM), 3)  # a dimple with a wall each side

DEFAULT_SIZE_MM = (160.0, 145.0)  # one half in plan, knuckles included: the user's board
SIZE_TOLERANCE = 0.04  # the issue: within 4 % of the user's size
MIN_PIT_MM = 15.0  # a pit narrower than this takes no finger


@dataclass(frozen=True)
class GiuthiBoardParams:
    """A two-half folding Giuthi board, all lengths in mm."""

    pits_per_row: int = giuthi.DEFAULT_PITS_PER_ROW
    seeds_per_pit: int = giuthi.DEFAULT_SEEDS_PER_PIT
    # Along and across the row: what fills DEFAULT_SIZE_MM (see params_for_size).
    pit_diameter_mm: float = 35.5
    pit_length_mm: float = 49.7  # = pit_diameter_mm for round pits; at most 1.4 x it for pit_shape round
    # Deep enough for the rule core's 99.9th-percentile load of 4 seeds per pit (28 beans of 10.5 mm
    # per pit, 43 per store; see models.capacity_shortfall), with a seed to spare; presets
    # for more seeds cut deeper. Shallow cups keep the board thin, which is most of its cost.
    pit_depth_mm: float = 7.5
    store_width_mm: float = 30.0  # along the row; a store spans both rows across
    store_depth_mm: float = 7.5
    thickness_mm: float = 8.7  # bed to playing surface
    pit_shape: str = "round"
    # South's (and North's) edge to the pits' rims across the rows: the border the hinge's end
    # knuckles stand in; what round pits leave of the user's 145 mm.
    row_margin_mm: float = 21.8
    lid_text: str = ""  # a line under "Giuthi" on the lid: Latin or Hangul, up to 24 characters
    wall_mm: float = 1.2  # thinnest solid anywhere: pit floors, webs, margins
    web_mm: float = 2.0  # solid between neighbouring pits at the playing surface
    margin_mm: float = 5.0  # outer edge to the nearest pit or store: room for the side marks
    screw: str = "no2"
    screw_length_mm: float = 12.7  # No. 2 x 1/2"
    pilot_ratio: float = 0.77
    hole_clearance_mm: float = 0.3  # clearance hole = screw diameter + this
    clearance_knuckle_mm: float = 5.0  # length of the turning knuckle the screw head bears on
    hinge_gap_mm: float = 0.4  # axial gap between knuckles and radial gap around them
    seam_gap_mm: float = 0.4  # between the two halves' fold faces when open
    chamfer_mm: float = 0.5  # 45-degree chamfer on the outer bed edges (elephant's foot)
    band_groove_mm: float = 3.0  # opening of the V groove for the rubber band (depth half that)
    seed_diameter_mm: float = 10.5  # the beans the pits are sized for: length (models.seed_params_for)
    seed_height_mm: float = 4.5
    packing_factor: float = 0.55  # seed volume / bulk volume of loosely poured seeds

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived sizes used by the layout, the CAD and the bed check --------------------------

    @property
    def columns_per_half(self) -> int:
        """Pit columns in one half (each column is one South and one North pit)."""
        return self.pits_per_row // 2

    @property
    def screw_diameter_mm(self) -> float:
        """Nominal thread diameter of the chosen screw."""
        return SCREWS[self.screw]

    @property
    def pilot_diameter_mm(self) -> float:
        """Hole the screw threads itself into."""
        return round(self.screw_diameter_mm * self.pilot_ratio, 3)

    @property
    def clearance_diameter_mm(self) -> float:
        """Hole the screw turns freely in."""
        return round(self.screw_diameter_mm + self.hole_clearance_mm, 3)

    @property
    def engagement_mm(self) -> float:
        """Thread length in the pilot knuckle."""
        return round(self.screw_length_mm - self.clearance_knuckle_mm - self.hinge_gap_mm, 6)

    @property
    def knuckle_radius_mm(self) -> float:
        """Outer radius of the hinge knuckles: the teardrop bore plus the hinge wall above its tip."""
        tip = teardrop_tip_mm(self.clearance_diameter_mm / 2)
        return math.ceil((tip + HINGE_WALL_MM) * 10 - 1e-9) / 10

    @property
    def notch_radius_mm(self) -> float:
        """Radius swept by a knuckle (its 45-degree underside included) plus the hinge gap."""
        r = self.knuckle_radius_mm
        half_seam = self.seam_gap_mm / 2
        # The knuckle's underside is a 45-degree tangent line from the circle down to the fold face.
        reach_z = r * math.sqrt(2) + half_seam
        # Rounded up, so the notch never ends a hair inside the knuckle it clears.
        return math.ceil((math.hypot(half_seam, reach_z) + self.hinge_gap_mm) * 1000) / 1000

    @property
    def hinge_zone_mm(self) -> float:
        """Fold face to the first pit: room for the knuckle notch and a wall beyond it."""
        return max(self.margin_mm, round(self.notch_radius_mm + MIN_WALL_MM - self.seam_gap_mm / 2 + 0.2, 3))

    @property
    def hinge_end_mm(self) -> float:
        """Board edge to the inner end of the knuckle pair at one end of the fold, its gap included."""
        pilot = self.engagement_mm + PIT_SCREW_TIP_MM + MIN_WALL_MM
        return round(self.clearance_knuckle_mm + self.hinge_gap_mm + pilot + self.hinge_gap_mm / 2, 6)

    @property
    def half_length_mm(self) -> float:
        """Length of one half along the rows, fold face to outer end (knuckles not included)."""
        cols = self.columns_per_half
        return round(
            self.hinge_zone_mm
            + cols * self.pit_diameter_mm
            + cols * self.web_mm
            + self.store_width_mm
            + self.margin_mm,
            3,
        )

    @property
    def half_width_mm(self) -> float:
        """Width of the board across the rows."""
        return round(2 * self.row_margin_mm + 2 * self.pit_length_mm + self.web_mm, 3)

    @property
    def store_length_mm(self) -> float:
        """Length of a store across the rows (it runs beside both rows)."""
        return round(2 * self.pit_length_mm + self.web_mm, 3)

    def half_size_mm(self) -> tuple[float, float, float]:
        """Bounding box (x, y, z) of one half as printed, knuckles included."""
        r = self.knuckle_radius_mm
        return (
            round(self.half_length_mm + self.seam_gap_mm / 2 + r, 3),
            self.half_width_mm,
            round(self.thickness_mm + r, 3),
        )

    def stem(self) -> str:
        """File-name part shared by both halves: ``2x6-4seeds``, plus a short digest of any other
        parameter that differs from the default (``2x6-4seeds-1a2b3c``), so two different boards
        never share file names."""
        base = f"2x{self.pits_per_row}-{self.seeds_per_pit}seeds"
        default = GiuthiBoardParams(pits_per_row=self.pits_per_row, seeds_per_pit=self.seeds_per_pit) \
            if self._default_constructible() else None
        changed = {f.name: getattr(self, f.name) for f in fields(self)
                   if default is None or getattr(self, f.name) != getattr(default, f.name)}
        if not changed:
            return base
        digest = hashlib.sha1(json.dumps(changed, sort_keys=True).encode()).hexdigest()[:6]
        return f"{base}-{digest}"

    def _default_constructible(self) -> bool:
        try:
            GiuthiBoardParams(pits_per_row=self.pits_per_row, seeds_per_pit=self.seeds_per_pit)
        except ValueError:
            return False
        return True

    def part_name(self, side: str) -> str:
        """File stem of one half: ``giuthi-board-left-2x6-4seeds``."""
        if side not in ("left", "right"):
            raise ParameterError(f"side {side!r}: use left or right")
        return f"giuthi-board-{side}-{self.stem()}"

    def as_dict(self) -> dict[str, Any]:
        """Every parameter by name, as a preset's ``[params]`` table would give it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def teardrop_tip_mm(radius: float) -> float:
    """Height above the axis of a teardrop bore's tip, its flanks at 45 degrees to vertical."""
    return radius / math.sin(math.radians(OVERHANG_DEG))


def is_hangul(ch: str) -> bool:
    """Whether ``ch`` is a Hangul syllable or jamo."""
    o = ord(ch)
    return 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F


# Hangul that draws nothing: the fillers (U+115F, U+1160, U+3164) and the two unassigned code
# points of the compatibility jamo block; a letter with no outline would leave nothing to cut.
_BLANK_HANGUL = frozenset((0x115F, 0x1160, 0x3164, 0x3130, 0x318F))


def _is_lid_char(ch: str) -> bool:
    # Latin letters (with their accents), digits, spaces and the common punctuation; or Hangul.
    o = ord(ch)
    return (0x20 <= o <= 0x7E or 0xC0 <= o <= 0x24F and o not in (0xD7, 0xF7)) or (
        is_hangul(ch) and o not in _BLANK_HANGUL)


def validate_lid_text(text: Any) -> None:
    """Raise ParameterError unless ``text`` is up to 24 Latin or Hangul characters for the lid."""
    if not isinstance(text, str):
        raise ParameterError(f"lid_text={text!r}: expected text, up to {MAX_LID_TEXT_CHARS} characters")
    if len(text) > MAX_LID_TEXT_CHARS:
        raise ParameterError(
            f"lid text {text!r} has {len(text)} characters; the lid takes at most {MAX_LID_TEXT_CHARS}")
    bad = sorted({ch for ch in text if not _is_lid_char(ch)})
    if bad:
        raise ParameterError(
            f"lid text {text!r}: {' '.join(repr(ch) for ch in bad)} cannot be printed on the lid;"
            " use Latin letters, Hangul, digits, spaces and common punctuation")
    if text != text.strip():
        raise ParameterError(f"lid text {text!r}: no spaces at its start or end")


def from_mapping(mapping: Mapping[str, Any], source: str = "parameters") -> GiuthiBoardParams:
    """Build parameters from a preset's ``[params]`` table; an unknown key names the key and file."""
    return base.from_mapping(GiuthiBoardParams, mapping, source)


def _number(name: str, value: Any, low: float, high: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
        raise ParameterError(f"{name}={shown}: expected a number of mm from {low:g} to {high:g}")
    if not low <= value <= high:
        shown = f"{value:g}" if abs(value) < 1e15 else ("a number too large" if value > 0 else "a number too small")
        raise ParameterError(f"{name}={shown}: allowed {low:g} to {high:g}")


def _integer(name: str, value: Any, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ParameterError(f"{name}={value!r}: expected a whole number from {low} to {high}")
    if not low <= value <= high:
        raise ParameterError(f"{name}={value}: allowed {low} to {high}")


def validate_counts(pits_per_row: Any, seeds_per_pit: Any) -> None:
    """Raise ParameterError unless the counts are a folding board's: even pits 6 to 10, seeds 4 to 9."""
    # The rule core plays 5 to 10 pits per row; a board that folds between its halves needs an even count.
    evens = [n for n in range(giuthi.MIN_PITS_PER_ROW, giuthi.MAX_PITS_PER_ROW + 1) if n % 2 == 0]
    if isinstance(pits_per_row, int) and not isinstance(pits_per_row, bool) and not (
            giuthi.MIN_PITS_PER_ROW <= pits_per_row <= giuthi.MAX_PITS_PER_ROW):
        raise ParameterError(f"pits_per_row={pits_per_row}: a folding board has {', '.join(map(str, evens))} pits per row")
    _integer("pits_per_row", pits_per_row, giuthi.MIN_PITS_PER_ROW, giuthi.MAX_PITS_PER_ROW)
    if pits_per_row % 2:
        evens = [n for n in (pits_per_row - 1, pits_per_row + 1)
                 if giuthi.MIN_PITS_PER_ROW <= n <= giuthi.MAX_PITS_PER_ROW]
        raise ParameterError(
            f"pits_per_row={pits_per_row}: the fold would cut a pit in two; use an even number"
            f" ({' or '.join(map(str, evens))})"
        )
    _integer("seeds_per_pit", seeds_per_pit, giuthi.MIN_SEEDS_PER_PIT, giuthi.MAX_SEEDS_PER_PIT)


NUMBER_RANGES: Mapping[str, tuple[float, float]] = {  # each number field: its least and greatest value
    "row_margin_mm": (MIN_WALL_MM, 60.0),
    "pit_diameter_mm": (15.0, 80.0),
    "pit_length_mm": (15.0, 120.0),
    "pit_depth_mm": (4.0, 60.0),
    "store_width_mm": (15.0, 80.0),
    "store_depth_mm": (4.0, 60.0),
    "thickness_mm": (5.0, 80.0),
    "wall_mm": (MIN_WALL_MM, 5.0),
    "web_mm": (MIN_WALL_MM, 10.0),
    "margin_mm": (MIN_WALL_MM, 20.0),
    "screw_length_mm": (4.0, 40.0),
    "pilot_ratio": PILOT_RATIO_RANGE,
    "hole_clearance_mm": HOLE_CLEARANCE_RANGE_MM,
    "clearance_knuckle_mm": (3.0, 15.0),
    "hinge_gap_mm": (0.2, 1.0),
    "seam_gap_mm": (0.2, 1.0),
    "chamfer_mm": (0.0, CHAMFER_RANGE_MM[1]),
    "band_groove_mm": (1.5, 5.0),
    "seed_diameter_mm": (MIN_SEED_DIAMETER_MM, MAX_SEED_DIAMETER_MM),  # what the seed sprue accepts
    "seed_height_mm": (2.0, 15.0),
    "packing_factor": (0.3, 0.74),
}


def screw_length_for(mapping: Mapping[str, Any]) -> float:
    """The screw length a board of ``mapping`` (values screened) gets when none is given: the default
    (12.7 mm) when it bites deep enough, else the shortest stock length of that screw that does."""
    screw = mapping.get("screw", GiuthiBoardParams.screw)
    behind = (mapping.get("clearance_knuckle_mm", GiuthiBoardParams.clearance_knuckle_mm)
              + mapping.get("hinge_gap_mm", GiuthiBoardParams.hinge_gap_mm))
    needed = ENGAGEMENT_FACTOR * SCREWS[screw] + behind
    default = GiuthiBoardParams.screw_length_mm
    if default >= needed - 1e-9:
        return default
    return next((n for n in STOCK_SCREW_LENGTHS_MM[screw] if n >= needed - 1e-9), default)


def _check_chamfer(chamfer: Any) -> None:
    if isinstance(chamfer, float) and not math.isfinite(chamfer):
        return  # refused by _number, as any other number
    if isinstance(chamfer, (int, float)) and not isinstance(chamfer, bool) and chamfer != 0 \
            and not CHAMFER_RANGE_MM[0] <= chamfer <= CHAMFER_RANGE_MM[1]:
        shown = f"{chamfer:g}" if abs(chamfer) < 1e15 else "a number too large"
        raise ParameterError(f"chamfer_mm={shown}: allowed 0 (none) or {CHAMFER_RANGE_MM[0]:g} to {CHAMFER_RANGE_MM[1]:g}")


def screen_values(mapping: Mapping[str, Any]) -> None:
    """Raise ParameterError naming the key unless each value of ``mapping`` is of its field's kind and
    range (a number, a whole number, a screw name): what must hold before any size is worked out."""
    if "pits_per_row" in mapping or "seeds_per_pit" in mapping:
        validate_counts(mapping.get("pits_per_row", GiuthiBoardParams.pits_per_row),
                        mapping.get("seeds_per_pit", GiuthiBoardParams.seeds_per_pit))
    if "chamfer_mm" in mapping:
        _check_chamfer(mapping["chamfer_mm"])
    for name, (low, high) in NUMBER_RANGES.items():
        if name in mapping:
            _number(name, mapping[name], low, high)
    if "screw" in mapping and (not isinstance(mapping["screw"], str) or mapping["screw"] not in SCREWS):
        raise ParameterError(f"screw={mapping['screw']!r}: allowed {', '.join(SCREWS)}")
    if "pit_shape" in mapping and (not isinstance(mapping["pit_shape"], str) or mapping["pit_shape"] not in PIT_SHAPES):
        raise ParameterError(f"pit_shape={mapping['pit_shape']!r}: allowed {' or '.join(PIT_SHAPES)}")
    if "lid_text" in mapping:
        validate_lid_text(mapping["lid_text"])


def _validate(p: GiuthiBoardParams, bed: bool = True) -> None:
    """Raise ParameterError naming the values when ``p`` cannot be built or printed (on the bed)."""
    validate_counts(p.pits_per_row, p.seeds_per_pit)
    _check_chamfer(p.chamfer_mm)
    for name, (low, high) in NUMBER_RANGES.items():
        _number(name, getattr(p, name), low, high)
    if not isinstance(p.screw, str) or p.screw not in SCREWS:
        raise ParameterError(f"screw={p.screw!r}: allowed {', '.join(SCREWS)}")
    if not isinstance(p.pit_shape, str) or p.pit_shape not in PIT_SHAPES:
        raise ParameterError(f"pit_shape={p.pit_shape!r}: allowed {' or '.join(PIT_SHAPES)}")
    validate_lid_text(p.lid_text)
    if p.pit_length_mm < p.pit_diameter_mm:
        raise ParameterError(
            f"pit_length_mm={p.pit_length_mm:g} is less than pit_diameter_mm={p.pit_diameter_mm:g}:"
            " pits are round or longer across the rows"
        )
    if p.pit_shape == "round" and p.pit_length_mm > MAX_ROUND_ASPECT * p.pit_diameter_mm + 1e-6:
        raise ParameterError(
            f"pit_length_mm={p.pit_length_mm:g}: a round pit {p.pit_diameter_mm:g} mm wide is at most"
            f" {MAX_ROUND_ASPECT * p.pit_diameter_mm:.1f} mm long ({MAX_ROUND_ASPECT:g} x); or pit_shape=oval"
        )
    if p.store_length_mm < p.store_width_mm:
        raise ParameterError(
            f"store_width_mm={p.store_width_mm:g} is wider than the store is long ({p.store_length_mm:g} mm)"
        )
    for what, width, depth in (
        ("pit", p.pit_diameter_mm, p.pit_depth_mm),
        ("store", p.store_width_mm, p.store_depth_mm),
    ):
        # A bowl deeper than half its width would curl back over itself: an undercut that needs support.
        if depth > width / 2 + 1e-9:
            raise ParameterError(
                f"{what}_depth_mm={depth:g}: a bowl {width:g} mm wide is at most {width / 2:g} mm deep"
                " (a half-round); make it wider or shallower"
            )
    if p.margin_mm < MIN_MARGIN_MM - 1e-9:
        raise ParameterError(
            f"margin_mm={p.margin_mm:g}: the side marks need at least {MIN_MARGIN_MM:g} mm between the pits and the edge"
        )
    if p.row_margin_mm < max(p.margin_mm, p.hinge_end_mm) - 1e-9:
        raise ParameterError(
            f"row_margin_mm={p.row_margin_mm:g}: the hinge's end knuckles reach {p.hinge_end_mm:g} mm in from"
            f" the edge; the pits start at least {max(p.margin_mm, p.hinge_end_mm):g} mm in, so that nothing"
            " stands above the playing surface beside them"
        )
    for name in ("web_mm", "margin_mm"):
        if getattr(p, name) < p.wall_mm - 1e-9:
            what = "webs between the pits" if name == "web_mm" else "margins round the pits"
            raise ParameterError(f"wall_mm={p.wall_mm:g} is thicker than the {what} ({name}={getattr(p, name):g});"
                                 f" use wall_mm<={getattr(p, name):g} or a larger {name}")
    deepest = max(p.pit_depth_mm, p.store_depth_mm)
    if p.thickness_mm - deepest < p.wall_mm - 1e-9:
        raise ParameterError(
            f"thickness_mm={p.thickness_mm:g} leaves {p.thickness_mm - deepest:.2f} mm under a"
            f" {deepest:g} mm deep pit or store; at least {deepest + p.wall_mm:g} (wall_mm={p.wall_mm:g})"
        )
    if p.chamfer_mm >= p.wall_mm:
        raise ParameterError(f"chamfer_mm={p.chamfer_mm:g}: must be less than wall_mm={p.wall_mm:g}")
    needed = ENGAGEMENT_FACTOR * p.screw_diameter_mm
    if p.engagement_mm < needed - 1e-9:
        raise ParameterError(
            f"screw_length_mm={p.screw_length_mm:g} bites {p.engagement_mm:.2f} mm into the pilot knuckle;"
            f" a {p.screw} screw needs {needed:g} mm ({ENGAGEMENT_FACTOR:g} x d), so at least"
            f" {needed + p.clearance_knuckle_mm + p.hinge_gap_mm:g} mm"
        )
    # The seeds the board is sized for must be seeds the sprue can make (a bean lies flat).
    try:
        SeedParams(seed_diameter_mm=p.seed_diameter_mm, seed_height_mm=p.seed_height_mm)
    except ParameterError as error:
        raise ParameterError(str(error)) from None
    if bed:
        _check_bed(p)


def _fits(size: tuple[float, float, float]) -> bool:
    """Whether a part of this bounding box fits the usable bed (turned either way in plan)."""
    plan = sorted(size[:2], reverse=True)
    bed = sorted(USABLE_BED_MM[:2], reverse=True)
    return plan[0] <= bed[0] + 1e-9 and plan[1] <= bed[1] + 1e-9 and size[2] <= USABLE_BED_MM[2] + 1e-9


def _check_bed(p: GiuthiBoardParams) -> None:
    if not _fits(p.half_size_mm()):
        raise ParameterError(bed_refusal(p, [text for text, _ in bed_fixes(p)]))


def bed_fixes(p: GiuthiBoardParams) -> list[tuple[str, dict[str, Any]]]:
    """The largest of this design that fits the bed: (hint, changes to the parameters) each.

    Fewer pits per row, the largest pit diameter or length, or a ``size_mm`` plan in place of the
    pit sizes (a change of None removes the key). Bed fit only: the models add capacity.
    """
    fixes: list[tuple[str, dict[str, Any]]] = []
    for n in range(p.pits_per_row - 2, giuthi.MIN_PITS_PER_ROW - 1, -2):
        if n >= giuthi.MIN_PITS_PER_ROW and _fits(_size_with(p, pits_per_row=n)):
            fixes.append((f"pits_per_row={n}", {"pits_per_row": n}))
            break
    for name in ("pit_diameter_mm", "pit_length_mm"):
        best = _largest_fitting(p, name)
        if best is not None:
            changes: dict[str, Any] = {name: best}
            if name == "pit_diameter_mm":
                changes["pit_length_mm"] = max(p.pit_length_mm, best)
            fixes.append((f"{name}<={best:g}", changes))
    plan = fitting_size(p)
    if plan is not None:
        fixes.append((f"size_mm={plan[0]:g}x{plan[1]:g} in place of the pit sizes",
                      {"size_mm": f"{plan[0]:g}x{plan[1]:g}", "pit_diameter_mm": None, "pit_length_mm": None}))
    return fixes


def bed_refusal(p: GiuthiBoardParams, hints: list[str], none: str = "none of this design") -> str:
    """One line: the half's size, the bed's, and ``hints`` (what fits), or ``none``."""
    size = p.half_size_mm()
    bed = f"{USABLE_BED_MM[0]:g} x {USABLE_BED_MM[1]:g} x {USABLE_BED_MM[2]:g} mm"
    return (
        f"one half is {size[0]:g} x {size[1]:g} x {size[2]:g} mm (pits_per_row={p.pits_per_row},"
        f" pit_diameter_mm={p.pit_diameter_mm:g}, pit_length_mm={p.pit_length_mm:g}) but the 3D45 bed"
        f" leaves {bed} after a {SKIRT_MARGIN_MM:g} mm skirt margin; the largest that fits: "
        + (" or ".join(hints) if hints else none)
    )


def oversized(mapping: Mapping[str, Any]) -> GiuthiBoardParams | None:
    """The board of ``mapping`` if every value is valid but a half does not fit the bed, else None."""
    q = _unchecked(mapping)
    try:
        # Every value first: the size of a board with a hostile value (an unknown screw, an
        # infinite clearance) cannot be measured, and its own refusal names the key.
        _validate(q, bed=False)
        if _fits(q.half_size_mm()):
            return None
    except (ParameterError, TypeError, ValueError, KeyError, OverflowError):
        return None
    return q


def fitting_size(p: GiuthiBoardParams) -> tuple[float, float] | None:
    """The plan (``size_mm``) nearest this board's that fits the bed: each side cut to what fits.

    The pits are then sized to fill it (``params_for_size``); None when that board is not valid
    either (e.g. pits longer along the row than across). Bed fit only: capacity is the models' check.
    """
    mapping = {f.name: getattr(p, f.name) for f in fields(p) if f.name not in ("pit_diameter_mm", "pit_length_mm")}
    try:
        (min_x, min_y), (max_x, max_y) = size_limits(mapping)
        x, y, _ = p.half_size_mm()
        size = (min(math.floor(x * 10 + 1e-6) / 10, max_x), min(math.floor(y * 10 + 1e-6) / 10, max_y))
        if size[0] < min_x or size[1] < min_y:
            return None
        GiuthiBoardParams(**params_for_size(mapping, *size))
    except ParameterError:
        return None
    return size


def _size_with(p: GiuthiBoardParams, **changes: Any) -> tuple[float, float, float]:
    # object.__new__ skips validation, so the size of an oversized board can be measured.
    q = object.__new__(GiuthiBoardParams)
    for f in fields(p):
        object.__setattr__(q, f.name, changes.get(f.name, getattr(p, f.name)))
    return q.half_size_mm()


def _largest_fitting(p: GiuthiBoardParams, name: str) -> float | None:
    """The largest value of ``name`` (0.5 mm steps) that fits the bed, other values unchanged."""
    value = getattr(p, name)
    low = p.pit_diameter_mm if name == "pit_length_mm" else 15.0
    while value >= low:
        changes = {name: value}
        if name == "pit_diameter_mm":
            changes["pit_length_mm"] = max(p.pit_length_mm, value)
        if _fits(_size_with(p, **changes)):
            return value
        value = round(value - 0.5, 3)
    return None


def _unchecked(mapping: Mapping[str, Any]) -> GiuthiBoardParams:
    """Parameters from a mapping without validation, to measure a board that may not fit."""
    q = object.__new__(GiuthiBoardParams)
    for f in fields(GiuthiBoardParams):
        object.__setattr__(q, f.name, mapping.get(f.name, f.default))
    return q


def parse_size(text: str) -> tuple[float, float]:
    """``"160x145"`` -> (160.0, 145.0): one half's plan in mm, along the rows by across them."""
    parts = str(text).lower().replace("×", "x").split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        w, h = float(parts[0]), float(parts[1])
    except ValueError:
        raise ParameterError(f"size_mm={text!r}: expected WIDTHxHEIGHT in mm, e.g. 160x145") from None
    if not (math.isfinite(w) and math.isfinite(h)) or w <= 0 or h <= 0:
        raise ParameterError(f"size_mm={text!r}: expected two positive numbers of mm, e.g. 160x145")
    return w, h


def size_limits(mapping: Mapping[str, Any]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The smallest and largest half plans (x, y) this board's other parameters can be laid out in."""
    q = _unchecked(mapping)
    cols = q.columns_per_half
    fixed_x = _fixed_length_mm(q)
    fixed_y = 2 * _row_clearance_mm(q) + q.web_mm
    bed = sorted(USABLE_BED_MM[:2], reverse=True)
    smallest = (fixed_x + cols * MIN_PIT_MM, fixed_y + 2 * MIN_PIT_MM)
    # Pits are at least as long across the rows as along them, and the half lies either way on the bed.
    largest_y = min(bed[1], fixed_y + 2 * 120.0)
    largest_x = min(bed[0], fixed_x + cols * 80.0)
    return (round(smallest[0], 1), round(smallest[1], 1)), (math.floor(largest_x * 10) / 10, largest_y)


def _row_clearance_mm(q: GiuthiBoardParams) -> float:
    """The least border across the rows: the side marks' margin, or the hinge's end knuckles."""
    return max(q.margin_mm, q.hinge_end_mm)


def _fixed_length_mm(q: GiuthiBoardParams) -> float:
    """The part of a half's x extent that does not grow with the pits: hinge, webs, store, margin."""
    return (q.hinge_zone_mm + q.columns_per_half * q.web_mm + q.store_width_mm + q.margin_mm
            + q.seam_gap_mm / 2 + q.knuckle_radius_mm)


def params_for_size(mapping: Mapping[str, Any], width_mm: float, height_mm: float) -> dict[str, Any]:
    """``mapping`` with the pit sizes that make one half ``width_mm`` x ``height_mm`` in plan.

    ``width_mm`` runs along the rows (fold face to outer end, knuckles included), ``height_mm``
    across them. Pit sizes are rounded down to 0.1 mm, so the half is at most 0.3 mm smaller than
    asked. A plan the pits cannot fill, or the 3D45 bed cannot take, is refused with the range
    that works. Nothing is ever scaled: stores, webs, margins and the hinge keep their sizes.
    """
    for name in ("pit_diameter_mm", "pit_length_mm"):
        if name in mapping:
            raise ParameterError(f"size_mm={width_mm:g}x{height_mm:g} derives {name}: give the size or the pit sizes, not both")
    q = _unchecked(mapping)
    cols = q.columns_per_half
    (min_x, min_y), (max_x, max_y) = size_limits(mapping)
    allowed = f"with {q.pits_per_row} pits per row: {min_x:g}x{min_y:g} to {max_x:g}x{max_y:g}"
    if not (min_x - 1e-9 <= width_mm <= max_x + 1e-9 and min_y - 1e-9 <= height_mm <= max_y + 1e-9):
        raise ParameterError(
            f"size_mm={width_mm:g}x{height_mm:g}: a half of this board fits the 3D45 bed and its pits"
            f" ({MIN_PIT_MM:g} mm at least) {allowed}"
        )
    diameter = math.floor((width_mm - _fixed_length_mm(q)) / cols * 10 + 1e-6) / 10
    length = math.floor((height_mm - 2 * _row_clearance_mm(q) - q.web_mm) / 2 * 10 + 1e-6) / 10
    if q.pit_shape == "round":
        length = min(length, math.floor(MAX_ROUND_ASPECT * diameter * 10 + 1e-6) / 10)
    if length < diameter:
        # Pits are never longer along the row than across it: the plan is too long for its width.
        raise ParameterError(
            f"size_mm={width_mm:g}x{height_mm:g}: pits would be {diameter:g} mm along the row but only"
            f" {length:g} across it; for {height_mm:g} mm across, at most"
            f" {math.floor((_fixed_length_mm(q) + cols * length) * 10) / 10:g} mm along ({allowed})"
        )
    out = dict(mapping)
    out["pit_diameter_mm"] = diameter
    out["pit_length_mm"] = length
    # What the pits leave across the rows is the border either side (to 0.001 mm, never over the plan).
    out["row_margin_mm"] = math.floor((height_mm - 2 * length - q.web_mm) / 2 * 1000 + 1e-6) / 1000
    return out
