"""Sheets in the players' languages: catalogues as data, and one pass that translates a laid-out page.

English is the source. ``<lang>.toml`` beside this module maps every English text a player reads
to its translation: ``[text]`` exact strings (titles, labels, whole paragraphs) and ``[pattern]``
strings with named fields (``"{n} players" = "{n}인"``); a field's value is translated too when
the catalogue knows it. A line joined with `` · `` is translated part by part.

The pass runs once, where a sheet is rendered (printables/sheets.py): layout draws in English,
``translate_document`` swaps every text for its translation and every font for the language's
face. Paragraphs are the one exception: their line breaks depend on the language, so while a
sheet is laid out in a language (``drawing_in``), ``layout.primitives.wrap`` asks ``wrap_active``
to translate the whole paragraph first and break it with the real font metrics; the layout then
allocates the lines it really gets.

The catalogues themselves (reading ``<lang>.toml``, looking texts up) are in ``books.py``, loaded
the first time a sheet is drawn in another language or any of their names is asked of this module.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

from printables.errors import ParameterError
from printables.lazy import lazy_names

if TYPE_CHECKING:
    from printables.i18n.books import Catalogue

LANGS = ("en", "ko", "tr")
DEFAULT_LANG = "en"
LANG_NAMES = {"en": "English", "ko": "Korean", "tr": "Turkish"}
CATALOGUE_DIR = Path(__file__).resolve().parent
PART_SEPARATOR = " · "


def require_lang(value) -> str:
    """``value`` as a language code of ours, or a ParameterError naming what is allowed."""
    if not isinstance(value, str) or value.lower() not in LANGS:
        raise ParameterError(f"lang {value!r}: use one of {', '.join(LANGS)}")
    return value.lower()


class MissingTranslation(LookupError):
    """A text a player reads has no entry in the language's catalogue."""


class Translated(str):
    """A line already in the page's language (a wrapped paragraph): the pass leaves it as it is."""

    __slots__ = ()


# The catalogues (printables/i18n/books.py) load on first use of any of these names: an English
# sheet never reads one.
_BOOK_NAMES = frozenset({
    "WORD_RE", "FIELD_RE", "SOWING_RE", "FILE_RE", "LIST_SEPARATOR", "needs_translation", "Catalogue",
    "catalogue", "_reverse", "_reverse_patterns", "_pattern_regex",
})


__getattr__, __dir__ = lazy_names(globals(), "printables.i18n.books", _BOOK_NAMES)


def _catalogue(lang: str) -> Catalogue:
    """``catalogue(lang)``, the function this module holds now (loaded on first use; a test may swap it)."""
    found = globals().get("catalogue") or __getattr__("catalogue")
    return found(lang)


# ---- the pass ------------------------------------------------------------------------------------

def translate_items(items, lang: str, paragraphs: tuple[str, ...] = ()) -> tuple:
    """The layout items with every Text in ``lang`` and set in its face; pure, never draws.

    ``paragraphs``: translations made while the sheet was laid out; a line cut from one is kept."""
    from printables.i18n.fonts import face_for
    from printables.layout.primitives import Text

    if lang == DEFAULT_LANG:
        return tuple(items)
    book = _catalogue(lang)
    return tuple(
        dataclasses.replace(item, text=_in_language(book, item.text, paragraphs), font=face_for(lang, item.font))
        if isinstance(item, Text) else item
        for item in _restack_vertical_words(tuple(items), book)
    )


def _restack_vertical_words(items: tuple, book: Catalogue) -> tuple:
    """A word set as letters one under another (Minefield's WHITE band label, no rotated text) is
    replaced by its translation's letters, equally spaced about the same centre."""
    from printables.layout.primitives import Text

    def letter(item) -> bool:
        return isinstance(item, Text) and len(item.text) == 1 and item.text.isascii() and item.text.isupper()

    out: list = []
    i = 0
    while i < len(items):
        j = i
        while (j + 1 < len(items) and letter(items[i]) and letter(items[j + 1])
               and items[j + 1].x == items[i].x and items[j + 1].y > items[j].y):
            j += 1
        run = items[i:j + 1]
        word = "".join(t.text for t in run) if len(run) >= 3 else ""
        if word in book.texts:
            step = (run[-1].y - run[0].y) / (len(run) - 1)
            centre = (run[0].y + run[-1].y) / 2
            letters = book.texts[word].replace(" ", "")
            out += [dataclasses.replace(run[0], y=centre + (k - (len(letters) - 1) / 2) * step, text=Translated(ch))
                    for k, ch in enumerate(letters)]
            i = j + 1
        else:
            out.append(items[i])
            i += 1
    return tuple(out)


