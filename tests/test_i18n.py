"""Translation: catalogues, the one pass over a laid-out sheet, fonts and Korean line breaking."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from printables import i18n
from printables.errors import ParameterError
from printables.i18n import Translated
from printables.i18n.books import catalogue, needs_translation
from printables.layout.language import break_lines, drawing_in
from printables.layout.translation import translate_document, translate_items
from printables import fonts
from printables.i18n import fonts as lang_fonts
from printables.layout.primitives import Document, Rect, Text
from printables.sheets import SHEET_KINDS, _load, render_sheet, sheet_params

sys.path.insert(0, str(Path(__file__).parent))
from i18n_cases import sheet_cases  # noqa: E402

CASES = sheet_cases()


def _laid_out(kind: str, params: dict, lang: str) -> tuple[Document, list[str]]:
    sheet = sheet_params(kind, {**params, "lang": lang})
    with drawing_in(lang) as paragraphs:
        return _load(SHEET_KINDS[kind][1])(sheet), paragraphs


@pytest.mark.parametrize("lang", ["ko", "tr"])
@pytest.mark.parametrize("kind,params", CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_every_text_of_every_sheet_has_a_translation(kind, params, lang):
    """When a layout's English changes, this names the text to add to the catalogue."""
    book = catalogue(lang)
    document, paragraphs = _laid_out(kind, params, lang)
    texts = [document.title] + [item.text for page in document.pages for item in page.items if isinstance(item, Text)]
    # a line the layout broke itself from a paragraph translated while drawing is covered by it
    missing = sorted({str(t) for t in texts if book.lookup(t) is None
                      and not any(" ".join(t.split()) in done for done in paragraphs)})
    assert not missing, f"add to printables/i18n/{lang}.toml: {missing}"
    translated = translate_document(document, lang, paragraphs)
    faces = {item.font for page in translated.pages for item in page.items if isinstance(item, Text)}
    assert faces <= set(lang_fonts.LANG_FACES[lang]), faces


def test_catalogues_translate_every_key_to_something_in_that_language():
    for lang, letters in (("ko", "가힣"), ("tr", "")):
        book = catalogue(lang)
        assert len(book.texts) > 50 and len(book.patterns) > 20
        if lang == "ko":
            hangul = [t for t in book.texts.values() if any("가" <= ch <= "힣" for ch in t)]
            assert len(hangul) > 0.8 * len(book.texts)
    tr = catalogue("tr")
    assert tr.translate("The Bitcoin Harvest") == "Bitcoin Hasadı"
    assert any(ch in "ğşıİ" for ch in "".join(tr.texts.values()))


def test_exact_pattern_fields_and_joined_parts():
    book = catalogue("ko")
    assert book.lookup("Total") == "합계"
    assert book.lookup("Player 7") == "플레이어 7"
    # a field's value is translated when the catalogue knows it ("classic" -> "클래식")
    assert book.lookup("leather: classic edition") == "가죽 조각: 클래식"
    # a line joined with " · " goes part by part; numbers and units need no translation
    assert book.lookup("The Bitcoin Harvest · 8x8 · 2 players") == "비트코인 하베스트 · 8x8 · 2인"
    assert book.lookup("A4") == "A4" and book.lookup("P1") == "P1" and book.lookup("100 mm") == "100 mm"
    assert book.lookup("Some new English words") is None
    with pytest.raises(i18n.MissingTranslation, match="ko.toml"):
        book.translate("Some new English words")
    # a line already wrapped in the page's language passes as it is
    assert book.lookup(Translated("이미 번역된 줄")) == "이미 번역된 줄"


def test_pattern_translation_may_not_invent_fields(tmp_path, monkeypatch):
    (tmp_path / "ko.toml").write_text('[text]\n[pattern]\n"{n} players" = "{m}인"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "CATALOGUE_DIR", tmp_path)
    catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match="names a field"):
            catalogue("ko")
    finally:
        catalogue.cache_clear()


def test_translate_items_is_pure_and_swaps_fonts():
    items = (Rect(0, 0, 10, 10), Text(1, 2, "Total", font="Helvetica-Bold"), Text(1, 5, "12"))
    out = translate_items(items, "ko")
    assert out[0] is items[0]
    assert out[1] == Text(1, 2, "합계", font="NanumGothicBold")
    assert out[2] == Text(1, 5, "12", font="NanumGothic")
    assert items[1].text == "Total"  # the input is untouched
    assert translate_items(items, "en") == items


def test_lang_is_validated():
    assert i18n.require_lang("KO") == "ko"
    for bad in ("de", "", None, 3):
        with pytest.raises(ParameterError, match="use one of en, ko, tr"):
            i18n.require_lang(bad)
    with pytest.raises(ParameterError, match="lang 'fr'"):
        sheet_params("peas", {"lang": "fr"})


