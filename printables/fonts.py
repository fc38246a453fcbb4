"""The one font every PDF uses: Noto Sans (Debian's fonts-noto-core), embedded and subset.

Layouts name faces the PostScript way ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique"); this
module maps every such name to a Noto Sans face, finds the face's TrueType file, and is the one
place for text metrics (advance widths from the font's own ``hmtx`` table, read with fontTools).
It imports no reportlab: the renderer registers the files found here with reportlab itself.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from printables.errors import ParameterError

FAMILY = "Noto Sans"
DEBIAN_PACKAGE = "fonts-noto-core"
# Where Debian and Ubuntu install the family; PRINTABLES_FONT_DIR overrides it (another system).
FONT_DIRS = ("/usr/share/fonts/truetype/noto", "/usr/share/fonts/truetype/nanum")
FONT_DIR_ENV = "PRINTABLES_FONT_DIR"

# Face -> (name registered with reportlab, TrueType file name).
FACES = {
    "regular": ("NotoSans", "NotoSans-Regular.ttf"),
    "bold": ("NotoSans-Bold", "NotoSans-Bold.ttf"),
    "italic": ("NotoSans-Italic", "NotoSans-Italic.ttf"),
    "bold-italic": ("NotoSans-BoldItalic", "NotoSans-BoldItalic.ttf"),
    # Korean sheets (printables/i18n): Noto Sans has no Hangul; NanumGothic (fonts-nanum) does.
    "korean": ("NanumGothic", "NanumGothic.ttf"),
    "korean-bold": ("NanumGothicBold", "NanumGothicBold.ttf"),
}
# Face -> (family, Debian package) where it is not Noto Sans.
OTHER_FAMILIES = {"korean": ("NanumGothic", "fonts-nanum"), "korean-bold": ("NanumGothic", "fonts-nanum")}

# Font names a layout may ask for -> face. The base-14 names are only names here: nothing is ever
# drawn in a font that is not embedded.
FONT_NAMES = {
    "Helvetica": "regular",
    "Helvetica-Bold": "bold",
    "Helvetica-Oblique": "italic",
    "Helvetica-BoldOblique": "bold-italic",
    "NotoSans": "regular",
    "NotoSans-Bold": "bold",
    "NotoSans-Italic": "italic",
    "NotoSans-BoldItalic": "bold-italic",
    "NanumGothic": "korean",
    "NanumGothicBold": "korean-bold",
}
PT_TO_MM = 25.4 / 72


class FontMissing(ParameterError):
    """The font files are not installed (reported as one line, exit 2)."""


def face_of(font: str) -> str:
    """The face ("regular", "bold", ...) a layout's font name stands for; unknown names are refused."""
    try:
        return FONT_NAMES[font]
    except KeyError:
        raise ValueError(f"font {font!r}: use one of {', '.join(sorted(FONT_NAMES))}") from None


def font_dirs() -> tuple[str, ...]:
    """The folders searched for the font files, the override first."""
    extra = os.environ.get(FONT_DIR_ENV)
    return ((extra,) if extra else ()) + FONT_DIRS


@lru_cache(maxsize=None)
def font_file(face: str) -> Path:
    """The TrueType file of a face; a missing file is one clear error naming the package to install."""
    _, file_name = FACES[face]
    for folder in font_dirs():
        path = Path(folder) / file_name
        if path.is_file():
            return path
    family, package = OTHER_FAMILIES.get(face, (FAMILY, DEBIAN_PACKAGE))
    raise FontMissing(
        f"font {family} not found ({file_name} in {', '.join(font_dirs())}): "
        f"install it with `apt-get install {package}` or set {FONT_DIR_ENV} to the folder holding it"
    )


def registered_name(font: str) -> str:
    """The name under which the renderer registers the face a layout's font name stands for."""
    return FACES[face_of(font)][0]


@lru_cache(maxsize=None)
def _metrics(face: str) -> tuple[int, dict[int, int], int, int]:
    """Units per em, advance width per code point, cap height and the .notdef advance of a face."""
    from fontTools.ttLib import TTFont

    with TTFont(str(font_file(face)), lazy=True) as font:
        units = font["head"].unitsPerEm
        hmtx = font["hmtx"].metrics
        advances = {code: hmtx[glyph][0] for code, glyph in font.getBestCmap().items()}
        cap = getattr(font["OS/2"], "sCapHeight", 0) or int(units * 0.714)
        notdef = hmtx[font.getGlyphOrder()[0]][0]
    return units, advances, cap, notdef


def has_glyph(text: str, font: str = "Helvetica") -> bool:
    """Whether the face has a glyph for every character of ``text``."""
    _, advances, _, _ = _metrics(face_of(font))
    return all(ord(ch) in advances for ch in text)


def text_width_mm(text: str, size_pt: float, font: str = "Helvetica") -> float:
    """The width of ``text`` set in ``font`` at ``size_pt``, in mm, from the font's own advance widths."""
    units, advances, _, notdef = _metrics(face_of(font))
    return sum(advances.get(ord(ch), notdef) for ch in text) / units * size_pt * PT_TO_MM


def cap_height_mm(size_pt: float, font: str = "Helvetica") -> float:
    """The height of a capital letter of ``font`` at ``size_pt``, in mm (to centre labels)."""
    units, _, cap, _ = _metrics(face_of(font))
    return cap / units * size_pt * PT_TO_MM