def translate_document(document, lang: str, paragraphs=()):
    """The document with its pages and title in ``lang``, and ``lang`` recorded in its parameters."""
    from printables.layout.primitives import Page

    lang = require_lang(lang)
    subject = json.loads(document.subject)
    subject["lang"] = lang
    return dataclasses.replace(
        document,
        pages=tuple(Page(p.width, p.height, translate_items(p.items, lang, tuple(paragraphs))) for p in document.pages),
        title=document.title if lang == DEFAULT_LANG else _catalogue(lang).translate(document.title),
        subject=json.dumps(subject, sort_keys=True),
    )


# ---- paragraphs: translated whole, then broken with the real metrics -----------------------------

_ACTIVE: contextvars.ContextVar[str] = contextvars.ContextVar("printables_lang", default=DEFAULT_LANG)
# Paragraphs translated while drawing: a layout may re-wrap part of one (the lines it did not place).
_WRAPPED: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("printables_wrapped", default=None)


@contextlib.contextmanager
def drawing_in(lang: str):
    """While the block runs, layout's ``wrap`` and ``text_width_mm`` work in ``lang``; yields the list
    of paragraphs translated meanwhile (for ``translate_document``: a layout may break one itself)."""
    token = _ACTIVE.set(require_lang(lang))
    paragraphs: list[str] = []
    wrapped = _WRAPPED.set(paragraphs)
    try:
        yield paragraphs
    finally:
        _WRAPPED.reset(wrapped)
        _ACTIVE.reset(token)


def active_lang() -> str:
    """The language the sheet is being drawn in (``drawing_in``); English outside it."""
    return _ACTIVE.get()


def _in_language(book: Catalogue, text: str, paragraphs=None) -> str:
    """``text`` in the book's language: translated, or already a piece of a paragraph translated
    while the sheet was drawn."""
    found = book.lookup(text)
    if found is not None:
        return found
    flat = " ".join(text.split())
    if paragraphs is None:
        paragraphs = _WRAPPED.get() or ()
    if flat and any(flat in done for done in paragraphs):
        return str(text)
    return book.translate(text)  # raises MissingTranslation naming the text


def in_page_language(text: str) -> str:
    """A paragraph in the language the sheet is being drawn in, for a layout that breaks lines itself."""
    book, _ = _active()
    if book is None:
        return text
    translated = _in_language(book, text)
    _WRAPPED.get().append(" ".join(translated.split()))
    return translated


def _active():
    lang = _ACTIVE.get()
    if lang == DEFAULT_LANG:
        return None, None
    from printables.i18n.fonts import width_mm

    return _catalogue(lang), lambda text, size_pt, font: width_mm(text, size_pt, lang, font)


def width_active(text: str, size_pt: float, font: str = "Helvetica") -> float | None:
    """Width in mm of ``text`` as it prints in the active language, or None when drawing English."""
    book, measure = _active()
    if book is None:
        return None
    return measure(_in_language(book, text), size_pt, font)


def wrap_active(text: str, width_mm: float, size_pt: float, font: str = "Helvetica") -> list[str] | None:
    """``text`` translated into the active language and broken into lines, or None for English."""
    book, measure = _active()
    if book is None:
        return None
    translated = _in_language(book, text)
    _WRAPPED.get().append(" ".join(translated.split()))
    return [Translated(line) for line in break_lines(translated, width_mm, lambda s: measure(s, size_pt, font))]


def break_lines(text: str, width_mm: float, measure) -> list[str]:
    """Greedy line breaking at spaces (Korean separates words with spaces too); a word wider than
    the line is broken between characters (Hangul syllables may break anywhere). A lone separator or
    closing mark stays with the word before it, an opening mark with the word after it."""
    from printables.linebreak import glue_words, is_leading_mark, is_trailing_mark

    lines: list[str] = []
    current = ""
    for word in glue_words(text.split()):
        candidate = f"{current} {word}" if current else word
        if measure(candidate) <= width_mm:
            current = candidate
            continue
        if current:
            lines.append(current)
        while measure(word) > width_mm and len(word) > 1:
            # never leave a mark where a line may not start (a separator, a closing mark) or end
            # (nor at a space a mark is glued over)
            allowed = [k for k in range(1, len(word)) if not (
                word[k].isspace() or word[k - 1].isspace() or is_trailing_mark(word[k]) or is_leading_mark(word[k - 1]))]
            fits = [k for k in allowed if measure(word[:k]) <= width_mm]
            cut = max(fits) if fits else min(allowed, default=1)
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines
