"""Sheets in the players' languages: the language codes, and the texts' status.

English is the source. ``<lang>.toml`` beside this module maps every English text a player reads
to its translation: ``[text]`` exact strings (titles, labels, whole paragraphs) and ``[pattern]``
strings with named fields (``"{n} players" = "{n}인"``); a field's value is translated too when
the catalogue knows it. A line joined with `` · `` is translated part by part.

The catalogues themselves (reading ``<lang>.toml``, looking texts up) are in ``books.py``, the
faces each language prints in in ``fonts.py``: data and lookup, used by the layouts and the checks
alike. Laying a sheet out in a language is a layout step: printables/layout/language.py (the
language a sheet is drawn in, paragraphs broken with the real metrics) and
printables/layout/translation.py (the pass that swaps every text of a laid-out page).
"""

from __future__ import annotations

from pathlib import Path

from printables.errors import ParameterError

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
