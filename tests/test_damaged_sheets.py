"""Sheets damaged after they were written (a label, a caption or a swatch deleted, a page duplicated,
the recorded parameters edited) fail `printables check`.

Each damaged file is made from a real sheet by editing the PDF itself with pypdf: the page's content
stream is rebuilt without one text or rectangle operator, or the document is rewritten with a page
twice or another subject. The undamaged file passes the same checks, so each failure is the damage's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ContentStream, NameObject

from printables.check.dispatch import check_file

from damage import edit_subject as _edit_subject, failed_checks as _failed, make_sheet as _sheet
from printables.paper import pt_to_mm

PAINT_OPERATORS = {b"f", b"f*", b"F", b"B", b"B*", b"b", b"b*", b"S", b"s", b"n"}


def _text_of(operands) -> str:
    return "".join(str(o) for o in operands if isinstance(o, str))


def _rewrite(src: Path, dst: Path, drop) -> int:
    """Copy ``src`` to ``dst`` without the content operators ``drop(operands, operator)`` picks.

    A dropped ``re`` (rectangle) also loses the operator that paints it. Returns how many were dropped.
    """
    writer = PdfWriter(clone_from=str(src))
    page = writer.pages[0]
    content = ContentStream(page.get_contents(), writer)
    kept, dropped, skip_paint = [], 0, False
    for operands, operator in content.operations:
        if skip_paint and operator in PAINT_OPERATORS:
            skip_paint = False
            continue
        if drop(operands, operator):
            dropped += 1
            skip_paint = operator == b"re"
            continue
        kept.append((operands, operator))
    content.operations = kept
    page[NameObject("/Contents")] = writer._add_object(content)
    with open(dst, "wb") as handle:
        writer.write(handle)
    return dropped


def _drop_text(src: Path, dst: Path, pick) -> Path:
    """``src`` without the shown strings ``pick(text)`` selects (at least one must be dropped)."""
    n = _rewrite(src, dst, lambda operands, op: op in (b"Tj", b"TJ", b"'", b'"') and pick(_text_of(operands)))
    assert n >= 1, "nothing matched: the damage was not made"
    return dst


def _drop_rect(src: Path, dst: Path, w_mm: float, h_mm: float, index: int | None = None) -> Path:
    """``src`` without the rectangles of ``w_mm`` x ``h_mm`` (only the ``index``-th such one, if given)."""
    seen = []

    def pick(operands, op):
        if op != b"re":
            return False
        w, h = (abs(pt_to_mm(float(v))) for v in operands[2:4])
        if abs(w - w_mm) < 0.01 and abs(h - h_mm) < 0.01:
            seen.append(1)
            return index is None or len(seen) - 1 == index
        return False

    assert _rewrite(src, dst, pick) == 1 if index is not None else True
    assert seen, "no such rectangle: the damage was not made"
    return dst


def _duplicate_page(src: Path, dst: Path, copy: bool = False) -> Path:
    """``src`` with its page listed twice: the same page object twice, or (``copy``) a second copy."""
    writer = PdfWriter(clone_from=str(src))
    writer.add_page(PdfReader(str(src)).pages[0] if copy else writer.pages[0])
    with open(dst, "wb") as handle:
        writer.write(handle)
    assert len(PdfReader(str(dst)).pages) == 2
    return dst


def _assert_page_twice(failed: dict, copy: bool) -> None:
    """The page count fails; the same page object listed twice (no copy) is also a page tree that
    is no tree, which qpdf's structural check reports in its own words."""
    assert failed.pop("pages") == "2 page(s), expected 1"
    if not copy:
        assert "appears more than once in the pages tree" in failed.pop("PDF structure (qpdf)")
    assert failed == {}


# --------------------------------------------------------------------------------------------
# The Bitcoin Harvest


@pytest.fixture(scope="module")
def harvest(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("harvest"), "harvest", "--grid", "12x9", "--players", "3")
    assert _failed(path) == {}
    return path


@pytest.fixture(scope="module")
def harvest_4up(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("harvest4"), "harvest", "--grid", "11x5", "--per-page", "4")
    assert _failed(path) == {}
    return path


def test_harvest_with_a_column_letter_deleted_fails(harvest, tmp_path):
    damaged = _drop_text(harvest, tmp_path / "no-col-k.pdf", lambda t: t == "K")
    failed = _failed(damaged)
    assert "coordinates" in failed and "column 11 labelled None, expected 'K'" in failed["coordinates"]


def test_harvest_with_a_row_number_deleted_fails(harvest, tmp_path):
    # "7" is shown only as a row number on this sheet (3 players, 2 coins).
    damaged = _drop_text(harvest, tmp_path / "no-row-7.pdf", lambda t: t == "7")
    failed = _failed(damaged)
    assert "coordinates" in failed and "row 7 labelled None, expected '7'" in failed["coordinates"]


def test_harvest_with_a_label_changed_fails(harvest, tmp_path):
    writer_path = tmp_path / "swapped.pdf"
    # Swap two column letters: both are still there, but in the wrong places.
    src = PdfWriter(clone_from=str(harvest))
    page = src.pages[0]
    content = ContentStream(page.get_contents(), src)
    from pypdf.generic import TextStringObject

    for operands, op in content.operations:
        if op == b"Tj" and _text_of(operands) in ("B", "C"):
            operands[0] = TextStringObject("C" if _text_of(operands) == "B" else "B")
    page[NameObject("/Contents")] = src._add_object(content)
    with open(writer_path, "wb") as handle:
        src.write(handle)
    failed = _failed(writer_path)
    assert "column 2 labelled 'C', expected 'B'" in failed["coordinates"]


