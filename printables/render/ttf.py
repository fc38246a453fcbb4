"""reportlab's TrueType font, read faster: the same face, its tables unpacked whole.

reportlab reads a face's character map, horizontal metrics and glyph locations one number at a
time (``TTFontFile.extractInfo``), about 7 ms a Noto Sans face and far more for NanumGothic's
20,000 glyphs: a sheet command with three faces spent more time there than on its own drawing.
``FastTTFont`` lets reportlab read everything else (names, header, OS/2, post, hhea, maxp) and
unpacks the cmap (format 4, the format of every face in ``printables.fonts``), hmtx and loca tables
with one ``struct`` call each, building the very attributes reportlab builds, in the same order. A
face in any other cmap format is read by reportlab's own code. tests/test_render_ttf.py compares
every attribute with reportlab's reading of each installed face; the PDFs are the same bytes.
"""

from __future__ import annotations

from fnmatch import fnmatch
from functools import cached_property
from itertools import islice
from struct import unpack_from
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace, TTFontFile


def _read_char_info(face: TTFontFace) -> bool:
    """Set charToGlyph, glyphToChar, charWidths, defaultWidth, hmetrics and glyphPos as reportlab does.

    Returns False (setting nothing) for a face this reader does not handle; reportlab reads it then.
    """
    data = face._ttf_data
    table = face.table
    if not all(tag in table for tag in ("head", "hhea", "cmap", "hmtx", "loca")):
        return False
    head = table["head"]["offset"]
    index_to_loc_format, glyph_data_format = unpack_from(">HH", data, head + 50)
    if glyph_data_format != 0 or index_to_loc_format not in (0, 1):
        return False
    (number_of_hmetrics,) = unpack_from(">H", data, table["hhea"]["offset"] + 34)
    num_glyphs = face.numGlyphs

    # The subtable reportlab chooses: the last one of its preferred kinds (ttfonts.py, "cmap").
    cmap = table["cmap"]["offset"]
    version, count = unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    chosen, kind = None, 0
    for n in range(count):
        platform, encoding, offset = unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3:
            kind, chosen = 1, offset
        elif platform == 1 and encoding == 0 and kind != 1:
            kind, chosen = 2, offset
        elif platform == 1 and encoding == 1:
            kind, chosen = 1, offset
        elif platform == 0 and encoding != 5:
            kind, chosen = 1, offset
    if chosen is None:
        return False
    start = cmap + chosen
    fmt, length = unpack_from(">HH", data, start)
    if fmt != 4:
        return False
    limit = start + length
    segments = unpack_from(">H", data, start + 6)[0] // 2
    ends = unpack_from(f">{segments}H", data, start + 14)
    starts = unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
    deltas = unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
    range_offsets_at = start + 16 + 6 * segments
    range_offsets = unpack_from(f">{segments}H", data, range_offsets_at)

    if number_of_hmetrics > num_glyphs:
        return False
    char_to_glyph: dict[int, int] = {}
    walked = 0
    for n in range(segments):
        first, last, delta, range_offset = starts[n], ends[n], deltas[n], range_offsets[n]
        codes = range(first, last + 1)
        if range_offset == 0:
            glyphs = [(unichar + delta) & 0xFFFF for unichar in codes]
        else:
            glyphs = []
            at = range_offsets_at + 2 * n + range_offset - 2 * first  # the glyph of unichar u is at at + 2u
            for unichar in codes:
                offset = at + 2 * unichar
                if offset >= limit:  # reportlab's guard for broken fonts
                    glyphs.append(0)
                else:
                    glyph = unpack_from(">H", data, offset)[0]
                    glyphs.append((glyph + delta) & 0xFFFF if glyph else 0)
        char_to_glyph.update(zip(codes, glyphs))
        walked += len(codes)
    if walked != len(char_to_glyph):  # a code in two segments: reportlab's lists keep both
        return False

    # hmtx: (advance, left side bearing) per glyph, both read unsigned; the glyphs past
    # numberOfHMetrics repeat the last advance, which reportlab has already scaled by then.
    hmtx = table["hmtx"]["offset"]
    numbers = unpack_from(f">{2 * number_of_hmetrics}H", data, hmtx)
    hmetrics = list(zip(numbers[0::2], numbers[1::2]))
    advances = list(numbers[0::2] if face.unitsPerEm == 1000 else map(face._pdfScale, numbers[0::2]))  # x -> x at 1000
    face.defaultWidth = advances[0]
    if num_glyphs > number_of_hmetrics:
        bearings = unpack_from(f">{num_glyphs - number_of_hmetrics}H", data, hmtx + 4 * number_of_hmetrics)
        hmetrics.extend(zip([advances[-1]] * len(bearings), bearings))
        advances.extend([advances[-1]] * len(bearings))
    # The width of every mapped character whose glyph exists (reportlab fills the same dict glyph
    # by glyph; only lookups ever read it).
    char_widths = {char: advances[glyph] for char, glyph in char_to_glyph.items() if glyph < num_glyphs}

    loca = table["loca"]["offset"]
    if index_to_loc_format == 0:
        glyph_pos = [position << 1 for position in unpack_from(f">{num_glyphs + 1}H", data, loca)]
        face._pos = loca + 2 * (num_glyphs + 1)
    else:
        glyph_pos = list(unpack_from(f">{num_glyphs + 1}L", data, loca))
        face._pos = loca + 4 * (num_glyphs + 1)

    # U+00A0 and the space share a glyph (reportlab's last step). glyphToChar is made on first use
    # from the cmap as read: the number of codes read and the entry the copy overwrote, if any.
    copy = 0xA0 if 0x20 in char_to_glyph else 0x20 if 0xA0 in char_to_glyph else None
    overwritten = (copy, char_to_glyph[copy]) if copy in char_to_glyph else None
    face._cmap_as_read = (len(char_to_glyph), overwritten)
    if copy is not None:
        source = 0x20 if copy == 0xA0 else 0xA0
        char_to_glyph[copy] = char_to_glyph[source]
        char_widths[copy] = char_widths[source]
    face.charToGlyph, face.charWidths = char_to_glyph, char_widths
    face.hmetrics, face.glyphPos = hmetrics, glyph_pos
    return True


