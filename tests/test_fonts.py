"""The one embedded font: Noto Sans found, embedded and subset in every PDF, its real metrics."""

import io

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from printables import fonts
from printables.cli import main
from printables.layout.primitives import Document, Page, Text
from printables.render.pdf import render_pdf
from tests.conftest import assert_one_line_error


def _fonts(data: bytes) -> list[dict]:
    reader = PdfReader(io.BytesIO(data))
    found = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            found.append({
                "name": str(font["/BaseFont"]).lstrip("/"),
                "embedded": descriptor is not None and "/FontFile2" in descriptor.get_object(),
            })
    return found


def _document(*texts: Text) -> Document:
    return Document(pages=(Page(100.0, 100.0, texts),), title="t", subject="{}", keywords="printables:test")


def test_every_face_a_layout_names_is_embedded_as_a_noto_sans_subset():
    data = render_pdf(_document(
        Text(10, 10, "Çağrı ışık İzmir", font="Helvetica"),
        Text(10, 20, "Bold ĞŞ", font="Helvetica-Bold"),
        Text(10, 30, "Oblique ő", font="Helvetica-Oblique"),
    ))
    found = _fonts(data)
    assert {f["name"].split("+", 1)[1] for f in found} == {"NotoSans-Regular", "NotoSans-Bold", "NotoSans-Italic"}
    assert all(f["embedded"] for f in found)
    assert all(len(f["name"].split("+")[0]) == 6 for f in found)  # subset tag: a subset, not the whole font


def test_same_document_gives_identical_bytes():
    doc = _document(Text(10, 10, "Breakfast Shy ğ", font="Helvetica-Bold"))
    assert render_pdf(doc) == render_pdf(doc)


def test_bytes_do_not_depend_on_what_was_rendered_before():
    doc = _document(Text(10, 10, "Harvest", font="Helvetica"), Text(10, 20, "Bold", font="Helvetica-Bold"))
    first = render_pdf(doc)
    render_pdf(_document(Text(10, 10, "other letters: ÇĞİŞ xyz 0123456789" * 10, font="Helvetica-Bold")))
    assert render_pdf(doc) == first


def test_widths_are_the_embedded_fonts_own():
    text = "Roll two dice; write each value in a pea — Çİğ"
    for name, registered in (("Helvetica", "NotoSans"), ("Helvetica-Bold", "NotoSans-Bold")):
        render_pdf(_document(Text(10, 10, "x", font=name)))  # registers the face with reportlab
        assert fonts.text_width_mm(text, 10, name) == pytest.approx(stringWidth(text, registered, 10) * 25.4 / 72, rel=1e-9)
    # Noto Sans is wider than Helvetica: a layout measuring with Helvetica would overflow
    assert fonts.text_width_mm("mmmm", 10) > stringWidth("mmmm", "Helvetica", 10) * 25.4 / 72


def test_turkish_and_latin_extended_have_glyphs():
    assert fonts.has_glyph("ÇçĞğİıÖöŞşÜü ŁłŐőŽž€")
    assert not fonts.has_glyph("한")


def test_stored_metrics_are_the_installed_files_own():
    for face in fonts.FACES:
        path = fonts.font_file(face)
        stored = fonts._stored_metrics(path)
        assert stored is not None, f"{path} is not the file printables/fontdata was made from: run tools/font_table.py"
        assert stored == fonts.measure_face(path)


def test_the_stored_table_spares_reading_the_font(monkeypatch):
    fonts._metrics.cache_clear()
    monkeypatch.setattr(fonts, "measure_face", lambda path: pytest.fail(f"read {path} although its table is stored"))
    try:
        assert fonts.text_width_mm("mmmm", 10) > 0
    finally:
        fonts._metrics.cache_clear()