def test_harvest_with_one_game_missing_its_labels_fails_on_a_4up_sheet(harvest_4up, tmp_path):
    seen = []

    def pick(text):  # the second game's row numbers only
        if text == "5":
            seen.append(text)
            return len(seen) == 2
        return False

    damaged = _drop_text(harvest_4up, tmp_path / "4up.pdf", pick)
    assert "grid 2: row 5 labelled None" in _failed(damaged)["coordinates"]


def test_harvest_with_the_rules_text_deleted_fails(harvest, tmp_path):
    damaged = _drop_text(harvest, tmp_path / "no-rules.pdf", lambda t: "harvester" in t and "pentomino" in t or "passes" in t)
    assert "rules text" in _failed(damaged)


def test_harvest_with_one_rules_line_deleted_fails(harvest, tmp_path):
    damaged = _drop_text(harvest, tmp_path / "one-line.pdf", lambda t: "ties share the win" in t)
    assert set(_failed(damaged)) == {"rules text"}


@pytest.mark.parametrize("copy", [False, True])
def test_harvest_with_a_page_duplicated_fails(harvest, tmp_path, copy):
    failed = _failed(_duplicate_page(harvest, tmp_path / "two-pages.pdf", copy))
    _assert_page_twice(failed, copy)


def test_harvest_with_an_extra_key_in_the_subject_fails(harvest, tmp_path):
    damaged = _edit_subject(harvest, tmp_path / "extra-key.pdf", lambda s: s.update(seed=7))
    assert _failed(damaged) == {"recorded parameters": "unexpected key(s) 'seed'"}


def test_harvest_with_a_key_missing_from_the_subject_fails(harvest, tmp_path):
    damaged = _edit_subject(harvest, tmp_path / "lost-key.pdf", lambda s: s.pop("opening_coins"))
    assert not all(r.ok for r in check_file(damaged))


def test_the_check_reads_close_column_letters_as_their_columns(tmp_path):
    # Two-letter columns on the widest grid at 7 mm cells (the smallest made since 5 mm cells "AG" and
    # "AH" stood so close that the PDF read them back as the one word "AGAH", which the check still reads).
    path = _sheet(tmp_path, "harvest", "--grid", "36x11", "--landscape")
    assert _failed(path) == {}
    damaged = _drop_text(path, tmp_path / "no-ag.pdf", lambda t: t == "AG")
    assert "column 33 labelled None, expected 'AG'" in _failed(damaged)["coordinates"]


# --------------------------------------------------------------------------------------------
# Minefield


@pytest.fixture(scope="module")
def minefield(tmp_path_factory) -> Path:
    path = _sheet(tmp_path_factory.mktemp("minefield"), "minefield")
    assert _failed(path) == {}
    return path


@pytest.fixture(scope="module")
def minefield_beside(tmp_path_factory) -> Path:
    """A sheet with the legend in a column beside the board."""
    path = _sheet(tmp_path_factory.mktemp("minefield-beside"), "minefield", "--size", "19", "--landscape")
    assert _failed(path) == {}
    return path


SWATCH_MM = (9.0, 3.0)  # the edge key's swatches, as this sheet draws them


@pytest.mark.parametrize("index, caption", [(0, "Black joins top and bottom"), (1, "White joins left and right")])
@pytest.mark.parametrize("sheet", ["minefield", "minefield_beside"])
def test_minefield_with_a_legend_swatch_deleted_fails(sheet, index, caption, tmp_path, request):
    damaged = _drop_rect(request.getfixturevalue(sheet), tmp_path / "no-swatch.pdf", *SWATCH_MM, index=index)
    failed = _failed(damaged)
    assert set(failed) == {"edge key"}
    assert f"{caption!r} has no swatch" in failed["edge key"]


def test_minefield_with_a_swatch_of_the_wrong_colour_fails(minefield, tmp_path):
    writer = PdfWriter(clone_from=str(minefield))
    page = writer.pages[0]
    content = ContentStream(page.get_contents(), writer)
    ops = content.operations
    # The black swatch is painted after "0 g": make it white.
    for i, (operands, op) in enumerate(ops):
        if op == b"re" and abs(pt_to_mm(float(operands[2])) - SWATCH_MM[0]) < 0.01 and ops[i + 1][1] == b"f*":
            j = max(k for k in range(i) if ops[k][1] == b"g")
            ops[j] = ([type(operands[2])(1)], b"g")
            break
    else:
        raise AssertionError("black swatch not found")
    page[NameObject("/Contents")] = writer._add_object(content)
    damaged = tmp_path / "white-swatch.pdf"
    with open(damaged, "wb") as handle:
        writer.write(handle)
    assert "expected black" in _failed(damaged)["edge key"]


@pytest.mark.parametrize("text", [
    "Black joins top and bottom",
    "White joins left and right",
    "Hard corner",
    "Switch 2x4 / 4x2",
    "Never create these",
    "Black first, then alternate",
    "Join your two edges",
])
@pytest.mark.parametrize("sheet", ["minefield", "minefield_beside"])
def test_minefield_with_a_caption_or_the_rules_deleted_fails(sheet, text, tmp_path, request):
    damaged = _drop_text(request.getfixturevalue(sheet), tmp_path / "no-caption.pdf", lambda t: text in t)
    assert "rules and captions" in _failed(damaged)


def test_minefield_with_a_page_duplicated_or_an_extra_key_fails(minefield, tmp_path):
    _assert_page_twice(_failed(_duplicate_page(minefield, tmp_path / "two.pdf")), copy=False)
    damaged = _edit_subject(minefield, tmp_path / "extra.pdf", lambda s: s.update(komi=1))
    assert _failed(damaged) == {"recorded parameters": "unexpected key(s) 'komi'"}
