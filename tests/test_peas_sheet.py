"""Breakfast Shy postcards end to end: CLI, the PDF written, and its check reading it back."""

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from printables.build import build_preset
from printables.check.dispatch import check_file
from printables.check.pdf import read_pdf
from printables.check.peas import card_text, find_cards, most_cards, pea_graph, recover_peas
from printables.cli import main
from printables.layout import peas as pea_layout
from printables.layout.primitives import Circle, Document, Line, Page, Rect, Text, translate
from printables.params import peas as pea_params
from printables.params.base import load_preset
from printables.params.peas import PeaCard, imposition
from printables.render.pdf import render_pdf
from printables.rules import peas as rules
from conftest import assert_one_line_error

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def failed(results):
    return {r.name for r in results if not r.ok}


def detail(results, name):
    return next(r.detail for r in results if r.name == name)


def _write(tmp_path, document, name="wrong.pdf"):
    path = tmp_path / name
    path.write_bytes(render_pdf(document))
    return path


def _with_page(document: Document, index: int, items) -> Document:
    pages = list(document.pages)
    page = pages[index]
    pages[index] = Page(page.width, page.height, tuple(items))
    return dataclasses.replace(document, pages=tuple(pages))


def _peas_of(document: Document, page: int = 0) -> list[Circle]:
    """The pea circles of a page in reading order (Peater and his eyes are smaller)."""
    circles = [i for i in document.pages[page].items if isinstance(i, Circle) and 2 * i.r >= pea_params.MIN_PEA_MM]
    return sorted(circles, key=lambda c: (round(c.cy, 3), c.cx))


# --------------------------------------------------------------------------- the command


def test_help_lists_every_option():
    result = run("peas", "--help")
    assert result.exit_code == 0
    for option in ("--layout", "--rows", "--cols", "--postcard", "--portrait", "--landscape", "--paper", "--bleed", "--pea", "--back", "--output"):
        assert option in result.output


def test_default_card_is_an_a6_landscape_that_passes_every_check(tmp_path):
    out = tmp_path / "card.pdf"
    result = run("peas", "-o", str(out))
    assert result.exit_code == 0, result.output
    results = check_file(out)
    assert not failed(results), [str(r) for r in results]
    drawing = read_pdf(out)
    params = json.loads(drawing.subject)
    assert params["layout"] == str(rules.DEFAULT_LAYOUT) and params["layout_name"] == "default"
    assert params["expected_smushed"] == rules.EXPECTED_SMUSHED["default"]
    assert params["pea_mm"] >= pea_params.MIN_PEA_MM
    assert len(drawing.pages) == 1 and drawing.print_scaling == "None"
    assert (round(drawing.pages[0].width, 2), round(drawing.pages[0].height, 2)) == (148.0, 105.0)
    text = " ".join(drawing.pages[0].text.split())
    for words in ("Breakfast Shy", "Smushed peas", "printables default", "1000 simulated games:",
                  "rolls, median", "expected smushed peas about 2", "print at 100 % / actual size"):
        assert words in text
    for unknown in ("not public", "not named", "not stated", "Design:"):
        assert unknown not in text


