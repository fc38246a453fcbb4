"""The language, glyph and text-fit checks: they pass on every language and fail on broken files."""

from __future__ import annotations

import dataclasses
import json

import pytest

from printables.check.dispatch import check_file
from printables.check.lettering import check_text_fits
from printables.layout.language import drawing_in
from printables.layout.translation import translate_document
from printables.layout.primitives import Document, Page, Rect, Text
from printables.render.pdf import render_pdf
from printables.sheets import SHEET_KINDS, _load, sheet_params


def _document(kind: str, params: dict, lang: str) -> Document:
    sheet = sheet_params(kind, {**params, "lang": lang})
    with drawing_in(lang) as paragraphs:
        document = _load(SHEET_KINDS[kind][1])(sheet)
    return translate_document(document, lang, paragraphs)


def _results(path) -> dict:
    return {r.name: r for r in check_file(path)}


@pytest.mark.parametrize("lang", ["en", "ko", "tr"])
@pytest.mark.parametrize("kind,params", [
    ("harvest", {"players": 3, "grid": "12x12"}),
    ("minefield", {"size": 9}),
    ("peas", {"layout": "heart", "paper": "a4", "back": True}),
    ("patchwork", {"part": "all", "leather": "revised", "ink": "low"}),
])
def test_sheets_in_every_language_pass_every_check(tmp_path, kind, params, lang):
    path = tmp_path / f"{kind}-{lang}.pdf"
    path.write_bytes(render_pdf(_document(kind, params, lang)))
    results = _results(path)
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    assert {"language", "text fits"} <= set(results) if lang != "en" else "language" not in results
    assert results["text fits"].ok  # every sheet, English too
    assert "glyphs" in results  # the preflight's, on every PDF
    assert json.loads(__import__("pypdf").PdfReader(str(path)).metadata["/Subject"])["lang"] == lang


def test_a_korean_page_in_a_latin_only_font_fails_the_glyph_check(tmp_path):
    document = _document("peas", {}, "ko")
    latin_only = dataclasses.replace(document, pages=tuple(
        Page(p.width, p.height, tuple(dataclasses.replace(i, font="NotoSans") if isinstance(i, Text) else i
                                      for i in p.items))
        for p in document.pages))
    path = tmp_path / "latin.pdf"
    path.write_bytes(render_pdf(latin_only))
    glyphs = _results(path)["glyphs"]
    assert not glyphs.ok
    assert "without a glyph in AAAAAA+NotoSans" in glyphs.detail


def test_turkish_letters_in_a_font_without_them_fail_the_glyph_check(tmp_path):
    document = _document("minefield", {}, "tr")
    nanum = dataclasses.replace(document, pages=tuple(
        Page(p.width, p.height, tuple(dataclasses.replace(i, font="NanumGothic") if isinstance(i, Text) else i
                                      for i in p.items))
        for p in document.pages))
    path = tmp_path / "nanum.pdf"
    path.write_bytes(render_pdf(nanum))
    glyphs = _results(path)["glyphs"]
    assert not glyphs.ok and "without a glyph in AAAAAA+NanumGothic" in glyphs.detail


@pytest.mark.parametrize("recorded", ["ko", "tr"])
@pytest.mark.parametrize("kind,params", [("harvest", {}), ("minefield", {}), ("peas", {}), ("patchwork", {"part": "track"})])
def test_an_english_page_recorded_as_another_language_fails_the_language_check(tmp_path, kind, params, recorded):
    document = _document(kind, params, "en")
    subject = json.loads(document.subject)
    subject["lang"] = recorded
    path = tmp_path / "wrong.pdf"
    path.write_bytes(render_pdf(dataclasses.replace(document, subject=json.dumps(subject))))
    language = _results(path)["language"]
    assert not language.ok
    assert f"not in {'Korean' if recorded == 'ko' else 'Turkish'}" in language.detail


def test_a_turkish_page_recorded_as_korean_fails_the_language_check(tmp_path):
    document = _document("harvest", {}, "tr")
    subject = json.loads(document.subject)
    subject["lang"] = "ko"
    path = tmp_path / "wrong.pdf"
    path.write_bytes(render_pdf(dataclasses.replace(document, subject=json.dumps(subject))))
    language = _results(path)["language"]
    assert not language.ok and "Hangul" in language.detail