def test_korean_breaks_at_spaces_and_inside_words_too_long_for_a_line():
    measure = lambda s: fonts.text_width_mm(s, 8, "NanumGothic")  # noqa: E731
    text = catalogue("ko").translate(
        "The harvest is complete when every pea is filled or smushed. Your score is the number of smushed "
        "peas: lower is better. Complete the harvest without smushing a pea to make Peater proud!")
    lines = break_lines(text, 40.0, measure)
    assert len(lines) > 3
    assert all(measure(line) <= 40.0 for line in lines)
    assert " ".join(lines) == " ".join(text.split())  # broken at spaces only: nothing lost or added
    # a "word" wider than the line is broken between syllables, never left to overflow
    long_word = "완두콩" * 12
    pieces = break_lines(long_word, 20.0, measure)
    assert len(pieces) > 1 and "".join(pieces) == long_word
    assert all(measure(piece) <= 20.0 for piece in pieces)


def test_metrics_are_the_real_font_widths():
    assert fonts.has_glyph("한글", "NanumGothic") and fonts.has_glyph("A", "NanumGothic")
    assert not fonts.has_glyph("ğ", "NanumGothic")
    assert fonts.has_glyph("ğĞşŞıİçÇöÖüÜ", "NotoSans") and not fonts.has_glyph("한", "NotoSans")
    # a Hangul syllable is a full em wide in NanumGothic: 10 pt = 3.53 mm
    assert fonts.text_width_mm("한", 10, "NanumGothic") == pytest.approx(10 * 25.4 / 72, rel=0.08)


@pytest.fixture
def no_nanum(monkeypatch):
    """A system without fonts-nanum nor koreanize-matplotlib nor an OS Korean face: no NanumGothic."""
    monkeypatch.setattr(fonts, "FONT_DIRS", ("/usr/share/fonts/truetype/noto",))
    monkeypatch.setattr(fonts, "PACKAGE_FILES", {k: v for k, v in fonts.PACKAGE_FILES.items() if not k.startswith("korean")})
    monkeypatch.setattr(fonts, "OS_STAND_INS", {})
    monkeypatch.delenv(fonts.FONT_DIR_ENV, raising=False)
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()
    yield
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()


def test_a_missing_korean_font_names_the_package_to_install(no_nanum):
    with pytest.raises(ParameterError, match=r"NanumGothic not found .*apt-get install fonts-nanum"):
        fonts.font_file("korean")


def test_a_missing_korean_font_is_one_line_and_exit_2(no_nanum, tmp_path):
    from click.testing import CliRunner

    from printables.cli import main

    result = CliRunner().invoke(main, ["peas", "--lang", "ko", "-o", str(tmp_path / "p.pdf")])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "fonts-nanum" in result.output
    assert not (tmp_path / "p.pdf").exists()


def test_korean_pdf_embeds_a_subset_of_nanum_and_reads_back_in_korean():
    data = render_sheet("peas", sheet_params("peas", {"lang": "ko", "back": True}))
    reader = PdfReader(io.BytesIO(data))
    embedded = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None and "/FontFile2" in descriptor.get_object():
                embedded.add(str(font["/BaseFont"]))
    assert embedded and all("+Nanum" in name for name in embedded), embedded
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
        fontnames = {c["fontname"] for page in pdf.pages for c in page.chars}
    assert "으깬 완두콩" in text and "게임 방법" in text
    assert all("Nanum" in name for name in fontnames), fontnames
    assert "\x00" not in text  # every character had a glyph
    # the same inputs give the same bytes
    assert render_sheet("peas", sheet_params("peas", {"lang": "ko", "back": True})) == data


def test_a_word_set_letter_under_letter_is_restacked_in_the_translation():
    """Minefield's WHITE band label stands letter under letter: its translation does too."""
    stacked = tuple(Text(5.0, 10.0 + 3.0 * i, ch, anchor="middle", font="Helvetica-Bold") for i, ch in enumerate("WHITE"))
    korean = [i for i in translate_items(stacked, "ko") if isinstance(i, Text)]
    # two syllables (white stone: a word one can find on the band, not a lone 2 mm glyph), about the word's centre
    assert [(t.text, t.y) for t in korean] == [("백", 14.5), ("돌", 17.5)]
    turkish = [i for i in translate_items(stacked, "tr") if isinstance(i, Text)]
    assert "".join(t.text for t in turkish) == "BEYAZ"
    assert [t.y for t in turkish] == [10.0, 13.0, 16.0, 19.0, 22.0] and {t.x for t in turkish} == {5.0}
    # letters side by side (grid labels) are not a stacked word
    row = tuple(Text(5.0 + 3.0 * i, 10.0, ch) for i, ch in enumerate("WHITE"))
    assert [t.text for t in translate_items(row, "ko")] == list("WHITE")