@pytest.mark.parametrize(
    "args, page_mm, cards",
    [
        (["--portrait"], (105.0, 148.0), 1),
        (["--postcard", "4x6"], (152.4, 101.6), 1),
        (["--postcard", "4x6", "--portrait", "--back"], (101.6, 152.4), 1),
        (["--bleed", "3"], (168.0, 125.0), 1),  # 148 x 105 + 2 x (3 mm bleed + 2 mm gap + 5 mm crop mark)
        (["--paper", "a4"], (210.0, 297.0), 2),
        (["--paper", "a4", "--portrait", "--back"], (297.0, 210.0), 2),
        (["--paper", "a4", "--borderless"], (297.0, 210.0), 4),
        (["--paper", "a4", "--portrait", "--borderless", "--back"], (210.0, 297.0), 4),
        (["--paper", "a4", "--bleed", "3", "--back"], (210.0, 297.0), 2),
        (["--paper", "letter", "--postcard", "4x6", "--back"], (215.9, 279.4), 2),
        (["--layout", "heart", "--pea", "10"], (148.0, 105.0), 1),
        (["--layout", "easy", "--paper", "letter"], (215.9, 279.4), 2),
        (["--rows", "3", "--cols", "4"], (148.0, 105.0), 1),
    ],
)
def test_variants_pass_every_check(tmp_path, args, page_mm, cards):
    out = tmp_path / "v.pdf"
    result = run("peas", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    results = check_file(out)
    assert not failed(results), [str(r) for r in results]
    drawing = read_pdf(out)
    assert (round(drawing.pages[0].width, 2), round(drawing.pages[0].height, 2)) == page_mm
    assert len(find_cards(drawing.pages[0], json.loads(drawing.subject)["bleed"])[0]) == cards
    assert len(drawing.pages) == (2 if "--back" in args else 1)


def test_own_mask_is_measured_and_named_as_such(tmp_path):
    out = tmp_path / "mask.pdf"
    mask = "ooo/o.o/ooo"
    assert run("peas", "--layout", mask, "-o", str(out)).exit_code == 0
    results = check_file(out)
    assert not failed(results), [str(r) for r in results]
    drawing = read_pdf(out)
    params = json.loads(drawing.subject)
    from printables.rules.peas_play import analyse_layout

    measured = analyse_layout(rules.Layout.parse(mask), games=pea_params.ANALYSIS_GAMES,
                             seed=pea_params.ANALYSIS_SEED, policy=pea_params.ANALYSIS_POLICY).mean
    assert params["layout_name"] is None and params["expected_smushed"] == round(measured, 2)
    text = " ".join(drawing.pages[0].text.split())
    assert "Layout: your own mask (8 peas)" in text and rules.difficulty_text(measured) in text
    assert "printables default" not in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pea", "9"], "pea 9.0 mm: use 10 to 20 mm"),
        (["--pea", "14"], "the largest pea that fits is 11 mm"),
        (["--rows", "0"], "rows 0"),
        (["--rows", "9", "--cols", "9"], "does not fit the A6 landscape card even with 10 mm peas"),
        (["--rows", "3", "--layout", "easy"], "give either a layout or rows and cols"),
        (["--layout", "o.o/..."], "every pea needs a neighbour"),
        (["--layout", "peas"], "neither a preset"),
        (["--rows", "1", "--cols", "1"], "every pea needs a neighbour"),
        (["--postcard", "a5"], "'a5'"),
        (["--paper", "a3"], "'a3'"),
        (["--bleed", "2"], "'2'"),
        # Borderless only where it holds more cards: elsewhere it would only switch the safe zone off.
        (["--postcard", "4x6", "--paper", "a4", "--borderless"],
         "borderless: 4x6 in cards on A4 go 2 up with or without it; it only fills the sheet edge to edge for A6 cards on A4 (4 up instead of 2)"),
        (["--paper", "letter", "--borderless"], "borderless: A6 cards on Letter go 2 up with or without it"),
        (["--postcard", "4x6", "--paper", "letter", "--portrait", "--borderless"], "4x6 in cards on Letter go 2 up"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "bad.pdf"
    result = CliRunner().invoke(main, ["peas", *args, "-o", str(out)])
    assert_one_line_error(result, message)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_same_command_gives_byte_identical_pdfs(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    run("peas", "--paper", "a4", "--back", "-o", str(a))
    run("peas", "--paper", "a4", "--back", "-o", str(b))
    assert a.read_bytes() == b.read_bytes()


def test_default_output_path_comes_from_the_parameters(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("peas", "--layout", "heart", "--paper", "a4", "--bleed", "3")
    assert result.exit_code == 0
    assert result.output.strip() == str(Path("output/peas/peas-heart-a6-2up-a4-bleed3.pdf"))
    assert (tmp_path / "output" / "peas" / "peas-heart-a6-2up-a4-bleed3.pdf").exists()


def test_every_peas_preset_builds_and_passes_its_checks(tmp_path):
    presets = sorted((ROOT / "templates").glob("peas-*.toml"))
    assert {p.stem for p in presets} >= {"peas-a6", "peas-4x6", "peas-a6-2up-a4", "peas-easy-a6", "peas-heart-a6"}
    for path in presets:
        built = build_preset(load_preset(path), tmp_path)
        assert built.ok, (path.name, [str(r) for r in built.results if not r.ok])


def test_print_shop_preset_says_its_trim_bleed_and_page_sizes(tmp_path):
    import re

    preset = load_preset(ROOT / "templates" / "peas-a6-print-shop.toml")
    said = dict(re.findall(r"(trim|bleed|page) (\d+ x \d+) mm", preset.description))
    built = build_preset(preset, tmp_path)
    assert built.ok, [str(r) for r in built.results if not r.ok]
    page = read_pdf(built.paths[0]).pages[0]
    size = lambda w, h: f"{round(w):g} x {round(h):g}"  # noqa: E731
    assert said == {"trim": size(*PeaCard().card_size_mm()), "bleed": size(148 + 6, 105 + 6),
                    "page": size(page.width, page.height)}


# --------------------------------------------------------------------------- sizes and sheets


def test_cards_are_their_true_size_and_peas_their_true_diameter():
    card = PeaCard(pea_mm=10.5, postcard="4x6", landscape=False)
    document = pea_layout.layout(card)
    band = next(i for i in document.pages[0].items if isinstance(i, Rect) and i.fill == pea_params.BAND_RGB)
    assert (band.x, band.y, band.w) == (0.0, 0.0, 101.6)
    peas = _peas_of(document)
    assert len(peas) == 35 and {2 * c.r for c in peas} == {10.5}
    pitch = pea_layout.pea_pitch(10.5)
    assert {round(b.cx - a.cx, 6) for a, b in zip(peas, peas[1:]) if a.cy == b.cy} == {pitch}


@pytest.mark.parametrize(
    "card",
    [
        PeaCard(layout="pod", landscape=False),
        PeaCard(landscape=False),
        PeaCard(layout="heart", postcard="4x6", landscape=False),
        PeaCard(landscape=False, lang="ko"),
        PeaCard(landscape=False, lang="tr"),
        PeaCard(layout="pod", landscape=False, lang="ko"),
    ],
    ids=["pod-a6", "default-a6", "heart-4x6", "default-a6-ko", "default-a6-tr", "pod-a6-ko"],
)
def test_portrait_rules_run_on_from_beside_the_tally_box_to_under_it(card):
    # A portrait card sets the rules' first lines beside the tally box and the rest under it at
    # full width: one paragraph at one leading, never a blank band in mid-sentence.
    from printables.i18n.books import catalogue
    from printables.layout.language import drawing_in

    mean = rules.EXPECTED_SMUSHED[card.layout]
    with drawing_in(card.lang):
        plan = pea_layout.plan_card(card, mean)
        items = pea_layout.front(card, plan, mean)
    assert plan.arrangement == "stacked" and plan.info and plan.summary
    tally = next(i for i in items if isinstance(i, Rect) and (i.w, i.h) == (pea_layout.TALLY_W_MM, pea_layout.TALLY_H_MM))
    texts = {i.text: i for i in items if isinstance(i, Text) and i.size_pt == plan.summary_pt}
    beside = [texts[line] for line in plan.info]
    under = [texts[line] for line in plan.summary]
    paragraph = " ".join(i.text for i in beside + under)
    assert paragraph == " ".join(catalogue(card.lang).phrase(pea_layout.SUMMARY).split())
    assert {i.x for i in beside} == {tally.x + tally.w + pea_layout.BODY_GAP_MM} and {i.x for i in under} == {tally.x}
    lead = pea_layout.line_height_mm(plan.summary_pt, 1.2)
    steps = [round(b.y - a.y, 6) for a, b in zip(beside + under, (beside + under)[1:])]
    assert steps == [round(lead, 6)] * len(steps), steps  # the next line is one leading on, beside or under
    # The lines beside the box start inside its height, and the first line under it clears its
    # bottom edge (cap height 0.75 em, the box's 0.4 mm line).
    assert beside[0].y - 0.8 * lead >= tally.y - 1e-6
    cap = 0.75 * plan.summary_pt * 25.4 / 72
    assert under[0].y - cap >= tally.y + tally.h + 0.2 + 0.5


def test_how_many_cards_fit_a_sheet():
    # Each card keeps 2 mm + 5 mm of crop mark and the 5 mm a home printer cannot print around the
    # grid: 12 mm a side. A6 landscape on A4: 148 + 24 <= 210 and 2 x 105 + 24 = 234 <= 297, but
    # 2 x 148 + 24 > 297, so two on a portrait A4. Borderless, A6 is a quarter of A4 (2 x 148 = 296
    # <= 297, 2 x 105 = 210): four butted cards. With 3 mm bleed a card takes 154 x 111 mm and 15 mm
    # a side: 2 x 111 + 30 = 252 <= 297, so two. US 4x6 on Letter: 2 x 101.6 + 24 = 227.2 <= 279.4.
    cases = {
        ("a6", True, "a4", 0.0, False): (2, (210.0, 297.0)),
        ("a6", False, "a4", 0.0, False): (2, (297.0, 210.0)),
        ("a6", True, "a4", 0.0, True): (4, (297.0, 210.0)),
        ("a6", False, "a4", 0.0, True): (4, (210.0, 297.0)),
        ("a6", True, "a4", 3.0, False): (2, (210.0, 297.0)),
        ("4x6", True, "letter", 0.0, False): (2, (215.9, 279.4)),
        ("4x6", True, "letter", 3.0, False): (2, (215.9, 279.4)),
        ("a6", True, "letter", 0.0, False): (2, (215.9, 279.4)),
        ("4x6", False, "a4", 0.0, False): (2, (297.0, 210.0)),
        ("a6", True, "none", 3.0, False): (1, (154.0, 111.0)),
    }
    for (postcard, landscape, paper, bleed, borderless), (count, page) in cases.items():
        sheet = imposition(postcard, landscape, paper, bleed, borderless)
        assert (sheet.count, (sheet.page_w, sheet.page_h)) == (count, page), (postcard, landscape, paper, bleed)


def test_the_checks_count_of_cards_agrees_with_the_imposition():
    for postcard in pea_params.POSTCARDS:
        for landscape in (True, False):
            for paper in ("a4", "letter"):
                for bleed, borderless in ((0.0, False), (3.0, False), (0.0, True)):
                    w, h = pea_params.postcard_size_mm(postcard, landscape)
                    paper_w, paper_h = pea_params.PAPER_SIZES_MM[paper]
                    assert most_cards(paper_w, paper_h, w, h, bleed, borderless) == imposition(
                        postcard, landscape, paper, bleed, borderless).count


def test_borderless_four_up_a4_marks_its_cut_lines_from_the_paper_edge():
    document = pea_layout.layout(PeaCard(paper="a4", borderless=True))
    marks = {
        (round(i.x1, 2), round(i.y1, 2), round(i.x2, 2), round(i.y2, 2))
        for i in document.pages[0].items
        if isinstance(i, Line) and abs(abs(i.x2 - i.x1) + abs(i.y2 - i.y1) - pea_params.MARK_LENGTH_MM) < 1e-9
    }
    # The four cards fill the sheet; the two cuts (x = 148.5, y = 105) are marked where they meet the paper.
    assert marks == {(148.5, 0.0, 148.5, 5.0), (148.5, 205.0, 148.5, 210.0), (0.0, 105.0, 5.0, 105.0), (292.0, 105.0, 297.0, 105.0)}


def test_crop_marks_stand_outside_the_cards_when_the_margin_has_room():
    document = pea_layout.layout(PeaCard(postcard="4x6", paper="letter"))
    # Two 152.4 x 101.6 cards centred on a portrait Letter: trims at x 31.75 / 184.15, y 38.1 / 139.7 / 241.3.
    vertical = sorted((round(i.x1, 2), round(i.y1, 2), round(i.y2, 2)) for i in document.pages[0].items
                      if isinstance(i, Line) and i.x1 == i.x2 and abs(i.y2 - i.y1 - 5) < 1e-9)
    assert vertical == [(31.75, 31.1, 36.1), (31.75, 243.3, 248.3), (184.15, 31.1, 36.1), (184.15, 243.3, 248.3)]


def test_backs_line_up_when_flipped_on_the_long_edge():
    portrait = pea_params.Imposition(210.0, 297.0, 1, 2, 0.0)
    landscape = pea_params.Imposition(297.0, 210.0, 2, 1, 0.0)
    # Off-centre on purpose: a portrait sheet mirrors left-right, a landscape one top-bottom.
    assert pea_layout.mirror_for_duplex(portrait, [(10.0, 20.0)], 148.0, 105.0) == [(52.0, 20.0)]
    assert pea_layout.mirror_for_duplex(landscape, [(10.0, 20.0)], 148.0, 105.0) == [(10.0, 85.0)]


def test_every_preset_fits_every_postcard_both_ways_with_its_back():
    for name in rules.LAYOUTS:
        for postcard in pea_params.POSTCARDS:
            for landscape in (True, False):
                card = PeaCard(layout=name, postcard=postcard, landscape=landscape, back=True)
                document = pea_layout.layout(card)
                assert len(document.pages) == 2
                peas = _peas_of(document)
                assert len(peas) == len(rules.LAYOUTS[name])
                assert all(2 * c.r >= pea_params.MIN_PEA_MM for c in peas)


def test_layout_preset_names_are_taken_in_any_case(tmp_path):
    for typed in ("HEART", "Heart", " heart "):
        card = PeaCard(layout=typed)
        assert card.layout == "heart" and card.layout_name() == "heart"
    assert PeaCard(layout="DEFAULT", rows=3, cols=4).card_layout() == rules.Layout.rectangle(3, 4)
    out = tmp_path / "h.pdf"
    result = run("peas", "--layout", "HEART", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(read_pdf(out).subject)["layout_name"] == "heart"
    # A mask stays a mask: upper-case O is not a pea.
    with pytest.raises(pea_params.ParameterError, match="neither a preset"):
        PeaCard(layout="OOO/O.O/OOO")


def test_file_stems_name_layout_card_and_sheet():
    assert PeaCard().file_stem() == "peas-default-a6"
    assert PeaCard(layout="heart", postcard="4x6", landscape=False).file_stem() == "peas-heart-4x6-portrait"
    assert PeaCard(paper="a4", back=True).file_stem() == "peas-default-a6-2up-a4-back"
    assert PeaCard(paper="a4", borderless=True).file_stem() == "peas-default-a6-4up-a4-borderless"
    assert PeaCard(rows=3, cols=4, bleed=3, pea_mm=13).file_stem() == "peas-3x4grid-a6-13mm-bleed3"
    assert PeaCard(rows=5, cols=7).file_stem() == "peas-default-a6"  # the same peas as the default
    assert PeaCard(rows=3).file_stem() == "peas-3x7grid-a6"  # the other side as the default's
    assert PeaCard(layout="ooo/o.o/ooo").file_stem().startswith("peas-mask-")


# --------------------------------------------------------------------------- the check reads the drawing


def test_check_recovers_the_heart_from_the_drawing(tmp_path):
    heart = """
        .oo.oo.
        ooooooo
        ooooooo
        .ooooo.
        ..ooo..
    """
    path = _write(tmp_path, pea_layout.layout(PeaCard(layout="heart")), "heart.pdf")
    page = read_pdf(path).pages[0]
    (card,), _ = find_cards(page, 0.0)
    centres = [(x, y) for x, y, _ in recover_peas(page, card)]
    _, positions, edges, odd = pea_graph(centres)
    assert not odd
    drawn = rules.Layout.parse(heart)
    assert frozenset(positions) == drawn.peas and edges == rules.edges(drawn)
    # Counted by hand: across 2 + 6 + 6 + 4 + 2 = 20, down 4 + 7 + 5 + 3 = 19.
    assert len(edges) == 39


def test_check_fails_on_a_sheet_with_a_missing_pea(tmp_path):
    document = pea_layout.layout(PeaCard())
    gone = _peas_of(document)[2 * 7 + 3]  # r2c3 of the 5 x 7 default
    path = _write(tmp_path, _with_page(document, 0, (i for i in document.pages[0].items if i is not gone)))
    results = check_file(path)
    assert failed(results) == {"peas"}
    assert "34 peas drawn, the layout has 35" in detail(results, "peas")
    assert "missing r2c3" in detail(results, "peas")


def test_check_fails_on_a_pea_drawn_twice(tmp_path):
    document = pea_layout.layout(PeaCard(layout="easy"))
    twice = document.pages[0].items + (_peas_of(document)[0],)
    results = check_file(_write(tmp_path, _with_page(document, 0, twice)))
    assert failed(results) == {"peas"} and "16 peas drawn, the layout has 15" in detail(results, "peas")


def test_check_fails_on_a_pea_off_the_lattice_or_of_the_wrong_size(tmp_path):
    document = pea_layout.layout(PeaCard(layout="heart"))
    moved = _peas_of(document)[5]
    items = [dataclasses.replace(i, cx=i.cx + 1.0) if i is moved else i for i in document.pages[0].items]
    results = check_file(_write(tmp_path, _with_page(document, 0, items)))
    assert failed(results) == {"peas"} and "off the" in detail(results, "peas")
    params = json.loads(document.subject)
    params["pea_mm"] += 0.5
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params)), "size.pdf"))
    assert failed(results) == {"peas"} and f"expected {params['pea_mm']:g} mm" in detail(results, "peas")


def test_check_fails_on_cards_at_the_wrong_size(tmp_path):
    document = pea_layout.layout(PeaCard(paper="a4"))
    # The cards as drawn are A6; a subject claiming 4x6 makes every card the wrong size.
    params = json.loads(document.subject)
    params["postcard"] = "4x6"
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params))))
    assert "cards" in failed(results)
    assert "expected 152.4x101.6" in detail(results, "cards")
    # Cards drawn 2 mm too narrow (band and stripe shortened) are caught from the geometry alone.
    narrow = [dataclasses.replace(i, w=i.w - 2.0) if isinstance(i, Rect) and i.fill == pea_params.BAND_RGB else i
              for i in document.pages[0].items]
    results = check_file(_write(tmp_path, _with_page(document, 0, narrow), "narrow.pdf"))
    assert "cards" in failed(results) and "146.00x105.00 mm, expected 148x105" in detail(results, "cards")


