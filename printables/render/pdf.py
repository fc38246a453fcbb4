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
from reportlab.pdfgen import canvas as rl_canvas

from printables import __version__, fonts
from printables.layout.primitives import BLACK, Circle, Document, Line, Page, Polygon, Rect, Text, translate
from printables.paper import POINTS_PER_MM as PT
from printables.paper import mm_to_pt
from printables.render.fastpath import circle, fill_colour, line, polygon, rect, style, text, text_fast
from printables.render.ttf import FastTTFont


def _font(font: str) -> str:
    """The registered (embedded) face for a layout's font name, registered with reportlab on first use."""
    name = fonts.registered_name(font)
    if name not in pdfmetrics.getRegisteredFontNames():
        path = fonts.font_file(fonts.face_of(font))
        pdfmetrics.registerFont(FastTTFont(name, str(path), fonts.take_file_bytes(path)))
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

        code = c._code  # the page's content (a new list on every page)
        for item in page.items:
            # Lines, rectangles and circles are most of a sheet: mm_to_pt written out (v * PT), the
            # same arithmetic, so the same numbers,
            # and are written straight into the page's content as the canvas would (render/fastpath.py).
            if isinstance(item, Line):
                style(c, code, item, PT)
                line(code, item.x1 * PT, height_pt - item.y1 * PT, item.x2 * PT, height_pt - item.y2 * PT)
            elif isinstance(item, Rect):
                stroke, fill = style(c, code, item, PT)
                rect(c, code, item.x * PT, height_pt - (item.y + item.h) * PT, item.w * PT, item.h * PT, stroke, fill)
            elif isinstance(item, Circle):
                stroke, fill = style(c, code, item, PT)
                circle(c, code, item.cx * PT, height_pt - item.cy * PT, item.r * PT, stroke, fill)
            elif isinstance(item, Polygon):
                stroke, fill = style(c, code, item, PT)
                polygon(c, code, [(x * PT, height_pt - y * PT) for x, y in item.points], item.closed, stroke, fill)
            elif isinstance(item, Text):
                fill_colour(c, code, item.colour)
                face = faces.get(item.font)
                if face is None:
                    face = faces[item.font] = _font(item.font)
                c.setFont(face, item.size_pt)
                if item.angle:
                    c.saveState()
                    c.translate(X(item.x), Y(item.y))
                    c.rotate(item.angle)
                    x = y = 0
                else:
                    x, y = X(item.x), Y(item.y)
                if text_fast(c):  # what drawString & co. write, written directly (render/fastpath.py)
                    text(c, c._code, x, y, item.text, item.anchor)
                else:
                    drawers[item.anchor](x, y, item.text)
                if item.angle:
                    c.restoreState()
            else:  # pragma: no cover - layout only makes the primitives above
                raise TypeError(f"cannot render {item!r}")
        c.showPage()
    c.save()
    return buffer.getvalue()
