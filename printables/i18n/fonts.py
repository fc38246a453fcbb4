"""The TrueType faces each language is printed in, and their real metrics (fontTools, no reportlab).

Korean needs Hangul (NanumGothic, Debian package fonts-nanum); Turkish needs ğ ş ı İ (Noto Sans,
fonts-noto-core). Layout measures text with the same files the renderer embeds, so a wrapped line
is exactly as wide on paper as it was when it was wrapped.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from printables.errors import ParameterError

PT_TO_MM = 25.4 / 72


@dataclass(frozen=True)
class Face:
    """A TrueType font file known by a PDF font name, and the Debian package that installs it."""

    name: str
    path: Path
    package: str


NANUM = Path("/usr/share/fonts/truetype/nanum")
NOTO = Path("/usr/share/fonts/truetype/noto")

# PDF font name -> face. Every one is a glyf (TrueType-outline) font, which reportlab embeds subset.
FACES: dict[str, Face] = {
    face.name: face
    for face in (
        Face("NanumGothic", NANUM / "NanumGothic.ttf", "fonts-nanum"),
        Face("NanumGothicBold", NANUM / "NanumGothicBold.ttf", "fonts-nanum"),
        Face("NotoSans-Regular", NOTO / "NotoSans-Regular.ttf", "fonts-noto-core"),
        Face("NotoSans-Bold", NOTO / "NotoSans-Bold.ttf", "fonts-noto-core"),
        Face("NotoSans-Italic", NOTO / "NotoSans-Italic.ttf", "fonts-noto-core"),
    )
}

# lang -> (regular, bold, italic) face names; en keeps the fonts the layout chose.
LANG_FACES: dict[str, tuple[str, str, str]] = {
    "ko": ("NanumGothic", "NanumGothicBold", "NanumGothic"),  # Hangul has no italic; upright it is
    "tr": ("NotoSans-Regular", "NotoSans-Bold", "NotoSans-Italic"),
}


def face_for(lang: str, font: str) -> str:
    """The face a text set in ``font`` by the layout is printed in for ``lang``."""
    if lang not in LANG_FACES:
        return font
    regular, bold, italic = LANG_FACES[lang]
    if "Bold" in font:
        return bold
    if "Oblique" in font or "Italic" in font:
        return italic
    return regular


def font_file(name: str) -> Path | None:
    """The TrueType file of a face name of ours (None for anything else, e.g. the standard 14)."""
    face = FACES.get(name)
    if face is None:
        return None
    if not face.path.is_file():
        raise ParameterError(f"font {face.path} is missing: install the Debian package {face.package} "
                             f"(apt-get install {face.package})")
    return face.path


@dataclass(frozen=True)
class Metrics:
    """Advance widths of one font file: measure text in mm exactly as the PDF will set it."""

    units_per_em: int
    advances: dict[int, int]  # code point -> advance in font units
    missing_advance: int

    def width_mm(self, text: str, size_pt: float) -> float:
        """Width of ``text`` set at ``size_pt``, in mm."""
        units = sum(self.advances.get(ord(ch), self.missing_advance) for ch in text)
        return units / self.units_per_em * size_pt * PT_TO_MM

    def covers(self, ch: str) -> bool:
        """True if the font has a glyph for ``ch``."""
        return ord(ch) in self.advances


@functools.lru_cache(maxsize=None)
def metrics(name: str) -> Metrics:
    """The metrics of a face of ours, read from its file."""
    from fontTools.ttLib import TTFont

    path = font_file(name)
    if path is None:
        raise KeyError(name)
    font = TTFont(str(path), lazy=True)
    hmtx = font["hmtx"]
    advances = {code: hmtx[glyph][0] for code, glyph in font.getBestCmap().items()}
    return Metrics(font["head"].unitsPerEm, advances, hmtx[font.getGlyphOrder()[0]][0])
