"""Render a layout Document to PDF bytes with reportlab (mm → points only here).

Every text is set in Noto Sans (``printables.fonts``), registered as a TrueType font, which reportlab
embeds as a subset: no PDF names a font it does not carry.

A document whose metadata holds ``print_shop`` (``bleed_mm``, ``mark_offset_mm``, ``mark_length_mm``,
``mark_line_mm``) is one product per page, each layout page its trim plus the bleed: the renderer
widens the paper by room for crop marks, draws the marks on the extension of each trim edge
outside the bleed, and records the page boxes a print shop reads (TrimBox, BleedBox; the MediaBox
is the paper with the marks).
"""

from __future__ import annotations

import io

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from printables import __version__, fonts
from printables.layout.primitives import BLACK, Circle, Document, Line, Page, Polygon, Rect, Text, translate
from printables.paper import mm_to_pt


def _font(font: str) -> str:
    """The registered (embedded) face for a layout's font name, registered with reportlab once per process."""
    name = fonts.registered_name(font)
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(fonts.font_file(fonts.face_of(font)))))
    return name


def print_shop_page(page: Page, print_shop: dict) -> tuple[Page, float, float]:
    """The page on paper widened for crop marks, with the marks; and the margin and bleed in mm.

    ``page`` is the trim plus ``bleed_mm`` on every side. Each mark lies on the extension of a trim
    edge, from ``mark_offset_mm`` beyond the bleed to the paper's edge ``mark_length_mm`` further.
    """
    bleed = float(print_shop["bleed_mm"])
    offset, length = float(print_shop["mark_offset_mm"]), float(print_shop["mark_length_mm"])
    line = float(print_shop["mark_line_mm"])
    margin = offset + length
    width, height = page.width + 2 * margin, page.height + 2 * margin
    left, right = margin + bleed, width - margin - bleed  # the trim, on the widened paper
    top, bottom = margin + bleed, height - margin - bleed
    marks = []
    for x in (left, right):
        marks += [Line(x, 0.0, x, length, BLACK, line), Line(x, height - length, x, height, BLACK, line)]
    for y in (top, bottom):
        marks += [Line(0.0, y, length, y, BLACK, line), Line(width - length, y, width, y, BLACK, line)]
    return Page(width, height, translate(page.items, margin, margin) + tuple(marks)), margin, bleed


def _fill(c, colour) -> None:
    """The fill colour: a grey level or an (r, g, b) triple."""
    if isinstance(colour, tuple):
        c.setFillColorRGB(*colour)
    else:
        c.setFillGray(colour)


def _style(c, item) -> tuple[int, int]:
    """A shape's stroke colour, line width and dash (solid when it has none), then its fill colour;
    returns (stroke, fill) as the 0/1 flags the canvas's shapes take."""
    stroke, fill = item.stroke, getattr(item, "fill", None)
    if stroke is not None:
        if isinstance(stroke, tuple):
            c.setStrokeColorRGB(*stroke)
        else:
            c.setStrokeGray(stroke)
        c.setLineWidth(mm_to_pt(item.line_mm))
        dash = getattr(item, "dash_mm", None)
        c.setDash([mm_to_pt(d) for d in dash] if dash else [])
    if fill is not None:
        _fill(c, fill)
    return int(stroke is not None), int(fill is not None)


def render_pdf(document: Document) -> bytes:
    """The PDF bytes for ``document``; identical inputs give identical bytes (invariant mode)."""
    buffer = io.BytesIO()
    first = document.pages[0]  # the size is set again for every page
    c = rl_canvas.Canvas(
        buffer,
        pagesize=(mm_to_pt(first.width), mm_to_pt(first.height)),
        invariant=1,
        pageCompression=1,
        initialFontName=_font("Helvetica"),  # else reportlab lists unembedded Helvetica on every page
        initialFontSize=9,
    )
    c.setTitle(document.title)
    c.setSubject(document.subject)
    c.setKeywords(document.keywords)
    c.setCreator(f"printables {__version__}")
    c.setAuthor("printables")
    c.setViewerPreference("PrintScaling", "None")
    c.setLineCap(0)
    print_shop = document.metadata.get("print_shop")
    faces: dict[str, str] = {}  # layout font -> registered face, registered on first use
    drawers = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}
    for page in document.pages:
        if print_shop:
            page, margin, bleed = print_shop_page(page, print_shop)
            w, h = mm_to_pt(page.width), mm_to_pt(page.height)
            c.setBleedBox([mm_to_pt(margin), mm_to_pt(margin), w - mm_to_pt(margin), h - mm_to_pt(margin)])
            inset = mm_to_pt(margin + bleed)
            c.setTrimBox([inset, inset, w - inset, h - inset])
        height_pt = mm_to_pt(page.height)
        c.setPageSize((mm_to_pt(page.width), height_pt))

        def X(v: float) -> float:
            return mm_to_pt(v)

        def Y(v: float) -> float:
            return height_pt - mm_to_pt(v)

        for item in page.items:
            if isinstance(item, Line):
                _style(c, item)
                c.line(X(item.x1), Y(item.y1), X(item.x2), Y(item.y2))
            elif isinstance(item, Rect):
                stroke, fill = _style(c, item)
                c.rect(X(item.x), Y(item.y + item.h), mm_to_pt(item.w), mm_to_pt(item.h), stroke, fill)
            elif isinstance(item, Circle):
                stroke, fill = _style(c, item)
                c.circle(X(item.cx), Y(item.cy), mm_to_pt(item.r), stroke, fill)
            elif isinstance(item, Polygon):
                stroke, fill = _style(c, item)
                path = c.beginPath()
                (x0, y0), *rest = item.points
                path.moveTo(X(x0), Y(y0))
                for x, y in rest:
                    path.lineTo(X(x), Y(y))
                if item.closed:
                    path.close()
                c.drawPath(path, stroke, fill if item.closed else 0)  # an open path is never filled
            elif isinstance(item, Text):
                _fill(c, item.colour)
                face = faces.get(item.font)
                if face is None:
                    face = faces[item.font] = _font(item.font)
                c.setFont(face, item.size_pt)
                if item.angle:
                    c.saveState()
                    c.translate(X(item.x), Y(item.y))
                    c.rotate(item.angle)
                    drawers[item.anchor](0, 0, item.text)
                    c.restoreState()
                else:
                    drawers[item.anchor](X(item.x), Y(item.y), item.text)
            else:  # pragma: no cover - layout only makes the primitives above
                raise TypeError(f"cannot render {item!r}")
        c.showPage()
    c.save()
    return buffer.getvalue()
