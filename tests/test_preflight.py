"""The preflight every PDF gets in `printables check`: each check fails on a file broken its way."""

import dataclasses
import json

import pytest
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from printables import fonts
from printables.check import preflight as pf
from printables.check.dispatch import check_file
from printables.layout import peas as pea_layout
from printables.params.peas import PeaCard
from printables.render.pdf import render_pdf

A4 = (210 * mm, 297 * mm)
A6 = (148 * mm, 105 * mm)


def _noto() -> str:
    if "NotoSans" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("NotoSans", str(fonts.font_file("regular"))))
    return "NotoSans"


def _pdf(path, draw, size=A4, subject=None, boxes=None, keywords=None) -> str:
    """A one-page PDF drawn by ``draw(canvas)`` in Noto Sans unless it says otherwise."""
    c = canvas.Canvas(str(path), pagesize=size, invariant=1, initialFontName=_noto(), initialFontSize=9)
    c.setSubject(json.dumps(subject or {}))
    if keywords:
        c.setKeywords(keywords)
    for name, box in (boxes or {}).items():
        getattr(c, f"set{name}")([v * mm for v in box])
    draw(c)
    c.showPage()
    c.save()
    return str(path)


def _body(c, size_pt=9.0, x_mm=20, y_mm=40, text="Every player writes in the grid with a pencil."):
    c.setFont(_noto(), size_pt)
    for i in range(5):
        c.drawString(x_mm * mm, (y_mm + i * 6) * mm, text)


def _results(path) -> dict:
    from printables.check.pdf import read_metadata

    return {r.name: r for r in pf.preflight(path, read_metadata(path)["subject"])}


def _failed(results: dict) -> set[str]:
    return {name for name, r in results.items() if not r.ok}


def test_a_good_sheet_passes_every_preflight_check(tmp_path):
    def draw(c):
        _body(c)
        c.setFont(_noto(), 14)
        c.drawString(20 * mm, 270 * mm, "A heading, Çağrı İzmir")
        c.setFont(_noto(), 6.5)
        c.drawString(20 * mm, 8 * mm, "small print, 6.5 pt, 8 mm from the edge")
        c.setFillColorRGB(0.4, 0.6, 0.2)
        c.rect(0, 287 * mm, 210 * mm, 10 * mm, stroke=0, fill=1)  # a background band run off the top
        c.setFillGray(1)
        c.rect(1 * mm, 1 * mm, 20 * mm, 20 * mm, stroke=0, fill=1)  # white is not ink

    results = _results(_pdf(tmp_path / "good.pdf", draw))
    assert _failed(results) == set(), [str(r) for r in results.values()]
    assert set(results) == {"fonts embedded", "glyphs", "text sizes", "safe zone", "page boxes", "visible text",
                            "clearance", "line ends"}


def test_helvetica_by_name_only_fails_fonts_embedded(tmp_path):
    def draw(c):
        _body(c)
        c.setFont("Helvetica", 9)
        c.drawString(20 * mm, 100 * mm, "Helvetica, named but not embedded")

    results = _results(_pdf(tmp_path / "helvetica.pdf", draw))
    assert _failed(results) == {"fonts embedded"}
    assert "Helvetica is not embedded" in results["fonts embedded"].detail


def test_a_character_missing_from_the_font_fails_glyphs(tmp_path):
    def draw(c):
        _body(c)
        c.drawString(20 * mm, 100 * mm, "Korean 한 is not in Noto Sans")

    results = _results(_pdf(tmp_path / "tofu.pdf", draw))
    assert _failed(results) == {"glyphs"}
    assert "NotoSans" in results["glyphs"].detail


def test_text_under_six_points_fails_anywhere(tmp_path):
    def draw(c):
        _body(c)
        c.setFont(_noto(), 5)
        c.drawString(20 * mm, 100 * mm, "a 5 pt footer")

    results = _results(_pdf(tmp_path / "tiny.pdf", draw))
    assert _failed(results) == {"text sizes"}
    assert "text at 5 pt" in results["text sizes"].detail


def test_body_text_is_eight_points_on_sheets_and_seven_on_cards(tmp_path):
    sheet = _results(_pdf(tmp_path / "sheet.pdf", lambda c: _body(c, 7.0)))
    assert _failed(sheet) == {"text sizes"}
    assert "page 1 (sheet): body text is 7 pt, at least 8 pt needed" in sheet["text sizes"].detail
    card = _results(_pdf(tmp_path / "card.pdf", lambda c: _body(c, 7.0, y_mm=30, text="Roll two dice."), size=A6))
    assert _failed(card) == set(), [str(r) for r in card.values()]
    small_card = _results(_pdf(tmp_path / "card6.pdf", lambda c: _body(c, 6.5, y_mm=30, text="Roll two dice."), size=A6))
    assert _failed(small_card) == {"text sizes"} and "(card)" in small_card["text sizes"].detail
    # a sheet of imposed postcards is held to the card's sizes
    imposed = _results(_pdf(tmp_path / "imposed.pdf", lambda c: _body(c, 7.0), subject={"postcard": "a6"}))
    assert _failed(imposed) == set()


@pytest.mark.parametrize("what", ["line", "text", "circle", "box"])
def test_ink_two_millimetres_from_the_edge_fails_the_safe_zone(tmp_path, what):
    def draw(c):
        _body(c)
        if what == "line":
            c.line(2 * mm, 100 * mm, 2 * mm, 150 * mm)
        elif what == "text":
            c.setFont(_noto(), 9)
            c.drawString(30 * mm, 2 * mm, "a footer too low")
        elif what == "circle":
            c.circle(105 * mm, 289 * mm, 6 * mm)  # top at 2 mm from the top edge
        else:
            c.setFillGray(0.5)
            c.rect(206 * mm, 100 * mm, 2 * mm, 10 * mm, stroke=0, fill=1)  # a fill that stops short of the edge

    results = _results(_pdf(tmp_path / f"{what}.pdf", draw))
    assert _failed(results) == {"safe zone"}
    assert "page 1 (sheet, 5 mm)" in results["safe zone"].detail


def test_borderless_files_skip_the_safe_zone(tmp_path):
    path = _pdf(tmp_path / "borderless.pdf", lambda c: (_body(c), c.line(1 * mm, 1 * mm, 1 * mm, 50 * mm)),
                subject={"borderless": True})
    results = _results(path)
    assert results["safe zone"].ok and "borderless" in results["safe zone"].detail


def test_a_bleed_file_without_a_trim_box_fails_page_boxes(tmp_path):
    size = (154 * mm, 111 * mm)
    no_boxes = _results(_pdf(tmp_path / "nobox.pdf", lambda c: _body(c, 8, x_mm=15, y_mm=30, text="Roll."), size=size,
                             subject={"bleed": 3.0}))
    assert _failed(no_boxes) == {"page boxes"}
    assert "no TrimBox or BleedBox, but 3 mm bleed declared" in no_boxes["page boxes"].detail
    wrong = _results(_pdf(tmp_path / "wrong.pdf", lambda c: _body(c, 8, x_mm=15, y_mm=30, text="Roll."), size=size,
                          subject={"bleed": 3.0}, boxes={"TrimBox": (2, 2, 152, 109), "BleedBox": (0, 0, 154, 111)}))
    assert _failed(wrong) == {"page boxes"} and "3 mm declared" in wrong["page boxes"].detail
    outside = _results(_pdf(tmp_path / "outside.pdf", lambda c: _body(c, 8, x_mm=15, y_mm=30, text="Roll."), size=size,
                            subject={"bleed": 3.0}, boxes={"TrimBox": (3, 3, 151, 108), "BleedBox": (0, 0, 160, 111)}))
    assert "the BleedBox is not inside the MediaBox" in outside["page boxes"].detail
    good = _results(_pdf(tmp_path / "boxed.pdf", lambda c: _body(c, 8, x_mm=15, y_mm=30, text="Roll."), size=size,
                         subject={"bleed": 3.0}, boxes={"TrimBox": (3, 3, 151, 108), "BleedBox": (0, 0, 154, 111)}))
    assert _failed(good) == set(), [str(r) for r in good.values()]


