"""Giuthi seed sprue: frozen, validated parameters of 12 joined seeds and their derived sizes.

Each seed is a bean: half an ellipsoid standing on its flat cut face (``seed_diameter_mm`` long
along the sprue's rows, ``seed_width_ratio`` times that across, ``seed_height_mm`` tall). Its
side is vertical at the bed and leans inward above, so it prints without support at any size. Neighbouring seeds are joined by bed-level gates: a bar
``gate_width_mm`` wide and ``gate_height_mm`` tall that narrows to ``neck_width_mm`` for
``neck_length_mm`` where it meets each seed, so nail clippers cut at the seed and leave a small nub.
Pure: no cadquery, no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from printables.errors import ParameterError

SEEDS_PER_SPRUE = 12
NOZZLE_DIAMETER_MM = 0.4  # Dremel 3D45 stock nozzle
LAYER_HEIGHT_MM = 0.2  # the user's printing notes
MIN_LINES = 2  # a gate narrower than two extrusion lines prints as a broken single line or not at all
MIN_LAYERS = 2  # a one-layer gate tears off when the bed releases the part
MIN_GATE_WIDTH_MM = MIN_LINES * NOZZLE_DIAMETER_MM
MIN_GATE_HEIGHT_MM = MIN_LAYERS * LAYER_HEIGHT_MM
MAX_GATE_HEIGHT_MM = 1.0  # thicker than this and nail clippers crush rather than cut
MAX_GATE_WIDTH_MM = 2.0
MAX_CUT_AREA_MM2 = 1.2  # cross-section at the neck (where the clippers cut)
GATE_OVERLAP_MM = 0.2  # gates start this far inside the seed's wall at gate height, so they fuse
MIN_SEED_DIAMETER_MM = 6.0  # smaller seeds are fiddly to pick up and to clip
MAX_SEED_DIAMETER_MM = 20.0
MIN_DOME_ABOVE_GATE_MM = 1.0  # a seed must stand clearly above its gates to be told apart by touch
WIDTH_RATIO_RANGE = (0.5, 1.0)  # 1.0 is a round seed (a lentil); below 0.5 a sliver


class InvalidSeedParams(ParameterError):
    """Seed sprue parameters that cannot be printed or make no sense together."""


@dataclass(frozen=True)
class SeedParams:
    """The seed sprue in mm: bean size, grid of seeds and the gates that join them."""

    seed_diameter_mm: float = 10.5  # the bean's length, along the sprue's rows
    seed_height_mm: float = 4.5
    seed_width_ratio: float = 0.7  # width across / length
    rows: int = 3
    cols: int = 4
    seed_gap_mm: float = 3.0  # edge to edge, along a gate
    gate_width_mm: float = 1.2
    gate_height_mm: float = 0.6
    neck_width_mm: float = 0.9
    neck_length_mm: float = 0.8

    def __post_init__(self) -> None:
        _validate(self)


def _validate(p: SeedParams) -> None:
    """Raise InvalidSeedParams naming the values when ``p`` cannot be printed as asked."""
    for f in fields(p):
        value = getattr(p, f.name)
        if f.type in ("int", int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSeedParams(f"{f.name}={value!r}: expected an integer")
        elif not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise InvalidSeedParams(f"{f.name}={value!r}: expected a finite number of mm")
    if not MIN_SEED_DIAMETER_MM <= p.seed_diameter_mm <= MAX_SEED_DIAMETER_MM:
        raise InvalidSeedParams(
            f"seed_diameter_mm={p.seed_diameter_mm}: expected {MIN_SEED_DIAMETER_MM}"
            f" to {MAX_SEED_DIAMETER_MM} mm"
        )
    if not WIDTH_RATIO_RANGE[0] <= p.seed_width_ratio <= WIDTH_RATIO_RANGE[1]:
        raise InvalidSeedParams(
            f"seed_width_ratio={p.seed_width_ratio}: expected {WIDTH_RATIO_RANGE[0]:g} to {WIDTH_RATIO_RANGE[1]:g}"
        )
    width = seed_width_mm(p)
    if p.seed_height_mm > width:
        # Taller than wide, a bean would stand on edge rather than lie: it topples off a pit's slope.
        raise InvalidSeedParams(
            f"seed_height_mm={p.seed_height_mm} is more than the seed's width ({width:g} mm ="
            f" seed_width_ratio {p.seed_width_ratio:g} x seed_diameter_mm {p.seed_diameter_mm:g});"
            f" at most {width:g} mm"
        )
    if p.rows < 1 or p.cols < 1 or p.rows * p.cols < 2:
        raise InvalidSeedParams(f"rows={p.rows}, cols={p.cols}: need at least 2 seeds in a grid")
    if p.gate_height_mm < MIN_GATE_HEIGHT_MM - 1e-9:
        raise InvalidSeedParams(
            f"gate_height_mm={p.gate_height_mm}: at least {MIN_LAYERS} layers of"
            f" {LAYER_HEIGHT_MM} mm ({MIN_GATE_HEIGHT_MM:g} mm)"
        )
    if p.gate_height_mm > MAX_GATE_HEIGHT_MM:
        raise InvalidSeedParams(
            f"gate_height_mm={p.gate_height_mm}: at most {MAX_GATE_HEIGHT_MM} mm, or clippers crush it"
        )
    if p.seed_height_mm < p.gate_height_mm + MIN_DOME_ABOVE_GATE_MM:
        raise InvalidSeedParams(
            f"seed_height_mm={p.seed_height_mm} with gate_height_mm={p.gate_height_mm}: the seed must"
            f" rise at least {MIN_DOME_ABOVE_GATE_MM} mm above its gates"
        )
    if p.neck_width_mm < MIN_GATE_WIDTH_MM - 1e-9:
        raise InvalidSeedParams(
            f"neck_width_mm={p.neck_width_mm}: at least {MIN_LINES} lines of a"
            f" {NOZZLE_DIAMETER_MM} mm nozzle ({MIN_GATE_WIDTH_MM:g} mm)"
        )
    if not p.neck_width_mm <= p.gate_width_mm <= MAX_GATE_WIDTH_MM:
        raise InvalidSeedParams(
            f"gate_width_mm={p.gate_width_mm} with neck_width_mm={p.neck_width_mm}: expected"
            f" neck_width_mm <= gate_width_mm <= {MAX_GATE_WIDTH_MM}"
        )
    if p.neck_width_mm * p.gate_height_mm > MAX_CUT_AREA_MM2 + 1e-9:
        raise InvalidSeedParams(
            f"neck_width_mm={p.neck_width_mm} x gate_height_mm={p.gate_height_mm}: cut section"
            f" {p.neck_width_mm * p.gate_height_mm:.2f} mm2 is over {MAX_CUT_AREA_MM2} mm2"
        )
    if p.neck_length_mm <= 0:
        raise InvalidSeedParams(f"neck_length_mm={p.neck_length_mm}: expected more than 0")
    taper = (p.gate_width_mm - p.neck_width_mm) / 2  # 45-degree shoulders on each side
    if p.seed_gap_mm < 2 * (p.neck_length_mm + taper):
        raise InvalidSeedParams(
            f"seed_gap_mm={p.seed_gap_mm}: the two necks and shoulders of a gate need"
            f" {2 * (p.neck_length_mm + taper):g} mm (neck_length_mm={p.neck_length_mm},"
            f" gate_width_mm={p.gate_width_mm}, neck_width_mm={p.neck_width_mm})"
        )


def seed_count(p: SeedParams) -> int:
    """Seeds on one sprue."""
    return p.rows * p.cols


def seed_width_mm(p: SeedParams) -> float:
    """The bean's width across the rows."""
    return round(p.seed_diameter_mm * p.seed_width_ratio, 6)


