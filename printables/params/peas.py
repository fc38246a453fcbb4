"""Parameters of a Breakfast Shy postcard (or a sheet of them), validated when built.

Besides the parameters this module holds the facts that the layout and the check share about a
card without either importing the other: postcard sizes, how many cards a sheet holds
(:func:`imposition`), the colour of the card's top band and bottom stripe (how a checker finds a
card on the page), and how the difficulty of a layout is measured.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from printables.errors import ParameterError
from printables.i18n import require_lang
from printables.paper import PAPER_SIZES_MM
from printables.rules import peas

POSTCARDS = ("a6", "4x6")
SHEET_PAPERS = ("none", "a4", "letter")  # none: one card per page, the page the size of the card
BLEEDS_MM = (0.0, 3.0)
MIN_PEA_MM = 10.0  # a digit written in pencil needs about this much room
MAX_PEA_MM = 20.0  # larger peas are more card than game
MAX_RECTANGLE_SIDE = 12  # no card has room for more peas in a row at MIN_PEA_MM
# The most peas any card holds across and down, at MIN_PEA_MM on the largest card turned the best
# way (landscape for columns, portrait for rows; tests/test_peas_limits.py measures both). A layout
# wider or taller is refused at once, before it is analysed or laid out.
MAX_LAYOUT_COLS = 11
MAX_LAYOUT_ROWS = 8

# Crop marks: thin lines on the extension of each cut line, this far from the trim (outside any
# bleed) and this long. Every mark has exactly this length, which is how a checker tells them apart.
MARK_OFFSET_MM = 2.0
MARK_LENGTH_MM = 5.0
MARK_LINE_MM = 0.15
# With bleed, the cards of a sheet need a gutter for two bleeds and room for the marks outside.
BLEED_EDGE_MM = MARK_OFFSET_MM + MARK_LENGTH_MM
# A home printer cannot print within about 5 mm of the paper's edge: on a sheet of cards nothing
# but paper lies there, so the cards and their marks stand at least this far in. Only an explicit
# borderless sheet (for a printer that prints to the edge, or a print shop) butts them to the edge.
SAFE_ZONE_MM = 5.0

# The card's drawing convention: its top band and bottom stripe are filled with this green and run
# to the trim (or over it by the bleed) on three sides, so the card's trim box can be read back.
BAND_RGB = (0.36, 0.55, 0.2)

# How a layout that is not a preset is measured for the card's difficulty line (presets use the
# rule core's EXPECTED_SMUSHED, measured with 400 look-ahead games).
ANALYSIS_POLICY = "lookahead"
ANALYSIS_GAMES = 60
ANALYSIS_SEED = 0


# A home printer shifts the back of a duplex page by a few mm; an offset beyond this is a mistake.
MAX_BACK_OFFSET_MM = 10.0


def format_offset(offset) -> str:
    """An offset as the user types it: ``1.5,-2``."""
    return ",".join(f"{v:g}" for v in offset)


def parse_back_offset(value) -> tuple[float, float]:
    """The back offset (x, y) in mm from "X,Y" text or a pair of numbers, each within
    ``MAX_BACK_OFFSET_MM``; anything else is a ParameterError naming the value."""
    allowed = (f"use two numbers in mm, X,Y (right and down as you look at the back), each from "
               f"{-MAX_BACK_OFFSET_MM:g} to {MAX_BACK_OFFSET_MM:g}, e.g. 1.5,-2")
    parts = value.split(",") if isinstance(value, str) else value
    try:
        numbers = [float(p) for p in parts] if not isinstance(parts, (int, float)) else None
    except (TypeError, ValueError):
        numbers = None
    if (numbers is None or len(numbers) != 2 or any(isinstance(p, bool) for p in parts)
            or not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in numbers)):
        shown = repr(value) if isinstance(value, str) else str(list(value) if isinstance(value, (list, tuple)) else value)
        raise ParameterError(f"back offset {shown}: {allowed}")
    return (numbers[0] + 0.0, numbers[1] + 0.0)  # -0.0 reads as 0


def postcard_size_mm(postcard: str, landscape: bool) -> tuple[float, float]:
    """Width and height of a postcard in mm, turned sideways if ``landscape``."""
    if postcard not in POSTCARDS:
        raise ParameterError(f"postcard {postcard!r}: use one of {', '.join(POSTCARDS)}")
    short, long = PAPER_SIZES_MM[postcard]
    return (long, short) if landscape else (short, long)


@dataclass(frozen=True)
class Imposition:
    """How cards sit on a sheet: page size, grid of cards and the gutter between them, in mm."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    gutter: float

    @property
    def count(self) -> int:
        """Cards on one page."""
        return self.cols * self.rows

    @property
    def page_landscape(self) -> bool:
        """True if the page is wider than tall."""
        return self.page_w > self.page_h


