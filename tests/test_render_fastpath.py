"""render/fastpath.py writes what reportlab's canvas writes, for every kind of shape and style."""

import io
import random

from reportlab.pdfgen import canvas as rl_canvas

from printables.layout.primitives import Circle, Line, Polygon, Rect
from printables.paper import POINTS_PER_MM as PT
from printables.render import fastpath


def _canvas():
    buffer = io.BytesIO()
    return buffer, rl_canvas.Canvas(buffer, pagesize=(600, 800), invariant=1, pageCompression=1)


def _by_canvas(c, item):
    """What the renderer did before: reportlab's own setters and shapes."""
    stroke = item.stroke is not None
    fill = getattr(item, "fill", None) is not None
    if stroke:
        if isinstance(item.stroke, tuple):
            c.setStrokeColorRGB(*item.stroke)
        else:
            c.setStrokeGray(item.stroke)
        c.setLineWidth(item.line_mm * PT)
        dash = getattr(item, "dash_mm", None)
        c.setDash([d * PT for d in dash] if dash else [])
    if fill:
        if isinstance(item.fill, tuple):
            c.setFillColorRGB(*item.fill)
        else:
            c.setFillGray(item.fill)
    if isinstance(item, Line):
        c.line(item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, Rect):
        c.rect(item.x, item.y, item.w, item.h, stroke=int(stroke), fill=int(fill))
    elif isinstance(item, Polygon):
        path = c.beginPath()
        (x0, y0), *rest = item.points
        path.moveTo(x0, y0)
        for x, y in rest:
            path.lineTo(x, y)
        if item.closed:
            path.close()
        c.drawPath(path, stroke=int(stroke), fill=int(fill) if item.closed else 0)
    else:
        c.circle(item.cx, item.cy, item.r, stroke=int(stroke), fill=int(fill))


def _by_fastpath(c, item):
    code = c._code
    stroke, fill = fastpath.style(c, code, item, PT)
    if isinstance(item, Line):
        fastpath.line(code, item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, Rect):
        fastpath.rect(c, code, item.x, item.y, item.w, item.h, stroke, fill)
    elif isinstance(item, Polygon):
        fastpath.polygon(c, code, list(item.points), item.closed, stroke, fill)
    else:
        fastpath.circle(c, code, item.cx, item.cy, item.r, stroke, fill)


def _random_items(rng, count):
    def coord():
        return rng.choice([rng.uniform(-20, 620), round(rng.uniform(0, 600), 1), rng.randint(0, 600)])

    def colour(none_ok):
        return rng.choice(([None] if none_ok else []) + [0.0, 1.0, 0.45, rng.random(), 0,
                                                         (rng.random(), rng.random(), rng.random())])

    def dash():
        return rng.choice([None, None, (), (1.0, 0.5), (0.0, 1.2), (rng.uniform(0.1, 3), rng.uniform(0.1, 3)),
                           (rng.uniform(0.1, 3), rng.uniform(0.1, 3), rng.uniform(0.1, 3))])

    items = []
    for _ in range(count):
        kind = rng.randrange(4)
        width = rng.choice([0.25, 0.3, 0.15, rng.uniform(0.05, 2)])
        if kind == 0:
            items.append(Line(coord(), coord(), coord(), coord(), stroke=colour(False), line_mm=width, dash_mm=dash()))
        elif kind == 1:
            items.append(Rect(coord(), coord(), rng.uniform(0, 200), rng.uniform(0, 200), stroke=colour(True),
                              fill=colour(True), line_mm=width, dash_mm=dash()))
        elif kind == 2:
            items.append(Circle(coord(), coord(), rng.choice([0.5, 1.8, 3.6, rng.uniform(0.01, 100)]),
                                stroke=colour(True), fill=colour(True), line_mm=width))
        else:
            points = tuple((coord(), coord()) for _ in range(rng.randint(1, 7)))
            items.append(Polygon(points, stroke=colour(True), fill=colour(True), line_mm=width,
                                 closed=rng.random() < 0.7))
    return items


def test_a_dash_the_canvas_refuses_is_refused_the_same_way():
    import pytest

    _, c = _canvas()
    with pytest.raises(ValueError, match="setDash"):
        fastpath.style(c, c._code, Line(0, 0, 1, 1, dash_mm=(-1.0, 2.0)), PT)


def test_shapes_written_directly_are_the_canvas_own_content_and_bytes():
    rng = random.Random(14)
    slow_buffer, slow = _canvas()
    fast_buffer, fast = _canvas()
    for page in range(3):
        for item in _random_items(rng, 1500):
            _by_canvas(slow, item)
            _by_fastpath(fast, item)
        assert fast._code == slow._code, f"page {page}"
        for attr in ("_strokeColorObj", "_fillColorObj", "_lineWidth"):
            assert getattr(fast, attr) == getattr(slow, attr)
        slow.showPage()
        fast.showPage()
    slow.save()
    fast.save()
    assert fast_buffer.getvalue() == slow_buffer.getvalue()


def test_a_circle_is_a_moveto_and_four_curves():
    _, c = _canvas()
    fastpath.circle(c, c._code, 100.0, 200.0, 10.0, 1, 0)
    assert c._code[0] == "n" and c._code[1] == "110 200 m"
    assert [op.split()[-1] for op in c._code[2:6]] == ["c"] * 4 and c._code[-1] == "S"



