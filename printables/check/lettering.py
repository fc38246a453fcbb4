"""Check a sheet's lettering: no text runs out of its box or over other text (every sheet), and the
words of a translated sheet are in the language recorded in its parameters (measured with the embedded font's own widths).
That every character has a glyph in the embedded font is the preflight's "glyphs" check (every PDF).

Reads the PDF back (printables/check/pdf.py, through pypdfium2); what the sheet should say in its
language comes from printables/check/language.py.
"""

from __future__ import annotations

import bisect
import math
from pathlib import Path
from typing import NamedTuple

from printables.check.language import CALIBRATION, KEY_PHRASES, lang_of, said
from printables.check.pdf import PdfDrawing, read_pdf
from printables.check.results import CheckResult
from printables.i18n import DEFAULT_LANG, LANG_NAMES

OVERFLOW_TOLERANCE_MM = 0.3  # ink may touch its frame; more than this is running out of it
OVERLAP_SHARE = 0.3  # two words whose boxes share this much of the smaller one's height collide


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


class _Box(NamedTuple):
    x0: float
    top: float
    x1: float
    bottom: float

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.top <= y <= self.bottom

    @property
    def area(self) -> float:
        return (self.x1 - self.x0) * (self.bottom - self.top)


GRID_MM = 5.0  # cell of the index that finds a word's frames
BAND_MM = 2.0  # band of the index that finds the words beside a word's line
INDEX_REACH_MM = 10.0  # the indexes cover the page and this much around it; beyond, every frame is looked at


def _cells(lo: float, hi: float, size: float, low: float, high: float) -> range:
    """Index cells of ``size`` that [lo, hi], clipped to [low, high], touches."""
    return range(math.floor(max(lo, low) / size), math.floor(min(hi, high) / size) + 1)


class _Frames:
    """The frames of a page, found by where a point is: a grid of cells, each listing (in page
    order) the frames over it. ``around`` gives what a look at every frame would, in its order."""

    def __init__(self, frames: list[_Box], width: float, height: float):
        self.frames = frames
        self.x_range = (-INDEX_REACH_MM, width + INDEX_REACH_MM)
        self.y_range = (-INDEX_REACH_MM, height + INDEX_REACH_MM)
        self.grid: dict[tuple[int, int], list[_Box]] | None = {}
        try:
            for f in frames:
                for cx in _cells(f.x0, f.x1, GRID_MM, *self.x_range):
                    for cy in _cells(f.top, f.bottom, GRID_MM, *self.y_range):
                        self.grid.setdefault((cx, cy), []).append(f)
        except (ValueError, OverflowError):  # a coordinate that is not a number: look at every frame
            self.grid = None

    def around(self, x: float, y: float) -> list[_Box]:
        """The frames holding (x, y), in page order."""
        (xl, xh), (yl, yh) = self.x_range, self.y_range
        if self.grid is None or not (xl <= x <= xh and yl <= y <= yh):
            return [f for f in self.frames if f.holds(x, y)]
        return [f for f in self.grid.get((math.floor(x / GRID_MM), math.floor(y / GRID_MM)), ()) if f.holds(x, y)]


def _overlapping(ordered: list[tuple[str, _Box]], tol: float, height: float):
    """(i, j), i < j, of the words (ordered by x0) whose boxes overlap in x (j starts left of
    i's end less ``tol``) and share some height, i ascending and then j: each pair that the
    full look (every j after i until one starts right of i's end) would test with a shared height."""
    boxes = [b for _, b in ordered]
    if any(not (b.top <= b.bottom) or b.x0 != b.x0 or b.x1 != b.x1 for b in boxes):
        # an upside-down or not-a-number box: test every pair the full look would
        for i, a in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                if boxes[j].x0 >= a.x1 - tol:
                    break
                yield i, j
        return
    low, high = -INDEX_REACH_MM, height + INDEX_REACH_MM
    bands: dict[int, list[int]] = {}
    spans = []
    for i, b in enumerate(boxes):
        if b.bottom < low or b.top > high:  # off the indexed height: one band of its own per side
            span = [("below" if b.bottom < low else "above")]
        else:
            span = list(_cells(b.top, b.bottom, BAND_MM, low, high))
            if b.top < low:
                span.append("below")
            if b.bottom > high:
                span.append("above")
        spans.append(span)
        for k in span:
            bands.setdefault(k, []).append(i)
    for i, a in enumerate(boxes):
        found = set()
        for k in spans[i]:
            members = bands[k]
            for j in members[bisect.bisect_right(members, i):]:
                if boxes[j].x0 >= a.x1 - tol:
                    break
                found.add(j)
        for j in sorted(found):
            yield i, j


def check_text_fits(source) -> CheckResult:
    """No word runs past the frame it starts in (the smallest rectangle around its first letter),
    or off the page, and no two words are printed over each other. Widths are the embedded
    font's own (the PDF's /Widths), as read back.

    ``source`` is the PDF's path, or its drawing already read (:func:`printables.check.pdf.read_pdf`):
    the words and rectangles are those read from the file (check/pages.py), each page once. A word's frames are found
    with a grid over the page, the words it could be printed over with bands along its height
    (the same frames and pairs as looking at every one)."""
    drawing = source if isinstance(source, PdfDrawing) else read_pdf(source)
    problems: list[str] = []
    words_seen = 0
    for number, page in enumerate(drawing.read_pages or drawing.pages, 1):
        frames = [_Box(b.x0, b.top, b.x1, b.bottom) for b in page.boxes]
        frames = [f for f in frames if f.x1 - f.x0 > 1.0 and f.bottom - f.top > 1.0]
        index = _Frames(frames, page.width, page.height)
        page_box = _Box(0.0, 0.0, page.width, page.height)
        words = [(w.text, _Box(w.x0, w.top, w.x1, w.bottom)) for w in page.words]
        words_seen += len(words)
        tol = OVERFLOW_TOLERANCE_MM
        for text, box in words:
            start = (box.x0 + 0.2, (box.top + box.bottom) / 2)
            around = index.around(*start)
            frame = min(around, key=lambda f: f.area) if around else page_box
            if box.x1 > frame.x1 + tol or box.x0 < frame.x0 - tol or box.bottom > frame.bottom + tol or box.top < frame.top - tol:
                where = "the page" if frame is page_box else f"its {frame.x1 - frame.x0:.1f} x {frame.bottom - frame.top:.1f} mm frame"
                problems.append(f"page {number}: {text!r} runs out of {where} by "
                                f"{max(box.x1 - frame.x1, frame.x0 - box.x0, box.bottom - frame.bottom, frame.top - box.top):.1f} mm")
        ordered = sorted(words, key=lambda w: w[1].x0)
        for i, j in _overlapping(ordered, tol, page.height):
            (text, a), (other, b) = ordered[i], ordered[j]
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
