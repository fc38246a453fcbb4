"""The one font every PDF uses: Noto Sans, embedded and subset, and NanumGothic for Hangul.

Layouts name faces the PostScript way ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique"); this
module maps every such name to a Noto Sans face, finds the face's TrueType file, and is the one
place for text metrics (advance widths from the font's own ``hmtx`` table: a table stored in the
package for the known files, checked by SHA-256; read with fontTools from any other file).
It imports no reportlab: the renderer registers the files found here with reportlab itself.

Where a face's file is found, first to last (``font_file``):
1. the face's own file (NotoSans-Regular.ttf, NanumGothic.ttf, ...) in ``PRINTABLES_FONT_DIR``,
   then in the OS font folders (Debian/Ubuntu, Fedora, Arch, macOS, Windows, the user's own);
2. the files that come with ``pip install``: NanumGothic from koreanize-matplotlib, Noto Sans from
   fontpkg-noto-sans, whose files are variable fonts: regular and italic are their default
   instances as they are; bold and bold italic are instanced from them with fontTools once and
   kept in the user's cache folder;
3. for Hangul only, the OS's own Korean face (Malgun Gothic on Windows, AppleGothic on macOS).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from functools import lru_cache
from importlib.util import find_spec
from itertools import repeat
from pathlib import Path

from printables.errors import ParameterError
from printables.linebreak import glue_words

FAMILY = "Noto Sans"
DEBIAN_PACKAGE = "fonts-noto-core"
FONT_DIR_ENV = "PRINTABLES_FONT_DIR"


def _os_font_dirs() -> tuple[str, ...]:
    """The folders where the OSes and their font packages put TrueType files, this system's first."""
    home = Path.home()
    linux = (
        "/usr/share/fonts/truetype/noto", "/usr/share/fonts/truetype/nanum",  # Debian, Ubuntu
        "/usr/share/fonts/google-noto", "/usr/share/fonts/naver-nanum",  # Fedora
        "/usr/share/fonts/noto", "/usr/share/fonts/TTF",  # Arch
        "/usr/share/fonts/nanum", "/usr/local/share/fonts",
        str(home / ".local/share/fonts"), str(home / ".fonts"),
    )
    macos = (str(home / "Library/Fonts"), "/Library/Fonts", "/System/Library/Fonts/Supplemental", "/System/Library/Fonts")
    windir = os.environ.get("WINDIR") or os.environ.get("SystemRoot") or r"C:\Windows"
    local = os.environ.get("LOCALAPPDATA")
    windows = (str(Path(windir) / "Fonts"),) + ((str(Path(local) / "Microsoft/Windows/Fonts"),) if local else ())
    if sys.platform == "win32":
        return windows
    if sys.platform == "darwin":
        return macos + linux
    return linux + macos


# Where the OSes install fonts; PRINTABLES_FONT_DIR is searched before them.
FONT_DIRS = _os_font_dirs()

# Face -> (name registered with reportlab, TrueType file name).
FACES = {
    "regular": ("NotoSans", "NotoSans-Regular.ttf"),
    "bold": ("NotoSans-Bold", "NotoSans-Bold.ttf"),
    "italic": ("NotoSans-Italic", "NotoSans-Italic.ttf"),
    "bold-italic": ("NotoSans-BoldItalic", "NotoSans-BoldItalic.ttf"),
    # Korean sheets (printables/i18n): Noto Sans has no Hangul; NanumGothic does.
    "korean": ("NanumGothic", "NanumGothic.ttf"),
    "korean-bold": ("NanumGothicBold", "NanumGothicBold.ttf"),
}
# Face -> (family, Debian package) where it is not Noto Sans.
OTHER_FAMILIES = {"korean": ("NanumGothic", "fonts-nanum"), "korean-bold": ("NanumGothic", "fonts-nanum")}

# Face -> (the Python package installed with printables that holds it, the file inside it).
PACKAGE_FILES = {
    "regular": ("fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf"),  # its default instance: Regular
    "italic": ("fontpkg_noto_sans", "files/NotoSans-Italic[wdth,wght].ttf"),  # default: Italic
    "korean": ("koreanize_matplotlib", "fonts/NanumGothic.ttf"),
    "korean-bold": ("koreanize_matplotlib", "fonts/NanumGothicBold.ttf"),
}
# Face -> (the face whose variable font it is an instance of, the axis values). reportlab embeds a
# variable font's default outlines only, so these are made as fonts of their own.
INSTANCES = {
    "bold": ("regular", (("wght", 700), ("wdth", 100))),
    "bold-italic": ("italic", (("wght", 700), ("wdth", 100))),
}
PIP_PACKAGES = {"regular": "fontpkg-noto-sans", "italic": "fontpkg-noto-sans", "bold": "fontpkg-noto-sans",
                "bold-italic": "fontpkg-noto-sans", "korean": "koreanize-matplotlib", "korean-bold": "koreanize-matplotlib"}
