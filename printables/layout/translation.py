"""The translation pass: a laid-out sheet with every text in its language and set in its face.

It runs once, where a sheet is rendered (printables/sheets.py): layout draws in English (within
``drawing_in``, printables/layout/language.py, so paragraphs are broken as they will print), then
``translate_document`` swaps every text for its translation and every font for the language's face.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from printables.i18n import DEFAULT_LANG, Translated, require_lang
from printables.i18n.fonts import face_for
from printables.layout.language import catalogue, in_language
from printables.layout.primitives import Page, Text

if TYPE_CHECKING:
    from printables.i18n.books import Catalogue


def translate_items(items, lang: str, paragraphs: tuple[str, ...] = ()) -> tuple:
    """The layout items with every Text in ``lang`` and set in its face; pure, never draws.

    ``paragraphs``: translations made while the sheet was laid out; a line cut from one is kept."""
    if lang == DEFAULT_LANG:
        return tuple(items)
    book = catalogue(lang)
    return tuple(
        dataclasses.replace(item, text=in_language(book, item.text, paragraphs), font=face_for(lang, item.font))
        if isinstance(item, Text) else item
        for item in _restack_vertical_words(tuple(items), book)
    )


def _restack_vertical_words(items: tuple, book: Catalogue) -> tuple:
    """A word set as letters one under another (Minefield's WHITE band label, no rotated text) is
    replaced by its translation's letters, equally spaced about the same centre."""

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
    lang = require_lang(lang)
    subject = json.loads(document.subject)
    subject["lang"] = lang
    return dataclasses.replace(
        document,
        pages=tuple(Page(p.width, p.height, translate_items(p.items, lang, tuple(paragraphs))) for p in document.pages),
        title=document.title if lang == DEFAULT_LANG else catalogue(lang).translate(document.title),
        subject=json.dumps(subject, sort_keys=True),
    )
