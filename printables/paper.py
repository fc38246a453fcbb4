"""Paper and card sizes in millimetres (portrait: width < height)."""

from __future__ import annotations

from printables.errors import ParameterError

MM_PER_INCH = 25.4
POINTS_PER_MM = 72 / MM_PER_INCH

PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a5": (148.0, 210.0),
    "a6": (105.0, 148.0),
    "4x6": (101.6, 152.4),
}
SHEET_PAPERS = ("a4", "letter", "a5")


def page_size_mm(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height in mm of a named paper size, turned if ``landscape``."""
    try:
        width, height = PAPER_SIZES_MM[paper]
    except KeyError:
        raise ParameterError(
            f"paper {paper!r}: use one of {', '.join(PAPER_SIZES_MM)}"
        ) from None
    return (height, width) if landscape else (width, height)


def mm_to_pt(value_mm: float) -> float:
    """Millimetres to PDF points."""
    return value_mm * POINTS_PER_MM


def pt_to_mm(value_pt: float) -> float:
    """PDF points to millimetres."""
    return value_pt / POINTS_PER_MM
