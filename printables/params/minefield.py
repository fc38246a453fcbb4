"""Parameters of a Minefield board sheet, validated when built."""

from __future__ import annotations

from dataclasses import dataclass

from printables.errors import ParameterError
from printables.i18n import require_lang
from printables.paper import SHEET_PAPERS
from printables.rules import minefield

DEFAULT_SIZE = 11  # points per side
MIN_CELL_MM = 6.0  # smallest cell a stone (or a pencilled circle) sits in comfortably
MAX_CELL_MM = 40.0  # larger cells are not a board any more
MAX_PER_PAGE = 16


@dataclass(frozen=True)
class MinefieldSheet:
    """What a Minefield sheet shows: board size, cell size, paper and boards per page.

    Whether the board fits the page is decided by the layout (it knows the margins, bands and
    legend), which refuses a size whose cells would be smaller than ``MIN_CELL_MM``.
    """

    size: int = DEFAULT_SIZE
    cell_mm: float | None = None  # None: as large as fits, up to the layout's comfortable maximum
    paper: str = "a4"
    landscape: bool = False
    per_page: int = 1
    lang: str = "en"  # en, ko or tr: the language every text of the sheet is in

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", require_lang(self.lang))
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size < minefield.MIN_SIZE:
            raise ParameterError(
                f"size {self.size!r}: a Minefield board has at least {minefield.MIN_SIZE} cells per side"
            )
        if self.cell_mm is not None:
            if (
                not isinstance(self.cell_mm, (int, float))
                or isinstance(self.cell_mm, bool)
                or not MIN_CELL_MM <= self.cell_mm <= MAX_CELL_MM
            ):
                raise ParameterError(
                    f"cell {self.cell_mm!r} mm: use {MIN_CELL_MM:g} to {MAX_CELL_MM:g} mm "
                    "(or leave it out for the largest that fits)"
                )
            object.__setattr__(self, "cell_mm", float(self.cell_mm))
        if self.paper not in SHEET_PAPERS:
            raise ParameterError(f"paper {self.paper!r}: use one of {', '.join(SHEET_PAPERS)}")
        if not isinstance(self.landscape, bool):
            raise ParameterError(f"landscape {self.landscape!r}: use true or false")
        if not isinstance(self.per_page, int) or isinstance(self.per_page, bool) or not 1 <= self.per_page <= MAX_PER_PAGE:
            raise ParameterError(f"per page {self.per_page!r}: use 1 to {MAX_PER_PAGE}")

    def file_stem(self) -> str:
        """A file name derived from the parameters."""
        parts = [f"minefield-{self.size}x{self.size}", self.paper]
        if self.landscape:
            parts.append("landscape")
        if self.cell_mm is not None:
            parts.append(f"{self.cell_mm:g}mm")
        if self.per_page > 1:
            parts.append(f"{self.per_page}up")
        if self.lang != "en":
            parts.append(self.lang)
        return "-".join(parts)