class FastTTFontFace(TTFontFace):
    """reportlab's TrueType face, its per-glyph tables unpacked whole (same attributes).

    ``data``, when given, is the file's content already read (printables.fonts reads it to check
    its stored metrics): reportlab's reader keeps file data already there instead of reading the
    file again.
    """

    def __init__(self, filename: str, data: bytes | None = None) -> None:
        if data is not None:
            self.filename, self._ttf_data = filename, data  # what TTFontParser.readFile sets
        TTFontFace.__init__(self, filename)

    @cached_property
    def glyphToChar(self) -> dict[int, list[int]]:  # noqa: N802 - reportlab's name
        """Glyph -> the characters mapped to it, in cmap order (only reportlab's text shaping reads it)."""
        glyph_to_char: dict[int, list[int]] = {}
        codes, overwritten = self._cmap_as_read
        for char, glyph in islice(self.charToGlyph.items(), codes):
            if overwritten and char == overwritten[0]:
                glyph = overwritten[1]
            chars = glyph_to_char.get(glyph)
            if chars is None:
                glyph_to_char[glyph] = [char]
            else:
                chars.append(char)
        return glyph_to_char

    def extractInfo(self, charInfo=1):  # noqa: N802, N803 - reportlab's names
        TTFontFile.extractInfo(self, 0)  # names and header values, as reportlab reads them
        if charInfo and not _read_char_info(self):
            TTFontFile.extractInfo(self, charInfo)


class FastTTFont(TTFont):
    """``reportlab.pdfbase.ttfonts.TTFont(name, filename)`` with the face read by ``FastTTFontFace``."""

    def __init__(self, name: str, filename: str, data: bytes | None = None) -> None:  # TTFont.__init__, its defaults
        self.fontName = name
        self.face = FastTTFontFace(filename, data)
        self.encoding = TTEncoding()
        self.state = WeakKeyDictionary()
        self._asciiReadable = rl_config.ttfAsciiReadable
        self.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
