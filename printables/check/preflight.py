"""Preflight: what every PDF must get right to print, read back from the file alone.

Run on every PDF by ``printables check`` (``check/dispatch.py``), whatever its kind:

- **fonts embedded**: every font a page's resources name carries its font program (FontFile,
  FontFile2 or FontFile3; a Type 3 font is its own glyphs). A base-14 name without a program
  ("Helvetica") fails: every viewer would substitute its own font.
- **glyphs**: every character on a page has a real glyph in its embedded font: the character maps
  (ToUnicode) to a code whose glyph in the embedded TrueType program (read with fontTools) is not
  ``.notdef`` and has an outline (spaces excepted). A character the font lacks comes out as a code
  for U+0000 or an empty glyph, and fails.
- **text sizes**, by the role of the page. A page is a *card* when it is postcard-sized (within
  111.5 x 158.5 mm: A6 or 4x6 in plus a 3 mm bleed) or when the file's parameters name a
  ``postcard`` (cards imposed on a sheet); every other page is a *sheet*.
  The *body* size of a page is the size most of its characters are set in (the prose dominates
  every sheet and card); it must be at least 8 pt on sheets and 7 pt on cards. Headings are larger,
  small print (footers, captions, labels) may be smaller, but nothing anywhere is under 6 pt.
- **safe zone**: nothing inked within 5 mm of the paper's edge on a sheet (4 mm of the trim on a
  card-sized page, by its size alone: cards imposed on a sheet keep 5 mm from the paper), where a home printer cannot print or a cutter wanders. Exempt: background, i.e. a filled,
  unstroked shape that reaches the edge (it is meant to run off it), and, in a file with a TrimBox,
  the bleed (fills crossing the trim), crop marks (thin lines wholly outside the trim) and the slug
  (anything wholly outside the BleedBox, cut away with it: a print-shop card's scale bar). A file
  whose parameters say ``"borderless": true`` asked for ink to the edge, and skips this check.
  Ink is read from the page's objects (check/pages.py): rectangles, lines and curves by their bounding boxes plus
  half their line width, and characters by their advance width and an ink height from the baseline
  (0.25 em below to 0.8 em above); white fills and strokes are not ink.
- **page boxes**: a file whose parameters declare a ``bleed`` in mm, one product per page, carries
  a TrimBox and a BleedBox on every page, TrimBox inside BleedBox inside MediaBox, the BleedBox
  exactly the declared bleed outside the TrimBox on every side, and the TrimBox on the crop marks
  drawn on the page (hairlines running to the paper's edge) within 0.1 mm; paper beyond the
  BleedBox without crop marks fails (a page that is the BleedBox needs none). Every file: a CropBox
  (what viewers show and print) is absent or equals the MediaBox (a bleed file's may be smaller,
  but holds the whole BleedBox).

- **clearance**: no text line closer than 1.5 mm to a box's edge or to another text (what a line,
  a box and another text are: ``check_clearance``).
- **line ends**: no line starts with a separator (``·``, ``|``, ``/``, a dash) or closing mark, nor
  ends with an opening mark, in any script.

Every check fails what it finds, on every kind of sheet (the "pending" kinds of issues #12 and #24
are gone: every sheet the commands accept meets every rule).
"""

from __future__ import annotations

import io
import json
import math
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader

from printables.check.parsing import open_pdf
from printables.check.results import CheckResult
from printables.paper import pt_to_mm

BODY_MIN_PT = {"sheet": 8.0, "card": 7.0}
SMALLEST_PT = 6.0
SAFE_MM = {"sheet": 5.0, "card": 4.0}
# A card page: both sides within a postcard (A6 148 x 105 mm, 4x6 in 152.4 x 101.6 mm) plus 3 mm bleed.
CARD_MAX_MM = (111.5, 158.5)
EDGE_TOLERANCE_MM = 0.01  # a fill this close to the edge reaches it
BOX_TOLERANCE_MM = 0.05
TRIM_TOLERANCE_MM = 0.1  # the TrimBox lies on the crop marks within this
MARK_MAX_LINE_MM = 0.3  # crop marks are hairlines
INK_ABOVE_EM, INK_BELOW_EM = 0.8, 0.25  # a glyph's ink around its baseline, in em
SIZE_DECIMALS = 2
VISIBLE_DPI = 100  # pages are rendered this fine to see that every glyph shows (about 30 ms a page)
VISIBLE_CONTRAST = 24  # of 255: a glyph's box must hold at least this much light-dark contrast
VISIBLE_PAD_PX = 1  # the box is widened by this many pixels each side (thin glyphs between pixel columns)
FONT_PROGRAMS = ("/FontFile", "/FontFile2", "/FontFile3")


@dataclass(frozen=True)
class Ink:
    """Something inked on a page: its box in mm from the top-left, and what it is."""

    x0: float
    top: float
    x1: float
    bottom: float
    what: str
    background: bool  # filled, unstroked: colour meant to run to (or over) the edge
    hairline: bool  # a thin straight line (a crop mark, if it lies outside the trim)


def _params(subject: str) -> dict:
    try:
        value = json.loads(subject)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _role(width_mm: float, height_mm: float, params: dict | None = None) -> str:
    """"card" for a postcard-sized page (or, with ``params``, any page of imposed postcards), else "sheet"."""
    short, long = sorted((width_mm, height_mm))
    if (params is not None and "postcard" in params) or (short <= CARD_MAX_MM[0] and long <= CARD_MAX_MM[1]):
        return "card"
    return "sheet"


def _is_white(colour) -> bool:
    if colour is None:
        return False
    if isinstance(colour, (int, float)):
        return float(colour) >= 0.999
    values = tuple(colour)
    if len(values) == 4:  # CMYK
        return all(v <= 0.001 for v in values)
    return bool(values) and all(float(v) >= 0.999 for v in values)


# --------------------------------------------------------------------------- fonts


def _page_fonts(resources) -> list[tuple[str, object]]:
    """(resource name, font dictionary) of a resource dictionary and its form XObjects."""
    found = []
    if resources is None:
        return found
    resources = resources.get_object()
    fonts = resources.get("/Font")
    if fonts is not None:
        for name, font in fonts.get_object().items():
            found.append((str(name), font.get_object()))
    xobjects = resources.get("/XObject")
    if xobjects is not None:
        for xobject in xobjects.get_object().values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                found += _page_fonts(xobject.get("/Resources"))
    return found


