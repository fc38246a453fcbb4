"""What reportlab's canvas writes for a line, a rectangle, a circle and their grey colours, written
directly into the page's content: the same operators, numbers and canvas state, fewer steps.

A sheet is mostly lines, rectangles, circles and polygons (Patchwork: some 1,500 on six pages), and for each
the renderer called four or five canvas methods (stroke grey, line width, no dash, the shape), each
checking its arguments again. These functions append exactly the strings those methods append
(``reportlab.pdfgen.canvas`` and ``textobject``: ``setStrokeGray``, ``setFillGray``,
``setLineWidth``, ``setDash``, ``line``, ``rect``, ``circle`` through ``pdfgeom.bezierArc``, and a
polygon's ``drawPath``) and set the same canvas attributes; RGB colours still go through reportlab.
Texts in an embedded TrueType face are written as ``drawString`` & co. write them (``text``), the
font's own ``splitString`` assigning the subset codes in drawing order as reportlab does. Each
number's text (``fp_str``'s) is remembered: a sheet's coordinates repeat.
tests/test_render_fastpath.py draws thousands of random shapes both ways and compares the content
and the PDF bytes, so a reportlab that writes them differently fails there, not in a printed sheet.
"""

from __future__ import annotations

from math import cos, pi, sin

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen import textobject as _textobject
from reportlab.pdfgen.canvas import PATH_OPS

# bezierArc(x1, y1, x2, y2, 0, 360): four 90-degree fragments, reportlab's own angle arithmetic.
_HALF_ANGLE = 90.0 * pi / 360.
_KAPPA = abs(4. / 3. * (1. - cos(_HALF_ANGLE)) / sin(_HALF_ANGLE))
_QUARTERS = tuple(
    (cos((0 + i * 90.0) * pi / 180.), sin((0 + i * 90.0) * pi / 180.),
     cos((0 + (i + 1) * 90.0) * pi / 180.), sin((0 + (i + 1) * 90.0) * pi / 180.))
    for i in range(4)
)


# "g G", "w w" and "f g" written once per value: fp_str of one number depends on its value alone
# (0.0 and -0.0 both give "0"), and a sheet uses a handful of greys and widths some 1,500 times.
_STROKE_GREY: dict = {}
_WIDTH: dict = {}
_FILL_GREY: dict = {}
_CACHE_LIMIT = 4096  # a long-running process (printables serve) never keeps more than this many


# Each number's text, as fp_str writes it: fp_str formats every number alone (its value alone decides
# the text) and joins them with single spaces, and a sheet's coordinates repeat (on Patchwork's six
# pages some 17,500 numbers take 2,200 values), so a number already written is looked up instead.
_NUMBERS: dict = {}
_NUMBER_LIMIT = 16384  # a long-running process (printables serve) never keeps more than this many


def _number(value) -> str:
    """``fp_str(value)``, remembered."""
    if len(_NUMBERS) >= _NUMBER_LIMIT:
        _NUMBERS.clear()
    text = _NUMBERS[value] = fp_str(value)
    return text


def numbers(*values) -> str:
    """``fp_str(*values)``: the numbers' texts joined by spaces."""
    get = _NUMBERS.get
    return " ".join([get(value) or _number(value) for value in values])


def _operator(cache: dict, value, template: str) -> str:
    """``template % fp_str(value)``, remembered in ``cache``."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    text = cache[value] = template % fp_str(value)
    return text


def _colour(code: list, colour, set_rgb, greys: dict, template: str) -> None:
    """An RGB colour through the canvas's own setter; a grey written as the setter writes it."""
    if isinstance(colour, tuple):
        set_rgb(*colour)
    else:
        code.append(greys.get(colour) or _operator(greys, colour, template))


def style(c, code: list, item, pt: float) -> tuple[int, int]:
    """Stroke grey, line width and a solid line, then fill grey, as the canvas setters write them;
    returns (stroke, fill) as 0/1. RGB colours and dashes go through the canvas itself."""
    stroke, fill = item.stroke, getattr(item, "fill", None)
    if stroke is not None:
        _colour(code, stroke, c.setStrokeColorRGB, _STROKE_GREY, "%s G")
        if not isinstance(stroke, tuple):
            c._strokeColorObj = (stroke, stroke, stroke)
        width = item.line_mm * pt
        c._lineWidth = width
        code.append(_WIDTH.get(width) or _operator(_WIDTH, width, "%s w"))
        dash = getattr(item, "dash_mm", None)
        if not dash:
            code.append("[] 0 d")
        else:
            array = [d * pt for d in dash]
            if min(array) >= 0 and sum(array) > 0:  # what setDash accepts; it refuses anything else
                code.append("[%s] 0 d" % fp_str(array))
            else:
                c.setDash(array)
    if fill is not None:
        _colour(code, fill, c.setFillColorRGB, _FILL_GREY, "%s g")
        if not isinstance(fill, tuple):
            c._fillColorObj = (fill, fill, fill)
    return int(stroke is not None), int(fill is not None)