def test_check_fails_on_a_card_page_at_the_wrong_size(tmp_path):
    document = pea_layout.layout(PeaCard(bleed=3))
    page = document.pages[0]
    # The page without its bleed: the card then runs off the page as well.
    path = _write(tmp_path, dataclasses.replace(document, pages=(Page(148.0, 105.0, page.items),)))
    assert {"page size", "cards"} <= failed(check_file(path))


def test_check_fails_on_a_missing_crop_mark(tmp_path):
    document = pea_layout.layout(PeaCard(postcard="4x6", paper="letter"))
    mark = next(i for i in document.pages[0].items if isinstance(i, Line) and i.x1 == i.x2 and abs(i.y2 - i.y1 - 5) < 1e-9)
    results = check_file(_write(tmp_path, _with_page(document, 0, (i for i in document.pages[0].items if i is not mark))))
    assert failed(results) == {"crop marks"}
    assert f"x = {mark.x1:.2f} mm lacks a mark" in detail(results, "crop marks")


def test_check_fails_on_a_crop_mark_inside_a_card(tmp_path):
    document = pea_layout.layout(PeaCard(postcard="4x6", paper="letter"))
    stray = Line(60.0, 80.0, 60.0, 85.0, line_mm=pea_params.MARK_LINE_MM)
    results = check_file(_write(tmp_path, _with_page(document, 0, document.pages[0].items + (stray,))))
    assert failed(results) == {"crop marks"} and "1 mark(s) inside a card" in detail(results, "crop marks")


