"""What a sheet says in its language, for the checks: the language recorded in its parameters and
how an English text reads in it.

What a sheet "says" in a language comes from the catalogues (printables/i18n/*.toml, data), never
from layout or render code. The checks of the lettering itself are in printables/check/lettering.py.
"""

from __future__ import annotations

import re

from printables.i18n import DEFAULT_LANG, LANGS
from printables.i18n.books import catalogue

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