def test_in_a_bleed_file_only_bleed_and_crop_marks_lie_outside_the_trim(tmp_path):
    size = (168 * mm, 125 * mm)  # A6 trim at (10, 10) mm, 3 mm bleed, crop marks outside it
    boxes = {"TrimBox": (10, 10, 158, 115), "BleedBox": (7, 7, 161, 118)}

    def card(c, extra=None):
        _body(c, 8, x_mm=20, y_mm=40, text="Roll two dice.")
        c.setFillColorRGB(0.36, 0.55, 0.2)
        c.rect(7 * mm, 100 * mm, 154 * mm, 18 * mm, stroke=0, fill=1)  # the band, over the trim by the bleed
        c.setLineWidth(0.15 * mm)
        for x in (10, 158):
            c.line(x * mm, 0, x * mm, 5 * mm)
            c.line(x * mm, 120 * mm, x * mm, 125 * mm)
        for y in (10, 115):
            c.line(0, y * mm, 5 * mm, y * mm)
            c.line(163 * mm, y * mm, 168 * mm, y * mm)
        if extra:
            extra(c)

    good = _results(_pdf(tmp_path / "shop.pdf", card, size=size, subject={"bleed": 3.0}, boxes=boxes))
    assert _failed(good) == set(), [str(r) for r in good.values()]
    # text in the bleed: it would be cut off
    bad = _results(_pdf(tmp_path / "shop-bad.pdf", lambda c: card(c, lambda c: c.drawString(12 * mm, 8 * mm, "cut off")),
                        size=size, subject={"bleed": 3.0}, boxes=boxes))
    assert _failed(bad) == {"safe zone"}


def test_fonts_and_page_boxes_fail_a_sheet(tmp_path):
    path = _pdf(tmp_path / "h.pdf", lambda c: (_body(c), c.setFont("Helvetica", 9), c.drawString(50, 500, "x")),
                subject={"bleed": 3.0})
    assert _failed(_results(path)) == {"fonts embedded", "page boxes"}


def test_the_print_shop_card_has_page_boxes_and_crop_marks(tmp_path):
    document = pea_layout.layout(PeaCard(bleed=3, back=True))
    path = tmp_path / "shop.pdf"
    path.write_bytes(render_pdf(document))
    results = {r.name: r for r in check_file(path)}
    assert results["page boxes"].ok and "3 mm each side" in results["page boxes"].detail
    assert results["crop marks"].ok and "16 crop mark(s)" in results["crop marks"].detail  # 8 a page, 2 pages
    assert results["page size"].ok and "168x125" in results["page size"].detail
    # the same card without what the renderer adds for a print shop: no boxes, no marks
    bare = tmp_path / "bare.pdf"
    bare.write_bytes(render_pdf(dataclasses.replace(document, metadata={})))
    failed = {r.name for r in check_file(bare) if not r.ok}
    assert {"page boxes", "page size"} <= failed


def test_check_runs_the_preflight_on_every_pdf(tmp_path):
    from click.testing import CliRunner

    from printables.cli import main

    out = tmp_path / "m.pdf"
    assert CliRunner().invoke(main, ["minefield", "-o", str(out)]).exit_code == 0
    names = {r.name for r in check_file(out)}
    assert {"fonts embedded", "glyphs", "text sizes", "safe zone", "page boxes"} <= names