def test_a_home_printed_sheet_keeps_cards_and_marks_out_of_the_5_mm_safe_zone():
    for card in (PeaCard(paper="a4", back=True), PeaCard(postcard="4x6", paper="letter"), PeaCard(paper="a4", bleed=3)):
        document = pea_layout.layout(card)
        for page in document.pages:
            for item in page.items:
                if isinstance(item, Line):
                    xs, ys = (item.x1, item.x2), (item.y1, item.y2)
                    assert min(xs) >= 5.0 and max(xs) <= page.width - 5.0 and min(ys) >= 5.0 and max(ys) <= page.height - 5.0


def test_check_fails_on_a_crop_mark_in_the_safe_zone(tmp_path):
    document = pea_layout.layout(PeaCard(paper="a4"))
    stray = Line(30.0, 0.0, 30.0, 5.0, line_mm=pea_params.MARK_LINE_MM)  # a borderless sheet's mark on a home sheet
    results = check_file(_write(tmp_path, _with_page(document, 0, document.pages[0].items + (stray,))))
    assert "safe zone" in failed(results) and "0.0 mm from the edge" in detail(results, "safe zone")


def test_check_fails_on_cards_that_reach_the_paper_without_borderless(tmp_path):
    document = pea_layout.layout(PeaCard(paper="a4", borderless=True))
    params = json.loads(document.subject)
    params["borderless"] = False
    results = check_file(_write(tmp_path, dataclasses.replace(document, subject=json.dumps(params))))
    assert "safe zone" in failed(results) and "from the paper's edge" in detail(results, "safe zone")
    assert "cards" in failed(results)  # and 4 cards do not fit a home-printed A4