def seed_radius_at_mm(p: SeedParams, z_mm: float, direction: tuple[float, float] = (1.0, 0.0)) -> float:
    """Distance from a seed's axis to its side at height ``z_mm``, in plan ``direction`` (0 above the top).

    The section at height z is the base ellipse shrunk by sqrt(1 - (z / height)^2).
    """
    if not 0 <= z_mm <= p.seed_height_mm:
        return 0.0
    a, b = p.seed_diameter_mm / 2, seed_width_mm(p) / 2
    ux, uy = direction
    norm = math.hypot(ux, uy)
    base = 1.0 / math.sqrt((ux / norm / a) ** 2 + (uy / norm / b) ** 2)
    return base * math.sqrt(max(1.0 - (z_mm / p.seed_height_mm) ** 2, 0.0))


def seed_volume_mm3(p: SeedParams) -> float:
    """Volume of one seed: half an ellipsoid of semi-axes a, b, h is 2/3 pi a b h."""
    return 2 / 3 * math.pi * (p.seed_diameter_mm / 2) * (seed_width_mm(p) / 2) * p.seed_height_mm


def seed_pitch_mm(p: SeedParams) -> tuple[float, float]:
    """Centre-to-centre distance of neighbouring seeds along a row (x) and between rows (y)."""
    return p.seed_diameter_mm + p.seed_gap_mm, seed_width_mm(p) + p.seed_gap_mm