def test_another_font_file_is_measured_not_looked_up(tmp_path, monkeypatch):
    # a different file under the regular face's name (another version of the font): its own widths
    regular, bold = fonts.text_width_mm("Harvest", 10, "Helvetica"), fonts.text_width_mm("Harvest", 10, "Helvetica-Bold")
    assert regular < bold
    (tmp_path / "NotoSans-Regular.ttf").write_bytes(fonts.font_file("bold").read_bytes())
    monkeypatch.setenv(fonts.FONT_DIR_ENV, str(tmp_path))
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()
    try:
        assert fonts._stored_metrics(fonts.font_file("regular")) is None
        assert fonts.text_width_mm("Harvest", 10, "Helvetica") == bold
    finally:
        fonts.font_file.cache_clear()
        fonts._metrics.cache_clear()


def test_an_unknown_font_name_is_refused():
    with pytest.raises(ValueError, match="font 'Comic'"):
        fonts.face_of("Comic")


def test_missing_font_files_are_one_line_naming_the_package(tmp_path, monkeypatch):
    # nothing in the font folders, and the Python font packages not installed
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    monkeypatch.setattr(fonts, "PACKAGE_FILES", {})
    monkeypatch.delenv(fonts.FONT_DIR_ENV, raising=False)
    fonts.font_file.cache_clear()
    # a fresh face name forces the renderer to look for the file again
    monkeypatch.setattr(fonts, "FACES", {**fonts.FACES, "regular": ("NotoSansMissingTest", "NotoSans-Regular.ttf")})
    try:
        result = CliRunner().invoke(main, ["harvest", "-o", str(tmp_path / "h.pdf")])
    finally:
        fonts.font_file.cache_clear()
    assert_one_line_error(result, "apt-get install fonts-noto-core")
    assert "pip install fontpkg-noto-sans" in result.output
    assert not (tmp_path / "h.pdf").exists()


def test_word_units_are_each_words_advances_and_follow_the_font_file(tmp_path, monkeypatch):
    text = "Harvest the  fields\tfirst"
    words, plain, spaced = fonts.word_units(text)
    assert words == ("Harvest", "the", "fields", "first")
    assert plain == tuple(fonts.advance_units(w) for w in words)
    assert spaced == tuple(fonts.advance_units(" " + w) for w in words)
    # another file under the regular face's name: measured again, not taken from the earlier text
    (tmp_path / "NotoSans-Regular.ttf").write_bytes(fonts.font_file("bold").read_bytes())
    monkeypatch.setenv(fonts.FONT_DIR_ENV, str(tmp_path))
    fonts.font_file.cache_clear()
    fonts._metrics.cache_clear()
    try:
        assert fonts.word_units(text)[1] == tuple(fonts.advance_units(w, "Helvetica-Bold") for w in words) != plain
    finally:
        fonts.font_file.cache_clear()
        fonts._metrics.cache_clear()


def test_wrap_breaks_where_the_measured_widths_say():
    # primitives.wrap adds whole font units and converts them with the face's units per em (what
    # fonts.units_to_mm does, written out): each line fits, and the next word would not have.
    import random

    from printables.layout.primitives import wrap
    from printables.linebreak import glue_words

    rng = random.Random(5)
    words = "a an the quilt patch button time track 7x7 bonus leather · Überzug çalış — 123 53".split()
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        font = rng.choice(["Helvetica", "Helvetica-Bold"])
        size, width = rng.choice([6.5, 7.0, 8.0, 9.0]), rng.uniform(5.0, 190.0)
        lines = wrap(text, width, size, font)
        assert " ".join(lines).split() == text.split()
        for line, following in zip(lines, lines[1:] + [None]):
            if len(glue_words(line.split())) > 1:  # a lone unit wider than the line stands alone
                assert fonts.units_to_mm(fonts.advance_units(line, font), size, font) <= width
            if following is not None:
                # the next unit a line may take: a word with any lone mark glued to it (printables/linebreak.py)
                longer = f"{line} {glue_words(following.split())[0]}"
                assert fonts.units_to_mm(fonts.advance_units(longer, font), size, font) > width
