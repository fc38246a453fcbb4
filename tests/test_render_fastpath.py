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

