"""Spreadsheet labels of grid columns and Breakfast Shy's pods, against the check's own spelling."""

from __future__ import annotations

from hypothesis import given, strategies as st

from printables.check.pdf import column_letters
from printables.rules.labels import spreadsheet_label


def test_hand_checked_labels():
    assert [spreadsheet_label(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702, 18277)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA", "ZZZ"]


@given(st.integers(min_value=0, max_value=10**6))
def test_labels_are_bijective_base_26_as_the_checks_spell_them(index):
    label = spreadsheet_label(index)
    assert label == column_letters(index)
    value = 0
    for letter in label:  # read back: A=1 .. Z=26 per place, no zero digit
        value = value * 26 + (ord(letter) - ord("A") + 1)
    assert value - 1 == index