@pytest.mark.parametrize("lang", ["ko", "tr"])
def test_every_text_of_the_giuthi_rules_sheet_has_a_translation(lang):
    from printables.layout.giuthi_rules import rules_document

    book = catalogue(lang)
    for pits, seeds in ((6, 4), (10, 9)):
        with drawing_in(lang) as paragraphs:
            document = rules_document(pits, seeds, "a4")
        texts = [document.title] + [i.text for page in document.pages for i in page.items if isinstance(i, Text)]
        missing = sorted({str(t) for t in texts if book.lookup(t) is None
                          and not any(" ".join(t.split()) in done for done in paragraphs)})
        assert not missing, f"add to printables/i18n/{lang}.toml: {missing}"


def test_a_translated_line_reads_back_into_its_english():
    book = catalogue("ko")
    assert book.english("그림 2 (한 차례): 남쪽의 수: 1cw") == "Diagram 2 (a turn): South plays 1cw"
    assert book.english("합계") == "Total"
    assert book.english("처음 보는 문장") is None


class _Estimate:
    def __init__(self, seconds, grams, metres, support_mm=0.0):
        self.print_time_s, self.filament_g, self.filament_m, self.support_mm = seconds, grams, metres, support_mm


def _card_variants():
    """Giuthi print cards as the set builds them: sliced or not, supports needed, other boards and screws."""
    from printables.models import seed_params_for
    from printables.params.giuthi_board import GiuthiBoardParams
    from printables.render.giuthi_card import giuthi_print_card

    for board in (GiuthiBoardParams(), GiuthiBoardParams(pits_per_row=10, seeds_per_pit=4, seed_diameter_mm=10.0),
                  GiuthiBoardParams(screw="m3", screw_length_mm=16.0)):
        seeds = seed_params_for(board)
        names = [f"{board.part_name(side)}.stl" for side in ("left", "right")]
        yield giuthi_print_card(seeds, {}, board)
        yield giuthi_print_card(seeds, {names[0]: _Estimate(3 * 3600 + 59, 80.0, 26.8, support_mm=12.0),
                                        names[1]: _Estimate(40 * 60, 80.0, 26.8, support_mm=3.0)}, board)
    board = GiuthiBoardParams()
    from printables.params.giuthi_seeds import stl_name

    seeds = seed_params_for(board)
    everything = {f"{board.part_name(side)}.stl": _Estimate(5 * 3600, 80.0, 26.8) for side in ("left", "right")}
    everything[stl_name(seeds)] = _Estimate(16 * 60, 3.0, 1.0)
    yield giuthi_print_card(seeds, everything, board)
    yield giuthi_print_card(seeds, {}, None, screw_count=2)


@pytest.mark.parametrize("lang", ["ko", "tr"])
def test_every_text_of_the_giuthi_print_card_has_a_translation(lang):
    """When the card's English changes, this names the text to add to the catalogue."""
    from printables.render.giuthi_card import card_document, card_in_language

    book = catalogue(lang)
    for card in _card_variants():
        with drawing_in(lang) as paragraphs:
            document = card_document(card)
        texts = [document.title] + [i.text for page in document.pages for i in page.items if isinstance(i, Text)]
        missing = sorted({str(t) for t in texts if book.lookup(t) is None
                          and not any(" ".join(t.split()) in done for done in paragraphs)})
        assert not missing, f"add to printables/i18n/{lang}.toml: {missing}"
        translated = card_in_language(card, lang)  # the whole pass, and the page still fits
        faces = {i.font for page in translated.pages for i in page.items if isinstance(i, Text)}
        assert faces <= set(lang_fonts.LANG_FACES[lang]), faces


def test_file_names_and_lists_of_known_texts_need_no_entry_of_their_own():
    book = catalogue("ko")
    # file names read the same in every language
    assert not needs_translation("giuthi-board-left-2x6-4seeds.stl")
    assert book.lookup("dremel-3d45-giuthi.ini (PrusaSlicer: File > Import > Import Config)") == \
        "dremel-3d45-giuthi.ini (PrusaSlicer: File > Import > Import Config 메뉴)"
    # a field listing known texts, which hold commas themselves, is translated item by item
    assert book.lookup("none by design (overhangs down to 45° from the bed need none); not yet verified with a"
                       " slicer for Board, right half, Seeds, 12 per print") == (
        "설계상 없음 (베드에서 45°까지 기울어진 돌출부는 서포트가 필요 없음); 판 오른쪽 반, 씨앗, 한 번에 12개:"
        " 아직 슬라이서로 확인하지 않음")
    # an item the catalogue does not know leaves the whole text untranslated
    assert book.lookup("NEEDED by Board, left half, Lid: PrusaSlicer added support material"
                       " (overhangs down to 45° from the bed need none)") is None