def _boxed_text(gap_mm: float):
    """A 9 pt word in a rectangle whose left side stands ``gap_mm`` from the word's first ink."""
    def draw(c):
        _body(c)
        c.setFont(_noto(), 9)
        c.drawString(60 * mm, 150 * mm, "Harvest")  # 'H' inks from about 0.3 mm right of its origin
        c.setLineWidth(0.25 * mm)
        ink_left = 60 + 0.27  # NotoSans 'H' left side bearing at 9 pt, in mm
        c.rect((ink_left - gap_mm - 0.125) * mm, 145 * mm, 40 * mm, 12 * mm)
    return draw


def test_text_closer_than_one_and_a_half_mm_to_a_box_edge_fails_clearance(tmp_path):
    near = _results(_pdf(tmp_path / "near.pdf", _boxed_text(1.0)))
    assert not near["clearance"].ok
    assert "'Harvest' 1.0 mm from a rectangle edge" in near["clearance"].detail
    clear = _results(_pdf(tmp_path / "clear.pdf", _boxed_text(2.0)))
    assert clear["clearance"].ok, clear["clearance"].detail


def test_two_texts_closer_than_one_and_a_half_mm_fail_clearance_but_a_paragraph_passes(tmp_path):
    def crowded(c):
        _body(c)  # five lines of one paragraph, 6 mm apart: set by the leading, not measured
        c.setFont(_noto(), 9)
        c.drawString(20 * mm, 150 * mm, "Score")
        width = pdfmetrics.stringWidth("Score", _noto(), 9)
        c.setFont(_noto(), 12)
        c.drawString(20 * mm + width + 1 * mm, 150 * mm, "Total")  # another size, 1 mm on
    results = _results(_pdf(tmp_path / "crowded.pdf", crowded))
    assert not results["clearance"].ok
    assert "from the text" in results["clearance"].detail
    assert _results(_pdf(tmp_path / "para.pdf", _body))["clearance"].ok


def test_a_line_starting_with_a_separator_fails_line_ends(tmp_path):
    def draw(c, first):
        _body(c)
        c.setFont(_noto(), 9)
        c.drawString(20 * mm, 150 * mm, "Oyuncular: 2 · Gerekenler: makas")
        c.drawString(20 * mm, 146 * mm, first)
    bad = _results(_pdf(tmp_path / "bad.pdf", lambda c: draw(c, "· Kartona yazdırın")))
    assert not bad["line ends"].ok and "starts with '·'" in bad["line ends"].detail
    opening = _results(_pdf(tmp_path / "open.pdf", lambda c: draw(c, "Kartona yazdırın (")))
    assert not opening["line ends"].ok and "ends with '('" in opening["line ends"].detail
    good = _results(_pdf(tmp_path / "good.pdf", lambda c: draw(c, "%100 / gerçek boyutta yazdırın")))
    assert good["line ends"].ok, good["line ends"].detail  # Turkish sets the percent sign first


@pytest.mark.parametrize("kind", ["harvest", "minefield", "peas", "patchwork", "giuthi-rules"])
def test_a_crowded_line_fails_a_sheet_of_every_kind(tmp_path, kind):
    """Issue #24: no kind is "pending" any more (Patchwork and Giuthi rules sheets were). A sheet of
    each kind whose word sits 1 mm from a box fails clearance through ``printables check``."""
    from printables.check.dispatch import check_file

    path = _pdf(tmp_path / f"{kind}.pdf", _boxed_text(1.0), keywords=f"printables:{kind}")
    results = {r.name: r for r in check_file(path)}
    assert not results["clearance"].ok and "'Harvest' 1.0 mm from a rectangle edge" in results["clearance"].detail