def test_check_fails_on_text_too_close_to_a_single_cards_trim(tmp_path):
    document = pea_layout.layout(PeaCard())
    near = Text(2.0, 50.0, "edge", size_pt=7)
    results = check_file(_write(tmp_path, _with_page(document, 0, document.pages[0].items + (near,))))
    # the stray word also runs into the first column of peas, which clearance (strict since #24) reports
    assert failed(results) == {"safe zone", "clearance"} and "'edge' is 2.0 mm inside the trim" in detail(results, "safe zone")


def test_check_fails_on_a_card_without_its_publishers_box(tmp_path):
    document = pea_layout.layout(PeaCard())
    kept = [i for i in document.pages[0].items if not (isinstance(i, Text) and "About the game" in i.text)]
    results = check_file(_write(tmp_path, _with_page(document, 0, kept)))
    assert failed(results) == {"publisher's box"} and "About the game" in detail(results, "publisher's box")


def test_borderless_is_allowed_only_where_it_holds_more_cards():
    # Butted to the edge: A6 (105 x 148) twice each way is 210 x 296 <= A4's 210 x 297, but 4x6 in
    # (101.6 x 152.4) twice along is 304.8 > 297 (A4) and 304.8 > 279.4 (Letter), and A6 twice along is
    # 296 > 279.4 (Letter): those stay 2 up, as they are with the 5 mm safe zone.
    assert pea_params.borderless_gains() == {("a6", "a4"): (2, 4)}
    for landscape in (True, False):
        assert PeaCard(paper="a4", borderless=True, landscape=landscape).imposition().count == 4
        for postcard, paper in (("4x6", "a4"), ("a6", "letter"), ("4x6", "letter")):
            with pytest.raises(pea_params.ParameterError, match="go 2 up with or without it"):
                PeaCard(postcard=postcard, paper=paper, borderless=True, landscape=landscape)


