"""More damaged sheets that `printables check` must fail: page boxes moved or cut, viewer
preferences lost, and `check` of the whole folder `printables build` writes.

As in test_damaged_sheets.py, every damaged file is a real sheet edited with pypdf afterwards; the
undamaged sheet passes the same checks, so each failure is the damage's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfWriter
from pypdf.generic import ArrayObject, FloatObject, NameObject

from printables.check.dispatch import check_file
from printables.cli import main

from damage import edit_subject as _edit_subject, failed_checks as _failed, make_sheet as _sheet

MM = 72 / 25.4


def _passed(path: Path) -> dict[str, str]:
    return {r.name: r.detail for r in check_file(path) if r.ok}


def _edit_pages(src: Path, dst: Path, change) -> Path:
    """``src`` with ``change(page)`` applied to every page dictionary (pypdf)."""
    writer = PdfWriter(clone_from=str(src))
    for page in writer.pages:
        change(page)
    with open(dst, "wb") as handle:
        writer.write(handle)
    return dst


def _set_box(page, key: str, box) -> None:
    page[NameObject(key)] = ArrayObject(FloatObject(round(v, 4)) for v in box)


def _box(page, key: str) -> list[float]:
    return [float(v) for v in page[key]]


@pytest.fixture(scope="module")
def harvest(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("harvest"), "harvest", "--grid", "10x10")
    assert _failed(path) == {}
    return path


@pytest.fixture(scope="module")
def print_shop(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("shop"), "peas", "--bleed", "3", "--back")
    assert _failed(path) == {}
    assert "crop marks" in _passed(path)["page boxes"]
    return path


# ----------------------------------------------------------------------------- CropBox (QA item 4)


def test_a_cropbox_inside_the_paper_fails(harvest, tmp_path):
    def crop(page):
        x0, y0, x1, y1 = _box(page, "/MediaBox")
        _set_box(page, "/CropBox", (x0 + 20, y0 + 20, x1 - 20, y1 - 20))

    failed = _failed(_edit_pages(harvest, tmp_path / "cropped.pdf", crop))
    assert set(failed) == {"page boxes"}
    assert "CropBox" in failed["page boxes"] and "not the MediaBox" in failed["page boxes"]


def test_a_cropbox_equal_to_the_mediabox_passes(harvest, tmp_path):
    edited = _edit_pages(harvest, tmp_path / "same.pdf", lambda p: _set_box(p, "/CropBox", _box(p, "/MediaBox")))
    assert _failed(edited) == {}


def test_a_print_shop_cropbox_may_be_the_bleedbox_but_not_less(print_shop, tmp_path):
    at_bleed = _edit_pages(print_shop, tmp_path / "bleed.pdf", lambda p: _set_box(p, "/CropBox", _box(p, "/BleedBox")))
    assert _failed(at_bleed) == {}

    def at_trim(page):
        _set_box(page, "/CropBox", _box(page, "/TrimBox"))

    failed = _failed(_edit_pages(print_shop, tmp_path / "trim.pdf", at_trim))
    assert set(failed) == {"page boxes"} and "at least the BleedBox" in failed["page boxes"]


# ------------------------------------------------------------------ TrimBox on the marks (QA item 3)


@pytest.mark.parametrize("shift_mm", [1.0, 0.5, 0.2])
def test_a_print_shop_trimbox_moved_off_the_crop_marks_fails(print_shop, tmp_path, shift_mm):
    def shift(page):  # TrimBox and BleedBox together, so the bleed itself stays 3 mm on every side
        for key in ("/TrimBox", "/BleedBox"):
            x0, y0, x1, y1 = _box(page, key)
            _set_box(page, key, (x0 + shift_mm * MM, y0, x1 + shift_mm * MM, y1))

    failed = _failed(_edit_pages(print_shop, tmp_path / "shifted.pdf", shift))
    assert "page boxes" in failed
    assert "not the card between the crop marks" in failed["page boxes"]
    assert f"+{shift_mm:.2f}" in failed["page boxes"]


def test_a_print_shop_card_without_its_crop_marks_fails(print_shop, tmp_path):
    from pypdf.generic import ContentStream

    writer = PdfWriter(clone_from=str(print_shop))
    for page in writer.pages:
        content = ContentStream(page.get_contents(), writer)
        ops = content.operations
        kept, i = [], 0
        height = float(page["/MediaBox"][3])
        width = float(page["/MediaBox"][2])
        while i < len(ops):
            # reportlab draws a line as "x1 y1 m x2 y2 l S"; a crop mark runs to the paper's edge
            if ops[i][1] == b"m" and i + 2 < len(ops) and ops[i + 1][1] == b"l" and ops[i + 2][1] == b"S":
                (ax, ay), (bx, by) = ([float(v) for v in ops[i][0]], [float(v) for v in ops[i + 1][0]])
                ends = (ax, ay, bx, by)
                if min(ends) < 0.01 or max(ax, bx) > width - 0.01 or max(ay, by) > height - 0.01:
                    i += 3
                    continue
            kept.append(ops[i])
            i += 1
        content.operations = kept
        page[NameObject("/Contents")] = writer._add_object(content)
    damaged = tmp_path / "no-marks.pdf"
    with open(damaged, "wb") as handle:
        writer.write(handle)
    failed = _failed(damaged)
    assert "page boxes" in failed and "no crop marks to cut along" in failed["page boxes"]


# ------------------------------------------------------------------------ print scaling (QA item 12)


def test_lost_viewer_preferences_say_missing_expected_slash_none(harvest, tmp_path):
    writer = PdfWriter(clone_from=str(harvest))
    del writer._root_object[NameObject("/ViewerPreferences")]
    damaged = tmp_path / "no-prefs.pdf"
    with open(damaged, "wb") as handle:
        writer.write(handle)
    assert _failed(damaged) == {"print scaling": "PrintScaling is missing, expected /None (viewers would scale the page)"}


# ------------------------------------------------------------------ check the build folder (QA item 8)


def test_check_of_the_build_output_folder_checks_every_product_and_skips_the_gallery(tmp_path):
    out = tmp_path / "output"
    built = CliRunner().invoke(main, ["build", "harvest-10x10-a4", "peas-a6", "-o", str(out)])
    assert built.exit_code == 0, built.output
    assert (out / "index.html").exists() and (out / "gallery").is_dir()
    result = CliRunner().invoke(main, ["check", str(out)])
    assert result.exit_code == 0, result.output
    checked = [line.split(None, 1)[1] for line in result.output.splitlines() if line.startswith(("ok", "FAIL"))]
    assert sorted(Path(c).name for c in checked) == sorted(
        p.name for p in out.rglob("*.pdf") if "gallery" not in p.parts)
    assert len(checked) >= 2 and not any("gallery" in c or c.endswith((".html", ".png")) for c in checked)


def test_check_of_a_folder_with_nothing_checkable_says_so(tmp_path):
    (tmp_path / "gallery").mkdir()
    (tmp_path / "gallery" / "page-1.png").write_bytes(b"\x89PNG")
    (tmp_path / "index.html").write_text("<html></html>")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert "nothing to check in this folder or its subfolders" in result.output


# ------------------------------------------------------------------- recorded parameters (QA item 7)


@pytest.fixture(scope="module")
def patchwork(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("patchwork"), "patchwork")
    assert _failed(path) == {}
    return path


@pytest.fixture(scope="module")
def patchwork_low(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("patchwork-low"), "patchwork", "--ink", "low")
    assert _failed(path) == {}
    return path


@pytest.fixture(scope="module")
def peas(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("peas"), "peas", "--paper", "a4", "--back")
    assert _failed(path) == {}
    return path


@pytest.mark.parametrize("sheet", ["patchwork", "peas"])
def test_an_extra_key_in_the_recorded_parameters_fails(sheet, tmp_path, request):
    damaged = _edit_subject(request.getfixturevalue(sheet), tmp_path / "extra.pdf", lambda s: s.update(x=1))
    assert _failed(damaged) == {"recorded parameters": "unexpected key(s) 'x'"}


@pytest.mark.parametrize("sheet", ["patchwork", "peas"])
def test_a_key_lost_from_the_recorded_parameters_fails(sheet, tmp_path, request):
    damaged = _edit_subject(request.getfixturevalue(sheet), tmp_path / "lost.pdf", lambda s: s.pop("kind"))
    assert _failed(damaged) == {"recorded parameters": "missing key(s) 'kind'"}


def test_a_full_colour_patchwork_sheet_recorded_as_low_ink_fails(patchwork, tmp_path):
    failed = _failed(_edit_subject(patchwork, tmp_path / "says-low.pdf", lambda s: s.update(ink="low")))
    assert set(failed) == {"ink"} and "recorded ink 'low' but" in failed["ink"] and "coloured fill" in failed["ink"]


def test_a_low_ink_patchwork_sheet_recorded_as_full_ink_fails(patchwork_low, tmp_path):
    failed = _failed(_edit_subject(patchwork_low, tmp_path / "says-full.pdf", lambda s: s.update(ink="full")))
    assert set(failed) == {"ink"} and "nothing is filled in colour" in failed["ink"]


# ----------------------------------------------------------------------- rules wording (QA item 5)


def _replace_text(src: Path, dst: Path, old: str, new: str) -> Path:
    """``src`` with ``old`` replaced by ``new`` in every string a page shows (Tj and TJ operands)."""
    from pypdf.generic import ContentStream, TextStringObject

    writer = PdfWriter(clone_from=str(src))
    replaced = 0

    def swap(value):
        nonlocal replaced
        if isinstance(value, str) and old in value:
            replaced += value.count(old)
            return TextStringObject(value.replace(old, new))
        return value

    for page in writer.pages:
        content = ContentStream(page.get_contents(), writer)
        for operands, operator in content.operations:
            if operator == b"Tj":
                operands[0] = swap(operands[0])
            elif operator == b"TJ":
                operands[0] = ArrayObject(swap(v) for v in operands[0])
        page[NameObject("/Contents")] = writer._add_object(content)
    assert replaced, f"{old!r} is not shown on one line: the damage was not made"
    with open(dst, "wb") as handle:
        writer.write(handle)
    return dst


@pytest.mark.parametrize("old, new, where", [
    ("buttons + 7 (bonus tile)", "buttons + 9 (bonus tile)", "the time track's rules"),
    ("your buttons + 7", "your buttons + 9", "the score line"),
    ("worth 7 points", "worth 5 points", "the 7x7 bonus line"),
])
def test_patchwork_with_its_rules_changed_fails(patchwork, tmp_path, old, new, where):
    failed = _failed(_replace_text(patchwork, tmp_path / "rules.pdf", old, new))
    assert set(failed) == {"rules text"} and where in failed["rules text"]


@pytest.mark.parametrize("old, new, where", [
    ("1 less", "2 less", "card 1: the rules on the front"),
    ("never diagonally", "also diagonally", "back 1: the rules under 'You need'"),
    ("lower is better. Complete", "higher is better. Complete", "under 'End and score'"),
])
def test_peas_with_its_rules_changed_fails(peas, tmp_path, old, new, where):
    failed = _failed(_replace_text(peas, tmp_path / "rules.pdf", old, new))
    assert "rules text" in failed and where in failed["rules text"]
    assert set(failed) <= {"rules text", "back"}


@pytest.fixture(scope="module")
def giuthi_rules(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("giuthi") / "giuthi-rules.pdf"
    result = CliRunner().invoke(main, ["giuthi", "--rules", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _failed(out) == {}
    assert "word for word" in _passed(out)["rules text"]
    return out


@pytest.mark.parametrize("old, new, where", [
    ("opposite direction", "same direction", "'Relay' paragraph 1"),
    ("never sown into", "always sown into", "'The board and the set-up' paragraph 1"),
    ("the larger", "the smaller", "'Passing, the end and the score' paragraph 1"),
    ("is not offered", "is offered", "'Sow again' paragraph 2"),
])
def test_the_giuthi_rules_sheet_with_a_rule_reworded_fails(giuthi_rules, tmp_path, old, new, where):
    failed = _failed(_replace_text(giuthi_rules, tmp_path / "reworded.pdf", old, new))
    assert set(failed) == {"rules text"} and where in failed["rules text"]


@pytest.mark.parametrize("lang", ["ko", "tr"])
def test_a_translated_giuthi_rules_sheet_is_read_in_its_catalogue_words(tmp_path, lang):
    out = tmp_path / f"rules-{lang}.pdf"
    result = CliRunner().invoke(main, ["giuthi", "--rules", "--lang", lang, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _failed(out) == {} and "8 paragraphs" in _passed(out)["rules text"]
    # the same sheet said to be English: its paragraphs are not the English words
    english = _edit_subject(out, tmp_path / "says-en.pdf", lambda s: s.update(lang="en"))
    assert "rules text" in _failed(english)


# ------------------------------------------------------------------- text painted over (QA item 2)


def _paint_over(src: Path, dst: Path, rect_mm, grey: float = 1.0, page: int = 0) -> Path:
    """``src`` with a flat fill (``grey``, 1 = white) drawn last over ``rect_mm`` (x, y from the
    page's bottom-left, w, h)."""
    from pypdf.generic import ContentStream

    writer = PdfWriter(clone_from=str(src))
    target = writer.pages[page]
    content = ContentStream(target.get_contents(), writer)
    x, y, w, h = (v * MM for v in rect_mm)
    content.operations += [([], b"q"), ([FloatObject(grey)], b"g"),
                           ([FloatObject(x), FloatObject(y), FloatObject(w), FloatObject(h)], b"re"), ([], b"f"), ([], b"Q")]
    target[NameObject("/Contents")] = writer._add_object(content)
    with open(dst, "wb") as handle:
        writer.write(handle)
    return dst


def test_a_sheet_with_its_lower_half_painted_white_fails(harvest, tmp_path):
    failed = _failed(_paint_over(harvest, tmp_path / "whiteout.pdf", (0, 0, 210, 110)))
    assert "visible text" in failed and "not visible (painted over?)" in failed["visible text"]


def test_a_sheet_with_only_its_ruler_caption_painted_white_fails(harvest, tmp_path):
    import pdfplumber

    with pdfplumber.open(str(harvest)) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        caption = [w for w in words if w["text"] == "actual"]
        assert caption, "no ruler caption found to paint over"
        w = caption[0]
        height_mm = page.height / MM
        x, top, x1, bottom = (v / MM for v in (w["x0"], w["top"], w["x1"], w["bottom"]))
    rect = (x - 0.3, height_mm - bottom - 0.5, x1 - x + 0.6, bottom - top + 1.0)
    failed = _failed(_paint_over(harvest, tmp_path / "no-caption.pdf", rect))
    assert "visible text" in failed and "'actual'" in failed["visible text"]


def test_a_print_shop_card_with_its_rules_painted_in_the_background_colour_fails(print_shop, tmp_path):
    # a flat light-grey fill (not white) over the middle of the back: no contrast is left there
    failed = _failed(_paint_over(print_shop, tmp_path / "grey-back.pdf", (40, 40, 60, 30), grey=0.9, page=1))
    assert "visible text" in failed and failed["visible text"].startswith("page 2:")


def test_white_paint_over_nothing_passes(harvest, tmp_path):
    import pdfplumber

    with pdfplumber.open(str(harvest)) as pdf:
        page = pdf.pages[0]
        inked = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in page.chars + page.rects + page.lines + page.curves]
        height_mm = page.height / MM
    # a 3 x 2 mm patch in the top-left margin that touches nothing drawn (not square: Harvest reads filled squares)
    x, y = 1.0, 1.0
    assert not any(a / MM < x + 3 and c / MM > x and b / MM < y + 3 and d / MM > y for a, b, c, d in inked)
    assert _failed(_paint_over(harvest, tmp_path / "blank.pdf", (x, height_mm - y - 2, 3, 2))) == {}