def _fits(length: float, card: float, gutter: float, edge: float) -> int:
    """How many cards of ``card`` mm fit along ``length`` mm with gutters and edges."""
    n = 0
    while (n + 1) * card + n * gutter + 2 * edge <= length + 1e-9:
        n += 1
    return n


def sheet_edge_mm(bleed: float, borderless: bool) -> float:
    """The least paper between the paper's edge and a card's trim on a sheet of cards."""
    if borderless:
        return 0.0
    return bleed + BLEED_EDGE_MM + SAFE_ZONE_MM


def imposition(postcard: str, landscape: bool, paper: str, bleed: float, borderless: bool = False) -> Imposition:
    """The sheet for ``paper``: the page turned whichever way holds the most cards, never scaled.

    The cards share their cut lines (with bleed they stand apart by two bleeds); crop marks go
    outside them and everything stays out of the 5 mm a home printer cannot print, so 2 A6 fit an
    A4. ``borderless`` butts the cards to the paper's edge (4 x A6 fill an A4 exactly).
    Between equal counts the page with the wider smallest margin wins.
    """
    card_w, card_h = postcard_size_mm(postcard, landscape)
    if paper == "none":
        return Imposition(card_w + 2 * bleed, card_h + 2 * bleed, 1, 1, 0.0)
    if paper not in PAPER_SIZES_MM or paper not in SHEET_PAPERS:
        raise ParameterError(f"paper {paper!r}: use one of {', '.join(SHEET_PAPERS)}")
    gutter = 2 * bleed
    edge = sheet_edge_mm(bleed, borderless)
    best: tuple[tuple[int, float], Imposition] | None = None
    short, long = PAPER_SIZES_MM[paper]
    for page_w, page_h in ((short, long), (long, short)):
        cols = _fits(page_w, card_w, gutter, edge)
        rows = _fits(page_h, card_h, gutter, edge)
        if cols * rows == 0:
            continue
        margin = min(page_w - cols * card_w - (cols - 1) * gutter, page_h - rows * card_h - (rows - 1) * gutter)
        key = (cols * rows, margin)
        if best is None or key > best[0]:
            best = (key, Imposition(page_w, page_h, cols, rows, gutter))
    if best is None:
        raise ParameterError(f"paper {paper!r}: a {postcard} card with {bleed:g} mm bleed does not fit on it")
    return best[1]


POSTCARD_WORDS = {"a6": "A6", "4x6": "4x6 in"}
PAPER_WORDS = {"a4": "A4", "letter": "Letter"}


@lru_cache(maxsize=1)
def borderless_gains() -> dict[tuple[str, str], tuple[int, int]]:
    """The (postcard, paper) sheets that hold more cards borderless, with the counts without and with
    it (A6 on A4: 2 and 4). Elsewhere borderless would only switch off the safe zone."""
    gains = {}
    for postcard in POSTCARDS:
        for paper in SHEET_PAPERS:
            if paper == "none":
                continue
            home = imposition(postcard, True, paper, 0.0).count
            edge = imposition(postcard, True, paper, 0.0, borderless=True).count
            if edge > home:
                gains[(postcard, paper)] = (home, edge)
    return gains


