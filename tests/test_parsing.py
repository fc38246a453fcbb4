"""The checks' faster PDF reading (printables/check/parsing.py) gives exactly pdfplumber's objects."""

from __future__ import annotations

import pdfplumber
import pytest
from click.testing import CliRunner
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdftypes import PDFStream
from pdfminer.psexceptions import PSEOF
from pypdf import PdfReader, PdfWriter

from damage import make_sheet
from printables.check import parsing
from printables.check.parsing import content_objects, open_pdf
from printables.cli import main


def _pdfminer_objects(data: bytes) -> list:
    """What pdfminer's own content parser gives for one stream."""
    parser = PDFContentParser([PDFStream({}, data)])
    found = []
    while True:
        try:
            found.append(parser.nextobject()[1])
        except PSEOF:
            return found


SUPPORTED = [
    b"BT /F1 12 Tf 10 20 Td (Hello) Tj ET",
    b"1 0 0 1 72.5 -3.25 cm 0 0 m 10 10 l S q .5 g Q",
    b"[(A) -120 (B\\(c\\)) 33.5 <4142 43>] TJ T* (x) ' 1 2 (y) \"",
    b"(nested (brackets) here) Tj (octal \\101\\12 and \\\\ and \\\r\nline) Tj",
    b"(x (\\) y) z) Tj (\\() Tj (end\\\\) Tj (\\0533) Tj",
    b"(\\q\\8\\\r\\\rx\\\n\\b\\f\\t\\r\\n\\1\\12\\123\\1234\\377) Tj (\\7) Tj",
    b"<> Tj <0> Tj < 4 1 4> Tj <ABCDEFabcdef0123> Tj",
    b"--5 +-3 1.2.3 5. -.5 . +.5 7re 1 2 3 4re f",
    b"true false /Name /N.a-me_1 [1 [2 [3]] 4] x ] ]",
    b"0 0 m\x0012\x00 l\x0b3 4 l h f* B* b*",
    b"/F1 1 Tf <00410042> Tj <4 1> Tj []TJ",
    b"[1 2 3",  # an array left open at the end is lost
    b"1 2 re",  # a keyword at the very end
    b"",
    b"  \n\r\t ",
    b"(a)(b)[(c)]{",  # a procedure: not the short way's
]
UNSUPPORTED = [
    b"/P << /MCID 0 >> BDC 1 g EMC",
    b"% a comment\n1 g",
    b"/A#20B Do",
    b"1 0 0 1 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI",
    b"<41>> 1 g",
    b"(never closed",
    b"{ 1 }",
    b"(a (b (c) d) e) Tj",  # brackets two deep: pdfminer's parser reads it
]


@pytest.mark.parametrize("data", [d for d in SUPPORTED if b"{" not in d])
def test_the_short_way_reads_a_content_stream_as_pdfminer_does(data):
    assert content_objects(data) == _pdfminer_objects(data)
    assert [type(o) for o in content_objects(data)] == [type(o) for o in _pdfminer_objects(data)]


@pytest.mark.parametrize("data", UNSUPPORTED + [d for d in SUPPORTED if b"{" in d])
def test_what_the_short_way_does_not_read_is_left_to_pdfminer(data):
    assert content_objects(data) is None


def _objects(path, opener) -> list[dict]:
    with opener(str(path)) as pdf:
        return [page.objects for page in pdf.pages]


def _same_as_pdfplumber(path) -> None:
    stock, fast = _objects(path, pdfplumber.open), _objects(path, open_pdf)
    assert fast == stock
    for stock_page, fast_page in zip(stock, fast):  # the same keys in the same order, values of the same types
        for kind in stock_page:
            for a, b in zip(stock_page[kind], fast_page[kind]):
                assert list(a) == list(b) and all(type(a[k]) is type(b[k]) for k in a)


@pytest.mark.parametrize("command, args", [
    ("harvest", ()), ("minefield", ()), ("patchwork", ()), ("peas", ()), ("peas", ("--lang", "ko")),
])
def test_every_object_of_a_sheet_is_pdfplumbers(tmp_path, command, args):
    path = make_sheet(tmp_path, command, *args)
    # the short way reads every page of the project's own sheets (so the comparison below is of it)
    assert all(content_objects(page.get_contents().get_data()) for page in PdfReader(str(path)).pages)
    _same_as_pdfplumber(path)