def _one_page(tmp_path, *items) -> object:
    document = Document((Page(100.0, 80.0, tuple(items)),), "t", json.dumps({"kind": "x"}), "printables:x")
    path = tmp_path / "fit.pdf"
    path.write_bytes(render_pdf(translate_document(document, "ko")))
    return check_text_fits(path)


def test_text_inside_its_frame_fits(tmp_path):
    result = _one_page(tmp_path, Rect(10, 10, 60, 10), Text(12, 17, "합계", size_pt=9))
    assert result.ok, result.detail


def test_text_running_out_of_its_frame_fails(tmp_path):
    # "Coins harvested" in Korean at 12 pt is about 26 mm: it cannot fit a 15 mm cell
    result = _one_page(tmp_path, Rect(10, 10, 15, 10), Text(11, 17, "Coins harvested", size_pt=12))
    assert not result.ok and "runs out of its 15.0 x 10.0 mm frame" in result.detail


def test_text_off_the_page_fails(tmp_path):
    result = _one_page(tmp_path, Text(90, 40, "Coins harvested", size_pt=10))
    assert not result.ok and "runs out of the page" in result.detail


def test_an_english_sheet_with_words_over_each_other_fails_its_check(tmp_path):
    document = _document("minefield", {}, "en")
    page = document.pages[0]
    first = next(i for i in page.items if isinstance(i, Text) and len(i.text) > 8)
    clash = dataclasses.replace(first, x=first.x + 2, y=first.y + 0.3)  # the same words, 2 mm to the right
    path = tmp_path / "clash.pdf"
    path.write_bytes(render_pdf(dataclasses.replace(document, pages=(Page(page.width, page.height, page.items + (clash,)),))))
    results = _results(path)
    assert not results["text fits"].ok and "printed over each other" in results["text fits"].detail
    assert "language" not in results  # English: the fit check alone


def test_words_printed_over_each_other_fail(tmp_path):
    result = _one_page(tmp_path, Text(10, 40, "Total", size_pt=10), Text(12, 40.5, "Player", size_pt=10))
    assert not result.ok and "printed over each other" in result.detail


@pytest.mark.parametrize("lang", ["ko", "tr"])
def test_the_giuthi_rules_sheet_in_korean_and_turkish_is_read_back_and_replayed(tmp_path, lang):
    from printables.models import write_rules_sheet

    path = write_rules_sheet(8, 5, tmp_path / f"rules-{lang}.pdf", "a4", lang)
    results = _results(path)
    assert all(r.ok for r in results.values()), [str(r) for r in results.values() if not r.ok]
    # every diagram was found through the catalogue's words and replayed with the rule core
    assert sum(name.startswith("diagram ") for name in results) == 7
    assert results["language"].ok and results["text fits"].ok


def test_a_translated_rules_sheet_with_a_wrong_score_fails(tmp_path):
    from printables.models import write_rules_sheet

    path = write_rules_sheet(6, 4, tmp_path / "rules.pdf", "a4", "ko")
    good = _results(path)
    assert good["diagram 7 (the end)"].ok
    from printables.i18n import books

    book = books.catalogue("ko")
    key = "Score: South {a} (store {b} + {c} in pits), North {d} (store {e} + {f} in pits): {verdict}."
    # the sheet says the other player won: the check, reading Korean, must notice
    patterns = tuple((r, e, t.replace("{verdict}", "북쪽 승리") if e == key else t) for r, e, t in book.patterns)
    bad = dataclasses.replace(book, patterns=patterns)
    from unittest import mock

    with mock.patch.object(books, "catalogue", lambda lang: bad if lang == "ko" else book):
        document = None
        from printables.layout.giuthi_rules import rules_document

        with drawing_in("ko") as paragraphs:
            document = rules_document(6, 4, "a4")
        wrong = translate_document(document, "ko", paragraphs)
    path.write_bytes(render_pdf(wrong))
    result = _results(path)["diagram 7 (the end)"]
    assert not result.ok and "the score says" in result.detail
