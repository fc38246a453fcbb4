"""Names the rules give to numbered things."""

from __future__ import annotations


def spreadsheet_label(index: int) -> str:
    """Spreadsheet-style letters for a 0-based index: 0 → A, 25 → Z, 26 → AA, so any count has names.

    Grid columns (Harvest, Minefield) and Breakfast Shy's pods are named this way. The checks spell
    the labels with their own function (printables/check/pdf.py), not this one.
    """
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label