def test_every_object_of_the_giuthi_rules_sheet_is_pdfplumbers(tmp_path):
    out = tmp_path / "rules.pdf"
    assert CliRunner().invoke(main, ["giuthi", "--rules", "-o", str(out)]).exit_code == 0
    _same_as_pdfplumber(out)


def test_a_page_with_content_the_short_way_does_not_read_is_pdfminers(tmp_path):
    """Marked content and a comment: pdfminer's parser reads that page."""
    src = make_sheet(tmp_path, "harvest")
    writer = PdfWriter(clone_from=str(src))
    page = writer.pages[0]
    contents = page.get_contents()
    contents.set_data(contents.get_data() + b"\n% added\n/P << /MCID 0 >> BDC 0 g 100 100 50 50 re f EMC\n")
    page.replace_contents(contents)
    out = tmp_path / "marked.pdf"
    with open(out, "wb") as handle:
        writer.write(handle)
    assert content_objects(PdfReader(str(out)).pages[0].get_contents().get_data()) is None
    assert len(_objects(out, pdfplumber.open)[0]["rect"]) == len(_objects(src, pdfplumber.open)[0]["rect"]) + 1
    _same_as_pdfplumber(out)


def test_other_library_releases_keep_their_own_reading(tmp_path, monkeypatch):
    src = make_sheet(tmp_path, "minefield")
    monkeypatch.setattr(parsing, "COPIED_FROM", {"pdfplumber": ("0.0.",), "pdfminer": ("0",)})
    with open_pdf(src) as pdf:
        assert all(type(page) is pdfplumber.page.Page for page in pdf.pages)
    monkeypatch.undo()
    with open_pdf(src) as pdf:
        assert all(type(page) is parsing._Page for page in pdf.pages)
    assert PdfReader(str(src)).pages  # the file itself is untouched by reading it


@pytest.mark.parametrize("command, args", [("harvest", ()), ("peas", ("--lang", "ko"))])
def test_the_preflight_reads_each_glyphs_contour_count_as_fonttools_does(tmp_path, command, args):
    """``preflight._contours`` reads a glyph's header; fontTools decodes the whole outline: same count."""
    import io

    from fontTools.ttLib import TTFont

    from printables.check.preflight import _contours, _descriptor, _page_fonts

    reader = PdfReader(str(make_sheet(tmp_path, command, *args)))
    programs = {id(font): _descriptor(font)["/FontFile2"].get_object().get_data()
                for page in reader.pages for _, font in _page_fonts(page.get("/Resources"))}
    assert len(programs) >= 2
    for data in programs.values():
        ours, theirs = TTFont(io.BytesIO(data))["glyf"], TTFont(io.BytesIO(data))["glyf"]
        counts = {name: _contours(ours, name) for name in ours.glyphs}
        assert counts == {name: theirs[name].numberOfContours for name in theirs.glyphs}
        assert any(counts.values()) and not all(counts.values())  # glyphs with outlines and empty ones (the space) both met


def _text_fits_by_looking_at_everything(drawing) -> list[str]:
    """The fit check's findings the slow way (as it was before its indexes): every frame for each
    word, every later word (by x0) until one starts right of its end."""
    from printables.check.lettering import OVERFLOW_TOLERANCE_MM as tol, OVERLAP_SHARE

    problems = []
    for number, page in enumerate(drawing.pages, 1):
        frames = [b for b in page.boxes if b.x1 - b.x0 > 1.0 and b.bottom - b.top > 1.0]
        for w in page.words:
            x, y = w.x0 + 0.2, (w.top + w.bottom) / 2
            around = [f for f in frames if f.x0 <= x <= f.x1 and f.top <= y <= f.bottom]
            f = min(around, key=lambda f: (f.x1 - f.x0) * (f.bottom - f.top)) if around else None
            x0, top, x1, bottom = (f.x0, f.top, f.x1, f.bottom) if f else (0.0, 0.0, page.width, page.height)
            if w.x1 > x1 + tol or w.x0 < x0 - tol or w.bottom > bottom + tol or w.top < top - tol:
                problems.append(f"page {number}: {w.text!r} runs out")
        ordered = sorted(page.words, key=lambda w: w.x0)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                if b.x0 >= a.x1 - tol:
                    break
                if min(a.bottom, b.bottom) - max(a.top, b.top) > OVERLAP_SHARE * min(a.bottom - a.top, b.bottom - b.top):
                    problems.append(f"page {number}: {a.text!r} and {b.text!r} are printed over each other")
    return problems