def test_a_circle_is_measured_as_a_circle_not_the_diamond_of_its_end_points(tmp_path):
    """A digit inside a 16 mm circle, towards its upper right: nearly 3 mm clear of the circle itself but
    0.7 mm from the chord between two of its four Bezier end points. Clear: the old reading measured
    the chords and failed it; in a 13 mm circle the ring itself is 1.4 mm off, and it fails."""
    def draw(c, radius_mm):
        _body(c)
        c.setLineWidth(0.3 * mm)
        c.circle(100 * mm, 120 * mm, radius_mm * mm, stroke=1, fill=0)
        c.setFont(_noto(), 9)
        c.drawString(100 * mm + 1.7 * mm, 120 * mm + 1.2 * mm, "4")  # its ink's corner 3.5 mm right and up
    clear = _results(_pdf(tmp_path / "clear.pdf", lambda c: draw(c, 8.0)))
    assert clear["clearance"].ok, clear["clearance"].detail
    near = _results(_pdf(tmp_path / "near.pdf", lambda c: draw(c, 6.5)))  # now the ring itself is near
    assert not near["clearance"].ok and "'4'" in near["clearance"].detail


def test_a_word_along_a_narrow_band_is_measured_to_its_ends_only(tmp_path):
    """Issue #24: "WHITE" stacked on Minefield's 3.5 mm edge band is the band's label: its long sides do
    not crowd it, its ends and anything outside it do."""
    def draw(c, length_mm):
        _body(c)
        c.setLineWidth(0.4 * mm)
        c.rect(100 * mm, 100 * mm, 4 * mm, length_mm * mm, stroke=1, fill=0)
        c.setFont(_noto(), 7)
        c.drawCentredString(102 * mm, 110 * mm, "W")
    band = _results(_pdf(tmp_path / "band.pdf", lambda c: draw(c, 40.0)))
    assert band["clearance"].ok, band["clearance"].detail
    short = _results(_pdf(tmp_path / "short.pdf", lambda c: draw(c, 11.0)))  # the band's end 1 mm over the W
    assert not short["clearance"].ok
    square = _results(_pdf(tmp_path / "box.pdf", lambda c: draw(c, 4.0 * 1.0 + 8.0)))  # 4 x 12: an end near
    assert not square["clearance"].ok


def test_a_number_centred_on_a_coin_is_its_face_but_must_keep_off_the_ring(tmp_path):
    """Issue #24: Patchwork's A5 cost coins (4.8 mm) carry "10" at 6 pt, 0.8 mm from the ring: the
    coin's face, as a player reads it. The same number touching the ring still fails."""
    def draw(c, dx_mm):
        _body(c)
        c.setLineWidth(0.35 * mm)
        c.circle(100 * mm, 120 * mm, 2.4 * mm, stroke=1, fill=0)
        c.setFont(_noto(), 6)
        c.drawCentredString((100 + dx_mm) * mm, 120 * mm - 0.75 * mm, "10")
    assert _results(_pdf(tmp_path / "face.pdf", lambda c: draw(c, 0.0)))["clearance"].ok
    off = _results(_pdf(tmp_path / "off.pdf", lambda c: draw(c, 0.7)))  # still centred, 0.2 mm from the ring
    assert not off["clearance"].ok and "'10'" in off["clearance"].detail


def test_a_run_in_heading_and_its_paragraph_are_one_block(tmp_path):
    """Issue #24: a publisher's box whose second line ("Bolanos Mures ile") ends before the first line
    begins (after the run-in heading) read as two texts 0.6 mm apart; it is one paragraph."""
    def draw(c, second):
        _body(c)
        c.setFont(_noto(), 8)
        # the first line begins 0.3 mm after the second line ends, 2 mm after the heading
        first_x = 20 + pdfmetrics.stringWidth(second, _noto(), 8) / mm + 0.3
        heading_w = pdfmetrics.stringWidth("Oyun", _noto(), 8) / mm
        c.drawString((first_x - 2.0 - heading_w) * mm, 100 * mm, "Oyun")
        c.drawString(first_x * mm, 100 * mm, "Oyuncu: 2 · Ayrica gerekenler: bir kalem")
        c.drawString(20 * mm, 100 * mm - 3.4 * mm, second)
    box = _results(_pdf(tmp_path / "box.pdf", lambda c: draw(c, "Bolanos Mures ile")))
    assert box["clearance"].ok, box["clearance"].detail


def _giuthi_sheets(tmp_path):
    import tomllib
    from pathlib import Path

    from printables.models import model_params, seed_params_for, set_options, write_rules_sheet
    from printables.render.giuthi_card import giuthi_print_card, write_print_card

    preset = Path(__file__).resolve().parents[1] / "models" / "giuthi-default.toml"
    data = tomllib.loads(preset.read_text(encoding="utf-8"))
    board = model_params(data["kind"], data["params"], str(preset))
    options = set_options(data["params"], str(preset))
    rules = write_rules_sheet(board.pits_per_row, board.seeds_per_pit, tmp_path / "rules.pdf", options["paper"], "ko")
    card = write_print_card(giuthi_print_card(seed_params_for(board), {}, board=board), tmp_path / "card.pdf", "ko")
    return {"giuthi-rules": rules, "giuthi-print-settings": card}


@pytest.mark.parametrize("game", ["peas", "harvest", "minefield", "patchwork", "giuthi-rules", "giuthi-print-settings"])
def test_each_games_preset_passes_clearance_strictly(tmp_path, game):
    """Issue #24: every game's default sheet (Korean for Giuthi's, the tallest glyphs) has no text line
    within 1.5 mm of a box or another text. Before the layouts were fixed each had findings: peas 5,
    harvest 31, minefield 32, patchwork 61, the Korean Giuthi rules sheet 273, its print card 20."""
    from printables.sheets import write_sheet

    if game.startswith("giuthi"):
        path = _giuthi_sheets(tmp_path)[game]
    else:
        import importlib

        params = importlib.import_module(f"printables.params.{game}")
        sheet = {"peas": "PeaCard", "harvest": "HarvestSheet", "minefield": "MinefieldSheet",
                 "patchwork": "PatchworkSheet"}[game]
        path = write_sheet(game, getattr(params, sheet)(), tmp_path / f"{game}.pdf")
    crowded = _crowded_texts(path)
    assert crowded == [], [str(f) for f in crowded[:5]]


def test_no_turkish_patchwork_line_starts_with_the_separator(tmp_path):
    """Issue #24: the publisher box broke before " · " on all six Turkish Patchwork pages."""
    from printables.params.patchwork import PatchworkSheet
    from printables.sheets import write_sheet

    path = write_sheet("patchwork", PatchworkSheet(lang="tr"), tmp_path / "tr.pdf")
    from printables.check.parsing import open_pdf

    with open_pdf(path) as pdf:
        result = pf.check_line_ends(pdf)
    assert result.ok, result.detail


def _crowded_texts(path) -> list:
    from pypdf import PdfReader

    from printables.check.parsing import open_pdf

    with open_pdf(path) as pdf:
        return pf.clearance_findings(pdf, PdfReader(str(path)))


def test_the_easy_card_keeps_its_subtitle_score_and_rules_clear_of_the_boxes(tmp_path):
    """Issue #24: on the easy card the subtitle stood 1.4 mm from the band's edge, "score" 1.2 mm from
    the score box and the rules under the tally box 1.3 mm from it."""
    from printables.sheets import write_sheet

    path = write_sheet("peas", PeaCard(layout="easy"), tmp_path / "easy.pdf")
    crowded = [f for f in _crowded_texts(path)
               if f.text == "score" or f.text.startswith("a solitaire roll-and-write") or f.text.startswith("value, and its")]
    assert crowded == []


def test_the_harvest_rules_and_the_page_ruler_stand_clear_of_the_lines_above_them(tmp_path):
    """Issue #24: the rules under the 4-up score tables stood 1.2 mm from the tables and cut lines,
    and the page ruler's words 1.3 mm under its line."""
    from printables.params.harvest import HarvestSheet
    from printables.sheets import write_sheet

    path = write_sheet("harvest", HarvestSheet(grid=(11, 5), per_page=4), tmp_path / "h.pdf")
    crowded = [f for f in _crowded_texts(path)
               if f.text.startswith("Each player picks") or f.text in ("0", "100 mm") or f.text.startswith("print at 100 %")]
    assert crowded == []