def _descriptor(font):
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts")
        if descendants:
            font = descendants.get_object()[0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor.get_object() if descriptor is not None else None


def _base_name(font) -> str:
    return str(font.get("/BaseFont", "(no name)")).lstrip("/")


def _is_embedded(font) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True
    descriptor = _descriptor(font)
    return descriptor is not None and any(key in descriptor for key in FONT_PROGRAMS)


def _to_unicode(font) -> dict[int, str]:
    """Code -> text from a simple bfchar/bfrange ToUnicode CMap."""
    stream = font.get("/ToUnicode")
    if stream is None:
        return {}
    data = stream.get_object().get_data().decode("latin-1")
    mapping: dict[int, str] = {}

    def text(hexstr: str) -> str:
        raw = bytes.fromhex(hexstr)
        return raw.decode("utf-16-be", errors="replace")

    import re

    for block in re.findall(r"beginbfchar(.*?)endbfchar", data, re.S):
        for code, uni in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            mapping[int(code, 16)] = text(uni)
    for block in re.findall(r"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, uni in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            start = int(uni, 16)
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                mapping[code] = chr(start + i)
    return mapping


GLYPH_HEADER_BYTES = 10  # numberOfContours (int16) and the bounding box (4 x int16)


def _contours(glyf, name: str) -> int:
    """A glyph's numberOfContours (0: no outline), read from its header without decoding its points.

    fontTools' ``glyf[name]`` decodes every point of the outline only to say this; a glyph shorter
    than its header is still decoded by fontTools (which says what is wrong with it)."""
    glyph = glyf.glyphs[name]
    data = getattr(glyph, "data", None)
    if data is None:  # empty, or decoded already
        return glyph.numberOfContours
    if len(data) < GLYPH_HEADER_BYTES:
        return glyf[name].numberOfContours
    return struct.unpack(">h", data[:2])[0]


def _glyph_table(font) -> dict[str, bool] | None:
    """Text -> whether its glyph in the embedded TrueType program is real, or None if not readable."""
    descriptor = _descriptor(font)
    if descriptor is None or "/FontFile2" not in descriptor or font.get("/Subtype") != "/TrueType":
        return None
    from fontTools.ttLib import TTFont

    program = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
    order = program.getGlyphOrder()
    glyf = program["glyf"] if "glyf" in program else None
    code_to_glyph: dict[int, str] = {}
    for table in program["cmap"].tables:
        if (table.platformID, table.platEncID) in ((1, 0), (3, 0)):
            for code, glyph in table.cmap.items():
                code_to_glyph.setdefault(code & 0xFF, glyph)
    real: dict[str, bool] = {}
    for code, chars in _to_unicode(font).items():
        glyph = code_to_glyph.get(code)
        ok = glyph is not None and glyph != order[0] and chars not in ("\x00", "")
        if ok and glyf is not None and not chars.isspace():
            ok = _contours(glyf, glyph) != 0
        real[chars] = real.get(chars, False) or ok
    return real


def check_fonts(path: Path, pdf=None, reader=None) -> list[CheckResult]:
    """Every font is embedded, and every character on every page has a real glyph in its font.

    ``pdf`` (``open_pdf``'s pages) and ``reader`` (pypdf), when given, are the file already open: the
    preflight parses each page once for all its checks.
    """
    if pdf is None:
        with open_pdf(path) as opened:
            return check_fonts(path, opened, reader)
    reader = reader if reader is not None else PdfReader(str(path))
    missing: dict[str, list[int]] = {}
    tables: dict[tuple[int, str], dict[str, bool] | None] = {}
    names = set()
    read: dict[int, tuple[object, dict[str, bool] | None]] = {}  # a font shared by pages is read once
    for number, page in enumerate(reader.pages, 1):
        for _, font in _page_fonts(page.get("/Resources")):
            name = _base_name(font)
            names.add(name)
            if not _is_embedded(font):
                missing.setdefault(name, []).append(number)
            else:
                if id(font) not in read:  # the font object itself is kept, so its id stays its own
                    read[id(font)] = (font, _glyph_table(font))
                tables[(number, name)] = read[id(font)][1]
    embedded = CheckResult(
        "fonts embedded", not missing,
        "; ".join(f"{name} is not embedded (page {', '.join(map(str, pages[:3]))})" for name, pages in sorted(missing.items()))
        or f"{len(names)} font(s), all embedded: {', '.join(sorted(names))}")
    lacking: Counter = Counter()
    chars = 0
    for number, page in enumerate(pdf.pages, 1):
        for char in page.chars:
            chars += 1
            text = char.get("text", "")
            if text.isspace():
                continue
            table = tables.get((number, char.get("fontname", "")))
            if text in ("\x00", "\ufffd") or (table is not None and not table.get(text, False)):
                lacking[(char.get("fontname", ""), text)] += 1
    glyphs = CheckResult(
        "glyphs", not lacking,
        "; ".join(f"{n} character(s) {text!r} without a glyph in {font}" for (font, text), n in sorted(lacking.items())[:5])
        or f"{chars} character(s), every one with a glyph in its embedded font")
    return [embedded, glyphs]


# --------------------------------------------------------------------------- sizes and ink


def check_text_sizes(pdf, params: dict) -> CheckResult:
    """Body text at least 8 pt on sheets and 7 pt on cards; nothing under 6 pt anywhere."""
    problems = []
    shown = []
    for number, page in enumerate(pdf.pages, 1):
        sizes = Counter(round(c["size"], SIZE_DECIMALS) for c in page.chars if not c.get("text", " ").isspace())
        if not sizes:
            continue
        role = _role(pt_to_mm(page.width), pt_to_mm(page.height), params)
        body = max(sizes.items(), key=lambda kv: (kv[1], kv[0]))[0]
        smallest = min(sizes)
        shown.append(f"p{number} {role} body {body:g} pt, smallest {smallest:g} pt")
        if body < BODY_MIN_PT[role] - 1e-6:
            problems.append(f"page {number} ({role}): body text is {body:g} pt, at least {BODY_MIN_PT[role]:g} pt needed")
        if smallest < SMALLEST_PT - 1e-6:
            small = sorted({c["text"] for c in page.chars if round(c["size"], SIZE_DECIMALS) == smallest})
            sample = "".join(small)[:12]
            problems.append(f"page {number}: text at {smallest:g} pt ({sample!r}…), nothing under {SMALLEST_PT:g} pt")
    return CheckResult("text sizes", not problems, "; ".join(problems[:4]) or "; ".join(shown[:4]) or "no text")


_WHITE: dict = {}


def _white(colour) -> bool:
    """``_is_white``, remembered per colour (a page has a few colours and thousands of objects)."""
    try:
        return _WHITE[colour]
    except KeyError:
        _WHITE[colour] = found = _is_white(colour)
        return found
    except TypeError:  # a colour that cannot be a key (a list)
        return _is_white(colour)


def _shapes(page):
    """(kind, object, stroked, filled) of every shape the page inks, in pdfplumber's order
    (rectangles, lines, curves): stroked or filled in a colour that is not white; a shape that is
    neither inks nothing and is left out. The one reading of a page's shapes, behind both the safe
    zone's ``_ink_rows`` and the clearance's ``_segments``."""
    for kind, objects in (("rectangle", page.rects), ("line", page.lines), ("curve", page.curves)):
        for o in objects:
            stroke = bool(o.get("stroke")) and not _white(o.get("stroking_color"))
            fill = bool(o.get("fill")) and not _white(o.get("non_stroking_color"))
            if stroke or fill:
                yield kind, o, stroke, fill


def _ink_rows(page):
    """(x0, top, x1, bottom, kind, text, background, hairline) of what the page inks, in mm: shapes
    (``text`` None), then characters (``kind`` "text"), in pdfplumber's order."""
    mm = pt_to_mm
    for kind, o, stroke, fill in _shapes(page):
        pad = (o.get("linewidth") or 0) / 2 if stroke else 0.0
        straight = kind == "line" or (kind != "rectangle" and len(o.get("pts") or ()) == 2)
        hairline = straight and stroke and not fill and mm(o.get("linewidth") or 0) <= MARK_MAX_LINE_MM and (
            abs(o["x1"] - o["x0"]) < 0.01 or abs(o["bottom"] - o["top"]) < 0.01)
        yield (mm(o["x0"] - pad), mm(o["top"] - pad), mm(o["x1"] + pad), mm(o["bottom"] + pad),
               kind, None, fill and not stroke, hairline)
    height = page.height
    for c in page.chars:
        if c.get("text", " ").isspace() or _white(c.get("non_stroking_color")):
            continue
        baseline = height - c["matrix"][5]  # from the top
        size = c["size"]
        yield (mm(c["x0"]), mm(baseline - INK_ABOVE_EM * size), mm(c["x1"]), mm(baseline + INK_BELOW_EM * size),
               "text", c["text"], False, False)


def _inks(page) -> list[Ink]:
    """What the page inks (rectangles, lines and curves, then characters), in mm."""
    return [Ink(x0, top, x1, bottom, kind if text is None else f"text {text!r}", background, hairline)
            for x0, top, x1, bottom, kind, text, background, hairline in _ink_rows(page)]


def _render_grey(document, index: int, dpi: float):
    """Page ``index`` of an open pypdfium2 document rendered in grey (numpy array, 0 black to 255
    white): the whole MediaBox, whatever the CropBox says."""
    import numpy as np

    page = document[index]
    try:
        page.set_cropbox(*page.get_mediabox())
        image = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    return np.asarray(image[..., 0] if image.ndim == 3 else image)


def check_visible_text(path: Path, pdf) -> CheckResult:
    """Every letter and digit on a page is visible: nothing painted over it.

    Each page is rendered at ``VISIBLE_DPI`` (pypdfium2, in-process) and the box of every letter or
    digit (its advance width, 0.75 em above to 0.2 em below the baseline, a pixel wider each side)
    must hold light-dark contrast: a white (or any flat) fill drawn over the text leaves none.
    Punctuation and symbols are left out (a dot is a pixel at this size); white text too (no ink).
    """
    import numpy as np
    import pypdfium2 as pdfium  # the renderer pdfplumber itself uses

    document = pdfium.PdfDocument(str(path))
    try:
        return _visible_text(document, pdf, np)
    finally:
        document.close()


def _boxes_show_contrast(image, boxes: list[tuple[int, int, int, int]], np) -> list[bool]:
    """For each pixel box (x0, x1, y0, y1) of a grey image, whether ``image[y0:y1, x0:x1]`` holds
    at least VISIBLE_CONTRAST between its darkest and lightest pixel (an empty box holds none).
    The bounds mean what they mean in that slice (a negative one counts from the image's end).

    A row band at a time (the boxes of a line of text share it): the darkest and lightest pixel of
    each column in the band, reduced over each box's columns, so a page takes a few numpy calls a
    line instead of a few a letter."""
    rows, cols = image.shape
    visible = [False] * len(boxes)
    bands: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for i, (x0, x1, y0, y1) in enumerate(boxes):
        x0, x1, _ = slice(x0, x1).indices(cols)
        y0, y1, _ = slice(y0, y1).indices(rows)
        if x0 < x1 and y0 < y1:
            bands.setdefault((y0, y1), []).append((i, x0, x1))
    for (y0, y1), members in bands.items():
        band = image[y0:y1]
        ends = np.array([x for _, x0, x1 in members for x in (x0, x1)], dtype=np.intp)
        # one column past the image, so that a box may end at its edge (reduceat takes starts)
        darkest = np.minimum.reduceat(np.append(band.min(axis=0), 0), ends)[0::2].astype(int)
        lightest = np.maximum.reduceat(np.append(band.max(axis=0), 0), ends)[0::2].astype(int)
        for (i, _, _), contrast in zip(members, (lightest - darkest).tolist()):
            visible[i] = contrast >= VISIBLE_CONTRAST
    return visible


def _visible_text(document, pdf, np) -> CheckResult:
    problems = []
    counted = 0
    scale = VISIBLE_DPI / 72
    for index, page in enumerate(pdf.pages):
        chars = [c for c in page.chars if c.get("text", "").isalnum() and not _white(c.get("non_stroking_color"))]
        if not chars:
            continue
        image = _render_grey(document, index, VISIBLE_DPI)
        rows, cols = image.shape
        media_x0, media_top = float(page.mediabox[0]), float(page.mediabox[3])
        boxes = []  # each character's pixel box (x0, x1, y0, y1)
        for char in chars:
            size = char["size"]
            # the text matrix is in the page's own space: the image's is the MediaBox from its top-left
            left = char["matrix"][4] - media_x0
            baseline = media_top - char["matrix"][5]
            boxes.append((max(int(left * scale) - VISIBLE_PAD_PX, 0),
                          min(math.ceil((left + char["x1"] - char["x0"]) * scale) + VISIBLE_PAD_PX, cols),
                          max(int((baseline - 0.75 * size) * scale), 0),
                          min(math.ceil((baseline + 0.2 * size) * scale), rows)))
        counted += len(chars)
        visible = _boxes_show_contrast(image, boxes, np)
        hidden = [char for char, shows in zip(chars, visible) if not shows]
        if hidden:
            runs: list[list] = []
            for char in hidden:  # neighbouring hidden characters of one line read as one run
                last = runs[-1][-1] if runs else None
                if last is not None and abs(last["top"] - char["top"]) < 1 and 0 <= char["x0"] - last["x1"] < char["size"]:
                    runs[-1].append(char)
                else:
                    runs.append([char])
            def spelled(run: list) -> str:
                return "".join((" " if i and c["x0"] - run[i - 1]["x1"] > 0.15 * c["size"] else "") + c["text"]
                               for i, c in enumerate(run))

            shown = "; ".join(f"{spelled(run)!r} at ({pt_to_mm(run[0]['x0']):.0f}, {pt_to_mm(run[0]['top']):.0f}) mm"
                              for run in sorted(runs, key=len, reverse=True)[:3])
            problems.append(f"page {index + 1}: {len(hidden)} letter(s) or digit(s) not visible (painted over?), e.g. {shown}")
    return CheckResult("visible text", not problems, "; ".join(problems[:3])
                       or f"{counted} letters and digits, each visible on the rendered page ({VISIBLE_DPI} dpi)")


def _beyond(bleed_box, media, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether an object (mm from the page's top-left) lies wholly outside the BleedBox (PDF points)."""
    left, right = pt_to_mm(bleed_box[0] - media[0]), pt_to_mm(bleed_box[2] - media[0])
    top, bottom = pt_to_mm(media[3] - bleed_box[3]), pt_to_mm(media[3] - bleed_box[1])
    return x1 <= left or x0 >= right or y1 <= top or y0 >= bottom


def _boxes(reader_page) -> dict[str, tuple[float, float, float, float] | None]:
    """MediaBox, TrimBox and BleedBox in PDF points (x0, y0, x1, y1); None where the page has none."""
    found = {}
    for key in ("/MediaBox", "/TrimBox", "/BleedBox"):
        value = reader_page.get(key)
        found[key] = tuple(float(v) for v in value.get_object()) if value is not None else None
    return found


def check_safe_zone(pdf, reader: PdfReader, params: dict) -> CheckResult:
    """Nothing inked near the paper's edge (or the trim) but background, bleed and crop marks."""
    if params.get("borderless") is True:
        return CheckResult("safe zone", True, "skipped: the file is borderless (ink to the edge asked for)")
    problems = []
    counts = []
    for number, (page, rpage) in enumerate(zip(pdf.pages, reader.pages), 1):
        boxes = _boxes(rpage)
        media = boxes["/MediaBox"]
        trim = boxes["/TrimBox"] or media
        # the trim in mm from the page's top-left, as pdfplumber measures
        left, right = pt_to_mm(trim[0] - media[0]), pt_to_mm(trim[2] - media[0])
        top, bottom = pt_to_mm(media[3] - trim[3]), pt_to_mm(media[3] - trim[1])
        role = _role(right - left, bottom - top)  # the paper (or trim) itself: cards on a sheet keep 5 mm
        safe = SAFE_MM[role]
        bad = []
        least = safe - EDGE_TOLERANCE_MM
        for x0, y0, x1, y1, kind, text, background, hairline in _ink_rows(page):
            gap = min(x0 - left, y0 - top, right - x1, bottom - y1)
            if not gap < least:
                continue  # clear of the margin (what follows only exempts)
            outside = x0 < left - EDGE_TOLERANCE_MM or y0 < top - EDGE_TOLERANCE_MM or \
                x1 > right + EDGE_TOLERANCE_MM or y1 > bottom + EDGE_TOLERANCE_MM
            wholly_outside = x1 <= left + EDGE_TOLERANCE_MM or x0 >= right - EDGE_TOLERANCE_MM or \
                y1 <= top + EDGE_TOLERANCE_MM or y0 >= bottom - EDGE_TOLERANCE_MM
            reaches = x0 <= left + EDGE_TOLERANCE_MM or y0 <= top + EDGE_TOLERANCE_MM or \
                x1 >= right - EDGE_TOLERANCE_MM or y1 >= bottom - EDGE_TOLERANCE_MM
            if background and reaches and not wholly_outside:
                continue  # background colour running to the edge, or bleed over the trim
            if boxes["/TrimBox"] is not None and hairline and wholly_outside:
                continue  # a crop mark
            if boxes["/BleedBox"] is not None and _beyond(boxes["/BleedBox"], media, x0, y0, x1, y1):
                continue  # the slug: job information beyond the bleed, cut away with it (a card's scale bar)
            what = kind if text is None else f"text {text!r}"
            where = "outside the trim" if outside and boxes["/TrimBox"] is not None else f"{max(gap, 0):.1f} mm from the edge"
            bad.append((gap, f"{what} {where} at ({x0:.1f}, {y0:.1f}) mm"))
        counts.append(len(bad))
        if bad:
            bad.sort()
            problems.append(f"page {number} ({role}, {safe:g} mm): {len(bad)} inked object(s) in the margin, e.g. "
                            + "; ".join(text for _, text in bad[:3]))
    edge = "trim" if any(_boxes(p)["/TrimBox"] for p in reader.pages) else "paper edge"
    return CheckResult("safe zone", not problems, "; ".join(problems[:3])
                       or f"nothing but background, bleed and crop marks near the {edge} on {len(counts)} page(s)")


def _box(page, key: str) -> tuple[float, float, float, float] | None:
    """A page box in PDF points as the page (or the page tree above it) sets it, or None if unset."""
    node = page
    while node is not None:
        value = node.get(key)
        if value is not None:
            return tuple(float(v) for v in value.get_object())
        parent = node.get("/Parent")
        node = parent.get_object() if parent is not None else None
    return None


def _crop_mark_trim(plumber_page) -> tuple[float, float, float, float] | None:
    """The trim the crop marks point at, in PDF points (x0, y0, x1, y1), or None without marks.

    A crop mark is a hairline on the extension of a trim edge that runs to the paper's edge:
    vertical ones (from the top or bottom edge) give the trim's x, horizontal ones its y.
    """
    width, height = plumber_page.width, plumber_page.height
    reach = 0.5 / 25.4 * 72  # a mark ends within 0.5 mm of the paper's edge
    xs, ys = [], []
    for line in plumber_page.lines:
        if pt_to_mm(line.get("linewidth") or 0) > MARK_MAX_LINE_MM:
            continue
        if abs(line["x0"] - line["x1"]) < 0.01 and (line["top"] <= reach or line["bottom"] >= height - reach):
            xs.append(line["x0"])
        elif abs(line["top"] - line["bottom"]) < 0.01 and (line["x0"] <= reach or line["x1"] >= width - reach):
            ys.append(height - line["top"])
    if not xs or not ys:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def check_page_boxes(reader: PdfReader, params: dict, pdf=None) -> CheckResult:
    """Page boxes: the CropBox shows the whole page; bleed files carry TrimBox inside BleedBox inside
    MediaBox, the bleed the declared mm on every side, the TrimBox where the crop marks point.

    The CropBox is what viewers show and print: absent, or equal to the MediaBox, or (bleed files)
    at least the BleedBox. ``pdf`` (``open_pdf``'s pages), when given, lets the TrimBox be compared with the
    crop marks drawn on the page (within ``TRIM_TOLERANCE_MM``).
    """
    try:
        bleed = float(params.get("bleed") or 0.0)
    except (TypeError, ValueError):
        return CheckResult("page boxes", False, f"unreadable bleed {params.get('bleed')!r} in the parameters")
    one_up = int(params.get("cards_per_page", 1) or 1) == 1
    problems = []
    tol = BOX_TOLERANCE_MM

    def inside(inner, outer) -> bool:
        return all(pt_to_mm(a - b) >= -tol for a, b in ((inner[0], outer[0]), (inner[1], outer[1]), (outer[2], inner[2]), (outer[3], inner[3])))

    def where(box) -> str:
        return "[" + " ".join(f"{pt_to_mm(v):.1f}" for v in box) + "] mm"

    plumber_pages = list(pdf.pages) if pdf is not None else []
    for number, page in enumerate(reader.pages, 1):
        boxes = _boxes(page)
        media, trim, bleed_box = boxes["/MediaBox"] or _box(page, "/MediaBox"), boxes["/TrimBox"], boxes["/BleedBox"]
        crop = _box(page, "/CropBox")
        if crop is not None and media is not None:
            same = all(abs(pt_to_mm(a - b)) <= tol for a, b in zip(crop, media))
            if not same and not (bleed_box is not None and inside(bleed_box, crop) and inside(crop, media)):
                needed = "the MediaBox or at least the BleedBox" if bleed_box is not None else "the MediaBox"
                problems.append(f"page {number}: CropBox {where(crop)} is not {needed} {where(media)}: "
                                f"viewers would show and print only part of the page")
        if trim is None and bleed_box is None:
            if bleed and one_up:
                problems.append(f"page {number}: no TrimBox or BleedBox, but {bleed:g} mm bleed declared")
            continue
        if trim is None or bleed_box is None:
            problems.append(f"page {number}: a {'BleedBox' if trim is None else 'TrimBox'} without a "
                            f"{'TrimBox' if trim is None else 'BleedBox'}")
            continue

        if not inside(trim, bleed_box):
            problems.append(f"page {number}: the TrimBox is not inside the BleedBox")
        if not inside(bleed_box, media):
            problems.append(f"page {number}: the BleedBox is not inside the MediaBox")
        sides = [pt_to_mm(v) for v in (trim[0] - bleed_box[0], trim[1] - bleed_box[1], bleed_box[2] - trim[2], bleed_box[3] - trim[3])]
        if any(abs(s - bleed) > tol for s in sides):
            problems.append(f"page {number}: bleed of {', '.join(f'{s:.2f}' for s in sides)} mm (left, bottom, right, top), "
                            f"{bleed:g} mm declared")
        if number <= len(plumber_pages):
            marked = _crop_mark_trim(plumber_pages[number - 1])
            page_is_bleed = all(abs(pt_to_mm(a - b)) <= tol for a, b in zip(bleed_box, media))
            if marked is None and not page_is_bleed:  # paper beyond the bleed: where to cut must be marked on it
                problems.append(f"page {number}: paper beyond the BleedBox but no crop marks to cut along")
            elif marked is not None:
                shift = [pt_to_mm(a - b) for a, b in zip(trim, marked)]
                if any(abs(d) > TRIM_TOLERANCE_MM for d in shift):
                    problems.append(f"page {number}: TrimBox {where(trim)} is not the card between the crop marks "
                                    f"{where(marked)} (off by {', '.join(f'{d:+.2f}' for d in shift)} mm)")
    boxed = sum(_boxes(page)["/TrimBox"] is not None for page in reader.pages)
    if not problems and not boxed:
        return CheckResult("page boxes", True, "no bleed declared; no CropBox cuts the page: the page is the paper" if not bleed
                           else f"{bleed:g} mm bleed on cards imposed several to a page: the page is the paper, cut at the marks")
    return CheckResult("page boxes", not problems, "; ".join(problems[:4])
                       or f"TrimBox (at the crop marks) inside BleedBox ({bleed:g} mm each side) inside MediaBox"
                          f" on {len(reader.pages)} page(s); CropBox shows it all")


# --------------------------------------------------------------------------- clearance and line ends

CLEARANCE_MM = 1.5  # text keeps this much paper between itself and any other box or text
LINE_GAP_EM = 0.6  # characters of one baseline further apart than this (in em) are two texts
RUN_IN_EM = 1.0  # two texts on one baseline at one size at most this far apart read as one line (a run-in heading)
BLOCK_PITCH_EM = 1.6  # lines of one paragraph: same size, baselines at most this far apart, overlapping
SYMBOL_MAX_MM = 6.0  # a curve this small is an icon: a text beside it is its label, a text inside it is boxed
ICON_LABEL_MM = 0.3  # a text centred in an icon keeps this much from the icon's outline
ICON_CENTRED = 0.15  # "centred": the text's middle within this share of the icon's size of its centre
BEZIER_STEPS = 8  # chords per Bézier segment: a quarter circle of 13 mm radius strays 0.03 mm from them
BAND_RATIO = 4.0  # a rectangle at most SYMBOL_MAX_MM thick and this many times longer is a band (a board's edge)
DEFAULT_INK_EM = (0.0, -0.22, 0.6, 0.75)  # a glyph's ink (xMin, yMin, xMax, yMax) when the font is unreadable
# a line does not start with these: separators and closing punctuation (any script)
SEPARATORS = frozenset("·‧・|/–—")  # the same marks as printables/linebreak.py (check/ imports no layout)
CLOSING = frozenset(",.;:!?)]}»›”’、。，．：；！？）」』】〉》")
OPENING = frozenset("([{«‹“‘（「『【〈《")


def _glyph_ink(font) -> tuple[dict[str, tuple[float, float, float, float]], float] | None:
    """Text -> its glyph's ink box (xMin, yMin, xMax, yMax) in em, read from the embedded TrueType
    program (the glyph header's bounding box), or None when the font cannot be read that way."""
    descriptor = _descriptor(font)
    if descriptor is None or "/FontFile2" not in descriptor or font.get("/Subtype") != "/TrueType":
        return None
    from fontTools.ttLib import TTFont

    program = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
    if "glyf" not in program:
        return None
    glyf = program["glyf"]
    per_em = float(program["head"].unitsPerEm)
    code_to_glyph: dict[int, str] = {}
    for table in program["cmap"].tables:
        if (table.platformID, table.platEncID) in ((1, 0), (3, 0)):
            for code, glyph in table.cmap.items():
                code_to_glyph.setdefault(code & 0xFF, glyph)
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for code, chars in _to_unicode(font).items():
        name = code_to_glyph.get(code)
        if name is None or name not in glyf.glyphs:
            continue
        glyph = glyf.glyphs[name]
        data = getattr(glyph, "data", None)
        if data is not None and len(data) >= GLYPH_HEADER_BYTES:
            contours, x0, y0, x1, y1 = struct.unpack(">hhhhh", data[:GLYPH_HEADER_BYTES])
        else:
            decoded = glyf[name]
            contours = decoded.numberOfContours
            x0, y0, x1, y1 = (getattr(decoded, k, 0) for k in ("xMin", "yMin", "xMax", "yMax"))
        if contours != 0:
            boxes[chars] = (x0 / per_em, y0 / per_em, x1 / per_em, y1 / per_em)
    return boxes, per_em


@dataclass(frozen=True)
class TextLine:
    """One line of text as a player sees it, in mm from the page's top-left: its ink box, its
    characters, its size (pt) and its baseline."""

    x0: float
    top: float
    x1: float
    bottom: float
    text: str
    size: float
    baseline: float


def _text_lines(page, inks: dict) -> list[TextLine]:
    """The page's upright text lines: characters in the file's order that share a baseline and a size
    and follow each other with less than ``LINE_GAP_EM`` between them; each line's box is its
    glyphs' ink (``inks``: font name -> text -> ink box in em) rather than their advance boxes."""
    lines: list[TextLine] = []
    run: list = []
    height = page.height
    unread: dict = {}  # a font whose glyphs' ink is not known: every glyph gets DEFAULT_INK_EM

    def close() -> None:
        # one pass over the run: its text (a space where a gap is wider than 0.15 em after a
        # character that is not a space) and its shown characters' ink, each side's extreme
        pieces = []
        previous = first = None
        left = top = math.inf
        right = bottom = -math.inf
        for c in run:
            text, size = c["text"], c["size"]
            if previous is not None and c["x0"] - previous["x1"] > 0.15 * size and not previous["text"].isspace():
                pieces.append(" ")
            pieces.append(text)
            previous = c
            if text.isspace():
                continue
            if first is None:
                first = c
            x0, y0, x1, y1 = inks.get(c.get("fontname", ""), unread).get(text, DEFAULT_INK_EM)
            origin, baseline = c["x0"], height - c["matrix"][5]
            if origin + x0 * size < left:
                left = origin + x0 * size
            if baseline - y1 * size < top:
                top = baseline - y1 * size
            if origin + x1 * size > right:
                right = origin + x1 * size
            if baseline - y0 * size > bottom:
                bottom = baseline - y0 * size
        run.clear()
        if first is not None:
            mm = pt_to_mm
            lines.append(TextLine(mm(left), mm(top), mm(right), mm(bottom), "".join(pieces).strip(), first["size"],
                                  mm(height - first["matrix"][5])))

    for c in page.chars:
        if not c.get("upright", True) or _white(c.get("non_stroking_color")):
            close()
            continue
        if run:
            last = run[-1]
            same = (abs(last["matrix"][5] - c["matrix"][5]) < 0.1 and abs(last["size"] - c["size"]) < 0.01
                    and -0.05 * c["size"] <= c["x0"] - last["x1"] <= LINE_GAP_EM * c["size"])
            if not same:
                close()
        run.append(c)
    close()
    return lines


def _blocks(lines: list[TextLine], np=None) -> list[int]:
    """A block number for each line: lines of one paragraph (the next baseline at most ``BLOCK_PITCH_EM``
    of the larger size below, overlapping across; a heading leads its paragraph) share one.

    Only lines whose baselines are that close (or within 0.05 mm: a run-in heading) can be joined:
    numpy (``np``, when given) picks those pairs out, with ``PAIR_SLACK_MM`` to spare, and each is
    tested exactly, in the order of a double loop, so the blocks are those the double loop gives."""
    block = list(range(len(lines)))

    def find(i: int) -> int:
        while block[i] != i:
            block[i] = block[block[i]]
            i = block[i]
        return i

    if np is None:
        pairs = ((i, j) for i in range(len(lines)) for j in range(i + 1, len(lines)))
    else:
        baselines = np.array([line.baseline for line in lines], dtype=float)
        sizes = np.array([pt_to_mm(line.size) for line in lines], dtype=float)

        def near(start: int, stop: int):
            pitch = np.abs(baselines - baselines[start:stop, None])
            reach = np.maximum(BLOCK_PITCH_EM * np.maximum(sizes, sizes[start:stop, None]), 0.05) + PAIR_SLACK_MM
            return (np.arange(len(lines)) > np.arange(start, stop)[:, None]) & (pitch <= reach)

        pairs = zip(*_pairs_where(len(lines), len(lines), near, np))
    for i, j in pairs:
        a, b = lines[i], lines[j]
        pitch = abs(b.baseline - a.baseline)
        if (0 < pitch <= BLOCK_PITCH_EM * pt_to_mm(max(a.size, b.size))
                and a.x0 < b.x1 and b.x0 < a.x1):
            block[find(i)] = find(j)
        elif (pitch < 0.05 and abs(a.size - b.size) < 0.01
              and max(a.x0 - b.x1, b.x0 - a.x1) <= RUN_IN_EM * pt_to_mm(a.size)):
            block[find(i)] = find(j)  # a run-in heading and its paragraph's first line: one line
    return [find(i) for i in range(len(lines))]


def _segments(page):
    """The edges a player sees on the page, in mm from its top-left: (x0, y0, x1, y1, half line width,
    what). A rectangle (stroked, or filled in a colour that is not white) gives its four sides, a
    line itself, a curve or polygon the segments between its points; ``role`` is "icon" for a curve
    no larger than ``SYMBOL_MAX_MM`` each way, "ground" for a band's long side (see ``check_clearance``),
    else empty; ``box`` the shape's bounding box."""
    mm = pt_to_mm
    for kind, o, stroke, _ in _shapes(page):
        half = mm(o.get("linewidth") or 0) / 2 if stroke else 0.0
        if kind == "rectangle":
            x0, top, x1, bottom = (mm(o[k]) for k in ("x0", "top", "x1", "bottom"))
            points = [(x0, top), (x1, top), (x1, bottom), (x0, bottom), (x0, top)]
        else:
            points = [(mm(x), mm(y)) for x, y in _flattened(o)]
        if not points:
            continue
        xs, ys = [x for x, _ in points], [y for _, y in points]
        left, right, high, low = min(xs), max(xs), min(ys), max(ys)
        w, h = right - left, low - high
        symbol = kind == "curve" and w <= SYMBOL_MAX_MM and h <= SYMBOL_MAX_MM
        box = (left - half, high - half, right + half, low + half)
        band = kind == "rectangle" and min(w, h) <= SYMBOL_MAX_MM and max(w, h) >= BAND_RATIO * min(w, h)
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            # a band's long sides: a text inside the band is its label, measured only to its ends
            along = band and (abs(by - ay) < 1e-9 if w > h else abs(bx - ax) < 1e-9)
            yield ax, ay, bx, by, half, kind, "icon" if symbol else "ground" if along else "", box


def _flattened(o) -> list[tuple[float, float]]:
    """A line's or curve's points in pt, each Bézier segment of its ``path`` (m, l, c, h operators, as
    pdfplumber gives them) followed in ``BEZIER_STEPS`` chords, so a circle is measured as a circle
    and not as the diamond of its four end points; without a path, its ``pts``."""
    path = o.get("path")
    if not path:
        return list(o.get("pts") or ())
    points: list[tuple[float, float]] = []
    start = None
    for op, *args in path:
        if op == "m":
            start = args[0]
            points.append(args[0])
        elif op == "l":
            points.append(args[0])
        elif op == "c" and points:
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[-1], *args
            points += [(w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3, w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3)
                       for w0, w1, w2, w3 in BEZIER_WEIGHTS]
        elif op == "h" and start is not None:
            points.append(start)
    return points


# the Bézier weights of each chord's end, t = 1/BEZIER_STEPS ... 1 and u = 1 - t, computed once and
# multiplied in the formula's own order (u*u*u, then times x0), so every point is the same to the bit
BEZIER_WEIGHTS = tuple((u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                       for t, u in ((i / BEZIER_STEPS, 1 - i / BEZIER_STEPS) for i in range(1, BEZIER_STEPS + 1)))


def _point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _box_segment(box: TextLine, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance in mm between a line's ink box and a segment (0 when they meet)."""
    x0, top, x1, bottom = box.x0, box.top, box.x1, box.bottom
    # the segment's part inside the box's slab (Liang-Barsky): any part inside means they meet
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - top), (dy, bottom - ay)):
        if p == 0:
            if q < 0:
                break
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    else:
        if t0 <= t1:
            return 0.0
    corners = ((x0, top), (x1, top), (x1, bottom), (x0, bottom))
    ends = min(math.hypot(max(x0 - x, 0, x - x1), max(top - y, 0, y - bottom)) for x, y in ((ax, ay), (bx, by)))
    return min([ends] + [_point_segment(cx, cy, ax, ay, bx, by) for cx, cy in corners])


def _box_box(a: TextLine, b: TextLine) -> float:
    return math.hypot(max(a.x0 - b.x1, b.x0 - a.x1, 0.0), max(a.top - b.bottom, b.top - a.bottom, 0.0))


def _font_inks(reader: PdfReader) -> dict[int, dict[str, dict]]:
    """Page number -> font name -> text -> ink box in em, for every readable embedded TrueType font."""
    read: dict[int, dict] = {}
    pages: dict[int, dict[str, dict]] = {}
    for number, page in enumerate(reader.pages, 1):
        fonts: dict[str, dict] = {}
        for _, font in _page_fonts(page.get("/Resources")):
            if id(font) not in read:
                found = _glyph_ink(font)
                read[id(font)] = (font, found[0] if found else {})
            fonts[_base_name(font)] = read[id(font)][1]
        pages[number] = fonts
    return pages


@dataclass(frozen=True)
class Crowding:
    """A text line closer than ``CLEARANCE_MM`` to a box edge or another text (see ``check_clearance``)."""

    page: int
    gap_mm: float
    text: str  # the line's text
    what: str  # "a rectangle edge", "a line edge", "a curve edge" or "the text '...'"
    x_mm: float
    top_mm: float

    def __str__(self) -> str:
        return f"{self.text[:30]!r} {max(self.gap_mm, 0):.1f} mm from {self.what} at ({self.x_mm:.0f}, {self.top_mm:.0f}) mm"


def clearance_findings(pdf, reader: PdfReader, counts: list | None = None) -> list[Crowding]:
    """Every text line of the file closer than ``CLEARANCE_MM`` to a box edge (the nearest one) or to
    another text, as ``check_clearance`` defines them; ``counts`` gets the lines read per page."""
    import numpy as np

    inks = _font_inks(reader)
    out: list[Crowding] = []
    for number, page in enumerate(pdf.pages, 1):
        lines = _text_lines(page, inks.get(number, {}))
        if counts is not None:
            counts.append(len(lines))
        segments = list(_segments(page))
        for line, worst in zip(lines, _nearest_edges(lines, segments, np)):
            if worst is not None:
                out.append(Crowding(number, worst[0], line.text, worst[1], line.x0, line.top))
        for i, j, gap in _crowded_texts(lines, np):
            a, b = lines[i], lines[j]
            out.append(Crowding(number, gap, a.text, f"the text {b.text[:30]!r}", a.x0, a.top))
    return out


def _crowded_texts(lines: list[TextLine], np) -> list[tuple[int, int, float]]:
    """(i, j, gap in mm), i < j in the order of a double loop, of every two lines of different
    paragraphs (``_blocks``) closer than ``CLEARANCE_MM``: only pairs numpy finds near are measured."""
    block = _blocks(lines, np)
    limit = CLEARANCE_MM - 0.005
    found = []
    for i, j in _pairs_near(lines, limit, np):
        if block[i] != block[j]:
            gap = _box_box(lines[i], lines[j])
            if gap < limit:
                found.append((i, j, gap))
    return found


PAIRS_PER_BATCH = 1 << 21  # (row, column) pairs one numpy comparison holds (memory: 2 MB a mask, 16 MB a float array)


def _pairs_where(rows: int, columns: int, mask_of_rows, np) -> tuple[list[int], list[int]]:
    """The (row, column) pairs where ``mask_of_rows(start, stop)`` (a rows x columns boolean array for
    rows ``start:stop``) is true, row by row and each row's columns in order: the order of a plain
    double loop. Rows are taken a batch at a time, so the mask stays within ``PAIRS_PER_BATCH``."""
    found_rows: list[int] = []
    found_columns: list[int] = []
    if rows == 0 or columns == 0:
        return found_rows, found_columns
    step = max(1, PAIRS_PER_BATCH // columns)
    for start in range(0, rows, step):
        r, c = np.nonzero(mask_of_rows(start, min(start + step, rows)))
        found_rows += (r + start).tolist()
        found_columns += c.tolist()
    return found_rows, found_columns


def _nearest_edges(lines: list[TextLine], segments: list, np) -> list[tuple[float, str] | None]:
    """For each line, the nearest box edge closer than it may be (gap in mm, "a <kind> edge"), or None.

    Only a segment whose box (widened by its half line width) comes within ``CLEARANCE_MM`` of the
    line's box can be that close: numpy finds those pairs for the whole page at once, with the very
    comparisons the exact test would reject the others by; each is then measured exactly, segments
    in the page's order, the first of equal gaps kept."""
    worst: list[tuple[float, str] | None] = [None] * len(lines)
    if not lines or not segments:
        return worst
    ends = np.array([segment[:5] for segment in segments], dtype=float)
    ax, ay, bx, by, half = ends.T
    left, right = np.minimum(ax, bx) - half, np.maximum(ax, bx) + half
    high, low = np.minimum(ay, by) - half, np.maximum(ay, by) + half
    boxes = np.array([(line.x0, line.top, line.x1, line.bottom) for line in lines], dtype=float)
    x0, top = boxes[:, 0:1] - CLEARANCE_MM, boxes[:, 1:2] - CLEARANCE_MM
    x1, bottom = boxes[:, 2:3] + CLEARANCE_MM, boxes[:, 3:4] + CLEARANCE_MM

    def near(start: int, stop: int):
        return ((left <= x1[start:stop]) & (right >= x0[start:stop])
                & (high <= bottom[start:stop]) & (low >= top[start:stop]))

    for i, k in zip(*_pairs_where(len(lines), len(segments), near, np)):
        line = lines[i]
        ax, ay, bx, by, half, kind, role, (sx0, sy0, sx1, sy1) = segments[k]
        middle = ((line.x0 + line.x1) / 2, (line.top + line.bottom) / 2)
        inside = sx0 <= middle[0] <= sx1 and sy0 <= middle[1] <= sy1
        if (role == "icon" and not inside) or (role == "ground" and inside):
            continue  # an icon the text labels, or the band the text is set on: not a box around it
        # a text centred in an icon (a number on a coin) is the icon's face: it keeps off the ring
        centred = role == "icon" and all(abs(m - (lo + hi) / 2) <= ICON_CENTRED * (hi - lo)
                                         for m, lo, hi in ((middle[0], sx0, sx1), (middle[1], sy0, sy1)))
        limit = ICON_LABEL_MM if centred else CLEARANCE_MM
        gap = _box_segment(line, ax, ay, bx, by) - half
        if gap < limit - 0.005 and (worst[i] is None or gap < worst[i][0]):
            worst[i] = (gap, f"a {kind} edge")
    return worst


PAIR_SLACK_MM = 1e-6  # numpy's pre-selection of pairs is this much wider than the exact test


def _pairs_near(lines: list[TextLine], limit: float, np) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, in the order of a double loop, of lines whose boxes may be closer than
    ``limit`` mm: their gap across and their gap down each under it (the distance, ``_box_box``,
    is at least either), with ``PAIR_SLACK_MM`` to spare; the caller measures each exactly."""
    boxes = np.array([(line.x0, line.top, line.x1, line.bottom) for line in lines], dtype=float).reshape(-1, 4)
    x0, top, x1, bottom = boxes.T
    reach = limit + PAIR_SLACK_MM

    def near(start: int, stop: int):
        later = np.arange(len(lines)) > np.arange(start, stop)[:, None]
        return (later & (x0 < x1[start:stop, None] + reach) & (x0[start:stop, None] < x1 + reach)
                & (top < bottom[start:stop, None] + reach) & (top[start:stop, None] < bottom + reach))

    return list(zip(*_pairs_where(len(lines), len(lines), near, np)))


def check_clearance(pdf, reader: PdfReader) -> CheckResult:
    """No text line closer than ``CLEARANCE_MM`` to a box's edge or to another text.

    What a player sees, read from the file:

    - a *text line* is a run of upright characters on one baseline at one size, each following the
      last by less than ``LINE_GAP_EM`` (wider gaps are two texts); its box is its glyphs' ink, read
      from the embedded font (each glyph's bounding box), not the advance box, so a line of digits
      is measured from its digits' tops and bottoms;
    - a *box edge* is any side of a rectangle that is stroked or filled in a colour (not white), any
      line, and any segment of a curve or polygon (outlines, arrows; a curve's Bézier segments are
      followed in ``BEZIER_STEPS`` chords each, so a circle is measured as a circle); a
      small curve (an icon, at most ``SYMBOL_MAX_MM`` each way) is a box only to a text inside it,
      a text beside it being its label; a text centred in it (its middle within ``ICON_CENTRED`` of
      the icon's size from its centre: a number on a coin) is its face, and keeps only
      ``ICON_LABEL_MM`` from its outline: clear of the ring, as a player reads a coin;
      a band (a rectangle at most ``SYMBOL_MAX_MM`` thick and ``BAND_RATIO`` times as long: a board's
      edge band) is, in the same way, a box only at its ends to a text inside it (the band's label,
      "WHITE" set along it), its long sides being the label's ground; to a text outside it, every
      side is a box edge;
      a stroke counts from its outer edge (half its width out). A text sitting in a table cell, a
      tally box or on a coloured panel is therefore measured to that cell's, box's or panel's sides;
    - *another text* is a text line of another paragraph: lines of one paragraph (baselines at most
      ``BLOCK_PITCH_EM`` em of the larger size apart, overlapping across, so a heading leads its
      paragraph; a run-in heading and the first line after it, on one baseline at one size at most
      ``RUN_IN_EM`` apart, are one line of it) are set by the leading and not measured against each other.

    Rotated text is not measured (no sheet sets body text at an angle).
    """
    problems = []
    counted = 0
    pages: dict[int, list[Crowding]] = {}
    for found in clearance_findings(pdf, reader, counts := []):
        pages.setdefault(found.page, []).append(found)
    counted = sum(counts)
    for number, found in sorted(pages.items()):
        found.sort(key=lambda f: f.gap_mm)
        problems.append(f"page {number}: {len(found)} text line(s) closer than {CLEARANCE_MM:g} mm to a box or another text, e.g. "
                        + "; ".join(str(f) for f in found[:3]))
    return CheckResult("clearance", not problems, "; ".join(problems[:3])
                       or f"{counted} text line(s), each at least {CLEARANCE_MM:g} mm from every box edge and every other text")


def check_line_ends(pdf) -> CheckResult:
    """No text line starts with a separator (``·``, ``|``, ``/``, a dash) or closing punctuation, or
    ends with opening punctuation, in any script: a break there strands the mark away from the
    word it belongs to. A line is read as ``check_clearance`` reads it."""
    problems = []
    counted = 0
    for number, page in enumerate(pdf.pages, 1):
        for line in _text_lines(page, {}):
            counted += 1
            text = line.text
            if text[0] in SEPARATORS or text[0] in CLOSING:
                problems.append(f"page {number}: a line starts with {text[0]!r}: {text[:40]!r}")
            elif text[-1] in OPENING:
                problems.append(f"page {number}: a line ends with {text[-1]!r}: {text[-40:]!r}")
    return CheckResult("line ends", not problems, "; ".join(problems[:4])
                       or f"{counted} text line(s): none starts with a separator or closing mark, none ends with an opening one")


def preflight(path: Path | str, subject: str, pdf=None, reader=None) -> list[CheckResult]:
    """Every preflight check on the PDF at ``path``; ``subject`` holds its parameters (JSON).

    ``pdf`` (``open_pdf``'s pages) and ``reader`` (pypdf), when given, are the file already open.
    """
    path = Path(path)
    params = _params(subject)
    try:
        reader = reader if reader is not None else PdfReader(str(path))
        if pdf is None:
            with open_pdf(path) as opened:
                return preflight(path, subject, opened, reader)
        results = check_fonts(path, pdf, reader)
        results.append(check_text_sizes(pdf, params))
        results.append(check_safe_zone(pdf, reader, params))
        results.append(check_page_boxes(reader, params, pdf))
        results.append(check_visible_text(path, pdf))
        results.append(check_clearance(pdf, reader))
        results.append(check_line_ends(pdf))
    except Exception as error:  # a file damaged in a way no check foresaw is a failed preflight, not a crash
        return [CheckResult("preflight", False, f"{type(error).__name__}: {error}")]
    return results
