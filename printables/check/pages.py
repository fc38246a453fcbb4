"""A PDF's pages as the checks read them: characters, rectangles, lines and curves, read through
pypdfium2's public API (its ``PdfDocument`` and the documented ``pypdfium2.raw`` FPDF functions).

Every object is a dict keyed as pdfplumber keys its objects, in the same units and orientation: PDF
points, x from the page's left, ``top``/``bottom`` from the page's top, ``matrix`` in PDF space
(y up). The checks read them without knowing which library read the file.

What is measured, and how (one place, so that a reader of a check knows what a number means):

- a **character** stands on its origin (pdfium's, or where the glyph before it in the same text
  object ends when that is within ``SNAP_PT``: pdfium keeps 32-bit floats); its box runs its
  advance width along the baseline and one font size up from the font's descent below it (the
  FontDescriptor's /Descent), through the text matrix (the bounds of its four corners); ``size`` is
  that box's height, ``upright`` that the matrix neither turns nor mirrors it. ``fontname`` is the
  font's /BaseFont with its subset prefix (``AAAAAA+NotoSans``), found by the font program's bytes
  (pdfium names a font without its prefix). A text object holding a lone space (a space set in a
  second font between two texts) is read as that space, though pdfium's text page lists it as a
  space of its own making;
- a **path** is split into its subpaths (each ``m`` starts one); a subpath of one straight segment
  is a *line*, one of four straight sides closing on its start with sides along the axes is a
  *rectangle*, any other a *curve*. ``pts`` are the segments' end points, ``path`` the segments
  (``m``, ``l``, ``c`` with its control points, ``h``) with a side closing back to the start written
  as ``h`` alone. A curve's box is its end points' box. ``linewidth`` is in page points (a shape
  drawn scaled strokes as scaled); a shape that is not stroked has pdfium's default width, 1;
- objects inside a form XObject are read as if drawn on the page (the form's matrix applied);
  clipping is not applied (a clipped shape is read whole); a page's /Rotate is not applied;
- **colours** are pdfium's 8-bit RGB, each part as the fewest decimals that give that step (``0.95``,
  not 242/255): a grey (three equal parts) is one level, a bare number for a shape and ``(g,)`` for
  a character as pdfplumber gives them, any other colour ``(r, g, b)``; a CMYK colour is read as
  the RGB pdfium shows it in.

A page that the page tree lists twice is read once (``PdfPages.pages``), in file order.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as fpdf

TEXT, PATH, FORM = fpdf.FPDF_PAGEOBJ_TEXT, fpdf.FPDF_PAGEOBJ_PATH, fpdf.FPDF_PAGEOBJ_FORM
LINETO, BEZIERTO, MOVETO = fpdf.FPDF_SEGMENT_LINETO, fpdf.FPDF_SEGMENT_BEZIERTO, fpdf.FPDF_SEGMENT_MOVETO
FONT_PROGRAMS = ("/FontFile", "/FontFile2", "/FontFile3")
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# A glyph's origin this close to where the last one's advance ends is that end: glyphs set one after
# another touch exactly, as a reader computing in doubles finds them (pdfium stores 32-bit floats).
SNAP_PT = 1e-3


@dataclass
class PageData:
    """One page as read: its size in points, its objects by kind (stream order) and its MediaBox
    as (x0, top, x1, bottom) in points from the top, as pdfplumber gives ``mediabox``."""

    page_number: int
    page_id: int | None  # the page object's number in the file (None when unknown)
    width: float
    height: float
    mediabox: tuple[float, float, float, float]
    chars: list[dict] = field(default_factory=list)
    rects: list[dict] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)
    curves: list[dict] = field(default_factory=list)
    doctop: float = 0.0  # the page's top in the document (the pages above it, stacked)

    def extract_words(self, **options) -> list[dict]:
        """The page's words, pdfplumber's public ``utils.extract_words`` on these characters."""
        from pdfplumber.utils import extract_words

        return extract_words(self.chars, **options)

    def extract_text(self) -> str:
        """The page's text, line by line, as pdfplumber's ``Page.extract_text()`` lays it out from
        these characters (its public ``utils.chars_to_textmap``)."""
        if not self.chars:
            return ""
        from pdfplumber.utils import chars_to_textmap

        return chars_to_textmap(self.chars, layout_bbox=self.mediabox, layout_width=self.width,
                                layout_height=self.height).as_string


class PdfPages:
    """An opened PDF's pages, read once (``pages``); a context manager like an open file."""

    def __init__(self, pages: list[PageData]):
        self.pages = pages

    def close(self) -> None:
        """Nothing stays open: the pages were read when the file was opened."""

    def __enter__(self) -> "PdfPages":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _mult(m: tuple, n: tuple) -> tuple:
    """The matrix ``m`` then ``n`` (PDF's row-vector convention: a point is multiplied by m, then n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _level(value: int) -> float:
    """A colour part pdfium gives in 8 bits (0-255), as the fewest decimals (up to 3) that round to it:
    the level a file writes (``0.95 g``) rather than its 8-bit step (242/255 = 0.949)."""
    found = _LEVELS.get(value)
    if found is None:
        exact = value / 255
        found = exact
        for places in (0, 1, 2, 3):
            step = 10 ** places
            near = [n / step for n in (math.floor(exact * step), math.ceil(exact * step))
                    if int(n / step * 255 + 0.5) == value]
            if near:
                found = min(near, key=lambda v: abs(v - exact))
                break
        _LEVELS[value] = found
    return found


_LEVELS: dict[int, float] = {}


def _colour(r: int, g: int, b: int, scalar_grey: bool = False) -> float | tuple:
    """A colour as pdfplumber gives it: a grey as one level (a bare number for shapes, ``scalar_grey``),
    any other colour as (r, g, b)."""
    if r == g == b:
        return _level(r) if scalar_grey else (_level(r),)
    return (_level(r), _level(g), _level(b))


class _Reader:
    """Reads one document's pages; fonts and colours are remembered across its pages."""

    def __init__(self, document, font_names: dict[bytes, str]):
        self.document = document
        self.font_names = font_names  # font program digest -> /BaseFont with its subset prefix
        self.fonts: dict[int, tuple[str, float, dict]] = {}  # font handle -> (name, descent per em, widths)
        self.matrix = fpdf.FS_MATRIX()
        self.rgba = [ctypes.c_uint() for _ in range(4)]
        self.rgba_refs = [ctypes.byref(v) for v in self.rgba]
        self.x, self.y = ctypes.c_double(), ctypes.c_double()
        self.fx, self.fy = ctypes.c_float(), ctypes.c_float()
        self.size = ctypes.c_float()

    def _object_matrix(self, obj) -> tuple:
        m = self.matrix
        if not fpdf.FPDFPageObj_GetMatrix(obj, m):
            return _IDENTITY
        return (m.a, m.b, m.c, m.d, m.e, m.f)

    def _fill(self, obj) -> float | tuple:
        v = self.rgba
        if not fpdf.FPDFPageObj_GetFillColor(obj, *self.rgba_refs):
            return 0.0
        return _colour(v[0].value, v[1].value, v[2].value, True)

    def _stroke(self, obj) -> float | tuple:
        v = self.rgba
        if not fpdf.FPDFPageObj_GetStrokeColor(obj, *self.rgba_refs):
            return 0.0
        return _colour(v[0].value, v[1].value, v[2].value, True)

    def _font(self, font) -> tuple[str, float, dict]:
        key = ctypes.cast(font, ctypes.c_void_p).value or 0
        found = self.fonts.get(key)
        if found is None:
            n = fpdf.FPDFFont_GetBaseFontName(font, None, 0)
            buffer = ctypes.create_string_buffer(max(int(n), 1))
            fpdf.FPDFFont_GetBaseFontName(font, buffer, n)
            name = buffer.value.decode("utf-8", "replace")
            size = ctypes.c_size_t()
            if fpdf.FPDFFont_GetFontData(font, None, 0, ctypes.byref(size)) and size.value:
                data = (ctypes.c_ubyte * size.value)()
                fpdf.FPDFFont_GetFontData(font, data, size.value, ctypes.byref(size))
                name = self.font_names.get(hashlib.sha1(bytes(data)).digest(), name)
            descent = ctypes.c_float()
            fpdf.FPDFFont_GetDescent(font, ctypes.c_float(1000.0), ctypes.byref(descent))  # in 1/1000 em
            found = self.fonts[key] = (name, descent.value / 1000, {})
        return found

    def read_page(self, index: int, number: int, page_id, doctop: float) -> PageData:
        page = self.document[index]
        try:
            left, bottom, right, top = page.get_mediabox()
            width, height = right - left, top - bottom
            # pdfplumber's MediaBox and y: from the top of a box as high as the MediaBox, its bottom at
            # the file's y = 0 (a MediaBox that does not start at 0 shifts what is read, as in pdfplumber)
            data = PageData(number, page_id, width, height, (left, -bottom, right, top - 2 * bottom), doctop=doctop)
            self.flip = height - bottom  # top = flip - y, y measured from the MediaBox's bottom
            self.origin = (left, bottom)
            textpage = page.get_textpage()
            try:
                by_object = self._chars(textpage.raw, data)
                raw_page = page.raw
                for i in range(fpdf.FPDFPage_CountObjects(raw_page)):
                    self._object(fpdf.FPDFPage_GetObject(raw_page, i), _IDENTITY, data, by_object)
                for rest in by_object.values():  # characters of no object met (none expected)
                    data.chars.extend(rest)
            finally:
                textpage.close()
        finally:
            page.close()
        return data

    def _chars(self, text, data: PageData) -> dict[bytes, list[dict]]:
        """The page's characters grouped by the text object that shows them, each in its order."""
        found: dict[int, list[dict]] = {}
        x, y, m = self.x, self.y, self.matrix
        v, refs = self.rgba, self.rgba_refs
        is_generated, text_object, unicode, origin = (fpdf.FPDFText_IsGenerated, fpdf.FPDFText_GetTextObject,
                                                     fpdf.FPDFText_GetUnicode, fpdf.FPDFText_GetCharOrigin)
        self.generated = []
        last, about, into, next_at = None, None, None, None
        for i in range(fpdf.FPDFText_CountChars(text)):
            if is_generated(text, i):  # a space or line break pdfium adds between words
                origin(text, i, x, y)
                self.generated.append((x.value, y.value, unicode(text, i)))
                continue
            key = bytes(text_object(text, i))  # the handle's address: the same object, the same bytes
            if key != last:
                last, next_at = key, None
                into = found.get(key)
                if into is None:  # the object's first character: what all of its characters share
                    obj = text_object(text, i)
                    fpdf.FPDFText_GetMatrix(text, i, m)
                    fpdf.FPDFText_GetFillColor(text, i, *refs)
                    fill = _colour(v[0].value, v[1].value, v[2].value)
                    fpdf.FPDFText_GetStrokeColor(text, i, *refs)
                    stroke = _colour(v[0].value, v[1].value, v[2].value)
                    into = found[key] = []
                    about = self._text_font(obj), (m.a, m.b, m.c, m.d), fill, stroke
            origin(text, i, x, y)
            at = (x.value, y.value)
            if into and next_at is not None and abs(at[0] - next_at[0]) < SNAP_PT and abs(at[1] - next_at[1]) < SNAP_PT:
                at = next_at  # where the last glyph's advance ends (see SNAP_PT)
            char, advance = self._char(data, unicode(text, i), *at, *about)
            into.append(char)
            a, b = about[1][0], about[1][1]
            next_at = (at[0] + a * advance, at[1] + b * advance)
        return found

    def _text_font(self, obj) -> tuple:
        """(font handle, name, descent per em, font size, widths per em by code) of a text object."""
        font = fpdf.FPDFTextObj_GetFont(obj)
        fpdf.FPDFTextObj_GetFontSize(obj, ctypes.byref(self.size))
        return (font, *self._font(font), self.size.value)

    def _width(self, font, widths: dict, code: int) -> float:
        """A glyph's advance in em (its /Widths entry over 1000)."""
        found = widths.get(code)
        if found is None:
            width = self.fx
            found = widths[code] = (width.value / 1000 if fpdf.FPDFFont_GetGlyphWidth(font, code, ctypes.c_float(1000.0),
                                                                                      ctypes.byref(width)) else 0.0)
        return found

    def _char(self, data: PageData, code: int, x: float, y: float, about: tuple, turn: tuple, fill, stroke):
        """A character's dict (and its advance in text space) from its origin in PDF space and its
        text matrix's turn (a, b, c, d)."""
        font, fontname, descent_em, widths, size = about
        flip, (left, bottom) = self.flip, self.origin
        advance = self._width(font, widths, code) * size
        a, b, c, d = turn
        ox, oy = x - left, y - bottom
        descent = descent_em * size
        # the box (0, descent)-(advance, descent + size) through the text matrix: its four corners' bounds
        high = descent + size
        xs = (c * descent, a * advance + c * descent, c * high, a * advance + c * high)
        ys = (d * descent, b * advance + d * descent, d * high, b * advance + d * high)
        x0, x1, y0, y1 = min(xs) + ox, max(xs) + ox, min(ys) + oy, max(ys) + oy
        top = flip - y1
        return {
            "object_type": "char", "text": chr(code) if 0 <= code < 0x110000 else "\ufffd", "fontname": fontname,
            "size": y1 - y0, "matrix": (a, b, c, d, ox, oy), "upright": 0 < a * d and b * c <= 0,
            "x0": x0 + left, "x1": x1 + left, "top": top, "bottom": flip - y0, "doctop": data.doctop + top,
            "non_stroking_color": fill, "stroking_color": stroke,
        }, advance

    def _unlisted(self, obj, outer: tuple, data: PageData) -> list[dict]:
        """The character of a text object pdfium's text page leaves out: a text object holding a
        lone space (a space between two texts of two fonts) is listed as a space pdfium generated,
        at the object's origin; it is read as the object's space."""
        a, b, c, d, e, f = _mult(self._object_matrix(obj), outer)
        for x, y, code in self.generated:
            if abs(x - e) < 0.01 and abs(y - f) < 0.01:
                v = self.rgba
                fpdf.FPDFPageObj_GetFillColor(obj, *self.rgba_refs)
                fill = _colour(v[0].value, v[1].value, v[2].value)
                fpdf.FPDFPageObj_GetStrokeColor(obj, *self.rgba_refs)
                stroke = _colour(v[0].value, v[1].value, v[2].value)
                return [self._char(data, code, e, f, self._text_font(obj), (a, b, c, d), fill, stroke)[0]]
        return []

    def _object(self, obj, outer: tuple, data: PageData, by_object: dict) -> None:
        kind = fpdf.FPDFPageObj_GetType(obj)
        if kind == TEXT:
            chars = by_object.pop(bytes(obj), None)
            data.chars.extend(chars if chars is not None else self._unlisted(obj, outer, data))
        elif kind == PATH:
            self._path(obj, _mult(self._object_matrix(obj), outer), data)
        elif kind == FORM:
            inner = _mult(self._object_matrix(obj), outer)
            for i in range(fpdf.FPDFFormObj_CountObjects(obj)):
                self._object(fpdf.FPDFFormObj_GetObject(obj, i), inner, data, by_object)

    def _path(self, obj, matrix: tuple, data: PageData) -> None:
        mode, stroke = ctypes.c_int(), ctypes.c_int()
        if not fpdf.FPDFPath_GetDrawMode(obj, ctypes.byref(mode), ctypes.byref(stroke)):
            return
        fill, stroked = mode.value != fpdf.FPDF_FILLMODE_NONE, bool(stroke.value)
        if not (fill or stroked):
            return  # a path that paints nothing (a clip) draws nothing
        fx, fy = self.fx, self.fy
        left, bottom = self.origin
        subpaths: list[list[tuple]] = []  # each: [(op, (x, y), ...)], points in PDF space (y up)
        pending: list[tuple[float, float]] = []  # a Bézier's points so far
        for i in range(fpdf.FPDFPath_CountSegments(obj)):
            segment = fpdf.FPDFPath_GetPathSegment(obj, i)
            fpdf.FPDFPathSegment_GetPoint(segment, fx, fy)
            x, y = _apply(matrix, fx.value, fy.value)
            point = (x - left, y - bottom)
            kind = fpdf.FPDFPathSegment_GetType(segment)
            if kind == MOVETO or not subpaths:
                subpaths.append([("m", point)])
            elif kind == BEZIERTO:
                pending.append(point)
                if len(pending) < 3:
                    continue
                subpaths[-1].append(("c", *pending))
                pending = []
            else:
                subpaths[-1].append(("l", point))
            if fpdf.FPDFPathSegment_GetClose(segment):
                current = subpaths[-1]
                if len(current) > 1 and current[-1][0] == "l" and current[-1][1] == current[0][1]:
                    current.pop()  # the side closing back to the start: written as ``h`` alone
                current.append(("h",))
        width = fpdf.FPDFPageObj_GetStrokeWidth(obj, ctypes.byref(self.fx)) and self.fx.value or 0.0
        width *= math.hypot(matrix[0], matrix[1])  # in page points: a form drawn 1.5x strokes 1.5x as wide
        common = {"page_number": data.page_number, "linewidth": width, "stroke": stroked, "fill": fill,
                  "evenodd": mode.value == fpdf.FPDF_FILLMODE_ALTERNATE,
                  "stroking_color": self._stroke(obj), "non_stroking_color": self._fill(obj)}
        for path in subpaths:
            self._add(path, common, data)

    def _add(self, path: list[tuple], common: dict, data: PageData) -> None:
        start = path[0][1]
        pts = [op[-1] if op[0] != "h" else start for op in path]
        shape = "".join(op[0] for op in path)
        if shape in ("mlh", "ml"):
            kind, pts = "line", pts[:2]
        elif shape in ("mlllh", "mllll") and pts[0] == pts[4] and (
                (pts[0][0] == pts[1][0] and pts[1][1] == pts[2][1] and pts[2][0] == pts[3][0] and pts[3][1] == pts[0][1])
                or (pts[0][1] == pts[1][1] and pts[1][0] == pts[2][0] and pts[2][1] == pts[3][1] and pts[3][0] == pts[0][0])):
            kind = "rect"
            (ax, ay), (bx, by) = pts[0], pts[2]
            pts = [(ax, ay), (bx, ay), (bx, by), (ax, by)]
        else:
            kind = "curve"
        flip = self.flip
        left, _ = self.origin
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        obj = dict(common)
        obj.update({
            "object_type": kind, "x0": x0 + left, "x1": x1 + left, "y0": y0, "y1": y1, "width": x1 - x0,
            "height": y1 - y0, "top": flip - y1, "bottom": flip - y0, "doctop": data.doctop + flip - y1,
            "pts": [(x + left, flip - y) for x, y in pts],
            "path": [(op[0], *((x + left, flip - y) for x, y in op[1:])) for op in path],
        })
        {"line": data.lines, "rect": data.rects, "curve": data.curves}[kind].append(obj)


