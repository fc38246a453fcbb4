"""The language a sheet is laid out in: while a layout runs in one (``drawing_in``), ``wrap`` and
``text_width_mm`` (printables/layout/primitives.py) measure its paragraphs as they will print.

Layouts draw in English; printables/layout/translation.py swaps every text for its translation
once the sheet is laid out. Paragraphs are the one exception: their line breaks depend on the
language, so while a sheet is laid out in a language, ``wrap`` asks ``wrap_active`` to translate
the whole paragraph first and break it with the real font metrics; the layout then allocates the
lines it really gets.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import TYPE_CHECKING

from printables.i18n import DEFAULT_LANG, Translated, require_lang
from printables.i18n.fonts import width_mm
from printables.linebreak import glue_words, is_leading_mark, is_trailing_mark

if TYPE_CHECKING:
    from printables.i18n.books import Catalogue

_ACTIVE: contextvars.ContextVar[str] = contextvars.ContextVar("printables_lang", default=DEFAULT_LANG)
# Paragraphs translated while drawing: a layout may re-wrap part of one (the lines it did not place).
_WRAPPED: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("printables_wrapped", default=None)


def catalogue(lang: str) -> Catalogue:
    """The catalogue of ``lang``, read from ``printables.i18n.books`` at each call (a test may swap it)."""
    from printables.i18n import books  # here: an English sheet never loads the catalogues

    return books.catalogue(lang)


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


def in_language(book: Catalogue, text: str, paragraphs=None) -> str:
    """``text`` in the book's language: translated, or already a piece of a paragraph translated
    while the sheet was drawn (``paragraphs``; those of the running ``drawing_in`` when None)."""
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
    lang = _ACTIVE.get()
    if lang == DEFAULT_LANG:
        return text
    translated = in_language(catalogue(lang), text)
    _WRAPPED.get().append(" ".join(translated.split()))
    return translated


def width_active(text: str, size_pt: float, font: str = "Helvetica") -> float | None:
    """Width in mm of ``text`` as it prints in the active language, or None when drawing English."""
    lang = _ACTIVE.get()
    if lang == DEFAULT_LANG:
        return None
    return width_mm(in_language(catalogue(lang), text), size_pt, lang, font)


def wrap_active(text: str, width: float, size_pt: float, font: str = "Helvetica") -> list[str] | None:
    """``text`` translated into the active language and broken into lines no wider than ``width``
    mm, or None for English."""
    lang = _ACTIVE.get()
    if lang == DEFAULT_LANG:
        return None
    translated = in_language(catalogue(lang), text)
    _WRAPPED.get().append(" ".join(translated.split()))
    return [Translated(line) for line in break_lines(translated, width, lambda s: width_mm(s, size_pt, lang, font))]


def break_lines(text: str, width_mm: float, measure) -> list[str]:
    """Greedy line breaking at spaces (Korean separates words with spaces too); a word wider than
    the line is broken between characters (Hangul syllables may break anywhere), unless every place
    in it is one where a line may not break (a word and the lone marks glued to it): then it
    stands whole on its line. A word that starts
    with a separator or closing mark stays with the word before it, one that ends with an opening
    mark with the word after it (printables/linebreak.py)."""
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
            # never leave a mark where a line may not start (a separator, a closing mark) or end,
            # nor cut at a space a mark is glued over
            allowed = [k for k in range(1, len(word)) if not (
                word[k].isspace() or word[k - 1].isspace() or is_trailing_mark(word[k]) or is_leading_mark(word[k - 1]))]
            if not allowed:  # only marks and spaces a mark is glued over: no cut is legal, it stays whole
                break
            fits = [k for k in allowed if measure(word[:k]) <= width_mm]
            cut = max(fits) if fits else min(allowed)
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines
