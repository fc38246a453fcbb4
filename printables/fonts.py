"""The one font every PDF uses: Noto Sans (Debian's fonts-noto-core), embedded and subset.

Layouts name faces the PostScript way ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique"); this
module maps every such name to a Noto Sans face, finds the face's TrueType file, and is the one
place for text metrics (advance widths from the font's own ``hmtx`` table: a table stored in the
package for the installed files, checked by SHA-256; read with fontTools from any other file).
It imports no reportlab: the renderer registers the files found here with reportlab itself.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from itertools import repeat
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


# Precomputed metrics of each face (tools/font_table.py writes them from the installed files): reading
# a face with fontTools costs ~60 ms of a sheet command's start-up, the stored table ~1 ms. A table
# is used only if the installed file has the SHA-256 it was measured from; any other file is read.
METRICS_DIR = Path(__file__).with_name("fontdata")

Metrics = tuple[int, dict[int, int], int, int]


def measure_face(path: Path) -> Metrics:
    """Units per em, advance width per code point, cap height and .notdef advance, read from a font file."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as font:
        units = font["head"].unitsPerEm
        hmtx = font["hmtx"].metrics
        advances = {code: hmtx[glyph][0] for code, glyph in font.getBestCmap().items()}
        cap = getattr(font["OS/2"], "sCapHeight", 0) or int(units * 0.714)
        notdef = hmtx[font.getGlyphOrder()[0]][0]
    return units, advances, cap, notdef


def metrics_table_path(face: str) -> Path:
    """Where the precomputed metrics of a face are stored in the package."""
    return METRICS_DIR / (Path(FACES[face][1]).stem + ".json")


def table_of(path: Path, metrics: Metrics) -> dict:
    """The stored form of a face's metrics: the file's size and SHA-256, code points as runs."""
    units, advances, cap, notdef = metrics
    data = path.read_bytes()
    codes = sorted(advances)
    runs: list[list[int]] = []
    for code in codes:
        if runs and runs[-1][0] + runs[-1][1] == code:
            runs[-1][1] += 1
        else:
            runs.append([code, 1])
    return {
        "file": path.name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
        "units_per_em": units, "cap_height": cap, "notdef_advance": notdef,
        "code_runs": runs, "advances": [advances[code] for code in codes],
    }


def _stored_metrics(face: str, path: Path) -> Metrics | None:
    """The stored metrics of a face if they were measured from this very file, else None."""
    try:
        table = json.loads(metrics_table_path(face).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    data = path.read_bytes()
    if len(data) != table["size"] or hashlib.sha256(data).hexdigest() != table["sha256"]:
        return None
    codes = [code for start, count in table["code_runs"] for code in range(start, start + count)]
    return table["units_per_em"], dict(zip(codes, table["advances"])), table["cap_height"], table["notdef_advance"]


@lru_cache(maxsize=None)
def _metrics(face: str) -> Metrics:
    """Units per em, advance width per code point, cap height and the .notdef advance of a face."""
    path = font_file(face)
    return _stored_metrics(face, path) or measure_face(path)


def has_glyph(text: str, font: str = "Helvetica") -> bool:
    """Whether the face has a glyph for every character of ``text``."""
    _, advances, _, _ = _metrics(face_of(font))
    return all(ord(ch) in advances for ch in text)


def advance_units(text: str, font: str = "Helvetica") -> int:
    """The sum of the advance widths of ``text``'s characters in font units (.notdef for a missing glyph)."""
    _, advances, _, notdef = _metrics(face_of(font))
    return sum(map(advances.get, map(ord, text), repeat(notdef)))


_PARAGRAPHS: dict[tuple[str, str], tuple[Metrics, tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]]] = {}


def word_units(text: str, font: str = "Helvetica") -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """The words of ``text`` (split at white space), each one's advance units, and each one's with a
    space before it: what breaking the text into lines adds up, measured once per text and face."""
    metrics = _metrics(face_of(font))
    found = _PARAGRAPHS.get((text, font))
    if found is not None and found[0] is metrics:  # measured with these very metrics
        return found[1]
    words = tuple(text.split())
    measured = (words, tuple(advance_units(word, font) for word in words),
                tuple(advance_units(f" {word}", font) for word in words))
    if len(_PARAGRAPHS) >= 512:
        _PARAGRAPHS.clear()
    _PARAGRAPHS[text, font] = (metrics, measured)
    return measured


def units_per_em(font: str = "Helvetica") -> int:
    """The font units in one em of a face (what ``units_to_mm`` divides by)."""
    return _metrics(face_of(font))[0]


def units_to_mm(units_sum: int, size_pt: float, font: str = "Helvetica") -> float:
    """A width in font units (see ``advance_units``) set at ``size_pt``, in mm."""
    return units_sum / _metrics(face_of(font))[0] * size_pt * PT_TO_MM


def text_width_mm(text: str, size_pt: float, font: str = "Helvetica") -> float:
    """The width of ``text`` set in ``font`` at ``size_pt``, in mm, from the font's own advance widths."""
    return units_to_mm(advance_units(text, font), size_pt, font)


def cap_height_mm(size_pt: float, font: str = "Helvetica") -> float:
    """The height of a capital letter of ``font`` at ``size_pt``, in mm (to centre labels)."""
    units, _, cap, _ = _metrics(face_of(font))
    return cap / units * size_pt * PT_TO_MM