# Face -> the OS's own faces that may stand in (TrueType outlines reportlab can embed: not the CFF
# of Noto Sans CJK; Apple SD Gothic Neo is a .ttc collection), by file name: Malgun Gothic (Windows),
# AppleGothic (macOS).
OS_STAND_INS = {"korean": ("malgun.ttf", "AppleGothic.ttf"), "korean-bold": ("malgunbd.ttf", "AppleGothic.ttf")}

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
    return ((extra,) if extra else ()) + tuple(FONT_DIRS)


def _in_folders(file_name: str) -> Path | None:
    """The first file of that name in the font folders, or None."""
    for folder in font_dirs():
        path = Path(folder) / file_name
        if path.is_file():
            return path
    return None


def package_file(face: str) -> Path | None:
    """The file of a face shipped by a Python package installed with printables, or None.

    The package is located, not imported (koreanize_matplotlib would import matplotlib).
    """
    if face not in PACKAGE_FILES:
        return None
    module, inner = PACKAGE_FILES[face]
    try:
        spec = find_spec(module)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or ()) if spec else ():
        path = Path(folder) / inner
        if path.is_file():
            return path
    return None


def cache_dir() -> Path:
    """The user's cache folder for printables (fonts instanced from a variable font)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData/Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library/Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "printables"


def instance_file(face: str) -> Path | None:
    """A face instanced from the variable font it is part of, made once and kept in ``cache_dir()``.

    The file's name holds the source's SHA-256 and the fontTools version, which alone decide its bytes.
    """
    if face not in INSTANCES:
        return None
    source_face, axes = INSTANCES[face]
    source = package_file(source_face)
    if source is None:
        return None
    import fontTools
    from fontTools.ttLib import TTFont
    from fontTools.varLib.instancer import instantiateVariableFont

    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = cache_dir() / f"{Path(FACES[face][1]).stem}-{digest}-fonttools{fontTools.version}.ttf"
    if target.is_file():
        return target
    # updateFontNames: the instance's own PostScript name (reportlab tells embedded faces apart by it)
    font = instantiateVariableFont(TTFont(str(source), recalcTimestamp=False), dict(axes), updateFontNames=True)
    buffer = io.BytesIO()
    font.save(buffer)
    from printables.fileio import write_atomic

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return write_atomic(target, buffer.getvalue())
    except OSError:  # no usable cache (HOME missing, read-only or a file): a copy for this process only
        return write_atomic(_process_font_folder() / target.name, buffer.getvalue())


FONT_SCRATCH_PREFIX = "printables-font-"


@lru_cache(maxsize=None)
def _process_font_folder() -> Path:
    """This process's font folder, ``$TMPDIR/printables-font-<pid>-...``: removed as the process
    exits or, if it is killed, by the next process that makes one, once this one has ended."""
    import atexit
    import shutil
    import tempfile

    from printables.fileio import sweep_stale

    parent = Path(tempfile.gettempdir())
    sweep_stale(parent, FONT_SCRATCH_PREFIX)  # once per process: it would take this process's own too
    folder = Path(tempfile.mkdtemp(prefix=f"{FONT_SCRATCH_PREFIX}{os.getpid()}-", dir=parent))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def missing_message(face: str) -> str:
    """One line: which font is missing, where it was looked for, and what to install."""
    _, file_name = FACES[face]
    family, package = OTHER_FAMILIES.get(face, (FAMILY, DEBIAN_PACKAGE))
    return (f"font {family} not found ({file_name} in {', '.join(font_dirs())}, nor the Python package "
            f"{PIP_PACKAGES[face]}): install it with `pip install {PIP_PACKAGES[face]}` (it comes with printables) "
            f"or `apt-get install {package}`, or set {FONT_DIR_ENV} to the folder holding {file_name}")


@lru_cache(maxsize=None)
def font_file(face: str) -> Path:
    """The TrueType file of a face; a missing file is one clear error naming the package to install."""
    _, file_name = FACES[face]
    found = _in_folders(file_name) or package_file(face) or instance_file(face)
    for stand_in in OS_STAND_INS.get(face, ()):
        found = found or _in_folders(stand_in)
    if found is None:
        raise FontMissing(missing_message(face))
    return found


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


def metrics_table_path(path: Path) -> Path:
    """Where the precomputed metrics of a font file of that name are stored in the package."""
    return METRICS_DIR / (Path(path).stem + ".json")


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


def _stored_metrics(path: Path) -> Metrics | None:
    """The stored metrics of a font file if they were measured from this very file, else None."""
    try:
        table = json.loads(metrics_table_path(path).read_text(encoding="utf-8"))
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
    return _stored_metrics(path) or measure_face(path)


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
    """The words of ``text`` (split at white space, lone marks glued: printables/linebreak.py), each one's advance units, and each one's with a
    space before it: what breaking the text into lines adds up, measured once per text and face."""
    metrics = _metrics(face_of(font))
    found = _PARAGRAPHS.get((text, font))
    if found is not None and found[0] is metrics:  # measured with these very metrics
        return found[1]
    words = tuple(glue_words(text.split()))  # a lone '·' stays with the word before it
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
