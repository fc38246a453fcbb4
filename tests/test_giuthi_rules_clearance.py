"""Every Giuthi rules sheet the CLI accepts keeps its counts 1.5 mm clear (issue #24's preflight).

A diagram's count stands in its pit, ringed when the last seed fell there, and a store's count in
its box. Boards with many seeds per pit hold two-digit counts in the pits and three-digit ones in
the stores (2x10, 9 seeds: 117 in South's store); those used to stand 0.9-1.2 mm from the ring or
the store's side:

     .------.    .---------.
     | (10) |    |   117   |   a ringed two-digit count is set smaller (8.5 pt, not 10);
     '------'    '---------'   the stores of a sheet are as wide as its largest count needs
"""

from __future__ import annotations

import itertools
import math

import pytest
from pypdf import PdfReader

from printables.check.dispatch import check_file
from printables.check.parsing import open_pdf
from printables.check.preflight import check_clearance
from printables.layout import giuthi_rules as g
from printables.layout.giuthi_rules import find_examples, rules_document
from printables.layout.language import drawing_in
from printables.layout.translation import translate_document
from printables.params.giuthi_board import validate_counts
from printables.render.pdf import render_pdf
from printables.rules import giuthi as rules

LANGS = ("en", "ko", "tr")


def _sheet(tmp_path, pits, seeds, paper="a4", lang="en"):
    """The sheet as ``printables giuthi --rules`` writes it (models.write_rules_sheet)."""
    with drawing_in(lang) as paragraphs:
        document = rules_document(pits, seeds, paper)
    path = tmp_path / f"rules-{pits}-{seeds}-{paper}-{lang}.pdf"
    path.write_bytes(render_pdf(translate_document(document, lang, paragraphs)))
    return path


def _clearance(path):
    with open_pdf(path) as pdf:
        return check_clearance(pdf, PdfReader(str(path)))


def _accepted_counts():
    """Every (pits per row, seeds per pit) ``printables giuthi --rules`` accepts."""
    out = []
    for pits, seeds in itertools.product(range(rules.MIN_PITS_PER_ROW, rules.MAX_PITS_PER_ROW + 1),
                                         range(rules.MIN_SEEDS_PER_PIT, rules.MAX_SEEDS_PER_PIT + 1)):
        try:
            validate_counts(pits, seeds)
        except ValueError:
            continue
        out.append((pits, seeds))
    return out


# The sheets that crowded: a ringed "10"/"12" (2x6 7 seeds, 2x8 6 seeds), "117" and "112" in the
# stores of 2x10 with 9 seeds (in Korean the digits are NanumGothic's, wider).
@pytest.mark.parametrize("pits, seeds, paper, lang", [(6, 7, "a4", "ko"), (8, 6, "letter", "tr"),
                                                      (10, 9, "letter", "en"), (10, 9, "a4", "ko")])
def test_crowded_sheets_pass_every_check_strictly(tmp_path, pits, seeds, paper, lang):
    results = check_file(_sheet(tmp_path, pits, seeds, paper, lang))
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    clearance = next(r for r in results if r.name == "clearance")
    assert "pending" not in clearance.detail and "at least 1.5 mm" in clearance.detail
    assert sum(r.name.startswith("diagram ") and "every arrow replayed" in r.detail for r in results) == 7


def test_a_ringed_two_digit_count_is_set_smaller_but_readable():
    for lang in LANGS:
        with drawing_in(lang):
            assert g.pit_count_size_pt(7, ringed=True) == g.COUNT_PT
            assert g.pit_count_size_pt(12, ringed=False) == g.COUNT_PT
            size = g.pit_count_size_pt(12, ringed=True)
            assert g.COUNT_MIN_PT <= size < g.COUNT_PT
            half_w, half_h, _ = g.count_ink_mm("12", size)
            assert math.hypot(half_w, half_h) + 1.5 <= g.pit_room_mm(ringed=True)
            # a size larger would crowd the ring
            half_w, half_h, _ = g.count_ink_mm("12", size + g.COUNT_STEP_PT)
            assert math.hypot(half_w, half_h) + 1.5 + g.COUNT_SLACK_MM > g.pit_room_mm(ringed=True)


def test_the_ring_lies_on_the_pit_outline():
    outer_ring = g.RING_RADIUS_MM + g.RING_LINE_MM / 2
    assert outer_ring == pytest.approx(g.PIT_RADIUS_MM + g.PIT_LINE_MM / 2)
    assert g.pit_room_mm(ringed=True) == pytest.approx(g.PIT_RADIUS_MM + g.PIT_LINE_MM / 2 - g.RING_LINE_MM)


def test_a_count_no_readable_size_fits_is_refused():
    with pytest.raises(ValueError, match=r"^1000 seeds: the count does not fit a pit 8\.4 mm across at 8 pt or more$"):
        g.pit_count_size_pt(1000, ringed=False)


def test_stores_widen_for_three_digit_counts_and_the_board_still_fits():
    for lang in LANGS:
        with drawing_in(lang):
            assert g.store_width_mm(find_examples(6, 4)) == g.STORE_W_MM
            examples = find_examples(10, 9)
            most = max(c for e in examples for b in e.boards for c in b.stores)
            assert most >= 100
            width = g.store_width_mm(examples)
            half_w, _, _ = g.count_ink_mm(str(most), g.COUNT_PT)
            assert width / 2 - g.STORE_LINE_MM / 2 - half_w >= 1.5
            assert g.board_size_mm(10, 1, width)[0] <= 215.9 - 2 * g.MARGIN_MM


@pytest.mark.parametrize("face", ["bold", "korean-bold"])
def test_the_digits_ink_lies_where_the_layout_expects_it(face):
    """The installed faces' digits: inside their advance by DIGIT_SIDE_EM, at most DIGIT_OVER_CAP_EM
    over the cap height and DIGIT_BELOW_EM under the baseline (count_ink_mm's bounds)."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    from printables import fonts

    with TTFont(str(fonts.font_file(face))) as font:
        units = font["head"].unitsPerEm
        glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
        cap = fonts.cap_height_mm(1.0, fonts.FACES[face][0]) / fonts.PT_TO_MM * units  # as the layout reads it
        for digit in "0123456789":
            name = cmap[ord(digit)]
            pen = BoundsPen(glyphs)
            glyphs[name].draw(pen)
            x0, y0, x1, y1 = pen.bounds
            advance = font["hmtx"][name][0]
            assert x0 >= g.DIGIT_SIDE_EM * units and advance - x1 >= g.DIGIT_SIDE_EM * units, digit
            assert y1 <= cap + g.DIGIT_OVER_CAP_EM * units and y0 >= -g.DIGIT_BELOW_EM * units, digit


@pytest.mark.slow
def test_every_accepted_sheet_keeps_its_texts_clear(tmp_path):
    """Every pits-and-seeds count the CLI accepts, in every language (the paper alternating: it moves
    page breaks, not boards): no text line closer than 1.5 mm to a box or another text."""
    crowded = []
    for k, ((pits, seeds), lang) in enumerate(itertools.product(_accepted_counts(), LANGS)):
        paper = ("a4", "letter")[k % 2]
        path = _sheet(tmp_path, pits, seeds, paper, lang)
        result = _clearance(path)
        if not result.ok:
            crowded.append(f"2x{pits} {seeds} seeds {paper} {lang}: {result.detail}")
        path.unlink()
    assert len(_accepted_counts()) == 18
    assert not crowded, crowded