@pytest.mark.parametrize("seed", range(40))
def test_the_fit_checks_indexes_find_what_looking_at_everything_finds(seed):
    """Random pages of words and frames (crowded, overlapping, off the page, not-a-number): the
    indexed fit check names the same words, in the same order, as the slow look."""
    import math
    import random
    from pathlib import Path

    from printables.check.lettering import check_text_fits
    from printables.check.pdf import Box, PageDrawing, PdfDrawing, Word

    rng = random.Random(seed)
    pages = []
    for _ in range(2):
        width, height = rng.choice([(210.0, 297.0), (105.0, 148.0)])
        boxes = tuple(Box(x, y, x + rng.uniform(0.5, 120), y + rng.uniform(0.5, 80), False, True)
                      for x, y in ((rng.uniform(-30, width), rng.uniform(-30, height)) for _ in range(rng.randint(0, 40))))
        words = []
        for n in range(rng.randint(0, 300)):
            x, y = rng.uniform(-20, width + 10), rng.uniform(-20, height + 10)
            if rng.random() < 0.3:  # on a line with others
                y = round(y / 4) * 4.0
            words.append(Word(f"w{n}", x, y, x + rng.uniform(0.0, 25), y + rng.choice([0.0, 1.5, 2.8, 3.5])))
        if seed % 10 == 9:
            words.append(Word("nan", math.nan, 10.0, 20.0, 13.0))
        pages.append(PageDrawing(width, height, boxes, (), tuple(words), (), ""))
    drawing = PdfDrawing(Path("x.pdf"), "", "", "", "", None, tuple(pages))
    result = check_text_fits(drawing)
    slow = _text_fits_by_looking_at_everything(drawing)
    found = [p for p in result.detail.split("; ")] if not result.ok else []
    assert result.ok == (not slow)
    shown = [p.split(" (+")[0] for p in found]  # the detail names the first six
    assert [s.split(" runs out")[0] if "runs out" in s else s for s in shown] == \
        [s.split(" runs out")[0] if "runs out" in s else s for s in slow[:6]]
    if len(slow) > 6:
        assert result.detail.endswith(f"(+{len(slow) - 6} more)")


@pytest.mark.parametrize("seed", range(20))
def test_the_patchwork_cut_index_finds_what_looking_at_every_segment_finds(seed):
    """Random segments (horizontal, vertical, slanted, tiny, not-a-number) and square edges near
    them: ``_CutIndex.cut_on`` says what ``_cut_on`` says, edge by edge."""
    import math
    import random

    from printables.check.patchwork import ON_LINE_MM, _cut_on, _CutIndex
    from printables.check.pdf import Segment

    rng = random.Random(seed)
    near = lambda v: v + rng.choice([0.0, 0.5, 0.9, 1.1, 2.0, -0.9]) * ON_LINE_MM  # noqa: E731
    lines = [round(rng.uniform(0, 50), 1) for _ in range(8)]
    segments = []
    for _ in range(rng.randint(0, 60)):
        a, b, c = rng.choice(lines), rng.choice(lines), rng.choice(lines)
        lo, hi = sorted((b, c))
        segments.append(rng.choice([
            Segment(lo, near(a), hi, near(a), 0.2),  # horizontal
            Segment(near(a), lo, near(a), hi, 0.2),  # vertical
            Segment(a, a, near(a), near(a), 0.2),  # a dot: horizontal and vertical at once
            Segment(lo, lo, hi, hi, 0.2),  # slanted
        ]))
    if seed % 5 == 4:
        segments.append(Segment(math.nan, 1.0, 2.0, math.nan, 0.2))
    index = _CutIndex(segments)
    for _ in range(300):
        x, y, w = rng.choice(lines), rng.choice(lines), rng.choice([0.0, 5.0, 7.5])
        edge = rng.choice([(near(x), y, near(x), y + w), (x, near(y), x + w, near(y)), (x, y, x, y)])
        assert index.cut_on(*edge) == _cut_on(segments, *edge), edge
    if segments:
        s = segments[0]
        assert index.cut_on(s.x0, s.top, s.x1, s.bottom) == _cut_on(segments, s.x0, s.top, s.x1, s.bottom)


def test_checking_a_pdf_pauses_the_cycle_collector_and_restores_it(tmp_path, monkeypatch):
    import gc

    from printables.check import dispatch

    path = make_sheet(tmp_path, "minefield")
    seen = []
    real = dispatch._check_open_pdf
    monkeypatch.setattr(dispatch, "_check_open_pdf", lambda *a: seen.append(gc.isenabled()) or real(*a))
    assert all(r.ok for r in dispatch.check_file(path)) and seen == [False] and gc.isenabled()
    gc.disable()
    try:
        dispatch.check_file(path)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 nothing")
    assert not all(r.ok for r in dispatch.check_file(broken)) and gc.isenabled()


@pytest.mark.parametrize("seed", range(5))
def test_the_visible_text_band_reduction_is_the_contrast_of_each_box(tmp_path, seed):
    """``_boxes_show_contrast`` on a rendered page and random boxes (letters, blank paper, boxes
    running off the image, empty ones, negative bounds as a letter left of or above the page
    gets) says what slicing each box out of the image says."""
    import random

    import numpy as np
    import pypdfium2 as pdfium

    from printables.check.preflight import VISIBLE_CONTRAST, _boxes_show_contrast, _render_grey

    document = pdfium.PdfDocument(str(make_sheet(tmp_path, "harvest")))
    try:
        image = _render_grey(document, 0, 100)
    finally:
        document.close()
    rows, cols = image.shape
    rng = random.Random(seed)
    lines = [rng.randrange(rows + 10) for _ in range(30)]  # boxes share row bands, as letters of a line do
    boxes = []
    for _ in range(2000):
        x0 = rng.randrange(cols + 10)
        y0 = rng.choice(lines)
        boxes.append((x0, x0 + rng.randrange(-2, 25), y0, y0 + rng.choice([0, 1, 12, 30, 400])))
        if rng.random() < 0.05:
            boxes.append((0, rng.randrange(-40, 3), 0, rng.choice([-30, -1, 5])))
    expected = []
    for x0, x1, y0, y1 in boxes:
        box = image[y0:y1, x0:x1]
        expected.append(box.size > 0 and int(box.max()) - int(box.min()) >= VISIBLE_CONTRAST)
    assert _boxes_show_contrast(image, boxes, np) == expected
    assert 100 < sum(expected) < len(expected) - 100  # both kinds are met


def test_an_octal_escape_past_255_fails_as_in_pdfminer():
    data = b"(ok \\777) Tj"
    with pytest.raises(AssertionError) as theirs:
        _pdfminer_objects(data)
    with pytest.raises(AssertionError) as ours:
        content_objects(data)
    assert str(ours.value) == str(theirs.value) == "Invalid octal b'777' (511)"


JUNK = [b"<<", b">>", b"%x\n", b"(", b")", b"\\", b"[", b"]", b"{", b"}", b"<41", b"#", b"/A#20", b" 1.2.3 ", b" -- ",
        b"\x00", b"\\777", b"(a\\)b)", b" BI ", b" true ", b"<0>", b"(x (y) z)", b" 5.5.5re "]


def _objects_or_error(path, opener):
    try:
        return _objects(path, opener)
    except Exception as error:  # a page pdfminer cannot read: the same error either way
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("seed", range(3))
def test_a_damaged_content_stream_reads_as_pdfplumber_reads_it(tmp_path, seed):
    """Junk pasted into or bytes cut out of a page's content stream: the objects (or the error)
    are pdfplumber's, whether the short way reads the page or leaves it to pdfminer."""
    import random

    rng = random.Random(seed)
    src = make_sheet(tmp_path, ("harvest", "minefield", "peas")[seed])
    short = 0
    for n in range(15):
        writer = PdfWriter(clone_from=str(src))
        page = writer.pages[0]
        contents = page.get_contents()
        data = bytearray(contents.get_data())
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            if rng.random() < 0.5:
                data[at:at] = rng.choice(JUNK)
            else:
                del data[at:at + rng.randint(1, 30)]
        contents.set_data(bytes(data))
        page.replace_contents(contents)
        out = tmp_path / f"damaged{n}.pdf"
        with open(out, "wb") as handle:
            writer.write(handle)
        try:
            short += content_objects(bytes(data)) is not None
        except AssertionError:
            pass
        assert _objects_or_error(out, open_pdf) == _objects_or_error(out, pdfplumber.open), n
    assert short  # some damaged pages were read the short way
