"""Sheets whose every text a catalogue must cover: each preset plus the variants presets skip."""

from __future__ import annotations

from printables.build import all_presets
from printables.sheets import SHEET_KINDS

EXTRA_CASES = [
    ("harvest", {"grid": "10x10", "players": 5, "coins_per_turn": 3, "opening_coins": 1}),
    ("harvest", {"grid": "12x9", "landscape": True}),
    ("minefield", {"size": 5, "per_page": 4}),
    ("minefield", {"size": 11, "paper": "a5"}),
    ("peas", {"layout": "heart", "back": True}),
    ("peas", {"layout": "easy", "postcard": "4x6", "landscape": False, "back": True}),
    ("peas", {"layout": ".ooo./ooooo/ooooo/.ooo.", "paper": "a4", "bleed": 3}),
    ("peas", {"rows": 4, "cols": 6}),
    ("patchwork", {"part": "all", "leather": "revised", "paper": "a5"}),
]


def sheet_cases() -> list[tuple[str, dict]]:
    """(kind, parameters) of every sheet preset and of the extra variants, without a language."""
    cases = []
    for preset in all_presets():
        if preset.kind in SHEET_KINDS:
            params = {k: v for k, v in preset.params.items() if k != "lang"}
            if (preset.kind, params) not in cases:
                cases.append((preset.kind, params))
    return cases + [case for case in EXTRA_CASES if case not in cases]
