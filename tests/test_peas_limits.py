"""Breakfast Shy: a layout no card can hold is refused at once, and the largest pea that fits is
said to 0.1 mm, never more than fits."""

from __future__ import annotations

import re
import time

import pytest
from click.testing import CliRunner

from printables.check.dispatch import check_file
from printables.cli import main
from printables.errors import ParameterError
from printables.layout.peas import WORST_MEAN, plan_card
from printables.params.peas import MAX_LAYOUT_COLS, MAX_LAYOUT_ROWS, POSTCARDS, PeaCard
from conftest import assert_one_line_error


def _peas(tmp_path, *args):
    return CliRunner().invoke(main, ["peas", *args, "-o", str(tmp_path / "card.pdf")])


def _fits_some_card(mask: str) -> bool:
    for postcard in POSTCARDS:
        for landscape in (True, False):
            try:
                plan_card(PeaCard(layout=mask, postcard=postcard, landscape=landscape), WORST_MEAN)
                return True
            except ParameterError:
                continue
    return False


def test_the_stated_maxima_are_what_the_cards_hold():
    # The narrowest layouts of a width (one row) and of a height (one column): any other layout of
    # that width or height needs at least as much room.
    assert _fits_some_card("o" * MAX_LAYOUT_COLS)
    assert not _fits_some_card("o" * (MAX_LAYOUT_COLS + 1))
    assert _fits_some_card("/".join("o" * MAX_LAYOUT_ROWS))
    assert not _fits_some_card("/".join("o" * (MAX_LAYOUT_ROWS + 1)))


def test_a_150x150_mask_is_refused_before_it_is_analysed(tmp_path, monkeypatch):
    import printables.rules.peas_play as play

    def analysed(*args, **kwargs):
        raise AssertionError("the mask was analysed")

    monkeypatch.setattr(play, "analyse_layout", analysed)
    mask = "/".join(["o" * 150] * 150)
    start = time.monotonic()
    result = _peas(tmp_path, "--layout", mask)
    assert time.monotonic() - start < 5
    assert_one_line_error(result, f"layout mask of 150 rows x 150 columns: no postcard holds more than "
                                  f"{MAX_LAYOUT_ROWS} rows or {MAX_LAYOUT_COLS} columns of peas")
    assert not (tmp_path / "card.pdf").exists()


@pytest.mark.parametrize("mask, shape", [
    ("/".join(["oo"] * (MAX_LAYOUT_ROWS + 1)), f"{MAX_LAYOUT_ROWS + 1} rows x 2 columns"),
    ("o" * (MAX_LAYOUT_COLS + 1), f"1 row x {MAX_LAYOUT_COLS + 1} columns"),
    ("...../..ooooooooooooo/.....", "1 row x 13 columns"),  # empty rows and columns do not count
])
def test_a_mask_one_too_large_is_refused_with_its_size(tmp_path, mask, shape):
    assert_one_line_error(_peas(tmp_path, "--layout", mask), f"layout mask of {shape}")


def test_a_mask_at_the_limit_is_laid_out(tmp_path):
    result = _peas(tmp_path, "--layout", "." + "o" * MAX_LAYOUT_COLS + "/" + "." * 14)
    assert result.exit_code == 0, result.output
    assert all(r.ok for r in check_file(tmp_path / "card.pdf"))


@pytest.mark.parametrize("args", [[], ["--portrait"], ["--postcard", "4x6"], ["--layout", "heart", "--portrait"]])
def test_the_largest_pea_that_fits_is_said_to_a_tenth_and_fits(tmp_path, args):
    """The size said fits and 0.1 mm more does not (0.5 mm steps said 11 where 11.1 fit)."""
    result = _peas(tmp_path, *args, "--pea", "20")
    assert_one_line_error(result, "the largest pea that fits is ")
    said = float(re.search(r"the largest pea that fits is ([0-9.]+) mm", result.output).group(1))
    assert said == round(said, 1) and said >= 10
    more = _peas(tmp_path, *args, "--pea", f"{said + 0.1:.1f}")
    assert_one_line_error(more, f"the largest pea that fits is {said:g} mm")
    fits = _peas(tmp_path, *args, "--pea", f"{said:g}")
    assert fits.exit_code == 0, fits.output
    assert all(r.ok for r in check_file(tmp_path / "card.pdf"))


def test_the_hint_is_finer_than_half_millimetres(tmp_path):
    # On the 4x6 card the largest pea is not a multiple of 0.5 mm: the old hint understated it.
    result = _peas(tmp_path, "--postcard", "4x6", "--pea", "20")
    said = float(re.search(r"the largest pea that fits is ([0-9.]+) mm", result.output).group(1))
    assert said * 2 != int(said * 2)