def _font_names(reader) -> dict[bytes, str]:
    """Font program digest -> /BaseFont (with its subset prefix), for every embedded font the pages
    (and their forms) name: pdfium names a font without the prefix."""
    names: dict[bytes, str] = {}
    seen: set[int] = set()

    def walk(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        fonts = resources.get("/Font")
        for font in (fonts.get_object().values() if fonts is not None else ()):
            font = font.get_object()
            if id(font) in seen:
                continue
            seen.add(id(font))
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descendants = font["/DescendantFonts"].get_object()
                descriptor = descendants[0].get_object().get("/FontDescriptor") if descendants else None
            descriptor = descriptor.get_object() if descriptor is not None else {}
            for key in FONT_PROGRAMS:
                if key in descriptor:
                    data = descriptor[key].get_object().get_data()
                    names.setdefault(hashlib.sha1(data).digest(), str(font.get("/BaseFont", "")).lstrip("/"))
        xobjects = resources.get("/XObject")
        for xobject in (xobjects.get_object().values() if xobjects is not None else ()):
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form" and id(xobject) not in seen:
                seen.add(id(xobject))
                walk(xobject.get("/Resources"))

    for page in reader.pages:
        try:
            walk(page.get("/Resources"))
        except Exception:  # an unreadable font is reported by the preflight; here it only has no prefix
            continue
    return names


def read_pages(path, reader=None) -> PdfPages:
    """Every page of the PDF at ``path`` (a page the page tree lists twice, once), read through
    pypdfium2; ``reader`` (pypdf), when given, is the file already open (the pages' object numbers
    and the fonts' full names are read from it)."""
    if reader is None:
        from pypdf import PdfReader

        reader = PdfReader(str(path))
    ids = []
    for page in reader.pages:
        reference = getattr(page, "indirect_reference", None)
        ids.append(getattr(reference, "idnum", None))
    document = pdfium.PdfDocument(str(path))
    try:
        reading = _Reader(document, _font_names(reader))
        pages: list[PageData] = []
        seen: set[int] = set()
        doctop = 0.0
        for index in range(len(document)):
            page_id = ids[index] if index < len(ids) else None
            if page_id is not None:
                if page_id in seen:
                    continue  # the same page object listed again: read once, as pdfplumber reads it
                seen.add(page_id)
            page = reading.read_page(index, len(pages) + 1, page_id, doctop)
            doctop += page.height
            pages.append(page)
    finally:
        document.close()
    return PdfPages(pages)