@dataclass(frozen=True)
class PeaCard:
    """A Breakfast Shy postcard: pea layout, card format, sheet, bleed, pea size and back page."""

    layout: str = peas.DEFAULT_LAYOUT_NAME  # a preset name (see rules.peas.LAYOUTS) or a mask
    rows: int | None = None  # rows/cols: a full rectangle instead of a layout (the other side: 5 rows, 7 cols)
    cols: int | None = None
    postcard: str = "a6"
    landscape: bool = True
    paper: str = "none"
    bleed: float = 0.0
    pea_mm: float | None = None  # None: the largest from 14 mm down to 10 mm that fits the card
    back: bool = False
    borderless: bool = False  # a sheet whose cards reach the paper's edge (4 x A6 on A4)
    lang: str = "en"  # en, ko or tr: the language every text of the sheet is in
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm the back pages move (right, down as the back is seen)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", require_lang(self.lang))
        object.__setattr__(self, "back_offset", parse_back_offset(self.back_offset))
        if self.back_offset != (0.0, 0.0) and not self.back:
            raise ParameterError(f"back offset {format_offset(self.back_offset)} mm: it moves the back pages; add the back (--back)")
        if self.back_offset != (0.0, 0.0) and self.paper == "none":
            raise ParameterError(f"back offset {format_offset(self.back_offset)} mm: only for a sheet of cards (paper a4 or letter); "
                                 "a page the size of the card has no paper around it to move into")
        if not isinstance(self.layout, str):
            raise ParameterError(f"layout {self.layout!r}: give a preset name ({', '.join(peas.LAYOUTS)}) or a mask such as ooo/o.o/ooo")
        if self.layout.strip().lower() in peas.LAYOUTS:  # preset names in any case, kept in lower case
            object.__setattr__(self, "layout", self.layout.strip().lower())
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RECTANGLE_SIDE
            ):
                raise ParameterError(f"{name} {value!r}: use a whole number from 1 to {MAX_RECTANGLE_SIDE}")
        if (self.rows is not None or self.cols is not None) and self.layout.strip() != peas.DEFAULT_LAYOUT_NAME:
            raise ParameterError(
                f"layout {self.layout!r} and rows/cols: give either a layout or rows and cols, not both"
            )
        _refuse_oversized_mask(self.layout)
        try:
            self.card_layout()
        except peas.LayoutError as error:
            raise ParameterError(f"layout {self._layout_words()}: {error}") from None
        if self.postcard not in POSTCARDS:
            raise ParameterError(f"postcard {self.postcard!r}: use one of {', '.join(POSTCARDS)}")
        if not isinstance(self.landscape, bool):
            raise ParameterError(f"landscape {self.landscape!r}: use true or false")
        if self.paper not in SHEET_PAPERS:
            raise ParameterError(f"paper {self.paper!r}: use one of {', '.join(SHEET_PAPERS)}")
        if isinstance(self.bleed, bool) or not isinstance(self.bleed, (int, float)) or float(self.bleed) not in BLEEDS_MM:
            raise ParameterError(f"bleed {self.bleed!r} mm: use {' or '.join(f'{b:g}' for b in BLEEDS_MM)}")
        object.__setattr__(self, "bleed", float(self.bleed))
        if self.pea_mm is not None:
            if isinstance(self.pea_mm, bool) or not isinstance(self.pea_mm, (int, float)) or not MIN_PEA_MM <= self.pea_mm <= MAX_PEA_MM:
                raise ParameterError(
                    f"pea {self.pea_mm!r} mm: use {MIN_PEA_MM:g} to {MAX_PEA_MM:g} mm (a digit must fit in a pea)"
                )
            object.__setattr__(self, "pea_mm", float(self.pea_mm))
        if not isinstance(self.back, bool):
            raise ParameterError(f"back {self.back!r}: use true or false")
        if not isinstance(self.borderless, bool):
            raise ParameterError(f"borderless {self.borderless!r}: use true or false")
        if self.borderless and self.paper == "none":
            raise ParameterError("borderless: only a sheet of cards (paper a4 or letter) can be borderless")
        if self.borderless and self.bleed:
            raise ParameterError(
                f"borderless with bleed {self.bleed:g} mm: a bleed sheet keeps its crop marks outside the bleed; use one or the other"
            )
        if self.borderless:
            gained = borderless_gains()
            count = imposition(self.postcard, self.landscape, self.paper, 0.0).count
            if (self.postcard, self.paper) not in gained:
                where = "; ".join(f"{POSTCARD_WORDS[p]} cards on {PAPER_WORDS[q]} ({n} up instead of {m})"
                                  for (p, q), (m, n) in gained.items())
                raise ParameterError(
                    f"borderless: {POSTCARD_WORDS[self.postcard]} cards on {PAPER_WORDS[self.paper]} go {count} up "
                    f"with or without it; it only fills the sheet edge to edge for {where}"
                )

    def _layout_words(self) -> str:
        if self.rows is not None or self.cols is not None:
            return f"{self._rectangle()[0]}x{self._rectangle()[1]}"
        return repr(self.layout)

    def _rectangle(self) -> tuple[int, int]:
        default = peas.DEFAULT_LAYOUT
        return (self.rows or default.rows, self.cols or default.cols)

    def card_layout(self) -> peas.Layout:
        """The pea layout of the card, from the rule core."""
        if self.rows is not None or self.cols is not None:
            return peas.Layout.rectangle(*self._rectangle())
        return peas.resolve_layout(self.layout)

    def layout_name(self) -> str | None:
        """The preset name of the card's layout, or None for a layout of one's own."""
        layout = self.card_layout().normalised()
        for name, preset in peas.LAYOUTS.items():
            if preset.normalised() == layout:
                return name
        return None

    def is_rectangle(self) -> bool:
        """True if the layout is a full rectangle of peas."""
        layout = self.card_layout().normalised()
        return len(layout) == layout.rows * layout.cols

    def card_size_mm(self) -> tuple[float, float]:
        """Width and height of the card (trim size) in mm."""
        return postcard_size_mm(self.postcard, self.landscape)

    def imposition(self) -> Imposition:
        """The page and the grid of cards on it."""
        return imposition(self.postcard, self.landscape, self.paper, self.bleed, self.borderless)

    def file_stem(self) -> str:
        """A file name derived from the parameters, e.g. ``peas-default-a6-2up-a4``."""
        name = self.layout_name()
        layout = self.card_layout().normalised()
        if name is None and self.is_rectangle():
            name = f"{layout.rows}x{layout.cols}grid"
        elif name is None:
            name = "mask-" + hashlib.sha1(str(layout).encode()).hexdigest()[:8]
        parts = ["peas", name, self.postcard]
        if not self.landscape:
            parts.append("portrait")
        if self.pea_mm is not None:
            parts.append(f"{self.pea_mm:g}mm")
        if self.paper != "none":
            parts.append(f"{self.imposition().count}up-{self.paper}")
        if self.borderless:
            parts.append("borderless")
        if self.bleed:
            parts.append(f"bleed{self.bleed:g}")
        if self.back:
            parts.append("back")
        if self.back_offset != (0.0, 0.0):
            parts.append(f"offset{format_offset(self.back_offset)}")
        if self.lang != "en":
            parts.append(self.lang)
        return "-".join(parts)


