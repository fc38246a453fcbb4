"""The faster TrueType reading (printables/render/ttf.py) gives reportlab's very font objects."""

import shutil
import struct

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from printables import fonts
from printables.render.ttf import FastTTFont, FastTTFontFace


def _installed_faces():
    found = []
    for face in fonts.FACES:
        try:
            found.append(fonts.font_file(face))
        except fonts.FontMissing:
            pass
    return found


def _assert_same_font(fast: TTFont, slow: TTFont) -> None:
    fast_vars, slow_vars = dict(vars(fast)), dict(vars(slow))
    assert dict(fast_vars.pop("state")) == dict(slow_vars.pop("state")) == {}
    assert vars(fast_vars.pop("encoding")) == vars(slow_vars.pop("encoding"))
    fast_face, slow_face = vars(fast_vars.pop("face")), vars(slow_vars.pop("face"))
    assert fast_vars == slow_vars
    fast_face, slow_face = dict(fast_face), dict(slow_face)
    fast_scale, slow_scale = fast_face.pop("_pdfScale"), slow_face.pop("_pdfScale")
    assert [fast_scale(v) for v in (0, 1, 777, 2048)] == [slow_scale(v) for v in (0, 1, 777, 2048)]
    fast_face.pop("_cmap_as_read", None)  # the faster face's note for making glyphToChar
    if "glyphToChar" not in fast_face:  # made on first use
        fast_face["glyphToChar"] = fast.face.glyphToChar
    assert fast_face.keys() == slow_face.keys()
    for key in slow_face:
        assert fast_face[key] == slow_face[key], key
        if isinstance(slow_face[key], dict) and key != "charWidths":  # the same order too (charWidths is only looked up in)
            assert list(fast_face[key].items()) == list(slow_face[key].items()), key


@pytest.mark.parametrize("path", _installed_faces(), ids=lambda p: p.name)
def test_every_installed_face_reads_exactly_as_reportlab_reads_it(path):
    _assert_same_font(FastTTFont("Face", str(path)), TTFont("Face", str(path)))


def test_a_face_in_another_cmap_format_is_read_by_reportlab_itself(tmp_path, monkeypatch):
    # Every installed face has a format 4 cmap; a face the reader declines (any other format) is
    # read by reportlab's own code, with the same result.
    path = fonts.font_file("regular")
    calls = []
    monkeypatch.setattr("printables.render.ttf._read_char_info", lambda face: calls.append(face) or False)
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    _assert_same_font(FastTTFont("Face", str(copy)), TTFont("Face", str(copy)))
    assert len(calls) == 1 and isinstance(calls[0], FastTTFontFace)


def test_a_broken_range_offset_reads_as_reportlab_reads_it(tmp_path):
    # A cmap segment whose idRangeOffset points past the subtable: reportlab maps its characters
    # to glyph 0 (its guard for broken fonts); so must the faster reading.
    path = fonts.font_file("regular")
    data = bytearray(path.read_bytes())
    face = TTFont("Face", str(path)).face
    cmap = face.table["cmap"]["offset"]
    _, count = struct.unpack_from(">HH", data, cmap)
    subtables = [struct.unpack_from(">HHL", data, cmap + 4 + 8 * n) for n in range(count)]
    start = cmap + subtables[-1][2]
    assert struct.unpack_from(">H", data, start)[0] == 4
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    # the first segment: point its idRangeOffset far past the table
    struct.pack_into(">H", data, start + 16 + 6 * segments, 0xFFFE)
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(bytes(data))
    fast, slow = FastTTFont("Face", str(broken)), TTFont("Face", str(broken))
    _assert_same_font(fast, slow)
    first = struct.unpack_from(">H", data, start + 16 + 2 * segments)[0]
    assert fast.face.charToGlyph[first] == 0


@pytest.mark.parametrize("path", _installed_faces()[:2], ids=lambda p: p.name)
def test_a_face_given_the_file_bytes_reads_as_from_the_file(path):
    _assert_same_font(FastTTFont("Face", str(path), path.read_bytes()), TTFont("Face", str(path)))


def test_the_renderer_embeds_the_bytes_the_metrics_were_checked_on(monkeypatch, tmp_path):
    # printables.fonts reads a face's file to check its stored metrics; the renderer takes those
    # bytes (once) instead of reading the file again, and reads it itself when there are none.
    from reportlab.pdfbase import pdfmetrics

    from printables.render import pdf

    path = fonts.font_file("regular")
    fonts._metrics.cache_clear()
    fonts._READ_FOR_CHECK.clear()
    fonts._metrics("regular")
    data = fonts._READ_FOR_CHECK[str(path)]
    assert data == path.read_bytes()
    made = []
    monkeypatch.setattr(pdf, "FastTTFont", lambda *args: made.append(args) or FastTTFont(*args))
    monkeypatch.setattr(pdfmetrics, "getRegisteredFontNames", lambda: [])
    monkeypatch.setattr(pdfmetrics, "registerFont", lambda font: None)
    pdf._font("Helvetica")
    assert made[-1][2] is data and str(path) not in fonts._READ_FOR_CHECK
    pdf._font("Helvetica")
    assert made[-1][2] is None  # handed over once; later it is read from the file
