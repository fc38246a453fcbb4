"""The checks' PDF reading (printables/check/parsing.py) and the short ways of the checks' own geometry."""

from __future__ import annotations

import pdfplumber
import pytest
from pypdf import PdfReader

from damage import make_sheet
from printables.check.parsing import open_pdf


def _near(a, b, tol: float = 1e-3) -> bool:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_near(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= tol
    return a == b


CHAR_KEYS = ("text", "fontname", "x0", "x1", "top", "bottom", "size", "matrix", "upright", "non_stroking_color")
SHAPE_KEYS = ("x0", "x1", "top", "bottom", "fill", "stroke", "non_stroking_color", "stroking_color", "pts", "path")


@pytest.mark.parametrize("command, args", [("minefield", ()), ("patchwork", ()), ("peas", ("--lang", "ko")),
                                           ("peas", ("--bleed", "3", "--back"))])
def test_the_checks_read_a_page_as_pdfplumber_an_independent_reader_does(tmp_path, command, args):
    """open_pdf reads pages through pypdfium2 (check/pages.py); pdfplumber (pdfminer's own parse of
    the content stream) reads the same characters, rectangles, lines and curves in the same order,
    at the same places (0.001 pt; pdfium keeps points as 32-bit floats), the same fonts with their
    subset prefixes, colours to the file's own levels, and the same text. The Korean card holds a
    lone space set in a second font between two texts, which pdfium's text page lists as a space of
    its own making."""
    path = make_sheet(tmp_path, command, *args)
    _assert_read_alike(path, words=True)
    assert PdfReader(str(path)).pages  # the file itself is untouched by reading it


def _assert_read_alike(path, words: bool = False) -> None:
    """Our reading of ``path`` is pdfplumber's: pages, characters, shapes, text (and ``words``)."""
    with open_pdf(path) as ours, pdfplumber.open(str(path)) as theirs:
        assert len(ours.pages) == len(theirs.pages)
        for mine, other in zip(ours.pages, theirs.pages):
            assert _near((mine.width, mine.height, mine.mediabox), (other.width, other.height, tuple(other.mediabox)))
            for kind, keys in (("chars", CHAR_KEYS), ("rects", SHAPE_KEYS), ("lines", SHAPE_KEYS + ("linewidth",)),
                               ("curves", SHAPE_KEYS)):
                a, b = getattr(mine, kind), getattr(other, kind)
                assert len(a) == len(b), kind
                for x, y in zip(a, b):
                    bad = [k for k in keys if not _near(x.get(k), y.get(k))]
                    assert not bad, (kind, bad, {k: (x.get(k), y.get(k)) for k in bad})
                # a stroked shape's line width is the file's (an unstroked one has none to read)
                assert all(_near(x["linewidth"], y["linewidth"]) for x, y in zip(a, b) if y.get("stroke"))
            assert mine.extract_text() == other.extract_text()
            if words:
                laid = [[(w["text"], round(w["x0"], 1), round(w["top"], 1))
                         for w in page.extract_words(keep_blank_chars=False, use_text_flow=True)]
                        for page in (mine, other)]
                assert laid[0] == laid[1]


def test_shapes_and_text_drawn_once_as_a_form_and_placed_turned_or_scaled_are_read_as_on_the_page(tmp_path):
    """A form XObject (a shape drawn once and placed many times) is read as drawn on the page: its
    rectangle, circle, line and text where each placing puts them, turned 30 degrees or scaled
    1.5x (a stroke then 1.5x as wide), as pdfplumber reads them."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    from printables.fonts import font_file

    pdfmetrics.registerFont(TTFont("FormTestSans", str(font_file("regular"))))
    path = tmp_path / "forms.pdf"
    c = canvas.Canvas(str(path), pagesize=(300, 400), invariant=1)
    c.beginForm("mark")
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.setStrokeGray(0.5)
    c.setLineWidth(2)
    c.rect(10, 10, 30, 20, stroke=1, fill=1)
    c.circle(60, 20, 8, stroke=1, fill=0)
    c.line(0, 0, 50, 0)
    c.setFillGray(0)
    c.setFont("FormTestSans", 9)
    c.drawString(5, 40, "in a form")
    c.endForm()
    c.setFont("FormTestSans", 9)
    c.drawString(20, 380, "on the page")
    c.doForm("mark")
    for turn, scale, at in ((30, 1, (100, 200)), (0, 1.5, (150, 100))):
        c.saveState()
        c.translate(*at)
        c.rotate(turn)
        c.scale(scale, scale)
        c.doForm("mark")
        c.restoreState()
    c.showPage()
    c.save()
    _assert_read_alike(path)
    with open_pdf(path) as pdf:
        page = pdf.pages[0]
        # the turned rectangle is a four-sided curve (its sides no longer along the axes)
        assert len(page.rects) == 2 and len(page.curves) == 4 and len(page.lines) == 3
        assert sorted(round(r["linewidth"], 3) for r in page.rects) == [2.0, 3.0]
        assert page.extract_text().count("in a form") == 2  # the turned one reads apart, letter by letter


def test_a_page_listed_twice_is_read_once_and_an_unreadable_file_is_an_error(tmp_path):
    """Like pdfplumber, the reader reads a page object the page tree lists twice once (a copy of it
    is a page of its own); a file pdfium cannot open raises (``check_file`` makes that a failed check)."""
    from pypdf import PdfWriter

    path = make_sheet(tmp_path, "minefield")
    for copy in (False, True):
        writer = PdfWriter(clone_from=str(path))
        writer.add_page(PdfReader(str(path)).pages[0] if copy else writer.pages[0])
        twice = tmp_path / f"twice-{copy}.pdf"
        writer.write(str(twice))
        assert len(PdfReader(str(twice)).pages) == 2
        with open_pdf(twice) as ours, pdfplumber.open(str(twice)) as theirs:
            assert len(ours.pages) == len(theirs.pages) == (2 if copy else 1)
            assert [len(p.chars) for p in ours.pages] == [len(p.chars) for p in theirs.pages]
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 nothing")
    with pytest.raises(Exception):
        open_pdf(broken)


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