def test_remembered_greys_and_widths_are_what_the_canvas_writes(monkeypatch):
    # The style strings are remembered per value: equal values of another type or sign (1 and 1.0,
    # 0.0 and -0.0) must still give the canvas's own text, and so must a value met after the store
    # was emptied at its limit.
    monkeypatch.setattr(fastpath, "_CACHE_LIMIT", 3)
    values = [0, 0.0, -0.0, 1, 1.0, 0.25, 0.3333333, 0.25, 2.5e-7, 0.5, 0.75, 0.0, 1]
    for stroke, fill, line_mm in zip(values, reversed(values), values[3:] + values[:3]):
        item = Rect(10.0, 20.0, 30.0, 40.0, stroke=stroke, fill=fill, line_mm=line_mm)
        _, fast = _canvas()
        _, slow = _canvas()
        _by_fastpath(fast, item)
        _by_canvas(slow, item)
        assert fast._code == slow._code, (stroke, fill, line_mm)
    assert len(fastpath._STROKE_GREY) <= 3


def _random_texts(rng):
    from printables.layout.primitives import Text

    # more than 256 distinct characters per face, so the subsets switch within a text and between texts
    latin = [chr(c) for c in range(0x20, 0x17F) if chr(c).isprintable()] + list("()\\·—“”…%")
    hangul = [chr(0xAC00 + i) for i in range(0, 11000, 37)]
    items = []
    for _ in range(700):
        font = rng.choice(["Helvetica", "Helvetica-Bold", "NotoSans-Italic", "NanumGothic"])
        pool = latin + hangul if font == "NanumGothic" else latin
        string = "".join(rng.choice(pool) for _ in range(rng.choice([0, 1, 3, 12, 40])))
        items.append(Text(rng.uniform(-5, 200), rng.uniform(-5, 280), string, size_pt=rng.choice([5, 7.5, 9, 13.37]),
                          font=font, anchor=rng.choice(["start", "middle", "end"]),
                          colour=rng.choice([0, 0.4, (0.2, 0.5, 0.9)]), angle=rng.choice([0, 0, 90, -33.5])))
    return items


def test_texts_written_directly_are_what_draw_string_writes(monkeypatch):
    # The renderer writes plain TrueType texts itself (fastpath.text); with text_fast refused it
    # uses drawString, drawCentredString and drawRightString. Same pages, same subsets, same bytes.
    from printables.layout.primitives import Document, Page
    from printables.render import pdf

    rng = random.Random(14)
    items = _random_texts(rng)
    document = Document(tuple(Page(210.0, 297.0, tuple(items[i:i + 150])) for i in range(0, len(items), 150)),
                        "texts", "{}", "")
    fast = pdf.render_pdf(document)
    monkeypatch.setattr(pdf, "text_fast", lambda c: False)
    slow = pdf.render_pdf(document)
    assert fast == slow
    # and the fast path was taken for these fonts (else the comparison above shows nothing)
    calls = []
    monkeypatch.setattr(pdf, "text_fast", lambda c: calls.append(1) or fastpath.text_fast(c))
    pdf.render_pdf(document)
    assert len(calls) == len(items)


def test_text_fast_path_refuses_what_it_does_not_write(monkeypatch):
    from reportlab.pdfgen import textobject

    from printables.render.pdf import _font

    _, c = _canvas()
    c.setFont(_font("Helvetica"), 9)
    assert fastpath.text_fast(c)
    monkeypatch.setattr(textobject, "rtlSupport", True)
    assert not fastpath.text_fast(c)
    monkeypatch.setattr(textobject, "rtlSupport", False)
    c.setFont("Courier", 9)  # a base-14 font: not embedded TrueType
    assert not fastpath.text_fast(c)
    top_down = rl_canvas.Canvas(io.BytesIO(), bottomup=0)
    top_down.setFont(_font("Helvetica"), 9)
    assert not fastpath.text_fast(top_down)


def test_numbers_are_written_as_fp_str_writes_them(monkeypatch):
    # fastpath remembers each number's text: fp_str formats every number alone and joins them with
    # spaces, so numbers(*values) must be fp_str(*values) whatever was remembered before.
    from reportlab.lib.rl_accel import fp_str

    rng = random.Random(3)
    pool = [0, 1, -1, 0.0, -0.0, 1.0, True, 1e-8, -1e-8, 5e-7, 0.5, 123456.789, 95000.4, 94999.6, -0.00049,
            2 ** 40, 1 / 3, 841.8897637795275]
    for _ in range(3000):
        pool.append(rng.choice([rng.uniform(-1000, 1000), round(rng.uniform(0, 600), rng.randint(0, 4)),
                                rng.randint(-600, 600), rng.uniform(-1, 1) * 10 ** rng.randint(-9, 6)]))
    monkeypatch.setattr(fastpath, "_NUMBER_LIMIT", 500)  # the store is emptied now and then too
    for _ in range(4000):
        values = [rng.choice(pool) for _ in range(rng.choice([1, 2, 4, 6]))]
        assert fastpath.numbers(*values) == fp_str(*values), values
    assert 0 < len(fastpath._NUMBERS) <= 500
    code = []
    fastpath.line(code, 1.0, -0.0, 2 ** 40, 1 / 3)
    assert code == ["n 1 0 m %s l S" % fp_str(2 ** 40, 1 / 3)]


def test_a_text_colour_is_what_set_fill_gray_writes():
    rng = random.Random(11)
    colours = [0.0, 1.0, 0, 1, 0.25, 0.3, -0.0, (0.1, 0.2, 0.3), (1, 0, 0)] + [rng.random() for _ in range(50)]
    _, fast = _canvas()
    _, slow = _canvas()
    for colour in colours + colours:
        fastpath.fill_colour(fast, fast._code, colour)
        if isinstance(colour, tuple):
            slow.setFillColorRGB(*colour)
        else:
            slow.setFillGray(colour)
        assert fast._code == slow._code and fast._fillColorObj == slow._fillColorObj, colour