def sprue_size_mm(p: SeedParams) -> tuple[float, float, float]:
    """Bounding box (x, y, z) of the sprue as printed."""
    px, py = seed_pitch_mm(p)
    return (
        round((p.cols - 1) * px + p.seed_diameter_mm, 6),
        round((p.rows - 1) * py + seed_width_mm(p), 6),
        p.seed_height_mm,
    )


def seed_centres(p: SeedParams) -> tuple[tuple[float, float], ...]:
    """Seed centres (x, y) on the bed, row by row from -y, the grid centred on the origin."""
    px, py = seed_pitch_mm(p)
    x0 = -(p.cols - 1) * px / 2
    y0 = -(p.rows - 1) * py / 2
    return tuple((round(x0 + c * px, 6), round(y0 + r * py, 6)) for r in range(p.rows) for c in range(p.cols))


def gates(p: SeedParams) -> tuple[tuple[int, int], ...]:
    """Pairs of seed indices joined by a gate: every row is a chain, the two end columns tie rows.

    A ladder of two rails keeps the sprue stiff enough to pull off the bed in one piece while no
    seed carries more than three gates to clip.
    """
    pairs = [(r * p.cols + c, r * p.cols + c + 1) for r in range(p.rows) for c in range(p.cols - 1)]
    end_cols = sorted({0, p.cols - 1})
    pairs += [(r * p.cols + c, (r + 1) * p.cols + c) for r in range(p.rows - 1) for c in end_cols]
    return tuple(pairs)


def gate_outline(
    p: SeedParams, a: tuple[float, float], b: tuple[float, float]
) -> tuple[tuple[float, float], ...]:
    """Plan outline (counter-clockwise) of the gate from seed centre ``a`` to seed centre ``b``.

    Neck at each seed, 45-degree shoulders up to the full gate width, and ends reaching
    ``GATE_OVERLAP_MM`` inside the seed's wall at gate height so gate and seed fuse into one solid.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    vx, vy = -uy, ux
    radius = seed_radius_at_mm(p, 0.0, (ux, uy))
    start = seed_radius_at_mm(p, p.gate_height_mm, (ux, uy)) - GATE_OVERLAP_MM
    neck_end = radius + p.neck_length_mm
    shoulder = neck_end + (p.gate_width_mm - p.neck_width_mm) / 2
    n, w = p.neck_width_mm / 2, p.gate_width_mm / 2
    # (distance from a along the gate, half width) on the +v side, then mirrored back on the -v side.
    side = (
        (start, n),
        (neck_end, n),
        (shoulder, w),
        (length - shoulder, w),
        (length - neck_end, n),
        (length - start, n),
    )
    pts = [(a[0] + s * ux - h * vx, a[1] + s * uy - h * vy) for s, h in side]
    pts += [(a[0] + s * ux + h * vx, a[1] + s * uy + h * vy) for s, h in reversed(side)]
    out: list[tuple[float, float]] = []
    for x, y in pts:
        point = (round(x, 6), round(y, 6))
        # A gate as wide as its neck has no shoulders: drop the repeated corners.
        if not out or point != out[-1]:
            out.append(point)
    return tuple(out)


SPARE_SEEDS = 1  # at least this many beans beyond the game's


def copies_needed(
    pits_per_row: int, seeds_per_pit: int, seeds_per_sprue: int = SEEDS_PER_SPRUE
) -> int:
    """Copies of the sprue that give every seed of the game (2 rows of pits_per_row pits) and at
    least ``SPARE_SEEDS`` more, for the bean that flies off the table (4 x 12 = 48 is 5 prints)."""
    if pits_per_row < 1 or seeds_per_pit < 1 or seeds_per_sprue < 1:
        raise ValueError(
            f"pits_per_row={pits_per_row}, seeds_per_pit={seeds_per_pit},"
            f" seeds_per_sprue={seeds_per_sprue}: expected positive integers"
        )
    return -(-(2 * pits_per_row * seeds_per_pit + SPARE_SEEDS) // seeds_per_sprue)


def stl_name(p: SeedParams) -> str:
    """File name of the sprue's STL, from its parameters."""
    return (f"giuthi-seeds-{seed_count(p)}-{p.seed_diameter_mm:g}x{seed_width_mm(p):g}"
            f"x{p.seed_height_mm:g}mm.stl")