def fill_colour(c, code: list, colour) -> None:
    """``canvas.setFillGray`` (or ``setFillColorRGB`` for an RGB colour): a text's colour."""
    _colour(code, colour, c.setFillColorRGB, _FILL_GREY, "%s g")
    if not isinstance(colour, tuple):
        c._fillColorObj = (colour, colour, colour)


def polygon(c, code: list, points: list[tuple[float, float]], closed: bool, stroke: int, fill: int) -> None:
    """``canvas.drawPath`` of a path moved to the first point, on to the others, closed if ``closed``
    (a path object's operators joined by spaces, after an ``n``; an open path is never filled)."""
    (x0, y0), *rest = points
    get = _NUMBERS.get
    ops = ["n", f"{get(x0) or _number(x0)} {get(y0) or _number(y0)} m"]
    ops += [f"{get(x) or _number(x)} {get(y) or _number(y)} l" for x, y in rest]
    if closed:
        ops.append("h")
    code.append(" ".join(ops))
    code.append(PATH_OPS[stroke, fill if closed else 0, c._fillMode])


def line(code: list, x1: float, y1: float, x2: float, y2: float) -> None:
    """``canvas.line``."""
    get = _NUMBERS.get
    code.append(f"n {get(x1) or _number(x1)} {get(y1) or _number(y1)} m "
                f"{get(x2) or _number(x2)} {get(y2) or _number(y2)} l S")


def rect(c, code: list, x: float, y: float, width: float, height: float, stroke: int, fill: int) -> None:
    """``canvas.rect``."""
    get = _NUMBERS.get
    code.append(f"n {get(x) or _number(x)} {get(y) or _number(y)} {get(width) or _number(width)} "
                f"{get(height) or _number(height)} re " + PATH_OPS[stroke, fill, c._fillMode])


_CURVE = "%s %s %s %s %s %s c"


def circle(c, code: list, x_cen: float, y_cen: float, r: float, stroke: int, fill: int) -> None:
    """``canvas.circle``: ``ellipse`` of the enclosing square, four Bezier quarters from ``bezierArc``."""
    x1, x2, y1, y2 = x_cen - r, x_cen + r, y_cen - r, y_cen + r
    # canvas.ellipse passes the width and height on; PDFPathObject.ellipse adds them back.
    ax1, ay1 = x1, y1
    ax2, ay2 = x1 + (x2 - x1), y1 + (y2 - y1)
    ax1, ay1, ax2, ay2 = min(ax1, ax2), max(ay1, ay2), max(ax1, ax2), min(ay1, ay2)
    xc, yc = (ax1 + ax2) / 2., (ay1 + ay2) / 2.
    rx, ry = (ax2 - ax1) / 2., (ay2 - ay1) / 2.
    k = _KAPPA
    c0, s0 = _QUARTERS[0][0], _QUARTERS[0][1]
    values = [xc + rx * c0, yc - ry * s0]
    for c0, s0, c1, s1 in _QUARTERS:
        values += (xc + rx * (c0 - k * s0), yc - ry * (s0 + k * c0), xc + rx * (c1 + k * s1),
                   yc - ry * (s1 - k * c1), xc + rx * c1, yc - ry * s1)
    get = _NUMBERS.get
    t = [get(value) or _number(value) for value in values]
    # a path's first operator is preceded by n (PDFPathObject._init_code_append)
    code += ("n", "%s %s m" % (t[0], t[1]), _CURVE % tuple(t[2:8]), _CURVE % tuple(t[8:14]),
             _CURVE % tuple(t[14:20]), _CURVE % tuple(t[20:26]), PATH_OPS[stroke, fill, c._fillMode])


def text_fast(c) -> bool:
    """Whether ``text`` may draw in the canvas's current font: an embedded TrueType face, a canvas
    drawn bottom-up, and a reportlab without right-to-left support (whose drawString rewrites
    the text first). Anything else goes through the canvas's drawString and friends."""
    return not _textobject.rtlSupport and c.bottomup and getattr(getFont(c._fontname), "_dynamicFont", False)


def text(c, code: list, x: float, y: float, string: str, anchor: str) -> None:
    """``canvas.drawString`` (anchor "start"), ``drawCentredString`` ("middle") or
    ``drawRightString`` ("end") of a plain string in the current TrueType font (see text_fast):
    the width as ``bidiShapedText`` measures it, a text object's origin, ``_formatText``'s
    subset switches (``splitString`` assigns the subset codes, as drawing does) and ``T*``."""
    font = getFont(c._fontname)
    size = c._fontsize
    if anchor != "start":
        width = font.stringWidth(string, size, encoding="utf8")
        x = x - 0.5 * width if anchor == "middle" else x - width
    doc = c._doc
    escape = c._escape
    parts = []
    current = -1
    switch = None
    for subset, chunk in font.splitString(string, doc):
        if subset != current:
            if not switch:
                switch = f"{fp_str(size)} Tf {fp_str(c._leading)} TL"
            parts.append(f"{font.getSubsetInternalName(subset, doc)} {switch}")
            current = subset
        parts.append(f"({escape(chunk)}) Tj")
    get = _NUMBERS.get
    code.append(f"BT 1 0 0 1 {get(x) or _number(x)} {get(y) or _number(y)} Tm {' '.join(parts)} T* ET")