def test_borderless_needs_a_sheet_and_no_bleed():
    with pytest.raises(pea_params.ParameterError, match="borderless: only a sheet of cards"):
        PeaCard(borderless=True)
    with pytest.raises(pea_params.ParameterError, match="borderless with bleed 3 mm"):
        PeaCard(paper="a4", bleed=3, borderless=True)


def test_check_fails_on_a_wrong_difficulty_or_layout_line(tmp_path):
    document = pea_layout.layout(PeaCard())
    items = [dataclasses.replace(i, text=i.text.replace("about 2", "about 4")) if isinstance(i, Text) else i
             for i in document.pages[0].items]
    results = check_file(_write(tmp_path, _with_page(document, 0, items)))
    assert failed(results) == {"card text"} and "the rule core measures about 2" in detail(results, "card text")
    items = [i for i in document.pages[0].items if not (isinstance(i, Text) and "printables default" in i.text)]
    results = check_file(_write(tmp_path, _with_page(document, 0, items), "line.pdf"))
    assert "card text" in failed(results)


def test_check_fails_on_a_back_that_does_not_line_up(tmp_path):
    document = pea_layout.layout(PeaCard(postcard="4x6", paper="letter", back=True))
    shifted = translate(document.pages[1].items, 2.0, 0.0)
    results = check_file(_write(tmp_path, _with_page(document, 1, shifted)))
    assert "back" in failed(results) and "do not line up" in detail(results, "back")
    one_page = dataclasses.replace(document, pages=document.pages[:1])
    assert {"back", "page size"} <= failed(check_file(_write(tmp_path, one_page, "front-only.pdf")))