def _refuse_oversized_mask(text: str) -> None:
    """Refuse a mask wider or taller than any card holds, reading only where its peas stand (a
    150 x 150 mask would otherwise be built and measured for minutes before it is refused)."""
    if text.strip() in peas.LAYOUTS:
        return
    rows = re.split(r"[/\n]", text.strip())
    filled = [r for r, row in enumerate(rows) if "o" in row]
    if not filled:
        return  # the rule core says what is wrong with it
    height = filled[-1] - filled[0] + 1
    width = max(row.strip().rfind("o") for row in rows) - min(
        row.strip().find("o") for row in rows if "o" in row) + 1
    if height > MAX_LAYOUT_ROWS or width > MAX_LAYOUT_COLS:
        raise ParameterError(
            f"layout mask of {height} row{'s' * (height != 1)} x {width} column{'s' * (width != 1)}: no postcard holds more than {MAX_LAYOUT_ROWS} rows"
            f" or {MAX_LAYOUT_COLS} columns of peas (at {MIN_PEA_MM:g} mm); use a smaller layout"
        )


def expected_smushed(layout: peas.Layout, name: str | None) -> float:
    """The mean smushed peas printed on the card: the preset's measured value, else a fresh measure."""
    if name is not None:
        return peas.EXPECTED_SMUSHED[name]
    from printables.rules.peas_play import analyse_layout  # here: a card of a preset layout needs no play

    analysis = analyse_layout(layout, games=ANALYSIS_GAMES, seed=ANALYSIS_SEED, policy=ANALYSIS_POLICY)
    return round(analysis.mean, 2)


CALIBRATION_PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class DuplexCalibration:
    """A two-sided test page that measures a printer's duplex shift (``printables peas --calibrate-duplex``)."""

    paper: str = "a4"
    lang: str = "en"  # the page's words are English only for now; the numbers read the same in any language

    def __post_init__(self) -> None:
        if self.paper not in CALIBRATION_PAPERS:
            raise ParameterError(f"paper {self.paper!r}: use one of {', '.join(CALIBRATION_PAPERS)}")
        if self.lang != "en":
            raise ParameterError(f"lang {self.lang!r}: the duplex test page is in English only for now "
                                 "(its scales read the same in any language); leave out --lang")

    def file_stem(self) -> str:
        """``duplex-calibration-a4``."""
        return f"duplex-calibration-{self.paper}"
