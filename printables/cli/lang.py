"""``--lang``: the one definition every sheet command (and the Giuthi card) shares."""

from __future__ import annotations

import click

from printables.i18n import DEFAULT_LANG, LANGS

LANG_OPTION = click.option(
    "--lang", type=click.Choice(LANGS, case_sensitive=False), default=DEFAULT_LANG, show_default=True,
    help="Language of every text on the sheet: en (English), ko (Korean, 한국어), tr (Turkish, Türkçe).")
