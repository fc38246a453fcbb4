"""Parameters of a Patchwork print-and-play sheet, validated when built."""

from __future__ import annotations

import math
from dataclasses import dataclass

from printables.errors import ParameterError
from printables.i18n import require_lang
from printables.paper import SHEET_PAPERS
from printables.rules import patchwork

PARTS = ("patches", "quilts", "track", "extras", "all")
INKS = ("full", "low")
MIN_CELL_MM = 10.0  # smallest square that still holds a patch's cost and time readably
MAX_CELL_MM = 30.0  # beyond any paper we print on; the layout names the largest that fits


@dataclass(frozen=True, slots=True)
class PatchworkSheet:
    """What a Patchwork sheet shows: which part, paper, cell size, leather edition and ink."""

    part: str = "all"
    paper: str = "a4"
    cell_mm: float | None = None  # None: the largest round size up to 20 mm that fits the quilt
    leather: str = patchwork.DEFAULT_EDITION
    ink: str = "full"
    lang: str = "en"  # en, ko or tr: the language every text of the sheet is in

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", require_lang(self.lang))
        if self.part not in PARTS:
            raise ParameterError(f"part {self.part!r}: use one of {', '.join(PARTS)}")
        if self.paper not in SHEET_PAPERS:
            raise ParameterError(f"paper {self.paper!r}: use one of {', '.join(SHEET_PAPERS)}")
        if self.cell_mm is not None:
            if isinstance(self.cell_mm, bool) or not isinstance(self.cell_mm, (int, float)) or not math.isfinite(self.cell_mm):
                raise ParameterError(f"cell {self.cell_mm!r}: give the square's side in mm, e.g. 20")
            if self.cell_mm < MIN_CELL_MM:
                raise ParameterError(
                    f"cell {self.cell_mm:g} mm: squares must be at least {MIN_CELL_MM:g} mm to hold a patch's numbers"
                )
            if self.cell_mm > MAX_CELL_MM:
                raise ParameterError(f"cell {self.cell_mm:g} mm: squares of at most {MAX_CELL_MM:g} mm fit any paper")
            object.__setattr__(self, "cell_mm", float(self.cell_mm))
        if self.leather not in patchwork.EDITIONS:
            raise ParameterError(f"leather {self.leather!r}: use one of {', '.join(patchwork.EDITIONS)}")
        if self.ink not in INKS:
            raise ParameterError(f"ink {self.ink!r}: use one of {', '.join(INKS)}")

    @property
    def low_ink(self) -> bool:
        """Whether to draw outlines and symbols only, without fills."""
        return self.ink == "low"

    def parts(self) -> tuple[str, ...]:
        """The parts this sheet prints, in page order."""
        return PARTS[:-1] if self.part == "all" else (self.part,)

    def file_stem(self) -> str:
        """A file name derived from the parameters (defaults left out)."""
        parts = ["patchwork"]
        if self.part != "all":
            parts.append(self.part)
        parts.append(self.paper)
        if self.cell_mm is not None:
            parts.append(f"{self.cell_mm:g}mm")
        if self.leather != patchwork.DEFAULT_EDITION:
            parts.append(self.leather)
        if self.low_ink:
            parts.append("low-ink")
        if self.lang != "en":
            parts.append(self.lang)
        return "-".join(parts)
