"""Check a sheet's lettering: no text runs out of its box or over other text (every sheet), and the
words of a translated sheet are in the language recorded in its parameters (measured with the embedded font's own widths).
That every character has a glyph in the embedded font is the preflight's "glyphs" check (every PDF).

Reads the PDF back with pdfplumber. What a sheet "says" in a language comes from the catalogues
(printables/i18n/*.toml, data), never from layout or render code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from printables.check.results import CheckResult
from printables.i18n import DEFAULT_LANG, LANG_NAMES, LANGS, catalogue

# English texts every sheet of a kind shows (its catalogue entry is looked for in the sheet's
# language); the calibration caption is on every page and every card face.
CALIBRATION = "print at 100 % / actual size"
KEY_PHRASES: dict[str, tuple[str, ...]] = {
    "harvest": ("The Bitcoin Harvest", "Harvester", "Coins harvested", "Total", CALIBRATION),
    "minefield": ("Minefield", "Hard corner", "Black joins top and bottom", CALIBRATION),
    "patchwork": ("Patchwork", CALIBRATION),
    "peas": ("Breakfast Shy", "Smushed peas", CALIBRATION),
    "giuthi-rules": ("Giuthi — rules to play by", "Capture chain", "South"),
    "giuthi-print-settings": ("Giuthi — print settings", "Printer and slicer", "Parts", "To buy and to assemble"),
}
OVERFLOW_TOLERANCE_MM = 0.3  # ink may touch its frame; more than this is running out of it
OVERLAP_SHARE = 0.3  # two words whose boxes share this much of the smaller one's height collide


def lang_of(params: dict) -> str:
    """The language recorded in a sheet's parameters (English for sheets made before languages)."""
    lang = params.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        raise ValueError(f"lang {lang!r} is not one of {', '.join(LANGS)}")
    return lang


def said(lang: str, english: str) -> str:
    """How an English text or fragment reads on a sheet in ``lang`` (the catalogue's words)."""
    return catalogue(lang).phrase(english)


def said_regex(lang: str, english: str, **fields: str) -> str:
    """A regex for the text ``english`` (with {fields}) as it reads in ``lang``; each field
    becomes the regex given for it."""
    pieces, last = [], 0
    text = said(lang, english)
    for match in re.finditer(r"\{([a-z_]+)\}", text):
        pieces.append(re.escape(text[last:match.start()]))
        pieces.append(fields[match.group(1)])
        last = match.end()
    pieces.append(re.escape(text[last:]))
    return "".join(pieces)


def _flat(text: str) -> str:
    return " ".join(text.split())


def check_language(kind: str, lang: str, pages_text: list[str]) -> CheckResult:
    """The sheet reads in ``lang``: the translations of its kind's key phrases are on it."""
    text = _flat(" ".join(pages_text))
    phrases = [said(lang, p) for p in KEY_PHRASES.get(kind, (CALIBRATION,))]
    missing = [p for p in phrases if _flat(p) not in text]
    if lang == "ko":
        letters = [ch for ch in text if ch.isalpha()]
        hangul = sum("\uac00" <= ch <= "\ud7a3" for ch in letters)
        if letters and hangul < 0.5 * len(letters):
            missing.append(f"Hangul is only {hangul} of {len(letters)} letters")
    name = LANG_NAMES[lang]
    return CheckResult("language", not missing,
                       f"not in {name}: no {', '.join(repr(m) for m in missing)}" if missing
                       else f"{name}: {len(phrases)} key phrases found")


@dataclass(frozen=True)
class _Box:
    x0: float
    top: float
    x1: float
    bottom: float

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.top <= y <= self.bottom

    @property
    def area(self) -> float:
        return (self.x1 - self.x0) * (self.bottom - self.top)


def check_text_fits(source) -> CheckResult:
    """No word runs past the frame it starts in (the smallest rectangle around its first letter),
    or off the page, and no two words are printed over each other. Widths are the embedded
    font's own (the PDF's /Widths), as read back.

    ``source`` is the PDF's path, or its drawing already read (:func:`printables.check.pdf.read_pdf`):
    the words and rectangles are those pdfplumber read, each page once."""
    from printables.check.pdf import PdfDrawing, read_pdf

    drawing = source if isinstance(source, PdfDrawing) else read_pdf(source)
    problems: list[str] = []
    words_seen = 0
    for number, page in enumerate(drawing.read_pages or drawing.pages, 1):
        frames = [_Box(b.x0, b.top, b.x1, b.bottom) for b in page.boxes]
        frames = [f for f in frames if f.x1 - f.x0 > 1.0 and f.bottom - f.top > 1.0]
        page_box = _Box(0.0, 0.0, page.width, page.height)
        words = [(w.text, _Box(w.x0, w.top, w.x1, w.bottom)) for w in page.words]
        words_seen += len(words)
        tol = OVERFLOW_TOLERANCE_MM
        for text, box in words:
            start = (box.x0 + 0.2, (box.top + box.bottom) / 2)
            around = [f for f in frames if f.holds(*start)]
            frame = min(around, key=lambda f: f.area) if around else page_box
            if box.x1 > frame.x1 + tol or box.x0 < frame.x0 - tol or box.bottom > frame.bottom + tol or box.top < frame.top - tol:
                where = "the page" if frame is page_box else f"its {frame.x1 - frame.x0:.1f} x {frame.bottom - frame.top:.1f} mm frame"
                problems.append(f"page {number}: {text!r} runs out of {where} by "
                                f"{max(box.x1 - frame.x1, frame.x0 - box.x0, box.bottom - frame.bottom, frame.top - box.top):.1f} mm")
        ordered = sorted(words, key=lambda w: w[1].x0)
        for i, (text, a) in enumerate(ordered):
            for other, b in ordered[i + 1:]:
                if b.x0 >= a.x1 - tol:
                    break
                shared = min(a.bottom, b.bottom) - max(a.top, b.top)
                if shared > OVERLAP_SHARE * min(a.bottom - a.top, b.bottom - b.top):
                    problems.append(f"page {number}: {text!r} and {other!r} are printed over each other")
    return CheckResult("text fits", not problems, "; ".join(problems[:6]) + (f" (+{len(problems) - 6} more)" if len(problems) > 6 else "")
                       or f"{words_seen} words, each inside its frame and clear of the others")


def check_lettering(path: Path, kind: str, params: dict, pages_text: list[str], drawing=None) -> list[CheckResult]:
    """The fit check on every sheet (no word out of its frame, off the page or over another), and
    the language check on a translated one (English is the layouts' own language).

    ``drawing``, when given, is the file already read: the fit check uses its words and rectangles."""
    lang = lang_of(params)
    fits = check_text_fits(path if drawing is None else drawing)
    if lang == DEFAULT_LANG:
        return [fits]
    return [check_language(kind, lang, pages_text), fits]