def test_check_fails_on_a_missing_scale_bar(tmp_path):
    document = pea_layout.layout(PeaCard())
    items = [i for i in document.pages[0].items if not (isinstance(i, Line) and abs(i.x2 - i.x1 - 50.0) < 1e-9)]
    results = check_file(_write(tmp_path, _with_page(document, 0, items)))
    assert failed(results) == {"scale bar"}


# --------------------------------------------------------------------------- any layout round-trips


@st.composite
def masks(draw):
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 6))
    drawn = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    peas = {(r, c) for r in range(rows) for c in range(cols) if drawn[r * cols + c]} or {(0, 0)}
    # Give every lonely pea a neighbour (adding a pea never leaves another one lonely).
    for r, c in sorted(peas):
        if not any((r + dr, c + dc) in peas for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))):
            peas.add((r, c + 1) if c + 1 < cols else (r, c - 1))
    return "/".join("".join("o" if (r, c) in peas else "." for c in range(cols)) for r in range(rows))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mask=masks())
def test_any_layout_is_drawn_and_recovered_exactly(tmp_path, mask):
    layout = rules.Layout.parse(mask)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pea_params, "ANALYSIS_GAMES", 2)  # the difficulty is not under test here
        path = _write(tmp_path, pea_layout.layout(PeaCard(layout=mask)), "any.pdf")
        results = check_file(path)
    assert not failed(results), [str(r) for r in results]
    page = read_pdf(path).pages[0]
    (card,), _ = find_cards(page, 0.0)
    _, positions, edges, _ = pea_graph([(x, y) for x, y, _ in recover_peas(page, card)])
    assert frozenset(positions) == layout.normalised().peas and edges == rules.edges(layout.normalised())
    assert "Layout:" in card_text(page, card)
