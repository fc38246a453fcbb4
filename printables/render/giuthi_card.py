"""The Giuthi print settings card: one A4 page with everything needed to print and assemble.

Printer, material and slicer settings come from the profile the slicer check uses (so the card
says what was verified), sizes and hardware from the board's and seeds' parameters, and the time
and filament of each part from slicer reports passed in as data. The page is built from the
layout primitives and drawn by ``printables.render.pdf`` in reportlab's invariant mode, so the
same inputs give the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Protocol

from printables.params.printer import DREMEL_3D45, PROFILE_FILE, PrinterProfile
from printables.fileio import write_atomic
from printables.layout.primitives import Document, Line, Page, Rect, Text, line_height_mm, text_width_mm, wrap
from printables.params.giuthi_seeds import SeedParams, copies_needed, seed_count, seed_width_mm, stl_name
from printables.render.pdf import render_pdf

CARD_FILE = "giuthi-print-settings.pdf"
CARD_KIND = "giuthi-print-settings"
PAGE_MM = (210.0, 297.0)  # A4
MARGIN_MM = 15.0
GREY = 0.45

SCREW_NAMES = {
    "no2": "No. 2 (2.2 mm) pan-head self-tapping screws for plastic",
    "m2": "M2 pan-head self-tapping screws for plastic",
    "m2.5": "M2.5 pan-head self-tapping screws for plastic",
    "m3": "M3 pan-head self-tapping screws for plastic",
}
INCH_MM = 25.4

# Standard (US numbered) rubber bands: number, flat length and width in mm.
RUBBER_BANDS = (
    ("16", 63.5, 1.6),
    ("19", 88.9, 1.6),
    ("31", 63.5, 3.2),
    ("32", 76.2, 3.2),
    ("33", 88.9, 3.2),
    ("64", 88.9, 6.4),
    ("117B", 177.8, 3.2),
)
BAND_STRETCH = (1.3, 2.0)  # stretched path / band circumference: holds firm, does not snap
BAND_STRETCH_BEST = 1.6
BOARD_COLOURS = "natural, white or light grey PLA"
SEED_COLOURS = "black, dark red or dark blue PLA"


class Estimate(Protocol):
    """What the card needs from a slicer report (``printables.check.slicer.SliceReport`` fits).

    A ``support_mm`` attribute, when present, is the support filament the slicer added.
    """

    print_time_s: int
    filament_g: float
    filament_m: float


@dataclass(frozen=True)
class CardPart:
    """One printed part on the card."""

    name: str
    file: str
    orientation: str
    copies: int
    print_time_s: int | None = None  # per copy, from the slicer; None when not sliced
    filament_g: float | None = None
    filament_m: float | None = None
    support_mm: float = 0.0  # support filament the slicer added; 0 when none or not sliced


@dataclass(frozen=True)
class PrintCard:
    """Everything the card shows, as text and numbers."""

    title: str
    subtitle: str
    settings: tuple[tuple[str, str], ...]
    parts: tuple[CardPart, ...]
    assembly: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    to_printer: tuple[tuple[str, str], ...] = ()
    params: dict = field(default_factory=dict)
    board: object = None  # GiuthiBoardParams: its assembly drawing makes the card's second page  # recorded in the PDF subject (JSON), with the card's lang


def duration_text(seconds: int) -> str:
    """``5 h 07 min`` or ``34 min``."""
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def pick_rubber_band(path_mm: float, groove_mm: float) -> tuple[str, float, float] | None:
    """The standard band that grips a path of ``path_mm`` best and sits in the groove, or None."""
    fits = []
    for number, length, width in RUBBER_BANDS:
        stretch = path_mm / (2 * length)
        if BAND_STRETCH[0] <= stretch <= BAND_STRETCH[1] and width <= groove_mm + 0.5:
            fits.append((abs(stretch - BAND_STRETCH_BEST), -width, number, length, width))
    if not fits:
        return None
    _, _, number, length, width = min(fits)
    return number, length, width


def inch_text(mm: float) -> str | None:
    """``mm`` in inches as a whole and sixteenths (``3-1/2``), or None if it is not such a size."""
    sixteenths = round(mm / INCH_MM * 16)
    if sixteenths <= 0 or abs(mm / INCH_MM * 16 - sixteenths) > 0.05:
        return None
    whole, rest = divmod(sixteenths, 16)
    if rest == 0:
        return str(whole)
    den = 16
    while rest % 2 == 0:
        rest, den = rest // 2, den // 2
    return f"{whole}-{rest}/{den}" if whole else f"{rest}/{den}"


def _band_text(path_mm: float, groove_mm: float) -> str:
    """How to name the band to buy."""
    band = pick_rubber_band(path_mm, groove_mm)
    if band is None:
        lo, hi = path_mm / BAND_STRETCH[1] / 2, path_mm / BAND_STRETCH[0] / 2
        return (f"a band {lo:.0f}-{hi:.0f} mm long laid flat, at most {groove_mm + 0.5:.1f} mm wide,"
                f" round the closed board in the grooves ({path_mm:g} mm path)")
    number, length, width = band
    return (
        f"No. {number} ({length:.0f} x {width:.1f} mm laid flat, {inch_text(length)} x"
        f" {inch_text(width)} in), round the closed board in the grooves ({path_mm:g} mm path)"
    )


def sizes_text(board) -> str:
    """Each half as printed and the closed board, in mm (the manifest's closed size)."""
    x, y, z = board.half_size_mm()
    return (f"each half {x:.1f} x {y:.1f} x {z:.1f} mm as printed (hinge knuckles included);"
            f" closed {x:.1f} x {y:.1f} x {2 * board.thickness_mm:.1f} mm")


def seed_size_text(seeds: SeedParams) -> str:
    """The bean's size as the sprue's file name gives it: ``beans 10.5 x 7.35 x 4.5 mm (long x wide x high)``."""
    return (f"beans {seeds.seed_diameter_mm:g} x {seed_width_mm(seeds):g} x {seeds.seed_height_mm:g} mm"
            " (long x wide x high)")


def to_printer_rows(profile: PrinterProfile) -> tuple[tuple[str, str], ...]:
    """How to get the parts onto a Dremel 3D45: with PrusaSlicer, or with Dremel's or Cura's slicer."""
    return (
        ("PrusaSlicer", f"open a part's .3mf (beside its .stl, same name): the {profile.printer} profile comes"
                        f" inside it. Or import {PROFILE_FILE} (File > Import > Import Config) and open the .stl."
                        " Slice, then Export G-code."),
        ("DigiLab or Cura", f"Dremel DigiLab 3D Slicer or Cura: choose the Dremel 3D45, open the .3mf or .stl, and"
                            f" set {profile.layer_height_mm:g} mm layers, {profile.infill_percent} % infill,"
                            f" {profile.material}, no supports, no raft (build plate adhesion: none or skirt)."
                            " Slice and save the G-code."),
        ("To the printer", "copy the G-code file to a USB stick, plug it into the 3D45's USB port and choose"
                           " the file on the touch screen; one part (or one plate) per print."),
    )


def _screw_text(screw: str, length_mm: float, count: int) -> str:
    """Count, type and length of the screws to buy."""
    inches = inch_text(length_mm)
    in_text = f" ({inches} in)" if inches else ""
    name = SCREW_NAMES.get(screw, f"{screw} self-tapping screws")
    return f"{count} x {name}, {length_mm:g} mm{in_text} long"


def _supports_text(profile: PrinterProfile, parts: list[CardPart]) -> str:
    """What the slicer found about supports, part by part, in words."""
    limit = f"overhangs down to {profile.overhang_limit_deg}\u00b0 from the bed need none"
    supported = [p.name for p in parts if p.support_mm]
    unsliced = [p.name for p in parts if p.print_time_s is None]
    if supported:
        return f"NEEDED by {', '.join(supported)}: PrusaSlicer added support material ({limit})"
    if unsliced:
        return f"none by design ({limit}); not yet verified with a slicer for {', '.join(unsliced)}"
    return f"none: PrusaSlicer with automatic supports on adds none to any part ({limit})"


def _settings(profile: PrinterProfile, supports: str) -> tuple[tuple[str, str], ...]:
    """The printer and slicer rows, from the profile the slicer check runs with."""
    w, d, h = profile.bed_mm
    return (
        ("Printer", f"{profile.printer} (bed {w:g} x {d:g} x {h:g} mm), {profile.nozzle_mm:g} mm nozzle"),
        (
            "Material",
            f"{profile.material} {profile.filament_mm:g} mm, nozzle {profile.nozzle_temp_c} \u00b0C,"
            f" bed {profile.bed_temp_c} \u00b0C",
        ),
        ("Layer height", f"{profile.layer_height_mm:g} mm, first layer too"),
        (
            "Infill",
            f"{profile.infill_percent} % grid, {profile.perimeters} perimeters,"
            f" {profile.top_layers} top and {profile.bottom_layers} bottom layers",
        ),
        ("Supports", supports),
        ("Raft, brim", "no raft, no brim; one skirt loop"),
        ("Profile", f"{PROFILE_FILE} (PrusaSlicer: File > Import > Import Config)"),
    )


def giuthi_print_card(
    seeds: SeedParams,
    estimates: Mapping[str, Estimate] | None = None,
    board=None,
    screw_count: int | None = None,
    profile: PrinterProfile = DREMEL_3D45,
) -> PrintCard:
    """The card's content for a board (``GiuthiBoardParams``, or None for seeds only) and seeds.

    ``estimates`` maps an STL file name to its slicer report; ``screw_count`` defaults to the
    hinge's clearance holes in the board's layout.
    """
    estimates = dict(estimates or {})
    parts: list[CardPart] = []
    pits_per_row = board.pits_per_row if board is not None else 6
    seeds_per_pit = board.seeds_per_pit if board is not None else 4

    def part(name: str, file: str, orientation: str, copies: int) -> CardPart:
        est = estimates.get(file)
        if est is None:
            return CardPart(name, file, orientation, copies)
        return CardPart(
            name,
            file,
            orientation,
            copies,
            int(est.print_time_s),
            float(est.filament_g),
            float(est.filament_m),
            float(getattr(est, "support_mm", 0.0)),
        )

    assembly: list[tuple[str, str]] = []
    if board is not None:
        assembly.append(("Sizes", sizes_text(board)))
        for side, name in (("left", "Board, left half"), ("right", "Board, right half")):
            parts.append(
                part(name, f"{board.part_name(side)}.stl", "as in the file: flat bottom down, pits up", 1)
            )
        if screw_count is None:
            from printables.layout.giuthi_board import hinge_knuckles

            screw_count = sum(1 for k in hinge_knuckles(board) if k.bore == "clearance")
        assembly.append(
            (
                "Screws",
                _screw_text(board.screw, board.screw_length_mm, screw_count)
                + ": one at each end of the fold, in through the outer knuckle and into the pilot hole of the knuckle inside it",
            )
        )
        from printables.layout.giuthi_board import band_loop_mm

        # The same path the manifest records (layout.giuthi_board.band_loop_mm), so card and
        # manifest say one number.
        assembly.append(("Rubber band", _band_text(band_loop_mm(board), board.band_groove_mm)))
    elif screw_count is not None:
        assembly.append(("Screws", f"{screw_count} self-tapping screws (see the board's parameters)"))
    copies = copies_needed(pits_per_row, seeds_per_pit, seed_count(seeds))
    total_seeds = 2 * pits_per_row * seeds_per_pit
    parts.append(
        part(
            f"Seeds, {seed_count(seeds)} per print",
            stl_name(seeds),
            "as in the file: beans flat side down, rounded tops up",
            copies,
        )
    )
    assembly.append(("Colours", f"board in {BOARD_COLOURS}; seeds in a contrasting {SEED_COLOURS}"))
    assembly.append(
        (
            "Seeds",
            f"{seed_size_text(seeds)}, half ellipsoids printed flat side down (no supports);"
            f" {copies} prints x {seed_count(seeds)} = {copies * seed_count(seeds)} seeds for"
            f" {total_seeds} ({pits_per_row * 2} pits x {seeds_per_pit}); clip each gate at the seed"
            " with nail clippers and trim the nub",
        )
    )
    board_text = f"board 2x{pits_per_row}, {seeds_per_pit} seeds per pit" if board is not None else "seeds"
    notes = (
        "Times and filament are PrusaSlicer's estimates with the profile above; a 3D45 running its own"
        " firmware speeds may differ.",
        "Print each part alone or several together, in the orientation of its file; peel off the"
        " skirt, and clip the seeds apart at their necks.",
    )
    return PrintCard(
        title="Giuthi \u2014 print settings",
        subtitle=f"{profile.printer}, {profile.material} {profile.filament_mm:g} mm; {board_text}",
        settings=_settings(profile, _supports_text(profile, parts)),
        parts=tuple(parts),
        assembly=tuple(assembly),
        notes=notes,
        to_printer=to_printer_rows(profile),
        board=board,
        params={"printer": profile.printer, "material": profile.material,
                "pits_per_row": board.pits_per_row if board is not None else None,
                "seeds_per_pit": board.seeds_per_pit if board is not None else None},
    )


HEADING_RULE_MM = 2.8  # a section heading's rule under its baseline
HEADING_STEP_MM = 7.5  # from a heading's baseline to the first line under it
PARTS_HEAD_MM = 6.6  # from the parts table's column names to the first row's baseline (its ground 1.5 mm under them)
ROW_PAD_MM = 1.8  # the grey ground of a part's row reaches this far beyond the text column
ROW_H_MM = 10.7  # the grey ground's height, from 4.2 mm above the name's baseline
SECTION_GAP_MM = 2.8  # more, after a section's last row, before the next heading (4 mm clear)

def _key_values(rows, x: float, y: float, key_w: float, width: float, size: float) -> tuple[list, float]:
    """Two-column rows (bold key, wrapped value) from baseline ``y``; returns items and next y."""
    items: list = []
    lh = line_height_mm(size)
    # A key wider than its column (a longer word in another language) widens the column.
    key_w = max([key_w] + [text_width_mm(key, size, "Helvetica-Bold") + 3 for key, _ in rows])
    for key, value in rows:
        items.append(Text(x, y, key, size, "Helvetica-Bold"))
        lines = wrap(value, width - key_w, size)
        for i, line in enumerate(lines):
            items.append(Text(x + key_w, y + i * lh, line, size))
        y += lh * len(lines) + 1.2
    return items, y


def card_document(card: PrintCard) -> Document:
    """The card laid out on one A4 page (mm, origin top-left)."""
    w, h = PAGE_MM
    x, right = MARGIN_MM, w - MARGIN_MM
    width = right - x
    items: list = []
    y = MARGIN_MM + 6
    items.append(Text(x, y, card.title, 18, "Helvetica-Bold"))
    y += 7
    items.append(Text(x, y, card.subtitle, 10, colour=GREY))
    y += 10

    def heading(text: str) -> None:
        nonlocal y
        items.append(Text(x, y, text, 12, "Helvetica-Bold"))
        # the rule 1.5 mm under the heading's descenders, the next line 1.5 mm under the rule
        items.append(Line(x, y + HEADING_RULE_MM, right, y + HEADING_RULE_MM, line_mm=0.35))
        y += HEADING_STEP_MM

    heading("Printer and slicer")
    rows, y = _key_values(card.settings, x, y, 32, width, 9.5)
    items += rows
    y += SECTION_GAP_MM

    heading("Parts")
    cols = (x, x + 52, x + 112, x + 130, x + 152)  # part, orientation, copies, time, filament
    for cx, label in zip(cols, ("Part and file", "Orientation on the bed", "Copies", "Time each", "Filament each")):
        items.append(Text(cx, y, label, 8.5, "Helvetica-Bold", colour=GREY))
    y += PARTS_HEAD_MM
    total_s, total_g, total_m, missing = 0, 0.0, 0.0, False
    for p in card.parts:
        # the row's grey ground: its words 1.5 mm inside it on every side
        items.append(Rect(x - ROW_PAD_MM, y - 4.2, width + 2 * ROW_PAD_MM, ROW_H_MM, stroke=None, fill=0.94))
        items.append(Text(cols[0], y, p.name, 9.5, "Helvetica-Bold"))
        items.append(Text(cols[0], y + 4.3, p.file, 7, colour=GREY))
        orientation = wrap(p.orientation, cols[2] - cols[1] - 2, 8.5)
        if len(orientation) > 2:
            raise ValueError(f"the orientation of {p.name} takes {len(orientation)} lines; its row holds 2")
        for i, line in enumerate(orientation):
            items.append(Text(cols[1], y + i * 3.8, line, 8.5))
        items.append(Text(cols[2] + 6, y, str(p.copies), 9.5, anchor="middle"))
        if p.print_time_s is None:
            items.append(Text(cols[3], y, "not sliced", 8.5, colour=GREY))
            missing = True
        else:
            items.append(Text(cols[3], y, duration_text(p.print_time_s), 9.5))
            items.append(Text(cols[4], y, f"{p.filament_g:.1f} g, {p.filament_m:.2f} m", 9.5))
            total_s += p.copies * p.print_time_s
            total_g += p.copies * p.filament_g
            total_m += p.copies * p.filament_m
        y += 12
    total = f"All parts, every copy: {duration_text(total_s)}, {total_g:.0f} g, {total_m:.1f} m of filament"
    if missing:
        total = "Parts marked 'not sliced': install prusa-slicer and rebuild to get their estimates"
    for line in wrap(total, width, 9.5, "Helvetica-Bold"):
        items.append(Text(x, y, line, 9.5, "Helvetica-Bold"))
        y += line_height_mm(9.5)
    y += 10 - line_height_mm(9.5)

    if card.to_printer:
        heading("Onto the Dremel 3D45")
        rows, y = _key_values(card.to_printer, x, y, 32, width, 9.5)
        items += rows
        y += SECTION_GAP_MM

    heading("To buy and to assemble")
    rows, y = _key_values(card.assembly, x, y, 32, width, 9.5)
    items += rows
    y += SECTION_GAP_MM

    heading("Notes")
    for note in card.notes:
        for line in wrap(note, width, 8.5):
            items.append(Text(x, y, line, 8.5, colour=GREY))
            y += line_height_mm(8.5)
        y += 1.5
    if y > h - MARGIN_MM:
        raise ValueError(f"the print settings card runs {y - (h - MARGIN_MM):.0f} mm off the page")
    pages = [Page(w, h, tuple(items))]
    if card.board is not None:
        from printables.render.giuthi_assembly import assembly_items

        heading_items = [Text(x, MARGIN_MM + 6, "Assembly", 18, "Helvetica-Bold")]
        drawing, bottom = assembly_items(card.board, x, MARGIN_MM + 20, width)
        if bottom > h - MARGIN_MM:
            raise ValueError(f"the assembly drawing runs {bottom - (h - MARGIN_MM):.0f} mm off the page")
        pages.append(Page(w, h, tuple(heading_items + drawing)))
    return Document(
        pages=tuple(pages),
        title=card.title,
        subject=json.dumps(dict(card.params), sort_keys=True),
        keywords=f"printables:{CARD_KIND}",
    )


def card_in_language(card: PrintCard, lang: str = "en") -> Document:
    """The card laid out and translated into ``lang`` (printables/i18n: the pass every sheet takes);
    the subject records ``lang``."""
    from printables.layout.language import drawing_in
    from printables.layout.translation import translate_document

    with drawing_in(lang) as paragraphs:
        document = card_document(card)
    return translate_document(document, lang, paragraphs)


def write_print_card(card: PrintCard, out_path: Path | str, lang: str = "en") -> Path:
    """Write the card in ``lang`` as a one-page PDF (atomically); the same card gives the same bytes."""
    return write_atomic(Path(out_path), render_pdf(card_in_language(card, lang)))
