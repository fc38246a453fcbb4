"""Render a layout Document to PDF bytes with reportlab (mm → points only here)."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas as rl_canvas

from printables import __version__
from printables.layout.primitives import Circle, Colour, Document, Line, Polygon, Rect, Text
from printables.paper import mm_to_pt


def _set_stroke(c, colour: Colour) -> None:
    if isinstance(colour, tuple):
        c.setStrokeColorRGB(*colour)
    else:
        c.setStrokeGray(colour)


def _set_fill(c, colour: Colour) -> None:
    if isinstance(colour, tuple):
        c.setFillColorRGB(*colour)
    else:
        c.setFillGray(colour)


def _style(c, item) -> tuple[int, int]:
    stroke = item.stroke is not None
    fill = getattr(item, "fill", None) is not None
    if stroke:
        _set_stroke(c, item.stroke)
        c.setLineWidth(mm_to_pt(item.line_mm))
        dash = getattr(item, "dash_mm", None)
        c.setDash([mm_to_pt(d) for d in dash] if dash else [])
    if fill:
        _set_fill(c, item.fill)
    return int(stroke), int(fill)


def _register(font: str) -> None:
    """Register a TrueType face of ours (embedded, subset) the first time a text uses it."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from printables.i18n.fonts import font_file

    if font not in pdfmetrics.getRegisteredFontNames():
        path = font_file(font)
        if path is not None:
            pdfmetrics.registerFont(TTFont(font, str(path)))


def render_pdf(document: Document) -> bytes:
    """The PDF bytes for ``document``; identical inputs give identical bytes (invariant mode)."""
    buffer = io.BytesIO()
    first = document.pages[0]
    c = rl_canvas.Canvas(
        buffer,
        pagesize=(mm_to_pt(first.width), mm_to_pt(first.height)),
        invariant=1,
        pageCompression=1,
    )
    c.setTitle(document.title)
    c.setSubject(document.subject)
    c.setKeywords(document.keywords)
    c.setCreator(f"printables {__version__}")
    c.setAuthor("printables")
    c.setViewerPreference("PrintScaling", "None")
    c.setLineCap(0)
    for page in document.pages:
        height_pt = mm_to_pt(page.height)
        c.setPageSize((mm_to_pt(page.width), height_pt))

        def X(v: float) -> float:
            return mm_to_pt(v)

        def Y(v: float) -> float:
            return height_pt - mm_to_pt(v)

        for item in page.items:
            if isinstance(item, Rect):
                stroke, fill = _style(c, item)
                c.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h), stroke=stroke, fill=fill)
            elif isinstance(item, Line):
                _style(c, item)
                c.line(X(item.x1), Y(item.y1), X(item.x2), Y(item.y2))
            elif isinstance(item, Circle):
                stroke, fill = _style(c, item)
                c.circle(X(item.cx), Y(item.cy), mm_to_pt(item.r), stroke=stroke, fill=fill)
            elif isinstance(item, Polygon):
                stroke, fill = _style(c, item)
                path = c.beginPath()
                (x0, y0), *rest = item.points
                path.moveTo(X(x0), Y(y0))
                for x, y in rest:
                    path.lineTo(X(x), Y(y))
                if item.closed:
                    path.close()
                c.drawPath(path, stroke=stroke, fill=fill if item.closed else 0)
            elif isinstance(item, Text):
                _set_fill(c, item.colour)
                _register(item.font)
                c.setFont(item.font, item.size_pt)
                draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[item.anchor]
                draw(X(item.x), Y(item.y), item.text)
            else:  # pragma: no cover - layout only makes the primitives above
                raise TypeError(f"cannot render {item!r}")
        c.showPage()
    c.save()
    return buffer.getvalue()
